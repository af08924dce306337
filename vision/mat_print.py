"""Drawing a play mat at true scale: as a vector PDF, as a PNG, or as an image for synthetic scenes.

The mat is first described as a few primitives in millimetres (filled rectangles, outlines, text);
the same description is then rasterised with OpenCV or written as PDF drawing operators, so the
printed sheet and the rendered image are the same drawing.
"""
from __future__ import annotations

import os
import struct
import unicodedata
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

import cv2
import numpy as np

from vision.mat import MatLayout, Zone, marker_bits

MM_PER_INCH = 25.4
# a dice zone's name is printed at least this far from every dice zone: the camera looks for dice
# up to vision.live.AREA_MARGIN_MM around them
DICE_CLEAR_MM = 8.0
PT_PER_MM = 72 / MM_PER_INCH

DEFAULT_STYLE = {
    "background": [58, 92, 78],     # RGB of the printed felt
    "line": [138, 170, 155],        # zone outlines
    "text": [112, 146, 130],        # zone names
    "paper_margin_mm": 5.0,         # unprinted white border most printers need
    "line_mm": 0.7,
    "corner_mm": 3.0,               # rounding of card outlines
    "text_mm": 9.0,
}


@dataclass(frozen=True)
class Fill:
    """A filled axis-aligned rectangle (x, y top-left, mm)."""

    x: float
    y: float
    w: float
    h: float
    rgb: tuple[int, int, int]


@dataclass(frozen=True)
class Outline:
    """A polygon outline (closed unless told), points in mm."""

    points: tuple[tuple[float, float], ...]
    rgb: tuple[int, int, int]
    width: float
    closed: bool = True


@dataclass(frozen=True)
class Label:
    """Text centred on (x, y) mm, ``size`` mm tall, turned ``rotation`` degrees counter-clockwise."""

    x: float
    y: float
    text: str
    size: float
    rgb: tuple[int, int, int]
    rotation: int = 0


Shape = Fill | Outline | Label


def mat_drawing(layout: MatLayout, labels: Mapping[str, str] | None = None,
                footer: str = "") -> list[Shape]:
    """The mat as primitives. ``labels`` maps zone ids to the names printed in them (already in
    the players' language); ``footer`` is a line printed along the bottom margin."""
    style = {**DEFAULT_STYLE, **layout.style}
    bg, line, text = (tuple(int(c) for c in style[k]) for k in ("background", "line", "text"))
    white = (255, 255, 255)
    width, height = layout.size
    margin = float(style["paper_margin_mm"])
    shapes: list[Shape] = [Fill(0, 0, width, height, white),
                           Fill(margin, margin, width - 2 * margin, height - 2 * margin, bg)]
    for marker in layout.markers:
        shapes += _marker(layout.dictionary, marker.id, marker.x, marker.y, marker.size)
    lw, radius, text_mm = float(style["line_mm"]), float(style["corner_mm"]), float(style["text_mm"])
    # Where dice lie the print is faint and holds no letters: the dice reader took a bright outline
    # for a die's edge (an X turned and read as a 1), and the letters of a name for dice.
    faint = tuple((2 * b + t) // 3 for b, t in zip(bg, text))
    for zone in layout.zones:
        shapes += _zone_outlines(zone, faint if zone.kind == "dice" else line, lw, radius)
        name = (labels or {}).get(zone.id, "")
        if name and zone.kind == "dice":
            shapes += _beside(layout, zone, name, text_mm, text)
        elif name:
            # Monospaced letters are about 1.05 times as wide as capitals are tall.
            size = min(text_mm, zone.h * 0.3, 0.85 * zone.w / (1.05 * len(name)))
            shapes.append(Label(zone.x, zone.y, name, size, text, zone.rotation))
    if footer:
        shapes.append(Label(width / 2, height - margin / 2, footer, margin * 0.5, (90, 90, 90)))
    return shapes


def _beside(layout: MatLayout, zone: Zone, name: str, text_mm: float, rgb) -> list[Shape]:
    """A dice zone's name printed beside it (on its left, right, above or below, as large as a
    free place allows), ``DICE_CLEAR_MM`` from every dice zone and clear of the rest of the print;
    none where no place is free."""
    margin = float({**DEFAULT_STYLE, **layout.style}["paper_margin_mm"])
    width, height = layout.size
    taken = [_box(z.corners(), DICE_CLEAR_MM if z.kind == "dice" else 2.0) for z in layout.zones]
    taken += [_box(m.corners(), 2.0) for m in layout.markers]
    (x0, y0), (x1, y1) = zone.corners().min(axis=0), zone.corners().max(axis=0)
    for size in (0.7 * text_mm, 0.55 * text_mm, 0.4 * text_mm):
        w, h = 1.05 * size * len(name), size  # monospaced letters: about 1.05 times as wide as tall
        away = DICE_CLEAR_MM + 1.0
        for cx, cy in ((x0 - away - w / 2, zone.y), (x1 + away + w / 2, zone.y),
                       (zone.x, y0 - away - h / 2), (zone.x, y1 + away + h / 2)):
            box = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
            inside = margin <= box[0] and margin <= box[1] and box[2] <= width - margin and box[3] <= height - margin
            if inside and not any(_overlap(box, other) for other in taken):
                return [Label(cx, cy, name, size, rgb)]
    return []


def _box(corners: np.ndarray, grow: float) -> tuple[float, float, float, float]:
    (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
    return x0 - grow, y0 - grow, x1 + grow, y1 + grow


def _overlap(a: tuple, b: tuple) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _marker(dictionary: str, marker_id: int, x: float, y: float, size: float) -> list[Shape]:
    bits = marker_bits(dictionary, marker_id)
    n = bits.shape[0]
    cell = size / n
    quiet = cell  # white quiet zone of one cell around the marker
    shapes: list[Shape] = [Fill(x - quiet, y - quiet, size + 2 * quiet, size + 2 * quiet, (255, 255, 255)),
                           Fill(x, y, size, size, (0, 0, 0))]
    for r in range(n):
        for c in range(n):
            if bits[r, c]:
                shapes.append(Fill(x + c * cell, y + r * cell, cell, cell, (255, 255, 255)))
    return shapes


def _zone_outlines(zone: Zone, rgb, lw: float, radius: float) -> list[Shape]:
    if zone.kind in ("grid", "pile", "row"):
        # Corner marks, not full outlines: an empty place must not look like a card to the camera.
        cw, ch = zone.card
        return [mark for c in zone.cells() for mark in _corner_marks(zone, c.x, c.y, cw, ch, rgb, lw)]
    if zone.kind == "track":
        space = zone.w / zone.cols
        out = []
        for i in range(zone.cols):
            lx = -zone.w / 2 + space * (i + 0.5)
            cx, cy = zone.to_sheet((lx, 0.0))
            out.append(Outline(_rounded(zone, cx, cy, space * 0.9, space * 0.9, radius), rgb, lw))
            out.append(Label(cx, cy, "S" if i == 0 else ("X" if i == zone.cols - 1 else str(i)),
                             space * 0.35, rgb, zone.rotation))
        return out
    return [Outline(_rounded(zone, zone.x, zone.y, zone.w, zone.h, radius * 2), rgb, lw)]


def _corner_marks(zone: Zone, cx: float, cy: float, w: float, h: float, rgb, lw: float) -> list[Shape]:
    arm = min(w, h) * 0.18
    u, v = zone.axes()
    out = []
    for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        corner = np.array([cx, cy]) + sx * w / 2 * u + sy * h / 2 * v
        pts = (corner - sx * arm * u, corner, corner - sy * arm * v)
        out.append(Outline(tuple((float(p[0]), float(p[1])) for p in pts), rgb, lw, closed=False))
    return out


def _rounded(zone: Zone, cx: float, cy: float, w: float, h: float, r: float) -> tuple:
    """A rounded rectangle centred on a sheet point, aligned with the zone, as a polygon."""
    pts = []
    for (sx, sy), start in (((1, 1), 0), ((-1, 1), 90), ((-1, -1), 180), ((1, -1), 270)):
        ox, oy = sx * (w / 2 - r), sy * (h / 2 - r)
        for k in range(5):
            a = np.deg2rad(start + k * 22.5)
            pts.append((ox + r * np.cos(a), oy + r * np.sin(a)))
    u, v = zone.axes()
    return tuple((float(cx + px * u[0] + py * v[0]), float(cy + px * u[1] + py * v[1])) for px, py in pts)


# ---- raster -------------------------------------------------------------------------------

def render(shapes: Sequence[Shape], size_mm: tuple[float, float], px_per_mm: float) -> np.ndarray:
    """Rasterise the drawing (BGR, ``px_per_mm`` pixels per millimetre)."""
    w, h = int(round(size_mm[0] * px_per_mm)), int(round(size_mm[1] * px_per_mm))
    image = np.full((h, w, 3), 255, np.uint8)
    s = px_per_mm
    for shape in shapes:
        if isinstance(shape, Fill):
            x0, y0 = int(round(shape.x * s)), int(round(shape.y * s))
            x1, y1 = int(round((shape.x + shape.w) * s)), int(round((shape.y + shape.h) * s))
            image[max(y0, 0):max(y1, 0), max(x0, 0):max(x1, 0)] = shape.rgb[::-1]
        elif isinstance(shape, Outline):
            pts = np.round(np.array(shape.points) * s * 16).astype(np.int32)
            cv2.polylines(image, [pts], shape.closed, shape.rgb[::-1], max(1, int(round(shape.width * s))),
                          cv2.LINE_AA, shift=4)
        else:
            _raster_text(image, shape, s)
    return image


def _raster_text(image: np.ndarray, label: Label, s: float) -> None:
    # Hershey fonts have no accents: print the nearest plain letters.
    text = unicodedata.normalize("NFKD", label.text).encode("ascii", "ignore").decode()
    if not text:
        return
    font = cv2.FONT_HERSHEY_DUPLEX
    (_, base_h), _ = cv2.getTextSize("X", font, 1.0, 1)
    scale = label.size * s / base_h
    thick = max(1, int(round(scale * 1.6)))
    (tw, th), base = cv2.getTextSize(text, font, scale, thick)
    pad = thick + 2
    canvas = np.zeros((th + base + 2 * pad, tw + 2 * pad), np.uint8)
    cv2.putText(canvas, text, (pad, pad + th), font, scale, 255, thick, cv2.LINE_AA)
    canvas = np.rot90(canvas, k=label.rotation // 90)
    ch, cw = canvas.shape
    x0, y0 = int(round(label.x * s - cw / 2)), int(round(label.y * s - ch / 2))
    ys, xs = slice(max(y0, 0), min(y0 + ch, image.shape[0])), slice(max(x0, 0), min(x0 + cw, image.shape[1]))
    alpha = canvas[ys.start - y0:ys.stop - y0, xs.start - x0:xs.stop - x0, None] / 255.0
    region = image[ys, xs]
    image[ys, xs] = (region * (1 - alpha) + np.array(label.rgb[::-1]) * alpha).astype(np.uint8)


def write_png(path: str | Path, image: np.ndarray, px_per_mm: float) -> None:
    """Write a PNG that records its resolution, so it prints at true scale."""
    ok, data = cv2.imencode(".png", image)
    if not ok:
        raise OSError(f"{path}: cannot encode the PNG image")
    raw = data.tobytes()
    ppm = int(round(px_per_mm * 1000))  # pixels per metre
    body = struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", len(body)) + b"pHYs" + body + struct.pack(">I", zlib.crc32(b"pHYs" + body))
    ihdr_end = 8 + 4 + 4 + 13 + 4  # signature, IHDR length, type, data, crc
    Path(path).write_bytes(raw[:ihdr_end] + chunk + raw[ihdr_end:])


def save_drawing(out: Path, shapes: Sequence[Shape], size_mm: tuple[float, float], dpi: float,
                 title: str) -> None:
    """Write the drawing to ``out``, a vector PDF or a PNG at ``dpi`` by its suffix, whole or not
    at all (through a temporary file beside it)."""
    tmp = out.with_name(out.name + ".tmp")
    if out.suffix.lower() == ".pdf":
        tmp.write_bytes(pdf_bytes(shapes, size_mm, title=title))
    else:
        px_per_mm = dpi / MM_PER_INCH
        write_png(tmp, render(shapes, size_mm, px_per_mm), px_per_mm)
    os.replace(tmp, out)


# ---- PDF ----------------------------------------------------------------------------------

def pdf_bytes(shapes: Sequence[Shape], size_mm: tuple[float, float], title: str = "") -> bytes:
    """A one-page vector PDF of the drawing; the page is exactly ``size_mm``."""
    width_pt, height_pt = size_mm[0] * PT_PER_MM, size_mm[1] * PT_PER_MM
    ops = []

    def pt(x: float, y: float) -> str:
        return f"{x * PT_PER_MM:.3f} {height_pt - y * PT_PER_MM:.3f}"

    for shape in shapes:
        if isinstance(shape, Fill):
            ops.append(f"{_rgb(shape.rgb)} rg {pt(shape.x, shape.y + shape.h)} "
                       f"{shape.w * PT_PER_MM:.3f} {shape.h * PT_PER_MM:.3f} re f")
        elif isinstance(shape, Outline):
            path = " ".join(f"{pt(*p)} {'m' if i == 0 else 'l'}" for i, p in enumerate(shape.points))
            ops.append(f"{_rgb(shape.rgb)} RG {shape.width * PT_PER_MM:.3f} w 1 j 1 J {path} "
                       f"{'s' if shape.closed else 'S'}")
        else:
            ops.append(_pdf_text(shape, pt))
    content = zlib.compress("\n".join(ops).encode("latin-1"))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {width_pt:.3f} {height_pt:.3f}] "
         f"/Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>").encode(),
        f"<< /Length {len(content)} /Filter /FlateDecode >>\nstream\n".encode() + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier-Bold /Encoding /WinAnsiEncoding >>",
        f"<< /Title ({_pdf_string(title)}) /Producer (table-assistant) >>".encode("cp1252", "replace"),
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += (f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info 6 0 R >>\n"
            f"startxref\n{xref}\n%%EOF\n").encode()
    return bytes(out)


def _rgb(rgb: Sequence[int]) -> str:
    return " ".join(f"{c / 255:.3f}" for c in rgb)


def _pdf_string(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _pdf_text(label: Label, pt) -> str:
    # Courier glyphs are 0.6 em wide and capitals about 0.57 em tall: centre on that box.
    size_pt = label.size / 0.57 * PT_PER_MM
    half_w = 0.6 * size_pt * len(label.text) / 2
    half_h = label.size * PT_PER_MM / 2
    a = np.deg2rad(label.rotation)
    c, s = np.cos(a), np.sin(a)
    cx, cy = (float(v) for v in pt(label.x, label.y).split())
    ox, oy = cx - (half_w * c - half_h * s), cy - (half_w * s + half_h * c)
    text = _pdf_string(label.text).encode("cp1252", "replace").decode("latin-1")
    return (f"BT /F1 {size_pt:.2f} Tf {_rgb(label.rgb)} rg {c:.4f} {s:.4f} {-s:.4f} {c:.4f} "
            f"{ox:.3f} {oy:.3f} Tm ({text}) Tj ET")
