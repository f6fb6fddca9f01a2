"""Fuzzing the values typed at the app's prompts and the CLI's options (c4tui/units.py):
node limit, step nodes (``parse_count``) and hash size (``parse_mb``), then the engine's
``Limits`` check the node-limit and hash prompts also make.

Wanted: a whole number within the bounds, or a :class:`UnitError` of one line that
starts with the option's name; nothing else.
"""

from __future__ import annotations

from decimal import Decimal

from c4tui.engine.seam import Limits, SearchOptions
from fuzzkit import count, fuzz
from hypothesis import given
from hypothesis import strategies as st

from c4tui.units import MAX_HASH_MB, MAX_NODE_LIMIT, UnitError, parse_count, parse_mb

NUMBER_CHARS = st.sampled_from(list("0123456789.eE+-_, kKmMgGxX\t") + ["nan", "inf", "1e400",
                                                                       "\u0661", "\u00bd",
                                                                       "\uff15", "\x00"])
number_text = st.one_of(
    st.lists(NUMBER_CHARS, max_size=12).map("".join),
    st.text(max_size=25),
    st.builds(str, st.integers(-10**15, 10**15)),
    st.builds(str, st.floats(allow_nan=True, allow_infinity=True)),
    st.builds(lambda d, s: f"{d}{s}", st.decimals(allow_nan=True),
              st.sampled_from(["", "k", "M", "G", " m", "kk"])),
)


def _check(fn, text: str, what: str, lo: int, hi: int) -> int | None:
    """The value, or None after checking the UnitError's message."""
    try:
        n = fn(text, what)
    except UnitError as exc:
        msg = str(exc)
        assert msg.startswith(f"{what}: ") and "\n" not in msg and len(msg) < 160, msg
        return None
    assert isinstance(n, int) and lo <= n <= hi, (text, n)
    return n


@fuzz(fast=200)
@given(number_text)
def test_counts(text):
    """Node limit and step-nodes prompts, --nodes: an int in range, or one line."""
    count("units: parse_count")
    n = _check(parse_count, text, "node limit", 1, MAX_NODE_LIMIT)
    if n is not None:
        Limits(nodes=n)  # what the node-limit prompt then sets: accepted


@fuzz(fast=200)
@given(number_text)
def test_megabytes(text):
    """Hash prompt, --hash: an int in range, or one line."""
    count("units: parse_mb")
    n = _check(parse_mb, text, "hash size", 1, MAX_HASH_MB)
    if n is not None:
        SearchOptions(hash_mb=n)  # what the hash prompt then sets: accepted


@fuzz(fast=100)
@given(st.integers(1, MAX_NODE_LIMIT), st.sampled_from(["", "k", "M", "G"]),
       st.sampled_from(["{}", " {} ", "{:_}", "{:,}"]))
def test_counts_mean_what_they_say(n, suffix, layout):
    """A count written with a suffix, underscores or commas is that count."""
    count("units: exact counts")
    mult = {"": 1, "k": 10**3, "M": 10**6, "G": 10**9}[suffix]
    if n * mult > MAX_NODE_LIMIT:
        n = max(1, MAX_NODE_LIMIT // mult)
    assert parse_count(layout.format(n) + suffix, "--nodes") == n * mult
    assert parse_count(str(Decimal(n * mult).normalize()), "--nodes") == n * mult
