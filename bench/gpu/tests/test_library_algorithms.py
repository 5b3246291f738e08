"""Tests of bench/gpu/library_algorithms.py without a GPU: the settings
timed, each child's environment and the table."""

import library_algorithms


def test_the_timed_choice_comes_first_then_every_proposal():
    assert library_algorithms.settings(3) == ["timed", "0", "1", "2"]


def test_a_child_forces_its_algorithm_and_the_timed_one_clears_it():
    environ = {"MIRAGE_LIBRARY_ALGORITHM": "5", "PATH": "/bin"}
    forced = library_algorithms.child_environ(environ, "2")
    assert forced["MIRAGE_LIBRARY_ALGORITHM"] == "2"
    timed = library_algorithms.child_environ(environ, "timed")
    assert "MIRAGE_LIBRARY_ALGORITHM" not in timed
    assert timed["PATH"] == "/bin"
    # The caller's environment is left as it was.
    assert environ["MIRAGE_LIBRARY_ALGORITHM"] == "5"


def test_the_table_has_a_row_per_setting_and_a_dash_where_none_ran():
    rows = [{"algorithm": "timed", "function": "f", "us": 11.514},
            {"algorithm": "timed", "function": "g", "us": 15.7},
            {"algorithm": "0", "function": "f", "us": 11.37}]
    assert library_algorithms.table(rows, ["f", "g"]) == "\n".join([
        "| algorithm | f | g |",
        "| --- | --- | --- |",
        "| timed | 11.51 | 15.70 |",
        "| 0 | 11.37 | – |",
    ])
