"""A small HTTP server for the web view, built on the standard library.

The app publishes snapshots of the game (``publish``) and camera frames (``publish_frame``);
pages get them live through server-sent events. The players' undo / accept buttons and what
they enter for the game (``/input``) arrive in ``commands``, which the app polls: the server
never touches the game itself. Served on localhost by default; sharing on the network is an
explicit choice and then every request must carry the PIN shown on the laptop.

Every request must name this server in its Host header (an IP address, ``localhost`` or this
computer's name: a page of another site that rebinds its own name to us is refused), and every
request that changes the game (undo, accept, an entry) must come from our own page: same
Origin, and the session token the page was served with. Wrong PINs are counted per client:
after ``PIN_TRIES`` in a row, that client is locked out for ``PIN_LOCKOUT_SECONDS``.
"""

from __future__ import annotations

import ipaddress
import json
import queue
import secrets
import socket
import threading
import time
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, urlsplit

from host.errors import BadInputError
from host.jsonl import loads

STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
}
CONTROLS = ("undo", "accept")
"""What the players can ask from the page: take back the last turn, or accept the table."""
ENTRY = "input"
"""Where the page posts what a player entered (a JSON ``{"input": name, "value": ...}``)."""
MAX_ENTRY_BYTES = 4096
"""The largest entry the page sends (a few cells and card names) is far smaller."""
WebCommand = str | dict[str, Any]
"""What the page asks: a control (``undo``, ``accept``) or an entry for the game."""
KEEPALIVE_SECONDS = 15.0
"""An idle event stream sends a comment this often, so proxies and phones keep it open."""
PIN_TRIES = 5
"""Wrong PINs in a row a client may send before it is locked out."""
PIN_LOCKOUT_SECONDS = 300.0
"""How long a client that sent ``PIN_TRIES`` wrong PINs must wait (10**6 PINs take years)."""
TOKEN_HEADER = "X-Conductor-Token"
"""The header carrying the session token the page was served with."""
PIN_HEADER = "X-Conductor-Pin"
"""The header carrying the PIN (the query's ``pin`` does too, for event streams and images)."""


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

    def __init__(
        self, address: Address, share: bool = False, lockout_seconds: float = PIN_LOCKOUT_SECONDS
    ) -> None:
        self.pin: str | None = (
            f"{secrets.randbelow(10**6):06d}" if share or not address.local_only else None
        )
        self.token = secrets.token_urlsafe(24)
        """The session token: served inside the page, required on every request that changes
        the game (another site's page cannot read it)."""
        self.pins = PinGuard(lockout_seconds)
        self.commands: queue.Queue[WebCommand] = queue.Queue()
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
        """The address to open in a browser: for a view served on every interface, this
        computer's address on the network (what a phone types)."""
        host, port = self._server.server_address[:2]
        shown = str(host)
        if ipaddress.ip_address(shown).is_unspecified:
            shown = lan_address()
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


def lan_address() -> str:
    """This computer's address on the local network (127.0.0.1 when it has none)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 9))  # no packet is sent: this only picks a route
            address = str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"
    return address if not ipaddress.ip_address(address).is_unspecified else "127.0.0.1"


def trusted_host(header: str | None) -> bool:
    """True for a Host header naming this server as only it can be named: an IP address,
    ``localhost`` or this computer's name (a foreign site's name means DNS rebinding)."""
    if not header:
        return False
    host = urlsplit(f"//{header}").hostname
    if host is None:
        return False
    names = {"localhost", socket.gethostname().lower(), f"{socket.gethostname().lower()}.local"}
    if host in names:
        return True
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


class PinGuard:
    """Counts wrong PINs per client and locks a client out after ``PIN_TRIES`` in a row."""

    def __init__(self, lockout_seconds: float) -> None:
        self.lockout_seconds = lockout_seconds
        self._lock = threading.Lock()
        self._wrong: dict[str, int] = {}
        self._locked_until: dict[str, float] = {}

    def locked_for(self, client: str) -> float:
        """Seconds the client must still wait (0 when it may try)."""
        with self._lock:
            return max(0.0, self._locked_until.get(client, 0.0) - time.monotonic())

    def wrong(self, client: str) -> None:
        """The client sent a wrong PIN."""
        with self._lock:
            count = self._wrong.get(client, 0) + 1
            if count >= PIN_TRIES:
                self._locked_until[client] = time.monotonic() + self.lockout_seconds
                count = 0
            self._wrong[client] = count

    def right(self, client: str) -> None:
        """The client sent the right PIN: its count starts again."""
        with self._lock:
            self._wrong.pop(client, None)


def _handler(view: WebView) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "Conductor"

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: the terminal belongs to the game."""

        def do_GET(self) -> None:
            path = urlsplit(self.path).path
            if not trusted_host(self.headers.get("Host")):
                self._send(HTTPStatus.MISDIRECTED_REQUEST, "text/plain", b"unknown Host")
            elif path in STATIC:
                name, kind = STATIC[path]
                body = (resources.files("host.web") / "static" / name).read_bytes()
                if name == "index.html":
                    meta = f'<meta name="conductor-token" content="{view.token}">\n</head>'
                    body = body.replace(b"</head>", meta.encode(), 1)
                self._send(HTTPStatus.OK, kind, body)
            elif not self._pin_checked():
                return
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
            refused = self._refusal()
            if refused is not None:
                self._send(HTTPStatus.FORBIDDEN, "application/json",
                           json.dumps({"refused": refused}).encode())
            elif not self._pin_checked():
                return
            elif control in CONTROLS:
                view.commands.put(control)
                self._send(HTTPStatus.ACCEPTED, "application/json", b'{"ok": true}')
            elif control == ENTRY:
                entry = self._entry()
                if isinstance(entry, str):
                    self._send(HTTPStatus.BAD_REQUEST, "application/json",
                               json.dumps({"refused": entry}).encode())
                else:
                    view.commands.put(entry)
                    self._send(HTTPStatus.ACCEPTED, "application/json", b'{"ok": true}')
            else:
                self._send(HTTPStatus.NOT_FOUND, "text/plain", b"not found")

        def _entry(self) -> dict[str, Any] | str:
            """The entry the request carries, or why it is not one (the game judges it)."""
            try:
                length = int(self.headers.get("Content-Length", ""))
            except ValueError:
                return "no Content-Length"
            if not 0 < length <= MAX_ENTRY_BYTES:
                return f"an entry is 1 to {MAX_ENTRY_BYTES} bytes"
            try:
                entry = loads(self.rfile.read(length).decode("utf-8"))
            except ValueError:  # bad UTF-8 and bad JSON alike
                return "an entry is a JSON object"
            if not isinstance(entry, dict) or not isinstance(entry.get("input"), str):
                return 'an entry is {"input": name, "value": ...}'
            return {"input": entry["input"], "value": entry.get("value")}

        def _refusal(self) -> str | None:
            """Why a request that changes the game is not from our own page, if it is not."""
            host = self.headers.get("Host")
            if not trusted_host(host):
                return "unknown Host"
            origin = self.headers.get("Origin")
            if origin is not None and origin != f"http://{host}":
                return "another site's page"
            if self.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
                return "another site's page"
            token = self.headers.get(TOKEN_HEADER, "").encode("utf-8", "replace")
            if not secrets.compare_digest(token, view.token.encode()):
                return "no session token (reload the page)"
            return None

        def _pin_checked(self) -> bool:
            """True when the request may go on; otherwise the refusal was sent."""
            if view.pin is None:
                return True
            client = self.client_address[0]
            if self._locked_out(client):
                return False
            given = (
                self.headers.get(PIN_HEADER)
                or parse_qs(urlsplit(self.path).query).get("pin", [""])[0]
            )
            if given and secrets.compare_digest(
                given.encode("utf-8", "replace"), view.pin.encode()
            ):
                view.pins.right(client)
                return True
            if given:
                view.pins.wrong(client)
                if self._locked_out(client):  # that was the last try
                    return False
            body = b'{"pin": "wrong"}' if given else b'{"pin": "required"}'
            self._send(HTTPStatus.UNAUTHORIZED, "application/json", body)
            return False

        def _locked_out(self, client: str) -> bool:
            wait = view.pins.locked_for(client)
            if wait > 0:
                body = json.dumps({"pin": "locked", "seconds": round(wait)}).encode()
                self._send(HTTPStatus.TOO_MANY_REQUESTS, "application/json", body)
            return wait > 0

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
