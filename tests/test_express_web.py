"""Express's entries on the web view: what the camera cannot see comes from the players. A Wild
Car in a passenger train of several types is left untyped by the camera and the referee waits
for its type; a Derailment's target and a turn that left the table looking the same are the
seats' buttons, on the board or on the page."""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_express_referee import recorded_hand

from host.errors import BadInputError
from host.express.cards import Kind, standard_cards
from host.express.referee import ExpressReferee, judge_lines
from host.tables.express import passenger_types, web_line, web_offers

CARDS = standard_cards()
SEEDS = (1, 2, 4, 7, 15, 30)
"""Two-seat hands in which a Wild Car lies in a passenger train of several types (in seed 4
the train had one type when the Wild Car joined it: its type is kept, never asked)."""


def as_the_camera_sees(line: dict[str, Any]) -> tuple[dict[str, Any], dict[tuple[int, ...], str]]:
    """The line with each Wild Car in a passenger train of several types left ``wild``, and
    the types it stood for, by where it lies."""
    hidden: dict[tuple[int, ...], str] = {}
    if "trains" not in line:
        return line, hidden
    trains = []
    for seat, listed in enumerate(line["trains"]):
        seen = []
        for number, train in enumerate(listed):
            kinds = {car for car in train["cars"]
                     if not car.startswith("wild") and car != "caboose"}
            cars = []
            for car, name in enumerate(train["cars"]):
                if name.startswith("wild:") and len(kinds) > 1:
                    hidden[(seat, number, car)] = name.split(":")[1]
                    name = "wild"
                cars.append(name)
            seen.append({**train, "cars": cars})
        trains.append(seen)
    return {**line, "trains": trains}, hidden


@pytest.mark.parametrize("seed", SEEDS)
def test_the_referee_asks_for_a_wild_cars_type_once_and_then_judges_as_before(seed: int) -> None:
    lines, _ = recorded_hand(seed, 2)
    head, rows = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    expected = [verdict["verdict"] for verdict in judge_lines(lines)]
    referee = ExpressReferee(head["seats"], head.get("first", 0))
    asked = 0
    for row, kind in zip(rows, expected, strict=True):
        seen, hidden = as_the_camera_sees(row)
        verdict = referee.feed(seen)
        while referee.needs_wild is not None:
            asked += 1
            assert verdict.verdict == "waiting" and "Wild Car" in verdict.pending
            (offer,) = web_offers(referee, False)
            assert offer["name"] == "wild"
            where = referee.needs_wild
            choice = next(choice for choice in offer["choices"]
                          if choice["value"]["as_type"] == hidden[where])
            verdict = referee.feed(web_line("wild", choice["value"]))
        assert verdict.verdict == kind, f"seed {seed}: {row}"
    assert (asked > 0) == (seed != 4), f"seed {seed}: asked {asked} times"


def test_a_type_no_wild_car_can_stand_for_is_illegal_and_a_malformed_one_bad_input() -> None:
    referee = ExpressReferee(2, 0)
    said = referee.feed({"event": "wild", "seat": 0, "train": 0, "car": 1, "as_type": "wreck"})
    assert said.verdict == "illegal" and "cannot be played as wreck" in said.reason
    for bad in ({"seat": -1, "train": 0, "car": 0, "as_type": "coach"},
                {"seat": 0, "train": "0", "car": 0, "as_type": "coach"},
                {"seat": 0, "train": 0, "car": 0}):
        with pytest.raises(BadInputError):
            referee.feed({"event": "wild", **bad})
    assert all(CARDS.kind(name) is Kind.PASSENGER for name in passenger_types(CARDS))


def test_the_page_offers_the_seat_buttons_and_they_become_button_lines() -> None:
    referee = ExpressReferee(3, 1)
    (done,) = web_offers(referee, False)
    assert done["choices"] == [{"label": "Done", "value": 1}]
    assert web_line("button", 2) == {"event": "button", "seat": 2}
    for name, value in (("button", True), ("button", "2"), ("exchange", 1)):
        with pytest.raises(BadInputError):
            web_line(name, value)


def test_a_loco_exchange_needs_no_entry_the_diesels_is_seen_on_the_table() -> None:
    """Exchanged for the Diesel, a Loco turns face up: the camera sees it and the referee takes
    the turn. Exchanged face down for face down it changes only a hand, which nobody judges."""
    referee = ExpressReferee(2, 0)

    def table(loco: str, discard: str, second: bool = True) -> dict[str, Any]:
        theirs = [{"loco": "face-down", "cars": ["coach"]}] if second else []
        return {"trains": [[{"loco": loco, "cars": ["mail"]}], theirs],
                "way_cars": [[], []], "discard": discard, "special": []}

    assert referee.feed(table("face-down", "box-car", second=False)).verdict == "move"
    assert referee.feed(table("face-down", "reefer")).verdict == "move"
    verdict = referee.feed(table("diesel", "tank-car"))
    assert verdict.verdict == "move" and verdict.move["plays"] == 0
    assert referee.table.trains[0][0].diesel
