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
import numpy as np

from host.arguments import count, seed
from host.errors import BadInputError
from host.jsonl import loads
from vision.camera import CameraFrame, RenderedCamera, VideoCamera
from vision.identify import References, rendered_references
from vision.imaging import Image, read_image, write_image
from vision.observation import TableObservation, TrainsObservation
from vision.pipeline import FrameReading, Pipeline
from vision.printing import write_deck, write_markers
from vision.scene import DIFFICULTIES, render_table
from vision.stabilizer import Stabilizer

DECKS = ("trains", "rollecate")
"""Decks Conductor draws faces for (others can be enrolled from photos)."""


def _references(args: argparse.Namespace) -> References:
    if args.references is not None:
        try:
            references = References.load(args.references)
        except (BadInputError, EOFError, OSError, ValueError):
            raise BadInputError(f"cannot read references {args.references}: not a references "
                                "file (conductor vision enroll makes one)") from None
        if references.deck != args.deck:
            raise BadInputError(f"{args.references} holds deck {references.deck!r}, "
                                f"not {args.deck!r}")
        return references
    if args.deck not in DECKS:
        raise BadInputError(f"Conductor draws no faces for deck {args.deck!r} (it draws "
                            f"{', '.join(DECKS)}): enroll it and give --references")
    return rendered_references(args.deck)


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
    from vision.enroll import enroll

    references = enroll(args.deck, args.folder, glyphs=args.glyphs)
    out = args.out or args.folder / f"{args.deck}.references.npz"
    references.save(out)
    print(f"enrolled {len(references.cards)} cards ({len(references.names)} pictures) of "
          f"{args.deck} into {out}")
    return 0


def _identify(args: argparse.Namespace) -> int:
    images = [read_image(path) for path in args.images]  # a bad picture fails before any work
    pipeline = Pipeline(deck=args.deck, references=_references(args))
    results: list[dict[str, Any]] = []
    for path, image in zip(args.images, images, strict=True):
        reading = pipeline.read(image)
        cards = [card.to_json() for card in reading.cards]
        results.append({"image": str(path), "table_found": reading.image_to_table is not None,
                        "cards": cards})
    if args.json:
        print(json.dumps(results if len(results) > 1 else results[0]))
        return 0
    for result in results:
        print(f"{result['image']}: {len(result['cards'])} cards"
              + ("" if result["table_found"] else " (no table markers: raw view)"))
        for card in result["cards"]:
            x, y = card["centre"]
            name = card["name"] or "unknown"
            print(f"  {name:<16} confidence {card['confidence']:.2f}  centre {x:.0f},{y:.0f}  "
                  f"corners {card['corners']}")
    return 0


def annotate(image: Image, reading: FrameReading) -> Image:
    """A copy of the frame with every card's outline and name drawn on it."""
    out = image.copy() if image.ndim == 3 else np.asarray(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR),
                                                          np.uint8)
    for card in reading.cards:
        colour = (60, 200, 60) if card.name else (40, 40, 230)
        corners = np.round(card.corners).astype(np.int32)
        cv2.polylines(out, [corners], True, colour, 2, cv2.LINE_AA)
        label = card.name.split("/", 1)[1] if card.name else "?"
        x, y = card.centre
        cv2.putText(out, label, (int(x) - 12, int(y)), cv2.FONT_HERSHEY_SIMPLEX, 0.6,
                    (255, 255, 255), 3, cv2.LINE_AA)
        cv2.putText(out, label, (int(x) - 12, int(y)), cv2.FONT_HERSHEY_SIMPLEX, 0.6, colour, 1,
                    cv2.LINE_AA)
    status = f"table: {'found' if reading.image_to_table is not None else 'not found'}"
    cv2.putText(out, status, (10, 24), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (255, 255, 255), 2)
    return out


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
    if source.isdigit():
        return VideoCamera(int(source))
    path = Path(source)
    if not path.is_file():
        raise BadInputError(f"no camera or video file {source!r}")
    return VideoCamera(path)


def _watch(args: argparse.Namespace) -> int:
    frames = _frames(args.camera)  # a camera that is not there fails before any work
    pipeline = Pipeline(deck=args.deck, references=_references(args), players=args.players)
    stabilizer: Stabilizer[TableObservation] = Stabilizer()
    display = bool(os.environ.get("DISPLAY")) and not args.out
    out: Path = args.out or Path("vision-watch")
    shown = 0
    for index, frame in enumerate(frames):
        if args.frames is not None and index >= args.frames:
            break
        reading = pipeline.read(frame.image)
        event = stabilizer.feed(frame.timestamp, reading.observation)
        if event is not None:
            print(json.dumps({"t": round(frame.timestamp, 3), "observation": event.to_json()}),
                  flush=True)
        picture = annotate(frame.image, reading)
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
    enroll.add_argument("deck", help="deck name (trains, rollecate)")
    enroll.add_argument("folder", type=Path, help="pictures named after the cards they show")
    enroll.add_argument("--out", type=Path, default=None,
                        help="references file (default FOLDER/DECK.references.npz)")
    enroll.add_argument("--glyphs", action="store_true",
                        help="the pictures show a handful of a numbered deck's cards: learn "
                             "their digits and icons and compose all the other cards")
    enroll.set_defaults(run=_enroll)

    for name, helptext, run in (
            ("identify", "find and name the cards in pictures", _identify),
            ("watch", "watch a camera: annotated live view and table changes", _watch)):
        parser = sub.add_parser(name, help=helptext)
        parser.add_argument("--deck", default="trains", help="deck of the cards (default trains)")
        parser.add_argument("--references", type=Path, default=None,
                            help="enrolled references (default: Conductor's own faces)")
        parser.set_defaults(run=run)
        if name == "identify":
            parser.add_argument("images", type=Path, nargs="+", metavar="IMAGE")
            parser.add_argument("--json", action="store_true", help="print JSON")
        else:
            parser.add_argument("--camera", default="0",
                                help="camera index, video file, or 'rendered' (default 0)")
            parser.add_argument("--out", type=Path, default=None,
                                help="folder for annotated frames (default when no display: "
                                     "vision-watch)")
            parser.add_argument("--frames", type=count, default=None, help="stop after N frames")
            parser.add_argument("--players", type=int, choices=(2, 3, 4), default=None)

    render = sub.add_parser("render", help="render a seeded photograph of a Game of Trains table")
    render.add_argument("out", type=Path, help="image file to write")
    render.add_argument("--seed", type=seed, default=1, help="seed of the photograph (default 1)")
    render.add_argument("--level", choices=sorted(DIFFICULTIES), default="medium")
    render.add_argument("--observation", default=None, help="the table as observation JSON")
    render.set_defaults(run=_render)
