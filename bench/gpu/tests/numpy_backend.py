"""reference.evaluate's backend protocol on numpy arrays, for the tests
(the GPU check uses check.TorchBackend)."""

import math

import numpy as np


class NumpyBackend:
    """Arrays are numpy arrays; "bf16" values are float32 arrays holding
    bf16-rounded values (numpy has no bfloat16)."""

    def to(self, x, dtype):
        x = np.asarray(x)
        if dtype == "bf16":
            bits = x.astype(np.float32).view(np.uint32)
            bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
            return bits.astype(np.uint32).view(np.float32)
        return x.astype({"f16": np.float16, "f32": np.float32,
                         "f64": np.float64}[dtype], copy=False)

    exp = staticmethod(np.exp)
    sqrt = staticmethod(np.sqrt)
    erf = staticmethod(np.vectorize(math.erf))

    @staticmethod
    def relu(x):
        return np.maximum(x, 0)

    @staticmethod
    def concat(xs, dim):
        return np.concatenate(xs, axis=dim)

    @staticmethod
    def where(condition, a, b):
        return np.where(condition, a, b)

    @staticmethod
    def zeros(shape, dtype):
        return np.zeros(shape, {"f32": np.float32, "f64": np.float64}[dtype])

    @staticmethod
    def index(values):
        return np.asarray(list(values), dtype=np.int64)
