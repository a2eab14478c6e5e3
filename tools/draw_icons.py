"""Draw the site's app icons (the web app manifest's, ``basra_site/install.py``) as PNG files,
with the standard library alone: the favicon's picture (``static/favicon.svg``: a card with a red
diamond on the felt green) at 192 and 512 px, and a maskable 512 px one; and the same picture at
16, 32 and 48 px as ``static/favicon.ico``, for the clients that ask for ``/favicon.ico`` or read
no SVG.

Run from the repository's root: ``python3 tools/draw_icons.py`` writes ``static/icons/*.png`` and
``static/favicon.ico``.

Each pixel's colour is the shapes' coverage of it, from their signed distance (in pixels, negative
inside): the edges are smoothed without drawing at a higher resolution. The maskable icon fills
the whole square with the felt and keeps the card within the central circle of radius 40 % that
every platform's mask leaves visible (W3C "Web Application Manifest", "Icon masks": the safe
zone).
"""

import math
import struct
import zlib
from pathlib import Path

FELT = (0x0B, 0x6B, 0x3A)
PAPER = (0xFD, 0xFC, 0xF7)
EDGE = (0x07, 0x50, 0x2B)
RED = (0xC8, 0x10, 0x2E)
OUT = Path(__file__).resolve().parents[1] / "static" / "icons"
FAVICON = OUT.parent / "favicon.ico"
#: The favicon's sizes (px): a browser's tab, its bookmarks, a Windows shortcut.
FAVICON_SIZES = (16, 32, 48)


def rounded_box(x: float, y: float, cx: float, cy: float, hw: float, hh: float, r: float) -> float:
    """Signed distance from (x, y) to a box centred on (cx, cy), half sizes hw × hh, corners of
    radius r (Inigo Quilez, "2D distance functions", sdRoundBox)."""
    qx = abs(x - cx) - hw + r
    qy = abs(y - cy) - hh + r
    return math.hypot(max(qx, 0.0), max(qy, 0.0)) + min(max(qx, qy), 0.0) - r


def diamond(x: float, y: float, cx: float, cy: float, hw: float, hh: float) -> float:
    """Approximate signed distance to a rhombus of half diagonals hw × hh centred on (cx, cy):
    its L1 "radius" scaled to pixels at the edge, close enough for one pixel of smoothing."""
    level = abs(x - cx) / hw + abs(y - cy) / hh - 1
    return level / math.hypot(1 / hw, 1 / hh)


def cover(distance: float) -> float:
    return min(1.0, max(0.0, 0.5 - distance))


def mix(under: tuple, over: tuple, amount: float) -> tuple:
    return tuple(u + (o - u) * amount for u, o in zip(under, over))


def draw(size: int, maskable: bool) -> bytes:
    """The icon as RGBA rows: the favicon's 32-unit drawing scaled to ``size`` pixels."""
    unit = size / 32
    zoom = 0.8 if maskable else 1.0  # the card inside the maskable safe zone
    c = size / 2
    rows = []
    for j in range(size):
        row = bytearray([0])  # PNG filter type 0 for this row
        y = j + 0.5
        for i in range(size):
            x = i + 0.5
            if maskable:
                colour, alpha = FELT, 1.0
            else:
                colour, alpha = FELT, cover(rounded_box(x, y, c, c, c, c, 6 * unit))
            card = rounded_box(x, y, c, c, 8 * unit * zoom, 12 * unit * zoom, 2.5 * unit * zoom)
            colour = mix(colour, EDGE, cover(card))
            colour = mix(colour, PAPER, cover(card + max(1.0, unit * zoom)))
            colour = mix(colour, RED, cover(diamond(x, y, c, c, 4.5 * unit * zoom, 6 * unit * zoom)))
            row += bytes(round(v) for v in colour) + bytes([round(255 * alpha)])
        rows.append(bytes(row))
    return b"".join(rows)


def png(size: int, pixels: bytes) -> bytes:
    """A PNG file (8-bit RGBA, no interlace) of ``pixels`` (filtered rows), per the PNG spec."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(pixels, 9)) + chunk(b"IEND", b""))


def ico(images: list[tuple[int, bytes]]) -> bytes:
    """An ICO file of ``(size, PNG file)`` images, each stored as its PNG (Microsoft, "Icons":
    ICONDIR, then an ICONDIRENTRY of 16 bytes per image, then the images; PNG entries since
    Windows Vista, read by every current browser). Sizes of 1 to 256 px (256 is written 0)."""
    head = struct.pack("<HHH", 0, 1, len(images))
    offset = len(head) + 16 * len(images)
    entries, data = b"", b""
    for size, image in images:
        entries += struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(image), offset + len(data))
        data += image
    return head + entries + data


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, size, maskable in [("icon-192.png", 192, False), ("icon-512.png", 512, False),
                                 ("icon-maskable-512.png", 512, True)]:
        (OUT / name).write_bytes(png(size, draw(size, maskable)))
    FAVICON.write_bytes(ico([(size, png(size, draw(size, False))) for size in FAVICON_SIZES]))


if __name__ == "__main__":
    main()
