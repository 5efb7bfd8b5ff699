"""Rollecate games as a camera and a board would report them, from a second, independent engine.

Written from the rulebook (shared/rules/004_*.txt) and the rulings in PRODUCT.md only: it reads
the deck file and imports nothing of ``host.rollecate``, so a misreading of the rules in the
referee's engine is not repeated here. A game is played by a random or a greedy policy; every
physical change of the table (a card built, the train moved, a penalty card taken, a card put on
a pile) is a snapshot, and ``Camera`` turns the snapshots into the referee's lines the way a
real table makes them: each pile's top card only, some views missed (a player faster than the
camera), some repeated, piles out of view for a moment, the board's dice and the seats' buttons
(other seats' presses too), and at the end every player's cards spread out.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

DECK = json.loads((Path(__file__).parent.parent / "host" / "decks" / "rollecate.json")
                  .read_text(encoding="utf-8"))
KIND = {card["name"]: card["kind"] for card in DECK["cards"]}
VALUE = {card["name"]: card["value"] for card in DECK["cards"]}
CARDS = [card["name"] for card in DECK["cards"] for _ in range(card["count"])]
REMOVED = {2: 11, 3: 9, 4: 7}  # removed unseen at set-up (PRODUCT.md, Rulings)
WHEEL_CHANCE = 4 / 6  # 4 wheel faces and 2 blank faces


@dataclass
class Table:
    """The whole table, every card known: the referee's truth."""

    seats: int
    first: int
    railway: list[str]
    train: int
    draw: list[str]
    hands: list[list[str]]
    piles: list[list[str]] = field(default_factory=list)
    turns: int = 0

    @classmethod
    def deal(cls, seats: int, rng: random.Random) -> Table:
        """The published set-up: 4 track cards (chaos cards drawn meanwhile go back in), the
        train on the 3rd, cards removed unseen, 2 cards each."""
        deck = CARDS[:]
        rng.shuffle(deck)
        railway: list[str] = []
        aside: list[str] = []
        while len(railway) < 4:
            card = deck.pop()
            (aside if KIND[card] == "chaos" else railway).append(card)
        deck += aside
        rng.shuffle(deck)
        del deck[: REMOVED[seats]]
        hands = [[deck.pop(), deck.pop()] for _ in range(seats)]
        return cls(seats, rng.randrange(seats), railway, 2, deck, hands,
                   [[] for _ in range(seats)])

    def snapshot(self) -> dict[str, Any]:
        """The table as it lies now (whole piles, bottom first)."""
        return {"railway": self.railway[:], "train": self.train,
                "piles": [pile[:] for pile in self.piles]}

    def builds(self, seat: int) -> list[tuple[str, ...]]:
        """Every build the hand allows: one or more cards of one value, never a chaos card,
        never differing by 2 from the railway's last card."""
        last = VALUE[self.railway[-1]]
        found: set[tuple[str, ...]] = set()
        tracks = [card for card in self.hands[seat] if KIND[card] != "chaos"]
        for value in {VALUE[card] for card in tracks}:
            if abs(value - last) == 2:
                continue
            same = sorted(card for card in tracks if VALUE[card] == value)
            for size in range(1, len(same) + 1):
                found.update(combinations(same, size))
        return sorted(found)

    def chaos_sets(self, seat: int) -> list[tuple[str, ...]]:
        """Every non-empty set of the chaos cards in the hand."""
        chaos = sorted(card for card in self.hands[seat] if KIND[card] == "chaos")
        return [group for size in range(1, len(chaos) + 1) for group in combinations(chaos, size)]


Snapshot = dict[str, Any]
"""A table at one moment, with the events (dice, buttons) that follow it: ``events``."""


@dataclass
class Game:
    """A finished game: the snapshots in order and the truth at the end."""

    opening: dict[str, Any]
    snapshots: list[Snapshot]
    table: Table
    log: list[str]
    """Each turn in words (to read a failure by)."""

    def scores(self) -> list[tuple[int, int]]:
        """Each seat's true (points, cards): pile and hand, no combining."""
        return [(sum(VALUE[c] for c in pile + hand), len(pile) + len(hand))
                for pile, hand in zip(self.table.piles, self.table.hands, strict=True)]


class Policy:
    """How a player chooses: ``random`` (any legal choice) or ``greedy`` (shed points now)."""

    def __init__(self, name: str, rng: random.Random) -> None:
        self.name, self.rng = name, rng

    def action(self, table: Table, seat: int) -> tuple[str, tuple[str, ...]]:
        builds, chaos = table.builds(seat), table.chaos_sets(seat)
        if self.name == "random":
            options = [("pass", ()), *(("build", b) for b in builds),
                       *(("chaos", c) for c in chaos)]
            return self.rng.choice(options)
        top = table.piles[seat][-1:]
        pairing = [c for c in chaos if len(c) == 1 and top and VALUE[c[0]] == VALUE[top[0]]]
        if pairing:
            return "chaos", pairing[0]
        if builds:
            return "build", max(builds, key=lambda b: (sum(VALUE[c] for c in b), b))
        return ("chaos", chaos[-1]) if chaos else ("pass", ())

    def discard(self, pile: list[str], cards: list[str]) -> list[tuple[str, bool]]:
        """The order the owed cards go down in, and which of them combine."""
        left, steps, shown = cards[:], [], pile[:]
        while left:
            if self.name == "greedy":
                match = [c for c in left if shown and VALUE[c] == VALUE[shown[-1]]]
                card = match[0] if match else max(left, key=lambda c: VALUE[c])
            else:
                card = self.rng.choice(left)
            left.remove(card)
            can = bool(shown) and VALUE[card] == VALUE[shown[-1]]
            combine = can and (self.name == "greedy" or self.rng.random() < 0.5)
            steps.append((card, combine))
            if combine:
                shown.pop()
            else:
                shown.append(card)
        return steps


def play(seed: int, seats: int, policy: str) -> Game:
    """One whole game, seeded; every physical change of the table is a snapshot."""
    rng = random.Random(seed)
    table = Table.deal(seats, rng)
    chooser = Policy(policy, rng)
    opening = {"seats": seats, "first": table.first, "railway": table.railway[:],
               "train": table.train, "discard": [[] for _ in range(seats)]}
    shots: list[Snapshot] = []
    log: list[str] = []

    def shot(*events: dict[str, Any], must: bool = False) -> None:
        shots.append({**table.snapshot(), "events": list(events), "must": must, "seat": seat})

    seat = table.first
    while table.draw:
        table.hands[seat].append(table.draw.pop())
        kind, cards = chooser.action(table, seat)
        log.append(f"seat {seat} {kind} {' '.join(cards)}; pile {table.piles[seat]}")
        owed: list[str] = []
        if kind == "chaos":
            owed = list(cards)
            rng.shuffle(owed)
            for card in owed:
                table.hands[seat].remove(card)
        else:
            if kind == "build":
                for card in cards:
                    table.hands[seat].remove(card)
                table.railway += list(cards)
                shot(must=True)
                dice = sum(VALUE[c] for c in cards)
                wheels = 0
                while dice:
                    faces = ["wheel" if rng.random() < WHEEL_CHANCE else "blank"
                             for _ in range(min(dice, 4))]
                    dice -= len(faces)
                    wheels += faces.count("wheel")
                    shots[-1]["events"].append({"dice": faces})
                steps, penalty = wheels, 0
            else:
                steps, penalty = 1, 1  # a pass: one card forward if she can, one penalty card
            start = table.train
            stop = min(start + steps, len(table.railway) - 1)
            if kind == "build":
                penalty += start + steps - stop  # derailed: a card per step not done
            penalty += sum(KIND[c] == "broken" for c in table.railway[start + 1 : stop + 1])
            before = table.snapshot()
            table.train = stop
            if stop != start:
                shot()
            taken: list[str] = []
            for _ in range(penalty):
                if table.train == 0:
                    break  # never the card Rollecate stands on
                taken.append(table.railway.pop(0))
                table.train -= 1
                shot()
            owed = taken
            if kind == "pass" and table.snapshot() == before:
                shot({"pass": True}, must=True)  # nothing shows the pass: the seat says it
        for card, combine in chooser.discard(table.piles[seat], owed):
            if combine:
                table.piles[seat].pop()
            else:
                table.piles[seat].append(card)
            shot()
        table.turns += 1
        shot({"done": True, "seat": seat}, must=True)
        seat = (seat + 1) % seats
    return Game(opening, shots, table, log)


@dataclass
class Camera:
    """How views of the snapshots reach the referee."""

    rng: random.Random
    miss: float = 0.35
    """Chance that a passing table is never seen (the player was faster)."""
    repeat: float = 0.15
    """Chance that a view is sent twice (the camera settles again on the same table)."""
    hide: float = 0.1
    """Chance that a pile is out of view in a passing view (an arm over it)."""
    stray: float = 0.05
    """Chance of another seat's button press after a view."""

    def lines(self, game: Game, final: str = "spread") -> list[dict[str, Any]]:
        """The referee file: the set-up, views and events, and the final count (``spread``:
        every card spread out; ``hands``: the hands only, the piles as they lie)."""
        seats = game.table.seats
        lines: list[dict[str, Any]] = [game.opening]
        for shot in game.snapshots:
            if not shot["must"] and self.rng.random() < self.miss:
                continue
            view = {"railway": shot["railway"], "train": shot["train"],
                    "discard": [pile[-1:] for pile in shot["piles"]]}
            if not shot["must"]:
                view["discard"] = [None if self.rng.random() < self.hide else pile
                                   for pile in view["discard"]]
            lines.append(view)
            if self.rng.random() < self.repeat:
                lines.append(view)
            lines.extend(shot["events"])
            # Another seat's button in the middle of a turn must change nothing. (Not the next
            # seat's: once the turn looks complete, its press would start its own turn, and
            # a turn can be a press alone: chaos cards that combine away show nothing.)
            others = [seat for seat in range(seats)
                      if (seat - shot["seat"]) % seats not in (0, 1)]
            if others and not shot["must"] and self.rng.random() < self.stray:
                lines.append({"done": True, "seat": self.rng.choice(others)})
        table = game.table
        last = {"railway": table.railway, "train": table.train,
                "discard": [pile[-1:] for pile in table.piles]}
        if final == "hands":
            lines.append({**last, "hands": [hand[:] for hand in table.hands]})
        else:
            spread = [pile + hand for pile, hand in zip(table.piles, table.hands, strict=True)]
            for cards in spread:
                self.rng.shuffle(cards)
            lines.append({"railway": table.railway, "train": table.train,
                          "discard": [[] for _ in range(seats)], "spread": spread})
        return lines
