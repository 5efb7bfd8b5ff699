"""Train Line Chicago played from the web view: does every honest entry get accepted, and how
long from a phone's POST to the page's new snapshot.

Run: python benchmarks/trainline_web.py [GAMES] [FIRST_SEED] [HTTP_GAMES]   (prints numbers;
asserts nothing). Seeds 0-29 were used while writing the referee's entry path (tuning); give
another first seed (e.g. 1000) for held-out figures.

1. Accuracy: bots play seeded games; each action is entered as players would enter it on the
   web view (``host.trainline.transcript.entry_lines``) and fed to the referee. Counted: entries
   refused (an honest entry must never be), games whose pawns or winners differ from the
   engine's, referee time per entry.
2. Latency: ``HTTP_GAMES`` games entered through the real server (``POST /input`` with the
   page's token), the app's loop journaling each entry (SQLite, full syncs), to the snapshot the
   page receives.
"""

from __future__ import annotations

import io
import random
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from host.context import AppContext
from host.journal import Journal
from host.tables.trainline import GAME
from host.trainline import bots
from host.trainline.game import TrainlineGame
from host.trainline.observer import TrainlineObserver, pawns_of
from host.trainline.transcript import entry_lines
from host.web.server import Address, WebView


def bot_game(seed: int) -> TrainlineGame:
    """A seeded game between bots, 2 to 4 players by seed."""
    rng = random.Random(seed)
    game = TrainlineGame.new(2 + seed % 3, rng, first=seed % 2)
    bots.play_out(game, rng)
    return game


def accuracy(seeds: range) -> None:
    entries = refused = wrong = 0
    times: list[float] = []
    for seed in seeds:
        game = bot_game(seed)
        lines = entry_lines(game)
        referee = TrainlineObserver(len(game.players), game.setup.first)
        for line in lines[1:]:
            started = time.perf_counter()
            verdict = referee.feed(line)
            times.append(time.perf_counter() - started)
            entries += 1
            refused += verdict.verdict == "illegal"
        wrong += pawns_of(referee.game) != pawns_of(game) or referee.game.winners != game.winners
    times.sort()
    print(f"seeds {seeds.start}-{seeds.stop - 1}: {len(seeds)} games, {entries} entries, "
          f"{refused} refused, {wrong} games ending differently from the engine")
    print(f"referee per entry: p50 {1e6 * times[len(times) // 2]:.0f} us, "
          f"p95 {1e6 * times[int(len(times) * 0.95)]:.0f} us, max {1e3 * times[-1]:.1f} ms")


def entry_of(line: dict[str, Any]) -> dict[str, Any]:
    """The page's POST body for a referee line."""
    if line["event"] == "roll":
        return {"input": "roll", "value": "open" if line["open"] else "closed"}
    if line["event"] == "button":
        return {"input": "end", "value": line["seat"]}
    value = {key: line[key] for key in ("cells", "cards", "takes", "seat") if key in line}
    if not value["cells"] and value["cards"] in ([], ["rebel-passenger"]) and "seat" not in line:
        return {"input": "answer", "value": "rebel" if value["cards"] else "accept"}
    return {"input": "play", "value": value}


def latency(seeds: range) -> None:
    import json

    from host.table_runner import play_on_web

    waits: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        for seed in seeds:
            game = bot_game(seed)
            lines = entry_lines(game)
            view = WebView(Address("127.0.0.1", 0))

            def run(view: WebView = view, game: TrainlineGame = game, seed: int = seed) -> None:
                with Journal(Path(folder) / f"games-{seed}.sqlite") as journal:
                    app = AppContext(out=io.StringIO(), journal=journal, web=view,
                                     camera="none", board="none")
                    play_on_web(GAME, len(game.players), game.setup.first, app, None)

            runner = threading.Thread(target=run)
            runner.start()
            host = view.url.split("/")[2]
            headers = {"X-Conductor-Token": view.token, "Origin": f"http://{host}",
                       "Content-Type": "application/json"}
            while view.snapshot()[0] == 0:
                time.sleep(0.01)
            for line in lines[1:]:
                seen = view.snapshot()[0]
                body = json.dumps(entry_of(line)).encode()
                started = time.perf_counter()
                request = urllib.request.Request(view.url + "input", data=body, method="POST",
                                                 headers=headers)
                urllib.request.urlopen(request, timeout=10).close()
                if view.wait_for_update(seen) is None:
                    print(f"seed {seed}: no snapshot after {body!r}")
                    break
                waits.append(time.perf_counter() - started)
            runner.join(timeout=30)
            view.close()
    waits.sort()
    print(f"POST /input to the page's snapshot ({len(waits)} entries, {len(seeds)} games, "
          f"journaled): p50 {1e3 * waits[len(waits) // 2]:.1f} ms, "
          f"p95 {1e3 * waits[int(len(waits) * 0.95)]:.1f} ms, max {1e3 * waits[-1]:.1f} ms")


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    first = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    http_games = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    accuracy(range(first, first + games))
    latency(range(first, first + http_games))


if __name__ == "__main__":
    main()
