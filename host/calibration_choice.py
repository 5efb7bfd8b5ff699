"""The calibrated empty table a game at the table is read with, kept in its journal: ``resume``
must read the cards as ``play`` did, with the same calibration or, if it is gone or made again
since, none only when the players say so (``--no-calibration``) or name another
(``--calibration FILE``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from host.errors import BadInputError
from vision.calibration import EmptyTable, chosen_calibration, load_calibration


def calibration_settings(empty: EmptyTable | None) -> dict[str, str]:
    """What the journal keeps of the calibration a game is read with (nothing for none)."""
    if empty is None:
        return {}
    return {"calibration": str(empty.path), "calibration_sha256": empty.digest}


def journaled_calibration(game_id: int, settings: Mapping[str, Any], path: Path | None,
                          ignore: bool) -> EmptyTable | None:
    """The calibration a journaled game goes on with: the one it was started with, unless
    ``--calibration`` (``path``) or ``--no-calibration`` (``ignore``) says otherwise;
    BadInputError in one line if that one is gone, damaged or made again since."""
    if ignore or path is not None:
        return chosen_calibration(path, ignore)
    kept = settings.get("calibration")
    if kept is None:
        return None
    kept_path = Path(str(kept))
    choices = "resume with --no-calibration, or --calibration FILE for another"
    if not kept_path.is_file():
        raise BadInputError(f"game {game_id} was read with the calibration {kept_path}, which "
                            f"is gone: put it back, or {choices}")
    try:
        empty = load_calibration(kept_path)
    except BadInputError as error:
        raise BadInputError(f"game {game_id} was read with the calibration {kept_path}, which "
                            f"cannot be used now ({error}): {choices}") from None
    if empty.digest != settings.get("calibration_sha256"):
        raise BadInputError(f"game {game_id} was read with the calibration {kept_path}, which "
                            f"was made again since: {choices} (--calibration {kept_path}: "
                            "the new one)")
    return empty
