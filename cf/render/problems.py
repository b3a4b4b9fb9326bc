"""Rendering validation reports: text, JSON, GitHub workflow annotations and SARIF."""

from __future__ import annotations

import dataclasses

from cf.i18n import N_, _, ngettext, tr
from cf.record.check import Report
from cf.record.problems import CODES, Problem
from cf.render.jsontext import dumps
from cf.text import has_hidden, visible


def problem_line(file: str, p: Problem) -> str:
    """``FILE:LINE:COL: round R, move M: [code] message`` (unknown parts left out)."""
    where = file
    if p.line is not None:
        where += f":{p.line}"
        if p.column is not None:
            where += f":{p.column}"
    ctx = _context(p)
    return f"{where}: {ctx}[{p.code}] {tr(p.message)}"


def entered_line(p: Problem) -> str:
    """A problem of the round being entered on a ``cf serve`` page, whose lines
    are not in the file yet, in words: ``round K: [PLAYER: ]MESSAGE [code]``."""
    message = tr(p.message)
    who = f"{p.player}: " if p.player and p.player not in message else ""
    return _("round {k}: {who}{message} [{code}]").format(
        k=p.round, who=who, message=message, code=p.code
    )


def _context(p: Problem) -> str:
    """``round R, move M: `` as far as known, or nothing, in the reader's language (SARIF
    writes its own, in English, like the codes)."""
    if p.round is not None and p.move is not None:
        text = N_("round {round}, move {move}: ")
    elif p.round is not None:
        text = N_("round {round}: ")
    elif p.move is not None:
        text = N_("move {move}: ")
    else:
        return ""
    return _(text).format(round=p.round, move=p.move)


def summary_line(r: Report) -> str:
    counts = _("{rounds} round(s), {moves} move(s)").format(rounds=r.rounds, moves=r.moves)
    if r.valid:
        return _("{file}: valid ({counts})").format(file=r.file, counts=counts)
    n = _total(r)
    said = ngettext("{file}: {n} problem ({counts})", "{file}: {n} problems ({counts})", n)
    return said.format(file=r.file, n=n, counts=counts)


def _total(r: Report) -> int:
    return len(r.problems) + sum(_omitted(r).values())


def _omitted(r: Report) -> dict[str, int]:
    """Problems past the per-file cap, by code, in the order of the codes."""
    omitted = getattr(r.problems, "omitted", None) or {}
    return {code: omitted[code] for code in CODES if omitted.get(code)}


def omitted_lines(r: Report) -> list[str]:
    """``FILE: … and N more [code] problems``, one line per code past the cap."""
    return [
        ngettext(
            "{file}: … and {n} more [{code}] problem",
            "{file}: … and {n} more [{code}] problems",
            n,
        ).format(file=r.file, n=n, code=code)
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
    # The message is read by people, in the pull request: in their language (the code and
    # the annotation's syntax are not).
    text = f"{_context(p)}[{p.code}] {tr(p.message)}"
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
        # One line per problem (SPEC 7): a line feed or tab in a file name is shown as its
        # escape, as every other hidden character is (an annotation escapes its own way).
        shown = dataclasses.replace(r, file=visible(r.file)) if has_hidden(r.file) else r
        if fmt == "github":
            lines.extend(github_line(r.file, p) for p in r.problems)
        else:
            lines.extend(problem_line(shown.file, p) for p in r.problems)
        lines.extend(omitted_lines(shown))
        lines.append(summary_line(shown))
    return "\n".join(lines) + "\n"
