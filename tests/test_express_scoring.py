"""Express scoring: car values, short trains, Caboose, the four doublings, Way Cars, the hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from host.cli import main
from host.errors import BadInputError
from host.express.cards import standard_cards
from host.express.scoring import parse_table, score_seat
from host.express.trains import Car, Train, score_train

CARDS = standard_cards()


def train(*cars: str, diesel: bool = False) -> Train:
    return Train("diesel" if diesel else "box-car", diesel,
                 tuple(Car(*c.split(":")) if ":" in c else Car(c, c) for c in cars))


def value(*names: str) -> int:
    return sum(CARDS[name].value for name in names)


def test_a_train_of_three_or_more_cars_scores_its_car_values() -> None:
    assert score_train(train("tank-car", "tank-car", "tank-car", "tank-car"), CARDS).total == (
        4 * CARDS["tank-car"].value)


@pytest.mark.parametrize("cars", [(), ("auto-carrier",), ("auto-carrier", "auto-carrier")])
def test_a_loco_with_one_or_two_cars_scores_nothing(cars: tuple[str, ...]) -> None:
    assert score_train(train(*cars), CARDS).total == 0


def test_a_caboose_completes_a_train_as_third_car_and_adds_its_point() -> None:
    scored = score_train(train("reefer", "reefer", "caboose"), CARDS)
    assert scored.total == value("reefer", "reefer") + CARDS["caboose"].value


def test_each_bonus_doubles_cumulatively() -> None:
    cars = ("mail", "coach", "coach", "coach", "coach", "coach", "coach", "dome", "sleeper",
            "observation")
    scored = score_train(train(*cars, diesel=True), CARDS)
    assert scored.bonuses == ("DIESEL", "CONSIST", "COMPLETE", "DAYLIGHT EXPRESS")
    assert scored.total == value(*cars) * 16
    assert "DAYLIGHT EXPRESS doubles to" in scored.explain()


def test_consist_needs_several_types_in_mcdso_order() -> None:
    assert score_train(train("mail", "dome", "observation"), CARDS).bonuses == ("CONSIST",)
    assert score_train(train("dome", "mail", "observation"), CARDS).bonuses == ()
    assert score_train(train("coach", "coach", "coach"), CARDS).bonuses == ()


def test_a_wild_car_counts_as_what_it_was_played_as_for_value_and_bonuses() -> None:
    scored = score_train(train("mail", "coach", "wild:dome", "sleeper", "observation"), CARDS)
    assert "COMPLETE" in scored.bonuses
    assert scored.base == value("mail", "coach", "dome", "sleeper", "observation")


def test_a_caboose_cancels_every_bonus() -> None:
    scored = score_train(train("mail", "coach", "dome", "caboose", diesel=True), CARDS)
    assert scored.bonuses == () and scored.cancelled == ("DIESEL", "CONSIST")
    assert scored.total == value("mail", "coach", "dome", "caboose")
    assert "Caboose cancels DIESEL, CONSIST" in scored.explain()


def test_freight_trains_earn_no_passenger_bonus_even_behind_a_diesel() -> None:
    assert score_train(train("box-car", "box-car", "box-car", diesel=True), CARDS).bonuses == ()


def test_way_cars_score_five_and_the_hand_counts_minus() -> None:
    (seat,) = parse_table(json.dumps({"seats": [
        {"trains": [], "way_cars": ["boom", "office-car"], "hand": ["wreck", "auto-carrier"]}]}))
    scored = score_seat(seat, CARDS)
    assert scored.way_cars == 10 and scored.hand == -value("wreck", "auto-carrier")


@pytest.mark.parametrize(
    ("table", "reason"),
    [("[", "not JSON"), ("{}", "seats"),
     ('{"seats": [{"trains": [{"cars": ["coach", "box-car"]}]}]}', "cannot follow"),
     ('{"seats": [{"trains": [{"cars": ["wild"]}]}]}', "wild:coach"),
     ('{"seats": [{"trains": [{"loco": "up"}]}]}', "face-down"),
     ('{"seats": [{"way_cars": ["coach"]}]}', "cannot lie here")],
)
def test_a_bad_table_is_refused_with_a_reason(table: str, reason: str) -> None:
    with pytest.raises(BadInputError, match=reason):
        parse_table(table)


def _write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "table.json"
    path.write_text(json.dumps(data))
    return path


def test_score_command_explains_every_doubling(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                               ) -> None:
    path = _write(tmp_path, {"seats": [
        {"name": "Ann", "trains": [{"loco": "diesel", "cars": ["mail", "coach", "dome"]}],
         "hand": ["box-car"]},
        {"name": "Bo", "trains": [{"cars": ["reefer"] * 4}], "way_cars": ["boom"]}]})
    assert main(["score", "express", str(path)]) == 0
    text = capsys.readouterr().out
    ann = value("mail", "coach", "dome") * 4 - value("box-car")
    assert f"Ann: {ann}" in text and "DIESEL doubles" in text and "CONSIST doubles" in text
    assert main(["score", "express", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seats"][0]["total"] == ann
    assert data["seats"][1]["total"] == value("reefer") * 4 + 5
    assert data["winners"] == [0 if ann > value("reefer") * 4 + 5 else 1]


def test_score_command_exits_2_on_a_bad_file(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "express", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


FIXTURE = Path(__file__).parent / "fixtures" / "express" / "table.json"


def test_the_documented_example_table_scores_with_its_breakdown(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "express", str(FIXTURE), "--json"]) == 0
    ann, bo = json.loads(capsys.readouterr().out)["seats"]
    complete = value("mail", "coach", "dome", "sleeper", "observation")
    # DIESEL, CONSIST and COMPLETE each double the passenger train: x8.
    assert ann["trains"][0]["bonuses"] == ["DIESEL", "CONSIST", "COMPLETE"]
    assert ann["trains"][0]["total"] == complete * 8
    assert ann["trains"][2]["total"] == 0  # two cars score nothing
    assert ann["total"] == complete * 8 + value("reefer") * 3 + value("caboose") + 5 - value(
        "box-car")
    # Six Coaches: DAYLIGHT EXPRESS (one type only, so no CONSIST); the Caboose cancels CONSIST.
    assert bo["trains"][0]["bonuses"] == ["DAYLIGHT EXPRESS"]
    assert bo["trains"][1]["cancelled_by_caboose"] == ["CONSIST"]
    assert bo["hand"] == -value("wreck", "auto-carrier")
