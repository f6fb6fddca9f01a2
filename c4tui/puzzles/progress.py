"""The trainer's progress: each puzzle's SM-2 card, the streak, and which puzzle comes
next; saved as JSON in the user data directory (:func:`store_path`), atomically.

Puzzles are known by their canonical key (:func:`.puzzle.canonical_key`), so progress
survives a rebuilt or reordered set. Which puzzle comes next (:meth:`Progress.pick`):

1. a puzzle missed today (SM-2's step 5: answered below 4) once :data:`AGAIN_AFTER`
   other puzzles have been answered since;
2. the reviews due (due date today or earlier), the longest overdue first;
3. new puzzles, in the file's order;
4. a puzzle missed today that is still waiting its turn (nothing else is left);
5. none: everything is learnt until a later day.

A store that cannot be read is ignored with a one-line warning (a fresh start), one that
cannot be written costs a warning; nothing here raises. Every number read back is
bounded (:data:`MAX_EASE`, :data:`MAX_COUNT`, :data:`~.sm2.MAX_INTERVAL` days): a card
with one out of its range is reset (its puzzle is new again) with a one-line warning.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path

import platformdirs

from c4tui.atomicfile import atomic_write
from c4tui.bounded import read_file

from .puzzle import Puzzle
from .sm2 import MAX_INTERVAL, MIN_EASE, Card, answer

_VERSION = 1
#: The bounds of the numbers read back (a poisoned file must not overflow an answer):
#: SM-2's ease grows by 0.1 per perfect answer, so 100 is a thousand of them in a row
MAX_EASE = 100.0
MAX_COUNT = 10**12  #: answers, streaks, a card's repetitions: more than a lifetime's
_KEY = re.compile(r"[0-9]{1,40}")  #: a canonical key, in decimal (up to 128 bits)
_MAX_STORE_BYTES = 16 << 20
AGAIN_AFTER = 3  #: a missed puzzle returns after this many others (or sooner: none left)


def store_path() -> Path:
    """``trainer.json`` in the user data directory (``$XDG_DATA_HOME/c4tui``, by default
    ``~/.local/share/c4tui`` on Linux), beside the games database."""
    return Path(platformdirs.user_data_dir("c4tui")) / "trainer.json"


@dataclass
class Entry:
    """A puzzle's card and when (the answer counter) it was last answered."""

    card: Card
    seq: int


@dataclass
class Progress:
    """Every answered puzzle's :class:`Entry` by key, the answers so far, the streak."""

    entries: dict[int, Entry] = field(default_factory=dict)
    answers: int = 0
    streak: int = 0
    best: int = 0
    warning: str | None = None

    def pick(self, puzzles: Sequence[Puzzle], keys: Sequence[int], today: date) -> int | None:
        """The index in ``puzzles`` (whose keys are ``keys``) of the next puzzle."""
        waiting, due, new = [], [], []
        for i, key in enumerate(keys):
            e = self.entries.get(key)
            if e is None:
                new.append(i)
            elif e.card.again and e.card.last == today:
                waiting.append((e.seq, i))
            elif e.card.due is not None and e.card.due <= today:
                due.append((e.card.due, i))
        ready = [(s, i) for s, i in waiting if self.answers - s > AGAIN_AFTER]
        for group in (sorted(ready), sorted(due)):
            if group:
                return group[0][1]
        if new:
            return new[0]
        return min(waiting)[1] if waiting else None

    def record(self, key: int, quality: int, today: date) -> Card:
        """An answer of ``quality`` (0-5) to the puzzle ``key``: its card and the streak."""
        old = self.entries.get(key)
        card = answer(old.card if old else Card(), quality, today)
        self.answers += 1
        self.entries[key] = Entry(card, self.answers)
        self.streak = self.streak + 1 if quality >= 3 else 0
        self.best = max(self.best, self.streak)
        return card


def _card_json(card: Card) -> dict[str, object]:
    d = asdict(card)
    d["due"] = card.due.isoformat() if card.due else None
    d["last"] = card.last.isoformat() if card.last else None
    return d


def _card(d: object) -> Card | None:
    """The card stored as ``d``; None if it cannot be used (a number out of its range, a
    date that is none): every number is bounded, so no answer to it can overflow."""
    if not isinstance(d, dict):
        return None

    def day(v: object) -> date | None:
        if v is None:
            return None
        if not isinstance(v, str) or len(v) > 10:
            raise ValueError("a date")
        return date.fromisoformat(v)

    ease, reps, interval = d.get("ease"), d.get("reps"), d.get("interval")
    try:
        if not (_number(ease, MIN_EASE, MAX_EASE, float) and _number(reps, 0, MAX_COUNT)
                and _number(interval, 0, MAX_INTERVAL)):
            return None
        assert isinstance(ease, (int, float)) and isinstance(reps, int)
        assert isinstance(interval, int)
        return Card(float(ease), reps, interval, day(d.get("due")), d.get("again") is True,
                    day(d.get("last")))
    except ValueError:
        return None


def _number(v: object, lo: float, hi: float, kind: type = int) -> bool:
    """Whether ``v`` is a JSON number of ``kind`` (an int is a float too; a bool is
    neither) within ``[lo, hi]`` (NaN is not; JSON's Infinity is above every bound)."""
    if isinstance(v, bool) or not isinstance(v, (int, float) if kind is float else int):
        return False
    return lo <= v <= hi


def _count(v: object) -> int:
    """A count of the store (answers, streak, a card's turn): a JSON integer, 0 to
    :data:`MAX_COUNT`."""
    if not _number(v, 0, MAX_COUNT):
        raise ValueError("a count")
    assert isinstance(v, int)
    return v


def load_progress(store: Path | None = None) -> Progress:
    """The saved progress; a missing store is a fresh start, an unusable one a fresh
    start with a one-line ``warning``."""
    store = store or store_path()
    try:
        data = json.loads(read_file(store, _MAX_STORE_BYTES, "trainer progress")
                          .decode("utf-8"))
    except FileNotFoundError:
        return Progress()
    except OSError as exc:
        return Progress(warning=f"trainer: {store}: cannot read ({exc.strerror or exc}), "
                                "starting afresh")
    except (ValueError, RecursionError):
        return Progress(warning=f"trainer: {store}: not the trainer's progress, starting afresh")
    try:
        if data.get("version") != _VERSION:
            raise ValueError("version")
        progress = Progress({}, _count(data["answers"]), _count(data["streak"]),
                            _count(data["best"]))
        unusable = 0
        for k, v in data["entries"].items():
            card = _card(v.get("card")) if isinstance(v, dict) else None
            seq = v.get("seq") if isinstance(v, dict) else None
            if card is None or not _number(seq, 0, MAX_COUNT) or not _KEY.fullmatch(k):
                unusable += 1  # reset: the puzzle is new again, the others keep theirs
                continue
            assert isinstance(seq, int)
            progress.entries[int(k)] = Entry(card, seq)
    except (AttributeError, KeyError, TypeError, ValueError):
        return Progress(warning=f"trainer: {store}: not the trainer's progress, starting afresh")
    if unusable:
        progress.warning = (f"trainer: {store}: {unusable:,} puzzle card"
                            f"{'s' if unusable > 1 else ''} unusable (a number out of "
                            "range), reset: asked as new")
    return progress


def save_progress(progress: Progress, store: Path | None = None) -> str | None:
    """Write the progress atomically; the one-line warning if it cannot be written."""
    store = store or store_path()
    data = {"version": _VERSION, "answers": progress.answers, "streak": progress.streak,
            "best": progress.best,
            "entries": {str(k): {"card": _card_json(e.card), "seq": e.seq}
                        for k, e in progress.entries.items()}}
    try:
        store.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(store, (json.dumps(data, indent=1) + "\n").encode("utf-8"), overwrite=True)
    except OSError as exc:
        return f"trainer: {store}: cannot write ({exc.strerror or exc})"
    return None
