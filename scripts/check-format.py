"""Checks that every C++ file of the repository is formatted by .clang-format.

Usage: check-format.py REPORT.xml [--fix]

Runs clang-format-22 on every tracked `.cpp` and `.h` file and writes a JUnit
XML report with one test case per file (a failure names the first lines that
differ), so that scripts/test.sh counts it with the other suites. With
`--fix`, formats the files in place instead. Exits 1 when a file is not
formatted.
"""

import difflib
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLANG_FORMAT = "clang-format-22"


def tracked_sources():
    files = subprocess.run(["git", "ls-files", "*.cpp", "*.h"], cwd=ROOT,
                           check=True, capture_output=True, text=True)
    return sorted(path for path in files.stdout.splitlines() if path)


def first_difference(path):
    """The first lines clang-format changes in `path`, or None."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as source:
        original = source.read()
    formatted = subprocess.run([CLANG_FORMAT, "--style=file", path], cwd=ROOT,
                               check=True, capture_output=True,
                               text=True).stdout
    if formatted == original:
        return None
    diff = difflib.unified_diff(original.splitlines(), formatted.splitlines(),
                                path, path + " (formatted)", lineterm="", n=0)
    return "\n".join(list(diff)[:12])


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    report, fix = argv[1], "--fix" in argv[2:]
    sources = tracked_sources()
    if fix:
        subprocess.run([CLANG_FORMAT, "--style=file", "-i", *sources],
                       cwd=ROOT, check=True)
        return 0
    suite = ET.Element("testsuite", name="clang-format")
    failures = 0
    for path in sources:
        case = ET.SubElement(suite, "testcase", classname="clang-format",
                             name=path)
        difference = first_difference(path)
        if difference:
            failures += 1
            ET.SubElement(case, "failure",
                          message="not formatted").text = difference
            print(difference)
    suite.set("tests", str(len(sources)))
    suite.set("failures", str(failures))
    ET.ElementTree(suite).write(report, encoding="utf-8", xml_declaration=True)
    print(f"clang-format: {len(sources) - failures} of {len(sources)} files "
          f"formatted" + (" (scripts/check-format.py X --fix formats them)"
                          if failures else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
