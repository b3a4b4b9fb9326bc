"""Figures of ``cf serve`` (docs/serve.md quotes them), against a real ``cf serve`` on
loopback (started here, stopped at the end):

    python bench/serve.py [--pages 50] [--photos 3]

1. Page weight: bytes of a first load (the page, its CSS and JavaScript, the chart),
   uncompressed. Target: at most 150 KB.
2. Photo: seconds from sending a 12-megapixel phone photo (a synthetic 4000 x 3000 JPEG
   of a 7-tile hand) to its reading back, reader included (median of --photos).
   Target: at most 1.5 s.
3. Open pages kept live: --pages event streams open at once, then a ``cf add`` in a
   shell; how many pages got the new round, and the slowest, counted from the moment
   the file was written (its modification time). Target: 50 within 1 s.
"""

from __future__ import annotations

import argparse
import json
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CF = [sys.executable, "-m", "cf"]


def start(game: Path) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen(
        [*CF, "serve", str(game), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    m = re.search(r"http://\S+", line)
    if not m:
        proc.kill()
        raise SystemExit(f"cf serve did not start: {line!r}")
    return proc, m.group(0)


def fetch(url: str, data: bytes | None = None, headers: dict | None = None) -> bytes:
    request = urllib.request.Request(url, data=data, headers=headers or {})
    with urllib.request.urlopen(request, timeout=60) as r:
        return r.read()


def page_weight(base: str, token: str) -> dict[str, int]:
    page = fetch(f"{base}?t={token}")
    sizes = {"page": len(page)}
    for ref in re.findall(rb'(?:href|src)="(static/[^"?]+)', page):
        sizes[ref.decode()] = len(fetch(f"{base}{ref.decode()}?t={token}"))
    sizes["chart.svg"] = len(fetch(f"{base}chart.svg?t={token}"))
    return sizes


def photo_seconds(base: str, token: str, runs: int) -> tuple[float, list[str]]:
    import cv2

    from cf.photo.synth import render_hand

    photo = render_hand(3, size=(4000, 3000), count=7, top=9, difficulty=1)
    ok, jpeg = cv2.imencode(".jpg", photo.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    data = jpeg.tobytes()
    headers = {"X-CF-Token": token, "Content-Type": "image/jpeg"}
    from cf.photo.reader import decode_image, read_hand

    start = time.perf_counter()
    read_hand(decode_image(data), 9)
    alone = time.perf_counter() - start
    times = []
    tiles: list[str] = []
    for _ in range(runs):
        start = time.perf_counter()
        reply = json.loads(fetch(f"{base}api/photo", data, headers))
        times.append(time.perf_counter() - start)
        tiles = reply.get("tiles", [])
    print(f"   photo: {len(data) / 2**20:.1f} MB JPEG, 4000 x 3000; read {tiles} "
          f"(truth {sorted(str(t) for t in photo.tiles)}); decode + reader alone, "
          f"in-process: {alone:.2f} s")  # fmt: skip
    return statistics.median(times), tiles


def live_pages(base: str, token: str, game: Path, pages: int) -> tuple[int, float]:
    """Open ``pages`` event streams, add a round from a shell, time each page's update."""
    host, port = base.split("//")[1].rstrip("/").split(":")
    ready = threading.Barrier(pages + 1)
    got: list[float] = []
    lock = threading.Lock()

    def page() -> None:
        sock = socket.create_connection((host, int(port)), timeout=20)
        sock.sendall(f"GET /events?t={token} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
        stream = sock.makefile("rb")
        events = 0
        try:
            while events < 2:
                line = stream.readline()
                if not line:
                    return
                if line.startswith(b"event: state"):
                    events += 1
                    if events == 1:
                        ready.wait()
            with lock:
                got.append(time.perf_counter())
        except (OSError, threading.BrokenBarrierError):
            return
        finally:
            sock.close()

    threads = [threading.Thread(target=page, daemon=True) for _ in range(pages)]
    for t in threads:
        t.start()
    ready.wait(timeout=60)
    before = game.stat().st_mtime_ns
    subprocess.run([*CF, "add", str(game), "Ana=5", "Ben=0"], check=True, capture_output=True)
    # From the moment cf add wrote the file (its time, on this clock) to each page's update.
    written = time.perf_counter() - (time.time_ns() - game.stat().st_mtime_ns) / 1e9
    assert game.stat().st_mtime_ns != before
    for t in threads:
        t.join(10)
    slowest = max((g - written for g in got), default=float("inf"))
    return len(got), slowest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=50)
    parser.add_argument("--photos", type=int, default=3)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="cf-bench-serve-"))
    game = folder / "night.yaml"
    setup = (["new", str(game), "--players", "Ana,Ben"], ["add", str(game), "Ana=0", "Ben=12"])
    for step in setup:  # not `args`: the options are read after this
        subprocess.run([*CF, *step], check=True, capture_output=True)
    proc, url = start(game)
    base, token = url.split("?t=")
    try:
        sizes = page_weight(base, token)
        total = sum(sizes.values())
        print(f"1. page weight, first load: {total / 1024:.1f} KB (target <= 150 KB)")
        for name, size in sizes.items():
            print(f"   {name}: {size / 1024:.1f} KB")
        seconds, _ = photo_seconds(base, token, args.photos)
        print(f"2. photo upload to reading: {seconds:.2f} s median of {args.photos} "
              "(target <= 1.5 s)")  # fmt: skip
        n, slowest = live_pages(base, token, game, args.pages)
        print(f"3. open pages kept live: {n} of {args.pages} updated, slowest after "
              f"{slowest:.2f} s (target: 50 within 1 s)")  # fmt: skip
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(30)


if __name__ == "__main__":
    main()
