"""Where ``cf simulate`` writes its games: ``-o`` checked before any game is played, each
game written atomically, and ``--force`` replacing a folder's earlier games (only those
cf simulate wrote)."""

from __future__ import annotations

import os
import re

import typer

from cf.commands.common import cannot_write_output, fail, write_document
from cf.files import WriteError, WriteFailed, atomic_write
from cf.i18n import _, os_reason, tr

_GAME_FILE = re.compile(r"game-[0-9]+\.yaml")


def remove_earlier(output: str, paths: list[str]) -> tuple[int, int]:
    """``--force`` replaces the earlier games of the folder: a ``game-N.yaml`` this run did
    not write again is removed when it is one cf simulate wrote (its first line says so),
    so that the folder holds one study; any other file is left. How many were removed,
    and how many ``game-N.yaml`` were kept."""
    written = {os.path.basename(p) for p in paths}
    removed = kept = 0
    for name in sorted(os.listdir(output)):
        path = os.path.join(output, name)
        if not _GAME_FILE.fullmatch(name) or name in written:
            continue
        try:
            if _ours(path):
                os.remove(path)
                removed += 1
            else:
                kept += 1
        except OSError as exc:
            fail(_("cannot remove {path}: {value}").format(path=path, value=tr(os_reason(exc))))
    return removed, kept


#: How a game file of cf simulate begins (cf.record.emit.game_yaml's header).
_HEADER = b"# cf simulate "


def _ours(path: str) -> bool:
    """Whether ``path`` is a game file of cf simulate this user wrote: a regular file it
    owns (read without following a link or waiting on a pipe), starting with the header."""
    import stat

    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):  # a link, a pipe, a device: not opened
            return False
        fd = os.open(path, flags)
    except OSError:
        return False  # a link, gone, not ours to read
    try:
        st = os.fstat(fd)
        owner = getattr(os, "geteuid", lambda: st.st_uid)()
        if not stat.S_ISREG(st.st_mode) or st.st_uid != owner:
            return False
        return os.read(fd, len(_HEADER)) == _HEADER
    finally:
        os.close(fd)


_HINT = "'--output'"


def check_output(output: str | None, games: int, force: bool) -> None:
    """Refuse, before any game is played, an ``-o`` that cannot take the games (exit 2)."""
    if games > 1 and output is None:  # stdout, by default: several games need a folder
        raise typer.BadParameter(_("several games need a folder, not stdout"), param_hint=_HINT)
    if output is None or (output == "-" and games == 1):
        return
    if output == "":
        raise typer.BadParameter(_("give a file name"), param_hint=_HINT)
    if games > 1:
        _check_folder(output, force)
    else:
        _check_file(output, force)


def _check_folder(output: str, force: bool) -> None:
    if output == "-":
        raise typer.BadParameter(_("several games need a folder, not stdout"), param_hint=_HINT)
    if os.path.exists(output) and not os.path.isdir(output):
        raise typer.BadParameter(
            _("{output} is not a folder").format(output=output), param_hint=_HINT
        )
    earlier = os.path.isdir(output) and any(_GAME_FILE.fullmatch(n) for n in os.listdir(output))
    if earlier and not force:
        fail(
            _("{output} holds earlier games (use --force to replace them)").format(output=output),
            2,
        )


def _check_file(output: str, force: bool) -> None:
    if os.path.isdir(output):
        raise typer.BadParameter(_("{output} is a folder").format(output=output), param_hint=_HINT)
    if os.path.exists(output) and not os.path.isfile(output):
        # /dev/null and the like: renaming a game over it would replace the device
        raise typer.BadParameter(
            _("{output} is not a regular file").format(output=output), param_hint=_HINT
        )
    if os.path.lexists(output) and not force:
        fail(_("{output} exists (use --force to replace it)").format(output=output), 2)
    if not os.path.isdir(os.path.dirname(os.path.abspath(output))):
        fail(_("cannot write {output}: no such folder").format(output=output), 2)


def write_game(path: str | None, text: str, force: bool) -> None:
    """The game to stdout (as UTF-8), or atomically to ``path``: a temporary file in the
    same folder, flushed to disk and renamed, so an existing file is never torn."""
    if path is None or path == "-":
        write_document(text)
        return
    try:
        atomic_write(path, text, overwrite=force)
    except WriteFailed as exc:  # a full disk, no permission: output not written (SPEC 7)
        fail(cannot_write_output(exc), 1)
    except WriteError as exc:  # a read-only file
        fail(tr(exc), 1)
