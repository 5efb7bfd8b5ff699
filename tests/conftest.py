"""Shared test set-up."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

# CI explores the same examples on every run, so a red build can be reproduced; developers'
# runs keep exploring new ones (a failure prints the example and its seed either way).
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto``: one worker more than the cores this process may run on. Much of the suite
    waits on other processes (the CLI, the firmware over a pty, Chromium), and a worker more
    keeps every core busy: on 2 cores the suite took 514 s with two workers, 422 s with three
    (29 November 2026). ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still decides when set."""
    del config
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist's own hook reads it
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) + 1


@pytest.fixture(autouse=True)
def _journal_in_a_temporary_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test writes to the user's own journal: the default location points into tmp_path
    (for subprocesses too, which inherit the environment)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
