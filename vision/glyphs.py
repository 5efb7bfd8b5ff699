"""Learning a numbered deck from a handful of its cards: digit glyphs and ability icons.

Every Game of Trains face is laid out alike (``vision.faces``): the number is set in cells of
one width centred on the card, the ability icon sits in the band at the bottom. So a few
photographed cards that between them show the ten digits and the eight abilities teach how the
camera sees each digit and icon, and the windows of all 84 cards are composed from those
pieces on the learnt paper (the enrolled cards' too, so that all references are alike).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

import cv2
import numpy as np

from host.deck import Deck
from host.errors import BadInputError
from vision.detect import PATCH_MARGIN_MM, PATCH_PAD, PATCH_SIZE
from vision.faces import BAND_TOP_MM, CARD_WIDTH_MM, WINDOW_HEIGHT_MM, WINDOW_INSET_MM
from vision.faces import WINDOW_WIDTH_MM as WINDOW_W
from vision.imaging import Image

FINE = 4.0
"""Pixels per millimetre of the canvas pieces are cut from and pasted on."""
DIGIT_CELL_MM = 18.9
"""Width of one digit's cell (the font's advance at the face's number height)."""
NUMBER_ROWS_MM = (19.0, 49.0)
"""Rows of the card (from its top edge) the big number occupies, with a little room."""
INDEX_BOX_MM = (7.0, 7.0, 24.0, 17.0)
"""The corner index (x0, y0, x1, y1, card millimetres), left out of composed windows."""
BAND_ROWS_MM = (BAND_TOP_MM - 1.0, WINDOW_INSET_MM + WINDOW_HEIGHT_MM - 1.0)
"""Rows of the ability band."""


def _origin_mm() -> tuple[float, float]:
    """Card millimetres of the padded patch's top-left pixel."""
    inset = WINDOW_INSET_MM + PATCH_MARGIN_MM
    step_x = (WINDOW_W - 2 * PATCH_MARGIN_MM) / PATCH_SIZE[0]
    step_y = (WINDOW_HEIGHT_MM - 2 * PATCH_MARGIN_MM) / PATCH_SIZE[1]
    return inset - PATCH_PAD * step_x, inset - PATCH_PAD * step_y


def _padded_size() -> tuple[int, int]:
    return PATCH_SIZE[0] + 2 * PATCH_PAD, PATCH_SIZE[1] + 2 * PATCH_PAD


def _fine_size() -> tuple[int, int]:
    step_x = (WINDOW_W - 2 * PATCH_MARGIN_MM) / PATCH_SIZE[0]
    step_y = (WINDOW_HEIGHT_MM - 2 * PATCH_MARGIN_MM) / PATCH_SIZE[1]
    width, height = _padded_size()
    return round(width * step_x * FINE), round(height * step_y * FINE)


def _to_fine(patch: Image) -> np.ndarray:
    return np.asarray(cv2.resize(patch.astype(np.float32), _fine_size(),
                                 interpolation=cv2.INTER_CUBIC), np.float32)


def _to_patch(fine: np.ndarray) -> Image:
    small = cv2.resize(fine, _padded_size(), interpolation=cv2.INTER_AREA)
    return np.asarray(np.clip(small, 0, 255), np.uint8)


def _columns(x0_mm: float, x1_mm: float) -> slice:
    left = _origin_mm()[0]
    return slice(round((x0_mm - left) * FINE), round((x1_mm - left) * FINE))


def _cell(x0_mm: float) -> slice:
    """Columns of a digit cell starting at ``x0_mm``: always the same number of them."""
    start = round((x0_mm - _origin_mm()[0]) * FINE)
    return slice(start, start + round(DIGIT_CELL_MM * FINE))


def _rows(y0_mm: float, y1_mm: float) -> slice:
    top = _origin_mm()[1]
    return slice(round((y0_mm - top) * FINE), round((y1_mm - top) * FINE))


def _cells(digits: int) -> list[tuple[float, float]]:
    """Card millimetres (x0, x1) of each digit's cell in a number of ``digits`` digits."""
    start = CARD_WIDTH_MM / 2 - digits * DIGIT_CELL_MM / 2
    return [(start + k * DIGIT_CELL_MM, start + (k + 1) * DIGIT_CELL_MM) for k in range(digits)]


def compose(deck: Deck, patches: Mapping[str, list[Image]]) -> dict[str, list[Image]]:
    """Windows for every card of a numbered deck, from enrolled windows of a few of them.

    ``patches`` maps enrolled card names to their windows. Raises BadInputError naming the
    digits and abilities no enrolled card shows.
    """
    glyphs: dict[str, list[np.ndarray]] = defaultdict(list)
    bands: dict[str, list[np.ndarray]] = defaultdict(list)
    canvases = []
    number_rows, band_rows = _rows(*NUMBER_ROWS_MM), _rows(*BAND_ROWS_MM)
    for name, images in patches.items():
        card = deck.card(name)
        text = str(card.number("number"))
        for image in images:
            fine = _to_fine(image)
            canvases.append(fine)
            for digit, (x0, _) in zip(text, _cells(len(text)), strict=True):
                glyphs[digit].append(fine[number_rows, _cell(x0)])
            bands[card.text("ability")].append(fine[band_rows])
    abilities = {card.text("ability") for card in deck.cards}
    missing = sorted(set("0123456789") - set(glyphs)) + sorted(abilities - set(bands))
    if missing:
        raise BadInputError("to learn the whole deck, enroll cards that also show: "
                            + ", ".join(missing))
    # Paper: the enrolled windows' median, with the number, index and band areas wiped to the
    # paper's own level.
    base = np.median(np.stack(canvases), axis=0).astype(np.float32)
    inner = base[_rows(WINDOW_INSET_MM + 2, BAND_TOP_MM - 2),
                 _columns(WINDOW_INSET_MM + 2, CARD_WIDTH_MM - WINDOW_INSET_MM - 2)]
    paper = float(np.percentile(inner, 75))
    x0, y0, x1, y1 = INDEX_BOX_MM
    base[_rows(y0, y1), _columns(x0, x1)] = paper
    base[number_rows, _columns(WINDOW_INSET_MM + 1, CARD_WIDTH_MM - WINDOW_INSET_MM - 1)] = paper
    base[band_rows, _columns(WINDOW_INSET_MM + 1, CARD_WIDTH_MM - WINDOW_INSET_MM - 1)] = paper
    mean_glyph = {digit: np.mean(np.stack(crops), axis=0) for digit, crops in glyphs.items()}
    mean_band = {ability: np.mean(np.stack(crops), axis=0) for ability, crops in bands.items()}
    composed: dict[str, list[Image]] = {}
    # Enrolled cards are composed too: a real window among composed ones would win every close
    # call against them (it alone has the corner index and the card's own paper).
    for card in deck.cards:
        fine = base.copy()
        text = str(card.number("number"))
        for digit, (x0, _) in zip(text, _cells(len(text)), strict=True):
            fine[number_rows, _cell(x0)] = mean_glyph[digit]
        fine[band_rows] = mean_band[card.text("ability")]
        composed[card.id] = [_to_patch(fine)]
    return composed
