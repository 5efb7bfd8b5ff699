"""The hostile-input harness for the command line (issue 13), shared by the test suite's sharp
run (tests/test_cli_fuzz.py) and the long run (benchmarks/cli_fuzz.py).

Every command of the parser gets every hostile input its arguments can take: files that are
missing, folders, empty, binary, huge, deeply nested, with huge numbers or wrong types, the
``/dev`` files, another program's SQLite file, a damaged journal; and hostile values for its
options. The promise checked: exit 0, or exit 2 with exactly one line on stderr; never a
traceback; an end within ``TIME_LIMIT_SECONDS``.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from host.cli import build_parser, main
from host.games import GAMES, offering

ROOT = Path(__file__).resolve().parent.parent
TIME_LIMIT_SECONDS = 60
"""Every command must end within this (the slowest honest answer here takes a few seconds)."""

HOSTILE_VALUES = (
    "", " ", "-1", "0", "1", "99", "-0", "1e9", "nan", "inf", "-inf", "0x10", "3.5",
    "99999999999999999999999999999", "-99999999999999999999999999999", "x", "é", "%s%n",
    "../../../etc/passwd", "--", "-", "127.0.0.1:99999", "[]", "{}", "999999999:8080",
)
"""Values for options and positional words: numbers out of range, words, junk."""


@dataclass(frozen=True)
class Outcome:
    """How one command ended."""

    args: tuple[str, ...]
    status: int | None
    """The exit status; None when it did not end in time."""
    out: str
    err: str
    crash: str | None = None
    """The exception that escaped, in-process."""
    altered: tuple[str, ...] = ()
    """Its input files that were not as made when it started (a harness fault)."""

    def problem(self) -> str | None:
        """What breaks the promise, if anything."""
        if self.altered:
            return f"started on files changed since the corpus was made: {self.altered}"
        if self.status is None:
            return f"no end within {TIME_LIMIT_SECONDS} s"
        if self.crash is not None:
            return f"escaped: {self.crash}"
        if "Traceback" in self.err or "Traceback" in self.out:
            return "traceback: " + self.err[-300:]
        if self.status not in (0, 2):
            return f"exit {self.status}: {self.err[-200:]}"
        if self.status == 2 and self.err.count("\n") != 1:
            return f"{self.err.count(chr(10))} stderr lines: {self.err[:300]!r}"
        return None


# -- the corpus --------------------------------------------------------------------------------


def write_journal(path: Path, games: int = 2) -> None:
    """A journal with ``games`` finished demo games (quiet)."""
    for seed in range(1, games + 1):
        with contextlib.redirect_stdout(io.StringIO()):
            assert main(["demo", "--seed", str(seed), "--camera", "none", "--board", "none",
                         "--db", str(path)]) == 0


def corpus(folder: Path, seed: int = 13) -> dict[str, Path]:
    """Hostile files (and two honest ones, as controls), by name."""
    import cv2
    import numpy as np

    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    files: dict[str, Path] = {
        "missing": folder / "missing.json",
        "missing-folder": folder / "no-such-folder" / "file.json",
        "folder": folder / "a-folder",
        "dev-null": Path("/dev/null"),
        "dev-zero": Path("/dev/zero"),
        "dev-full": Path("/dev/full"),
    }
    files["folder"].mkdir(exist_ok=True)
    texts: dict[str, bytes] = {
        "empty": b"",
        "blank-lines": b"\n\n  \n",
        "binary": rng.randbytes(4096),
        "nul-bytes": b"\x00" * 512 + b"\n",
        "latin-1": "caf\xe9 ".encode("latin-1") * 10,
        "deep": b"[" * 100_000 + b"]" * 100_000,
        "deep-object": b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
        "big-number": b'{"seats": 3, "first": 0, "lines": [[' + b"9" * 5000 + b"]]}",
        "big-float": b'{"seats": 3, "first": 1e999}',
        "nan": b'{"seats": NaN, "first": Infinity}',
        "not-object": b"[1, 2, 3]\n",
        "string": b'"a string"\n',
        "null": b"null\n",
        "wrong-types": b'{"seats": "3", "first": [0], "lines": {"a": 1}, "railway": 7}\n',
        "negative-seats": b'{"seats": -3, "first": 0}\n',
        "many-seats": b'{"seats": 1000000, "first": 0}\n',
        "bool-seats": b'{"seats": true, "first": false}\n',
        "half-line": b'{"seats": 3, "first"',
        "many-lines": b"{}\n" * 50_000,
        "long-line": b'{"a": "' + b"x" * (2 * 1024 * 1024) + b'"}\n',
        "sqlite-text": b"SQLite format 3\x00" + rng.randbytes(2000),
    }
    for name, content in texts.items():
        files[name] = folder / f"{name}.json"
        files[name].write_bytes(content)
    files["huge"] = folder / "huge.jsonl"
    with files["huge"].open("wb") as huge:
        line = b'{"seats": 3, "first": 0}\n'
        huge.write(line * (17 * 1024 * 1024 // len(line)))
    files["binary-photo"] = folder / "binary.jpg"
    files["binary-photo"].write_bytes(texts["binary"])
    # A photo cut short (libpng says so on the process's own stderr: a sharp case).
    whole = cv2.imencode(".png", np.zeros((60, 80, 3), np.uint8))[1].tobytes()
    files["cut-photo"] = folder / "cut.png"
    files["cut-photo"].write_bytes(whole[: len(whole) // 2])
    files["foreign-sqlite"] = folder / "photos.db"
    with sqlite3.connect(files["foreign-sqlite"]) as db:
        db.execute("CREATE TABLE photos (name TEXT, taken REAL)")
        db.execute("INSERT INTO photos VALUES ('table', 1.0)")
    files["journal"] = folder / "games.sqlite"
    write_journal(files["journal"])
    files["damaged-journal"] = folder / "damaged.sqlite"
    write_journal(files["damaged-journal"], games=3)
    with sqlite3.connect(files["damaged-journal"]) as db:
        db.execute("UPDATE entries SET kind = 'bogus' WHERE game_id = 1 AND seq = 2")
        db.execute("UPDATE entries SET payload = '[[[' WHERE game_id = 2")
        db.execute("UPDATE games SET settings = '{', winners = 'x' WHERE id = 3")
    files["record"] = folder / "record.jsonl"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["export", "1", "--db", str(files["journal"]), "-o", str(files["record"])]) == 0
    files["truncated-journal"] = folder / "truncated.sqlite"
    data = files["journal"].read_bytes()
    files["truncated-journal"].write_bytes(data[: len(data) // 2])
    return files


class KeptCorpus:
    """The hostile files as made, kept so for every case. Some cases write to the path they are
    given (``vision markers PATH`` writes a marker sheet there, ``demo --db PATH`` a journal,
    ``export -o PATH`` a record): what one case wrote would otherwise be what every later case
    read, in-process or in a process of its own. ``ready`` puts back what the last case
    changed, from a copy taken when the corpus was made, and says which of the next case's
    files still differ from the corpus as made (it must be none)."""

    def __init__(self, folders: list[Path]) -> None:
        self.folders = [str(folder) for folder in folders]
        self._made: dict[str, dict[str, Signature]] = {}
        self._fingerprints: dict[str, str] = {}
        for folder in self.folders:
            shutil.copytree(folder, _as_made(folder), symlinks=True)
            self._made[folder] = _entries(folder)
            for path in self._made[folder]:
                self._fingerprints[path] = _fingerprint(path)

    def ready(self, args: list[str]) -> list[str]:
        """Put the corpus back as made; the files named in ``args`` that still differ."""
        for folder in self.folders:
            now = _entries(folder)
            made = self._made[folder]
            if now == made:
                continue
            # Deepest first, so a folder a case made is emptied before it goes.
            for path in sorted(set(now) - set(made), key=lambda path: -path.count(os.sep)):
                _remove(path)
            for path, signature in sorted(made.items()):
                if now.get(path, "gone") == signature:
                    continue
                _remove(path)
                if signature is None:
                    os.mkdir(path)
                else:
                    shutil.copyfile(_as_made(folder) + path[len(folder):], path)
            self._made[folder] = _entries(folder)
        return [arg for arg in args if self._named(arg)
                and _fingerprint(arg) != self._fingerprints.get(arg, "absent")]

    def _named(self, arg: str) -> bool:
        """True when ``arg`` is a path inside the corpus (made or not: ``missing.json``)."""
        return any(arg == folder or arg.startswith(folder + os.sep) for folder in self.folders)


Signature = tuple[int, int, int] | None
"""A file's size, modification time and inode (a write changes one), or None for a folder."""


def _as_made(folder: str) -> str:
    return f"{folder}.as-made"


def _entries(folder: str) -> dict[str, Signature]:
    """Every file and folder under ``folder``, by path, with its signature."""
    found: dict[str, Signature] = {}
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                found[entry.path] = None
                found.update(_entries(entry.path))
            else:
                status = entry.stat(follow_symlinks=False)
                found[entry.path] = (status.st_size, status.st_mtime_ns, status.st_ino)
    return found


def _fingerprint(path: str) -> str:
    """What a file holds (its SHA-256), or that it is a folder, or absent."""
    if os.path.isdir(path):
        return "folder"
    if not os.path.lexists(path):
        return "absent"
    with open(path, "rb") as held:
        return hashlib.file_digest(held, "sha256").hexdigest()


def _remove(path: str) -> None:
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    elif os.path.lexists(path):
        os.unlink(path)


# -- the commands ------------------------------------------------------------------------------


def command_paths() -> list[tuple[str, ...]]:
    """Every leaf command of the parser (``demo``, ``board sim``, ...): a new one shows here."""

    def leaves(parser: Any, prefix: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
        subs = [a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction"]
        if not subs:
            yield prefix
            return
        for name, sub in subs[0].choices.items():
            yield from leaves(sub, (*prefix, name))

    return list(leaves(build_parser(), ()))


FAST = ("--camera", "none", "--board", "none")


def _serves(web: str) -> bool:
    """True when ``--web WEB`` is an address the web view can serve on (then an honest game
    would wait for its players)."""
    from host.web.server import Address

    if not web.strip():
        return True  # the default address
    try:
        Address.parse(web)
    except ValueError:
        return False
    return True


INPUTS_MADE_IN_OUT = ("twins", "calibration")
"""The folders of ``cases``'s scratch folder that hold inputs it made (references with twin
classifiers, calibrations), not outputs."""


def kept_inputs(files: dict[str, Path], out: Path) -> KeptCorpus:
    """The corpus and the inputs ``cases`` made in ``out``, kept as made (call it after
    ``cases``)."""
    return KeptCorpus([files["journal"].parent, *(out / name for name in INPUTS_MADE_IN_OUT)])


def cases(files: dict[str, Path], out: Path) -> dict[tuple[str, ...], list[list[str]]]:
    """For each command, the argument lists that feed it hostile input (``out``: a scratch
    folder for what commands write)."""
    paths = [str(path) for path in files.values()]
    journal = str(files["journal"])
    values = list(HOSTILE_VALUES)
    deck_file, photo, saved_twins = twin_references(out / INPUTS_MADE_IN_OUT[0])
    calibrated, calibrated_journal = calibrations(out / INPUTS_MADE_IN_OUT[1])
    calibration_files = [*paths, *map(str, calibrated)]
    json_texts = [path.read_text("utf-8", "replace")[:300_000]
                  for path in files.values() if path.is_file() and path.suffix == ".json"]
    table: dict[tuple[str, ...], list[list[str]]] = {
        ("demo",): [
            *[["demo", *FAST, "--db", path] for path in paths],
            *[["demo", game, "--players", value, *FAST, "--db", journal]
              for game in offering("demo") for value in values],
            *[["demo", option, value, *FAST, "--db", journal]
              for option in ("--seed", "--web") for value in values],
            # (a pace in range makes an honest, slow demo: only the others are hostile)
            *[["demo", "--pace", value, *FAST, "--db", journal]
              for value in values if value not in ("1", "3.5")],
            *[["demo", "--camera", "none", "--board", value, "--db", journal] for value in values],
            ["demo", *FAST, "--share", "--web", "127.0.0.1:0", "--db", journal],
        ],
        ("play",): [
            *[["play", game, "--players", value, "--camera", "99", "--board", "none",
               "--db", journal] for game in offering("play") for value in values],
            *[["play", "trains", "--players", "3", "--first", value, "--camera", "99",
               "--board", "none", "--db", journal] for value in values],
            *[["play", "rollecate", "--players", "3", "--camera", "99", "--board", "none",
               "--db", path] for path in paths],
            *[["play", game, "--players", "3", "--deck", value, "--camera", "99", "--board",
               "none", "--db", journal] for game in offering("play") for value in values],
            *[["play", "express", "--players", "3", "--references", path, "--camera", "99",
               "--board", "none", "--db", journal] for path in paths],
            *[["play", "rollecate", "--players", "3", "--calibration", path, "--camera", "99",
               "--board", "none", "--db", journal] for path in calibration_files],
            ["play", "trains", "--players", "3", "--calibration", str(calibrated[0]),
             "--no-calibration", "--camera", "99", "--board", "none", "--db", journal],
            # Train Line is played from the web view: an honest one serves until the players
            # quit, so only what is refused before it serves.
            *[["play", "trainline", "--players", value, "--web", "127.0.0.1:0", "--board",
               "none", "--db", journal] for value in values],
            *[["play", "trainline", "--players", "2", "--first", value, "--web", "127.0.0.1:0",
               "--board", "none", "--db", journal] for value in values
              if value not in ("0", "1", "-0")],
            *[["play", "trainline", "--players", "2", option, value, "--web", "127.0.0.1:0",
               "--board", "none", "--db", journal]
              for option in ("--camera", "--deck", "--references", "--calibration")
              for value in values if value],
            ["play", "trainline", "--players", "2", "--board", "none", "--db", journal],
            *[["play", "trainline", "--players", "2", "--web", value, "--board", "none",
               "--db", journal] for value in values if not _serves(value)],
        ],
        ("games",): [["games", "--db", path] for path in paths],
        ("export",): [
            *[["export", "1", "--db", path] for path in paths],
            *[["export", game, "--db", str(files["damaged-journal"])] for game in "1234"],
            *[["export", "1", "--db", journal, "-o", path] for path in paths
              if not path.startswith("/dev/") and Path(path).suffix != ".sqlite"],
            ["export", "1", "--db", journal, "-o", journal],
            *[["export", value, "--db", journal] for value in values],
        ],
        ("resume",): [
            *[["resume", "1", *FAST, "--db", path] for path in paths],
            *[["resume", game, *FAST, "--db", str(files["damaged-journal"])] for game in "123"],
            *[["resume", value, *FAST, "--db", journal] for value in values],
            *[["resume", "1", "--camera", value, "--board", "none", "--db", journal]
              for value in values],
            *[["resume", game, "--board", "none", "--db", str(calibrated_journal), *options]
              for game in "123" for options in ((), ("--no-calibration",))],
            *[["resume", "1", "--board", "none", "--db", str(calibrated_journal),
               "--calibration", path] for path in calibration_files],
            ["resume", "1", *FAST, "--db", journal, "--calibration", str(calibrated[0])],
        ],
        ("referee",): [["referee", game, path] for game in offering("referee") for path in paths],
        ("score",): [
            *[["score", game, path] for game in offering("score") for path in paths],
            *[["score", "rollecate", str(files["binary-photo"]), "--players", value]
              for value in values],
            *[["score", game, str(files["binary-photo"]), "--deck", value]
              for game in offering("score") for value in values],
            *[["score", game, str(files["binary-photo"]), "--references", path]
              for game in offering("score") for path in paths],
            ["score", "rollecate", str(files["nan"]), "--deck", "rollecate"],
            ["score", "rollecate", str(files["nan"]), "--calibration", str(calibrated[0])],
            *[["score", game, str(files["binary-photo"]), "--calibration", path]
              for game in offering("score") for path in calibration_files],
        ],
        ("board", "sim"): [["board", "sim", "--board-id", value] for value in values],
        ("board", "monitor"): [
            *[["board", "monitor", path, *check] for path in paths
              if not Path(path).is_file() or path.startswith("/dev/")
              for check in ((), ("--check",))],
            # (a record file that opens starts a whole honest check: only the ones that do not)
            *[["board", "monitor", "sim", "--check", "--record", str(files[name])]
              for name in ("folder", "missing-folder")],
        ],
        ("board", "flash"): [["board", "flash", value, "--dry-run"] for value in values],
        ("vision", "markers"): [["vision", "markers", path] for path in paths],
        # (a path that does not exist yet is an honest place for a deck: only the others)
        ("vision", "deck"): [["vision", "deck", "trains", path] for path in paths
                             if Path(path).exists() and not Path(path).is_dir()],
        ("vision", "enroll"): [["vision", "enroll", value, path] for value in ("trains", "x")
                               for path in paths],
        ("vision", "identify"): [
            *[["vision", "identify", str(photo), "--deck", str(deck_file), "--references",
               str(path)] for path in saved_twins],
            *[["vision", "identify", path] for path in paths],
            *[["vision", "identify", "--references", path, str(files["binary-photo"])]
              for path in paths],
            *[["vision", "identify", "--deck", value, str(files["binary-photo"])]
              for value in values],
            *[["vision", "identify", str(photo), "--deck", str(deck_file), "--references",
               str(saved_twins[0]), "--calibration", path] for path in calibration_files],
        ],
        ("vision", "watch"): [
            *[["vision", "watch", "--camera", path, "--frames", "2", "--out", str(out)]
              for path in paths],
            *[["vision", "watch", "--camera", "99", option, value, "--out", str(out)]
              for option in ("--frames", "--players") for value in values],
            *[["vision", "watch", "--camera", "rendered", "--frames", "1", "--calibration", path,
               "--out", str(out)] for path in calibration_files],
        ],
        ("vision", "calibrate"): [
            *[["vision", "calibrate", "--camera", path, "--out", str(out / "calibration.json")]
              for path in paths],
            *[["vision", "calibrate", "--camera", "rendered", "--out", path] for path in paths
              if Path(path).is_dir() or path == "/dev/full" or Path(path).suffix != ".json"],
            ["vision", "calibrate", "--camera", "rendered", "--out",
             str(files["empty"] / "under-a-file.json")],
        ],
        ("vision", "render"): [
            *[["vision", "render", str(out / "render.png"), "--observation", text]
              for text in json_texts],
            *[["vision", "render", path] for path in paths],
            *[["vision", "render", str(out / "render.png"), "--seed", value] for value in values],
        ],
    }
    return table


def twin_references(folder: Path) -> tuple[Path, Path, list[Path]]:
    """A deck file of four near twins (one artwork, four numbers), a photo of them, and
    references with their twin classifiers saved: honest, stale (saved for other faces),
    damaged (an array cut short, a member that is no twin, cut off half-way), and written by
    an older version (classifiers at 0.1 px/mm steps)."""
    import numpy as np

    from vision.imaging import write_image
    from vision.recognize import CardReferences
    from vision.scene import render_cards
    from vision.styles import styled_deck

    folder.mkdir(parents=True, exist_ok=True)
    deck = styled_deck("artwork", 3)
    cards = [card.id for card in deck.deck.cards[:4]]
    references = CardReferences(deck.deck.name, deck.card_mm, deck.scans(cards))
    references.learn_twins(((-1, -1), (0, 0)), workers=1)
    honest = folder / "honest.npz"
    references.save(honest)
    with np.load(honest) as data:
        arrays = {key: data[key] for key in data.files}
    changes: dict[str, dict[str, Any]] = {
        "stale": {"twins_of": np.array("0" * 64)},
        "short-axes": {"twin0_axes": arrays["twin0_axes"][:, :-1]},
        "not-a-twin": {"twins": np.array([str(arrays["twins"][0]).replace("3:0", "5:0"),
                                          str(arrays["twins"][1])])},
    }
    saved = [honest]
    for name, change in changes.items():
        saved.append(folder / f"{name}.npz")
        np.savez(saved[-1], **{**arrays, **change})
    saved.append(folder / "cut.npz")
    saved[-1].write_bytes(honest.read_bytes()[: honest.stat().st_size // 2])
    # Written by the enrollment before the ladder of rungs, for these very faces.
    saved.append(Path(__file__).resolve().parent / "fixtures" / "vision" / "twins_056fc93.npz")
    deck_file = folder / "deck.json"
    deck_file.write_text(deck.deck_file())
    photo = folder / "table.png"
    write_image(photo, render_cards(cards, 2, "easy", faces=deck)[0])
    return deck_file, photo, saved


def calibrations(folder: Path) -> tuple[list[Path], Path]:
    """Calibration files (``vision calibrate``), honest and not: made at another resolution,
    cut short, of another table (another's frame beside the report), its frame damaged,
    of another size than it says, without markers, missing, named outside its folder; and a
    journal of table games read with one that is honest, made again since, or gone."""
    import hashlib

    import cv2
    import numpy as np

    from host.calibration_choice import calibration_settings
    from host.journal import Journal
    from host.session import Session
    from host.tables.rollecate import demo_table, open_referee
    from host.trains.observation import TrainsObservation
    from vision.calibration import load_calibration, save_calibration
    from vision.scene import render_table

    folder.mkdir(parents=True, exist_ok=True)
    empty = render_table(TrainsObservation(((), (), ()), (), ()), 1, "easy")[0]
    honest = folder / "honest.json"
    save_calibration(honest, empty)
    save_calibration(folder / "small.json", np.asarray(cv2.resize(empty, (960, 540))))
    report = json.loads(honest.read_text("utf-8"))
    png = (folder / "honest.png").read_bytes()

    def kept(name: str, picture: bytes, **changes: Any) -> Path:
        (folder / f"{name}.png").write_bytes(picture)
        digest = hashlib.sha256(picture).hexdigest()
        (folder / f"{name}.json").write_text(json.dumps(
            {**report, "empty_table": f"{name}.png", "empty_table_sha256": digest, **changes}))
        return folder / f"{name}.json"

    blank = bytes(cv2.imencode(".png", np.zeros((720, 1280, 3), np.uint8))[1])
    made = [
        honest, folder / "small.json",
        kept("damaged-png", png[: len(png) // 2]),
        kept("wrong-size", png, resolution=[640, 480]),
        kept("no-markers", blank),
        kept("outside", png, empty_table="../honest.png"),
        kept("wrong-types", png, empty_table=5, resolution="big"),
    ]
    (folder / "other-table.json").write_text(json.dumps({**report,
                                                         "empty_table": "small.png"}))
    (folder / "cut.json").write_text(honest.read_text("utf-8")[:40])
    (folder / "frame-gone.json").write_text(json.dumps({**report,
                                                        "empty_table": "gone.png"}))
    made += [folder / name for name in ("other-table.json", "cut.json", "frame-gone.json")]
    journal = folder / "games.sqlite"
    with Journal(journal) as games:
        for kept_path, digest in ((honest, None), (honest, "0" * 64),
                                  (folder / "gone.json", None)):
            settings = {"mode": "table", "camera": "99", "board": "none",
                        **calibration_settings(load_calibration(honest))}
            settings["calibration"] = str(kept_path)
            settings["calibration_sha256"] = digest or settings["calibration_sha256"]
            Session.start("rollecate", demo_table(3, 2).lines[0], open_referee, games, settings)
    return made, journal


def sharp_cases(files: dict[str, Path]) -> list[tuple[list[str], str | None]]:
    """Cases only a process of its own shows (its exit, its stdout on a full disk, a camera
    or board that is not there): the arguments, and where stdout goes."""
    journal, record = str(files["journal"]), str(files["record"])
    return [
        (["export", "1", "--db", journal], "/dev/full"),
        (["referee", "trains", record], "/dev/full"),
        (["demo", *FAST, "--db", journal], "/dev/full"),
        (["games", "--db", journal], "/dev/full"),
        (["play", "trains", "--players", "3", "--camera", "99", "--board", "none",
          "--db", journal], None),
        (["play", "rollecate", "--players", "3", "--camera", str(files["binary-photo"]),
          "--board", "none", "--db", journal], None),
        # libpng's complaint on the process's own stderr, past Python (a JPEG cut short
        # decodes, its missing part grey: test_cli_robustness).
        (["vision", "identify", str(files["cut-photo"])], None),
        (["score", "rollecate", str(files["cut-photo"])], None),
        (["board", "sim", "--board-id", "zz"], None),
        (["demo", "--players", "0", "--db", journal], None),
        (["resume", "1", "--camera", "99", "--db", journal], None),
    ]


# -- running -----------------------------------------------------------------------------------


class _OutOfTime(BaseException):
    pass


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise _OutOfTime


def run_in_process(args: list[str], kept: KeptCorpus | None = None) -> Outcome:
    """Run ``conductor ARGS`` in this process (fast: no interpreter start-up), on the corpus
    as made when it is ``kept``."""
    altered = tuple(kept.ready(args)) if kept is not None else ()
    out, err = io.StringIO(), io.StringIO()
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIME_LIMIT_SECONDS)
    status: int | None
    crash = None
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(args)
    except SystemExit as leaving:
        status = leaving.code if isinstance(leaving.code, int) else (0 if leaving.code is None
                                                                      else 2)
    except _OutOfTime:
        status = None
    except Exception as error:  # the harness reports it; nothing may escape main
        status, crash = 1, f"{type(error).__name__}: {error}"[:300]
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    return Outcome(tuple(args), status, out.getvalue(), err.getvalue(), crash, altered)


def run_subprocess(args: list[str], stdout_path: str | None = None,
                   kept: KeptCorpus | None = None) -> Outcome:
    """Run ``python -m host ARGS`` as a user would, stdin not a terminal; ``stdout_path``
    sends the output there (``/dev/full``); on the corpus as made when it is ``kept``."""
    altered = tuple(kept.ready(args)) if kept is not None else ()
    target = open(stdout_path, "w") if stdout_path else None  # noqa: SIM115
    try:
        done = subprocess.run(
            [sys.executable, "-m", "host", *args], cwd=ROOT, stdin=subprocess.DEVNULL,
            stdout=target if target is not None else subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, timeout=TIME_LIMIT_SECONDS, check=False,
        )
    except subprocess.TimeoutExpired:
        return Outcome(tuple(args), None, "", "", altered=altered)
    finally:
        if target is not None:
            target.close()
    return Outcome(tuple(args), done.returncode, done.stdout or "", done.stderr,
                   altered=altered)


# -- hostile JSON for every observation format -------------------------------------------------


def valid_lines() -> dict[str, list[list[dict[str, Any]]]]:
    """Honest referee files of each game (first line the set-up), in each format its referee
    reads: what the mutations start from, so they reach deep into each referee rather than
    stop at the first check."""
    from host.tables.rollecate import demo_table as rollecate_demo
    from host.tables.trains import demo_table as trains_demo
    from host.trainline.transcript import entry_lines

    sys.path.insert(0, str(ROOT / "tests"))
    from test_express_referee import recorded_hand
    from test_trainline_observer import observed_game
    from test_trainline_play import bot_game

    return {
        "trains": [trains_demo(3, 3).lines],
        "rollecate": [rollecate_demo(3, 3).lines],
        "express": [[json.loads(line) for line in recorded_hand(3, 3)[0]],
                    wild_cars_typed(recorded_hand(1, 2)[0])],
        # Camera observations, and the entries players make on the web view at the table.
        "trainline": [[json.loads(line) for line in observed_game(3, 3)[0]],
                      entry_lines(bot_game(3, 3))],
    }


def wild_cars_typed(lines: list[str]) -> list[dict[str, Any]]:
    """An Express record as the camera sees it, a Wild Car in a passenger train of several
    types untyped, each such table followed by the players' entries of their types."""
    from test_express_web import as_the_camera_sees

    record: list[dict[str, Any]] = []
    for line in lines:
        seen, hidden = as_the_camera_sees(json.loads(line))
        record.append(seen)
        record += [{"event": "wild", "seat": seat, "train": train, "car": car, "as_type": name}
                   for (seat, train, car), name in hidden.items()]
    return record


def honest_entries() -> list[dict[str, Any]]:
    """What the web view posts to ``/input`` (``{"input", "value"}``) in a Train Line game
    played at the table: the entries the hostile ones are made from."""
    from host.trainline.transcript import entry_lines

    sys.path.insert(0, str(ROOT / "tests"))
    from test_trainline_play import bot_game

    entries: list[dict[str, Any]] = []
    for line in entry_lines(bot_game(5, 2))[1:60]:
        if line["event"] == "roll":
            entries.append({"input": "roll", "value": "open" if line["open"] else "closed"})
        elif line["event"] == "button":
            entries.append({"input": "end", "value": line["seat"]})
        else:
            value = {key: line[key] for key in ("cells", "cards", "takes", "seat") if key in line}
            entries.append({"input": "play", "value": value})
    return entries


SCORE_TABLES = {
    "rollecate": {"seats": [{"discard": [3, "track-2", "rollecate/chaos-4"], "hand": ["broken-1"]},
                            {"discard": [4, 4, 2], "hand": []}]},
    "express": {"seats": [{"trains": [{"cars": ["box-car", "box-car", "box-car"]}],
                           "way_cars": ["boom"], "hand": ["wreck"]}, {"trains": []}]},
}
"""An honest end-of-game table of each game ``conductor score`` reads."""

assert set(SCORE_TABLES) == set(offering("score")), "a game scores a format the harness lacks"
assert set(GAMES) == set(offering("referee"))
