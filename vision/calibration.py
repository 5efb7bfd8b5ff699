"""One look at the empty table (``conductor vision calibrate``): what it shows is reported, and
the frame itself is kept, so the recognizer can tell a card from the cloth where the card has
the cloth's own colour (``Pipeline.use_empty_table``; docs/vision.md).

The frame is kept as the camera saw it (a lossless PNG beside the JSON report), not as a
top-down view: the markers give each frame's homography, and the empty frame's own, so a camera
nudged between calibrating and playing still lines the cloth up with the table. A frame
without the markers is refused: nothing could line it up.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from host.arguments import data_folder
from host.errors import BadInputError, warn
from vision.imaging import Image, Matrix, decoders_quiet, scaled_for_reading
from vision.markers import TableFinder

GRID = 3
"""The picture is cut into GRID x GRID regions to see how even the light is."""
CALIBRATION_FILE = "calibration.json"
"""The calibration's name in the per-user data folder, where every command looks for it."""
MAX_CALIBRATION_BYTES = 1 << 20
"""The JSON report is a few hundred bytes: a bigger file is not one."""


def default_calibration() -> Path:
    """Where ``vision calibrate`` writes and every camera command looks by default."""
    return data_folder() / CALIBRATION_FILE


def calibrate(image: Image) -> dict[str, Any]:
    """The empty table in ``image`` (BGR): resolution, markers found, the cloth's median
    colour and spread, and each region's brightness with how uneven they are."""
    height, width = image.shape[:2]
    grey = image.mean(axis=2) if image.ndim == 3 else image.astype(float)
    pixels = image.reshape(-1, 3) if image.ndim == 3 else grey.reshape(-1, 1)
    regions = [[round(float(grey[row * height // GRID:(row + 1) * height // GRID,
                                 col * width // GRID:(col + 1) * width // GRID].mean()), 1)
                for col in range(GRID)] for row in range(GRID)]
    flat = [value for row in regions for value in row]
    return {
        "resolution": [width, height],
        "markers_found": TableFinder().update(image) is not None,
        "cloth_bgr": [round(float(v), 1) for v in np.median(pixels, axis=0)],
        "cloth_spread": [round(float(v), 1) for v in pixels.std(axis=0)],
        "region_brightness": regions,
        "light_unevenness": round((max(flat) - min(flat)) / max(float(np.mean(flat)), 1.0), 3),
    }


@dataclass(frozen=True)
class EmptyTable:
    """The empty table as ``vision calibrate`` kept it."""

    image: Image
    """The frame, BGR, as the camera gave it."""
    image_to_table: Matrix
    """Its homography, from its markers."""
    path: Path
    """The calibration file (the JSON report), absolute."""
    digest: str
    """SHA-256 of the kept frame's file: a game resumed with another frame is noticed."""

    def scaled(self) -> EmptyTable:
        """The frame shrunk as a photo of the same size is for reading (``identify`` and
        ``score`` read big photos smaller), its homography with it."""
        image, factor = scaled_for_reading(self.image)
        if factor == 1.0:
            return self
        shrink = np.diag([1.0 / factor, 1.0 / factor, 1.0])
        return EmptyTable(image, self.image_to_table @ shrink, self.path, self.digest)

    def unfit(self, frame: Image) -> str | None:
        """Why this frame's camera is not the one calibrated, or None if it may be."""
        if frame.shape[:2] == self.image.shape[:2]:
            return None
        return (f"made at {self.image.shape[1]} x {self.image.shape[0]} pixels, but the "
                f"picture is {frame.shape[1]} x {frame.shape[0]} (calibrate with the camera "
                "you play with)")


def save_calibration(out: Path, image: Image) -> tuple[dict[str, Any], Path]:
    """Look at the empty table in ``image`` and keep it: the report in ``out`` (JSON) and
    the frame as a PNG beside it. BadInputError, nothing written, when the markers are not
    in view. Returns the report and the PNG's path."""
    seen = calibrate(image)
    if not seen["markers_found"]:
        raise BadInputError("the table markers are not in view: nothing calibrated (put all "
                            "four markers in view, clear the table of cards and try again)")
    picture = out.with_suffix(".png")
    ok, png = cv2.imencode(".png", image)
    if not ok:
        raise BadInputError("cannot encode the frame as PNG")
    seen["empty_table"] = picture.name
    seen["empty_table_sha256"] = hashlib.sha256(png.tobytes()).hexdigest()
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        picture.write_bytes(png.tobytes())
        out.write_text(json.dumps(seen, indent=1) + "\n", "utf-8")
    except OSError as error:
        raise BadInputError(f"cannot write {out}: {error.strerror}") from None
    return seen, picture


def load_calibration(path: Path) -> EmptyTable:
    """The empty table a calibration file keeps, or BadInputError in one line saying why it
    cannot be used (unreadable, damaged, its frame missing, changed or without markers)."""
    report = _report(path)
    name, digest = report.get("empty_table"), report.get("empty_table_sha256")
    resolution = report.get("resolution")
    if not isinstance(name, str) or not isinstance(digest, str) or Path(name).name != name:
        raise BadInputError(f"{path} keeps no empty table (made by an older Conductor?): run "
                            "conductor vision calibrate again")
    picture = path.parent / name
    try:
        data = picture.read_bytes()
    except OSError as error:
        raise BadInputError(f"cannot read {picture}, the empty table {path} kept: "
                            f"{error.strerror}") from None
    if hashlib.sha256(data).hexdigest() != digest:
        raise BadInputError(f"{picture} is not the frame {path} was made from (another "
                            "table's, or changed): run conductor vision calibrate again")
    with decoders_quiet():
        decoded = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if decoded is None or [decoded.shape[1], decoded.shape[0]] != resolution:
        raise BadInputError(f"{picture} is damaged: run conductor vision calibrate again")
    image = np.asarray(decoded, np.uint8)
    image_to_table = TableFinder().update(image)
    if image_to_table is None:
        raise BadInputError(f"{picture} shows no table markers: run conductor vision "
                            "calibrate again")
    return EmptyTable(image, image_to_table, path.resolve(), digest)


def _report(path: Path) -> dict[str, Any]:
    """The calibration's JSON report, or BadInputError in one line."""
    if not path.is_file():
        raise BadInputError(f"no calibration file {path} (conductor vision calibrate makes one)")
    try:
        with path.open("rb") as file:
            text = file.read(MAX_CALIBRATION_BYTES + 1)
        if len(text) > MAX_CALIBRATION_BYTES:
            raise ValueError("too big")
        report = json.loads(text)
    except OSError as error:
        raise BadInputError(f"cannot read {path}: {error.strerror}") from None
    except (ValueError, RecursionError):
        report = None
    if not isinstance(report, dict):
        raise BadInputError(f"{path} is not a calibration (damaged? run conductor vision "
                            "calibrate again)")
    return report


def chosen_calibration(path: Path | None, ignore: bool) -> EmptyTable | None:
    """The empty table a command reads with: ``--calibration FILE`` (BadInputError if it
    cannot be used: the user asked for it), none with ``--no-calibration``, else the default
    one if there is one (``warn`` says why it is left out when it cannot be used: nothing
    requires a calibration, so a broken default one does not stop the command)."""
    if ignore:
        return None
    if path is not None:
        return load_calibration(path)
    default = default_calibration()
    if not default.exists():
        return None
    try:
        return load_calibration(default)
    except BadInputError as error:
        warn(f"calibration left out: {error}")
        return None


def calibration_options(parser: argparse.ArgumentParser,
                        default: str = "the one in the per-user data folder, if any") -> None:
    """``--calibration FILE`` and ``--no-calibration``, for every command that reads cards
    (``chosen_calibration`` reads them); ``default``: what is read without either."""
    given = parser.add_mutually_exclusive_group()
    given.add_argument("--calibration", type=Path, default=None, metavar="FILE",
                       help="the empty table (conductor vision calibrate) an enrolled deck's "
                            f"cards are found with (default: {default})")
    given.add_argument("--no-calibration", action="store_true",
                       help="read without the calibrated empty table")
