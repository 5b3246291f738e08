#!/usr/bin/env python3
"""Records a run of the kernel benchmark (bench/gpu-bench.sh) in the
repository.

    update-kernel-results.py RESULT_DIR [--json PATH] [--docs PATH]
                             [--plot PATH]

Copies RESULT_DIR/bench.json to bench/results/latest.json (--json) and
RESULT_DIR/bench.png, if there is one, to docs/Benchmarks/kernels.png
(--plot), and writes docs/Benchmarks/Kernels.md (--docs) from the JSON: the
date, device and commit, the table, the geometric-mean speed-up over the
best baseline and which targets (docs/Benchmarks/Method.md) are met. A run
of the generality suite (bench.py --suite generality) goes to
bench/results/generality.json, docs/Benchmarks/Generality.md and
docs/Benchmarks/generality.png instead, one of the bandwidth suite (--suite
bandwidth) to bench/results/bandwidth.json, docs/Benchmarks/Bandwidth.md and
docs/Benchmarks/bandwidth.png.
"""

import argparse
import os
import pathlib
import shutil
import sys

import kernel_results

ROOT = pathlib.Path(__file__).resolve().parents[2]
#: suite -> (results JSON, page, plot): their default destinations.
DESTINATIONS = {
    "benchmarks": ("latest.json", "Kernels.md", "kernels.png"),
    "generality": ("generality.json", "Generality.md", "generality.png"),
    "bandwidth": ("bandwidth.json", "Bandwidth.md", "bandwidth.png"),
}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("result_dir", type=pathlib.Path)
    parser.add_argument("--json", type=pathlib.Path)
    parser.add_argument("--docs", type=pathlib.Path)
    parser.add_argument("--plot", type=pathlib.Path)
    options = parser.parse_args(argv)
    source = options.result_dir / kernel_results.JSON_NAME
    try:
        records = kernel_results.load(source)
    except ValueError as error:
        parser.error(str(error))
    json_name, page, plot_name = DESTINATIONS[kernel_results.suite_of(records)]
    options.json = options.json or ROOT / "bench" / "results" / json_name
    options.docs = options.docs or ROOT / "docs" / "Benchmarks" / page
    options.plot = options.plot or ROOT / "docs" / "Benchmarks" / plot_name

    options.json.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, options.json)
    image = None
    plot = options.result_dir / kernel_results.PLOT_NAME
    if plot.is_file():
        options.plot.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(plot, options.plot)
        image = os.path.relpath(options.plot, options.docs.parent)
    options.docs.parent.mkdir(parents=True, exist_ok=True)
    options.docs.write_text(kernel_results.report(records, image))
    print(f"wrote {options.json}, {options.docs}" +
          (f" and {options.plot}" if image else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
