"""The web view in a real headless Chromium: it draws the game, updates live, takes the
players' controls, fits a phone, and asks for the PIN when shared."""

from __future__ import annotations

import ipaddress
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from terminal_helpers import ctrl_c_as_in_a_terminal

from host.cli import DEFAULT_PORT, web_address
from host.errors import BadInputError
from host.journal import Access, Journal
from host.trains.referee import open_referee
from host.web.server import PIN_TRIES, Address, PinGuard, WebView, lan_address
from host.web.snapshot import GameLog, snapshot

playwright = pytest.importorskip("playwright.sync_api")

ROOT = Path(__file__).resolve().parent.parent

OPENING = {
    "seats": 3,
    "first": 0,
    "phase": "play",
    "lines": [
        [70, 60, 50, 40, 30, 20, 10],
        [71, 61, 51, 44, 31, 27, 11],
        [72, 62, 52, 42, 32, 22, 12],
    ],
    "faceup": [9],
    "locks": [],
}
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("CI must install Debian's chromium (see .ci/run)")
        pytest.skip("no chromium on this machine: apt-get install chromium")
    return found


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        yield launched
        launched.close()


@pytest.fixture
def view() -> Iterator[WebView]:
    served = WebView(Address("127.0.0.1", 0))
    yield served
    served.close()


def state_after(observations: list[dict[str, Any]], message: str | None = None) -> dict[str, Any]:
    referee = open_referee(OPENING)
    log = GameLog()
    for seen in observations:
        verdict = referee.feed(seen).to_json()
        log.add(verdict["verdict"], verdict.get("move", {}).get("text", verdict.get("reason", "")))
    return snapshot(
        game="trains",
        title="The Game of Trains",
        turn=referee.turn_indicator(),
        table=referee.table(),
        log=log,
        message=None if message is None else ("alert", message),
    )


def test_the_page_draws_the_table_and_follows_the_game_live(
    browser: Any, view: WebView, tmp_path: Path
) -> None:
    view.publish(state_after([]))
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(view.url)
    page.wait_for_selector(".seat.on-turn")
    assert page.get_attribute(".seat.on-turn", "data-seat") == "0"
    first_line = page.locator('.seat[data-seat="1"] .card .number').all_inner_texts()
    assert first_line == ["71", "61", "51", "44", "31", "27", "11"]
    assert page.locator(".faceup .card .ability").inner_text() == "swap adjacent"

    # Seat 0 swaps with the face-up 9; the page follows without a reload.
    swapped = {**OPENING, "lines": [[60, 70, 50, 40, 30, 20, 10], *OPENING["lines"][1:]]}
    view.publish(state_after([{**swapped, "faceup": []}], message="seat 0 swapped places 1 and 2"))
    page.wait_for_selector('.seat.on-turn[data-seat="1"]')
    assert page.locator("#message").inner_text() == "seat 0 swapped places 1 and 2"
    assert "swapped places 1 and 2" in page.locator("#log li").first.inner_text()

    shot = Path(os.environ.get("CONDUCTOR_SCREENSHOT", tmp_path / "web-view.png"))
    page.screenshot(path=str(shot), full_page=True)
    image = cv2.imread(str(shot))
    assert image is not None and image.shape[1] == 1200
    felt = np.all(np.abs(image.astype(int) - [58, 107, 47]) < 12, axis=2)  # BGR of the felt
    assert felt.mean() > 0.02, "the table is not drawn"
    page.close()


def test_the_players_controls_reach_the_app(browser: Any, view: WebView) -> None:
    view.publish(state_after([]))
    page = browser.new_page()
    page.goto(view.url)
    page.wait_for_selector(".seat")
    page.click("#undo")
    assert view.commands.get(timeout=5) == "undo"
    page.click("#accept")
    assert view.commands.get(timeout=5) == "accept"
    page.close()


def test_the_page_fits_a_phone(browser: Any, view: WebView) -> None:
    view.publish(state_after([]))
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    page.goto(view.url)
    page.wait_for_selector(".seat")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.close()


def joined(browser: Any, shared: WebView) -> Any:
    """A page that opened the shared view and typed the PIN shown on the laptop."""
    assert shared.pin is not None
    page = browser.new_page()
    page.goto(shared.url)
    page.wait_for_selector("#pin-dialog[open]")
    page.fill("#pin", shared.pin)
    page.click("#pin-form button")
    page.wait_for_selector(".seat")
    return page


def test_a_shared_view_wants_the_pin(browser: Any) -> None:
    shared = WebView(Address("127.0.0.1", 0), share=True)
    try:
        assert shared.pin is not None and len(shared.pin) == 6
        shared.publish(state_after([]))
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(shared.url + "state", timeout=5)
        assert refused.value.code == 401
        request = urllib.request.Request(
            shared.url + "state", headers={"X-Conductor-Pin": shared.pin}
        )
        with urllib.request.urlopen(request, timeout=5) as answer:
            assert json.load(answer)["game"] == "trains"
        page = joined(browser, shared)
        page.close()
    finally:
        shared.close()


def test_an_address_other_computers_reach_always_has_a_pin() -> None:
    assert Address.parse("0.0.0.0:0").local_only is False
    assert Address.parse(":8080") == Address("127.0.0.1", 8080)
    with pytest.raises(ValueError, match="HOST:PORT"):
        Address.parse("localhost:http")


def test_a_rollecate_table_shows_the_railway_the_train_and_the_piles(
    browser: Any, view: WebView
) -> None:
    from host.rollecate.referee import open_referee as open_rollecate

    opening = {"seats": 2, "first": 1, "railway": ["track-2", "track-4", "broken-3", "track-1"],
               "train": 2, "discard": [["track-3", "chaos-2"], []]}
    referee = open_rollecate(opening)
    view.publish(snapshot(game="rollecate", title="Rollecate", turn=referee.turn_indicator(),
                          table=referee.table(), log=GameLog(), message=None))
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(view.url)
    page.wait_for_selector(".railway .card")
    assert page.locator(".railway .card .number").all_inner_texts() == ["2", "4", "3", "1"]
    assert page.get_attribute(".railway .card.train", "data-name") == "broken-3"
    assert page.get_attribute(".seat.on-turn", "data-seat") == "1"
    assert page.locator('.seat[data-seat="0"] .pile .card').count() == 2
    assert page.locator('.seat[data-seat="0"] .pile .card.chaos .number').inner_text() == "2"
    assert "discard pile empty" in page.locator('.seat[data-seat="1"]').inner_text()
    page.close()


def _post(url: str, headers: dict[str, str], body: bytes = b"") -> int:
    request = urllib.request.Request(url, data=body, method="POST", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as refused:
        return int(refused.code)


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return int(answer.status), {}
    except urllib.error.HTTPError as refused:
        body = refused.read()
        return int(refused.code), json.loads(body) if body.startswith(b"{") else {}


def test_another_sites_page_cannot_take_back_a_turn(browser: Any, view: WebView) -> None:
    view.publish(state_after([]))
    page = browser.new_page()
    # A page of another site, open in the same browser, tries every way to post /undo.
    page.route("http://evil.example/", lambda route: route.fulfill(
        content_type="text/html", body=f"""<form id="f" method="post" action="{view.url}undo">
        </form><script>
        fetch("{view.url}undo", {{method: "POST", mode: "no-cors"}}).catch(() => null);
        fetch("{view.url}accept", {{method: "POST", mode: "no-cors", headers: {{
            "Content-Type": "text/plain"}}, body: "x"}}).catch(() => null);
        </script>"""))
    page.goto("http://evil.example/")
    page.wait_for_timeout(300)
    with page.expect_navigation():
        page.evaluate("document.getElementById('f').submit()")
    assert "another site" in page.content() or "session token" in page.content()
    page.close()
    assert view.commands.empty(), "another site's page changed the game"
    # Our own page still can.
    own = browser.new_page()
    own.goto(view.url)
    own.wait_for_selector(".seat")
    own.click("#undo")
    assert view.commands.get(timeout=5) == "undo"
    own.close()


def test_a_state_change_needs_our_origin_our_host_and_the_session_token(view: WebView) -> None:
    host = urllib.parse.urlsplit(view.url).netloc
    good = {"X-Conductor-Token": view.token, "Origin": f"http://{host}"}
    assert _post(view.url + "undo", {**good, "Origin": "http://evil.example"}) == 403
    assert _post(view.url + "undo", {"Origin": f"http://{host}"}) == 403  # no token
    assert _post(view.url + "undo", {**good, "X-Conductor-Token": "guess"}) == 403
    assert _post(view.url + "undo", {**good, "Host": "evil.example:80"}) == 403  # rebinding
    assert _get(view.url + "state", {"Host": "evil.example"})[0] == 421
    assert view.commands.empty()
    assert _post(view.url + "undo", good) == 202
    assert view.commands.get(timeout=5) == "undo"


def test_wrong_pins_lock_the_client_out_and_the_page_says_so(browser: Any) -> None:
    shared = WebView(Address("127.0.0.1", 0), share=True)
    try:
        assert shared.pin is not None
        shared.publish(state_after([]))
        wrong = f"{(int(shared.pin) + 1) % 10**6:06d}"
        page = browser.new_page()
        page.goto(shared.url)
        page.wait_for_selector("#pin-dialog[open]")
        page.fill("#pin", wrong)
        page.click("#pin-form button")
        page.wait_for_selector("#pin-error:not([hidden])")
        assert "Wrong PIN" in page.inner_text("#pin-error")
        for _ in range(PIN_TRIES - 1):
            page.fill("#pin", wrong)
            page.click("#pin-form button")
        page.wait_for_function(
            "document.getElementById('pin-error').textContent.includes('Too many')"
        )
        # Locked out: even the right PIN is refused now, from the page and from this client.
        page.fill("#pin", shared.pin)
        page.click("#pin-form button")
        page.wait_for_timeout(300)
        assert "Too many wrong PINs" in page.inner_text("#pin-error")
        assert page.locator(".seat").count() == 0
        status, answer = _get(shared.url + "state", {"X-Conductor-Pin": shared.pin})
        assert status == 429 and answer["pin"] == "locked" and answer["seconds"] > 0
        page.close()
    finally:
        shared.close()


def test_the_lockout_ends_and_the_right_pin_counts_again() -> None:
    guard = PinGuard(lockout_seconds=0.2)
    for _ in range(PIN_TRIES - 1):
        guard.wrong("10.0.0.7")
    assert guard.locked_for("10.0.0.7") == 0
    guard.right("10.0.0.7")  # the count starts again
    for _ in range(PIN_TRIES - 1):
        guard.wrong("10.0.0.7")
    assert guard.locked_for("10.0.0.7") == 0
    guard.wrong("10.0.0.7")
    assert guard.locked_for("10.0.0.7") > 0
    assert guard.locked_for("10.0.0.8") == 0  # per client
    deadline = time.monotonic() + 5
    while guard.locked_for("10.0.0.7") > 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert guard.locked_for("10.0.0.7") == 0


def test_a_non_ascii_pin_is_just_a_wrong_pin() -> None:
    shared = WebView(Address("127.0.0.1", 0), share=True)
    try:
        assert _get(shared.url + "state?pin=%C3%A9")[0] == 401
        assert _get(shared.url + "state", {"X-Conductor-Pin": "é"})[0] == 401
        assert shared.pin is not None
        assert _get(shared.url + "state", {"X-Conductor-Pin": shared.pin})[0] == 200
    finally:
        shared.close()


def test_a_shared_view_is_reachable_on_the_lan_address(browser: Any) -> None:
    lan = lan_address()
    if ipaddress.ip_address(lan).is_loopback:
        pytest.skip("this machine has no network address besides loopback")
    address = web_address(None, share=True)
    assert address == Address("0.0.0.0", DEFAULT_PORT)
    shared = WebView(Address(address.host, 0), share=True)
    try:
        assert shared.pin is not None
        assert urllib.parse.urlsplit(shared.url).hostname == lan
        shared.publish(state_after([]))
        page = joined(browser, shared)
        page.click("#undo")
        assert shared.commands.get(timeout=5) == "undo"
        page.close()
    finally:
        shared.close()


def test_the_printed_url_is_the_address_served() -> None:
    for host in ("127.0.0.2", "127.0.0.1"):
        served = WebView(Address(host, 0))
        try:
            assert urllib.parse.urlsplit(served.url).hostname == host
            assert _get(served.url + "state")[0] == 200
        finally:
            served.close()


def test_share_serves_the_view_and_refuses_an_address_only_this_computer_reaches() -> None:
    assert web_address(None, share=False) is None
    assert web_address("", share=False) == Address("127.0.0.1", DEFAULT_PORT)
    assert web_address("0.0.0.0:9000", share=True) == Address("0.0.0.0", 9000)
    with pytest.raises(BadInputError, match="reaches no other device"):
        web_address("127.0.0.1:9000", share=True)


def _conductor(*args: str) -> tuple[Any, str]:
    """``python -m host ARGS`` serving the web view; the process and the page's address."""
    with ctrl_c_as_in_a_terminal():
        process = subprocess.Popen([sys.executable, "-m", "host", *args], cwd=ROOT,
                                   stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    first = process.stdout.readline()
    assert first.startswith("web view: "), first + process.stderr.read()
    return process, first.split()[2]


def _stop(process: Any) -> str:
    """Ctrl-C, as a player leaving the table: the journal keeps every move."""
    process.send_signal(signal.SIGINT)
    try:
        out, err = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        pytest.fail(f"no end within 20 s of Ctrl-C: {err[-300:]}")
    assert process.returncode == 130, err
    assert err == "conductor: interrupted\n"
    return str(out)


def test_ctrl_c_ends_the_game_when_the_tests_run_in_the_background(tmp_path: Path) -> None:
    """Run in the background, the tests ignore SIGINT; the app they start still hears Ctrl-C
    as a player's terminal sends it, and its game stays journaled, to be resumed."""
    db = tmp_path / "games.sqlite"
    ignored = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        process, _ = _conductor("play", "trainline", "--players", "2", "--web", "127.0.0.1:0",
                                "--board", "none", "--db", str(db))
    finally:
        signal.signal(signal.SIGINT, ignored)
    said = [process.stdout.readline()]  # Ctrl-C once the game is started and waits
    while said[-1] and not said[-1].startswith("enter the moves on the web view"):
        said.append(process.stdout.readline())
    _stop(process)
    assert "(journaled as game 1)" in said[0], said
    with Journal(db, Access.READ) as journal:
        assert [(game.id, game.status) for game in journal.games()] == [(1, "playing")]


def _tap(page: Any, *cells: str) -> None:
    for cell in cells:
        page.click(f'.tl-cell[data-cell="{cell}"]')


def test_train_line_is_played_by_tapping_on_a_phone(browser: Any, tmp_path: Path) -> None:
    db = str(tmp_path / "games.sqlite")
    process, url = _conductor("play", "trainline", "--players", "2", "--web", "127.0.0.1:0",
                              "--board", "none", "--db", db)
    try:
        page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
        page.goto(url)
        page.wait_for_selector('.offer[data-input="play"]')
        assert page.locator(".tl-cell.start").count() == 4
        # Seat 0 taps a start space: the boarding die is due, rolled by hand (no board).
        _tap(page, "0,4")
        page.click('.offer[data-input="play"] .send')
        page.click('.offer[data-input="roll"] button:has-text("Doors open")')
        page.wait_for_selector('.tl-cell[data-cell="1,4"] .pawn.seat-0')
        # Its pawn, then two spaces down the aisle, with a red 2.
        _tap(page, "1,4", "3,4")
        page.click('.chip[data-card="red-2"]')
        page.click('.offer[data-input="play"] .send')
        page.wait_for_selector('.tl-cell[data-cell="3,4"] .pawn.seat-0')
        assert page.get_attribute(".seat.on-turn", "data-seat") == "1"
        assert "seat 0: steps up to the doors" in page.locator("#log li").first.inner_text()
        # Seat 1 has no pawn on the train: the referee says why not, in the page.
        _tap(page, "2,4")
        page.click('.chip[data-card="red-1"]')
        page.click('.offer[data-input="play"] .send')
        page.wait_for_selector("#message.alert")
        assert page.inner_text("#message") == "illegal: seat 1 has no pawn in the aisle to move"
        assert page.get_attribute(".seat.on-turn", "data-seat") == "1"
        # Another site's page posts an entry: refused, the game unchanged.
        evil = browser.new_page()
        evil.route("http://evil.example/", lambda route: route.fulfill(
            content_type="text/html", body=f"""<script>
            fetch("{url}input", {{method: "POST", mode: "no-cors", headers: {{
                "Content-Type": "text/plain"}}, body: '{{"input": "end", "value": 1}}'}});
            </script>"""))
        evil.goto("http://evil.example/")
        evil.wait_for_timeout(500)
        evil.close()
        assert _post(url + "input", {"Origin": "http://evil.example",
                                     "X-Conductor-Token": "guess"}) == 403
        assert json.load(urllib.request.urlopen(url + "state"))["turn"]["on_turn"] == 1
        page.close()
    finally:
        said = _stop(process)
    assert "1. seat 0: steps up to the doors at (0, 4)" in said
    # Resumed from the journal, the game goes on where it was; undo takes back seat 0's turn.
    process, url = _conductor("resume", "1", "--web", "127.0.0.1:0", "--board", "none",
                              "--db", db)
    try:
        page = browser.new_page()
        page.goto(url)
        page.wait_for_selector('.tl-cell[data-cell="3,4"] .pawn.seat-0')
        assert page.get_attribute(".seat.on-turn", "data-seat") == "1"
        page.click("#undo")
        page.wait_for_selector('.seat.on-turn[data-seat="0"]')
        assert page.locator(".pawn").count() == 0
        page.close()
    finally:
        _stop(process)


def test_an_entry_needs_the_pin_on_a_shared_view_and_must_be_json() -> None:
    shared = WebView(Address("127.0.0.1", 0), share=True)
    try:
        host = urllib.parse.urlsplit(shared.url).netloc
        good = {"X-Conductor-Token": shared.token, "Origin": f"http://{host}"}
        assert _post(shared.url + "input", good, b'{"input": "end", "value": 1}') == 401
        assert shared.pin is not None
        pinned = {**good, "X-Conductor-Pin": shared.pin}
        assert _post(shared.url + "input", pinned, b'{"input": "end"') == 400
        assert _post(shared.url + "input", pinned, b"x" * 5000) == 400
        assert shared.commands.empty()
        assert _post(shared.url + "input", pinned, b'{"input": "end", "value": 1}') == 202
        assert shared.commands.get(timeout=5) == {"input": "end", "value": 1}
    finally:
        shared.close()
