"""Printable things: the table markers and a deck of Conductor's own card faces."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from host.deck import load_deck
from host.errors import BadInputError
from vision.faces import card_mask, render_face
from vision.imaging import Image, write_image
from vision.markers import A4_MM, marker_sheet
from vision.pdf import write_pdf

PRINT_PX_PER_MM = 8.0
"""Resolution of printed faces (about 200 dpi)."""


def write_markers(out: Path) -> None:
    """The marker sheet as a PDF (by suffix ``.pdf``) or an image (``.png``, ...)."""
    page = marker_sheet()
    if out.suffix.lower() == ".pdf":
        write_pdf(out, [page], A4_MM)
    else:
        write_image(out, page)


def _deck_pages(faces: list[Image]) -> list[Image]:
    """Faces laid 3 x 3 on A4 pages at their true size, with thin grey outlines to cut along."""
    width, height = round(A4_MM[0] * PRINT_PX_PER_MM), round(A4_MM[1] * PRINT_PX_PER_MM)
    card_w, card_h = faces[0].shape[1], faces[0].shape[0]
    left = (width - 3 * card_w) // 2
    top = (height - 3 * card_h) // 2
    mask = card_mask(PRINT_PX_PER_MM)[..., None] > 0
    pages = []
    for start in range(0, len(faces), 9):
        page = np.full((height, width, 3), 255, np.uint8)
        for index, face in enumerate(faces[start:start + 9]):
            row, column = divmod(index, 3)
            y, x = top + row * card_h, left + column * card_w
            region = page[y:y + card_h, x:x + card_w]
            region[:] = np.where(mask, face, region)
            region[[0, -1], :] = 190
            region[:, [0, -1]] = 190
        pages.append(page)
    return pages


def write_deck(deck_name: str, out: Path) -> int:
    """Print ``deck_name``'s faces: a PDF (``.pdf``) or a folder of one PNG per card face.

    The folder form is also an enrollment folder (``conductor vision enroll``). Returns the
    number of faces written.
    """
    deck = load_deck(deck_name)
    try:
        faces = [render_face(card, PRINT_PX_PER_MM) for card in deck.cards]
    except ValueError as error:
        raise BadInputError(str(error)) from None
    if out.suffix.lower() == ".pdf":
        write_pdf(out, _deck_pages(faces), A4_MM)
    else:
        if out.exists() and not out.is_dir():
            raise BadInputError(f"{out} exists and is not a folder")
        for card, face in zip(deck.cards, faces, strict=True):
            write_image(out / f"{card.name}.png", face)
    return len(faces)

