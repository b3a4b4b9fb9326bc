"""The start-up baseline: a minimal Typer app with one command, nothing else imported.

``python bench/minimal_app.py 9-7 6-6 4-1`` prints 33, like ``cf score 9-7 6-6 4-1``; it
exists only so that bench/startup.sh can time the cost of Python + Typer alone.
"""

import typer

app = typer.Typer(add_completion=False)


@app.command()
def score(tiles: list[str]) -> None:
    """Sum the pips of the tiles."""
    total = 0
    for token in " ".join(tiles).split():
        a, b = token.split("-")
        total += int(a) + int(b)
    typer.echo(total)


if __name__ == "__main__":
    app()
