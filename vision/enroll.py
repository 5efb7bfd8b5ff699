"""Enrollment: learning a deck's card windows from pictures of its cards.

A folder holds pictures, each named after what it shows (the suffix is any image format):

* ``42.png``, ``track-3.jpg``: one card face, as a flat scan or a photo of the card lying
  upright (its top towards the top of the picture);
* ``1-14.png``: a photo of cards 1 to 14 of a numbered deck laid out upright in rows, read like
  a book (left to right, rows top to bottom); ``track-1+track-2+broken-4.png`` names each card
  of such a photo in reading order (``+`` between names), and a picture with a ``.txt`` file of
  the same stem takes its names from that file, one per line.

So an 84-card deck takes a handful of photos, not 84; or fewer still with ``glyphs``: about
eight cards that between them show every digit and ability. Several pictures of one card are
all kept (each is a reference). Names are checked against the deck file.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

from host.deck import Deck, DeckError, load_deck
from host.errors import BadInputError
from vision.detect import FoundCard, find_cards
from vision.identify import References, face_patch
from vision.imaging import Image, Points, grey, read_image, transform_points
from vision.markers import TableFinder
from vision.recognize import CardReferences

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
"""Picture formats enrollment reads."""
RANGE = re.compile(r"^(\d+)-(\d+)$")


def names_in(path: Path, deck: Deck) -> list[str]:
    """The card names (``deck/card``) a picture shows, in reading order, from its name."""
    sidecar = path.with_suffix(".txt")
    if sidecar.is_file():
        short = [line.strip() for line in sidecar.read_text(encoding="utf-8").splitlines()
                 if line.strip()]
    elif (match := RANGE.match(path.stem)) and not _is_card(deck, path.stem):
        first, last = int(match.group(1)), int(match.group(2))
        if last < first:
            raise BadInputError(f"{path.name}: range {first}-{last} runs backwards")
        short = [str(number) for number in range(first, last + 1)]
    else:
        short = path.stem.split("+")
    names = []
    for name in short:
        try:
            names.append(deck.card(name).id)
        except DeckError:
            raise BadInputError(f"{path.name}: deck {deck.name!r} has no card {name!r}") from None
    return names


def _is_card(deck: Deck, name: str) -> bool:
    return any(card.name == name for card in deck.cards)


def _upright(found: FoundCard) -> Image:
    """The card's window turned so that the side nearer the top of the picture is its top."""
    top, bottom = found.window[:2, 1].mean(), found.window[2:, 1].mean()
    return found.patch if top <= bottom else np.ascontiguousarray(found.patch[::-1, ::-1])


def _reading_order(cards: list[FoundCard]) -> list[FoundCard]:
    """Rows top to bottom (a new row where a card starts below the previous row's middle),
    each row left to right."""
    ordered = sorted(cards, key=lambda card: float(card.window[:, 1].mean()))
    rows: list[list[FoundCard]] = []
    for card in ordered:
        if rows:
            previous = rows[-1][0].window
            row_bottom = float(previous[:, 1].max())
            if float(card.window[:, 1].mean()) < row_bottom:
                rows[-1].append(card)
                continue
        rows.append([card])
    return [card for row in rows
            for card in sorted(row, key=lambda c: float(c.window[:, 0].mean()))]


def patches_in(image: Image, count: int, origin: str) -> list[Image]:
    """``count`` upright windows from a picture, in reading order.

    A picture of one card that shows no frame outline (a scan cropped at the card's edge and
    blurred, say) is read as the whole card face.
    """
    # When the picture shows the table's markers, they give every window its size: a marker's
    # own black square is then no card (without them, a marker can pass for one).
    cards = find_cards(grey(image), TableFinder().update(image))
    if count == 1:
        if not cards:
            return [face_patch(image)]
        largest = max(cards, key=lambda card: float(np.ptp(card.window, axis=0).prod()))
        return [_upright(largest)]
    if len(cards) != count:
        raise BadInputError(f"{origin}: names {count} cards but {len(cards)} were found")
    return [_upright(card) for card in _reading_order(cards)]


def _pictures(folder: Path) -> list[Path]:
    if not folder.is_dir():
        raise BadInputError(f"no folder {folder}")
    pictures = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not pictures:
        raise BadInputError(f"{folder} holds no pictures ({', '.join(IMAGE_SUFFIXES)})")
    return pictures


SCAN_ASPECT_SLACK = 0.08
"""How far (relative) a picture's shape may be from a card's to be taken as one whole card."""


def _upright_corners(corners: Points) -> Points:
    """Corners turned so that the card's top is the end nearer the top of the picture."""
    top, bottom = corners[:2, 1].mean(), corners[2:, 1].mean()
    return corners if top <= bottom else np.roll(corners, 2, axis=0)


def _whole_faces(image: Image, count: int, origin: str, deck: Deck) -> list[Image]:
    """``count`` upright card faces from a picture, in reading order, at the references'
    resolution: a scan of one card is the card; otherwise cards are found by their outline
    (with the table markers, if the picture shows them)."""
    from vision.outline import OutlineFinder, raw_outlines
    from vision.recognize import REF_PX_PER_MM

    width, height = deck.card_mm
    shape = image.shape[1] / image.shape[0]
    if count == 1 and abs(shape / (width / height) - 1) <= SCAN_ASPECT_SLACK:
        return [image]
    table = TableFinder()
    table.update(image)
    if table.homography is not None:
        to_image = np.asarray(np.linalg.inv(table.homography), np.float64)
        found = [transform_points(to_image, outline.corners)
                 for outline in OutlineFinder(deck.card_mm).find(image, table.homography)]
    else:
        found = raw_outlines(image, deck.card_mm)
    if count == 1 and found:
        found = found[:1]
    if len(found) != count:
        raise BadInputError(f"{origin}: names {count} cards but {len(found)} were found")
    ordered = _reading_order_corners([_upright_corners(corners) for corners in found])
    size = (round(width * REF_PX_PER_MM), round(height * REF_PX_PER_MM))
    source = np.array([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]], np.float32)
    return [np.asarray(cv2.warpPerspective(
        image, cv2.getPerspectiveTransform(corners.astype(np.float32), source), size,
        flags=cv2.INTER_AREA), np.uint8) for corners in ordered]


def _reading_order_corners(cards: list[Points]) -> list[Points]:
    """Rows top to bottom (a new row where a card starts below the previous row's middle),
    each row left to right."""
    rows: list[list[Points]] = []
    for card in sorted(cards, key=lambda corners: float(corners[:, 1].mean())):
        if rows and float(card[:, 1].mean()) < float(rows[-1][0][:, 1].max()):
            rows[-1].append(card)
        else:
            rows.append([card])
    return [card for row in rows for card in sorted(row, key=lambda c: float(c[:, 0].mean()))]


def enroll_faces(deck: Deck, folder: Path) -> CardReferences:
    """Whole-face references of ``deck`` (any published deck, no frame line needed) learnt
    from the pictures in ``folder`` (named as for ``enroll``)."""
    faces: dict[str, list[Image]] = defaultdict(list)
    for picture in _pictures(folder):
        names = names_in(picture, deck)
        for name, face in zip(names, _whole_faces(read_image(picture), len(names),
                                                  picture.name, deck), strict=True):
            faces[name].append(face)
    return CardReferences(deck.name, deck.card_mm, faces,
                          complete={card.id for card in deck.cards} <= faces.keys())


def enroll(deck_name: str, folder: Path, glyphs: bool = False) -> References:
    """References for ``deck_name`` learnt from the pictures in ``folder``.

    ``glyphs``: the pictures show only a handful of a numbered deck's cards; compose the
    windows of all the others from their digits and icons (``vision.glyphs``).
    """
    deck = load_deck(deck_name)
    pictures = _pictures(folder)
    patches: dict[str, list[Image]] = defaultdict(list)
    for picture in pictures:
        names = names_in(picture, deck)
        for name, patch in zip(names, patches_in(read_image(picture), len(names), picture.name),
                               strict=True):
            patches[name].append(patch)
    if glyphs:
        from vision.glyphs import compose

        return References(deck.name, compose(deck, patches))
    return References(deck.name, patches)
