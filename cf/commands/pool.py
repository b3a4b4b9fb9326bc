"""Worker processes for long studies (``cf simulate --games``): batches handed out over
one pipe per worker, results as they come.

Not multiprocessing.Pool: its terminate() waits for a lock that an idle worker holds
while it waits for a task, so a worker killed by the same Ctrl-C or SIGTERM at that
instant hangs the main process for ever (1 run in 40 of bench/fuzz.py). Each worker here
has its own pipe: nothing is shared, and killing one leaves nothing locked.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator
from typing import Any, NoReturn

from cf import _process
from cf.commands.common import fail
from cf.i18n import _

_Worker = tuple[Any, Any]  # (process, connection)


@contextlib.contextmanager
def workers(
    jobs: int, task: Callable[[tuple[Any, ...], Any], Any], common: tuple[Any, ...]
) -> Iterator[list[_Worker]]:
    """``jobs`` processes, each answering ``task(common, batch)`` for every batch it is sent,
    that never outlive the block: on Ctrl-C, SIGTERM or any error they are killed at once
    (not after their current batch). ``task`` returns its errors, never raises them."""
    context: Any = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    workers: list[_Worker] = []
    stop = set(_process.SIGNALS)
    try:
        for _unused in range(jobs):
            mine, theirs = context.Pipe()
            others = [mine, *(conn for _unused, conn in workers)]  # a forked child inherits these
            process = context.Process(
                target=_work, args=(theirs, task, common, others), daemon=True
            )
            # A signal between the fork and the worker's own handlers would run the
            # parent's handler in the child (a traceback there): hold signals meanwhile.
            _mask(signal.SIG_BLOCK, stop)
            try:
                process.start()
            finally:
                _mask(signal.SIG_UNBLOCK, stop)
            theirs.close()
            workers.append((process, mine))
        yield workers
        for _unused, conn in workers:
            conn.send(None)  # done: each worker returns
    finally:
        for process, _unused in workers:
            if process.is_alive():
                process.kill()
        for process, conn in workers:
            process.join()
            conn.close()


def _mask(how: int, signals: set[signal.Signals]) -> None:
    if hasattr(signal, "pthread_sigmask"):  # POSIX; elsewhere workers are spawned anyway
        signal.pthread_sigmask(how, signals)


def _work(
    conn: Any,
    task: Callable[[tuple[Any, ...], Any], Any],
    common: tuple[Any, ...],
    others: list[Any],
) -> None:
    """A worker: answer the batches it is sent until it is sent ``None``, or until the main
    process is gone (its end of the pipe closes: ``others``, the main process's ends of
    the earlier workers' pipes, are closed here so that only it holds them)."""
    for other in others:
        other.close()
    # Ctrl-C reaches the whole process group: the main process handles it and ends the
    # workers, which must not print their own KeyboardInterrupt; SIGTERM ends one at once.
    # A closed terminal (SIGHUP) is like Ctrl-C: the main process ends them.
    for signum in _process.SIGNALS:
        signal.signal(signum, signal.SIG_DFL if signum == signal.SIGTERM else signal.SIG_IGN)
    _mask(signal.SIG_UNBLOCK, set(_process.SIGNALS))
    while True:
        try:
            batch = conn.recv()
        except EOFError:  # the main process is gone
            return
        if batch is None:
            return
        result = task(common, batch)
        try:
            conn.send(result)
        except OSError:  # the main process was killed (SIGKILL): end with the batch
            return


def dispatch(pool: list[_Worker], batches: Iterator[Any], per_worker: int) -> Iterator[Any]:
    """Results as they come, with at most ``per_worker`` batches handed to each worker and
    not yet returned, so memory stays flat however many games there are."""
    from multiprocessing.connection import wait

    owing = {conn: 0 for _unused, conn in pool}
    process_of = {conn: process for process, conn in pool}

    def hand_out(conn: Any) -> None:
        batch = next(batches, None)
        if batch is not None:
            conn.send(batch)
            owing[conn] += 1

    for _unused in range(per_worker):
        for conn in owing:
            hand_out(conn)
    while any(owing.values()):
        ready: list[Any] = wait([c for c, n in owing.items() if n], timeout=0.5)
        for conn in ready:
            try:
                result = conn.recv()
            except EOFError:
                _worker_died(process_of[conn])
            owing[conn] -= 1
            yield result
            hand_out(conn)


def _worker_died(process: Any) -> NoReturn:
    process.join(1)
    code = process.exitcode
    if code is not None and -code in _process.SIGNALS:
        raise _process.Interrupted(-code)  # the signal meant for us all: ours is on its way
    fail(_("a worker process ended unexpectedly (exit status {code})").format(code=code))
