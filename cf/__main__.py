"""``python -m cf``: the same as the ``cf`` command."""

from cf.cli import run

run(prog_name="cf")
