"""User values typed on the command line or in the app: node counts and sizes in MB.

No Textual, no numba: the CLI and the app both parse through here, so a value means the
same everywhere and a bad one gets the same one-line message, which names the value::

    >>> parse_count("2M", "--nodes")
    2000000
    >>> try:
    ...     parse_mb("1.5", "--hash")
    ... except UnitError as exc:
    ...     print(exc)
    --hash: 1.5 is not a whole number of MB

Numbers are read as decimals (never floats), so ``1.0e400`` is simply too large, and
``nan``, ``inf`` and fractions of a node or a megabyte are refused instead of rounded.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, DecimalException

from c4tui.engine.levels import MIN_LEVEL, PERFECT_LEVEL
from c4tui.engine.levels import level as level_of

# The caps are the engine's (its seam has no numba): one cap per option, in every command
# and the app, although the exact solver's table alone could take up to 32768 MB.
from c4tui.engine.seam import MAX_HASH_MB, MAX_NODE_LIMIT, Limits

__all__ = ["MAX_HASH_MB", "MAX_NODE_LIMIT", "PERFECT", "Strength", "UnitError", "parse_count",
           "parse_level", "parse_mb", "parse_strength"]

_SUFFIXES = {"k": 10**3, "m": 10**6, "g": 10**9}
#: Units a size in MB may carry (longest first): mebibytes as written, gibibytes x 1024.
_MB_SUFFIXES = (("mib", 1), ("gib", 1024), ("mb", 1), ("gb", 1024), ("m", 1), ("g", 1024))
#: The longest text read as a number: any value in range, however written, is shorter.
MAX_NUMBER_CHARS = 256


class UnitError(ValueError):
    """A value that cannot be used; the message is one line and names the value.

    ``str()`` is ``"<what>: <value> is <reason>"`` (the app's prose); the command line
    puts the parts in its own order (c4tui/cli/errors.py ``bad_value``).
    """

    def __init__(self, what: str, value: str, reason: str) -> None:
        super().__init__(f"{what}: {value} is {reason}")
        self.what, self.value, self.reason = what, value, reason


def _decimal(text: str, what: str, shown: str) -> Decimal:
    if len(text) > MAX_NUMBER_CHARS:  # Decimal's work grows with the text: no 1 MB numbers
        raise UnitError(what, repr(shown), f"not a number (longer than {MAX_NUMBER_CHARS} "
                        "characters)")
    try:
        value = Decimal(text)
    except DecimalException:
        raise UnitError(what, repr(shown), "not a number") from None
    if not value.is_finite():
        raise UnitError(what, repr(shown), "not a number")
    return value


def _clip(text: str, width: int = 24) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _whole(value: Decimal, lo: int, hi: int, what: str, shown: str, unit: str) -> int:
    """``value`` as an int in [lo, hi], else a one-line UnitError."""
    if not lo <= value <= hi:  # before any rounding: 1e400 must not become an int
        raise UnitError(what, shown, f"out of range ({lo:,} to {hi:,}{unit})")
    if value != value.to_integral_value():
        raise UnitError(what, shown, f"not a whole number{unit and ' of' + unit}")
    return int(value)


def parse_count(text: str, what: str, lo: int = 1, hi: int = MAX_NODE_LIMIT) -> int:
    """A count such as ``10000``, ``1_000_000``, ``1e6``, ``500k``, ``2M`` or ``1.5G``.

    ``what`` names the value in the message (``--nodes``, ``node limit``). Raises
    :class:`UnitError` for anything that is not a whole number within ``[lo, hi]``.
    """
    full = str(text).strip()
    shown = _clip(full)  # the message quotes this; the whole text is read
    t = full.lower().replace("_", "").replace(",", "")
    mult = _SUFFIXES.get(t[-1:], 1)
    if mult > 1:
        t = t[:-1].rstrip()
    value = _decimal(t, what, shown)
    try:
        value *= mult
    except DecimalException:  # beyond Decimal's exponent range: too large anyway
        raise UnitError(what, shown, f"out of range ({lo:,} to {hi:,})") from None
    return _whole(value, lo, hi, what, shown, "")


def parse_mb(text: str, what: str, lo: int = 1, hi: int = MAX_HASH_MB) -> int:
    """A size in whole megabytes (MiB), such as ``64``, ``1e3``, ``64M`` (as the status line
    writes it), ``64 MB`` or ``1G`` (1024 MB).

    A fraction is an error rather than silently rounded: tables come in whole MB.
    """
    full = str(text).strip()
    shown = _clip(full)
    t = full.lower().replace("_", "")
    mult = 1
    for suffix, factor in _MB_SUFFIXES:
        if t.endswith(suffix):
            t, mult = t[: -len(suffix)].rstrip(), factor
            break
    value = _decimal(t, what, shown)
    try:
        value *= mult
    except DecimalException:  # beyond Decimal's exponent range: too large anyway
        raise UnitError(what, shown, f"out of range ({lo:,} to {hi:,} MB)") from None
    return _whole(value, lo, hi, what, shown, " MB")


#: The name of level 10, perfect play: the exact solver.
PERFECT = "perfect"
_LEVEL_WORDS = ("level", "l")  # "level 5", "L5": a level however short the text


@dataclass(frozen=True)
class Strength:
    """How strong the engine plays: a ``level`` (1-10, 10 perfect play; see
    c4tui.engine.levels), or, when set, ``limits``: the bounds of the analysis search
    that then finds the move (a node limit, kept from before the levels). ``limits`` is
    the very :class:`~c4tui.engine.seam.Limits` the search is started with: a strength's
    node count has no other representation. ValueError for a level out of range or limits
    without a node limit (a strength is typed as nodes)."""

    level: int = PERFECT_LEVEL
    limits: Limits | None = None

    def __post_init__(self) -> None:
        if self.limits is None:
            level_of(self.level)  # ValueError naming the range
        elif self.limits.nodes is None:
            raise ValueError("a strength's search needs a node limit")

    @classmethod
    def of_nodes(cls, nodes: int) -> Strength:
        """The strength of the analysis search limited to ``nodes``."""
        return cls(limits=Limits(nodes=nodes))

    @property
    def nodes(self) -> int | None:
        """The search's node limit (None: a level)."""
        return None if self.limits is None else self.limits.nodes

    def __str__(self) -> str:
        """``perfect``, ``level 5`` or ``100k nodes``: how every front end names it."""
        if self.nodes is not None:
            return f"{round_count(self.nodes)} nodes"
        return PERFECT if self.level == PERFECT_LEVEL else f"level {self.level}"

    @property
    def typed(self) -> str:
        """The text that gives this strength back: ``perfect``, ``5`` or ``100k``."""
        if self.nodes is not None:
            return round_count(self.nodes)
        return PERFECT if self.level == PERFECT_LEVEL else str(self.level)


def _level_number(text: str) -> tuple[str, bool]:
    """``text`` without a leading ``level``/``L`` word, and whether it had one."""
    t = text.strip().lower()
    for word in _LEVEL_WORDS:
        if t.startswith(word) and t[len(word):].strip()[:1].isdigit():
            return t[len(word):].strip(), True
    return t, False


def parse_level(text: str, what: str) -> int:
    """A strength level, 1-10: ``5``, ``L5`` or ``level 5``; :class:`UnitError`
    otherwise."""
    full = str(text).strip()
    shown = _clip(full)
    number, _ = _level_number(full)
    if not (number.isascii() and number.isdigit()) or len(number) > 3:
        raise UnitError(what, repr(shown), f"not a level ({MIN_LEVEL} to {PERFECT_LEVEL})")
    if not MIN_LEVEL <= int(number) <= PERFECT_LEVEL:
        raise UnitError(what, shown, f"out of range ({MIN_LEVEL} to {PERFECT_LEVEL})")
    return int(number)


def parse_strength(text: str, what: str) -> Strength:
    """A play-mode strength: a level (``1``-``10``, ``L5``, ``level 5``; ``perfect`` is
    level 10), or a node limit of the analysis search (``100k``, ``1M``: 11 nodes or
    more); :class:`UnitError` otherwise."""
    full = str(text).strip()
    shown = _clip(full)
    if full.lower() == PERFECT:
        return Strength()
    number, worded = _level_number(full)
    digits = number.lstrip("0") or "0"  # (010 is level 10, as 10 is)
    if worded or (number.isascii() and number.isdigit() and len(digits) <= 2
                  and int(digits) <= PERFECT_LEVEL):  # 11 and up: nodes, as before
        return Strength(level=parse_level(full, what))
    try:
        return Strength.of_nodes(parse_count(full, what, lo=PERFECT_LEVEL + 1))
    except UnitError as exc:
        if not exc.reason.startswith("not a number"):
            raise  # a node count out of range says so
        raise UnitError(what, repr(shown), f"neither {PERFECT}, a level ({MIN_LEVEL} to "
                        f"{PERFECT_LEVEL}) nor a node count (e.g. 10k, 1M)") from None


def round_count(n: int) -> str:
    """A node count as typed: ``10k``, ``1M``, ``2,500`` (exact, unlike ``human_count``)."""
    for unit, div in (("G", 10**9), ("M", 10**6), ("k", 10**3)):
        if n >= div and n % div == 0:
            return f"{n // div}{unit}"
    return f"{n:,}"


def plural(n: int, one: str, many: str | None = None) -> str:
    """``1 game``, ``2 games``, ``1,234 games``; ``many`` for the irregular
    (``inaccuracies``)."""
    return f"{n:,} {one if n == 1 else many or one + 's'}"


def human_count(n: float | None) -> str:
    """1234 -> 1.2k, 2_500_000 -> 2.5M; exact below 10,000 (so a step of 5000 shows)."""
    if n is None:
        return "-"
    n = float(n)
    for unit, div in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        value = n / div
        shown = abs(round(value, 1))  # (99,999 is 100k and 999,999 1.0M, as they print)
        if shown >= 1 and (div > 1e3 or abs(n) >= 1e4):
            return f"{value:.1f}{unit}" if shown < 100 else f"{value:.0f}{unit}"
    return f"{int(n)}"


def human_time(seconds: float | None) -> str:
    """0.25 -> 250ms, 12.3 -> 12.3s, 125 -> 2m05s."""
    if seconds is None:
        return "-"
    if seconds < 1:
        return f"{seconds * 1000:.0f}ms"
    if seconds < 60:
        return f"{seconds:.1f}s"
    return f"{int(seconds // 60)}m{int(seconds % 60):02d}s"
