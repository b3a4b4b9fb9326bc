"""Rendering validation reports: text, JSON and GitHub workflow annotations."""

from __future__ import annotations

from cf.record.check import Report
from cf.record.problems import Problem
from cf.render.jsontext import dumps


def problem_line(file: str, p: Problem) -> str:
    """``FILE:LINE:COL: round R, move M: [code] message`` (unknown parts left out)."""
    where = file
    if p.line is not None:
        where += f":{p.line}"
        if p.column is not None:
            where += f":{p.column}"
    ctx = _context(p)
    return f"{where}: {ctx}[{p.code}] {p.message}"


def _context(p: Problem) -> str:
    """``round R, move M: `` as far as known, or nothing."""
    parts = [f"{what} {n}" for what, n in (("round", p.round), ("move", p.move)) if n is not None]
    return f"{', '.join(parts)}: " if parts else ""


def summary_line(r: Report) -> str:
    counts = f"{r.rounds} round(s), {r.moves} move(s)"
    if r.valid:
        return f"{r.file}: valid ({counts})"
    n = len(r.problems)
    return f"{r.file}: {n} problem{'s' if n != 1 else ''} ({counts})"


def as_json(reports: list[Report]) -> dict[str, object]:
    return {
        "valid": all(r.valid for r in reports),
        "files": [
            {
                "file": r.file,
                "valid": r.valid,
                "rounds": r.rounds,
                "moves": r.moves,
                "problems": [p.as_dict() for p in r.problems],
            }
            for r in reports
        ],
    }


def _github_escape(text: str, *, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def github_line(file: str, p: Problem) -> str:
    props = [f"file={_github_escape(file, prop=True)}"]
    if p.line is not None:
        props.append(f"line={p.line}")
    if p.column is not None:
        props.append(f"col={p.column}")
    props.append(f"title={_github_escape('cf ' + p.code, prop=True)}")
    text = f"{_context(p)}[{p.code}] {p.message}"
    return f"::error {','.join(props)}::{_github_escape(text)}"


def render_validation(reports: list[Report], fmt: str = "text") -> str:
    """The whole output of ``cf validate`` for ``reports``, newline-terminated."""
    if fmt == "json":
        return dumps(as_json(reports))
    lines: list[str] = []
    for r in reports:
        render = github_line if fmt == "github" else problem_line
        lines.extend(render(r.file, p) for p in r.problems)
        lines.append(summary_line(r))
    return "\n".join(lines) + "\n"
