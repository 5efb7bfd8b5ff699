"""The web view in a real headless Chromium: it draws the game, updates live, takes the
players' controls, fits a phone, and asks for the PIN when shared."""

from __future__ import annotations

import json
import os
import shutil
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from host.trains.referee import open_referee
from host.web.server import Address, WebView
from host.web.snapshot import GameLog, snapshot

playwright = pytest.importorskip("playwright.sync_api")

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
        verdict = referee.judge(seen)
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
        page = browser.new_page()
        page.goto(shared.url)
        page.wait_for_selector("#pin-dialog[open]")
        page.fill("#pin", shared.pin)
        page.click("#pin-form button")
        page.wait_for_selector(".seat")
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
