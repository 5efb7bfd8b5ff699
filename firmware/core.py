"""The board's behaviour, free of hardware and clocks: what to answer, what to report, what to show.

``BoardCore`` receives the host's messages and button samples with the time they happened and
returns the messages to send. It numbers events, keeps them until acknowledged, re-sends them,
rolls dice from the audited session and keeps the LED picture (PROTOCOL.md sections 3-6).
The asyncio tasks in ``main.py`` only move bytes and samples in and out of it.
"""

import binascii
import os

import buttons
import dice
import leds
import pins
import protocol

try:
    from typing import Callable, Protocol

    class Store(Protocol):
        """Where the board keeps what must survive a reset (firmware/store.py)."""

        def load(self) -> "dict[str, object] | None": ...

        def save(self, state: "dict[str, object]") -> None: ...

except ImportError:  # MicroPython has no typing module; annotations are never evaluated
    pass

FIRMWARE_VERSION = "0.4.0"
CAPABILITIES = ["audit", "buttons", "dice", "leds"]
#: Events kept for replay until acknowledged; beyond this the oldest is dropped and counted.
OUTBOX_SIZE = 32
#: An unacknowledged event is sent again after this long.
RESEND_MS = 500
#: With no frame from the host for this long, the board shows the idle picture.
HOST_SILENT_MS = 5000
#: How many served roll/commit/reveal requests are remembered, so a repeat is not done twice.
SERVED_REQUESTS = 8
#: Request ids are integers 1 .. 2**53 - 1: the largest every JSON parser holds exactly.
MAX_ID = 9007199254740991
#: An error reason is cut to this many characters, so it stays one short line.
REASON_CHARS = 80

BUTTON_NAMES = ["seat" + str(seat) for seat in range(len(pins.SEAT_BUTTONS))] + ["roll"]


class BoardCore:
    """Everything the board decides, given messages, button levels and the time in ms."""

    def __init__(self, board_id: str, entropy: "Callable[[int], bytes]" = os.urandom,
                 store: "Store | None" = None) -> None:
        self.board_id = board_id
        self._entropy = entropy
        self._store = store
        self.boot = binascii.hexlify(entropy(4)).decode()
        self.session = dice.Session(entropy)
        self.picture = leds.blank_picture()
        self._seq = 0
        # Each entry is [event, time it was last sent or None].
        self._outbox: list[list[object]] = []
        self._lost = 0
        self._served: list[tuple[object, dict[str, object]]] = []
        self._heard_at: "int | None" = None
        self._greeted = False
        self._armed: "tuple[str, int] | None" = None
        self.buttons = [buttons.Button(name) for name in BUTTON_NAMES]
        self._dirty = False
        if not self._restore():
            self._changed()
            self._persist()

    # -- surviving a reset -----------------------------------------------------------------

    def _restore(self) -> bool:
        """Take up numbering, unacknowledged events and the audit session from the store."""
        state = self._store.load() if self._store is not None else None
        if state is None:
            return False
        try:
            boot, seq, lost = state["boot"], state["seq"], state["lost"]
            events, rolls, served = state["outbox"], state["rolls"], state["served"]
            secret = binascii.unhexlify(str(state["secret"]))
            if not (isinstance(boot, str) and isinstance(seq, int) and isinstance(lost, int)
                    and isinstance(events, list) and isinstance(rolls, int)
                    and all(isinstance(event, dict) for event in events)
                    and isinstance(served, list)
                    and all(isinstance(pair, list) and len(pair) == 2
                            and isinstance(pair[1], dict) for pair in served)):
                return False
        except (KeyError, ValueError, TypeError):
            return False  # a damaged state file: start afresh rather than not at all
        self.boot, self._seq, self._lost = boot, seq, lost
        self._outbox = [[event, None] for event in events]
        self._served = [(pair[0], pair[1]) for pair in served]
        self.session = dice.Session(self._entropy, secret, rolls)
        return True

    def _changed(self) -> None:
        self._dirty = True

    def _persist(self) -> None:
        """Write the state if it changed; called before anything is handed out to be sent."""
        if self._dirty and self._store is not None:
            self._dirty = False
            self._store.save({
                "boot": self.boot, "seq": self._seq, "lost": self._lost,
                "outbox": [entry[0] for entry in self._outbox],
                "secret": self.session.reveal(), "rolls": self.session.rolls,
                "served": [[request, reply] for request, reply in self._served],
            })

    # -- the host -------------------------------------------------------------------------

    def idle(self, now: int) -> bool:
        """True while the host has been silent too long (or has never spoken)."""
        return self._heard_at is None or now - self._heard_at > HOST_SILENT_MS

    def receive(self, message: "dict[str, object]", now: int) -> "list[dict[str, object]]":
        """Handle one message from the host; return the replies (and any events) to send.

        Any new event is in the state store before this returns, so before it is sent.
        """
        out = self._receive(message, now)
        self._persist()
        return out

    def _receive(self, message: "dict[str, object]", now: int) -> "list[dict[str, object]]":
        self._heard_at = now
        kind = message["t"]
        if kind == "hello":
            return self._hello(message, now)
        if kind == "ack":
            # Before the handshake an ack may come from a host that knew our previous run:
            # it must not make a freshly started board forget events.
            if self._greeted:
                self._acknowledge(message.get("seq"))
            return []
        request = message.get("id")
        if not _valid_id(request):
            # Refused before anything is done: a reply could not be matched to the request,
            # and the repeat cache could hand it another request's answer.
            return [_refusal(None, "id must be an integer 1 to " + str(MAX_ID))]
        if not self._greeted:
            # After a reset the host may still think it is talking to our previous run: make
            # it handshake again before anything is taken from it.
            return [{"t": "err", "id": request, "msg": "say hello first", "need": "hello"}]
        try:
            if kind == "ping":
                return [{"t": "pong", "id": request}]
            if kind == "show":
                self.picture = leds.parse_picture(message.get("pic"))
                return [{"t": "ok", "id": request}]
            if kind == "roll":
                return self._roll_request(message, now)
            if kind == "arm":
                return self._arm(message)
            if kind in ("commit", "reveal"):
                return self._served_once(str(kind), request,
                                         self._audit_request(kind, request))
        except Exception as error:  # noqa: BLE001 - no host message may stop the board
            # ValueError (bad rolls and pictures) carries a reason; anything else is a message
            # of the wrong shape (a list where a name belongs, ...), refused all the same.
            reason = str(error) if isinstance(error, ValueError) else "malformed " + str(kind)
            return [_refusal(request, reason)]
        return [_refusal(request, "unknown message type: " + str(kind))]

    def _hello(self, message: "dict[str, object]", now: int) -> "list[dict[str, object]]":
        # A host of another major version (or none) learns ours from the reply and must stop;
        # it is not greeted, so its acks and requests are not taken and no event goes to it.
        self._greeted = _speaks_our_major(message.get("v"))
        if self._greeted and message.get("boot") == self.boot:
            self._acknowledge(message.get("ack"))
        reply: dict[str, object] = {
            "t": "hello", "v": [protocol.VERSION_MAJOR, protocol.VERSION_MINOR],
            "fw": FIRMWARE_VERSION, "board": self.board_id, "boot": self.boot,
            "caps": CAPABILITIES, "seats": len(pins.SEAT_BUTTONS),
            "dice": sorted(dice.FACES), "lost": self._lost,
            "first": _seq_of(self._outbox[0]) if self._outbox else self._seq + 1,
        }
        return [reply] + (self._resend(now, everything=True) if self._greeted else [])

    def _acknowledge(self, seq: object) -> None:
        if isinstance(seq, int) and dice.integer_in(seq, 0, MAX_ID):
            kept = [entry for entry in self._outbox if _seq_of(entry) > seq]
            if len(kept) != len(self._outbox):
                self._outbox = kept
                self._changed()

    def _served_once(self, kind: str, request: object,
                     serve: "Callable[[], list[dict[str, object]]]") -> "list[dict[str, object]]":
        """Serve a request that must not happen twice; a repeat gets the first reply again.

        A repeat is the same ``t`` with the same ``id``; an id served for another type is
        refused rather than answered with that other request's reply.
        """
        for served, reply in self._served:
            if served == [kind, request]:
                return [reply]
            if isinstance(served, list) and served[1] == request:
                return [_refusal(request, "id already used by a " + str(served[0]))]
        out = serve()
        self._served = (self._served + [([kind, request], out[-1])])[-SERVED_REQUESTS:]
        self._changed()
        return out

    def _audit_request(self, kind: object, request: object) -> "Callable[[], list[dict[str, object]]]":
        def serve() -> "list[dict[str, object]]":
            reply: dict[str, object] = {"t": "ok", "id": request}
            if kind == "commit":
                self.session = dice.Session(self._entropy)
                reply["hash"] = self.session.hash
                reply["seq"] = self._seq  # later events belong to the new session
            else:
                reply["secret"] = self.session.reveal()
                reply["rolls"] = self.session.rolls
                self.session = dice.Session(self._entropy)
            self._changed()
            return [reply]
        return serve

    def _roll_request(self, message: "dict[str, object]", now: int) -> "list[dict[str, object]]":
        request = message.get("id")

        def serve() -> "list[dict[str, object]]":
            kind = message.get("dice")
            count = message.get("n")
            dice.check_roll(kind, count)
            assert isinstance(kind, str) and isinstance(count, int)
            sent = self._roll(kind, count, "host", request, now)
            return sent + [{"t": "ok", "id": request, "seq": self._seq}]
        return self._served_once("roll", request, serve)

    def _arm(self, message: "dict[str, object]") -> "list[dict[str, object]]":
        kind = message.get("dice")
        count = message.get("n")
        if dice.integer_in(count, 0, 0):
            dice.check_roll(kind, 1)  # disarming still names a kind the board knows
            self._armed = None
        else:
            dice.check_roll(kind, count)
            assert isinstance(kind, str) and isinstance(count, int)
            self._armed = (kind, count)
        return [{"t": "ok", "id": message.get("id")}]

    # -- events ---------------------------------------------------------------------------

    def _roll(self, kind: str, count: int, by: str, request: object, now: int) -> "list[dict[str, object]]":
        index, faces = self.session.roll(kind, count)
        # A roll may have more dice than there are dice LEDs: the first ones are shown.
        self.picture["dice"] = {"kind": kind, "faces": faces[:pins.DICE_LEDS]}
        return self._event({"kind": "roll", "dice": kind, "faces": faces, "roll": index,
                            "by": by, "id": request}, now)

    def _event(self, fields: "dict[str, object]", now: int) -> "list[dict[str, object]]":
        self._seq += 1
        fields["t"] = "ev"
        fields["seq"] = self._seq
        if len(self._outbox) >= OUTBOX_SIZE:
            self._outbox.pop(0)
            self._lost += 1
        silent = self._silenced(now)
        self._outbox.append([fields, None if silent else now])
        self._changed()
        return [] if silent else [fields]

    def sample(self, levels: "list[bool]", now: int) -> "list[dict[str, object]]":
        """Feed one sample of every button (True = held, order of BUTTON_NAMES).

        Any new event is in the state store before this returns, so before it is sent.
        """
        out: list[dict[str, object]] = []
        for button, level in zip(self.buttons, levels):
            press = button.update(level, now)
            if press is None:
                continue
            out += self._event({"kind": "press", "button": button.name,
                                "long": press == "long"}, now)
            if button.name == "roll" and press == "short" and self._armed is not None:
                out += self._roll(self._armed[0], self._armed[1], "button", None, now)
        self._persist()
        return out

    def tick(self, now: int) -> "list[dict[str, object]]":
        """Events due to be sent again (none while the host is silent: nobody would read them)."""
        if self._silenced(now):
            return []
        return self._resend(now, everything=False)

    def _silenced(self, now: int) -> bool:
        """True while no event may be sent: before the host's hello, or while it is silent."""
        return not self._greeted or self.idle(now)

    def _resend(self, now: int, everything: bool) -> "list[dict[str, object]]":
        """Every held event, oldest first, if any is due (or ``everything``); else none.

        Always from the oldest: a host that missed one waits for it, and must then get the
        later ones after it, never before it.
        """
        if not everything and not any(_due(entry, now) for entry in self._outbox):
            return []
        out: list[dict[str, object]] = []
        for entry in self._outbox:
            entry[1] = now
            event = entry[0]
            assert isinstance(event, dict)
            out.append(event)
        return out

    # -- LEDs -----------------------------------------------------------------------------

    def pixels(self, now: int) -> "list[tuple[int, int, int]]":
        """The LED colours to show at ``now``, brightness limit applied."""
        level = self.picture["level"]
        assert isinstance(level, int)
        return leds.limit(leds.render(self.picture, now, self.idle(now)), level)


def _due(entry: "list[object]", now: int) -> bool:
    sent_at = entry[1]
    return sent_at is None or (isinstance(sent_at, int) and now - sent_at >= RESEND_MS)


def _speaks_our_major(version: object) -> bool:
    return isinstance(version, list) and len(version) == 2 \
        and dice.integer_in(version[0], protocol.VERSION_MAJOR, protocol.VERSION_MAJOR) \
        and dice.integer_in(version[1], 0, MAX_ID)


def _valid_id(request: object) -> bool:
    return dice.integer_in(request, 1, MAX_ID)


def _refusal(request: object, reason: str) -> "dict[str, object]":
    """An ``err`` whose reason is one short line of printable ASCII, whatever it quotes."""
    return {"t": "err", "id": request, "msg": protocol.printable(reason, REASON_CHARS)}


def _seq_of(entry: "list[object]") -> int:
    event = entry[0]
    assert isinstance(event, dict)
    seq = event["seq"]
    assert isinstance(seq, int)
    return seq
