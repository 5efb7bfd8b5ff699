"""A small HTTP server for the web view, built on the standard library.

The app publishes snapshots of the game (``publish``) and camera frames (``publish_frame``);
pages get them live through server-sent events. The players' undo / accept buttons arrive in
``commands``, which the app polls: the server never touches the game itself. Served on
localhost by default; sharing on the network is an explicit choice and then every request must
carry the PIN shown on the laptop.
"""

from __future__ import annotations

import ipaddress
import json
import queue
import secrets
import threading
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, urlsplit

from host.errors import BadInputError

STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
}
CONTROLS = ("undo", "accept")
"""What the players can ask from the page: take back the last turn, or accept the table."""
KEEPALIVE_SECONDS = 15.0
"""An idle event stream sends a comment this often, so proxies and phones keep it open."""


@dataclass(frozen=True)
class Address:
    """Where the web view listens."""

    host: str
    """The interface: ``127.0.0.1`` (this computer only) or e.g. ``0.0.0.0`` (the network)."""
    port: int
    """The TCP port; 0 picks a free one."""

    @classmethod
    def parse(cls, text: str) -> Address:
        """``HOST:PORT``, ``:PORT`` or ``PORT`` (localhost)."""
        host, _, port = text.rpartition(":")
        try:
            number = int(port)
        except ValueError:
            raise BadInputError(f"{text!r} is not HOST:PORT") from None
        if not 0 <= number <= 65535:
            raise BadInputError(f"port {number} is not 0..65535")
        return cls(host or "127.0.0.1", number)

    @property
    def local_only(self) -> bool:
        """True when only this computer can reach the address."""
        if self.host == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return False


class WebView:
    """The running web view. ``share`` asks for a PIN on every request (on by itself for any
    address other computers can reach)."""

    def __init__(self, address: Address, share: bool = False) -> None:
        self.pin: str | None = (
            f"{secrets.randbelow(10**6):06d}" if share or not address.local_only else None
        )
        self.commands: queue.Queue[str] = queue.Queue()
        self._changed = threading.Condition()
        self._state: dict[str, Any] = {}
        self._version = 0
        self._frame: bytes | None = None
        self._closing = False
        try:
            self._server = ThreadingHTTPServer((address.host, address.port), _handler(self))
        except OSError as error:
            raise BadInputError(
                f"cannot serve the web view on {address.host}:{address.port}: {error.strerror}"
            ) from None
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        """The address to open in a browser."""
        host, port = self._server.server_address[:2]
        shown = "localhost" if self.pin is None else str(host)
        return f"http://{shown}:{port}/"

    def publish(self, state: dict[str, Any]) -> None:
        """Show a new snapshot of the game to every open page."""
        with self._changed:
            self._state = state
            self._version += 1
            self._changed.notify_all()

    def publish_frame(self, jpeg: bytes) -> None:
        """Show the latest annotated camera frame (JPEG bytes)."""
        with self._changed:
            self._frame = jpeg

    @property
    def frame(self) -> bytes | None:
        """The latest camera frame, if any."""
        with self._changed:
            return self._frame

    @property
    def closing(self) -> bool:
        """True once ``close`` was called."""
        return self._closing

    def close(self) -> None:
        """Stop serving; open event streams end."""
        with self._changed:
            self._closing = True
            self._changed.notify_all()
        self._server.shutdown()
        self._server.server_close()

    def snapshot(self) -> tuple[int, dict[str, Any]]:
        """The latest snapshot and its version number."""
        with self._changed:
            return self._version, self._state

    def wait_for_update(self, seen: int) -> tuple[int, dict[str, Any]] | None:
        """Wait for a snapshot newer than ``seen``; None on timeout or close."""
        with self._changed:
            self._changed.wait_for(
                lambda: self._version > seen or self._closing, timeout=KEEPALIVE_SECONDS
            )
            if self._closing or self._version <= seen:
                return None
            return self._version, self._state


def _handler(view: WebView) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "Conductor"

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: the terminal belongs to the game."""

        def do_GET(self) -> None:
            path = urlsplit(self.path).path
            if path in STATIC:
                name, kind = STATIC[path]
                body = (resources.files("host.web") / "static" / name).read_bytes()
                self._send(HTTPStatus.OK, kind, body)
            elif not self._allowed():
                self._send(HTTPStatus.UNAUTHORIZED, "application/json", b'{"pin": "required"}')
            elif path == "/state":
                self._send(
                    HTTPStatus.OK, "application/json", json.dumps(view.snapshot()[1]).encode()
                )
            elif path == "/frame.jpg":
                frame = view.frame
                if frame is None:
                    self._send(HTTPStatus.NOT_FOUND, "text/plain", b"no camera frame yet")
                else:
                    self._send(HTTPStatus.OK, "image/jpeg", frame)
            elif path == "/events":
                self._stream()
            else:
                self._send(HTTPStatus.NOT_FOUND, "text/plain", b"not found")

        def do_POST(self) -> None:
            control = urlsplit(self.path).path.strip("/")
            if not self._allowed():
                self._send(HTTPStatus.UNAUTHORIZED, "application/json", b'{"pin": "required"}')
            elif control in CONTROLS:
                view.commands.put(control)
                self._send(HTTPStatus.ACCEPTED, "application/json", b'{"ok": true}')
            else:
                self._send(HTTPStatus.NOT_FOUND, "text/plain", b"not found")

        def _allowed(self) -> bool:
            if view.pin is None:
                return True
            given = (
                self.headers.get("X-Conductor-Pin")
                or parse_qs(urlsplit(self.path).query).get("pin", [""])[0]
            )
            return secrets.compare_digest(given, view.pin)

        def _send(self, status: HTTPStatus, kind: str, body: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def _stream(self) -> None:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            seen, state = view.snapshot()
            try:
                self.wfile.write(f"data: {json.dumps(state)}\n\n".encode())
                self.wfile.flush()
                while not view.closing:
                    update = view.wait_for_update(seen)
                    if update is None:
                        self.wfile.write(b": still here\n\n")
                    else:
                        seen, state = update
                        self.wfile.write(f"data: {json.dumps(state)}\n\n".encode())
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                return  # the page went away

    return Handler
