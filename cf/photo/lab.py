"""8-bit BGR to CIE L*a*b*, as ``cv2.cvtColor(image, cv2.COLOR_BGR2LAB)`` gives it, to the bit.

OpenCV builds all its Lab and Luv tables, in software floating point, the first time a
process converts to Lab: about 0.15 s of CPU, more than reading a whole photo's tiles
takes once the tables are there. Its 8-bit conversion itself is integer arithmetic over
two small tables (the sRGB gamma, 256 entries; the cube root, 3,072), which this module
builds in well under a millisecond and applies with ``cv2.LUT``, ``cv2.transform`` and
numpy. tests/test_photo_lab.py checks every one of the 2^24 colours against OpenCV's own
conversion.
"""

from __future__ import annotations

import cv2
import numpy as np

#: sRGB (linear) to XYZ, D65 (rows X, Y, Z; columns R, G, B), and the D65 white point.
_RGB2XYZ = (
    (0.412453, 0.357580, 0.180423),
    (0.212671, 0.715160, 0.072169),
    (0.019334, 0.119193, 0.950227),
)
_WHITE = (0.950456, 1.0, 1.088754)

#: Fixed-point shifts: XYZ in 12 bits, the gamma table in 3 more.
_XYZ_SHIFT, _GAMMA_SHIFT = 12, 3
_LAB_SHIFT = _XYZ_SHIFT + _GAMMA_SHIFT


def _gamma_table() -> np.ndarray:
    """sRGB decoding of each 8-bit value, times 255 * 2^3, rounded (float32, 256 x 1)."""
    x = (np.arange(256, dtype=np.float32) / np.float32(255)).astype(np.float64)
    linear = np.where(x <= 0.04045, x / 12.92, ((x + 0.055) / 1.055) ** 2.4)
    scaled = np.float32(255 << _GAMMA_SHIFT) * linear.astype(np.float32)
    return np.rint(scaled).astype(np.float32).reshape(256, 1)


def _cbrt_table() -> np.ndarray:
    """Lab's f(t) (cube root, linear near 0) of t = i / (255 * 2^3), times 2^15, rounded."""
    t = (np.float32(1) / np.float32(255 << _GAMMA_SHIFT)) * np.arange(3072, dtype=np.float32)
    low = np.float32(216) / np.float32(24389)
    linear = (t.astype(np.float64) * float(np.float32(841) / np.float32(108))) + float(
        np.float32(16) / np.float32(116)
    )
    f = np.where(
        t < low, linear.astype(np.float32), np.cbrt(t.astype(np.float64)).astype(np.float32)
    )
    table = np.rint(np.float32(1 << _LAB_SHIFT) * f).astype(np.int32)
    # OpenCV's own (software) cube root rounds f(324 / 2040) to the float32 below the
    # nearest, which falls on a tie once scaled: its table holds 17745 there.
    table[324] -= 1
    return table


def _xyz_matrix() -> np.ndarray:
    """3 x 4 affine matrix for ``cv2.transform`` on the gamma-decoded B, G, R channels:
    each of X/Xn, Y, Z/Zn in 12-bit fixed point, rounded and shifted back to the cube-root
    table's index. Every product and sum is exact in float32 (all below 2^24)."""
    m = np.zeros((3, 4), np.float64)
    for row in range(3):
        r, g, b = (round((1 << _XYZ_SHIFT) * c / _WHITE[row]) for c in _RGB2XYZ[row])
        m[row, :3] = (b, g, r)
    m[:, 3] = 1 << (_XYZ_SHIFT - 1)
    return (m / (1 << _XYZ_SHIFT)).astype(np.float32)


_GAMMA = _gamma_table()
_CBRT = _cbrt_table()
_XYZ = _xyz_matrix()
#: L* of each cube-root table index of Y (L depends on Y alone), as 8 bits.
_L = np.clip(
    (((116 * 255 + 50) // 100) * _CBRT - (16 * 255 * (1 << _LAB_SHIFT) + 50) // 100 + (1 << 14))
    >> _LAB_SHIFT,
    0,
    255,
).astype(np.uint8)


def bgr_to_lab(image: np.ndarray) -> np.ndarray:
    """A BGR uint8 image in 8-bit L*a*b*: exactly ``cv2.cvtColor(image, cv2.COLOR_BGR2LAB)``."""
    linear = cv2.LUT(np.ascontiguousarray(image), _GAMMA)
    # Indices into the cube-root table; all >= 0, so truncation is the floor.
    index: list[np.ndarray] = list(cv2.split(cv2.transform(linear, _XYZ).astype(np.uint16)))
    fx, fy, fz = (_CBRT.take(i) for i in index)
    offset = (128 << _LAB_SHIFT) + (1 << (_LAB_SHIFT - 1))
    a = (500 * (fx - fy) + offset) >> _LAB_SHIFT
    b = (200 * (fy - fz) + offset) >> _LAB_SHIFT
    return cv2.merge(
        [
            _L.take(index[1]),
            np.clip(a, 0, 255).astype(np.uint8),
            np.clip(b, 0, 255).astype(np.uint8),
        ]
    )
