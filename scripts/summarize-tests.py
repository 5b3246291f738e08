#!/usr/bin/env python3
"""Counts test results over JUnit XML reports (lit, gtest, pytest).

Prints one line per report and a final `N passed, M failed` line; exits 1 when
any test failed, or when a report is missing or unreadable.
"""

import sys
import xml.etree.ElementTree as ET


def count(path):
    """Returns (passed, failed, skipped) for one JUnit XML file."""
    root = ET.parse(path).getroot()
    passed = failed = skipped = 0
    for case in root.iter("testcase"):
        tags = {child.tag for child in case}
        if tags & {"failure", "error"}:
            failed += 1
        elif "skipped" in tags:
            skipped += 1
        else:
            passed += 1
    return passed, failed, skipped


def main(paths):
    total_passed = total_failed = 0
    for path in paths:
        try:
            passed, failed, skipped = count(path)
        except (OSError, ET.ParseError) as err:
            print(f"{path}: no readable report ({err})")
            total_failed += 1
            continue
        print(f"{path}: {passed} passed, {failed} failed, {skipped} skipped")
        total_passed += passed
        total_failed += failed
    print(f"{total_passed} passed, {total_failed} failed")
    return 1 if total_failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
