"""Every command against hostile input (issue 13): exit 0 or 2, one stderr line, no traceback,
an end in time. The harness is in ``fuzz_helpers``; ``benchmarks/cli_fuzz.py`` runs it longer.

When a command or an observation format is added, the first test fails until the harness knows
how to feed it.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from fuzz_helpers import (
    SCORE_TABLES,
    KeptCorpus,
    Outcome,
    cases,
    command_paths,
    corpus,
    honest_entries,
    kept_inputs,
    run_in_process,
    run_subprocess,
    sharp_cases,
    valid_lines,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from host.errors import BadInputError
from host.games import GAMES
from host.tables.trainline import GAME as TRAINLINE
from host.web.server import Address, WebView

EXAMPLES = int(os.environ.get("CONDUCTOR_FUZZ_EXAMPLES", "150"))
"""Hypothesis examples per observation format (the long run in benchmarks/ raises it)."""


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return corpus(tmp_path_factory.mktemp("corpus"))


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("out")


@pytest.fixture(scope="module")
def table(files: dict[str, Path], out: Path) -> dict[tuple[str, ...], list[list[str]]]:
    return cases(files, out)


@pytest.fixture(scope="module")
def kept(files: dict[str, Path], out: Path, table: dict[tuple[str, ...], list[list[str]]]
         ) -> KeptCorpus:
    return kept_inputs(files, out)  # after ``table``: cases makes some inputs in ``out``


def problems(outcomes: list[Outcome]) -> list[str]:
    return [f"{' '.join(o.args)[:160]}: {o.problem()}" for o in outcomes if o.problem()]


def test_the_harness_feeds_every_command(table: dict[tuple[str, ...], list[list[str]]]) -> None:
    assert set(command_paths()) == set(table), "add the new command to fuzz_helpers.cases"
    assert all(len(arglists) >= 5 for arglists in table.values())


@pytest.mark.parametrize("command", command_paths(), ids=" ".join)
def test_every_hostile_input_gets_an_answer(
    command: tuple[str, ...], table: dict[tuple[str, ...], list[list[str]]], kept: KeptCorpus
) -> None:
    # Each case starts on the corpus as made (an outcome says if its files were not).
    outcomes = [run_in_process(args, kept) for args in table[command]]
    assert problems(outcomes) == []
    # The harness reaches past argparse: some cases are refused by the command itself.
    assert any(o.status == 2 and not o.err.startswith(f"conductor {command[0]}")
               for o in outcomes) or command == ("board", "sim")


def test_a_case_that_writes_over_its_input_leaves_the_next_case_the_corpus_as_made(
    files: dict[str, Path], kept: KeptCorpus
) -> None:
    cut = files["cut-photo"]
    made = cut.read_bytes()
    writer = run_in_process(["vision", "markers", str(cut)], kept)
    assert writer.problem() is None and writer.status == 0, writer.err
    assert cut.read_bytes() != made, "the marker sheet is written over the cut photo"
    assert kept.ready([str(cut)]) == []
    assert cut.read_bytes() == made
    # The check reads the bytes: a change that keeps the size, the time and the file, which
    # the putting back does not see, is still named.
    status = cut.stat()
    cut.write_bytes(made[::-1])
    os.utime(cut, ns=(status.st_atime_ns, status.st_mtime_ns))
    try:
        assert kept.ready([str(cut), str(files["missing"])]) == [str(cut)]
    finally:
        cut.write_bytes(made)
        os.utime(cut, ns=(status.st_atime_ns, status.st_mtime_ns))


def test_the_sharp_cases_in_a_process_of_their_own(files: dict[str, Path],
                                                   kept: KeptCorpus) -> None:
    outcomes = [run_subprocess(args, stdout, kept) for args, stdout in sharp_cases(files)]
    assert problems(outcomes) == []
    assert all(o.status == 2 for o in outcomes)


# -- hypothesis: hostile JSON in every observation and table format ----------------------------

VALID = valid_lines()
assert set(VALID) == set(GAMES), "a game's observation format is missing from the harness"

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats()
    | st.text(max_size=12) | st.sampled_from(["track-2", "chaos-4", "box-car", "left", "wheel"]),
    lambda children: st.lists(children, max_size=6)
    | st.dictionaries(st.text(max_size=8) | st.sampled_from(
        ["seats", "first", "lines", "faceup", "locks", "railway", "train", "discard", "hands",
         "dice", "done", "pass", "seat", "event", "trains", "way_cars", "hand"]), children,
        max_size=6),
    max_leaves=20,
)


def mutated(draw: Any, value: Any, depth: int = 0) -> Any:
    """``value`` with one part replaced by hostile JSON (or dropped, or grown)."""
    if depth > 4 or not isinstance(value, dict | list) or not value or draw(st.integers(0, 5)) == 0:
        return draw(json_values)
    keys = list(value) if isinstance(value, dict) else list(range(len(value)))
    key = draw(st.sampled_from(keys))
    copy: Any = dict(value) if isinstance(value, dict) else list(value)
    how = draw(st.integers(0, 9))
    if how == 0:
        del copy[key]
    elif how == 1 and isinstance(copy, list):
        copy.append(draw(json_values))
    else:
        copy[key] = mutated(draw, value[key], depth + 1)
    return copy


@st.composite
def hostile_record(draw: Any, game: str) -> list[Any]:
    """An honest record of the game with a few lines mutated (the set-up line too, at times)."""
    lines = draw(st.sampled_from(VALID[game]))
    cut = draw(st.integers(1, len(lines)))
    record: list[Any] = list(lines[:cut])
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.integers(0, len(record) - 1))
        record[where] = mutated(draw, record[where])
    return record


def judged(args: list[str], content: str) -> Outcome:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "input.json"
        path.write_text(content)
        return run_in_process([*args, str(path)])


@pytest.mark.parametrize("game", sorted(GAMES))
@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_the_referee_answers_any_json(game: str, data: st.DataObject) -> None:
    record = data.draw(hostile_record(game))
    outcome = judged(["referee", game], "\n".join(json.dumps(line) for line in record) + "\n")
    assert outcome.problem() is None, outcome.problem()


@pytest.mark.parametrize("game", sorted(SCORE_TABLES))
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_scorer_answers_any_json(game: str, data: st.DataObject) -> None:
    table = mutated(data.draw, SCORE_TABLES[game])
    outcome = judged(["score", game], json.dumps(table))
    assert outcome.problem() is None, outcome.problem()


# -- hostile entries on the web view (what a phone posts to /input) ---------------------------

ENTRIES = honest_entries()


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_hostile_entries_are_refused_or_judged_never_a_crash(data: st.DataObject) -> None:
    """Entries as the page posts them, some mutated: each is a referee line the referee judges
    (legal or explained) or a BadInputError, nothing else."""
    assert TRAINLINE.inputs is not None and TRAINLINE.inputs.web is not None
    cut = data.draw(st.integers(1, len(ENTRIES)))
    entries = list(ENTRIES[:cut])
    for _ in range(data.draw(st.integers(1, 3))):
        where = data.draw(st.integers(0, len(entries) - 1))
        entries[where] = mutated(data.draw, entries[where])
    referee = TRAINLINE.open_referee({"seats": 2, "first": 0})
    for entry in entries:
        try:
            if not isinstance(entry, dict):
                raise BadInputError("not an entry")
            line = TRAINLINE.inputs.web.line(str(entry.get("input")), entry.get("value"))
            verdict = referee.feed(line)
        except BadInputError:
            continue
        assert verdict.verdict in ("waiting", "roll", "move", "win", "illegal")


def test_the_server_answers_any_entry_body() -> None:
    """Bodies no page would post: 400, and the server goes on serving."""
    import urllib.error
    import urllib.request

    view = WebView(Address("127.0.0.1", 0))
    host = view.url.split("/")[2]
    headers = {"X-Conductor-Token": view.token, "Origin": f"http://{host}"}
    bodies = [b"", b"x", b"[]", b"null", b'{"input": 1}', b'{"value": 1}', b"\xff\xfe",
              b"[" * 5000, b'{"input": "play", "value": ' + b"9" * 400 + b"}",
              b'{"input": NaN}', b"{" * 100, b" " * 5000]
    try:
        for body in bodies:
            request = urllib.request.Request(view.url + "input", data=body, method="POST",
                                             headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=5) as answer:
                    status = answer.status
            except urllib.error.HTTPError as refused:
                status = refused.code
            assert status == 400, body[:40]
        assert view.commands.empty()
        with urllib.request.urlopen(view.url + "state", timeout=5) as answer:
            assert answer.status == 200
    finally:
        view.close()
