"""CPU priority of the engine's threads and processes: the caller's niceness plus a step.

A user who starts the app (or ``c4tui match``) under ``nice -n 10`` asked for that
priority or less; an engine thread or process must never run *above* it. So the engine's
niceness is relative: the process's own niceness (what the user gave it) plus ``step``,
capped at 19 (the lowest priority there is), and never lowered below what the target
already has (an unprivileged process cannot raise a priority anyway; a privileged one
must not). Standard library only: the engine and c4tui both use it.
"""

from __future__ import annotations

import os
import threading

__all__ = ["MAX_NICE", "lower_priority", "lowered_niceness"]

#: The lowest CPU priority Linux has.
MAX_NICE = 19


def _niceness(who: int) -> int | None:
    try:
        return os.getpriority(os.PRIO_PROCESS, who)
    except (AttributeError, OSError):
        return None


def lowered_niceness(step: int, current: int | None = None) -> int | None:
    """The niceness ``step`` below this process's priority: its niceness (on Linux, the
    main thread's: what the user started it with) plus ``step``, at most
    :data:`MAX_NICE`, and never less than ``current`` (the target's niceness now).
    None where priorities cannot be read (not a Unix)."""
    base = _niceness(os.getpid())
    if base is None:
        return None
    target = min(MAX_NICE, base + max(0, step))
    return target if current is None else max(target, current)


def lower_priority(step: int, who: int | None = None) -> int | None:
    """Run ``who`` (a process id or, on Linux, a thread id; None: the calling thread)
    ``step`` below this process's priority (:func:`lowered_niceness`); threads and
    processes it starts later inherit it. The niceness set, or None if it could not be
    (not Linux or not permitted: it runs at the priority it has, never a higher one)."""
    if who is None:
        who = threading.get_native_id()
    target = lowered_niceness(step, _niceness(who))
    if target is None:
        return None
    try:
        os.setpriority(os.PRIO_PROCESS, who, target)
    except (AttributeError, OSError):
        return None
    return target
