"""The demo's table: a seeded game between simple bots, as the camera and the board show it.

The bots play the whole game first (the engine, with its own seeded dice); the demo then shows
the referee that game the way a real table would: observations from the camera, and the dice,
passes and seat buttons as board events, each after the table it follows.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from host.rollecate.bots import simple_policy
from host.rollecate.observation import is_event
from host.rollecate.state import GameState
from host.rollecate.transcript import table_lines
from vision.observation import RollecateObservation


@dataclass(frozen=True)
class Scene:
    """One table the camera shows, and the board events that follow it."""

    view: RollecateObservation
    """What the camera sees: the railway, the train, each pile's top card (and the hands)."""
    events: tuple[dict[str, Any], ...]
    """Dice, passes and button presses, in order, once the table shows ``view``."""


class DemoGame:
    """The seeded game the demo's bots play, standing in for the real table."""

    def __init__(self, seed: int, players: int) -> None:
        rng = random.Random(seed)
        state = GameState.new(players, rng)
        while not state.over:
            state.push(state.roll_dice(rng) if state.is_chance_node() else simple_policy(state))
        self.state = state
        self.lines = table_lines(state, every_card=True)
        """The referee file of the game: the set-up line, observations and events."""

    def scenes(self) -> list[Scene]:
        """The game as the camera shows it, starting with the set-up."""
        return scenes_of(self.lines)


def scenes_of(lines: list[dict[str, Any]]) -> list[Scene]:
    """A referee file as a camera would show it: each table as the camera sees it (repeats
    merged), with the events that follow it."""
    scenes: list[Scene] = []
    for line in lines:
        if is_event(line):
            last = scenes[-1]
            scenes[-1] = Scene(last.view, (*last.events, line))
            continue
        view = camera_view(line)
        if "spread" in line and not any(line["spread"]):
            # Nothing to spread (every pile and hand empty): the camera sees no change, and
            # a seat's button ends the game.
            scenes[-1] = Scene(scenes[-1].view, (*scenes[-1].events, {"done": True}))
        elif not scenes or view != scenes[-1].view:
            scenes.append(Scene(view, ()))
    return scenes


def camera_view(line: Mapping[str, Any]) -> RollecateObservation:
    """What the camera sees of a table the engine describes: only each pile's top card, and
    at the final count every card spread out (each seat's sorted, as the camera reads them)."""
    spread = line.get("spread")
    return RollecateObservation(
        railway=tuple(line["railway"]),
        train=int(line["train"]),
        discard=tuple(tuple(pile[-1:]) for pile in line["discard"]),
        spread=tuple(tuple(sorted(cards)) for cards in spread) if spread is not None else None,
    )
