"""A real ``cf serve`` app on a loopback port, in a thread, for the browser tests and the
bench: uvicorn with the same app ``cf serve`` builds."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def running(path: Path, token: str, **options) -> Iterator[str]:
    """Serve the game at ``path`` on 127.0.0.1 (any free port) while in the block; the
    base address (``http://127.0.0.1:PORT/``)."""
    import uvicorn

    from cf.serve.app import create_app
    from cf.serve.store import Store

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(256)
    port = sock.getsockname()[1]
    servers: list = []
    app = create_app(
        Store(str(path), path.name), token, is_stopping=lambda: servers[0].should_exit, **options
    )
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2, lifespan="off")
    server = uvicorn.Server(config)
    servers.append(server)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()
