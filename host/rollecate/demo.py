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

from host.errors import BadInputError
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
        if not scenes or view != scenes[-1].view:
            scenes.append(Scene(view, ()))
        elif "hands" in line:  # every hand is empty: nothing to spread, a button ends it
            scenes[-1] = Scene(view, (*scenes[-1].events, {"done": True}))
    return scenes


def camera_view(line: Mapping[str, Any]) -> RollecateObservation:
    """What the camera sees of a table the engine describes: only each pile's top card, and
    the hands only if some card is spread out."""
    hands = line.get("hands")
    return RollecateObservation(
        railway=tuple(line["railway"]),
        train=int(line["train"]),
        discard=tuple(tuple(pile[-1:]) for pile in line["discard"]),
        hands=tuple(tuple(hand) for hand in hands) if hands and any(hands) else None,
    )


def lines_left(lines: list[dict[str, Any]], inputs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What is left of a demo fed straight to the referee (``--camera none``), once ``inputs``
    (the journaled ones, every line after the set-up in order) were judged; BadInputError if
    they are not where that game was."""
    done = len(inputs)
    if inputs != lines[1 : 1 + done]:
        raise BadInputError("its journal does not follow its seeded demo fed straight to the "
                            "referee (resume it with --camera rendered)")
    return lines[1 + done :]


def scenes_left(scenes: list[Scene], inputs: list[dict[str, Any]]) -> list[Scene]:
    """What is left to show of a demo through the camera, once ``inputs`` (the journaled ones)
    were judged: the table the game stands at, shown again, with only its events not yet
    judged, then the scenes after it. Tables the camera saw that are no scene's (a settled
    misreading, a repeat) move nothing."""
    shown, events_done = 0, 0
    for data in inputs:
        if is_event(data):
            events_done += 1
            continue
        try:
            view = camera_view(data)
        except (KeyError, TypeError, ValueError):
            continue
        if shown < len(scenes) and view == scenes[shown].view:
            shown, events_done = shown + 1, 0
    if shown == 0:
        return scenes
    current = scenes[shown - 1]
    return [Scene(current.view, current.events[events_done:]), *scenes[shown:]]
