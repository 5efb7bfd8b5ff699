"""The referee judged against the independent engine's games (``rollecate_tables``): the tally
the property test asserts on and ``benchmarks/rollecate_transcripts.py`` prints."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from rollecate_tables import Camera, Game, play

from host.rollecate.referee import open_referee

POLICIES = ("random", "greedy")


@dataclass
class Tally:
    """What went wrong, game by game (each entry names the seed, the seats and the policy)."""

    games: int = 0
    verdicts: int = 0
    false_illegal: list[str] = field(default_factory=list)
    """Games with an ``illegal`` verdict (every generated game is legal)."""
    lost_turns: list[str] = field(default_factory=list)
    """Games where the referee counted another number of turns, or did not say ``win`` once."""
    inexact: list[str] = field(default_factory=list)
    """Games whose final count was not exact (wrong, or not ``exact: true``)."""
    silent: list[str] = field(default_factory=list)
    """Games whose count was wrong for a seat it did not name in ``assumed``."""
    seconds: list[float] = field(default_factory=list)
    """The referee's processor time per game (not wall time: the machine is shared)."""
    slowest: tuple[float, str] = (0.0, "")
    """The game the referee took longest over."""

    def problems(self) -> dict[str, list[str]]:
        """Every kind of failure that occurred."""
        kinds = {"false illegal": self.false_illegal, "lost turns": self.lost_turns,
                 "inexact": self.inexact, "silent": self.silent}
        return {kind: games for kind, games in kinds.items() if games}


def judge(game: Game, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The referee's verdicts on a game's lines, the opening's first."""
    referee = open_referee(lines[0])
    return [referee.opening().to_json(), *(referee.feed(line).to_json() for line in lines[1:])]


def check(tally: Tally, seed: int, seats: int, policy: str, final: str = "spread") -> None:
    """Play one game, show it to the referee as a camera would and add what went wrong."""
    game = play(seed, seats, policy)
    lines = Camera(random.Random(seed)).lines(game, final)
    started = time.process_time()
    verdicts = judge(game, lines)
    seconds = time.process_time() - started
    tally.seconds.append(seconds)
    tally.games += 1
    tally.verdicts += len(verdicts)
    name = f"seed {seed}, {seats} seats, {policy}"
    tally.slowest = max(tally.slowest, (seconds, name))
    illegal = [index for index, verdict in enumerate(verdicts) if verdict["verdict"] == "illegal"]
    if illegal:
        first = illegal[0]
        tally.false_illegal.append(f"{name}: line {first + 1}: {verdicts[first]['reason']}")
    wins = [verdict for verdict in verdicts if verdict["verdict"] == "win"]
    turns = sum(verdict["verdict"] == "move" for verdict in verdicts)
    if len(wins) != 1 or turns != game.table.turns:
        tally.lost_turns.append(f"{name}: {turns} turns of {game.table.turns}, {len(wins)} wins")
        return
    truth = game.scores()
    counted = [(seat["total"], seat["cards"]) for seat in wins[0]["scores"]["seats"]]
    if counted != truth or wins[0].get("exact") is not True:
        tally.inexact.append(f"{name}: counted {counted}, truth {truth}")
    named = {entry["seat"] for entry in wins[0].get("assumed", [])}
    wrong = {seat for seat in range(seats) if counted[seat] != truth[seat]}
    if wrong - named:
        tally.silent.append(f"{name}: seats {sorted(wrong - named)} counted wrong silently")


def run(seeds: range, final: str = "spread") -> Tally:
    """Every seed with both policies, 2 to 4 seats in turn."""
    tally = Tally()
    for seed in seeds:
        for policy in POLICIES:
            check(tally, seed, 2 + seed % 3, policy, final)
    return tally
