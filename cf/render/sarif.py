"""Validation reports as SARIF 2.1.0, for code-scanning tools (``cf validate --format sarif``).

One run; the tool's rules are every problem code (id = the code, short description = its
summary, help = :mod:`cf.record.explain`'s text), and each problem is one result with its
file and, where known, its line and column. Columns count characters (Unicode code
points), as cf's positions do. Standard input has no URI: its location is described
instead. The round, move and player of a problem go in the result's property bag.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import quote

from cf.record.check import Report
from cf.record.problems import CODES, Problem

SCHEMA_URI = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
STDIN = "<stdin>"


def artifact_location(file: str) -> dict[str, Any]:
    """A SARIF artifactLocation for ``file``: a relative URI reference, a ``file:`` URI for
    an absolute path, a description for standard input."""
    if file == STDIN:
        return {"description": {"text": "standard input"}}
    if os.path.isabs(file):
        return {"uri": Path(file).as_uri()}
    return {"uri": quote(os.fsencode(file.replace(os.sep, "/")))}


def rules() -> list[dict[str, Any]]:
    """One reportingDescriptor per problem code, in CODES order."""
    from cf.record.explain import EXPLANATIONS
    from cf.render.explain import help_markdown, help_text

    out = []
    for code in CODES:
        e = EXPLANATIONS[code]
        out.append(
            {
                "id": code,
                "name": "".join(part.capitalize() for part in code.split("-")),
                "shortDescription": {"text": e.summary},
                "fullDescription": {"text": e.rule},
                "help": {"text": help_text(e), "markdown": help_markdown(e)},
                "defaultConfiguration": {"level": "error"},
            }
        )
    return out


def _result(p: Problem, artifact: int, file: str) -> dict[str, Any]:
    context = ", ".join(
        f"{what} {n}" for what, n in (("round", p.round), ("move", p.move)) if n is not None
    )
    physical: dict[str, Any] = {"artifactLocation": {**artifact_location(file), "index": artifact}}
    if p.line is not None:
        region = {"startLine": p.line}
        if p.column is not None:
            region["startColumn"] = p.column
        physical["region"] = region
    result: dict[str, Any] = {
        "ruleId": p.code,
        "ruleIndex": CODES.index(p.code),
        "level": "error",
        "message": {"text": f"{context}: {p.message}" if context else p.message},
        "locations": [{"physicalLocation": physical}],
    }
    props = {"round": p.round, "move": p.move, "player": p.player}
    if any(v is not None for v in props.values()):
        result["properties"] = props
    return result


def as_sarif(reports: list[Report]) -> dict[str, Any]:
    """The SARIF log of one ``cf validate`` run over ``reports``."""
    from cf import __version__

    artifacts = []
    for r in reports:
        artifact: dict[str, Any] = {"location": artifact_location(r.path or r.file)}
        artifact["roles"] = ["analysisTarget"] + (["standardStream"] if r.file == STDIN else [])
        artifacts.append(artifact)
    results = [_result(p, i, r.file) for i, r in enumerate(reports) for p in r.problems]
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "cf",
                        "fullName": "cf, the Chicken Foot toolkit (cf validate)",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "rules": rules(),
                    }
                },
                "columnKind": "unicodeCodePoints",
                "artifacts": artifacts,
                "results": results,
            }
        ],
    }


__all__ = ["as_sarif", "rules"]
