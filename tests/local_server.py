"""A real HTTP server on 127.0.0.1 serving bytes the tests made (no network in tests):
ranges, dropped connections, corrupt and slow files on demand."""

from __future__ import annotations

import contextlib
import http.server
import threading
import time
from collections.abc import Iterator

# A real HTTP server on 127.0.0.1 serving bytes the tests made (no network in tests).
PAYLOAD = bytes(range(256)) * 4096  # 1 MiB


class Handler(http.server.BaseHTTPRequestHandler):
    payload = PAYLOAD
    files: dict[str, bytes] = {}  # other paths the server holds (multi-part dumps)
    support_range = True
    served: list[int] = []
    fail_first: list[bool] = []
    corrupt: set[str] = set()  # paths served with their last byte flipped
    slow: set[str] = set()  # paths sent in 64 KiB pieces, 20 ms apart
    starts: list[int] = []  # the first byte of every response

    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path == "/missing":
            self.send_error(404)
            return
        if self.path == "/error":
            self.send_error(500)
            return
        payload = self.files.get(self.path, self.payload)
        if self.path in self.corrupt:
            payload = payload[:-1] + bytes([payload[-1] ^ 1])
        start = 0
        rng = self.headers.get("Range")
        if rng and self.support_range:
            start = int(rng.split("=")[1].split("-")[0])
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(payload) - 1}/{len(payload)}")
        else:
            self.send_response(200)
        body = payload[start:]
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        # record before writing: the client may finish reading before this thread resumes
        if self.fail_first and self.fail_first.pop():
            # send half, then drop the connection: the client must resume
            type(self).served.append(len(body) // 2)
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.connection.close()
            return
        type(self).served.append(len(body))
        type(self).starts.append(start)
        if self.path in self.slow:
            for lo in range(0, len(body), 1 << 16):
                self.wfile.write(body[lo : lo + (1 << 16)])
                self.wfile.flush()
                time.sleep(0.02)
            return
        self.wfile.write(body)


@contextlib.contextmanager
def serving() -> Iterator[str]:
    """Serve ``Handler`` (its settings reset) on a free port; yields the base URL."""
    Handler.served = []
    Handler.fail_first = []
    Handler.support_range = True
    Handler.files = {}
    Handler.corrupt = set()
    Handler.slow = set()
    Handler.starts = []
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
