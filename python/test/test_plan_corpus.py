"""The plan corpus of runtime/test/plans: mirage.plan gives every plan the
verdict verdicts.txt records, fault at the same field, as the runtime's
reader must (runtime/unittests/PlanCorpusTests.cpp), so the two readers
accept exactly the same plans; and the committed corpus is what
make-damaged-plans.py writes."""

import pathlib
import re
import subprocess
import sys

from mirage.plan import PlanError, parse_plan

PLANS = pathlib.Path(__file__).resolve().parents[2] / "runtime" / "test" / \
    "plans"

#: A fault of the JSON text: at its line and column, or, for what Python's
#: json module takes but the runtime's JSON reader does not (duplicate keys,
#: NaN, numbers beyond a double, unpaired surrogates), at the value's path.
JSON_FAULT = re.compile(r"plan\.json: (line \d+, column \d+: |(\S+: )?"
                        r"(duplicate key|number out of range|unpaired UTF-16 "
                        r"surrogate|NaN|-?Infinity))")
#: A fault of the document: not an object, a missing or unknown field.
DOCUMENT_FAULT = re.compile(
    r"plan\.json: (missing field|unknown field|expected an object)")


def read_verdicts(directory=PLANS):
    """{name: where} of verdicts.txt; `where` is None for a valid plan."""
    verdicts = {}
    for line in (directory / "verdicts.txt").read_text().splitlines():
        name, verdict, *where = line.split()
        assert verdict == ("reject" if where else "accept"), line
        verdicts[name] = where[0] if where else None
    return verdicts


def reports_at(message, where):
    if where == "json":
        return JSON_FAULT.match(message) is not None
    if where == ".":
        return DOCUMENT_FAULT.match(message) is not None
    return message.startswith(f"plan.json: {where}: ")


def verdict_problem(data, where):
    """What is wrong with parse_plan's verdict on `data`, or None."""
    try:
        parse_plan(data)
    except PlanError as error:
        if where is None:
            return f"rejected: {error}"
        if not reports_at(str(error), where):
            return f"expected a fault at {where}, got: {error}"
        return None
    return None if where is None else f"accepted, expected a fault at {where}"


def test_every_plan_gets_its_verdict():
    verdicts = read_verdicts()
    problems = []
    for name, where in verdicts.items():
        problem = verdict_problem(
            (PLANS / "corpus" / f"{name}.json").read_bytes(), where)
        if problem:
            problems.append(f"{name}: {problem}")
    assert not problems, \
        f"{len(problems)} of {len(verdicts)} plans:\n" + "\n".join(problems)
    assert sum(where is not None for where in verdicts.values()) >= 200


def test_the_corpus_is_what_the_generator_writes(tmp_path):
    subprocess.run([sys.executable, PLANS / "make-damaged-plans.py",
                    tmp_path], check=True, capture_output=True)
    assert read_verdicts(tmp_path) == read_verdicts()
    fresh, committed = tmp_path / "corpus", PLANS / "corpus"
    names = {path.name for path in fresh.iterdir()} | \
        {path.name for path in committed.iterdir()}
    stale = sorted(
        name for name in names
        if not (fresh / name).exists() or not (committed / name).exists()
        or (fresh / name).read_bytes() != (committed / name).read_bytes())
    assert not stale, "run runtime/test/plans/make-damaged-plans.py: " \
        f"{len(stale)} plans differ, e.g. {stale[:5]}"
