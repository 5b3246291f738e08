"""Runs Mirage bundles on PyTorch CUDA tensors through ctypes.

A bundle is a directory with plan.json and one PTX file per chip
(docs/Runtime.md). This module reads a bundle's signatures from plan.json
(mirage.plan), checks call arguments in Python first (clear
`TypeError`/`ValueError`s), and then calls the C API of
`libmirage_runtime.so`, which checks again and enqueues the kernels on
PyTorch's current stream, so calls can be captured into CUDA graphs.

    import mirage.runtime
    bundle = mirage.runtime.load_bundle("out/gqa_bs1")
    y = bundle("gqa_bs1")(q, k, v)          # or bundle()(...) for the only one

Importing this module needs neither torch nor the library; argument checking
works on any object with `shape`, `dtype`, `stride()`, `device` and
`data_ptr()`, so it can be tested without either.
"""

import ctypes
import json
import os
import pathlib
import threading

from mirage import CHECKOUT
from mirage.plan import read_plan

__all__ = [
    "Bundle",
    "BundleFunction",
    "MirageArgumentError",
    "MirageError",
    "check_arguments",
    "find_library",
    "load_bundle",
]

#: Environment variable naming the runtime library to load.
LIBRARY_ENV = "MIRAGE_RUNTIME_LIBRARY"
LIBRARY_NAME = "libmirage_runtime.so"
#: Kernels may use 16-byte vector accesses (runtime/.../Arguments.h).
REQUIRED_ALIGNMENT = 16

_DTYPE_CODES = {"f16": 0, "bf16": 1, "f32": 2}
_TORCH_DTYPES = {"torch.float16": "f16", "torch.bfloat16": "bf16",
                 "torch.float32": "f32"}
_TORCH_NAMES = {name: torch_name for torch_name, name in _TORCH_DTYPES.items()}
_INVALID_ARGUMENT = 1


class MirageError(RuntimeError):
    """A failure reported by the runtime library (bundle or CUDA driver)."""


class MirageArgumentError(MirageError, ValueError):
    """Call arguments the runtime library rejected."""


def torch_dtype(name):
    """The torch dtype of plan dtype `name` ("f16", "bf16", "f32")."""
    import torch
    return getattr(torch, _TORCH_NAMES[name][len("torch."):])


def _dtype_name(tensor):
    """The bundle dtype of a tensor-like object, or None if it has none."""
    return _TORCH_DTYPES.get(str(tensor.dtype))


def _device_text(device):
    return device.type if device.index is None else \
        f"{device.type}:{device.index}"


def _check_tensor(function, what, spec, tensor):
    """Checks one tensor-like argument against its spec."""
    prefix = f"{function}: {what}"
    for attribute in ("shape", "dtype", "stride", "device", "data_ptr"):
        if not hasattr(tensor, attribute):
            raise TypeError(f"{prefix}: expected a torch.Tensor, got "
                            f"{type(tensor).__name__}")
    if tensor.device.type != "cuda":
        raise ValueError(f"{prefix}: on device {_device_text(tensor.device)}; "
                         "bundle functions take CUDA tensors")
    if _dtype_name(tensor) != spec.dtype:
        raise TypeError(f"{prefix}: expected dtype "
                        f"{_TORCH_NAMES[spec.dtype]}, got {tensor.dtype}")
    shape = tuple(tensor.shape)
    if shape != spec.shape:
        raise ValueError(f"{prefix}: expected shape {list(spec.shape)}, got "
                         f"{list(shape)}")
    strides = tuple(tensor.stride())
    if any(extent != 1 and actual != expected for extent, actual, expected
           in zip(shape, strides, spec.strides)):
        raise ValueError(f"{prefix}: strides {list(strides)} are not the "
                         f"contiguous strides {list(spec.strides)}; pass "
                         "tensor.contiguous()")
    if tensor.data_ptr() % REQUIRED_ALIGNMENT:
        raise ValueError(f"{prefix}: data pointer {tensor.data_ptr():#x} is "
                         f"not {REQUIRED_ALIGNMENT}-byte aligned")


def check_arguments(spec, inputs, outputs=None):
    """Checks call arguments against a FunctionSpec.

    `outputs` may be None (the caller will allocate them). Raises TypeError
    for a wrong count, a non-tensor or a wrong dtype, and ValueError for a
    wrong shape, non-contiguous strides, misalignment, or a tensor that is
    not on CUDA or not on the same device as the others. Returns the common
    device of the tensors checked (None when there are none).
    """
    groups = [("input", spec.inputs, list(inputs))]
    if outputs is not None:
        groups.append(("output", spec.outputs, list(outputs)))
    device, first = None, None
    for kind, specs, tensors in groups:
        if len(tensors) != len(specs):
            raise TypeError(f"{spec.name}: expected {len(specs)} {kind}s, got "
                            f"{len(tensors)}")
        for index, (tensor_spec, tensor) in enumerate(zip(specs, tensors)):
            what = f"{kind} {index}"
            _check_tensor(spec.name, what, tensor_spec, tensor)
            if device is None:
                device, first = tensor.device, what
            elif tensor.device != device:
                raise ValueError(
                    f"{spec.name}: {what}: on {_device_text(tensor.device)}, "
                    f"but {first} is on {_device_text(device)}")
    return device


def find_library(library=None):
    """The path of libmirage_runtime.so: `library` if given, else the file
    named by $MIRAGE_RUNTIME_LIBRARY, else build-runtime/ of this checkout.
    Raises FileNotFoundError naming what was tried."""
    if library is not None:
        candidates = [("the library argument", pathlib.Path(library))]
    elif os.environ.get(LIBRARY_ENV):
        candidates = [(f"${LIBRARY_ENV}",
                       pathlib.Path(os.environ[LIBRARY_ENV]))]
    else:
        candidates = [("the default",
                       CHECKOUT / "build-runtime" / LIBRARY_NAME)]
    source, path = candidates[0]
    if not path.is_file():
        raise FileNotFoundError(
            f"Mirage runtime library not found at {path} ({source}); build it "
            "with `cmake -S runtime -B build-runtime && cmake --build "
            f"build-runtime`, or set ${LIBRARY_ENV}")
    return path


class _Tensor(ctypes.Structure):
    """mirage_tensor of runtime/include/mirage/runtime/CApi.h."""
    _fields_ = [("data", ctypes.c_uint64),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("rank", ctypes.c_int32),
                ("dtype", ctypes.c_int32),
                ("device", ctypes.c_int32)]


_libraries = {}
_libraries_lock = threading.Lock()


def _load_library(path):
    """The ctypes handle of the library at `path`, loaded once."""
    key = str(pathlib.Path(path).resolve())
    with _libraries_lock:
        if key in _libraries:
            return _libraries[key]
        try:
            library = ctypes.CDLL(key)
        except OSError as error:
            raise MirageError(f"cannot load {key}: {error}") from None
        handle = ctypes.c_void_p
        library.mirage_bundle_load.argtypes = [
            ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
            ctypes.POINTER(handle)]
        library.mirage_bundle_free.argtypes = [handle]
        library.mirage_bundle_chip.argtypes = [
            handle, ctypes.POINTER(ctypes.c_char_p)]
        library.mirage_bundle_run.argtypes = [
            handle, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(_Tensor),
            ctypes.c_int, ctypes.POINTER(_Tensor), ctypes.c_void_p]
        library.mirage_bundle_run_ex.argtypes = \
            library.mirage_bundle_run.argtypes + [ctypes.c_int]
        library.mirage_bundle_tune_measured.argtypes = [
            handle, ctypes.c_char_p, ctypes.c_char_p,
            ctypes.POINTER(ctypes.c_char_p)]
        library.mirage_last_error.argtypes = []
        library.mirage_last_error.restype = ctypes.c_char_p
        for name in ("mirage_bundle_load", "mirage_bundle_free",
                     "mirage_bundle_chip", "mirage_bundle_run",
                     "mirage_bundle_run_ex", "mirage_bundle_tune_measured"):
            getattr(library, name).restype = ctypes.c_int
        _libraries[key] = library
        return library


def _init_torch_cuda():
    """Initialises torch's CUDA, when torch is there, before the runtime
    first touches the driver: on an H200, a process that loaded a bundle
    first and then ran Triton kernels through torch crashed."""
    try:
        import torch
        if torch.cuda.is_available():
            torch.cuda.init()
    except Exception:  # no torch, or no CUDA build: the runtime decides
        pass


def _raise_on_failure(library, status):
    """Raises the library's last error if `status` is a failure."""
    if status == 0:
        return
    message = library.mirage_last_error().decode(errors="replace")
    if status == _INVALID_ARGUMENT:
        raise MirageArgumentError(message)
    raise MirageError(message)


def _describe(tensor, keep_alive):
    """A mirage_tensor for a tensor-like object; its arrays go into
    `keep_alive` so they outlive the call."""
    shape = (ctypes.c_int64 * len(tensor.shape))(*tensor.shape)
    strides = (ctypes.c_int64 * len(tensor.shape))(*tensor.stride())
    keep_alive += [shape, strides]
    dtype = _dtype_name(tensor)
    index = tensor.device.index
    return _Tensor(tensor.data_ptr(), shape, strides, len(tensor.shape),
                   _DTYPE_CODES.get(dtype, -1), -1 if index is None else index)


class Bundle:
    """A bundle on disk, loaded into the runtime once per CUDA device used.

    `bundle.functions` lists the function names; `bundle(name)` (or
    `bundle()` for the only function) returns a callable BundleFunction.
    `chip` (None: the device's own) selects the PTX to load.
    """

    def __init__(self, directory, library_path, chip=None):
        self.directory = str(directory)
        self.requested_chip = chip
        self.specs = read_plan(directory).functions
        self._library = _load_library(library_path)
        self._handles = {}
        self._lock = threading.Lock()

    @property
    def functions(self):
        """The function names, in plan order."""
        return list(self.specs)

    def __call__(self, fn_name=None):
        if fn_name is None:
            if len(self.specs) != 1:
                raise ValueError(f"{self.directory} has {len(self.specs)} "
                                 f"functions ({', '.join(self.specs)}); name "
                                 "one")
            fn_name = next(iter(self.specs))
        if fn_name not in self.specs:
            raise ValueError(f"{self.directory} has no function {fn_name!r} "
                             f"(it has: {', '.join(self.specs)})")
        return BundleFunction(self, self.specs[fn_name])

    def handle(self, device_index):
        """The runtime's bundle for CUDA device `device_index`, loaded (PTX
        JIT-compiled, buffers allocated) on first use."""
        with self._lock:
            if device_index not in self._handles:
                _init_torch_cuda()
                handle = ctypes.c_void_p()
                status = self._library.mirage_bundle_load(
                    self.directory.encode(), device_index,
                    self.requested_chip.encode() if self.requested_chip
                    else None, ctypes.byref(handle))
                _raise_on_failure(self._library, status)
                self._handles[device_index] = handle
            return self._handles[device_index]

    def chip(self, device_index=0):
        """The chip whose PTX runs on device `device_index` ("sm_80" or
        "sm_90a")."""
        chip = ctypes.c_char_p()
        status = self._library.mirage_bundle_chip(self.handle(device_index),
                                                  ctypes.byref(chip))
        _raise_on_failure(self._library, status)
        return chip.value.decode()

    def tune(self, database=None, device_index=0, measurements=None):
        """Tunes every tuning group of the bundle on CUDA device
        `device_index`, as mirage-tune does, and records each winner in the
        tuning database `database` (default: $MIRAGE_TUNING_DB, else the
        user's cache); returns the groups' tables as text. Raises
        MirageError naming the first group that failed. `measurements` are
        the caller's measurements of the groups' functions under another
        backend, in the database's form (mirage.tuning.measure_triton):
        they compete with the tuner's PTX timings."""
        report = ctypes.c_char_p()
        status = self._library.mirage_bundle_tune_measured(
            self.handle(device_index),
            str(database).encode() if database else None,
            json.dumps(measurements).encode()
            if measurements is not None else None,
            ctypes.byref(report))
        text = (report.value or b"").decode(errors="replace")
        _raise_on_failure(self._library, status)
        return text

    def close(self):
        """Frees what the runtime loaded for every device."""
        with self._lock:
            handles, self._handles = self._handles, {}
        for handle in handles.values():
            self._library.mirage_bundle_free(handle)

    def __del__(self):
        # At interpreter exit the library may already be gone; nothing is
        # left to free then.
        try:
            if getattr(self, "_handles", None):
                self.close()
        except Exception:
            pass


class BundleFunction:
    """One function of a bundle, callable on torch CUDA tensors."""

    def __init__(self, bundle, spec):
        self.bundle = bundle
        self.spec = spec

    @property
    def name(self):
        return self.spec.name

    def __call__(self, *inputs, out=None, overlap=True):
        """Runs the function on `inputs` and returns its outputs: one tensor
        for a single output, else a tuple. `out` (a tensor or a sequence)
        receives the outputs instead of fresh torch.empty tensors. Runs on
        torch.cuda.current_stream() of the tensors' device. `overlap=False`
        launches its kernels one after the other, without programmatic
        dependent launch (how the tuner's winner runs when it was measured
        faster so; docs/Runtime.md, "Overlap")."""
        import torch

        outputs = None
        if out is not None:
            outputs = [out] if hasattr(out, "data_ptr") else list(out)
        device = check_arguments(self.spec, inputs, outputs)
        if device is None:
            device = torch.device("cuda", torch.cuda.current_device())
        if outputs is None:
            outputs = [torch.empty(spec.shape, dtype=torch_dtype(spec.dtype),
                                   device=device)
                       for spec in self.spec.outputs]
        stream = torch.cuda.current_stream(device)
        self.launch(inputs, outputs, stream.cuda_stream, device.index,
                    overlap)
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def launch(self, inputs, outputs, stream, device_index, overlap=True):
        """Enqueues the function on `stream` (a CUstream as an int) of CUDA
        device `device_index`, without the Python-side checks: the library
        still checks everything and raises MirageArgumentError for what it
        rejects. `overlap` as for __call__."""
        keep_alive = []
        ins = (_Tensor * max(len(inputs), 1))(
            *[_describe(t, keep_alive) for t in inputs])
        outs = (_Tensor * max(len(outputs), 1))(
            *[_describe(t, keep_alive) for t in outputs])
        library = self.bundle._library
        status = library.mirage_bundle_run_ex(
            self.bundle.handle(device_index), self.spec.name.encode(),
            len(inputs), ins, len(outputs), outs, ctypes.c_void_p(stream),
            int(bool(overlap)))
        _raise_on_failure(library, status)


def load_bundle(directory, library=None, device=None, chip=None):
    """Opens the bundle in `directory`.

    `library` is the path of libmirage_runtime.so (default: see
    find_library). With `device` (a CUDA device index) the bundle is loaded
    for that device now, so that load errors surface here; otherwise on the
    first call on each device. `chip` loads that chip's PTX instead of the
    device's own, e.g. "sm_80" on an H100 (its PTX JIT-compiles forward).
    """
    bundle = Bundle(directory, find_library(library), chip)
    if device is not None:
        bundle.handle(device)
    return bundle
