"""Foreign test decks: card faces in the styles of published games, drawn from a seed.

Players bring their own published decks, never our printed faces, so the recognizer is tuned and
measured on decks it did not draw for itself. None of these has a frame line; all have rounded
corners. A deck is drawn from ``(style, seed)``, so some seeds can be kept out of tuning:

* ``artwork``: full-bleed artwork; groups of four cards share one artwork and differ only by the
  number in a corner badge (printed in two corners, as on playing cards): near twins.
* ``bordered``: a white border round a central picture, a word below it, a small value above.
* ``plain``: one plain design for every card; only a small printed number or word differs
  (56 x 87 mm cards, to exercise ``card_mm``).
* ``trains``: The Game of Trains as its published cards probably look: a full-bleed coloured
  card per ability, a railcar drawing, a big number, the ability icon on a light panel.
* ``rollecate``: Rollecate's track cards as published: rails across a dark card, the value in
  two corner badges with wheel pips, a gap and a crack on broken tracks, a swirl on chaos cards.

The last two keep their decks' card names (``trains/42``), so zones and referees read them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field

import cv2
import numpy as np

from host.deck import Card, Deck, load_deck, parse_deck
from vision.faces import ABILITY_COLOURS, card_mask, centred_text
from vision.icons import draw_ability
from vision.imaging import Image

STYLES = ("artwork", "bordered", "plain", "trains", "rollecate")
"""The deck styles the renderer draws."""
TUNING_SEEDS = range(0, 100)
"""Deck seeds the recognizer may be tuned on; seeds from 100 up are held out."""
CORNER_MM = 3.5
"""Corner radius of the foreign decks."""
SCAN_PX_PER_MM = 6.0
"""Resolution of a flat scan of a card, as a user enrolls their deck from."""
WORDS = ("oak", "elm", "ash", "fir", "yew", "bay", "fig", "lime", "pear", "plum", "rose", "sage",
         "mint", "rue", "iris", "lily", "fern", "moss", "reed", "vine", "palm", "teak", "nut",
         "bud")
"""Words printed on the word cards."""
CARDS_PER_STYLE = {"artwork": 40, "bordered": 30, "plain": 24}
"""How many cards a generated deck of each invented style holds."""
CARD_MM = {"plain": (56.0, 87.0)}
"""Card sizes other than the default 63 x 88 mm."""


def _card_names(style: str, rng: np.random.Generator) -> list[str]:
    count = CARDS_PER_STYLE[style]
    if style == "artwork":
        return [str(n) for n in range(1, count + 1)]
    words = [str(w) for w in rng.permutation(WORDS)]
    if style == "bordered":  # more cards than words: a word's second card is "word-2"
        return [words[i % len(words)] + (f"-{i // len(words) + 1}" if i >= len(words) else "")
                for i in range(count)]
    return [str(n) for n in range(1, count // 2 + 1)] + words[:count - count // 2]


def _deck_json(style: str, seed: int) -> str:
    rng = np.random.default_rng([seed, 101, STYLES.index(style)])
    names = _card_names(style, rng)
    cards: list[dict[str, object]] = []
    for index, name in enumerate(names):
        entry: dict[str, object] = {"name": name, "count": 1}
        if style == "artwork":
            entry["number"] = index + 1
            entry["artwork"] = index // 4
        elif style == "bordered":
            entry["value"] = int(rng.integers(1, 10))
        cards.append(entry)
    data: dict[str, object] = {"deck": f"{style}-{seed}",
                               "title": f"generated {style} deck, seed {seed}",
                               "about": "a test deck drawn by vision.styles",
                               "cards": cards}
    if style in CARD_MM:
        data["card_mm"] = list(CARD_MM[style])
    return json.dumps(data, indent=1)


@dataclass(frozen=True)
class StyledDeck:
    """A deck with faces drawn in one style (``face``), for the scene renderer."""

    style: str
    """One of ``STYLES``."""
    seed: int
    """Seed the deck's faces (and, for invented styles, its cards) are drawn from."""
    deck: Deck
    """The deck's cards and card size."""
    _faces: dict[tuple[str, float], Image] = field(default_factory=dict, repr=False,
                                                   compare=False)

    @property
    def card_mm(self) -> tuple[float, float]:
        """Card width and height in millimetres."""
        return self.deck.card_mm

    @property
    def held_out(self) -> bool:
        """Whether the seed is kept out of tuning."""
        return self.seed not in TUNING_SEEDS

    def deck_file(self) -> str:
        """The deck file (docs/formats.md) of an invented deck; the shipped one otherwise."""
        if self.style in ("trains", "rollecate"):
            raise ValueError(f"the {self.style} deck is shipped (host/decks/)")
        return _deck_json(self.style, self.seed)

    def mask(self, px_per_mm: float) -> Image:
        """The card's silhouette at a resolution (rounded corners)."""
        return card_mask(px_per_mm, self.card_mm, CORNER_MM)

    def scans(self, cards: Iterable[str] | None = None) -> dict[str, list[Image]]:
        """One flat scan (``SCAN_PX_PER_MM``) of each of ``cards`` (ids; default every card of
        the deck), as ``CardReferences`` is enrolled from."""
        chosen = [card.id for card in self.deck.cards] if cards is None else list(cards)
        return {card: [self.face(card, SCAN_PX_PER_MM)] for card in chosen}

    def face(self, name: str, px_per_mm: float) -> Image:
        """The face of card ``name`` (``deck/card`` or ``card``), BGR, portrait, top up."""
        key = (name, px_per_mm)
        if key not in self._faces:
            card = self.deck.card(name)
            draw = {"artwork": _artwork_face, "bordered": _bordered_face, "plain": _plain_face,
                    "trains": _trains_face, "rollecate": _rollecate_face}[self.style]
            self._faces[key] = draw(self, card, px_per_mm)
        return self._faces[key]


def styled_deck(style: str, seed: int = 0) -> StyledDeck:
    """The deck of ``style`` drawn from ``seed`` (ValueError for an unknown style)."""
    if style not in STYLES:
        raise ValueError(f"unknown deck style {style!r} (try {', '.join(STYLES)})")
    if style in ("trains", "rollecate"):
        return StyledDeck(style, seed, load_deck(style))
    return StyledDeck(style, seed, parse_deck(_deck_json(style, seed), f"{style} deck"))


def _canvas(deck: StyledDeck, px_per_mm: float, colour: tuple[int, int, int]) -> Image:
    width, height = deck.card_mm
    face = np.empty((round(height * px_per_mm), round(width * px_per_mm), 3), np.uint8)
    face[:] = colour
    return face


def _colour(rng: np.random.Generator, low: int = 0, high: int = 256) -> tuple[int, int, int]:
    red, green, blue = (int(v) for v in rng.integers(low, high, 3))
    return (red, green, blue)


def _paint(face: Image, rng: np.random.Generator, px_per_mm: float, shapes: int) -> None:
    """Random artwork over the whole of ``face``: a two-colour wash, then shapes and strokes."""
    height, width = face.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = (xs * np.cos(angle) + ys * np.sin(angle)) / max(width, height)
    ramp = (ramp - ramp.min()) / max(1e-6, float(ramp.max() - ramp.min()))
    first, second = np.array(_colour(rng)), np.array(_colour(rng))
    face[:] = np.clip(first * (1 - ramp[..., None]) + second * ramp[..., None], 0, 255)
    for _ in range(shapes):
        colour = _colour(rng)
        kind = rng.integers(0, 4)
        centre = (int(rng.uniform(-0.1, 1.1) * width), int(rng.uniform(-0.1, 1.1) * height))
        size = int(rng.uniform(0.08, 0.45) * width)
        if kind == 0:
            cv2.circle(face, centre, size, colour, -1, cv2.LINE_AA)
        elif kind == 1:
            axes = (size, int(size * rng.uniform(0.3, 1.0)))
            cv2.ellipse(face, centre, axes, float(rng.uniform(0, 180)), 0, 360, colour, -1,
                        cv2.LINE_AA)
        elif kind == 2:
            points = (np.array(centre) + rng.normal(0, size, (int(rng.integers(3, 6)), 2)))
            cv2.fillPoly(face, [points.astype(np.int32)], colour, cv2.LINE_AA)
        else:
            end = (int(rng.uniform(0, width)), int(rng.uniform(0, height)))
            cv2.line(face, centre, end, colour, max(1, int(rng.uniform(0.6, 3.0) * px_per_mm)),
                     cv2.LINE_AA)


def _badge(face: Image, text: str, px_per_mm: float, fill: tuple[int, int, int],
           ink: tuple[int, int, int]) -> None:
    """A corner badge with ``text``, top-left and (turned) bottom-right, as on playing cards."""
    for _ in range(2):
        centre = (round(9.5 * px_per_mm), round(10.0 * px_per_mm))
        cv2.circle(face, centre, round(8.0 * px_per_mm), fill, -1, cv2.LINE_AA)
        centred_text(face, text, (9.5, 10.0), 8.0, px_per_mm, ink, 0.17, max_width_mm=12.0)
        face[:] = face[::-1, ::-1]


def _artwork_face(deck: StyledDeck, card: Card, px_per_mm: float) -> Image:
    face = _canvas(deck, px_per_mm, (0, 0, 0))
    rng = np.random.default_rng([deck.seed, 1, card.number("artwork")])
    _paint(face, rng, px_per_mm, 12)
    fill = _colour(rng, 200, 256) if rng.random() < 0.7 else _colour(rng, 0, 60)
    ink = (20, 20, 20) if sum(fill) > 300 else (240, 240, 240)
    _badge(face, str(card.number("number")), px_per_mm, fill, ink)
    return face


def _bordered_face(deck: StyledDeck, card: Card, px_per_mm: float) -> Image:
    face = _canvas(deck, px_per_mm, (236, 240, 242))
    width, height = deck.card_mm
    rng = np.random.default_rng([deck.seed, 2, deck.deck.cards.index(card)])
    low, high = (round(5.5 * px_per_mm), round(13 * px_per_mm)), (round((width - 5.5) * px_per_mm),
                                                                   round((height - 19) * px_per_mm))
    picture = face[low[1]:high[1], low[0]:high[0]]
    _paint(picture, rng, px_per_mm, 8)
    ink = _colour(rng, 0, 90)
    centred_text(face, card.name.split("-")[0], (width / 2, height - 11.5), 4.5, px_per_mm, ink,
                 max_width_mm=width - 14)
    centred_text(face, str(card.number("value")), (8.0, 7.5), 4.0, px_per_mm, ink)
    return face


def _plain_face(deck: StyledDeck, card: Card, px_per_mm: float) -> Image:
    rng = np.random.default_rng([deck.seed, 3])
    paper, ink = _colour(rng, 200, 250), _colour(rng, 20, 110)
    face = _canvas(deck, px_per_mm, paper)
    width, height = deck.card_mm
    # The emblem every card shares: a ring with a star, the deck's plain design.
    centre = (round(width / 2 * px_per_mm), round(height * 0.58 * px_per_mm))
    cv2.circle(face, centre, round(13 * px_per_mm), ink, max(1, round(1.2 * px_per_mm)),
               cv2.LINE_AA)
    star = [(centre[0] + 9 * px_per_mm * np.sin(k * 4 * np.pi / 5),
             centre[1] - 9 * px_per_mm * np.cos(k * 4 * np.pi / 5)) for k in range(5)]
    cv2.polylines(face, [np.array(star, np.int32)], True, ink, max(1, round(px_per_mm)),
                  cv2.LINE_AA)
    centred_text(face, card.name, (width / 2, 20.0), 8.0, px_per_mm, ink,
                 max_width_mm=width - 16)
    return face


def _trains_face(deck: StyledDeck, card: Card, px_per_mm: float) -> Image:
    ability = card.text("ability")
    colour = ABILITY_COLOURS[ability]
    face = _canvas(deck, px_per_mm, tuple(min(255, c + 70) for c in colour))  # type: ignore[arg-type]
    width, height = deck.card_mm

    def mm(x: float, y: float) -> tuple[int, int]:
        return round(x * px_per_mm), round(y * px_per_mm)

    # Sky above, ground below, and a railcar on rails: the artwork of every card of an ability.
    cv2.rectangle(face, mm(0, 52), mm(width, height), colour, -1)
    cv2.rectangle(face, mm(9, 36), mm(width - 9, 50), (60, 60, 160), -1, cv2.LINE_AA)
    for x in (16, width - 16):
        cv2.circle(face, mm(x, 51), round(3.5 * px_per_mm), (30, 30, 30), -1, cv2.LINE_AA)
    cv2.line(face, mm(0, 55), mm(width, 55), (40, 40, 40), max(1, round(1.2 * px_per_mm)))
    number = str(card.number("number"))
    centred_text(face, number, (width / 2, 21.0), 17.0, px_per_mm, (255, 255, 255), 0.2,
                 max_width_mm=width - 20)
    centred_text(face, number, (7.0, 7.0), 4.5, px_per_mm, (255, 255, 255), 0.18)
    cv2.rectangle(face, mm(6, 60), mm(width - 6, height - 6), (235, 235, 235), -1, cv2.LINE_AA)
    stencil = np.zeros_like(face)
    draw_ability(stencil, ability, (*mm(8, 61), *mm(width - 8, height - 7)))
    face[stencil[..., 0] > 127] = colour
    return face


def _rollecate_face(deck: StyledDeck, card: Card, px_per_mm: float) -> Image:
    kind, value = card.text("kind"), card.number("value")
    background = {"track": (40, 80, 40), "broken": (40, 60, 90), "chaos": (90, 40, 90)}[kind]
    face = _canvas(deck, px_per_mm, background)
    width, height = deck.card_mm

    def mm(x: float, y: float) -> tuple[int, int]:
        return round(x * px_per_mm), round(y * px_per_mm)

    for y in np.arange(10.0, height - 8, 7.0):  # sleepers along the card, rails down it
        cv2.rectangle(face, mm(19, y), mm(width - 19, y + 3), (50, 100, 150), -1)
    for x in (25.0, width - 25):
        if kind == "broken":
            cv2.line(face, mm(x, 0), mm(x, 38), (200, 200, 200), max(1, round(1.6 * px_per_mm)))
            cv2.line(face, mm(x, 50), mm(x, height), (200, 200, 200),
                     max(1, round(1.6 * px_per_mm)))
        else:
            cv2.line(face, mm(x, 0), mm(x, height), (200, 200, 200),
                     max(1, round(1.6 * px_per_mm)))
    if kind == "broken":
        crack = np.array([[20, 40], [30, 44], [36, 41], [44, 47]], np.float64) * px_per_mm
        cv2.polylines(face, [crack.astype(np.int32)], False, (30, 30, 220),
                      max(1, round(1.8 * px_per_mm)), cv2.LINE_AA)
    if kind == "chaos":
        turns = np.linspace(0.0, 4.4 * np.pi, 100)
        radius = 1.0 + turns * 1.1
        points = np.stack([width / 2 + radius * np.cos(turns), 44 + radius * np.sin(turns)],
                          axis=1) * px_per_mm
        cv2.polylines(face, [points.astype(np.int32)], False, (200, 120, 240),
                      max(1, round(1.8 * px_per_mm)), cv2.LINE_AA)
    for _ in range(2):  # value and pips in two corners
        centred_text(face, str(value), (7.0, 8.0), 7.0, px_per_mm, (240, 240, 240), 0.18)
        for index in range(value):
            cv2.circle(face, mm(13.5, 5 + 3.6 * index), max(1, round(1.2 * px_per_mm)),
                       (60, 200, 240), -1, cv2.LINE_AA)
        face[:] = face[::-1, ::-1]
    return face
