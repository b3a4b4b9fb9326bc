"""``np.median`` and ``np.percentile`` (its default, linear method) without ``numpy.ma``.

numpy 2's median checks its result for NaN through ``np.ma.isMaskedArray``, and its
percentile sorts with ``np.unique``, which asks ``np.ma.is_masked``: the first call of
either in a process imports the whole masked-array package, 0.01-0.03 s of CPU, a
twentieth of what a ``cf score --photo`` process costs (bench/README.md, section 13).
These are numpy's computations step for step: the same partial sort, the middle values'
mean taken by ``np.mean`` itself, the percentile's interpolation in the same types (of
float32 values in float32, of integers in float64), a NaN among the values giving NaN; so
each value is the one numpy 2 gives, to the bit. tests/test_photo_stats.py compares them on
arrays of every kind the reader passes, on the numpy installed. numpy 1, which the photo
extra still allows, promoted types by value (a percentile of float32 values came out as
float64): there, and before numpy 2 generally, these call numpy's own.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from cf.i18n import Message

Axis = int | tuple[int, ...] | None

#: numpy 2 or later, whose computation these repeat (NEP 50's promotion rules).
NUMPY_2 = int(np.__version__.split(".")[0]) >= 2


def _last(values: Any, axis: Axis) -> np.ndarray:
    """``values`` as an array whose last axis holds what ``axis`` names (all the values
    for None; several axes are joined into one, as numpy does)."""
    arr = np.asarray(values)
    if axis is None:
        return arr.ravel()
    axes = sorted(a % arr.ndim for a in ((axis,) if isinstance(axis, int) else axis))
    rest = [a for a in range(arr.ndim) if a not in axes]
    moved = np.moveaxis(arr, axes, range(len(rest), arr.ndim))
    return moved.reshape(*[arr.shape[a] for a in rest], -1)


def _nan_last(part: np.ndarray, result: Any) -> Any:
    """``result``, NaN where the values sorted into ``part`` end in NaN (numpy's check)."""
    if not np.issubdtype(part.dtype, np.inexact):
        return result
    last = part[..., -1]
    nan = np.isnan(last)
    if not nan.any():
        return result
    if np.ndim(result) == 0:
        return last
    out = np.array(result)
    np.copyto(out, last, where=nan)
    return out


def median(values: Any, axis: Axis = None) -> Any:
    """``np.median(values, axis=axis)``: a numpy scalar, or an array without ``axis``."""
    if not NUMPY_2:
        return np.median(values, axis=axis)
    arr = _last(values, axis)
    count = arr.shape[-1]
    if count == 0:
        return np.mean(arr, axis=-1)  # NaN, with numpy's warning
    half = count // 2
    kth = [half - 1, half] if count % 2 == 0 else [half]
    if np.issubdtype(arr.dtype, np.inexact):
        kth.append(count - 1)
    part = np.partition(arr, kth, axis=-1)
    middle = part[..., half - 1 : half + 1] if count % 2 == 0 else part[..., half : half + 1]
    return _nan_last(part, np.mean(middle, axis=-1))


def percentile(values: Any, q: float, axis: Axis = None) -> Any:
    """``np.percentile(values, q, axis=axis)`` for a number ``q`` (0 to 100): a numpy
    scalar, or an array without ``axis``."""
    if not NUMPY_2:
        return np.percentile(values, q, axis=axis)
    if not 0 <= q <= 100:
        raise ValueError(Message("a percentile is from 0 to 100"))  # numpy's error too
    arr = _last(values, axis)
    count = arr.shape[-1]
    if count == 0:
        raise IndexError(Message("a percentile of no values"))  # numpy's error too
    # As numpy: q / 100, and the index into the sorted values, in q's type (float64 for a
    # Python number).
    fraction = np.true_divide(q, 100)
    at = float((count - 1) * fraction)
    if at >= count - 1:
        # numpy takes the last value on both sides, its weight counted from index -1.
        low = high = count - 1
        weight = at + 1
    else:
        low = math.floor(at)
        high = low + 1
        weight = at - low
    # For a Python number q the weight keeps the values' own type (numpy 2's weak
    # promotion, NEP 50); a numpy one's type counts, as in numpy.
    weight = weight if type(q) in (int, float) else fraction.dtype.type(weight)
    part = np.partition(arr, sorted({0, count - 1, low, high}), axis=-1)
    below, above = part[..., low], part[..., high]
    step = above - below
    # numpy's interpolation: from the nearer of the two values.
    result = above - step * (1 - weight) if weight >= 0.5 else below + step * weight
    return _nan_last(part, result)
