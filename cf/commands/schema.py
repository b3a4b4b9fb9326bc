"""``cf schema``: the JSON Schema of the game file, for editors."""

from __future__ import annotations

import typer

from cf.commands.common import command_app
from cf.i18n import _

app = command_app()


@app.command(
    short_help=_("Print the JSON Schema of the game file, for editors."),
    help=_("""Print a JSON Schema (draft 2020-12) of the game file.

    Editors that understand JSON Schema (VS Code with the YAML extension, and any editor
    that talks to yaml-language-server) then check a game file while it is typed: unknown
    keys, lists where text belongs, scores that are not whole numbers. Save it next to
    your games and name it on the file's first line:

    \b
      cf schema > game.schema.json
      # yaml-language-server: $schema=game.schema.json

    The schema checks the shape of the file only; cf validate checks the rules, and
    cf explain CODE tells what each of its problem codes means.
    """),
)
def schema() -> None:
    """The command; its --help is the decorator's help text (marked for translation)."""
    from cf.record.schema import schema_json

    typer.echo(schema_json(), nl=False)
