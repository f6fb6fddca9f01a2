"""User values (c4tui/units.py): counts and MB, with one-line errors that name the value."""

from __future__ import annotations

import pytest

from c4tui.units import (
    MAX_HASH_MB,
    MAX_NODE_LIMIT,
    UnitError,
    human_count,
    parse_count,
    parse_mb,
)


@pytest.mark.parametrize(
    "text, value",
    [("10000", 10_000), ("1_000_000", 10**6), ("1,000", 1000), ("1e6", 10**6),
     ("5M", 5 * 10**6), ("500k", 500_000), ("1.5k", 1500), (" 2 M ", 2 * 10**6),
     ("1G", 10**9), ("1e12", MAX_NODE_LIMIT)],
)
def test_counts(text, value):
    assert parse_count(text, "--nodes") == value


@pytest.mark.parametrize(
    "text, message",
    [("1.0e400", "--nodes: 1.0e400 is out of range (1 to 1,000,000,000,000)"),
     ("1e999999999999", "--nodes: 1e999999999999 is out of range"),
     ("1e999999k", "is out of range"),
     ("nan", "--nodes: 'nan' is not a number"),
     ("inf", "--nodes: 'inf' is not a number"),
     ("-Infinity", "is not a number"),
     ("-5", "--nodes: -5 is out of range"),
     ("0", "--nodes: 0 is out of range"),
     ("1.5", "--nodes: 1.5 is not a whole number"),
     ("lots", "--nodes: 'lots' is not a number"),
     ("", "--nodes: '' is not a number"),
     ("0x10", "is not a number")],
)
def test_bad_counts(text, message):
    with pytest.raises(UnitError) as info:
        parse_count(text, "--nodes")
    assert message in str(info.value) and "\n" not in str(info.value)


def test_count_bounds_and_long_values_are_clipped():
    assert parse_count("0", "--nodes", lo=0) == 0
    with pytest.raises(UnitError, match="out of range"):
        parse_count("11", "--openings", 1, 10)
    with pytest.raises(UnitError) as info:
        parse_count("9" * 500, "--nodes")
    assert len(str(info.value)) < 100


def test_mb():
    assert parse_mb("64", "--hash") == 64
    assert parse_mb("1e3", "--hash") == 1000
    assert parse_mb(str(MAX_HASH_MB), "--hash") == MAX_HASH_MB
    # as the status line writes sizes ("hash 16M"), with a unit (issue 24, item 7)
    for text, mb in (("64M", 64), ("64 MB", 64), ("64mib", 64), ("1G", 1024), ("4GB", 4096)):
        assert parse_mb(text, "--hash") == mb, text
    for text, message in (("1.5", "--hash: 1.5 is not a whole number of MB"),
                          ("0.5", "--hash: 0.5 is out of range (1 to 4,096 MB)"),
                          ("0", "out of range"), ("-1", "out of range"),
                          ("4097", "out of range"), ("1.0e400", "out of range"),
                          ("nan", "is not a number"), ("64k", "'64k' is not a number"),
                          ("5G", "5G is out of range (1 to 4,096 MB)"),
                          ("MB", "'MB' is not a number")):
        with pytest.raises(UnitError) as info:
            parse_mb(text, "--hash")
        assert message in str(info.value), (text, str(info.value))


def test_units_imports_no_textual_and_no_numba():
    import subprocess
    import sys

    code = ("import sys, c4tui.units; "
            "print(any(m.split('.')[0] in ('textual', 'numba') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "False", out.stderr


@pytest.mark.parametrize("n, text", [
    (9999, "9999"), (10_000, "10.0k"), (12_345, "12.3k"), (99_949, "99.9k"),
    (99_999, "100k"), (999_999, "1.0M"), (2_500_000, "2.5M"), (999_990_000, "1.0G"),
    (-99_999, "-100k"), (None, "-"),
])
def test_human_count_rounds_before_it_picks_the_width(n, text):
    assert human_count(n) == text  # 99,999 was "100.0k", 999,999 "1000k"
