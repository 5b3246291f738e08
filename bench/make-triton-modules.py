#!/usr/bin/env python3
"""Generates the Triton modules that bench/gpu/triton_check.py checks on a GPU.

    make-triton-modules.py OUT_DIR [--build DIR] [--time-limit S] [--no-search]
                           [--searched FILE...]

Writes into OUT_DIR, which can be carried to the GPU machine alone:

- one module per hand-written µGraph of examples/mugraphs/: the µGraph file
  translated together with its reference, the benchmark program its comments
  name ("for the gqa_bs1 benchmark"), or the function of the file marked
  `mirage.reference`;
- with the search (the default), one module per benchmark of
  examples/benchmarks/: `mirage-opt --mirage-superoptimize` with
  `emit-candidates=true` writes the chosen µGraph, every verified candidate
  and the program as written (`<name>_as_written`, the reference);
- one module per saved search output given with --searched;
- with --upstream DIR, one module per `upstream_<stem>` bundle of
  bench/make-gpu-bundles.py under DIR (saved µGraphs of the public
  implementation): its source.mlir with the benchmark it implements
  (mirage.mugraphs.reference_program) as reference, except the files the
  verifier proves wrong (mirage.mugraphs.REJECTED), listed as refused;
- sources/: the MLIR each module was translated from;
- manifest.json: {"modules": [{"module", "source", "reference",
  "functions"}], "refused": [{"source", "error"}]}, where `functions` are
  the host functions to compare with the `reference` host function, and
  `refused` lists the inputs that mirage-translate or the search refused.

Exits 1 when nothing could be generated.
"""

import argparse
import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))
from mirage.mugraphs import upstream_module  # noqa: E402
FUNC = re.compile(r"func\.func @([\w$.]+)\(([^)]*)\)\s*->\s*(.*?)\s*"
                  r"(?:attributes\s*(\{.*\}))?\s*\{\s*$", re.M)


def functions(text):
    """(name, signature, attributes) of each function of an MLIR text; the
    signature is its argument and result types."""
    found = []
    for match in FUNC.finditer(text):
        arguments = re.findall(r":\s*(tensor<[^>]*>)", match.group(2))
        found.append((match.group(1), (tuple(arguments),
                                       match.group(3).strip()),
                      match.group(4) or ""))
    return found


def mugraph_source(path):
    """(MLIR text, reference name) of a hand-written µGraph, or raises
    ValueError when it names no reference."""
    text = path.read_text()
    own = functions(text)
    for name, _, attributes in own:
        if "mirage.reference" in attributes:
            return text, name
    comments = " ".join(line.strip().lstrip("/").strip()
                        for line in text.splitlines()
                        if line.strip().startswith("//"))
    named = re.search(r"for the (\w+) benchmark", comments)
    if not named:
        raise ValueError("names no benchmark and marks no mirage.reference")
    benchmark = ROOT / "examples" / "benchmarks" / f"{named.group(1)}.mlir"
    reference_text = benchmark.read_text()
    [(reference, signature, _)] = functions(reference_text)
    for name, theirs, _ in own:
        if theirs != signature:
            raise ValueError(f"@{name} does not have the signature of "
                             f"benchmark {named.group(1)}")
    return reference_text + "\n" + text, reference


def searched_source(text):
    """(MLIR text, reference name) of a search output: the program as
    written is the reference."""
    written = [name for name, _, _ in functions(text)
               if name.endswith("_as_written")]
    if len(written) != 1:
        raise ValueError("the search found no µGraph")
    return text, written[0]


def upstream_source(path):
    """(MLIR text, reference name) of the source.mlir of an upstream_<stem>
    bundle, with the benchmark program it implements as reference."""
    return upstream_module(path)


def search_source(benchmark, build, time_limit):
    """(MLIR text, reference name) of the search output of a benchmark."""
    options = f"time-limit={time_limit} emit-candidates=true"
    result = subprocess.run(
        [str(build / "bin" / "mirage-opt"), str(benchmark),
         f"--mirage-superoptimize={options}"],
        capture_output=True, text=True)
    if result.returncode:
        raise ValueError(result.stderr.strip().splitlines()[-1]
                         if result.stderr.strip() else "mirage-opt failed")
    return searched_source(result.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=pathlib.Path)
    parser.add_argument("--build", type=pathlib.Path, default=ROOT / "build")
    parser.add_argument("--time-limit", type=int, default=20,
                        help="search seconds per benchmark")
    parser.add_argument("--no-search", action="store_true",
                        help="only the hand-written µGraphs")
    parser.add_argument("--searched", type=pathlib.Path, nargs="*",
                        default=[], help="saved search outputs to translate "
                        "as well (mirage-opt ... emit-candidates=true)")
    parser.add_argument("--upstream", type=pathlib.Path,
                        help="a directory of bench/make-gpu-bundles.py "
                        "bundles whose upstream_<stem> bundles to translate")
    args = parser.parse_args()
    tools = [args.build / "bin" / "mirage-translate"]
    if not args.no_search:
        tools.append(args.build / "bin" / "mirage-opt")
    for tool in tools:
        if not tool.is_file():
            parser.error(f"{tool} does not exist: build it first")
    sources = args.out / "sources"
    sources.mkdir(parents=True, exist_ok=True)

    inputs = [(f"mugraph-{path.stem}", lambda p=path: mugraph_source(p))
              for path in sorted((ROOT / "examples" / "mugraphs")
                                 .glob("*.mlir"))]
    if not args.no_search:
        inputs += [(f"search-{path.stem}",
                    lambda p=path: search_source(p, args.build,
                                                 args.time_limit))
                   for path in sorted((ROOT / "examples" / "benchmarks")
                                      .glob("*.mlir"))]
    # A bundle's source.mlir is named by its bundle.
    inputs += [(f"searched-{path.parent.name if path.stem == 'source' else path.stem}",
                lambda p=path: searched_source(p.read_text()))
               for path in args.searched]
    if args.upstream:
        inputs += [(path.parent.name.replace("_", "-", 1),
                    lambda p=path: upstream_source(p))
                   for path in sorted(args.upstream.glob(
                       "upstream_*/source.mlir"))]
    manifest = {"modules": [], "refused": []}
    for stem, make in inputs:
        source = sources / f"{stem}.mlir"
        try:
            text, reference = make()
        except ValueError as error:
            manifest["refused"].append({"source": stem, "error": str(error)})
            print(f"{stem}: skipped ({error})")
            continue
        source.write_text(text)
        module = args.out / f"{stem.replace('-', '_')}.py"
        result = subprocess.run(
            [str(args.build / "bin" / "mirage-translate"),
             "--mirage-to-triton", str(source), "-o", str(module)],
            capture_output=True, text=True)
        if result.returncode:
            manifest["refused"].append({"source": str(source.relative_to(
                args.out)), "error": result.stderr.strip()})
            print(f"{stem}: refused\n{result.stderr.strip()}")
            continue
        checked = [name for name, _, _ in functions(text) if name != reference]
        manifest["modules"].append({
            "module": module.name,
            "source": str(source.relative_to(args.out)),
            "reference": reference, "functions": checked})
        print(f"{stem}: {module.name} ({len(checked)} against @{reference})")
    (args.out / "manifest.json").write_text(json.dumps(manifest, indent=1) +
                                            "\n")
    return 0 if manifest["modules"] else 1


if __name__ == "__main__":
    sys.exit(main())
