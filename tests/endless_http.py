"""A real HTTP server on loopback whose replies misbehave: a body that never ends, or trickles.

    with misbehaving_server("endless") as url:   # 64 KiB chunks until the client hangs up
        ...
    with misbehaving_server("trickle") as url:   # one byte every 50 ms, forever
        ...
    with misbehaving_server("body", b'{"choices": "many"}') as url:   # this body, once

Every POST or GET on any path gets a 200 with `Content-Type: application/json`
and no length (HTTP/1.0: the body ends when the connection closes, or never).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"
    server: _Server

    def do_GET(self) -> None:
        self._answer()

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self._answer()

    def _answer(self) -> None:
        self.server.requests += 1
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        try:
            if self.server.mode == "body":
                self.wfile.write(self.server.body)
                return
            self.wfile.write(b'{"text": "')
            chunk = b"x" * 65536
            while not self.server.closing:
                if self.server.mode == "trickle":
                    self.wfile.write(b"x")
                    self.wfile.flush()
                    time.sleep(0.05)
                else:
                    self.wfile.write(chunk)
        except OSError:  # the client hung up, as it should
            pass

    def log_message(self, *args: object) -> None:
        pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    mode = "endless"
    body = b""
    closing = False
    requests = 0


@contextmanager
def misbehaving_server(mode: str, body: bytes = b"") -> Iterator[str]:
    """The base URL (`http://127.0.0.1:PORT`) of a server answering as `mode` says."""
    server = _Server(("127.0.0.1", 0), _Handler)
    server.mode, server.body = mode, body
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.closing = True
        server.shutdown()
        server.server_close()
