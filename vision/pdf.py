"""A minimal PDF writer: pages that are each one image at a given paper size.

Printable sheets (table markers, decks) need exact physical sizes; embedding each page as a JPEG
in a hand-written PDF avoids a dependency for a few dozen lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cv2

from host.errors import BadInputError
from vision.imaging import Image

POINTS_PER_MM = 72 / 25.4


def write_pdf(path: Path, pages: Sequence[Image], page_mm: tuple[float, float]) -> None:
    """Write ``pages`` (grey or BGR images) to ``path``, each stretched to ``page_mm``."""
    width, height = page_mm[0] * POINTS_PER_MM, page_mm[1] * POINTS_PER_MM
    objects: list[bytes] = []
    kids = []
    for index, page in enumerate(pages):
        ok, jpeg = cv2.imencode(".jpg", page, [cv2.IMWRITE_JPEG_QUALITY, 95])
        if not ok:
            raise BadInputError(f"cannot encode page {index + 1} of {path}")
        data = jpeg.tobytes()
        image_id, content_id, page_id = 3 + 3 * index, 4 + 3 * index, 5 + 3 * index
        space = "/DeviceGray" if page.ndim == 2 else "/DeviceRGB"
        objects.append(f"<< /Type /XObject /Subtype /Image /Width {page.shape[1]} "
                       f"/Height {page.shape[0]} /ColorSpace {space} /BitsPerComponent 8 "
                       f"/Filter /DCTDecode /Length {len(data)} >>\nstream\n".encode()
                       + data + b"\nendstream")
        drawing = f"q {width:.2f} 0 0 {height:.2f} 0 0 cm /Im Do Q".encode()
        objects.append(f"<< /Length {len(drawing)} >>\nstream\n".encode() + drawing
                       + b"\nendstream")
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {width:.2f} {height:.2f}] "
                       f"/Resources << /XObject << /Im {image_id} 0 R >> >> "
                       f"/Contents {content_id} 0 R >>".encode())
        kids.append(f"{page_id} 0 R")
    header = [b"<< /Type /Catalog /Pages 2 0 R >>",
              f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {len(pages)} >>".encode()]
    body = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, content in enumerate(header + objects, start=1):
        offsets.append(len(body))
        body += f"{number} 0 obj\n".encode() + content + b"\nendobj\n"
    xref = len(body)
    body += f"xref\n0 {len(offsets) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        body += f"{offset:010d} 00000 n \n".encode()
    body += f"trailer\n<< /Size {len(offsets) + 1} /Root 1 0 R >>\n".encode()
    body += f"startxref\n{xref}\n%%EOF\n".encode()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(bytes(body))
    except OSError as error:
        raise BadInputError(f"cannot write {path}: {error.strerror}") from None
