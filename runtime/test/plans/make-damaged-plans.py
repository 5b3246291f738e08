#!/usr/bin/env python3
"""Writes the corpus of plan.json texts that both plan readers are tested on
(docs/Runtime.md, "One schema, two readers"): the plans of the test bundles
(runtime/test/bundles), valid variants of them, and damaged ones.

    make-damaged-plans.py [OUT_DIR]      (default: this script's directory)

writes OUT_DIR/corpus/NAME.json, one plan each, and OUT_DIR/verdicts.txt,
one line per plan with the verdict both readers must give:

    NAME accept
    NAME reject WHERE

WHERE is the field the first fault is reported at (a path such as
`functions[0].launches[0].grid`), `.` for the document itself (not an
object, a missing or unknown top-level field), or `json` for text the
readers do not take as JSON (syntax, UTF-8, nesting deeper than 256,
duplicate keys, NaN, numbers beyond a double), reported with its line and
column (or, by the Python reader, for what Python's json module takes, with
the value's path). A damaged plan has one fault, but for one with two that
checks which is reported first. The output depends on nothing but the test
bundles, so python/test/test_plan_corpus.py checks that the committed corpus
is what this script writes.
"""
import copy
import json
import pathlib
import shutil
import sys

HERE = pathlib.Path(__file__).resolve().parent
BUNDLES = HERE.parent / "bundles"


def bundle_plan(name):
    return json.loads((BUNDLES / name / "plan.json").read_text())


def encode(plan):
    """The corpus text of `plan`: one line, so the files stay small."""
    return (json.dumps(plan, ensure_ascii=False) + "\n").encode()


def with_tensor_map(plan):
    """cluster_exp with a TMA descriptor of its input for the sm_90a kernel:
    f16 [2, 512], boxes of 1 × 64 (128-byte rows, swizzled 128B)."""
    plan["functions"][0]["launches"][0]["args"].append({
        "kind": "input", "index": 0, "chip": "sm_90a",
        "tensor_map": {
            "tensor": {"shape": [2, 512], "dtype": "f16",
                       "strides": [512, 1]},
            "box": [1, 64], "swizzle": 128}})
    return plan


def with_shared_memory_by_chip(plan):
    """scale_add with its first launch's shared memory given by chip."""
    plan["functions"][0]["launches"][0]["shared_memory"] = {
        "sm_80": 1024, "sm_90a": 2048}
    return plan


def first_function(plan):
    """tuning_mean with only its first function (the program as written)."""
    del plan["functions"][1:]
    return plan


#: The plans the damage starts from, all valid: the test bundles' and three
#: variants, with what those lack (a TMA descriptor, shared memory by chip)
#: or smaller (tuning_mean's first function).
BASES = {
    "cluster_exp": bundle_plan("cluster_exp"),
    "scale_add": bundle_plan("scale_add"),
    "tuning_mean": bundle_plan("tuning_mean"),
    "tma": with_tensor_map(bundle_plan("cluster_exp")),
    "by_chip": with_shared_memory_by_chip(bundle_plan("scale_add")),
    "tuning": first_function(bundle_plan("tuning_mean")),
    "library": bundle_plan("library_matmul"),
}

LAUNCH = ["functions", 0, "launches", 0]
#: The second library call of library_matmul's chain_bf16: buffer x input.
LIBRARY = ["functions", 1, "launches", 1]
TMA_ARG = LAUNCH + ["args", 2]

#: Every object of the schema, at one place in one base: its fields, each
#: with the JSON kinds it may have and whether it is required
#: (docs/Runtime.md).
OBJECTS = [
    ("cluster_exp", [], {
        "format": ("string", True), "version": ("integer", True),
        "ptx": ("object", True), "functions": ("array", True)}),
    ("scale_add", ["ptx"], {
        "sm_80": ("string", False), "sm_90a": ("string", False)}),
    ("tuning", ["functions", 0], {
        "name": ("string", True), "inputs": ("array", True),
        "outputs": ("array", True), "buffers": ("array", True),
        "launches": ("array", True), "program": ("object", False),
        "reference": ("object", False), "tuning": ("object", False)}),
    ("cluster_exp", ["functions", 0, "inputs", 0], {
        "shape": ("array", True), "dtype": ("string", True),
        "strides": ("array", True)}),
    ("scale_add", ["functions", 0, "buffers", 0], {
        "bytes": ("integer", True)}),
    ("cluster_exp", LAUNCH, {
        "kernel": ("string", True), "grid": ("array", True),
        "block": ("array", True), "cluster": ("array", True),
        "non_portable_cluster": ("boolean", True),
        "shared_memory": ("integer object", True), "args": ("array", True)}),
    ("tma", TMA_ARG, {
        "kind": ("string", True), "index": ("integer", True),
        "tensor_map": ("object", False), "chip": ("string", False)}),
    ("tma", TMA_ARG + ["tensor_map"], {
        "tensor": ("object", True), "box": ("array", True),
        "swizzle": ("integer", False)}),
    ("tuning", ["functions", 0, "tuning"], {
        "key": ("string", True), "compiler": ("string", True),
        "candidate": ("integer", True)}),
    ("library", LIBRARY, {
        "library": ("string", True), "batch": ("integer", True),
        "m": ("integer", True), "n": ("integer", True),
        "k": ("integer", True), "dtype": ("string", True),
        "result_dtype": ("string", True), "args": ("array", True)}),
]

#: A value of each JSON kind, to put where another kind belongs (where an
#: integer belongs, a fraction is put).
WRONG_VALUES = {"null": None, "boolean": True, "integer": 7, "string": "x",
                "array": [], "object": {}}

#: The `where` of a damaged plan whose fault is reported at the value changed.
AT_PATH = object()


def path_text(path):
    """`path` (keys and indices) as the readers write it:
    functions[0].launches[0].grid; `.` for the document."""
    text = ""
    for step in path:
        if isinstance(step, int):
            text += f"[{step}]"
        else:
            text += f".{step}" if text else step
    return text or "."


def slug(path):
    """`path` in a file name: functions0.launches0.grid."""
    text = ""
    for step in path:
        text += str(step) if isinstance(step, int) or not text else f".{step}"
    return text or "root"


def at(plan, path):
    """The value at `path` (keys and indices) in `plan`."""
    for step in path:
        plan = plan[step]
    return plan


class Corpus:
    """The plans and verdicts to write, by file name."""

    def __init__(self):
        self.plans = {}

    def add(self, name, text, where=None):
        """Adds `text` as NAME.json: valid when `where` is None, else
        damaged with its fault reported at `where`."""
        assert name not in self.plans, name
        self.plans[name] = (text, where)

    def edit(self, base, name, change, where=None):
        """Adds base `base` changed in place by `change(plan)`."""
        plan = copy.deepcopy(BASES[base])
        change(plan)
        self.add(f"{base}.{name}", encode(plan), where)

    def set(self, base, path, value, label, where=AT_PATH):
        """Adds `base` with the value at `path` replaced by `value`."""
        def change(plan):
            at(plan, path[:-1])[path[-1]] = value
        self.edit(base, f"{slug(path)}={label}", change,
                  path_text(path) if where is AT_PATH else where)

    def text(self, base, name, old, new, where="json"):
        """Adds the text of `base` with its one `old` replaced by `new`."""
        text = encode(BASES[base])
        assert text.count(old) == 1, (base, old)
        self.add(f"{base}.{name}", text.replace(old, new), where)

    def write(self, directory):
        corpus = directory / "corpus"
        shutil.rmtree(corpus, ignore_errors=True)
        corpus.mkdir(parents=True)
        lines = []
        for name, (text, where) in sorted(self.plans.items()):
            (corpus / f"{name}.json").write_bytes(text)
            lines.append(f"{name} accept" if where is None
                         else f"{name} reject {where}")
        (directory / "verdicts.txt").write_text("\n".join(lines) + "\n")


def add_schema_faults(corpus):
    """Each field of each object: of every wrong JSON kind, and left out;
    each object with an unknown field."""
    for base, path, fields in OBJECTS:
        for field, (kinds, required) in fields.items():
            allowed = kinds.split()
            for kind, value in WRONG_VALUES.items():
                if kind not in allowed:
                    corpus.set(base, path + [field], value, kind)
            if "integer" in allowed:
                corpus.set(base, path + [field], 1.5, "fraction")

            def remove(plan, field=field):
                del at(plan, path)[field]
            corpus.edit(base, f"{slug(path)}-without-{field}", remove,
                        path_text(path) if required else None)

        def add_unknown(plan):
            at(plan, path)["colour"] = "blue"
        # An unknown key of ptx is an unknown chip.
        corpus.edit(base, f"{slug(path)}-with-colour", add_unknown,
                    path_text(path))


def add_header_faults(corpus):
    """format, version and ptx: wrong values, unknown chips, PTX file names
    that are not plain names."""
    for value, label in [("Mirage-bundle", "capital"), ("", "empty")]:
        corpus.set("cluster_exp", ["format"], value, label)
    for value, label in [(2, "2"), (0, "0"), (-1, "minus1"),
                         (2147483648, "2pow31"), (1.0, "1.0")]:
        corpus.set("cluster_exp", ["version"], value, label)
    corpus.set("cluster_exp", ["ptx"], {}, "empty")
    for chip in ["sm_75", "sm_90", "SM_90A", "sm_100a", ""]:
        corpus.set("cluster_exp", ["ptx"], {chip: "x.ptx"},
                   f"chip-{chip or 'empty'}", "ptx")
    for name, label in [("", "empty"), ("../sm_90a.ptx", "parent"),
                        ("/tmp/sm_90a.ptx", "absolute"),
                        ("ptx/sm_90a.ptx", "subdirectory"),
                        ("..\\sm_90a.ptx", "backslash"), (".", "dot"),
                        ("..", "dotdot"), ("sm_90a.ptx\0.txt", "nul")]:
        corpus.set("cluster_exp", ["ptx", "sm_90a"], name, label)
    for name, label in [("..sm_90a.ptx", "leading-dots"),
                        ("sm 90a ✓.ptx", "unicode")]:
        corpus.set("cluster_exp", ["ptx", "sm_90a"], name, label, None)


def add_function_faults(corpus):
    """Function lists and names, empty lists, indices left dangling."""
    function = ["functions", 0]
    corpus.set("cluster_exp", ["functions"], [], "empty")
    corpus.set("scale_add", ["functions", 1, "name"], "scale_add",
               "duplicate")
    corpus.set("cluster_exp", function + ["name"], "", "empty")
    corpus.set("cluster_exp", function + ["name"], "cluster\0exp", "nul")
    corpus.set("cluster_exp", function + ["name"], "clüster ✓", "unicode",
               None)
    corpus.set("cluster_exp", function + ["inputs"], [], "empty",
               path_text(LAUNCH + ["args", 0, "index"]))
    corpus.set("cluster_exp", function + ["outputs"], [], "empty")
    corpus.set("scale_add", function + ["buffers"], [], "empty",
               path_text(LAUNCH + ["args", 2, "index"]))
    corpus.set("cluster_exp", function + ["launches"], [], "empty")
    corpus.set("cluster_exp", function + ["program"], {}, "empty", None)
    corpus.set("cluster_exp", function + ["reference"],
               {"anything": [1, {"x": None}]}, "unchecked", None)


def add_tensor_faults(corpus):
    """Shapes (rank 0, sizes at and beyond the limit), dtypes, strides."""
    tensor = ["functions", 0, "inputs", 0]

    def reshaped(shape, strides, label, where):
        def change(plan):
            at(plan, tensor).update(shape=shape, strides=strides)
        corpus.edit("cluster_exp", f"{slug(tensor)}.shape={label}", change,
                    where)
    shape = path_text(tensor + ["shape"])
    reshaped([], [], "rank0", None)
    reshaped([2 ** 47], [1], "largest-f16", None)
    reshaped([2 ** 47 + 1], [1], "too-large-f16", shape)
    reshaped([2 ** 24, 2 ** 24], [2 ** 24, 1], "2pow48", shape)
    reshaped([2, 2 ** 63 - 1], [2 ** 63 - 1, 1], "int64-max", shape)
    for value, label in [([2, 0], "zero"), ([2, -512], "negative"),
                         ([2, 512.0], "fraction"),
                         (["2", 512], "string-extent"),
                         ([True, 512], "boolean-extent"),
                         ([None], "null-extent"),
                         ([2, 99999999999999999999], "beyond-int64")]:
        corpus.set("cluster_exp", tensor + ["shape"], value, label)
    for value, label in [("f64", "f64"), ("F16", "capital"),
                         ("float16", "float16"), ("", "empty")]:
        corpus.set("cluster_exp", tensor + ["dtype"], value, label)
    for value, label in [([1, 512], "column-major"), ([512], "short"),
                         ([512, 1, 1], "long"),
                         ([512.0, 1], "fraction-stride"),
                         ([512, True], "boolean-stride"),
                         ([1024, 1], "padded")]:
        corpus.set("cluster_exp", tensor + ["strides"], value, label)


def add_buffer_faults(corpus):
    """Buffer sizes at and beyond the limits; whether a buffer is zeroed."""
    size = ["functions", 0, "buffers", 0, "bytes"]
    for value, label in [(0, "0"), (-1, "minus1"), (2 ** 48 + 1, "2pow48+1"),
                         (9600.0, "9600.0")]:
        corpus.set("scale_add", size, value, label)
    corpus.set("scale_add", size, 2 ** 48, "2pow48", None)
    # "zeroed" (the counters of a combine tail) is true or false.
    zeroed = ["functions", 0, "buffers", 0, "zeroed"]
    for value in [True, False]:
        corpus.set("scale_add", zeroed, value, str(value).lower(), None)
    for value, label in [("yes", "string"), (1, "integer"), (None, "null")]:
        corpus.set("scale_add", zeroed, value, label)


def add_launch_faults(corpus):
    """Kernel names, grids, blocks and clusters against the hardware's
    limits, shared memory in bytes and by chip, empty argument lists."""
    def launch(base, field, value, label, where=AT_PATH):
        corpus.set(base, LAUNCH + [field], value, label, where)

    launch("cluster_exp", "kernel", "", "empty")
    launch("cluster_exp", "kernel", "cluster\0exp", "nul")
    for value, label in [([0, 1, 1], "zero"), ([8, 1], "short"),
                         ([8, 1, 1, 1], "long"), ([8, -1, 1], "negative"),
                         ([8, 1, "1"], "string-extent"),
                         ([8.0, 1, 1], "fraction"),
                         ([2 ** 31, 1, 1], "2pow31"),
                         ([8, 65536, 1], "y-limit"),
                         ([8, 1, 65536], "z-limit")]:
        launch("cluster_exp", "grid", value, label)
    launch("scale_add", "grid", [2 ** 31 - 1, 65535, 65535], "largest", None)
    for value, label in [([1025, 1, 1], "x-limit"), ([1, 1025, 1], "y-limit"),
                         ([1, 1, 65], "z-limit"), ([64, 32, 1], "2048"),
                         ([2 ** 31 - 1] * 3, "huge"), ([0, 1, 1], "zero")]:
        launch("cluster_exp", "block", value, label)
    for value, label in [([1024, 1, 1], "1024"), ([16, 1, 64], "16x64")]:
        launch("cluster_exp", "block", value, label, None)
    for value, label in [([3, 1, 1], "not-dividing"), ([0, 1, 1], "zero"),
                         ([2 ** 31 - 1] * 3, "huge")]:
        launch("cluster_exp", "cluster", value, label)

    def clusters(grid, cluster, portable):
        def change(plan):
            at(plan, LAUNCH).update(
                grid=grid, cluster=cluster, non_portable_cluster=not portable)
        return change
    cluster = path_text(LAUNCH + ["cluster"])
    corpus.edit("cluster_exp", "cluster-16-non-portable",
                clusters([16, 1, 1], [16, 1, 1], False), None)
    corpus.edit("cluster_exp", "cluster-16-portable",
                clusters([16, 1, 1], [16, 1, 1], True), cluster)
    corpus.edit("scale_add", "cluster-with-sm_80",
                clusters([20, 1, 1], [2, 1, 1], True), cluster)

    def cluster_then_bad_name(plan):
        clusters([20, 1, 1], [2, 1, 1], True)(plan)
        plan["functions"][1]["name"] = ""
    # Clusters are checked against the chips after every function is read.
    corpus.edit("scale_add", "cluster-with-sm_80-and-empty-name",
                cluster_then_bad_name, "functions[1].name")
    launch("cluster_exp", "non_portable_cluster", 0, "0")
    for value, label in [(-1, "minus1"), (2 ** 31, "2pow31")]:
        launch("cluster_exp", "shared_memory", value, label)
    launch("cluster_exp", "shared_memory", 2 ** 31 - 1, "largest", None)
    launch("cluster_exp", "shared_memory", {"sm_90a": 65536}, "by-chip",
           None)
    launch("cluster_exp", "shared_memory", {"sm_80": 1, "sm_90a": 2},
           "other-chip", path_text(LAUNCH + ["shared_memory"]))
    for value, label, where in [
            ({"sm_80": 1}, "missing-chip", ""),
            ({"sm_80": 1, "sm_90a": 2, "sm_75": 3}, "unknown-chip", ""),
            ({"sm_80": -1, "sm_90a": 2}, "negative", ".sm_80"),
            ({"sm_80": "1", "sm_90a": 2}, "string", ".sm_80"),
            ({"sm_80": 1, "sm_90a": 2.5}, "fraction", ".sm_90a")]:
        launch("by_chip", "shared_memory", value, label,
               path_text(LAUNCH + ["shared_memory"]) + where)
    launch("cluster_exp", "args", [], "empty", None)


def add_argument_faults(corpus):
    """Argument kinds, indices out of range, chips."""
    def arg(base, index, field, value, label, where=AT_PATH):
        corpus.set(base, LAUNCH + ["args", index, field], value, label, where)

    for value, label in [("weight", "weight"), ("Input", "capital"),
                         ("", "empty")]:
        arg("cluster_exp", 0, "kind", value, label)
    for value, label in [(-1, "minus1"), (1, "beyond-inputs"),
                         (2 ** 48 + 1, "2pow48+1"), (2 ** 53 + 1, "2pow53+1"),
                         (0.0, "fraction")]:
        arg("cluster_exp", 0, "index", value, label)
    arg("cluster_exp", 1, "index", 1, "beyond-outputs")
    arg("scale_add", 2, "index", 1, "beyond-buffers")
    for value, label in [("sm_75", "unknown"), ("sm_80", "not-in-ptx"),
                         ("", "empty")]:
        arg("cluster_exp", 0, "chip", value, label)
    arg("scale_add", 0, "chip", "sm_80", "sm_80", None)


def add_tensor_map_faults(corpus):
    """TMA descriptors: ranks 0 to 6, empty and oversized boxes, rows of
    whole 16-byte chunks, tensors larger than their memory, swizzles."""
    tensor_map = TMA_ARG + ["tensor_map"]

    def tma(name, where, **fields):
        def change(plan):
            at(plan, tensor_map).update(fields)
        corpus.edit("tma", name, change,
                    where if where is None else path_text(tensor_map) + where)

    def tensor(shape, strides, dtype="f16"):
        return {"shape": shape, "dtype": dtype, "strides": strides}
    tma("rank0", ".tensor", tensor=tensor([], []), box=[])
    tma("rank0-box1", ".tensor", tensor=tensor([], []), box=[1])
    tma("rank6", ".tensor", tensor=tensor([1, 1, 1, 1, 2, 512],
                                          [1024, 1024, 1024, 1024, 512, 1]),
        box=[1, 1, 1, 1, 1, 64])
    tma("rank5", None, tensor=tensor([1, 1, 1, 2, 512],
                                     [1024, 1024, 1024, 512, 1]),
        box=[1, 1, 1, 1, 64])
    tma("rank1", None, tensor=tensor([1024], [1]), box=[64])
    tma("box-empty", ".box", box=[])
    tma("box-rank3", ".box", box=[1, 1, 64])
    tma("box-zero", ".box[1]", box=[1, 0])
    tma("box-257", ".box[1]", box=[1, 257])
    tma("box-fraction", ".box[1]", box=[1, 64.0])
    tma("box-string", ".box[0]", box=["1", 64])
    tma("box-rows-8-bytes", ".box", box=[1, 4])
    tma("tensor-rows-8-bytes", ".box", tensor=tensor([256, 4], [4, 1]),
        box=[1, 8])
    tma("tensor-too-large", ".tensor", tensor=tensor([4, 512], [512, 1]))
    tma("tensor-dtype", ".tensor.dtype", tensor=tensor([2, 512], [512, 1],
                                                       "f8"))
    tma("tensor-strides", ".tensor.strides", tensor=tensor([2, 512], [1, 2]))
    tma("tensor-missing-strides", ".tensor",
        tensor={"shape": [2, 512], "dtype": "f16"})
    for value in [64, 256, 0, 16, 48]:
        tma(f"swizzle-{value}", ".swizzle", swizzle=value)
    tma("swizzle-64-box-32", None, box=[1, 32], swizzle=64)
    tma("f32-swizzle-128", None, tensor=tensor([2, 256], [256, 1], "f32"),
        box=[1, 32])
    corpus.set("tma", TMA_ARG + ["kind"], "output", "output", None)


def add_library_faults(corpus):
    """Library matmuls: unknown calls, sizes, dtypes, arguments and the
    memory they are bound to."""
    def call(field, value, label, where=AT_PATH):
        corpus.set("library", LIBRARY + [field], value, label, where)

    args = LIBRARY + ["args"]
    for value, label in [("gemm", "gemm"), ("Matmul", "capital"),
                         ("", "empty")]:
        call("library", value, label)
    for field in ["batch", "m", "n", "k"]:
        for value, label in [(0, "0"), (-1, "minus1"), (2 ** 31, "2pow31")]:
            call(field, value, label)
    # Smaller sizes need less memory than is bound: accepted.
    call("m", 1, "1", None)
    call("n", 41, "41", path_text(args + [1]))
    call("k", 25, "25", path_text(args + [0]))
    call("batch", 2, "2", path_text(args + [0]))
    for field in ["dtype", "result_dtype"]:
        call(field, "f64", "f64")
    call("result_dtype", "f16", "f16")
    call("result_dtype", "f32", "f32", path_text(args + [2]))
    call("dtype", "f16", "f16", path_text(LIBRARY + ["result_dtype"]))
    for count in [2, 5]:
        def resize(plan, count=count):
            listed = at(plan, args)
            listed[:] = (listed * 2)[:count]
        corpus.edit("library", f"args-{count}", resize, path_text(args))
    # A fourth argument is the addend (result = lhs x rhs + addend): bound to
    # enough memory other than the result's.
    for addend, label, where in [
            ({"kind": "input", "index": 0}, "addend", None),
            ({"kind": "output", "index": 0}, "addend-is-result",
             path_text(args + [3])),
            ({"kind": "buffer", "index": 0}, "addend-short",
             path_text(args + [3]))]:
        def add_addend(plan, addend=addend):
            at(plan, args).append(addend)
        corpus.edit("library", label, add_addend, where)
    call("args", [], "empty", path_text(args))
    corpus.set("library", args + [0, "index"], 1, "beyond-buffers")
    corpus.set("library", args + [1, "chip"], "sm_80", "chip",
               path_text(args + [1]))
    corpus.set("library", args + [1, "chip"], "sm_75", "unknown-chip")
    corpus.set("library", args + [0, "tensor_map"],
               {"tensor": {"shape": [48, 24], "dtype": "bf16",
                           "strides": [24, 1]}, "box": [1, 8]},
               "tensor-map", path_text(args + [0]))
    # The result bound to an input of other dimensions.
    corpus.set("library", args + [2], {"kind": "input", "index": 2},
               "result-in-input", path_text(args + [2]))
    corpus.set("library", ["functions", 1, "buffers", 0, "bytes"], 2303,
               "buffer-short", path_text(["functions", 1, "launches", 0,
                                          "args", 2]))

    def kernel_fields(plan):
        at(plan, LIBRARY)["grid"] = [1, 1, 1]
    corpus.edit("library", "with-grid", kernel_fields, path_text(LIBRARY))

    def library_only(plan):
        del at(plan, LIBRARY)["library"]
    # Without "library" it is read as a kernel launch.
    corpus.edit("library", "without-library-key", library_only,
                path_text(LIBRARY))


def add_tuning_faults(corpus):
    """Tuning keys, compilers and candidates."""
    tuning = ["functions", 0, "tuning"]
    key = BASES["tuning"]["functions"][0]["tuning"]["key"]
    for value, label in [(key.upper(), "upper"), (key[1:], "63"),
                         (key + "0", "65"), ("g" * 64, "not-hex"),
                         (int("1" * 18), "number")]:
        corpus.set("tuning", tuning + ["key"], value, label)
    corpus.set("tuning", tuning + ["compiler"], "", "empty")
    for value, label in [(-2, "minus2"), (2 ** 31, "2pow31")]:
        corpus.set("tuning", tuning + ["candidate"], value, label)
    corpus.set("tuning", tuning + ["candidate"], 5, "5", None)


def add_document_faults(corpus):
    """Texts that are not a plan object, or not JSON the readers take."""
    text = encode(BASES["cluster_exp"])
    for name, document, where in [
            ("empty", b"", "json"), ("blank", b"  \n", "json"),
            ("null", b"null", "."), ("array", b"[]", "."),
            ("string", b'"plan"', "."), ("number", b"7", "."),
            ("object", b"{}", "."), ("brace", b"{", "json"),
            ("garbage", text + b"x", "json"), ("twice", text + text, "json"),
            ("bom", b"\xef\xbb\xbf" + text, "json"),
            ("comment", b"// plan\n" + text, "json"),
            ("form-feed", b"\x0c" + text, "json"),
            ("crlf", text.replace(b", ", b",\r\n"), None),
            ("padded", b" \t\r\n" + text + b" \t\r\n", None)]:
        corpus.add(f"document.{name}", document, where)
    for cut in [1, 10, 100, 400, len(text) - 2]:
        corpus.add(f"cluster_exp.truncated-{cut}", text[:cut], "json")
    for base, plan in BASES.items():
        corpus.add(base, encode(plan))


def add_syntax_faults(corpus):
    """JSON syntax: separators, quotes, literals, duplicate keys, numbers."""
    def text(name, old, new, where="json"):
        corpus.text("cluster_exp", name, old, new, where)

    text("missing-comma", b'"version": 1, ', b'"version": 1 ')
    text("trailing-comma", b'"grid": [8, 1, 1]', b'"grid": [8, 1, 1,]')
    text("single-quotes", b'"format"', b"'format'")
    text("unquoted-key", b'"format"', b"format")
    text("tab-in-string", b'"cluster_exp"', b'"cluster\texp"')
    text("bad-escape", b'"cluster_exp"', b'"cluster\\qexp"')
    text("python-true", b'"non_portable_cluster": true',
         b'"non_portable_cluster": True')
    text("duplicate-key", b'"version": 1, ', b'"version": 1, "version": 1, ')
    text("duplicate-key-in-function", b'"buffers": [], ',
         b'"buffers": [], "buffers": [], ')
    # Numbers that are not JSON, or not integers.
    for number, label, where in [
            (b"01", "leading-zero", "json"), (b"+1", "plus", "json"),
            (b"1.", "dot", "json"), (b"-", "minus", "json"),
            (b"1e", "e", "json"), (b"0x1", "hex", "json"),
            (b"1e0", "exponent", "version"),
            (b"1" + b"0" * 22, "beyond-int64", "version")]:
        text(f"version-{label}", b'"version": 1, ',
             b'"version": ' + number + b", ", where)


def add_string_faults(corpus):
    """Names and reference strings: escapes, UTF-16 surrogates, UTF-8."""
    def name(label, raw, where="json"):
        corpus.text("cluster_exp", f"name-{label}", b'"name": "cluster_exp"',
                    b'"name": "' + raw + b'"', where)

    name("lone-high-surrogate", b"a\\ud800b")
    name("lone-low-surrogate", b"a\\udc00b")
    name("reversed-surrogates", b"\\ude00\\ud83d")
    name("surrogate-pair", b"a\\ud83d\\ude00b", None)
    name("escaped-backslash-u", b"a\\\\ud800b", None)
    name("escaped-nul", b"a\\u0000b", "functions[0].name")
    name("escapes", b"a\\\"\\/\\b\\f\\n\\r\\tb", None)
    for label, raw in [("latin1", b"caf\xe9"), ("ff", b"\xff"),
                       ("continuation", b"a\x80b"),
                       ("overlong-2", b"\xc0\xaf"),
                       ("overlong-3", b"\xe0\x80\xaf"),
                       ("overlong-4", b"\xf0\x80\x80\xaf"),
                       ("surrogate", b"\xed\xa0\x80"),
                       ("beyond-10ffff", b"\xf4\x90\x80\x80"),
                       ("f5", b"\xf5\x80\x80\x80"),
                       ("truncated", b"\xe2\x82")]:
        name(f"utf8-{label}", raw)
    for label, raw in [("2", b"caf\xc3\xa9"), ("3", b"\xe2\x82\xac"),
                       ("4", b"\xf0\x9f\x98\x80"),
                       ("edges", b"\xed\x9f\xbf\xee\x80\x80\xf4\x8f\xbf\xbf")]:
        name(f"utf8-valid-{label}", raw, None)
    corpus.text("cluster_exp", "reference-utf8-ff", b'"op": "exp"',
                b'"op": "e\xffxp"')


def add_reference_values(corpus):
    """Values inside `reference`, which the readers keep without reading:
    they must still be JSON both take."""
    def value(label, raw, where="json"):
        corpus.text("cluster_exp", f"reference-{label}", b'"inputs": [0], ',
                    b'"inputs": [0], "value": ' + raw + b", ", where)

    for raw, label in [(b"NaN", "nan"), (b"Infinity", "infinity"),
                       (b"-Infinity", "minus-infinity"), (b"1e400", "1e400"),
                       (b"-1e400", "minus-1e400"), (b"1e-400", "1e-400"),
                       (b"2e-324", "2e-324"), (b"1" * 400, "400-digits"),
                       (b"1" * 5000, "5000-digits")]:
        value(label, raw)
    for raw, label in [(b"99999999999999999999", "beyond-int64"),
                       (b"-9223372036854775809", "below-int64"),
                       (b"-9223372036854775808", "int64-min"),
                       (b"1e-320", "subnormal"), (b"4.9e-324", "smallest"),
                       (b"0e999999", "zero-huge-exponent"),
                       (b"1.7976931348623157e308", "largest"),
                       (b"-0", "minus-zero"), (b'"a\\u0000b"', "nul")]:
        value(label, raw, None)
    value("duplicate-key", b'{"a": 1, "a": 2}')
    # The document is 4 levels deep at `reference`'s members; at most 256.
    for depth in [252, 253, 3000]:
        value(f"arrays-{4 + depth}-deep", b"[" * depth + b"]" * depth,
              None if depth == 252 else "json")
    value("arrays-256-deep-with-number", b"[" * 252 + b"1" + b"]" * 252, None)
    value("objects-257-deep", b'{"a": ' * 253 + b"1" + b"}" * 253)
    value("objects-256-deep", b'{"a": ' * 252 + b"1" + b"}" * 252, None)


def main(argv):
    directory = pathlib.Path(argv[1]) if len(argv) > 1 else HERE
    corpus = Corpus()
    for add in [add_schema_faults, add_header_faults, add_function_faults,
                add_tensor_faults, add_buffer_faults, add_launch_faults,
                add_argument_faults, add_tensor_map_faults,
                add_library_faults, add_tuning_faults, add_document_faults, add_syntax_faults,
                add_string_faults, add_reference_values]:
        add(corpus)
    corpus.write(directory)
    damaged = sum(where is not None for _, where in corpus.plans.values())
    print(f"{directory}: {len(corpus.plans)} plans, {damaged} damaged")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
