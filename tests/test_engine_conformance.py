"""One conformance test every engine passes (OpenSpiel style).

For each game, seeded games (the seed is in the test's id, and printed on failure) are played
to the end by a random player that leans on the game's bot, with chance outcomes drawn by the
engine's own ``sample_chance``. Then: undo takes the game back to the start through every state
it passed; the record replays to the same game; and the game's referee, fed the observations the
engine's table shows (and the board events a real table gives), accepts every turn.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from transcripts import expected_verdicts

from host.errors import IllegalMoveError
from host.express import bots as express_bots
from host.express.game import ExpressGame
from host.express.referee import judge_lines
from host.express.transcript import observation_lines as express_lines
from host.rollecate.bots import simple_policy
from host.rollecate.referee import open_referee as rollecate_referee
from host.rollecate.state import GameState
from host.rollecate.transcript import table_lines
from host.trainline import bots as trainline_bots
from host.trainline.game import TrainlineGame
from host.trainline.observer import judge_observations
from host.trainline.transcript import observation_lines as trainline_lines
from host.trains.bots import GreedyBot
from host.trains.game import Game
from host.trains.observation import TrainsObservation
from host.trains.position import Phase, Position, apply
from host.trains.referee import Referee

#: Seeds per game: enough to reach rare branches across runs of the suite, few enough to be fast.
SEEDS = range(3)
#: A game still going after this many pushes has lost its way (none comes near it).
MOVE_LIMIT = 5000


@dataclass(frozen=True)
class Engine:
    """How the conformance test drives one game's engine and referee."""

    new: Callable[[random.Random], Any]
    """A seeded new game."""
    bot: Callable[[Any, random.Random], Any]
    """The game's own bot's choice for the seat to act (at a decision, never at chance)."""
    state: Callable[[Any], Any]
    """Everything that makes up the game now, comparable with ``==``."""
    made: Callable[[Any], int]
    """How many moves have been pushed."""
    replayed: Callable[[Any], Any]
    """The game rebuilt from its record (written as text, read back)."""
    refereed: Callable[[Any], None]
    """Feed the game's referee the engine's observations; fail on any turn it does not accept."""


def _trains_refereed(game: Game) -> None:
    start = game.start
    referee = Referee(Position.from_table(start.seats, start.first, start.lines, [], Phase.DRAFT))
    position = start
    for move in game.moves:
        position = apply(position, move)
        verdict = referee.observe(TrainsObservation.of(position)).to_json()
        assert verdict["verdict"] in ("move", "win"), (move, verdict)
        assert referee.game.position.to_play == position.to_play
    assert referee.game.position.winner == game.position.winner


def _judged(lines: list[tuple[dict[str, Any], Any]], verdicts: list[dict[str, Any]]) -> None:
    """Every line gets the verdict the engine's game calls for, with the same seat lights."""
    _, expected = expected_verdicts(lines)
    assert [v["verdict"] for v in verdicts] == [kind for kind, _ in expected]
    for verdict, (kind, lights) in zip(verdicts, expected, strict=True):
        if kind == "move":
            assert verdict["next_seat"] == lights.on_turn, verdict
            assert verdict["direction"] == lights.direction.value, verdict
            assert verdict["skipped"] == sorted(lights.skipped), verdict


def _express_refereed(game: ExpressGame) -> None:
    lines = express_lines(game, looks=random.Random(len(game.record)))
    text, _ = expected_verdicts(lines)
    _judged(lines, list(judge_lines(text)))


def _trainline_refereed(game: TrainlineGame) -> None:
    lines = trainline_lines(game)
    text, _ = expected_verdicts(lines)
    _judged(lines, list(judge_observations(text)))


def _rollecate_refereed(game: GameState) -> None:
    lines = table_lines(game)
    referee = rollecate_referee(lines[0])
    verdicts = [referee.feed(line).to_json() for line in lines[1:]]
    assert [v for v in verdicts if v["verdict"] == "illegal"] == []
    assert sum(v["verdict"] == "move" for v in verdicts) == game.turns
    assert verdicts[-1]["verdict"] == "win"


def _trains_game(rng: random.Random) -> Game:
    seats = rng.randint(2, 4)
    return Game(Position.deal(seats, rng.randrange(seats), rng))


def _turn_based(
    kind: type[ExpressGame] | type[TrainlineGame],
    most: int,
    bot: Callable[[Any, random.Random], Any],
    refereed: Callable[[Any], None],
) -> Engine:
    """An engine on ``host.engine.TurnBasedGame``, for 2 to ``most`` players."""
    shared = ("record", "cards", "layout", "_reach")  # the moves, data, and a cache
    return Engine(
        new=lambda rng: kind.new(rng.randint(2, most), rng),
        bot=bot,
        state=lambda game: {k: v for k, v in vars(game).items() if k not in shared},
        made=lambda game: len(game.record),
        replayed=lambda game: kind.from_record_lines(game.record_lines()),
        refereed=refereed,
    )


ENGINES = {
    "trains": Engine(
        new=_trains_game,
        bot=lambda game, rng: GreedyBot(rng).choose(game.position).decision(),
        state=lambda game: game.position,
        made=lambda game: len(game.pushed),
        replayed=lambda game: Game.from_record(game.record()),
        refereed=_trains_refereed,
    ),
    "rollecate": Engine(
        new=lambda rng: GameState.new(rng.randint(2, 4), rng),
        bot=lambda game, rng: simple_policy(game),
        state=lambda game: game.to_json(),
        made=lambda game: len(game.history),
        replayed=lambda game: GameState.from_record(game.record()),
        refereed=_rollecate_refereed,
    ),
    "express": _turn_based(ExpressGame, 6, express_bots.choose, _express_refereed),
    "trainline": _turn_based(TrainlineGame, 4, trainline_bots.choose, _trainline_refereed),
}


def play_to_the_end(engine: Engine, rng: random.Random) -> tuple[Any, list[Any]]:
    """A game played out from a new one, and a copy of its state before every push. Chance
    outcomes come from the engine; the player picks a random legal move one time in three and
    follows the bot otherwise, so that games both wander and end."""
    game = engine.new(rng)
    states = []
    while not game.over:
        assert len(states) < MOVE_LIMIT, "the game did not end"
        if game.is_chance_node():
            move = game.sample_chance(rng)
        elif rng.random() < 1 / 3:
            move = rng.choice(game.legal_moves())
        else:
            move = engine.bot(game, rng)
        states.append(copy.deepcopy(engine.state(game)))
        game.push(move)
    assert not game.legal_moves()
    return game, states


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", sorted(ENGINES))
def test_every_engine_plays_undoes_replays_and_is_refereed(name: str, seed: int) -> None:
    engine = ENGINES[name]
    try:
        game, states = play_to_the_end(engine, random.Random(seed))
        final = copy.deepcopy(engine.state(game))

        replayed = engine.replayed(game)
        assert engine.state(replayed) == final
        engine.refereed(game)

        while states:
            game.pop()
            assert engine.state(game) == states.pop()
        assert engine.made(game) == 0
        with pytest.raises(IllegalMoveError, match="nothing to undo"):
            game.pop()
    except AssertionError:
        print(f"{name}: seed {seed} fails (random.Random({seed}) replays the game)")
        raise


def test_chance_outcomes_are_the_only_moves_at_a_chance_node() -> None:
    """A game's chance outcomes' odds add up to one, and they are its legal moves there."""
    for name in ("rollecate", "trainline", "trains"):
        engine, rng = ENGINES[name], random.Random(5)
        game = engine.new(rng)
        while not game.is_chance_node():
            game.push(engine.bot(game, rng))
        outcomes = game.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9, name
        assert [move for move, _ in outcomes] == game.legal_moves(), name
        assert game.sample_chance(rng) in game.legal_moves(), name


def test_the_records_are_json_lines() -> None:
    for name, engine in ENGINES.items():
        game, _ = play_to_the_end(engine, random.Random(1))
        lines = game.record() if name in ("trains", "rollecate") else game.record_lines()
        assert all(isinstance(json.loads(line), dict) for line in lines), name
