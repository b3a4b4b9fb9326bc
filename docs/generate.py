"""Write the generated parts of the docs from the code that owns them.

- docs/game.schema.json: what ``cf schema`` prints (cf/record/schema.py);
- docs/file-format.md, between the BEGIN and END markers of "The problem codes": what
  ``cf explain`` says of every code (cf/record/explain.py, rendered by cf/render/explain.py).

Run ``python docs/generate.py`` after changing either; tests/test_explain.py and
tests/test_game_schema.py fail while the docs are stale.
"""

from __future__ import annotations

from pathlib import Path

from cf.record.schema import schema_json
from cf.render.explain import explain_markdown

DOCS = Path(__file__).parent
BEGIN = "<!-- BEGIN generated from cf/record/explain.py by docs/generate.py: do not edit -->"
END = "<!-- END generated -->"


def with_codes(text: str) -> str:
    """``text`` (file-format.md) with the generated section replaced by the current one."""
    head, _, rest = text.partition(BEGIN + "\n")
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n{explain_markdown()}{END}{tail}"


def main() -> None:
    (DOCS / "game.schema.json").write_text(schema_json(), encoding="utf-8")
    path = DOCS / "file-format.md"
    path.write_text(with_codes(path.read_text(encoding="utf-8")), encoding="utf-8")


if __name__ == "__main__":
    main()
