"""Memory a 64 MB request body costs the web server, and what the request guard costs per request.

    .venv/bin/python bench/web_guard.py [--mb 64]

Each server runs in its own process (uvicorn on 127.0.0.1) so its memory is its own; the
figures are its resident size (VmRSS) and peak (VmHWM) from /proc before and after.

- ``futmesa``: the real app (``create_app``, with :class:`futmesa.web.guard.RequestGuard`).
- baseline, in the same run: the same uvicorn serving a route that reads the body the way
  the app's routes did before the guard (``await request.body()``).

The body is sent twice: once declared (``Content-Length``), once streamed in 16 KiB chunks;
the client stops as soon as an answer arrives. Then the guard's own cost: the JSON shape scan
(:func:`~futmesa.web.guard.json_problem`) per body, against ``json.loads`` of the same bytes.
"""

from __future__ import annotations

import argparse
import json
import select
import socket
import subprocess
import sys
import textwrap
import time
import timeit

from futmesa.web.guard import DEFAULT_MAX_BODY, json_problem
from futmesa_testkit.liveserver import TOKEN, free_port

SERVERS = {
    "futmesa": """
        from futmesa.hub import StateHub
        from futmesa.web.app import create_app
        app = create_app(StateHub(), console_token=TOKEN)
    """,
    "baseline": """
        from starlette.applications import Starlette
        from starlette.responses import JSONResponse
        from starlette.routing import Route
        async def display(request):
            body = await request.body()
            return JSONResponse({"ok": True, "bytes": len(body)})
        app = Starlette(routes=[Route("/api/display", display, methods=["POST"])])
    """,
}


def start(kind: str, port: int) -> subprocess.Popen[bytes]:
    code = textwrap.dedent(f"""
        import uvicorn
        TOKEN = {TOKEN!r}
    """) + textwrap.dedent(SERVERS[kind]) + textwrap.dedent(f"""
        uvicorn.run(app, host="127.0.0.1", port={port}, log_level="warning", lifespan="off")
    """)
    proc = subprocess.Popen([sys.executable, "-c", code])
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc
        except OSError:
            if time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError(f"the {kind} server did not start") from None
            time.sleep(0.05)


def memory_kib(pid: int) -> tuple[int, int]:
    """(VmRSS, VmHWM) of a process in KiB."""
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            fields[key] = value.split()[0] if value.split() else "0"
    return int(fields["VmRSS"]), int(fields["VmHWM"])


def send_body(port: int, size: int, streamed: bool) -> tuple[int, int]:
    """Send a ``size``-byte body; (HTTP status, bytes sent before the answer arrived)."""
    head = (f"POST /api/display HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Authorization: Bearer {TOKEN}\r\nContent-Type: application/json\r\n")
    head += "Transfer-Encoding: chunked\r\n\r\n" if streamed else f"Content-Length: {size}\r\n\r\n"
    piece = b"x" * 16384
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        sock.sendall(head.encode())
        while sent < size and not select.select([sock], [], [], 0)[0]:
            chunk = piece[: size - sent]
            sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk) if streamed else chunk)
            sent += len(chunk)
        if streamed and sent >= size:
            sock.sendall(b"0\r\n\r\n")
        data = b""
        while b"\r\n" not in data:
            more = sock.recv(4096)
            if not more:
                break
            data += more
    return int(data.split(b" ", 2)[1]), sent


def measure_server(kind: str, size: int) -> None:
    port = free_port()
    proc = start(kind, port)
    try:
        rss0, _ = memory_kib(proc.pid)
        for streamed in (False, True):
            status, sent = send_body(port, size, streamed)
            rss, peak = memory_kib(proc.pid)
            how = "streamed" if streamed else "declared"
            print(f"{kind:<9} {how:<9} {size / 2**20:5.0f} MB body: answer {status} after "
                  f"{sent / 2**20:7.2f} MB sent; server RSS {rss0 / 1024:6.1f} -> "
                  f"{rss / 1024:6.1f} MB (peak {peak / 1024:6.1f} MB, "
                  f"+{(peak - rss0) / 1024:6.1f} MB over the start)")
    finally:
        proc.terminate()
        proc.wait(20)


def scan_cost() -> None:
    action = json.dumps({"kind": "shot_asked", "data": {"side": "A", "disc": 7},
                         "author": "Árbitro Silva", "table": "sim-1"}).encode()
    biggest = json.dumps({"kind": "note", "data": {"text": "x" * (DEFAULT_MAX_BODY - 100)}}
                         ).encode()
    numbers = json.dumps({"kind": "note", "data": {"n": list(range(9000))}}).encode()[
        :DEFAULT_MAX_BODY]
    worst = json.dumps({"kind": "note", "data": {"text": "[" * (DEFAULT_MAX_BODY - 100)}}
                       ).encode()  # brackets in a string: the byte-by-byte scan, all of it
    for label, body in (("console action", action), ("64 KiB of text", biggest),
                        ("64 KiB of numbers", numbers), ("64 KiB of [ in text", worst)):
        n = 2000 if len(body) < 1000 else 20
        scan = min(timeit.repeat(lambda b=body: json_problem(b), number=n, repeat=3)) / n
        parse = min(timeit.repeat(lambda b=body: json.loads(b), number=n, repeat=3)) / n
        print(f"guard scan, {label:<18} ({len(body):6d} B): {scan * 1e6:9.1f} µs; "
              f"json.loads {parse * 1e6:8.1f} µs; ratio {scan / parse:6.1f}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=int, default=64, help="size of the big body in MB")
    parser.add_argument("--quick", action="store_true", help="a short run (make test): 4 MB")
    args = parser.parse_args()
    if args.quick:
        args.mb = 4
    for kind in ("baseline", "futmesa"):
        measure_server(kind, args.mb * 2**20)
    scan_cost()
    return 0


if __name__ == "__main__":
    sys.exit(main())
