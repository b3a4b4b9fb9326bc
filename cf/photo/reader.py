"""The photo reader: find face-up tiles, their dividers and pips, with a confidence each.

A classical OpenCV + numpy pipeline, tuned on synthetic photos (:mod:`cf.photo.synth`):

1. Scale the photo so its long side is :data:`WORK_SIZE` pixels.
2. Segment light, low-chroma regions (the tile faces) on LAB lightness above the
   background *as lit where the tile lies* (a quadratic lighting surface fitted to the
   background, so a dim corner does not hide a tile); on a light background, whatever the
   border cannot reach without crossing an edge. Holes (pips, dividers) are filled.
3. Find the *divider bars*: straight dark bars with face on both sides and both ends short
   of the region's edge, at several ink levels (a bar touching a pip stands alone at a
   stricter one); pieces of one bar cut by a spinner are joined. Every face-up tile has
   exactly one, so each divider anchors one tile, whatever touches it.
4. Outline each tile around its divider: as wide as the face runs on along the divider's
   line (touching tiles end at the dark seam between them; no wider than the step to the
   next divider in the row), and twice as long, or as far as the face runs along the
   tile. One hand is one set: the width-to-divider ratio of the well-measured tiles sizes
   the others. A tile alone in its region takes the region's own outline.
5. Warp each tile upright from a copy of the photo where it is about :data:`CW` pixels
   wide, find the face's own edges (past pips and seams) and the divider row, and count
   each half's pips: blobs darker than the face or of another colour, cut at half their
   own contrast, thin marks opened away, pips run together by blur split.
6. Check what the game and the pip layouts guarantee — every standard layout is symmetric
   about the half's centre, pips of one half are alike in size and colour, a half has at
   most N pips, a hand has no tile twice — and look for faint pip-like blobs a weaker
   threshold sees. Each doubt lowers the tile's confidence; a tile below the minimum
   confidence is *unreadable* and comes with its likeliest readings. A light region with
   pip-like marks that no outline covers is unreadable too: never silently left out.

This module holds what others use (the reading's types, loading and decoding, and
:func:`read_hand`, which runs the stages in turn); each stage is a module of its own:
step 2 in :mod:`cf.photo.faces` (with the maps the later steps share), step 3 in
:mod:`cf.photo.dividers`, step 4 in :mod:`cf.photo.outlines`, steps 5 and 6 in
:mod:`cf.photo.pips`, and the last look at what no outline covers in
:mod:`cf.photo.missed`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from cf.errors import Error
from cf.i18n import Message, os_reason
from cf.photo.dividers import regions_and_dividers
from cf.photo.faces import WORK_SIZE, light_table, tile_mask
from cf.photo.lab import bgr_to_lab
from cf.photo.missed import missed_faces, uncovered
from cf.photo.outlines import tile_outlines
from cf.photo.pips import OVER_SET, cross_check, read_candidates
from cf.photo.reasons import Reason
from cf.tiles import Tile

# OpenCV logs its own decoder errors ("[ERROR…] imdecode_ … can't read header") on stderr;
# cf says in its words what it could not read, so OpenCV's lines are not shown. An older
# OpenCV (4.8) has no logging module in Python: OPENCV_LOG_LEVEL (cf/photo/__init__.py)
# silences it.
if hasattr(cv2.utils, "logging"):
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
# One core: OpenCV's worker threads cost more CPU, starting and waiting, than they save
# on images of the working size (see cf/photo/__init__.py for numpy's).
cv2.setNumThreads(1)

#: Tiles read with less confidence than this are reported as unreadable (``--min-confidence``).
DEFAULT_MIN_CONFIDENCE = 0.6

#: The least long side, in pixels, that :func:`read_photo` decodes a big JPEG to: a tile
#: of the working image (:data:`WORK_SIZE`) keeps half as much detail again.
READ_SIZE = 3 * WORK_SIZE // 2

Box = list[tuple[int, int]]


class PhotoError(Error):
    """A photo that cannot be read at all: not an image, empty, unreadable file."""

    code = "photo"


@dataclass(frozen=True)
class TileRead:
    """One tile read from the photo: the tile, how sure the reader is (0..1), its outline."""

    tile: Tile
    confidence: float
    box: Box


@dataclass(frozen=True)
class Unreadable:
    """A tile found but not read with confidence: its outline, what it might be, why, and
    (``pips``) the most pips a half of it showed when that is more than the set has."""

    box: Box
    candidates: list[Tile]
    reason: str = ""
    pips: int = 0

    def describe(self) -> str:
        """``cannot read the tile at x=…, y=… with confidence (why); it might be: …``."""
        x = round(sum(p[0] for p in self.box) / len(self.box)) if self.box else 0
        y = round(sum(p[1] for p in self.box) / len(self.box)) if self.box else 0
        maybe = ", ".join(str(t) for t in self.candidates) or Message("unknown")
        if self.reason:
            return Message(
                "cannot read the tile at x={x}, y={y} with confidence ({why}); "
                "it might be: {maybe}",
                x=x,
                y=y,
                why=Reason(self.reason),
                maybe=maybe,
            )
        return Message(
            "cannot read the tile at x={x}, y={y} with confidence; it might be: {maybe}",
            x=x,
            y=y,
            maybe=maybe,
        )


@dataclass
class PhotoReading:
    """Everything read from one photo."""

    reads: list[TileRead] = field(default_factory=list)
    unreadable: list[Unreadable] = field(default_factory=list)
    width: int = 0
    height: int = 0

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The tiles read, in reading order (top to bottom, left to right)."""
        return tuple(r.tile for r in self.reads)

    @property
    def found(self) -> bool:
        """True when some tile was found, read or not: a photo with none is a refusal."""
        return bool(self.reads or self.unreadable)

    @property
    def ok(self) -> bool:
        """True when some tile was found and every tile found was read with confidence:
        only then may the tiles be counted (no domino found is never a total of 0)."""
        return bool(self.reads) and not self.unreadable

    def doubting(self, doubted: list[bool], reason: str) -> PhotoReading:
        """This reading with each tile read whose flag in ``doubted`` (one per read) is set
        moved to the unreadable, its tile the candidate, for ``reason``; itself when none
        is."""
        if not any(doubted):
            return self
        keep = [r for r, d in zip(self.reads, doubted, strict=True) if not d]
        doubts = [
            Unreadable(r.box, [r.tile], reason)
            for r, d in zip(self.reads, doubted, strict=True)
            if d
        ]
        return PhotoReading(keep, [*self.unreadable, *doubts], self.width, self.height)


# --- loading --------------------------------------------------------------------------------


def load_image(path: str) -> np.ndarray:
    """Read an image file as a BGR uint8 array; :class:`PhotoError` if it is not an image,
    or is refused by :mod:`cf.photo.limits` (not a regular file, too big a file, too many
    pixels) before it is decoded.

    Greyscale, 16-bit and RGBA images are converted (transparency is dropped).
    """
    return decode_image(_read_file(path), shown(path))


def load_reduced(path: str, least: int) -> tuple[np.ndarray, int]:
    """Read an image file as :func:`load_image` does, but a JPEG whose long side is at
    least twice ``least`` pixels is decoded at 1/2, 1/4 or 1/8 of its size (the decoder
    skips the detail, which is much faster than decoding it all and scaling down), so
    that the long side stays at least ``least``. Returns the image and the reduction."""
    from cf.photo.limits import image_size

    data = _read_file(path)
    size = image_size(data)
    reduction = 1
    if size is not None and data[:2] == b"\xff\xd8":
        reduction = max((r for r in (1, 2, 4, 8) if max(size) >= r * least), default=1)
    return decode_image(data, shown(path), reduction), reduction


def shown(path: str) -> str:
    """``path`` as messages name it: ``<stdin>`` for ``-``."""
    from cf.photo.limits import STDIN

    return STDIN if path == "-" else path


def _read_file(path: str) -> bytes:
    """The bytes of an image file; :class:`PhotoError` when it cannot be read or is
    refused by :mod:`cf.photo.limits` (not a regular file, too big a file)."""
    from cf.photo.limits import PhotoLimitError, read_photo_file

    try:
        return read_photo_file(path)
    except PhotoLimitError as exc:
        raise PhotoError(exc.args[0]) from None  # a Message: translated
    except OSError as exc:
        raise PhotoError(
            Message("cannot read {path}: {value}", path=shown(path), value=os_reason(exc))
        ) from None


#: OpenCV's flags for decoding a JPEG at 1/2, 1/4 and 1/8 of its size.
_REDUCED = {
    2: cv2.IMREAD_REDUCED_COLOR_2,
    4: cv2.IMREAD_REDUCED_COLOR_4,
    8: cv2.IMREAD_REDUCED_COLOR_8,
}


#: OpenCV's flags for decoding a photo whole: grey and 16-bit images as they are (made BGR
#: uint8 by :func:`to_bgr8`), transparency dropped, and turned as its EXIF orientation says,
#: as the reduced flags do. ``IMREAD_UNCHANGED`` would leave a phone's portrait photo lying
#: on its side (stored landscape, "turn it" in its EXIF) where a reduced decode of a bigger
#: one turns it: the outlines of one would not match the other's pixels.
_WHOLE = cv2.IMREAD_ANYCOLOR | cv2.IMREAD_ANYDEPTH


#: The first bytes of every PNG file.
_PNG = b"\x89PNG\r\n\x1a\n"


def decode_image(data: bytes, name: str = "image", reduction: int = 1) -> np.ndarray:
    """Decode image bytes (JPEG, PNG, …) to BGR uint8; :class:`PhotoError` if they are not
    one, or if the header gives more pixels than :data:`cf.photo.limits.MAX_PIXELS`.

    Every decode goes through here. ``reduction`` 2, 4 or 8 decodes at that fraction of
    the size (JPEG; others are decoded whole). A photo whose EXIF says how to turn it (a
    phone's portrait JPEG, stored on its side) is turned, whatever the reduction, as
    image viewers and browsers show it: outlines are in the pixels the user sees.
    """
    from cf.photo.limits import PhotoLimitError, check_pixels, heif

    if not data:
        raise PhotoError(Message("{name} is empty, not an image", name=name))
    try:
        check_pixels(data, name)
    except PhotoLimitError as exc:
        raise PhotoError(exc.args[0]) from None  # a Message: translated
    if data.startswith(_PNG) and data.rfind(b"IEND") < 0:
        # A PNG cut short (a copy or an upload that stopped) is not handed to libpng, which
        # would print its own "libpng error: PNG input buffer is incomplete" on stderr.
        image = None
    else:
        try:
            buffer = np.frombuffer(data, dtype=np.uint8)
            image = cv2.imdecode(buffer, _REDUCED.get(reduction, _WHOLE))
        except cv2.error:
            image = None
    if (image is None or image.size == 0) and heif(data):
        raise PhotoError(
            Message(
                "{name} is a HEIC (or AVIF) photo, which cannot be read here: save it as "
                "JPEG (an iPhone takes JPEG photos with Settings > Camera > Formats > "
                "Most Compatible)",
                name=name,
            )
        )
    if image is None or image.size == 0:
        raise PhotoError(
            Message("{name} is not an image (JPEG or PNG) that can be read", name=name)
        )
    return to_bgr8(image)


def to_bgr8(image: np.ndarray) -> np.ndarray:
    """Any decoded image (grey, BGR, BGRA; 8 or 16 bit, or float) as 3-channel BGR uint8."""
    if image.dtype != np.uint8:
        if image.dtype == np.uint16:
            image = (image // 257).astype(np.uint8)
        else:
            image = np.clip(image, 0, 255).astype(np.uint8)
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    channels = image.shape[2]
    if channels == 1:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if channels == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if channels == 3:
        return image
    raise PhotoError(
        Message("an image with {channels} channels is not a photo", channels=channels)
    )


def read_photo(
    path: str, top: int = 9, min_confidence: float = DEFAULT_MIN_CONFIDENCE
) -> PhotoReading:
    """Load ``path`` and read its hand (see :func:`read_hand`). A big JPEG is decoded at
    a fraction of its size that still shows the tiles in the detail the reader uses;
    outlines, width and height are in the photo's own pixels all the same."""
    image, reduction = load_reduced(path, READ_SIZE)
    return read_hand(image, top, min_confidence, reduction=reduction)


# --- the pipeline ---------------------------------------------------------------------------


def working_copy(image: np.ndarray) -> np.ndarray:
    """The BGR ``image`` scaled so that its long side is :data:`WORK_SIZE` pixels (the
    reader's working image, before its blur)."""
    height, width = image.shape[:2]
    scale = WORK_SIZE / max(height, width)
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC
    return cv2.resize(image, (round(width * scale), round(height * scale)), interpolation=interp)


def reduced(image: np.ndarray) -> np.ndarray | None:
    """:func:`working_copy` of a BGR ``image`` bigger than it, else None. The smaller
    copies the networks and the reader need (the photo at 512 pixels; big tiles at about
    180 pixels wide) are scaled from it, not from the photo: a 12 MP photo is decoded at
    2,000 pixels, and scaling that down costs 0.015-0.02 s of CPU each time."""
    if max(image.shape[:2]) <= WORK_SIZE:
        return None
    return working_copy(image)


def read_hand(
    image: np.ndarray,
    top: int = 9,
    min_confidence: float = DEFAULT_MIN_CONFIDENCE,
    *,
    reduction: int = 1,
    smaller: np.ndarray | None = None,
) -> PhotoReading:
    """Read every face-up tile of one hand in a BGR (or grey) image.

    ``top`` is the set's highest pip (9 for double-nine). Returns the tiles read with
    confidence at least ``min_confidence``, and the others as :class:`Unreadable`.
    Boxes are in the pixels of ``image``, times ``reduction`` when ``image`` is the photo
    decoded at a fraction of its size. ``smaller``: :func:`reduced` of the image, when
    the caller has it.
    """
    image = to_bgr8(np.asarray(image))
    height, width = image.shape[:2]
    reading = PhotoReading(width=width * reduction, height=height * reduction)
    if min(height, width) < 16:
        return reading
    scale = WORK_SIZE / max(height, width)
    scaled = working_copy(image) if smaller is None else smaller
    work = cv2.GaussianBlur(scaled, (3, 3), 0)
    lab = bgr_to_lab(work).astype(np.float32)
    light = lab[:, :, 0]
    ab = lab[:, :, 1:] - 128.0

    mask, dark_background = tile_mask(light, ab)
    labels, stats, regions, dividers = regions_and_dividers(mask, light, ab)
    if not dividers and dark_background and light_table(light, ab):
        # A glare spot brighter than the tiles makes them look like table: what is lighter
        # than halfway to it is the spot alone. On a light, neutral table the tiles are
        # then what the border cannot reach without crossing an edge.
        other, _ = tile_mask(light, ab, darker=False)
        found = regions_and_dividers(other, light, ab)
        if found[3]:
            mask, dark_background = other, False
            labels, stats, regions, dividers = found
    candidates = tile_outlines(dividers, mask, light, labels, regions, stats)
    results, read = read_candidates(
        image, candidates, scale, top, dark_background, scaled if scale < 1 else None
    )
    cross_check(results)
    # Whatever no tile read covers is looked at again: a candidate that turned out to be
    # no tile face must not hide a tile it overlapped.
    results.extend(uncovered(read, regions, stats, light, ab))
    results.extend(missed_faces(read, results, light, ab))

    def to_box(corners: np.ndarray) -> Box:
        pts = np.asarray(corners, dtype=np.float64) * (reduction / scale)
        pts[:, 0] = np.clip(pts[:, 0], 0, reading.width - 1)
        pts[:, 1] = np.clip(pts[:, 1], 0, reading.height - 1)
        return [(round(float(px)), round(float(py))) for px, py in pts]

    results.sort(key=lambda r: (round(float(r[0][:, 1].mean()) / 40), float(r[0][:, 0].mean())))
    for corners, tile, conf, alts, reason in results:
        box = to_box(corners)
        if tile is not None and conf >= min_confidence:
            reading.reads.append(TileRead(tile, round(float(conf), 3), box))
        else:
            over = [int(n) for n in OVER_SET.findall(reason)]
            reading.unreadable.append(Unreadable(box, alts, reason, max(over, default=0)))
    return reading
