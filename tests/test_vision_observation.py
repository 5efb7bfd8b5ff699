"""The Game of Trains observation JSON: the contract between vision and the referee."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from host.trains.observation import MalformedObservationError, TrainsObservation

numbers = st.one_of(st.none(), st.integers(1, 84))


@given(st.integers(2, 4).flatmap(lambda seats: st.tuples(
    st.lists(st.lists(numbers, min_size=7, max_size=7), min_size=seats, max_size=seats),
    st.lists(numbers, max_size=5),
    st.lists(st.tuples(st.integers(0, seats - 1), st.sampled_from(["left", "middle", "right"])),
             max_size=4))))
def test_an_observation_survives_its_json(parts: tuple[list[list[int | None]],
                                                      list[int | None],
                                                      list[tuple[int, str]]]) -> None:
    lines, faceup, locks = parts
    observation = TrainsObservation(tuple(tuple(line) for line in lines), tuple(faceup),
                                    tuple(locks))
    assert TrainsObservation.from_json(json.loads(observation.dumps())) == observation


@pytest.mark.parametrize("data", [
    [],
    {"lines": [[1, 2, 3, 4, 5, 6, 7]]},
    {"lines": [[1, 2, 3, 4, 5, 6]] * 2},
    {"lines": [[1, 2, 3, 4, 5, 6, 85]] * 2},
    {"lines": [[1, 2, 3, 4, 5, 6, 7]] * 2, "faceup": "7"},
    {"lines": [[1, 2, 3, 4, 5, 6, 7]] * 2, "locks": [[2, "left"]]},
    {"lines": [[1, 2, 3, 4, 5, 6, 7]] * 2, "locks": [[0, "second"]]},
    {"lines": [[1, 2, 3, 4, 5, 6, True]] * 2},
])
def test_a_malformed_observation_gets_a_one_line_reason(data: object) -> None:
    with pytest.raises(MalformedObservationError) as error:
        TrainsObservation.from_json(data)
    assert "\n" not in str(error.value)
