"""The firmware type-checks against the Pico's MicroPython (micropython-rp2-rpi-pico-stubs).

The stubs are a typeshed replacement: micropython-stdlib-stubs brings a reduced ``stdlib``, and
the rp2 stubs add the board's own modules (machine, neopixel, time with ticks_ms, ...) as
top-level stub files. mypy only treats stdlib modules specially when they come from its typeshed,
so the test assembles one typeshed from both distributions (symlinks in a temporary folder,
every board module listed in VERSIONS) and runs strict mypy with ``--custom-typeshed-dir``.
This checks the firmware against what the board has, not against CPython.
"""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
BOARD_STUBS = "micropython-rp2-rpi-pico-stubs"
STDLIB_STUBS = "micropython-stdlib-stubs"


def _installed_root(name: str) -> Path:
    try:
        dist = distribution(name)
    except PackageNotFoundError:
        pytest.skip(f"{name} is not installed")
    return Path(str(dist.locate_file("")))


def _board_modules() -> set[str]:
    """Top-level names (modules and packages) the rp2 stub distribution provides."""
    files = distribution(BOARD_STUBS).files or []
    return {Path(str(f)).parts[0].removesuffix(".pyi") for f in files if str(f).endswith(".pyi")}


def _typeshed(tmp_path: Path) -> Path:
    site = _installed_root(STDLIB_STUBS)
    _installed_root(BOARD_STUBS)
    typeshed = tmp_path / "typeshed"
    stdlib = typeshed / "stdlib"
    stdlib.mkdir(parents=True)
    for entry in (site / "stdlib").iterdir():
        if entry.name != "VERSIONS":
            (stdlib / entry.name).symlink_to(entry)
    versions = (site / "stdlib" / "VERSIONS").read_text().splitlines()
    extra = _board_modules() | {"_mpy_shed"}
    for name in sorted(extra):
        source = site / f"{name}.pyi" if (site / f"{name}.pyi").exists() else site / name
        target = stdlib / source.name
        if not target.exists():
            target.symlink_to(source)
            versions.append(f"{name}: 3.0-")
    (stdlib / "VERSIONS").write_text("\n".join(versions) + "\n")
    (typeshed / "stubs").symlink_to(site / "stubs")
    return typeshed


def test_firmware_type_checks_against_the_pico_stubs(tmp_path: Path) -> None:
    typeshed = _typeshed(tmp_path)
    sources = sorted(str(p.relative_to(FIRMWARE)) for p in FIRMWARE.glob("*.py")
                     if p.name != "__init__.py")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", "mypy.ini",
         "--custom-typeshed-dir", str(typeshed), *sources],
        cwd=FIRMWARE, capture_output=True, text=True, timeout=300, check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
