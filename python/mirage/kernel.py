"""`KernelGraph.superoptimize()`: the search in-process, a bundle in a
persistent cache, and a `Kernel` that runs it on torch tensors.

The cache lives in $MIRAGE_CACHE_DIR, else $XDG_CACHE_HOME/mirage, else
~/.cache/mirage, under kernels/<key>/, where the key hashes the program, the
search's options and the compiler's version: the second `superoptimize` of
the same graph returns at once. An entry is written in a temporary
directory and renamed into place, so concurrent callers never see half of
one.
"""

import contextlib
import functools
import hashlib
import os
import pathlib
import re
import shutil
import sys
import tempfile
import warnings

from mirage import compiler
from mirage import progress as progress_bar
from mirage.plan import read_plan

__all__ = ["Kernel", "superoptimize", "compile_graph", "cache_dir"]

#: The public implementation's map options: candidate maps its search
#: explores for every input (imaps, fmaps) and output (omaps), each an
#: (x, y, z) triple of tensor dimensions per grid axis (-1: replicated) or,
#: for fmaps, one dimension (-1: loaded once). The search here explores
#: the maps itself, so they are checked and change nothing.
_MAPS = {"imaps": 3, "omaps": 3, "fmaps": None}
#: The public implementation's search configurations (`config=`): presets
#: of its search space per program family. The search here derives its
#: space from the program, so a known name is accepted and changes nothing.
_CONFIGS = ("attention", "mlp", "lora")


def cache_dir():
    """The root of Mirage's caches (kernels/ holds superoptimized graphs)."""
    if os.environ.get("MIRAGE_CACHE_DIR"):
        return pathlib.Path(os.environ["MIRAGE_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or pathlib.Path.home() / ".cache"
    return pathlib.Path(base) / "mirage"


def _search_options(time_limit, search_threads, griddims, franges, options):
    """The `mirage-superoptimize` option string; ValueError for what is
    not accepted."""
    blockdims = options.pop("blockdims", None)
    config = options.pop("config", None)
    clusters = options.pop("clusters", False)
    if not isinstance(clusters, bool):
        raise ValueError(f"superoptimize: clusters is True or False, got "
                         f"{clusters!r}")
    for name, width in _MAPS.items():
        if name in options:
            _check_maps(name, options.pop(name), width)
    for name in options:
        raise TypeError(f"superoptimize: unknown option {name!r}")
    if config is not None and config not in _CONFIGS:
        raise ValueError(f"superoptimize: config must be one of {_CONFIGS} "
                         f"(or None), got {config!r}")
    if not (isinstance(time_limit, (int, float)) and time_limit > 0):
        raise ValueError(f"superoptimize: time_limit must be a positive "
                         f"number of seconds, got {time_limit!r}")
    if not (isinstance(search_threads, int) and 1 <= search_threads <= 256):
        raise ValueError(f"superoptimize: search_threads must be 1 to 256, "
                         f"got {search_threads!r}")
    parts = [f"time-limit={time_limit:g}", f"search-threads={search_threads}"]
    if blockdims is not None:
        blocks = {tuple(b) for b in blockdims}
        if len(blocks) != 1 or any(
                len(b) != 3 or b[1:] != (1, 1) or not isinstance(b[0], int)
                or not 1 <= b[0] <= 1024 for b in blocks):
            raise ValueError(f"superoptimize: blockdims must name one block "
                             f"shape (threads, 1, 1) with 1 to 1024 threads, "
                             f"got {blockdims!r}")
        parts.append(f"threads={next(iter(blocks))[0]}")
    if griddims is not None:
        sizes = set()
        for grid in griddims:
            if (len(grid) != 3 or any(not isinstance(d, int) or d < 1
                                      for d in grid)):
                raise ValueError(f"superoptimize: griddims entries are "
                                 f"(x, y, z) of positive integers, got "
                                 f"{grid!r}")
            sizes.update(d for d in grid if d > 1)
        if sizes:
            parts.append("grid-sizes=" + ",".join(map(str, sorted(sizes))))
    if franges is not None:
        if not franges or any(not isinstance(r, int) or r < 1
                              for r in franges):
            raise ValueError(f"superoptimize: franges are positive integers, "
                             f"got {franges!r}")
        parts.append("forloop-ranges=" + ",".join(map(str, franges)))
    if clusters:
        parts.append("clusters=true")
    return " ".join(parts)


def _check_maps(name, maps, width):
    """Checks the public implementation's map option `name` (see _MAPS)
    and warns that it changes nothing."""
    def is_dim(d):
        return isinstance(d, int) and not isinstance(d, bool) and d >= -1

    entries = list(maps) if isinstance(maps, (list, tuple)) else None
    if not entries or any(
            not is_dim(e) if width is None else
            (not isinstance(e, (list, tuple)) or len(e) != width or
             not all(is_dim(d) for d in e)) for e in entries):
        shape = "dimensions (-1 or more)" if width is None else \
            "(x, y, z) triples of dimensions (-1 or more)"
        raise ValueError(f"superoptimize: {name} is a non-empty list of "
                         f"{shape}, got {maps!r}")
    warnings.warn(f"superoptimize: {name} is checked and changes nothing: "
                  "the search explores the maps itself", stacklevel=3)


def _gpu_to_tune(tune):
    """Whether to tune: `tune`, or by default whether torch sees a CUDA
    device and the runtime library is built. tune=True without them is an
    error."""
    reason = None
    try:
        import torch
        if not torch.cuda.is_available():
            reason = "torch sees no CUDA device"
    except ImportError:
        reason = "torch is not installed"
    if reason is None:
        from mirage import runtime
        try:
            runtime.find_library()
        except FileNotFoundError as error:
            reason = str(error)
    if tune and reason:
        raise RuntimeError(f"superoptimize: tune=True needs a GPU to measure "
                           f"on, but {reason}")
    return reason is None if tune is None else bool(tune)


#: The code generators measured selection can choose between.
BACKENDS = ("ptx", "triton")


def _backends(backends, tuned):
    """The backends to measure: `backends` checked, or by default PTX and,
    when Triton can be imported, Triton. Without tuning only PTX runs."""
    if backends is None:
        if not tuned:
            return ("ptx",)
        import importlib.util
        return BACKENDS if importlib.util.find_spec("triton") else ("ptx",)
    chosen = (backends,) if isinstance(backends, str) else tuple(backends)
    if not chosen or "ptx" not in chosen or any(
            b not in BACKENDS for b in chosen) or len(set(chosen)) != len(
                chosen):
        raise ValueError(f"superoptimize: backends names \"ptx\" and "
                         f"optionally \"triton\", got {backends!r}")
    if "triton" in chosen and not tuned:
        raise ValueError("superoptimize: backends with \"triton\" needs "
                         "tuning on a GPU (tune=True or a GPU present)")
    return chosen


def _tune_on_gpu(graph, searched, chips, watch, backends):
    """Measured selection: the search's candidates and the program as
    written, compiled as one tuning group, checked and timed on the current
    CUDA device (as PTX and, with "triton" in `backends`, as Triton); the
    winner, a function and its backend, goes to the tuning database, where
    the superoptimize that follows finds it. Without candidates (a program
    the search does not cover) there is nothing to measure."""
    import torch
    from mirage import runtime, tuning
    with watch():
        text = compiler.run_pipeline(
            graph.to_mlir(),
            "mirage-superoptimize{" + searched + " emit-candidates=true}",
            name=f"{graph.name}.mlir")
    with tempfile.TemporaryDirectory(prefix="mirage-tune-") as directory:
        compiler.write_bundle(text, directory, chips,
                              name=f"{graph.name}.mlir")
        functions = read_plan(directory).functions.values()
        if not any(f.tuning is not None for f in functions):
            return "nothing to tune: the search emitted no candidates\n"
        module = None
        if "triton" in backends:
            try:
                module = compiler.write_triton_program(
                    text, pathlib.Path(directory) / "triton.py",
                    name=f"{graph.name}.mlir", skip_unsupported=True)
            except compiler.CompilerError as error:
                warnings.warn(f"superoptimize: no Triton forms to measure, "
                              f"PTX only: {error}", stacklevel=4)
        bundle = runtime.load_bundle(directory)
        try:
            return tuning.tune(bundle, module,
                               device_index=torch.cuda.current_device())
        finally:
            bundle.close()


def _progress_mode(progress):
    """"bar", "lines" or None, for superoptimize's `progress`."""
    if progress is None or progress is True:
        if sys.stderr.isatty():
            return "bar"
        return "lines" if progress else None
    if progress is False:
        return None
    if progress in ("bar", "lines"):
        return progress
    raise ValueError(f"superoptimize: progress is True, False, None, "
                     f'"bar" or "lines", got {progress!r}')


def superoptimize(graph, time_limit=60, search_threads=None, griddims=None,
                  franges=None, chips=(), progress=None, tune=None,
                  backends=None, **options):
    """Searches `graph` (a KernelGraph), verifies and compiles the winner,
    and returns a Kernel. The result is cached (see the module's doc).
    `progress` shows the search's progress on stderr: "bar" (one line
    rewritten in place, mirage.progress), "lines" (a line per for-loop
    range), True (the bar on a terminal, else lines), False, or None (the
    default: the bar on a terminal, else nothing). `tune` (default: when a
    GPU is there) measures the best candidates and the program as written
    on the GPU and keeps the fastest correct one; otherwise the cost model
    chooses. `backends` are the code generators tuning measures: "ptx"
    and "triton" (the default when Triton imports): the winner is a
    µGraph and a backend, and `Kernel.backend` says which runs."""
    if search_threads is None:
        search_threads = max(1, min(os.cpu_count() or 1, 16))
    mode = _progress_mode(progress)
    searched = _search_options(time_limit, search_threads, griddims, franges,
                               options)
    tuned = _gpu_to_tune(tune)
    backends = _backends(backends, tuned)
    if "triton" in backends:
        # A Triton winner is taken (and run as Triton) rather than the
        # fastest PTX form a bundle would hold.
        searched += " triton-winners=true"
    if tuned:
        # The cost model ranks for the GPU measured on, and the measurement
        # is recorded for its chip.
        import torch
        major, _ = torch.cuda.get_device_capability()
        searched += " chip=" + ("sm_90a" if major >= 9 else "sm_80")
    shown = " progress=true" if mode else ""
    watch = contextlib.nullcontext
    if mode == "bar":
        watch = functools.partial(progress_bar.bar, time_limit)
    pipeline = "mirage-superoptimize{" + searched + shown + "}"
    if not tuned:
        return _cached_kernel(graph, searched, pipeline, chips, watch=watch)
    return _cached_kernel(graph, searched + " tuned " + ",".join(backends),
                          pipeline, chips,
                          prepare=lambda: _tune_on_gpu(
                              graph, searched + shown, chips, watch,
                              backends),
                          watch=watch)


def compile_graph(graph, chips=()):
    """`graph` as written (custom kernels included), compiled into a bundle
    in the cache: a Kernel."""
    return _cached_kernel(graph, "as written", "", chips)


def _cached_kernel(graph, what, pipeline, chips, prepare=None,
                   watch=contextlib.nullcontext):
    """The cache entry of `graph` run through `pipeline` (keyed by `what`)
    within `watch()`, made when missing, after `prepare()` (whose text, the
    tuning report, the entry keeps as tuning.txt): a Kernel."""
    source = graph.to_mlir()
    key = hashlib.sha256("\0".join(
        [source, what, ",".join(chips), compiler.version()]).encode())
    entry = cache_dir() / "kernels" / key.hexdigest()[:32]
    if not (entry / "plan.json").is_file():
        report = prepare() if prepare else None
        with watch():
            text = compiler.run_pipeline(source, pipeline,
                                         name=f"{graph.name}.mlir")
        remarks = compiler.last_remarks()
        entry.parent.mkdir(parents=True, exist_ok=True)
        staging = pathlib.Path(tempfile.mkdtemp(prefix=".staging-",
                                                dir=entry.parent))
        try:
            compiler.write_bundle(text, staging, chips,
                                  name=f"{graph.name}.mlir")
            (staging / "source.mlir").write_text(text)
            if function_backend(text, graph.name) == "triton":
                compiler.write_triton_program(text, staging / "triton.py",
                                              name=f"{graph.name}.mlir")
            (staging / "remarks.txt").write_text(remarks)
            if report is not None:
                (staging / "tuning.txt").write_text(report)
            try:
                staging.rename(entry)
            except OSError:
                if not (entry / "plan.json").is_file():
                    raise
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return Kernel(entry, graph.name, len(graph.inputs))


def function_backend(text, function):
    """The backend that runs `function` of the MLIR `text`: "triton" when
    mirage-superoptimize marked it `mirage.backend = "triton"` (its Triton
    form was measured fastest), else "ptx"."""
    signature = re.search(r"^\s*func\.func @" + re.escape(function) +
                          r"\(.*$", text, re.MULTILINE)
    if signature and 'mirage.backend = "triton"' in signature.group(0):
        return "triton"
    return "ptx"


class Kernel:
    """A superoptimized graph: callable as `kernel(x, w)` (one tensor for one
    output, else a tuple) or `kernel(inputs=[x, w])` (always a list), on
    torch CUDA tensors, on the current stream; `out=` takes the outputs.
    Every call checks shapes, dtypes, devices and contiguity."""

    def __init__(self, directory, function, num_inputs):
        self.directory = pathlib.Path(directory)
        self.function = function
        self.num_inputs = num_inputs
        self._function = None

    @property
    def backend(self):
        """"ptx" (the bundle's PTX through the runtime) or "triton" (the
        Triton module of the same µGraph), whichever measured fastest."""
        if (self.directory / "triton.py").is_file():
            return "triton"
        return "ptx"

    @property
    def may_overlap(self):
        """Whether its launches may overlap (programmatic dependent launch,
        mirage.plan.FunctionSpec.may_overlap): only the PTX backend's."""
        return self.backend == "ptx" and read_plan(
            self.directory).functions[self.function].may_overlap

    @property
    def mlir(self):
        """The superoptimized program."""
        return (self.directory / "source.mlir").read_text()

    @property
    def remarks(self):
        """What the search said (configurations, candidates, estimate)."""
        return (self.directory / "remarks.txt").read_text()

    def generate_triton_program(self, path):
        """Writes the µGraph found as a Triton Python module to `path`
        (docs/Triton.md)."""
        return compiler.write_triton_program(self.mlir, path,
                                             name=f"{self.function}.mlir")

    def visualize(self, path):
        """Draws the µGraph found, every level, with Graphviz into `path`
        (.svg, .png, .pdf, or .dot for the source; mirage.visualize)."""
        from mirage import visualize
        return visualize.render(self.mlir, path, self.function)

    def _bound(self):
        if self._function is None:
            if self.backend == "triton":
                from mirage import tuning
                self._function = tuning.TritonFunction(self.directory,
                                                       self.function)
            else:
                from mirage import runtime
                self._function = runtime.load_bundle(self.directory)(
                    self.function)
        return self._function

    def __call__(self, *args, inputs=None, out=None, overlap=True):
        """Runs the kernel. `overlap=False` launches the PTX backend's
        kernels one after another, without programmatic dependent launch
        (mirage.runtime.BundleFunction); the Triton backend ignores it."""
        if inputs is not None and args:
            raise TypeError("Kernel: pass the tensors as arguments or as "
                            "inputs=[...], not both")
        tensors = list(inputs) if inputs is not None else list(args)
        if len(tensors) != self.num_inputs:
            raise TypeError(f"Kernel {self.function}: expected "
                            f"{self.num_inputs} input tensors, got "
                            f"{len(tensors)}")
        if self.backend == "ptx":
            result = self._bound()(*tensors, out=out, overlap=overlap)
        else:
            result = self._bound()(*tensors, out=out)
        if inputs is None:
            return result
        return list(result) if isinstance(result, tuple) else [result]

    def __repr__(self):
        return f"Kernel({self.function!r}, {str(self.directory)!r})"

