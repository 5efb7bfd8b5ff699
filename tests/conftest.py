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


@pytest.fixture(autouse=True)
def _journal_in_a_temporary_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test writes to the user's own journal: the default location points into tmp_path
    (for subprocesses too, which inherit the environment)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
