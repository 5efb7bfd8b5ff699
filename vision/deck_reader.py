"""Reading the cards of any enrolled deck in a frame: outlines found (``vision.outline``), then
named from their whole faces (``vision.recognize``), frame after frame.

Only what changed is searched again: the frame is compared with the last one searched in blocks (4
x 4 pixels at 1280 x 720, 6 x 6 at 1920 x 1080: the same share of the table), cards touching no
changed block are kept as they were, and the outline search runs in windows round the changes alone
(``OutlineFinder.changes``); a change over half the table is searched as a new table. A card found
again whose outline has not moved (1.5 mm, 1.5 degrees) and whose pixels have not changed keeps its
name without being read again. An outline that matches no enrolled card at all (``CARD_SCORE``) is
not a card: a cloth's pattern or a hand's edge that happened to look like a card's outline. Nor is
an unnamed outline that shows the cloth (all of it, or half of it) or covers a marker
(``vision.cloth``), or that lies square against a named card, one of its sides along that card's
(``vision.outline.crosswise``). Beside a named card, a card's width along it, and a rail's spacing
along each outline of the search (where it looks like a card), where an outline of the search
lies but no named card, a card of its line is guessed and kept if named
(``DeckReader._beside_named``). A line's placing that a card read surely covers in part
straddles it and its neighbour, and is not named at all (``_straddling``). An outline read as no
card, or as a card too unsure to be named, that lies on cards rather than the cloth (a pile of
cards alike, whose top card's sides over the card below show no edge; a white-bordered pile,
whose top card's outline can lie on the picture's edge of the card below) is moved to where the
thumbnail is likest a card's and named there (``DeckReader._on_piles``).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import cv2
import numpy as np
import numpy.typing as npt

from vision.cloth import Cloth, ghosts, within
from vision.imaging import Image, Matrix, Points, frame_px, transform_points
from vision.outline import (
    LINE_GAP_MM,
    LINE_ROUNDS,
    MAX_OVERLAP,
    Changes,
    Outline,
    OutlineFinder,
    Window,
    apart,
    card_corners_mm,
    crosswise,
    raw_outlines,
    turn_apart,
)
from vision.recognize import CARD_SCORE, MIN_SCORE, CardReferences, Floats, Reading

CANDIDATE_OVERLAP = 0.6
"""Overlap (share of a card) of outlines that are all named before the better is kept."""
SAME_CARD_SHARE = 0.8
"""Share of a surely placed card's area (named, or scoring ``MIN_SCORE``) a line's placing
(``Outline.guess``) must cover to be another placing of that card (named too, the better
kept): along a Rollecate line the named outline can lie a rail off, and on the tuning deck's
tables the placings named covered such a card by 0.85-0.98, those left unnamed mostly by
0.3-0.75."""
CROSSWISE_SHARE = 0.5
"""Share of an unnamed outline's side lying along named cards' sides of the other kind
(``vision.outline.crosswise``) from which it is no card: on the tuning deck's tables at 1080p
ghosts showed 0.58-0.95, unnamed outlines on real cards never 0.2."""
RAIL_SHIFTS_MM = (24.0, 36.0)
"""How far along its width (either way) a card of a line is guessed from each outline of the
search: along a line of Rollecate's track cards on a hard table outlines lay 22-41 mm off their
cards, pulled by the rails, and naming slides a guess by up to 6 mm."""
SEED_TWIN_BAR = 2.0
"""How many times what the check of near twins asks (``CardReferences.read``'s ``twin_bar``,
``vision.twin_check.agreed``) a card on a line started from an outline must clear. It is placed
from a guess a few millimetres and a degree or two off, where the twin classifier (learnt with
outlines under a millimetre off) is out of its depth, and nothing of the line was named by its
own outline: at twice the bar the references' own check must reach 1.2 of ``MIN_BALANCE``
whatever the classifier says, and twice it (0.34, more than the 0.28 the check needed alone)
unless the classifier is sure by 4 of its margins. On the tuning deck's Rollecate tables at
1080p, 40 of the 155 right twins read on such lines cleared 1-2 times the bar."""
SEED_LIKENESS = 0.3
"""Thumbnail likeness (``CardReferences.thumbnails``, the likest reference's) a guess from an
outline needs before it is named: on the tuning deck's Rollecate tables at 1080p, 68 of the 78
such guesses that named a card had it, and 355 of the 3,621 that named none."""
PILE_CLOTH = 0.4
"""Share of the cloth's colours (``Cloth.shares``) under which an outline of the search read as
no card lies on cards: a pile's, its sides those of several cards (``DeckReader._on_piles``). On
the tuning deck's plain tables at 1080p (easy and medium) such outlines on the 22 piles whose top
card was missed showed 0.0-0.28 of the cloth, the outlines on the cloth read as no card 0.55-1.0
but for 10 of 144."""
PILE_STEPS = ((12.0, 12.0), (6.0, 6.0), (3.0, 3.0))
"""Steps (millimetres along each of its axes, degrees) of the pose round such an outline where
the thumbnail is likest a card's, coarse to fine: a pile's cards lie about 9 mm and 12 degrees
apart, and naming then slides the card by up to 6 mm."""
STILL_MM = 1.5
"""A card whose outline moved less than this since the last frame has not moved."""
STILL_DEGREES = 1.5
"""...nor turned more than this."""
STILL_GREY = 6.0
"""Mean grey-level change of a card's pixels below which it shows the same card."""
STILL_PEAK = 25.0
"""...and the change of its most changed spots (99.5th percentile after a 3 x 3 blur), below
which no stroke appeared or vanished (a number changed in a corner)."""
STILL_FRAME = (320, 180)
"""Size the whole frame is shrunk to (4 x 4 pixel blocks at 1280 x 720, 6 x 6 at 1920 x 1080)
to see whether anything at all changed since the last frame searched: a block is the same share
of the table at any resolution, and averages more of a finer camera's noise away."""
STILL_FRAME_GREY = 10.0
"""Largest block change (grey levels) of a frame in which nothing changed: sensor noise and
JPEG stay below it; a card laid, taken or turned, a hand, or a corner index changed exceed it."""
SAME_TABLE_PX = 0.5
"""Largest move of the table's corners in the picture (pixels at 1280 x 720, as many more as a
frame is wider) between two homographies under which cards found with the one are kept with the
other (the markers are found again every few frames, a little off each time)."""
STILL_PX_PER_MM = 1.0
"""Resolution of the picture kept to see whether a card changed."""


@dataclass(frozen=True)
class SeenCard:
    """A card read in a frame."""

    reading: Reading
    """Its name (or None), confidence and way round."""
    corners: Points
    """Its own corners in image pixels (top-left first, by its name's way round)."""
    table_corners: Points | None
    """The same in table millimetres, when the table is known."""
    outline: Outline | None = field(default=None, repr=False)
    """The outline it was found as (None on the raw view)."""
    look: Image | None = field(default=None, repr=False)
    """Its grey picture at ``STILL_PX_PER_MM``, to see whether it changed."""
    seeded: bool = False
    """Named on a line started from an unnamed outline (``DeckReader._beside_named``), or found
    as a pile's top card by its thumbnail (``DeckReader._on_piles``): too unsure a card to teach
    the ghost rule the cards' colours."""


class _Walk(NamedTuple):
    """One step still to take along a line of touching cards (``DeckReader._beside_named``)."""

    start: Points
    """Where from: the table corners of a named card or of an outline."""
    way: npt.NDArray[np.float64]
    """Which way along the start's width."""
    step: float
    """How far, millimetres: a card's width and a gap, or a rail's spacing."""
    look: bool
    """Started from an outline: the thumbnail is looked at before naming, and a card named
    there walks on both ways (the outline may have lain on either side of it)."""
    seeded: bool
    """On a line started from an outline: its cards are named only as ``_confirmed``."""


@dataclass
class DeckReader:
    """Finds and names the cards of one enrolled deck, frame after frame."""

    references: CardReferences
    """The enrolled faces."""
    finder: OutlineFinder = field(init=False)
    _last: list[SeenCard] = field(default_factory=list, repr=False)
    _last_frame: tuple[Image, Matrix] | None = field(default=None, repr=False)
    """The last frame searched (shrunk, grey) and its homography."""
    _view: Image | None = field(default=None, repr=False)
    """The table seen from above (``OutlineFinder.view``) as last searched: the whole of it
    when the table was searched whole, each window searched since put in."""
    searched: list[Window] | None = field(default=None, repr=False)
    """Where the last frame was searched for cards: windows of the top-down view round what
    changed (None: the whole table; empty: nowhere, nothing changed)."""

    def __post_init__(self) -> None:
        self.finder = OutlineFinder(self.references.card_mm)

    def read(self, frame: Image, image_to_table: Matrix | None) -> list[SeenCard]:
        """Every card in a BGR frame (``image_to_table``: the table's homography, if known)."""
        colour = frame if frame.ndim == 3 else np.asarray(
            cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR), np.uint8)
        cards: list[SeenCard] = []
        if image_to_table is None:
            for corners in raw_outlines(colour, self.references.card_mm):
                reading = self.references.read(colour, corners, CARD_SCORE)
                if reading.score >= CARD_SCORE:
                    cards.append(SeenCard(reading, _turn(reading.corners, reading.turned), None))
            self._last, self._last_frame = [], None
            return cards
        shrunk = np.asarray(cv2.resize(cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY), STILL_FRAME,
                                       interpolation=cv2.INTER_AREA), np.uint8)
        changes: Changes | None = None
        last = self._last_frame
        if last is not None and _same_table(last[1], image_to_table, self.finder,
                                            frame_px(SAME_TABLE_PX, colour.shape[1])):
            changed = cv2.absdiff(shrunk, last[0]) > STILL_FRAME_GREY
            if not changed.any():
                self.searched = []
                return self._last  # nothing moved anywhere: the same cards, the same names
            changes = self.finder.changes(changed, (colour.shape[1], colour.shape[0]),
                                          last[1])
        if changes is None:
            self._last_frame = (shrunk, image_to_table)
            self.searched = None
            self._view = self.finder.view(colour, image_to_table)
            outlines = self.finder.find(colour, image_to_table, CANDIDATE_OVERLAP, rivals=True,
                                        view=self._view)
        else:
            # Only the blocks seen to change take the new look: a slow drift elsewhere still
            # adds up against the old one until it is searched.
            assert last is not None and self._view is not None
            image_to_table = last[1]
            self._last_frame = (np.where(changed, shrunk, last[0]), image_to_table)
            self.searched = changes.windows
            outlines = []
            for left, top, right, bottom in changes.windows:
                part = self.finder.view(colour, image_to_table, (left, top, right, bottom))
                self._view[top:bottom, left:right] = part
                outlines += [outline for outline in self.finder.find(
                    colour, image_to_table, CANDIDATE_OVERLAP, (left, top, right, bottom), True,
                    part) if changes.touches(outline.corners)]
            cards = [card for card in self._last if not _touched(card, changes)]
        kept = [id(card) for card in cards]
        to_image = np.asarray(np.linalg.inv(image_to_table), np.float64)
        # A card lying still keeps its place on the table: where the camera moved, its
        # picture moved from where the last frame's table put it.
        then_to_now = to_image @ last[1] if last is not None else np.eye(3)
        # Outlines that overlap much are all named, then the better named kept: along a line
        # of touching cards an outline straddling two can fit the edges as well as the true
        # one, but not a reference's picture.
        unread, unsure = [], []
        for outline in outlines:
            if outline.guess and _straddling(outline, cards, self.references.card_mm):
                continue
            card = self._named(colour, outline, image_to_table, to_image, then_to_now)
            if card is not None:
                cards.append(card)
                if not outline.guess and not _sure(card):
                    unsure.append(card)
            elif not outline.guess:
                unread.append(outline)
        cards += self._beside_named(colour, cards, outlines, image_to_table, to_image,
                                    then_to_now, changes)
        cards = self._on_piles(colour, cards, unread, unsure, image_to_table, to_image,
                               then_to_now)
        cards = _apart_without_ghosts(within(self._view, self.finder.table_to_view), cards,
                                      kept, self.references.card_mm)
        self._last = cards
        return cards

    def _named(self, colour: Image, outline: Outline, image_to_table: Matrix,
               to_image: Matrix, then_to_now: Matrix, twin_bar: float = 1.0,
               thumbnails: Floats | None = None) -> SeenCard | None:
        """The card read at ``outline`` (remembered from the last frame where it lies unmoved
        and looks the same); None where it is no card (``CARD_SCORE``), or a guess
        (``Outline.guess``) that names none. ``to_image``: ``image_to_table`` inverted;
        ``twin_bar``, ``thumbnails``: ``CardReferences.read``'s."""
        corners = transform_points(to_image, outline.corners)
        look = np.asarray(cv2.cvtColor(self.references.sample(
            colour, corners, STILL_PX_PER_MM), cv2.COLOR_BGR2GRAY), np.uint8)
        reading = (self._remembered(outline, look, then_to_now)
                   or self.references.read(colour, corners, CARD_SCORE, outline.guess,
                                           twin_bar, thumbnails))
        if reading.score < CARD_SCORE or (outline.guess and reading.name is None):
            return None
        placed = reading.corners
        return SeenCard(reading, _turn(placed, reading.turned),
                        _turn(transform_points(image_to_table, placed), reading.turned),
                        outline, look)

    def _beside_named(self, colour: Image, cards: list[SeenCard], outlines: list[Outline],
                      image_to_table: Matrix, to_image: Matrix, then_to_now: Matrix,
                      changes: Changes | None) -> list[SeenCard]:
        """Cards of a line of touching cards found from their named neighbours: beside each
        named card, a card's width plus ``LINE_GAP_MM`` along its width either way, where no
        named card lies but one of the search's ``outlines`` does (a quarter of a card), a
        card is guessed (``Outline.guess``: kept only if it names one), and the line walked
        on from each so named, up to ``LINE_ROUNDS`` cards. A line with no card named is
        started from its outlines: each is guessed ``RAIL_SHIFTS_MM`` along its width either
        way, where the thumbnail there looks like a card (``SEED_LIKENESS``); every card of a
        line so started is named only as ``_confirmed`` and is ``seeded``.

        Along a line of Rollecate's track cards whose sides hardly show against the cloth
        (a brown broken track on a brown cloth) the outline search's outlines lie a rail's
        spacing off, and the line's ends, where its cards are cut, cannot be told; a named
        neighbour places the card as surely as its own edges would. Beside a loose card or
        a line's end, where no outline lies, is mostly the cloth: naming it costs as much as
        naming a card and, on the tuning tables, found none."""
        width, height = self.references.card_mm
        area = width * height
        found: list[SeenCard] = []
        named = [card.table_corners for card in cards
                 if card.reading.name is not None and card.table_corners is not None]
        walks = [_Walk(corners, sign * _width_axis(corners), width + LINE_GAP_MM, False, False)
                 for corners in named for sign in (-1.0, 1.0)]
        # On a hard table a whole line can go unnamed, each outline on it a rail's spacing
        # off its card (too far for naming's slide) and read as no card at all. An outline
        # read surely as a card lies on it: guesses a rail's spacing from it straddle it
        # (on a new artwork table, mostly near twins left null, they doubled naming's CPU).
        placed = {id(card.outline) for card in cards if card.outline is not None and _sure(card)}
        walks += [_Walk(outline.corners, sign * _width_axis(outline.corners), shift, True, True)
                  for outline in outlines if id(outline) not in placed
                  for sign in (-1.0, 1.0) for shift in RAIL_SHIFTS_MM]
        taken, searched = _Discs(named), _Discs([outline.corners for outline in outlines])
        for _ in range(LINE_ROUNDS):
            going = []
            for walk in walks:
                axis = _width_axis(walk.start)
                # A card named the other way round lists its corners from its other end.
                axis = axis if axis @ walk.way >= 0 else -axis
                corners = walk.start + walk.step * axis
                if changes is not None and not changes.touches(corners):
                    continue
                if taken.covers(corners, MAX_OVERLAP * area):
                    continue
                if not searched.covers(corners, MAX_OVERLAP * area):
                    continue
                guess = _guess(corners, axis, (width, height))
                # Most outlines lie on the cloth or beside a named card: a look at the
                # thumbnail costs a sliver of a naming (which shortlists by that look).
                thumbnails = (self.references.thumbnails(
                    colour, transform_points(to_image, guess.corners)) if walk.look else None)
                if thumbnails is not None and float(thumbnails.max()) < SEED_LIKENESS:
                    continue
                card = (self._confirmed(colour, guess, image_to_table, to_image, then_to_now,
                                        thumbnails) if walk.seeded else
                        self._named(colour, guess, image_to_table, to_image, then_to_now))
                if card is not None and card.table_corners is not None:
                    found.append(card)
                    taken.add(card.table_corners)
                    # A card named from an outline walks its line both ways: the outline
                    # may have lain on either side of it.
                    going += [_Walk(card.table_corners, sign * axis, width + LINE_GAP_MM,
                                    False, walk.seeded)
                              for sign in ((1.0, -1.0) if walk.look else (1.0,))]
            walks = going
        return found

    def _on_piles(self, colour: Image, cards: list[SeenCard], unread: list[Outline],
                  unsure: list[SeenCard], image_to_table: Matrix, to_image: Matrix,
                  then_to_now: Matrix) -> list[SeenCard]:
        """``cards`` with the top cards of piles found, from the outlines of the search read
        as no card (``unread``) or as a card too unsure to be named (``unsure``: neither named
        nor ``_sure``, which a pile's top card found is taken in place of) that lie on cards
        (``PILE_CLOTH``) where no other card was read (by a quarter of a card): each is moved
        to where the thumbnail there is likest a card's (``PILE_STEPS``) and named there with
        ``SEED_TWIN_BAR``, and kept only where it is read surely (``_sure``; named, in place
        of an unsure card) and no other card read covers it by a quarter. Such a card is
        ``seeded``: taught the cards' colours by it (unnamed cards of a Rollecate line, found
        so on a hard 720p table), the ghost rule took a track card the cloth's colour for
        the cloth.

        A pile's top card of a deck whose backs or faces are alike (a plain deck) shows no
        edge where it lies over the card below: its outline shows only where it lies over the
        cloth, and the outline search fits one to the sides of several of the pile's cards,
        which reads as no card. Its picture, though, is whole. A white-bordered top card's
        outline can lie on the picture's edge of the card below, 3-21 mm off it, where it
        reads as a card too poorly to be named."""
        width, height = self.references.card_mm
        least = MAX_OVERLAP * width * height
        read = [card for card in cards if card.table_corners is not None]
        corners = [card.table_corners for card in read if card.table_corners is not None]
        taken = _Discs(corners)
        starts: list[tuple[Outline, SeenCard | None]] = [
            (outline, None) for outline in unread if not taken.covers(outline.corners, least)]
        starts += [(card.outline, card) for card in unsure if card.outline is not None
                   and not taken.covers(card.outline.corners, least, card.table_corners)]
        if not starts or self._view is None:
            return cards
        cloth = Cloth.of(within(self._view, self.finder.table_to_view), corners,
                         [_sure(card) and not card.seeded for card in read])
        if cloth is None:
            return cards
        found: list[SeenCard] = []
        placed: set[int] = set()
        for outline, own in starts:
            # An unsure card's own outline is no other card lying on it.
            mine = None if own is None else own.table_corners
            others = [spot for spot in corners if spot is not mine]
            if (taken.covers(outline.corners, least, mine)
                    or cloth.shares(outline.corners, others)[0] >= PILE_CLOTH):
                continue
            card = self._named(colour, self._likest(colour, outline, to_image),
                               image_to_table, to_image, then_to_now, SEED_TWIN_BAR)
            if (card is None or card.table_corners is None or not _sure(card)
                    or (own is not None and card.reading.name is None)
                    or taken.covers(card.table_corners, least, mine)):
                continue
            found.append(replace(card, seeded=True))
            taken.add(card.table_corners)
            if own is not None:
                placed.add(id(own))
        return [card for card in cards if id(card) not in placed] + found

    def _likest(self, colour: Image, outline: Outline, to_image: Matrix) -> Outline:
        """The pose round ``outline`` (``PILE_STEPS``) whose colour thumbnail is likest one of
        the deck's cards, as an outline."""
        centre, degrees = np.array(outline.centre, np.float64), outline.degrees
        steps = np.array(list(itertools.product((-1.0, 0.0, 1.0), repeat=3)))
        for step_mm, step_degrees in PILE_STEPS:
            radians = np.radians(degrees)
            axes = np.array([[np.cos(radians), np.sin(radians)],
                             [-np.sin(radians), np.cos(radians)]])
            trials = [(centre + step_mm * (dx * axes[0] + dy * axes[1]),
                       degrees + step_degrees * dt) for dx, dy, dt in steps]
            likeness = [float(self.references.thumbnails(colour, transform_points(
                to_image, card_corners_mm((float(spot[0]), float(spot[1])), turn,
                                          self.references.card_mm))).max())
                        for spot, turn in trials]
            centre, degrees = trials[int(np.argmax(likeness))]
        spot = (float(centre[0]), float(centre[1]))
        return Outline(spot, degrees % 180.0, 0.0,
                       card_corners_mm(spot, degrees % 180.0, self.references.card_mm))

    def _confirmed(self, colour: Image, guess: Outline, image_to_table: Matrix,
                   to_image: Matrix, then_to_now: Matrix, thumbnails: Floats | None = None
                   ) -> SeenCard | None:
        """The card named at ``guess``, on a line started from an outline (``seeded``), read
        again where its naming slid it, each time with ``SEED_TWIN_BAR``; None unless it
        names the same card there. Such a guess can lie up to 12 mm off (from an outline a
        rail's spacing away, or carried on along the line from one), at the end of naming's
        slide, where a near twin's classifier may pick the wrong twin (``thumbnails``:
        ``CardReferences.thumbnails`` at ``guess``, where they were looked at)."""
        card = self._named(colour, guess, image_to_table, to_image, then_to_now,
                           SEED_TWIN_BAR, thumbnails)
        if card is None:
            return None
        corners = transform_points(image_to_table, card.reading.corners)
        again = self._named(colour, _guess(corners, _width_axis(corners)), image_to_table,
                            to_image, then_to_now, SEED_TWIN_BAR)
        return (replace(again, seeded=True)
                if again is not None and again.reading.name == card.reading.name else None)

    def _remembered(self, outline: Outline, look: Image, then_to_now: Matrix
                    ) -> Reading | None:
        """The reading of a card of the last frame found again at ``outline`` unmoved on the
        table and looking the same (``look``: its picture sampled from the outline's
        corners), its corners taken from the last frame's picture to this one's by
        ``then_to_now``."""
        for card in self._last:
            before = card.outline
            if before is None or card.look is None:
                continue
            moved = float(np.hypot(*np.subtract(outline.centre, before.centre)))
            turned = turn_apart(outline.degrees, before.degrees)
            if moved > STILL_MM or turned > STILL_DEGREES or card.look.shape != look.shape:
                continue
            # An outline's corners start from its turn modulo 180 degrees: across 0/180 they
            # start at the other end, and its picture is sampled the other way up. The
            # reading's corners and way round stay as they were, true to each other.
            wrapped = abs(outline.degrees - before.degrees) > 90.0
            change = cv2.absdiff(card.look, look[::-1, ::-1] if wrapped else look)
            peak = float(np.percentile(cv2.blur(change, (3, 3)), 99.5))
            if float(change.mean()) <= STILL_GREY and peak <= STILL_PEAK:
                return replace(card.reading,
                               corners=transform_points(then_to_now, card.reading.corners))
        return None


def _apart_without_ghosts(view: Image, cards: list[SeenCard], kept: list[int],
                          card_mm: tuple[float, float]) -> list[SeenCard]:
    """``cards`` without ghosts (``_without_ghosts``, on the table seen from above in
    ``view``; ``kept``: its own) and, of two overlapping by more than ``MAX_OVERLAP`` of a card
    (``apart``), one only: the better read, unless it is a ghost beside the other.

    An outline pushed half off an unnamed card (a Trains-look card's white band and the
    striped cloth beyond, on a hard 720p tuning table) can read better than the card's own
    outline and take its place; judged beside that outline its own part is the cloth, judged
    alone only part of it is. So the ghosts are judged among every card found before they
    are told apart, and those found there lose to any card they overlap; they are not dropped
    there, as among outlines of the same card (which ``apart`` then tells apart) one's own
    part is a sliver of its rim, and on the tuning tables real unnamed cards went so. A named
    card's outline also no longer loses to an unnamed outline of the same card that the rule
    so calls a ghost. On the tuning deck's hard tables at 720p (scenes 300-316): ghosts 9 -> 8,
    found the same or one more (Trains look), correct up by 7 (of 1,463 cards), no wrong
    name."""
    judged = {id(card) for card in _without_ghosts(view, cards, kept)}
    ranks = [card.reading.score - (0.0 if id(card) in judged else GHOST_RANK) for card in cards]
    cards = [cards[index] for index in apart(
        [card.table_corners for card in cards if card.table_corners is not None], ranks,
        card_mm)]
    return _without_ghosts(view, cards, kept)


GHOST_RANK = 10.0
"""Taken off the rank (its reading's score, at most 1) of an outline judged a ghost among
every card found, so that it loses to any card it overlaps (``_apart_without_ghosts``); not a
tuned figure: any number above the scores' range orders alike."""


def _without_ghosts(view: Image, cards: list[SeenCard], kept: list[int]) -> list[SeenCard]:
    """``cards`` without the unnamed outlines that show the cloth or a marker
    (``vision.cloth.ghosts``, on the table seen from above in ``view``) or that lie square
    against a named card, one side along its side of the other kind (``crosswise``); those
    ``kept`` from the last frame (by ``id``) were judged when found."""
    outlines = [card.table_corners for card in cards if card.table_corners is not None]
    doubtful = [card.reading.name is None and id(card) not in kept for card in cards]
    if len(outlines) < len(cards) or not any(doubtful):
        return cards
    # A card named on a line started from an outline is the least sure of the named: it
    # would shift the colours learnt as the cloth's, and with them the verdict on outlines
    # judged before without it.
    sure = [_sure(card) and not card.seeded for card in cards]
    verdict = ghosts(view, outlines, doubtful, sure)
    # A named card's sides are its own rim; an unnamed outline turned square to it that
    # takes one of them for its own (beside a line of cards, its long side along their short
    # ones; across a loose card's end) has found its other sides in the cloth. On the tuning
    # tables no unnamed outline on a real card lay so along a named card's side by even 0.2.
    named = [corners for corners, card in zip(outlines, cards, strict=True)
             if card.reading.name is not None]
    for index, card in enumerate(cards):
        if doubtful[index] and not verdict[index]:
            found = card.outline.corners if card.outline is not None else outlines[index]
            verdict[index] = crosswise(found, named) >= CROSSWISE_SHARE
    return [card for card, ghost in zip(cards, verdict, strict=True) if not ghost]


def _same_table(before: Matrix, now: Matrix, finder: OutlineFinder, most_px: float) -> bool:
    """Whether two homographies see the table alike: the markers, found again, moved its
    corners less than ``most_px`` in the picture."""
    width, height = finder.size
    corners = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float64)
    view_to_table = np.linalg.inv(finder.table_to_view)
    moved = (transform_points(np.linalg.inv(before) @ view_to_table, corners)
             - transform_points(np.linalg.inv(now) @ view_to_table, corners))
    return float(np.hypot(*moved.T).max()) < most_px


def _touched(card: SeenCard, changes: Changes) -> bool:
    """Whether a card read before touches a changed part of the frame (where it was found or
    where its name placed it)."""
    return any(corners is not None and changes.touches(corners) for corners in
               (card.table_corners, card.outline.corners if card.outline else None))


def _straddling(placing: Outline, cards: list[SeenCard], card_mm: tuple[float, float]
                ) -> bool:
    """Whether a card surely placed (named, or ``MIN_SCORE``: its best reference's picture fits
    it) covers a line's placing by more than ``MAX_OVERLAP`` of a card (so it could only be
    kept in that card's place) but under ``SAME_CARD_SHARE`` (so it is no other placing of
    that card): the placing straddles that card and its neighbour, and naming it (as much as
    naming a card) would name none. Lines are placed a pitch from every pose found on them,
    and most poses a better one covers lie a part of a card off. An unnamed card scoring less
    can lie a rail off: along Rollecate lines on the tuning deck's tables, placings that named
    a card covered such outlines (scoring 0.34-0.40) by 0.74-0.80."""
    area = card_mm[0] * card_mm[1]
    return any(_sure(card) and card.table_corners is not None
               and MAX_OVERLAP * area < _shared(placing.corners, card.table_corners)
               < SAME_CARD_SHARE * area for card in cards)


class _Discs:
    """Cards (corners in table millimetres) that a card is tested against for overlap, each
    held with the disc round it: only those whose disc meets the card's are intersected (a
    walk along a line tests each of its guesses against every outline of a new table)."""

    def __init__(self, cards: list[Points]) -> None:
        self._cards: list[Points] = []
        self._centres = np.zeros((0, 2))
        self._radii = np.zeros(0)
        for corners in cards:
            self.add(corners)

    def add(self, corners: Points) -> None:
        """One more card."""
        centre, radius = _disc(corners)
        self._cards.append(corners)
        self._centres = np.vstack([self._centres, centre])
        self._radii = np.append(self._radii, radius)

    def covers(self, corners: Points, least: float, besides: Points | None = None) -> bool:
        """Whether one of the cards (but ``besides``, the very corners held) shares more than
        ``least`` (square millimetres) with the card at ``corners``."""
        centre, radius = _disc(corners)
        near = np.hypot(*(self._centres - centre).T) < self._radii + radius
        return any(_shared(corners, self._cards[index]) > least
                   for index in np.flatnonzero(near) if self._cards[index] is not besides)


def _disc(corners: Points) -> tuple[npt.NDArray[np.float64], float]:
    """The centre of a card's corners and the radius round it that holds them all."""
    centre = np.asarray(corners.mean(axis=0), np.float64)
    return centre, float(np.hypot(*(corners - centre).T).max())


def _sure(card: SeenCard) -> bool:
    """Whether a card lies surely where it was read: named, or its best reference's picture
    fits it (``MIN_SCORE``)."""
    return card.reading.name is not None or card.reading.score >= MIN_SCORE


def _shared(first: Points, second: Points) -> float:
    """Area two cards (corners in table millimetres) share."""
    return float(cv2.intersectConvexConvex(first.astype(np.float32),
                                           second.astype(np.float32))[0])


def _width_axis(corners: Points) -> npt.NDArray[np.float64]:
    """Unit vector along a card's width (corners top-left first), from its top-left corner."""
    axis = np.asarray(corners[1] - corners[0], np.float64)
    return np.asarray(axis / np.hypot(*axis), np.float64)


def _guess(corners: Points, axis: npt.NDArray[np.float64],
           card_mm: tuple[float, float] | None = None) -> Outline:
    """A guessed outline (``Outline.guess``) at ``corners``, its width along ``axis``; with
    ``card_mm``, a card of that size squared about their centre."""
    middle = corners.mean(axis=0)
    centre = (float(middle[0]), float(middle[1]))
    degrees = float(np.degrees(np.arctan2(axis[1], axis[0]))) % 180.0
    return Outline(centre, degrees, 0.0,
                   corners if card_mm is None else card_corners_mm(centre, degrees, card_mm),
                   guess=True)


def _turn(corners: Points, turned: bool) -> Points:
    return np.roll(corners, 2, axis=0) if turned else corners
