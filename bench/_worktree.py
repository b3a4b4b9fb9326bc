"""An older commit checked out beside the tree, for a bench that times before and after."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def checkout(rev: str, where: Path) -> Path:
    """``rev`` checked out (detached) at ``where``, replacing what an earlier run left."""
    if where.exists():
        subprocess.run(["git", "worktree", "remove", "--force", str(where)], cwd=ROOT, check=True)
    subprocess.run(
        ["git", "worktree", "add", "--detach", str(where), rev],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    return where
