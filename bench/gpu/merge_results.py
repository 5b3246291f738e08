#!/usr/bin/env python3
"""Joins the parts of one benchmark run that bench/gpu-pipeline-gpus.sh
split over the GPUs of one machine.

    merge_results.py [--tuning-only] OUT PART_DIR...

Each PART_DIR holds the bench.json (and tuning.json) that
bench/gpu-pipeline.sh wrote for some of the cases on one GPU: each case's
Mirage kernel and its baselines were measured on the same GPU. Writes
OUT/bench.json, OUT/bench.md (and OUT/bench.png where matplotlib is) with
every case in the order of the suite, and OUT/tuning.json with every
part's entries. The parts must come from one run: the same suite, device,
date and commit, no case twice; anything else is an error that names it.
With --tuning-only (a run that only tuned, MIRAGE_TUNE_ONLY=1) the parts
hold tuning.json alone, and only OUT/tuning.json is written: the database
a later call benchmarks with (MIRAGE_TUNED_DB).
"""

import argparse
import json
import pathlib
import sys

import kernel_results

#: What every part of one run shares.
SHARED_FIELDS = ("suite", "device", "date", "commit")
TUNING_NAME = "tuning.json"


def merge_records(parts):
    """The records of `parts` (lists of bench.json records) as one run,
    ordered as the suite lists its cases; ValueError naming what differs
    or repeats."""
    records = [record for part in parts for record in part]
    if not records:
        raise ValueError("no records in the parts")
    for field in SHARED_FIELDS:
        values = sorted({str(r.get(field, "")) for r in records})
        if len(values) > 1:
            raise ValueError(f"the parts differ in {field}: "
                             f"{', '.join(values)}")
    seen = set()
    for record in records:
        if record["case"] in seen:
            raise ValueError(f"case {record['case']} is in two parts")
        seen.add(record["case"])
    cases = kernel_results.SUITES.get(kernel_results.suite_of(records), {})
    order = {case: i for i, case in enumerate(cases)}
    return sorted(records,
                  key=lambda r: (order.get(r["case"], len(order)), r["case"]))


def merge_tuning(databases):
    """One tuning database (the runtime's JSON) holding the entries of
    `databases`; ValueError for a database of another format or version."""
    merged = None
    for database in databases:
        header = {k: v for k, v in database.items() if k != "entries"}
        if merged is None:
            merged = dict(header, entries=[])
        elif header != {k: v for k, v in merged.items() if k != "entries"}:
            raise ValueError(f"tuning databases of different formats: "
                             f"{header} and the first's")
        merged["entries"].extend(database.get("entries", []))
    return merged


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tuning-only", action="store_true",
                        help="join the parts' tuning databases alone")
    parser.add_argument("out", type=pathlib.Path)
    parser.add_argument("parts", type=pathlib.Path, nargs="+")
    options = parser.parse_args(argv)
    try:
        records = [] if options.tuning_only else merge_records(
            [kernel_results.load(part / kernel_results.JSON_NAME)
             for part in options.parts])
        databases = []
        for part in options.parts:
            path = part / TUNING_NAME
            if path.is_file():
                databases.append(json.loads(path.read_text()))
            elif options.tuning_only:
                raise ValueError(f"{path} does not exist: that part did "
                                 f"not tune")
        tuning = merge_tuning(databases) if databases else None
    except (ValueError, json.JSONDecodeError) as error:
        parser.error(str(error))
    if options.tuning_only:
        options.out.mkdir(parents=True, exist_ok=True)
    else:
        kernel_results.save(options.out, records)
    if tuning is not None:
        (options.out / TUNING_NAME).write_text(
            json.dumps(tuning, indent=2) + "\n")
    if options.tuning_only:
        print(f"{len(tuning['entries'])} tuning entries from "
              f"{len(options.parts)} parts in {options.out / TUNING_NAME}")
    else:
        print(f"{len(records)} cases from {len(options.parts)} parts in "
              f"{options.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
