"""The array backends of mirage.interpreter.evaluate (its docstring gives
the protocol): TorchBackend (the GPU check and the benchmark) and
NumpyBackend (the tests). Neither library is imported at import time."""

import math


class TorchBackend:
    """Arrays are torch tensors; new tensors go to `device` (None: torch's
    default). `torch` is the torch module."""

    def __init__(self, torch, device=None):
        self.torch = torch
        self.device = device
        self.dtypes = {"f16": torch.float16, "bf16": torch.bfloat16,
                       "f32": torch.float32, "f64": torch.float64}

    def to(self, x, dtype):
        """`x` converted to `dtype` ("f16", "bf16", "f32" or "f64")."""
        return x.to(self.dtypes[dtype])

    def exp(self, x):
        """Elementwise e^x."""
        return self.torch.exp(x)

    def sqrt(self, x):
        """Elementwise square root."""
        return self.torch.sqrt(x)

    def erf(self, x):
        """Elementwise error function."""
        return self.torch.erf(x)

    def relu(self, x):
        """Elementwise max(x, 0)."""
        return self.torch.relu(x)

    def concat(self, xs, dim):
        """The tensors `xs` concatenated along `dim`."""
        return self.torch.cat(xs, dim)

    def amax(self, x, dim):
        """The maximum along `dim`, kept as a dimension of 1."""
        return self.torch.amax(x, dim, keepdim=True)

    def where(self, condition, a, b):
        """Elementwise `a` where `condition` holds, else `b`."""
        return self.torch.where(condition, a, b)

    def zeros(self, shape, dtype):
        """A new zero tensor of `shape` and `dtype` ("f32" or "f64")."""
        return self.torch.zeros(tuple(shape), dtype=self.dtypes[dtype],
                                device=self.device)

    def index(self, values):
        """A 1-D integer tensor of `values`, for indexing."""
        return self.torch.tensor(list(values), dtype=self.torch.long,
                                 device=self.device)


class NumpyBackend:
    """Arrays are numpy arrays; "bf16" values are float32 arrays holding
    bf16-rounded values (numpy has no bfloat16)."""

    def __init__(self):
        import numpy
        self.np = numpy
        self._erf = numpy.vectorize(math.erf)

    def to(self, x, dtype):
        """`x` converted to `dtype` ("f16", "bf16", "f32" or "f64"); bf16
        rounds to nearest even and stays float32."""
        np = self.np
        x = np.asarray(x)
        if dtype == "bf16":
            bits = x.astype(np.float32).view(np.uint32)
            bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
            return bits.astype(np.uint32).view(np.float32)
        return x.astype({"f16": np.float16, "f32": np.float32,
                         "f64": np.float64}[dtype], copy=False)

    def exp(self, x):
        """Elementwise e^x."""
        return self.np.exp(x)

    def sqrt(self, x):
        """Elementwise square root."""
        return self.np.sqrt(x)

    def erf(self, x):
        """Elementwise error function."""
        return self._erf(x)

    def relu(self, x):
        """Elementwise max(x, 0)."""
        return self.np.maximum(x, 0)

    def concat(self, xs, dim):
        """The arrays `xs` concatenated along `dim`."""
        return self.np.concatenate(xs, axis=dim)

    def amax(self, x, dim):
        """The maximum along `dim`, kept as a dimension of 1."""
        return self.np.max(x, axis=dim, keepdims=True)

    def where(self, condition, a, b):
        """Elementwise `a` where `condition` holds, else `b`."""
        return self.np.where(condition, a, b)

    def zeros(self, shape, dtype):
        """A new zero array of `shape` and `dtype` ("f32" or "f64")."""
        return self.np.zeros(shape, {"f32": self.np.float32,
                                     "f64": self.np.float64}[dtype])

    def index(self, values):
        """A 1-D integer array of `values`, for indexing."""
        return self.np.asarray(list(values), dtype=self.np.int64)
