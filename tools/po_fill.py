"""Fill translations into a catalogue from a JSON object {msgid: msgstr} (a translator's
helper, docs/translating.md): ``python tools/po_fill.py es new.json``.

Entries it sets lose their fuzzy flag; the rest of the catalogue is kept. Run
``tools/catalogues.sh`` afterwards to compile.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent


def main(lang: str, source: str) -> None:
    path = ROOT / "cf" / "locale" / lang / "LC_MESSAGES" / "cf.po"
    with open(path, "rb") as handle:
        catalog = read_po(handle, locale=lang)
    with open(source, encoding="utf-8") as handle:
        wanted: dict[str, str | list[str]] = json.load(handle)
    missing = []
    for msgid, msgstr in wanted.items():
        key = msgid.split("\x00")[0]
        message = catalog.get(key)
        if message is None:
            missing.append(msgid)
            continue
        message.string = tuple(msgstr) if isinstance(msgstr, list) else msgstr
        message.flags.discard("fuzzy")
    with open(path, "wb") as handle:
        write_po(handle, catalog, width=0, omit_header=False)
    for msgid in missing:
        print(f"not in the catalogue (run tools/catalogues.sh first?): {msgid!r}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
