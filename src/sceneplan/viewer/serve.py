"""Serve one page on 127.0.0.1, for `sceneplan view --serve`."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def page_server(html: str, port: int = 0) -> ThreadingHTTPServer:
    """A server (not yet serving) that answers every GET with the page; port 0 picks a free one.

    Binds to 127.0.0.1 only: the page is for this machine's browser.
    """
    body = html.encode("utf-8")

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path not in ("/", "/index.html"):
                self.send_error(404, "the viewer serves one page, at /")
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            return  # quiet: the command prints the address once

    return ThreadingHTTPServer(("127.0.0.1", port), Handler)


def serve_in_background(html: str, port: int = 0) -> tuple[ThreadingHTTPServer, str]:
    """Start serving the page on a daemon thread; returns the server and its address."""
    server = page_server(html, port)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    host, bound = server.server_address[:2]
    return server, f"http://{host!s}:{bound}/"
