"""A numpy stand-in for the parts of torch and triton that the modules of
`mirage-translate --mirage-to-triton` use, for tests on machines without
either (docs/Triton.md, "Testing without a GPU").

`install()` puts fake `torch`, `triton`, `triton.language` and
`triton.language.extra.libdevice` modules into sys.modules. Kernels run
program by program, sequentially, on numpy arrays. The fake is strict where
Triton is: tensor dimensions are powers of two, `tl.dot` takes 2-D or 3-D
operands of equal dtype with every extent at least 16, the math functions
take float32, loads and stores stay inside their buffers on the lanes their
mask keeps, and `num_warps` is a power of two.
"""

import math
import sys
import types

import numpy as np


def _is_pow2(n):
    return n >= 1 and n & (n - 1) == 0


def _check_shape(shape, what):
    for extent in shape:
        if not _is_pow2(extent):
            raise AssertionError(f"{what}: shape {tuple(shape)} is not made "
                                 "of powers of two")


#===---------------------------------------------------------------------===#
# torch
#===---------------------------------------------------------------------===#


class DType:
    """A dtype of either library: its name and the numpy type it is kept
    in (bfloat16 values are float32 arrays rounded to bf16)."""

    def __init__(self, name, numpy_type):
        self.name = name
        self.np = numpy_type

    def __repr__(self):
        return self.name


float16 = DType("float16", np.float16)
bfloat16 = DType("bfloat16", np.float32)
float32 = DType("float32", np.float32)
int32 = DType("int32", np.int32)


def _round(array, dtype):
    array = np.asarray(array)
    if dtype is bfloat16:
        bits = array.astype(np.float32).view(np.uint32)
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
        return bits.astype(np.uint32).view(np.float32)
    return array.astype(dtype.np)


class Tensor:
    """A torch tensor: a contiguous numpy array and its dtype."""

    def __init__(self, data, dtype):
        self.dtype = dtype
        self.data = np.ascontiguousarray(_round(data, dtype))
        self.device = "cuda"

    @property
    def shape(self):
        return tuple(self.data.shape)

    def is_contiguous(self):
        return True

    def float(self):
        return Tensor(self.data.astype(np.float32), float32)

    def to(self, dtype):
        return Tensor(self.data, dtype)

    def contiguous(self):
        return self

    def reshape(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], tuple):
            shape = shape[0]
        return Tensor(self.data.reshape(shape), self.dtype)

    def sum(self, dim):
        return Tensor(self.data.sum(dim, dtype=np.float32), self.dtype)

    def amax(self, dim, keepdim=False):
        return Tensor(self.data.max(dim, keepdims=keepdim), self.dtype)

    def square(self):
        return Tensor(self.data * self.data, self.dtype)

    def mean(self, dim, keepdim=False):
        return Tensor(self.data.mean(dim, keepdims=keepdim), self.dtype)

    def _binary(self, other, function):
        value = other.data if isinstance(other, Tensor) else other
        return Tensor(function(self.data, value), self.dtype)

    def __add__(self, other):
        return self._binary(other, np.add)

    __radd__ = __add__

    def __sub__(self, other):
        return self._binary(other, np.subtract)

    def __rsub__(self, other):
        return self._binary(other, lambda a, b: b - a)

    def __mul__(self, other):
        return self._binary(other, np.multiply)

    __rmul__ = __mul__

    def __truediv__(self, other):
        return self._binary(other, np.divide)

    def __rtruediv__(self, other):
        return self._binary(other, lambda a, b: b / a)

    def __neg__(self):
        return Tensor(-self.data, self.dtype)


def _unary(function):
    return lambda x: Tensor(function(x.data.astype(np.float32)), x.dtype)


def _make_torch():
    torch = types.ModuleType("torch")
    torch.float16, torch.bfloat16, torch.float32 = float16, bfloat16, float32
    torch.device = lambda name: name
    torch.empty = lambda shape, dtype, device: Tensor(
        np.full(shape, np.nan, np.float32), dtype)
    torch.exp = _unary(np.exp)
    torch.sqrt = _unary(np.sqrt)
    torch.erf = _unary(np.vectorize(math.erf, otypes=[np.float32]))
    torch.relu = _unary(lambda x: np.maximum(x, 0))
    torch.pow = lambda x, y: Tensor(np.power(x.data, y.data), x.dtype)
    torch.matmul = lambda a, b: Tensor(
        np.matmul(a.data.astype(np.float32), b.data.astype(np.float32)),
        a.dtype)
    torch.cat = lambda xs, dim: Tensor(
        np.concatenate([x.data for x in xs], axis=dim), xs[0].dtype)
    torch.chunk = lambda x, parts, dim: [
        Tensor(piece, x.dtype) for piece in np.split(x.data, parts, axis=dim)]
    return torch


#===---------------------------------------------------------------------===#
# triton and triton.language
#===---------------------------------------------------------------------===#


class Tile(np.ndarray):
    """A Triton register tensor."""

    def to(self, dtype):
        return _tile(_round(self, dtype))


def _tile(array):
    return np.asarray(array).view(Tile)


class Pointer:
    """A tensor's flat storage and element offsets into it."""

    def __init__(self, tensor, offsets=0):
        self.tensor = tensor
        self.offsets = offsets

    def __add__(self, other):
        return Pointer(self.tensor, self.offsets + np.asarray(other))

    __radd__ = __add__


def _program_ids():
    return _state["pid"]


_state = {"pid": (0, 0, 0)}


def _lanes(pointer, mask):
    offsets = np.asarray(pointer.offsets)
    if mask is None:
        mask = np.ones(offsets.shape, bool)
    shape = np.broadcast_shapes(offsets.shape, np.shape(mask))
    offsets = np.broadcast_to(offsets, shape)
    mask = np.broadcast_to(mask, shape)
    flat = pointer.tensor.data.reshape(-1)
    kept = offsets[mask]
    if kept.size and (kept.min() < 0 or kept.max() >= flat.size):
        raise AssertionError(f"access out of bounds: offsets "
                             f"[{kept.min()}, {kept.max()}] of {flat.size}")
    return flat, offsets, mask


def load(pointer, mask=None, other=None):
    flat, offsets, mask = _lanes(pointer, mask)
    _check_shape(offsets.shape, "tl.load")
    values = flat[np.where(mask, offsets, 0)]
    if other is not None:
        values = np.where(mask, values, other)
    return _tile(values.astype(flat.dtype))


def store(pointer, value, mask=None):
    flat, offsets, mask = _lanes(pointer, mask)
    value = np.broadcast_to(np.asarray(value), offsets.shape)
    flat[offsets[mask]] = _round(value[mask], pointer.tensor.dtype)


def arange(start, end):
    _check_shape([end - start], "tl.arange")
    return _tile(np.arange(start, end, dtype=np.int32))


def zeros(shape, dtype):
    _check_shape(shape, "tl.zeros")
    return _tile(np.zeros(shape, dtype.np))


def full(shape, value, dtype):
    _check_shape(shape, "tl.full")
    return _tile(np.full(shape, value, dtype.np))


def dot(a, b, input_precision=None):
    a, b = np.asarray(a), np.asarray(b)
    if a.ndim not in (2, 3) or a.ndim != b.ndim:
        raise AssertionError(f"tl.dot: operands of rank {a.ndim} and {b.ndim}")
    if a.dtype != b.dtype:
        raise AssertionError(f"tl.dot: dtypes {a.dtype} and {b.dtype}")
    if a.shape[-1] != b.shape[-2] or a.shape[:-2] != b.shape[:-2]:
        raise AssertionError(f"tl.dot: shapes {a.shape} and {b.shape}")
    for extent in (a.shape[-2], a.shape[-1], b.shape[-1]):
        if extent < 16:
            raise AssertionError(f"tl.dot: extent {extent} below 16 in "
                                 f"{a.shape} x {b.shape}")
    if a.dtype == np.float32 and input_precision != "ieee":
        raise AssertionError("tl.dot: float32 operands without ieee "
                             "precision would round to tf32")
    return _tile(np.matmul(a.astype(np.float64), b.astype(np.float64))
                 .astype(np.float32))


def _float32_only(name, function):
    def apply(x):
        if np.asarray(x).dtype != np.float32:
            raise AssertionError(f"tl.{name} of {np.asarray(x).dtype}")
        return _tile(function(np.asarray(x)))
    return apply


def _reduce(function):
    def apply(x, axis, keep_dims=False):
        return _tile(function(np.asarray(x), axis=axis, keepdims=keep_dims))
    return apply


def broadcast_to(x, shape):
    _check_shape(shape, "tl.broadcast_to")
    return _tile(np.broadcast_to(np.asarray(x), shape).copy())


def reshape(x, shape):
    _check_shape(shape, "tl.reshape")
    return _tile(np.asarray(x).reshape(shape))


def _make_triton():
    tl = types.ModuleType("triton.language")
    tl.float16, tl.bfloat16, tl.float32, tl.int32 = (float16, bfloat16,
                                                     float32, int32)
    tl.program_id = lambda axis: _program_ids()[axis]
    tl.arange, tl.zeros, tl.full = arange, zeros, full
    tl.load, tl.store, tl.dot = load, store, dot
    tl.exp = _float32_only("exp", np.exp)
    tl.sqrt = _float32_only("sqrt", np.sqrt)
    tl.erf = _float32_only("erf", np.vectorize(math.erf, otypes=[np.float32]))
    tl.sum = _reduce(np.sum)
    tl.max = _reduce(np.max)
    tl.maximum = lambda a, b: _tile(np.maximum(a, b))
    tl.where = lambda c, a, b: _tile(np.where(c, a, b))
    tl.broadcast_to, tl.reshape = broadcast_to, reshape
    tl.expand_dims = lambda x, axis: _tile(np.expand_dims(np.asarray(x), axis))
    tl.static_range = range

    extra = types.ModuleType("triton.language.extra")
    libdevice = types.ModuleType("triton.language.extra.libdevice")
    libdevice.pow = lambda a, b: _tile(np.power(a, b))
    extra.libdevice = libdevice
    tl.extra = extra

    triton = types.ModuleType("triton")
    triton.language = tl
    triton.jit = Kernel
    return {"triton": triton, "triton.language": tl,
            "triton.language.extra": extra,
            "triton.language.extra.libdevice": libdevice}


class Kernel:
    """A `@triton.jit` function; `kernel[grid](*args, num_warps=w)` runs
    every program of the grid in turn."""

    def __init__(self, function):
        self.function = function

    def __getitem__(self, grid):
        def launch(*args, num_warps):
            if not _is_pow2(num_warps):
                raise AssertionError(f"num_warps={num_warps}")
            pointers = [Pointer(a) if isinstance(a, Tensor) else a
                        for a in args]
            gx, gy, gz = grid
            for z in range(gz):
                for y in range(gy):
                    for x in range(gx):
                        _state["pid"] = (x, y, z)
                        self.function(*pointers)
        return launch


def install():
    """Puts the fake torch and triton modules into sys.modules."""
    sys.modules["torch"] = _make_torch()
    sys.modules.update(_make_triton())
