"""Kill -9 at random instants (issue 13): every game's demo and a ``play`` from a video.

After each kill: the journal must pass ``PRAGMA integrity_check``; a journaled game still
playing must ``resume`` (as it was played: same camera and board) to the same winners as an
uninterrupted run; and its ``export`` judged again by ``conductor referee`` must name the same
winners (an Express hand ends with none: it is scored from the table). Train Line Chicago
demos keep no game in the journal (only the file is checked). A ``play`` killed half-way is
resumed with a video of the table from the turn the journal holds on, as players put the table
back as shown.

Run on demand from the repository root: ``python benchmarks/kill_test.py [--kills N]
[--seed S] [--rendered N]``. Prints the counts.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402

from host.tables.trains import demo_table  # noqa: E402 - the checkout's own, through ROOT
from host.trains.observation import TrainsObservation  # noqa: E402
from vision.camera import RenderedCamera  # noqa: E402

JOURNALED = ("trains", "rollecate", "express")
"""Demos that keep their game in the journal (the others only print)."""
PLAY_SEED, PLAY_SEATS = 26, 2
"""The table game the video shows (a short one: 10 moves)."""


@dataclass(frozen=True)
class Job:
    """One kind of run to kill."""

    name: str
    game: str
    args: list[str]
    """After ``conductor``, without ``--db``."""


def conductor(args: list[str], timeout: float = 900) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "host", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL, check=False)


def journal_rows(db: Path) -> list[tuple[int, str, list[int]]]:
    """Each game's id, status and winners, read directly."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        if not con.execute("SELECT 1 FROM sqlite_master WHERE name = 'games'").fetchall():
            return []  # killed before the journal's tables were made
        rows = con.execute("SELECT id, status, winners FROM games ORDER BY id").fetchall()
    return [(int(i), str(s), json.loads(w) if w else []) for i, s, w in rows]


def integrity(db: Path) -> bool:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        return bool(con.execute("PRAGMA integrity_check").fetchone()[0] == "ok")


def verdict_winners(line: str) -> list[int]:
    verdict = json.loads(line)
    if verdict.get("verdict") != "win":
        return []
    scores = verdict.get("scores")
    if isinstance(scores, dict) and "winners" in scores:
        return sorted(scores["winners"])
    return [int(verdict.get("by", verdict.get("seat")))]


def write_video(path: Path, tables: list[dict[str, object]]) -> Path:
    camera = RenderedCamera([TrainsObservation.from_json(t) for t in tables], seed=PLAY_SEED)
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), camera.fps, (1280, 720))
    for frame in camera:
        writer.write(frame.image)
    writer.release()
    return path


class Videos:
    """The table game as videos: from the deal, and from each turn on (made when needed)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.tables = demo_table(PLAY_SEED, PLAY_SEATS).lines
        self._made: dict[int, Path] = {}

    def from_turn(self, turn: int) -> Path:
        if turn not in self._made:
            self._made[turn] = write_video(self.folder / f"from-{turn}.avi", self.tables[turn:])
        return self._made[turn]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=10, help="kills per fast job (default 10)")
    parser.add_argument("--rendered", type=int, default=2,
                        help="kills per job seen through the rendered camera (slow; default 2)")
    parser.add_argument("--rollecate-rendered", action="store_true",
                        help="kill Rollecate's rendered demo too (minutes per run)")
    parser.add_argument("--seed", type=int, default=13, help="seed of the kill instants")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    counts: Counter[str] = Counter()
    failures: list[str] = []
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        videos = Videos(folder)
        first = str(videos.tables[0]["first"])
        jobs = [
            *[(Job(f"demo {game} seed {seed}", game,
                   ["demo", game, "--seed", str(seed), "--camera", "none", "--board", board,
                    "--pace", "0.05"]),
               args.kills)
              for game in ("trains", "rollecate", "express", "trainline")
              for seed, board in ((1, "none"), (2, "sim"))],
            # (--pace spreads a fast demo's turns over seconds, so kills land mid-game)
            *[(Job(f"demo {game} rendered", game,
                   ["demo", game, "--seed", "3", "--board", "none"]), args.rendered)
              for game in ("trains", *(("rollecate",) if args.rollecate_rendered else ()))],
            (Job("play trains video", "trains",
                 ["play", "trains", "--players", str(PLAY_SEATS), "--first", first,
                  "--camera", str(videos.from_turn(0)), "--board", "none"]), args.kills),
        ]
        for number, (job, kills) in enumerate(jobs):
            if kills == 0:
                continue
            reference_db = folder / f"reference-{number}.sqlite"
            started = time.monotonic()
            whole = conductor([*job.args, "--db", str(reference_db)])
            seconds = time.monotonic() - started
            if whole.returncode != 0:
                failures.append(f"{job.name}: the uninterrupted run failed: {whole.stderr}")
                continue
            expected = journal_rows(reference_db)[0][2] if job.game in JOURNALED else []
            for kill in range(kills):
                db = folder / f"kill-{counts['runs']}.sqlite"
                counts["runs"] += 1
                process = subprocess.Popen(
                    [sys.executable, "-m", "host", *job.args, "--db", str(db)], cwd=ROOT,
                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                time.sleep(rng.uniform(0.2, seconds))
                if process.poll() is not None:
                    counts["ended before the kill"] += 1
                    continue
                process.kill()
                process.wait()
                counts["kills"] += 1
                if not db.exists():
                    counts["killed before the journal was opened"] += 1
                    continue
                if not integrity(db):
                    failures.append(f"{job.name} kill {kill}: integrity_check failed")
                    continue
                counts["integrity ok"] += 1
                rows = journal_rows(db)
                if job.game not in JOURNALED:
                    continue
                if not rows:
                    counts["killed before the game was journaled"] += 1
                    continue
                game_id, status, _ = rows[0]
                if status == "playing":
                    resume = ["resume", str(game_id), "--db", str(db)]
                    if job.name.startswith("play"):
                        turns = int(conductor(["games", "--db", str(db)]).stdout.split()[7])
                        resume += ["--camera", str(videos.from_turn(turns))]
                    done = conductor(resume)
                    counts["resumed"] += 1
                    if done.returncode != 0:
                        failures.append(f"{job.name} kill {kill}: resume exit "
                                        f"{done.returncode}: {done.stderr.strip()[-200:]}")
                        continue
                winners = journal_rows(db)[0][2]
                if winners == expected:
                    counts["same winners as uninterrupted"] += 1
                else:
                    failures.append(f"{job.name} kill {kill}: winners {winners}, not {expected}")
                record = folder / "record.jsonl"
                exported = conductor(["export", str(game_id), "--db", str(db), "-o", str(record)])
                judged = conductor(["referee", job.game, str(record)])
                last = judged.stdout.strip().splitlines()[-1] if judged.stdout.strip() else "{}"
                if exported.returncode == 0 and verdict_winners(last) == expected:
                    counts["export-then-referee agrees"] += 1
                else:
                    failures.append(f"{job.name} kill {kill}: export-then-referee gives "
                                    f"{last[:120]}, not winners {expected}")
            print(f"{job.name:28} uninterrupted {seconds:5.1f} s; so far {dict(counts)}",
                  flush=True)
    print("\n".join(f"{key}: {value}" for key, value in counts.items()))
    print(f"failures: {len(failures)}")
    for failure in failures:
        print("  FAILED", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
