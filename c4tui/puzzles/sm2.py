"""SuperMemo's SM-2 spaced-repetition algorithm (P. A. Wozniak, "Optimization of
learning", Master's thesis, Poznan University of Technology, 1990; "Algorithm SM-2",
https://super-memory.com/english/ol/sm2.htm), as published:

1. every item starts with an E-Factor (``ease``) of 2.5;
2. the intervals are I(1) = 1 day, I(2) = 6 days, I(n) = I(n-1) * EF for n > 2, a
   fraction rounded up;
3. after each repetition the answer's quality q (0-5) changes the E-Factor:
   EF' = EF + (0.1 - (5 - q) * (0.08 + (5 - q) * 0.02)), never below 1.3;
4. a quality below 3 starts the repetitions from the beginning (I(1), I(2), ...)
   without changing the E-Factor;
5. items answered below 4 are repeated again the same day until they score 4 or more
   (:attr:`Card.again`).

Step 2's EF is the E-Factor after step 3 has changed it for this repetition (the order
of the published steps: grade, modify EF, schedule). An interval is at most
:data:`MAX_INTERVAL` days. Plain Python, no Textual.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from datetime import date, timedelta

START_EASE = 2.5
MIN_EASE = 1.3
#: The longest interval, in days (a hundred years, as Anki's limit): SM-2's intervals grow
#: by the ease each time, and a date must stay a date (``datetime.date`` ends in 9999).
MAX_INTERVAL = 36_500
#: The qualities of the published scale: 5 perfect, 4 after hesitation, 3 with serious
#: difficulty, 2 wrong but the answer seemed easy once seen, 1 wrong, 0 blackout.
PERFECT, HESITANT, DIFFICULT, WRONG_EASY, WRONG, BLACKOUT = 5, 4, 3, 2, 1, 0


@dataclass(frozen=True)
class Card:
    """One item's schedule: its E-Factor, the repetitions in a row passed (n), the last
    interval in days, the date it is due, and ``again``: answered below 4 today, so it
    comes back today (step 5)."""

    ease: float = START_EASE
    reps: int = 0
    interval: int = 0
    due: date | None = None  #: None: never seen (due at once)
    again: bool = False
    last: date | None = None  #: the day of the last answer


def next_ease(ease: float, quality: int) -> float:
    """Step 3: the E-Factor after an answer of ``quality``."""
    q = 5 - quality
    # every change is a multiple of 0.02: rounding keeps 2.6 from being 2.6000000000000001
    return max(MIN_EASE, round(ease + (0.1 - q * (0.08 + q * 0.02)), 2))


def review(card: Card, quality: int, today: date) -> Card:
    """The card after an answer of ``quality`` (0-5) on ``today``."""
    if not 0 <= quality <= 5:
        raise ValueError(f"quality {quality}: not 0-5")
    if quality < 3:  # step 4: from the beginning, the E-Factor unchanged
        return replace(card, reps=0, interval=1, due=today + timedelta(days=1), again=True,
                       last=today)
    ease = next_ease(card.ease, quality)
    reps = card.reps + 1
    if reps == 1:
        interval = 1
    elif reps == 2:
        interval = 6
    else:
        # 15 * 2.5 = 37.5 -> 38; capped (min() first: a product too large for ceil)
        interval = math.ceil(round(min(card.interval * ease, MAX_INTERVAL), 6))
    return Card(ease, reps, interval, today + timedelta(days=interval), quality < 4, today)


def answer(card: Card, quality: int, today: date) -> Card:
    """The card after an answer on ``today``: a repetition (:func:`review`), or, for an
    item already answered below 4 today, step 5's same-day drill, which changes nothing
    but whether it comes back again today."""
    if card.again and card.last == today:
        if not 0 <= quality <= 5:
            raise ValueError(f"quality {quality}: not 0-5")
        return replace(card, again=quality < 4)
    return review(card, quality, today)
