"""The compiler in-process: libmirage_compiler.so (include/Mirage-c/Compiler.h)
through ctypes, so it loads into any Python version.

    from mirage import compiler
    text = compiler.run_pipeline(source, "mirage-superoptimize{time-limit=30}")
    compiler.write_bundle(text, "out/bundle")

Every call parses and verifies its MLIR first; a failure raises
CompilerError with the compiler's diagnostics (`file:line:col: error: ...`).
Remarks of a successful call (the search's summary) are kept in
`last_remarks()`.
"""

import ctypes
import json
import os
import pathlib
import threading

from mirage import CHECKOUT

__all__ = ["CompilerError", "LIBRARY_ENV", "find_library", "version",
           "run_pipeline", "write_bundle", "describe_function",
           "import_mirage_json", "export_mirage_json", "translate_to_triton",
           "write_triton_program", "last_remarks"]

#: Environment variable naming the compiler library to load.
LIBRARY_ENV = "MIRAGE_COMPILER_LIBRARY"
LIBRARY_NAME = "libmirage_compiler.so"


class CompilerError(RuntimeError):
    """What the compiler rejected: `diagnostics` holds its messages."""

    def __init__(self, what, diagnostics):
        super().__init__(f"{what}:\n{diagnostics.rstrip()}" if diagnostics
                         else what)
        self.diagnostics = diagnostics


class _Result(ctypes.Structure):
    """MirageCompilerResult."""
    _fields_ = [("succeeded", ctypes.c_int),
                ("output", ctypes.c_void_p),
                ("diagnostics", ctypes.c_void_p)]


def find_library(library=None):
    """The path of libmirage_compiler.so: `library` if given, else the file
    named by $MIRAGE_COMPILER_LIBRARY, else the one packaged with this
    module, else build/lib/ of this checkout. Raises FileNotFoundError
    naming what was tried."""
    if library is not None:
        tried = [pathlib.Path(library)]
    elif os.environ.get(LIBRARY_ENV):
        tried = [pathlib.Path(os.environ[LIBRARY_ENV])]
    else:
        tried = [pathlib.Path(__file__).parent / "lib" / LIBRARY_NAME,
                 CHECKOUT / "build" / "lib" / LIBRARY_NAME]
    for path in tried:
        if path.is_file():
            return path
    raise FileNotFoundError(
        "Mirage compiler library not found (tried "
        + ", ".join(str(p) for p in tried) + "); build it with "
        f"`bash scripts/build.sh`, or set ${LIBRARY_ENV}")


#: The library's functions of strings that return a MirageCompilerResult,
#: with their numbers of arguments.
_FUNCTIONS = {"mirageCompilerRunPipeline": 3, "mirageCompilerWriteBundle": 4,
              "mirageCompilerDescribeFunction": 3,
              "mirageCompilerImportMirageJSON": 3,
              "mirageCompilerExportMirageJSON": 2,
              "mirageCompilerTranslateToTriton": 2,
              "mirageCompilerTranslateSupportedToTriton": 2}

_lock = threading.Lock()
_library = None
_remarks = threading.local()


def _load():
    global _library
    with _lock:
        if _library is None:
            library = ctypes.CDLL(str(find_library()))
            library.mirageCompilerVersion.restype = ctypes.c_char_p
            for name, strings in _FUNCTIONS.items():
                function = getattr(library, name)
                function.restype = _Result
                function.argtypes = [ctypes.c_char_p] * strings
            library.mirageCompilerResultDestroy.argtypes = [
                ctypes.POINTER(_Result)]
            _library = library
        return _library


def _call(what, function, *arguments):
    library = _load()
    result = getattr(library, function)(
        *(a.encode() if isinstance(a, str) else a for a in arguments))
    succeeded = bool(result.succeeded)
    try:
        output = ctypes.string_at(result.output).decode()
        diagnostics = ctypes.string_at(result.diagnostics).decode()
    finally:
        library.mirageCompilerResultDestroy(ctypes.byref(result))
    if not succeeded:
        raise CompilerError(what, diagnostics)
    _remarks.text = diagnostics
    return output


def version():
    """The compiler's version ("0.6.0+g..."), as tuning databases key it."""
    return _load().mirageCompilerVersion().decode()


def run_pipeline(source, pipeline="", name="<graph>"):
    """Parses and verifies MLIR `source`, runs the textual pass `pipeline`
    on it (empty: none) and returns the printed module."""
    what = f"{name}: " + (f"pass pipeline '{pipeline}' failed" if pipeline
                          else "the program is invalid")
    return _call(what, "mirageCompilerRunPipeline", source, name, pipeline)


def write_bundle(source, directory, chips=(), name="<graph>"):
    """Compiles the functions of MLIR `source` that hold Mirage kernel ops
    into a bundle in `directory` (created if needed) for `chips` (empty:
    every chip the program runs on); returns the directory as a Path."""
    _call(f"{name}: the bundle could not be written", "mirageCompilerWriteBundle",
          source, name, str(directory), ",".join(chips))
    return pathlib.Path(directory)


def describe_function(source, function="", name="<graph>"):
    """The program that function `function` of MLIR `source` computes (empty:
    the only function with a body), as plan.json records programs: a dict of
    `values` (shape, dtype), `inputs`, `outputs` and `ops`."""
    return json.loads(_call(f"{name}: the function cannot be described",
                            "mirageCompilerDescribeFunction", source, name,
                            function))


def import_mirage_json(text, prefix="graph", name="<json>"):
    """The MLIR of a µGraph file of the public Mirage implementation (its
    list-of-graphs or single-graph JSON): graph `i` becomes
    `func.func @<prefix>_<i>`."""
    return _call(f"{name}: the µGraph file cannot be imported",
                 "mirageCompilerImportMirageJSON", text, name, prefix)


def export_mirage_json(source, name="<graph>"):
    """The kernel-graph functions of MLIR `source` as a µGraph file of the
    public Mirage implementation (JSON), one graph per function."""
    return _call(f"{name}: the graphs cannot be exported",
                 "mirageCompilerExportMirageJSON", source, name)


def translate_to_triton(source, name="<graph>", skip_unsupported=False):
    """MLIR `source` as one Triton Python module (docs/Triton.md): a
    `@triton.jit` kernel per graph_def and a host function per function.
    A function the backend does not support is an error naming the
    construct, or with `skip_unsupported` is left out (the warning is in
    last_remarks(), the module lists it in a comment)."""
    function = ("mirageCompilerTranslateSupportedToTriton" if skip_unsupported
                else "mirageCompilerTranslateToTriton")
    return _call(f"{name}: no Triton program", function, source, name)


def write_triton_program(source, path, name="<graph>",
                         skip_unsupported=False):
    """Writes translate_to_triton(source) to `path`; returns `path`."""
    text = translate_to_triton(source, name, skip_unsupported)
    with open(path, "w") as f:
        f.write(text)
    return path


def last_remarks():
    """The diagnostics (remarks, warnings) of this thread's last successful
    call, as text."""
    return getattr(_remarks, "text", "")
