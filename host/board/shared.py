"""The firmware's codec, dice derivation and pin layout, imported by the host from firmware/.

``firmware/protocol.py`` and ``firmware/dice.py`` are written once in MicroPython-compatible
Python and used on both sides of the wire, so the host can never drift from the board. The
folder ships with the package (and sits beside ``host/`` in a checkout). An editable install
made before the folder was packaged does not know it as a package, so it is then loaded from
beside ``host/``; if it is missing altogether the host cannot speak to a board, which is
reported as such instead of an ImportError.
"""

import importlib.util
import sys
from pathlib import Path

from host.board.errors import BoardError

_BESIDE_HOST = Path(__file__).resolve().parent.parent.parent / "firmware"


def _load_from_checkout() -> None:
    """Register firmware/ beside host/ as the ``firmware`` package."""
    init = _BESIDE_HOST / "__init__.py"
    spec = importlib.util.spec_from_file_location(
        "firmware", init, submodule_search_locations=[str(_BESIDE_HOST)]
    )
    if not init.exists() or spec is None or spec.loader is None:
        raise BoardError(
            f"the board firmware folder is missing ({_BESIDE_HOST}): "
            "reinstall Conductor from its repository"
        )
    package = importlib.util.module_from_spec(spec)
    sys.modules["firmware"] = package
    spec.loader.exec_module(package)


try:
    from firmware import dice, pins, protocol
except ImportError:
    _load_from_checkout()
    from firmware import dice, pins, protocol

#: The firmware folder in use: what the simulator runs and ``board flash`` copies.
FIRMWARE_FOLDER = Path(protocol.__file__).resolve().parent

__all__ = ["FIRMWARE_FOLDER", "dice", "pins", "protocol"]
