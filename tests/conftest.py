"""Shared test set-up."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _journal_in_a_temporary_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test writes to the user's own journal: the default location points into tmp_path
    (for subprocesses too, which inherit the environment)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
