"""Fuzzing the referee with arbitrary tables: every input gets a verdict or a clear
MalformedObservationError, never a crash, and a verdict other than move/win changes nothing."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from host.trains.observation import MalformedObservationError
from host.trains.referee import open_referee

OPENING = {
    "seats": 2,
    "first": 0,
    "phase": "play",
    "lines": [[70, 60, 50, 40, 30, 20, 10], [71, 61, 51, 44, 31, 27, 11]],
    "faceup": [9, 14, 24],
    "locks": [],
}
cards = st.integers(min_value=-2, max_value=90)
tables = st.fixed_dictionaries(
    {
        "lines": st.lists(st.lists(cards, min_size=6, max_size=8), min_size=1, max_size=3),
        "faceup": st.lists(cards, max_size=5),
        "locks": st.lists(
            st.tuples(st.integers(-1, 3), st.sampled_from(["left", "middle", "right", "top"])).map(
                list
            ),
            max_size=2,
        ),
    }
)
# Tables close to the real one: the same cards, shuffled between places, some swapped for others.
near = st.permutations([70, 60, 50, 40, 30, 20, 10, 71, 61, 51, 44, 31, 27, 11, 9, 14, 24, 2, 3])


@settings(max_examples=300, deadline=None)
@given(table=tables)
def test_any_table_gets_a_verdict_or_a_clear_error(table: dict[str, Any]) -> None:
    referee = open_referee(OPENING)
    before = referee.game.position.copy()
    try:
        verdict = referee.feed(table).to_json()
    except MalformedObservationError as error:
        assert str(error) and "\n" not in str(error)
        return
    assert verdict["verdict"] in ("move", "win", "waiting", "illegal")
    if verdict["verdict"] in ("waiting", "illegal"):
        assert referee.game.position == before


@settings(max_examples=300, deadline=None)
@given(order=near, faceup_count=st.integers(0, 5))
def test_a_reshuffled_table_is_judged_without_crashing(order: list[int], faceup_count: int) -> None:
    referee = open_referee(OPENING)
    before = referee.game.position.copy()
    table = {"lines": [order[:7], order[7:14]], "faceup": order[14 : 14 + faceup_count]}
    verdict = referee.feed(table).to_json()
    assert verdict["verdict"] in ("move", "win", "waiting", "illegal")
    if verdict["verdict"] == "illegal":
        assert verdict["reason"] and referee.game.position == before
