"""``c4tui review DIR --summary``: every game of a folder reviewed, tallied per player.

The games are read one at a time (a folder of 10,000 games holds one game and the
per-player counts in memory) and reviewed with one solver, whose table the games'
common openings share. A file that cannot be read, or a game without moves, is skipped
with one line on stderr and counted. Progress goes to stderr (on a terminal one line
rewritten twice a second, in a log a line every 30 s); Ctrl-C stops the game under review
and the summary of the games done is printed, with exit status 130.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from c4tui.bounded import shown
from c4tui.review.accuracy import accuracy_text
from c4tui.review.game import MARKS, GameReview, ReviewCancelled, Reviewer

#: Seconds between progress reports: on a terminal, and in a log.
EVERY_TTY = 0.5
EVERY_LOG = 30.0
#: How long Ctrl-C waits for the game under review to unwind (a stop takes milliseconds).
STOP_WAIT = 1.0
UNKNOWN = "?"  #: the name of a player the game's headers do not name
NAME_WIDTH = 60  #: the most characters of a player's name in the table


@dataclass
class PlayerTally:
    """One player's games: how many, their accuracies (one per game with a move of
    theirs) and their moves' marks."""

    games: int = 0
    accuracies: list[float] = field(default_factory=list)
    marks: dict[str, int] = field(default_factory=lambda: {m: 0 for m, _, _ in MARKS})

    @property
    def accuracy(self) -> float | None:
        """The mean of the player's game accuracies (None: no moves)."""
        return sum(self.accuracies) / len(self.accuracies) if self.accuracies else None


@dataclass
class FolderSummary:
    """The tally of a folder: per player, and the files reviewed, skipped and left."""

    files: int
    inaccuracy: int
    players: dict[str, PlayerTally] = field(default_factory=dict)
    reviewed: int = 0
    skipped: int = 0
    interrupted: bool = False

    def add(self, review: GameReview, headers: dict[str, str]) -> None:
        """Count one reviewed game for its two players."""
        self.reviewed += 1
        names = [headers.get(side, "").strip() or UNKNOWN for side in ("White", "Black")]
        for name in set(names):
            self.players.setdefault(name, PlayerTally()).games += 1
        for side, name in enumerate(names):
            tally = self.players[name]
            acc = review.accuracy(side)
            if acc is not None:
                tally.accuracies.append(acc)
            for mark in tally.marks:
                tally.marks[mark] += review.count(side, mark)

    def ranked(self) -> list[tuple[str, PlayerTally]]:
        """The players, most games first, then by name."""
        return sorted(self.players.items(), key=lambda kv: (-kv[1].games, kv[0]))


def summary_text(s: FolderSummary) -> str:
    """The table: player, games, accuracy, blunders, mistakes, inaccuracies."""
    done = f"{s.reviewed} of {s.files} game files reviewed, {s.skipped} skipped"
    lines = [f"Interrupted: {done}." if s.interrupted else f"{done[0].upper()}{done[1:]}."]
    if s.players:
        # the players' names are the games' headers: shown by the one rule, and bounded
        names = {name: shown(name, NAME_WIDTH) for name in s.players}
        width = max(6, *(len(name) for name in names.values()))
        marks = [(mark, plural) for mark, _, plural in MARKS[:3]]  # ?? ? ?!
        lines.append(f"{'player':<{width}}  games  accuracy  "
                     + "  ".join(plural for _, plural in marks))
        for player, t in s.ranked():
            name = names[player]
            acc = accuracy_text(t.accuracy, 1)
            counts = "  ".join(f"{t.marks[m]:>{len(plural)}}" for m, plural in marks)
            lines.append(f"{name:<{width}}  {t.games:>5}  {acc:>8}  {counts}")
    lines.append(f"Inaccuracy (?!): a kept result {s.inaccuracy}+ moves slower, or a "
                 "four missed.")
    return "\n".join(lines) + "\n"


def summary_json(s: FolderSummary) -> dict:
    """The summary as plain JSON values."""
    return {
        "files": s.files, "reviewed": s.reviewed, "skipped": s.skipped,
        "interrupted": s.interrupted, "inaccuracy_moves": s.inaccuracy,
        "players": {name: {
            "games": t.games,
            "accuracy": None if t.accuracy is None else round(t.accuracy, 1),
            **{plural.replace(" ", "_"): t.marks[m] for m, _, plural in MARKS},
        } for name, t in s.ranked()},
    }


class _Folder:
    """The review of a folder's games in a worker thread; the main thread waits in short
    slices (Ctrl-C is seen at once: the kernels hold no GIL, but Python raises it only
    in the main thread) and prints the skipped files and the progress."""

    def __init__(self, paths: Sequence[Path], solver, summary: FolderSummary,
                 err: TextIO) -> None:
        self.paths, self.solver, self.summary, self.err = paths, solver, summary, err
        self.tty = bool(getattr(err, "isatty", lambda: False)())
        self._lock = threading.Lock()
        self._said: list[str] = []  # lines for stderr, from the worker
        self._stop = threading.Event()
        self._done = threading.Event()
        self._reviewer: Reviewer | None = None
        self.error: BaseException | None = None
        self._shown = False

    def run(self) -> None:
        threading.Thread(target=self._work, name="c4tui-review", daemon=True).start()
        t0 = last = time.monotonic()
        every = EVERY_TTY if self.tty else EVERY_LOG
        try:
            while not self._done.wait(0.05):
                self._flush()
                if time.monotonic() - last >= every:
                    last = time.monotonic()
                    self._progress(last - t0)
        except KeyboardInterrupt:
            self.summary.interrupted = True
            self._stop.set()
            end = time.monotonic() + STOP_WAIT
            while not self._done.is_set() and time.monotonic() < end:
                try:
                    with self._lock:
                        if self._reviewer is not None:
                            self._reviewer.stop()
                    self._done.wait(0.05)
                except KeyboardInterrupt:  # a second Ctrl-C: the same answer
                    pass
        self._flush()
        self._end_progress()

    @property
    def running(self) -> bool:
        """The worker has not ended (a stop could not reach it)."""
        return not self._done.is_set()

    def _work(self) -> None:
        from c4tui import gamefile

        try:
            for path in self.paths:
                if self._stop.is_set():
                    return
                try:
                    game = gamefile.load_game(path)
                except gamefile.GameFileError as exc:
                    self._skip(f"{exc}")
                    continue
                moves = game.position.history
                if not moves:
                    self._skip(f"{path}: no moves")
                    continue
                with self._lock:
                    reviewer = self._reviewer = Reviewer(self.solver, self.summary.inaccuracy)
                if self._stop.is_set():
                    return
                try:
                    result = reviewer.review(moves)
                except ReviewCancelled:
                    return
                with self._lock:
                    self.summary.add(result, game.headers)
        except BaseException as exc:  # a solver bug: reported by the command
            self.error = exc
        finally:
            self._done.set()

    def _skip(self, why: str) -> None:
        with self._lock:
            self.summary.skipped += 1
            self._said.append(f"c4tui: review: {shown(why, None)}: skipped")

    def _flush(self) -> None:
        with self._lock:
            said, self._said = self._said, []
        if said:
            self._end_progress()
            for line in said:
                print(line, file=self.err, flush=True)

    def _progress(self, seconds: float) -> None:
        s = self.summary
        with self._lock:
            text = (f"reviewing games: {s.reviewed + s.skipped}/{s.files} done, "
                    f"{s.skipped} skipped, {seconds:.0f} s")
        if self.tty:
            self.err.write(f"\r{text}\x1b[K")
            self.err.flush()
            self._shown = True
        else:
            print(text, file=self.err, flush=True)

    def _end_progress(self) -> None:
        if self._shown:
            self.err.write("\r\x1b[K")
            self.err.flush()
            self._shown = False


def review_folder(paths: Sequence[Path], solver, inaccuracy: int,
                  err: TextIO | None = None) -> tuple[FolderSummary, bool]:
    """Review the games of ``paths`` with ``solver``; the summary, and whether the
    worker still runs (a Ctrl-C that could not stop it: the caller leaves at once).
    Raises what the review raised (not a bad file: those are skipped and counted)."""
    folder = _Folder(paths, solver, FolderSummary(len(paths), inaccuracy), err or sys.stderr)
    folder.run()
    if folder.error is not None:
        raise folder.error
    return folder.summary, folder.running


def leave(code: int) -> None:
    """Exit at once with ``code``, the output flushed: a kernel still running must not
    see the interpreter free its memory."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
