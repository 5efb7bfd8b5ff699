"""Decks are data files; both the engines and the recognizer read them through host.deck."""

import json
from collections import Counter

import pytest

from host.deck import DeckError, load_deck, parse_deck


def test_trains_deck_has_84_numbered_railcars_with_the_default_ability_map() -> None:
    deck = load_deck("trains")
    assert deck.size == 84
    assert [card.number("number") for card in deck.cards] == list(range(1, 85))
    abilities = Counter(card.text("ability") for card in deck.cards)
    # (n - 1) mod 8: the first four abilities on 11 cards, the other four on 10.
    assert sorted(abilities.values()) == [10, 10, 10, 10, 11, 11, 11, 11]
    assert deck.card("trains/9").text("ability") == deck.card("1").text("ability")


def test_rollecate_deck_has_the_published_composition() -> None:
    deck = load_deck("rollecate")
    kinds = Counter[str]()
    for card in deck.cards:
        kinds[card.text("kind")] += card.count
    assert deck.size == 55
    assert kinds == {"track": 46, "broken": 4, "chaos": 5}
    assert deck.card("track-3").id == "rollecate/track-3"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("{", "not JSON"),
        ("[]", "JSON object"),
        (json.dumps({"deck": "d", "cards": [{"count": 1}]}), "needs a name"),
        (json.dumps({"deck": "d", "cards": [{"name": "a", "count": 0}]}), "count"),
        (json.dumps({"deck": "d", "cards": [{"name": "a"}, {"name": "a"}]}), "twice"),
        (json.dumps({"deck": "d", "cards": [{"name": "a", "value": [1]}]}), "text or a number"),
    ],
)
def test_a_malformed_deck_is_refused_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(DeckError, match=reason):
        parse_deck(text)


def test_an_unknown_deck_or_card_is_a_clear_error() -> None:
    with pytest.raises(DeckError, match="no deck"):
        load_deck("chess")
    with pytest.raises(DeckError, match="no card"):
        load_deck("trains").card("85")
