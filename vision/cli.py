"""``conductor vision ...``: markers, printable decks, enrollment, identification, watching.

Registered through ``host.cli.COMMAND_MODULES``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import cv2

from host.arguments import count as frame_count
from host.arguments import seed
from host.deck import deck_from
from host.errors import BadInputError, warn
from host.jsonl import loads
from host.trains.observation import TrainsObservation
from vision.annotate import annotate
from vision.calibration import (
    calibration_options,
    chosen_calibration,
    default_calibration,
    save_calibration,
)
from vision.camera import CameraFrame, RenderedCamera, camera_opener
from vision.deck_references import DECKS, DeckReferences, deck_references, enrolled_in_part
from vision.imaging import read_image, scaled_for_reading, size_read, write_image
from vision.pipeline import Pipeline
from vision.printing import write_deck, write_markers
from vision.readings import Zones
from vision.recognize import (
    COMMON_RUNGS,
    LADDER_PX_PER_MM,
    WEBCAM_VIEWS,
    CardReferences,
    Group,
    too_alike,
)
from vision.rollecate_zones import RollecateZones
from vision.scene import DIFFICULTIES, render_table
from vision.trains_zones import TrainsZones
from vision.watcher import TableWatcher


def _image_file(path: Path) -> Path:
    """A file name to write an image to, or BadInputError before any work is done."""
    if path.is_dir() or not cv2.haveImageWriter(str(path)):
        raise BadInputError(f"cannot write an image to {path}: give a file name ending in "
                            ".png or .jpg")
    return path


def _markers(args: argparse.Namespace) -> int:
    if args.out.suffix.lower() != ".pdf":
        _image_file(args.out)
    write_markers(args.out)
    print(f"wrote the table markers to {args.out}")
    return 0


def _deck(args: argparse.Namespace) -> int:
    # Checked before the faces are drawn (seconds of work) rather than after.
    pdf = args.out.suffix.lower() == ".pdf"
    if args.out.exists() and args.out.is_dir() == pdf:
        raise BadInputError(f"{args.out} exists and is not a {'file' if pdf else 'folder'}")
    count = write_deck(args.deck, args.out)
    print(f"wrote {count} card faces of {args.deck} to {args.out}")
    return 0


def _enroll(args: argparse.Namespace) -> int:
    from vision.enroll import enroll, enroll_faces

    deck = deck_from(args.deck)
    shipped_faces = deck.name in DECKS and not Path(args.deck).is_file()
    if args.glyphs and not shipped_faces:
        raise BadInputError("--glyphs works for the trains deck drawn by Conductor only")
    out = args.out or args.folder / f"{deck.name}.references.npz"
    if shipped_faces and not args.published:
        references = enroll(deck.name, args.folder, glyphs=args.glyphs)
        references.save(out)
        print(f"enrolled {len(references.cards)} cards ({len(references.names)} pictures) of "
              f"{deck.name} into {out}")
        return 0
    faces = enroll_faces(deck, args.folder)
    # A new table's first frame would otherwise learn them (seconds for a large deck).
    faces.learn_twins(progress=_twins_learnt)
    faces.save(out)
    _report(faces, deck.name, [card.id for card in deck.cards])
    print(f"enrolled {len(faces.cards)} cards ({len(faces.names)} pictures) of {deck.name} "
          f"into {out}")
    return 0


def _twins_learnt(done: int, groups: int, group: Group) -> None:
    print(f"learnt near twins {done}/{groups} ({len(group)} cards) at {len(COMMON_RUNGS)} "
          f"resolutions, {LADDER_PX_PER_MM[0]:.2f}-{LADDER_PX_PER_MM[1]:.2f} px/mm", flush=True)


def _report(faces: CardReferences, deck: str, cards: list[str]) -> None:
    """Every card learnt, every card missing, and every pair the camera cannot tell apart."""
    pictures = {name: faces.names.count(name) for name in faces.cards}
    for name, count in pictures.items():
        print(f"learnt {name} ({count} picture{'s' if count > 1 else ''})")
    missing = [name for name in cards if name not in pictures]
    if missing:
        # Their own names are never given, but no picture says what they look like: a card of
        # theirs whose only look-alike is enrolled is told from it by the whole-card match
        # alone (docs/vision.md, Limits).
        print(f"not enrolled: {', '.join(missing)} (never named; but a deck enrolled in part "
              "names fewer look-alike cards, and cannot rule out taking a card left out for one "
              "that looks like it: enroll every card in play)")
    for camera, px_per_mm in WEBCAM_VIEWS:
        pairs = too_alike(faces, px_per_mm)
        print(f"too alike to tell apart, assuming {camera}: "
              + (", ".join(f"{a} / {b}{' (turned)' if turned else ''}" for a, b, turned in pairs)
                 or "none"))


def _warn_if_in_part(args: argparse.Namespace, references: DeckReferences) -> None:
    """A line on stderr if some cards of the deck read are not enrolled (looking at cards
    needs no whole deck, unlike a game); said once the command has done its work, so that a
    command that fails still says one line only."""
    missing = enrolled_in_part(references, args.deck, args.references)
    if missing is not None:
        warn(missing)


def _identify(args: argparse.Namespace) -> int:
    images = [read_image(path) for path in args.images]  # a bad picture fails before any work
    references = deck_references(args.deck, args.references)
    empty = chosen_calibration(args.calibration, args.no_calibration)
    results: list[dict[str, Any]] = []
    sizes: list[str] = []
    pipeline = Pipeline(deck=references.deck, references=references)
    if empty is not None:
        pipeline.use_empty_table(empty.scaled(), warn)
    for path, photo in zip(args.images, images, strict=True):
        image, factor = scaled_for_reading(photo)
        reading = pipeline.read(image)
        # Corners are told in the photo's own pixels, however it was read.
        cards = [card.in_photo(factor).to_json() for card in reading.cards]
        results.append({"image": str(path), "table_found": reading.image_to_table is not None,
                        "cards": cards})
        sizes.append(size_read(photo, image))
    if args.json:
        print(json.dumps(results if len(results) > 1 else results[0]))
        _warn_if_in_part(args, references)
        return 0
    for result, size in zip(results, sizes, strict=True):
        print(f"{result['image']} ({size}): {len(result['cards'])} cards"
              + ("" if result["table_found"] else " (no table markers: raw view)"))
        for card in result["cards"]:
            x, y = card["centre"]
            name = card["name"] or "unknown"
            print(f"  {name:<16} confidence {card['confidence']:.2f}  centre {x:.0f},{y:.0f}  "
                  f"corners {card['corners']}")
    _warn_if_in_part(args, references)
    return 0


def _zones(deck: str, players: int | None) -> Zones | None:
    """The zones of the game ``deck`` belongs to (Rollecate's need the seats)."""
    if deck == "trains":
        return TrainsZones(players)
    return RollecateZones(players) if deck == "rollecate" and players is not None else None


def _demo_game() -> list[TrainsObservation]:
    """A few moves of a three-player game, for ``watch --camera rendered``."""
    lines = ((12, 30, 5, 61, 44, 2, 70), (8, 19, 33, 71, 54, 27, 66), (40, 3, 58, 22, 81, 15, 49))
    first = TrainsObservation(lines, (55, 7), ())
    second = TrainsObservation(((12, 30, 5, 61, 44, 2, 36), *lines[1:]), (55, 7, 70), ())
    third = TrainsObservation(second.lines, (55, 70), ((1, "left"),))
    return [first, second, third]


def _frames(source: str) -> Iterable[CameraFrame]:
    if source == "rendered":
        return RenderedCamera(_demo_game(), seed=1, level="easy")
    return camera_opener(source)()


def _calibrate(args: argparse.Namespace) -> int:
    if args.camera == "rendered":  # an empty rendered table, to try the command without one
        image = render_table(TrainsObservation(((), (), ()), (), ()), 1, "easy")[0]
    else:
        frame = next(iter(_frames(args.camera)), None)
        if frame is None:
            raise BadInputError(f"camera {args.camera!r} gave no frames")
        image = frame.image
    out: Path = args.out or default_calibration()
    if out.suffix.lower() != ".json" or out.is_dir():
        raise BadInputError(f"--out {out}: give a file name ending in .json (the empty table's "
                            "frame is kept beside it, as .png)")
    seen, picture = save_calibration(out, image)
    width, height = seen["resolution"]
    used = ("identify, watch, play and score from a photo now find an enrolled deck's cards "
            "with it (--no-calibration: without)" if args.out is None else
            "identify, watch, play and score from a photo find an enrolled deck's cards with "
            f"it when given --calibration {out}")
    print(f"{width} x {height} pixels; markers found; cloth colour (BGR) {seen['cloth_bgr']}; "
          f"light unevenness {seen['light_unevenness']:.0%}; kept in {out} with the empty "
          f"table's frame ({picture.name}): {used}")
    return 0


def _watch(args: argparse.Namespace) -> int:
    frames = _frames(args.camera)  # a camera that is not there fails before any work
    references = deck_references(args.deck, args.references)
    empty = chosen_calibration(args.calibration, args.no_calibration)
    pipeline = Pipeline(deck=references.deck, zones=_zones(references.deck, args.players),
                        references=references)
    if empty is not None:
        pipeline.use_empty_table(empty, warn)
    watcher = TableWatcher(pipeline)
    display = bool(os.environ.get("DISPLAY")) and not args.out
    out: Path = args.out or Path("vision-watch")
    shown = 0
    for index, frame in enumerate(frames):
        if args.frames is not None and index >= args.frames:
            break
        reading, event = watcher.read(frame.timestamp, frame.image)
        if event is not None:
            print(json.dumps({"t": round(frame.timestamp, 3), "observation": event.to_json()}),
                  flush=True)
        # A frame with something moving over the table is not read: shown as it is.
        picture = frame.image if reading is None else annotate(frame.image, reading)
        if display:
            cv2.imshow("conductor vision watch", picture)
            if cv2.waitKey(1) & 0xFF in (ord("q"), 27):
                break
        else:
            write_image(out / f"frame-{index:05d}.jpg", picture)
        shown += 1
    if shown == 0:
        raise BadInputError(f"camera {args.camera!r} gave no frames")
    if not display:
        print(f"wrote {shown} annotated frames to {out}", file=sys.stderr)
    _warn_if_in_part(args, references)
    return 0


def _render(args: argparse.Namespace) -> int:
    _image_file(args.out)
    if args.observation is not None:
        try:
            observation = TrainsObservation.from_json(loads(args.observation))
        except json.JSONDecodeError as error:
            raise BadInputError(f"--observation is not JSON ({error.msg})") from None
    else:
        observation = _demo_game()[0]
    image, truth = render_table(observation, args.seed, args.level)
    write_image(args.out, image)
    cards = [{"name": card.name, "corners": card.corners.round(1).tolist(),
              "occluded": card.occluded, "zone": card.zone} for card in truth.cards]
    print(json.dumps({"image": str(args.out), "observation": observation.to_json(),
                      "cards": cards}))
    return 0


def _camera_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--camera", default="0",
                        help="camera index, video file, or 'rendered' (default 0)")


def register(commands: Any) -> None:
    """Add ``conductor vision ...`` to the command line."""
    vision = commands.add_parser("vision", help="the webcam card recognizer")
    sub = vision.add_subparsers(dest="vision_command", required=True, metavar="COMMAND")

    markers = sub.add_parser("markers", help="write the printable table markers (PDF or PNG)")
    markers.add_argument("out", type=Path, help="output file: .pdf, .png, ...")
    markers.set_defaults(run=_markers)

    deck = sub.add_parser("deck", help="write a printable deck: a PDF, or a folder of PNG faces")
    deck.add_argument("deck", choices=DECKS)
    deck.add_argument("out", type=Path, help="OUT.pdf, or a folder for one PNG per card")
    deck.set_defaults(run=_deck)

    enroll = sub.add_parser("enroll", help="learn a deck's cards from a folder of pictures")
    enroll.add_argument("deck", help="deck name (trains, rollecate, ...) or deck file (.json)")
    enroll.add_argument("folder", type=Path, help="pictures named after the cards they show")
    enroll.add_argument("--out", type=Path, default=None,
                        help="references file (default FOLDER/DECK.references.npz)")
    enroll.add_argument("--glyphs", action="store_true",
                        help="the pictures show a handful of a numbered deck's cards: learn "
                             "their digits and icons and compose all the other cards")
    enroll.add_argument("--published", action="store_true",
                        help="trains/rollecate: the pictures show the published cards, not "
                             "Conductor's printed faces (any other deck always is)")
    enroll.set_defaults(run=_enroll)

    for name, helptext, run in (
            ("identify", "find and name the cards in pictures", _identify),
            ("watch", "watch a camera: annotated live view and table changes", _watch)):
        parser = sub.add_parser(name, help=helptext)
        parser.add_argument("--deck", default="trains",
                            help="deck name or deck file (default trains)")
        parser.add_argument("--references", type=Path, default=None,
                            help="enrolled references (default for a deck Conductor ships: "
                                 "its own faces)")
        calibration_options(parser)
        parser.set_defaults(run=run)
        if name == "identify":
            parser.add_argument("images", type=Path, nargs="+", metavar="IMAGE")
            parser.add_argument("--json", action="store_true", help="print JSON")
        else:
            _camera_option(parser)
            parser.add_argument("--out", type=Path, default=None,
                                help="folder for annotated frames (default when no display: "
                                     "vision-watch)")
            parser.add_argument("--frames", type=frame_count, default=None,
                                help="stop after N frames")
            parser.add_argument("--players", type=int, choices=(2, 3, 4), default=None)

    calibrate_parser = sub.add_parser(
        "calibrate", help="look at the empty table once: its cloth, kept to find cards of "
                          "an enrolled deck, and its light")
    _camera_option(calibrate_parser)
    calibrate_parser.add_argument("--out", type=Path, default=None,
                                  help="JSON file, the frame kept beside it as .png (default: "
                                       "calibration.json in the per-user data folder, which "
                                       "every camera command reads)")
    calibrate_parser.set_defaults(run=_calibrate)

    render = sub.add_parser("render", help="render a seeded photograph of a Game of Trains table")
    render.add_argument("out", type=Path, help="image file to write")
    render.add_argument("--seed", type=seed, default=1,
                        help="seed of the photograph (default 1)")
    render.add_argument("--level", choices=sorted(DIFFICULTIES), default="medium")
    render.add_argument("--observation", default=None, help="the table as observation JSON")
    render.set_defaults(run=_render)
