"""Draw the app icons of the web client (src/carroca/web/icons/*.png) from the favicon's shapes.

    python3 scripts/make_icons.py          # writes the PNGs; byte-identical on every run

The home-screen icons need PNGs (192 and 512 px) beside the SVG favicon. They are drawn here
with no dependency at all: the favicon's few shapes (a rounded square of felt, a domino tilted
by 18°, its divider and pips) as signed distance functions, each pixel's coverage taken from the
distance (anti-aliased edges), written as an RGBA PNG with zlib. The same input always gives the
same bytes, so the PNGs in the repository can be checked against this script (tests/web/test_pwa.py
redraws the 192 px one).

`icon-maskable-512.png` fills the whole square with felt and keeps the domino inside the middle
80 %, the safe zone of "maskable" icons that phones crop to a circle or a squircle.
"""

from __future__ import annotations

import math
import struct
import sys
import zlib
from collections.abc import Callable
from pathlib import Path

ICONS = Path(__file__).resolve().parents[1] / "src" / "carroca" / "web" / "icons"

RGB = tuple[float, float, float]
FELT: RGB = (0x0F, 0x5A, 0x3F)
IVORY: RGB = (0xFB, 0xF6, 0xEA)
EDGE: RGB = (0xC9, 0xB9, 0x95)
DIVIDER: RGB = (0xA9, 0x9A, 0x7A)
PIP: RGB = (0x1B, 0x17, 0x12)

# The favicon (viewBox 0 0 64 64): the tile's rectangle, divider and pips before the rotation.
TILE = (19.0, 6.0, 45.0, 58.0, 6.0)  # x0, y0, x1, y1, corner radius
TILE_STROKE = 2.0
DIVIDER_LINE = ((24.0, 32.0), (40.0, 32.0), 2.5)
PIPS = [(26, 13), (38, 13), (32, 19), (26, 25), (38, 25), (26, 39), (38, 51), (32, 45)]
PIP_R = 3.0
ANGLE = math.radians(18.0)  # the tile turns by -18°: points are turned back by +18°
COS, SIN = math.cos(ANGLE), math.sin(ANGLE)


def rounded_rect(px: float, py: float, x0: float, y0: float, x1: float, y1: float,
                 r: float) -> float:
    """Signed distance to a rounded rectangle (negative inside)."""
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    hx, hy = (x1 - x0) / 2 - r, (y1 - y0) / 2 - r
    qx, qy = abs(px - cx) - hx, abs(py - cy) - hy
    outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
    return outside + min(max(qx, qy), 0.0) - r


def segment(px: float, py: float, a: tuple[float, float], b: tuple[float, float],
            width: float) -> float:
    """Signed distance to a line of `width` with round caps."""
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - ax - t * dx, py - ay - t * dy) - width / 2


def pip(cx: float, cy: float) -> Callable[[float, float], float]:
    """Signed distance to a pip centred at (cx, cy)."""

    def shape(x: float, y: float) -> float:
        return math.hypot(x - cx, y - cy) - PIP_R

    return shape


def draw(size: int, maskable: bool) -> bytes:
    """The icon as rows of RGBA bytes, each row led by PNG filter byte 0."""
    unit = 64.0 / size  # one pixel in favicon units
    scale = 0.8 if maskable else 1.0  # the maskable icon keeps the domino in its safe zone
    layers: list[tuple[Callable[[float, float], float], RGB]] = []
    x0, y0, x1, y1, r = TILE
    half = TILE_STROKE / 2
    layers.append((lambda x, y: rounded_rect(x, y, x0 - half, y0 - half, x1 + half, y1 + half,
                                             r + half), EDGE))
    layers.append((lambda x, y: rounded_rect(x, y, x0 + half, y0 + half, x1 - half, y1 - half,
                                             r - half), IVORY))
    a, b, width = DIVIDER_LINE
    layers.append((lambda x, y: segment(x, y, a, b, width), DIVIDER))
    for cx, cy in PIPS:
        layers.append((pip(cx, cy), PIP))

    rows = bytearray()
    for j in range(size):
        rows.append(0)
        for i in range(size):
            # pixel centre in favicon units, then undo the maskable scale and the tile's turn
            u, v = (i + 0.5) * unit, (j + 0.5) * unit
            if maskable:
                alpha = 1.0
            else:
                alpha = min(1.0, max(0.0, 0.5 - rounded_rect(u, v, 0, 0, 64, 64, 14) / unit))
            color = FELT
            su, sv = 32 + (u - 32) / scale, 32 + (v - 32) / scale
            tu = 32 + (su - 32) * COS - (sv - 32) * SIN
            tv = 32 + (su - 32) * SIN + (sv - 32) * COS
            pixel = unit / scale
            for shape, paint in layers:
                cover = min(1.0, max(0.0, 0.5 - shape(tu, tv) / pixel))
                if cover > 0.0:
                    color = (paint[0] * cover + color[0] * (1 - cover),
                             paint[1] * cover + color[1] * (1 - cover),
                             paint[2] * cover + color[2] * (1 - cover))
            rows += bytes(round(c) for c in color)
            rows.append(round(alpha * 255))
    return bytes(rows)


def png(size: int, rows: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


OUTPUTS = {
    "icon-192.png": (192, False),
    "icon-512.png": (512, False),
    "icon-maskable-512.png": (512, True),
}


def render(name: str) -> bytes:
    size, maskable = OUTPUTS[name]
    return png(size, draw(size, maskable))


def main() -> None:
    ICONS.mkdir(parents=True, exist_ok=True)
    for name in OUTPUTS:
        (ICONS / name).write_bytes(render(name))
        print(f"wrote {ICONS / name}", file=sys.stderr)


if __name__ == "__main__":
    main()
