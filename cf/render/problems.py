"""Rendering validation reports: text, JSON, GitHub workflow annotations and SARIF."""

from __future__ import annotations

from cf.record.check import Report
from cf.record.problems import CODES, Problem
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
    n = _total(r)
    return f"{r.file}: {n} problem{'s' if n != 1 else ''} ({counts})"


def _total(r: Report) -> int:
    return len(r.problems) + sum(_omitted(r).values())


def _omitted(r: Report) -> dict[str, int]:
    """Problems past the per-file cap, by code, in the order of the codes."""
    omitted = getattr(r.problems, "omitted", None) or {}
    return {code: omitted[code] for code in CODES if omitted.get(code)}


def omitted_lines(r: Report) -> list[str]:
    """``FILE: … and N more [code] problems``, one line per code past the cap."""
    return [
        f"{r.file}: … and {n} more [{code}] problem{'s' if n != 1 else ''}"
        for code, n in _omitted(r).items()
    ]


def as_json(reports: list[Report]) -> dict[str, object]:
    """``{"valid", "files": [...]}``; a file with problems past the cap adds
    ``"omitted": {code: count}`` (``problems`` then holds the first ones)."""
    files = []
    for r in reports:
        entry: dict[str, object] = {
            "file": r.file,
            "valid": r.valid,
            "rounds": r.rounds,
            "moves": r.moves,
            "problems": [p.as_dict() for p in r.problems],
        }
        omitted = _omitted(r)
        if omitted:
            entry["omitted"] = omitted
        files.append(entry)
    return {"valid": all(r.valid for r in reports), "files": files}


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
    if fmt == "sarif":
        from cf.render.sarif import as_sarif

        return dumps(as_sarif(reports))
    lines: list[str] = []
    for r in reports:
        render = github_line if fmt == "github" else problem_line
        lines.extend(render(r.file, p) for p in r.problems)
        lines.extend(omitted_lines(r))
        lines.append(summary_line(r))
    return "\n".join(lines) + "\n"
