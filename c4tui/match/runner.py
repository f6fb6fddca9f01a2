"""A match: K pairs of engine processes play the games side by side.

Game ``g`` (0-based) is the ``g // 2``-th game pair: opening ``g // 2`` (the list cycles),
engine A White when ``g`` is even, B when odd, so each opening is played with colours
reversed. Each worker thread owns one process of each engine and takes the next game;
an engine that crashed or ran out of time is killed and started again for its next game.
After every game the tally, the Elo and (``--sprt``) the LLR are updated; once the LLR
crosses a bound no game starts, and games still running are dropped.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from c4tui.bounded import shown
from c4tui.gamefile import GameFileError
from c4tui.ugi.client import EngineGone

from .adjudicator import DEFAULT_EMPTY, Adjudicator
from .game import CRASH, TIME, GameRecord, play_game
from .openings import Opening
from .player import EngineSpec, Player
from .records import game_file
from .sprt import Sprt
from .tally import Tally

#: At most this many games at once (each a pair of engine processes).
MAX_CONCURRENCY = 16
LABELS = ("A", "B")


class MatchError(Exception):
    """The match cannot go on (an engine that does not start, a record not written)."""


@dataclass(frozen=True)
class MatchConfig:
    """Everything a match needs; ``engines`` is (A, B)."""

    engines: tuple[EngineSpec, EngineSpec]
    openings: Sequence[Opening]
    games: int
    concurrency: int = 1
    adjudicate: int = DEFAULT_EMPTY  #: empty squares (0: never)
    sprt: Sprt | None = None
    records: Path | None = None

    def __post_init__(self) -> None:
        if not 1 <= self.concurrency <= MAX_CONCURRENCY:
            raise ValueError(f"--concurrency {self.concurrency}: out of range "
                             f"(1 to {MAX_CONCURRENCY})")
        if self.games < 1:
            raise ValueError(f"--games {self.games}: out of range (at least 1)")
        if not self.openings:
            raise ValueError("no openings")


@dataclass(frozen=True)
class MatchState:
    """The match after a game: what the table shows."""

    played: int
    total: int
    tally: Tally
    llr: float | None = None  #: with --sprt, once a pair is complete
    verdict: str | None = None  #: "H0" or "H1" once the test ended


@dataclass
class _Seat:
    """A worker's two engine processes (None: to be started)."""

    players: list[Player | None] = field(default_factory=lambda: [None, None])


class Match:
    """Runs a :class:`MatchConfig`; ``on_game(record, state)`` after every game (from a
    worker thread, one call at a time)."""

    def __init__(self, config: MatchConfig,
                 on_game: Callable[[GameRecord, MatchState], None]) -> None:
        self.config = config
        self.on_game = on_game
        self.names = {"A": "A", "B": "B"}
        self.state = MatchState(0, config.games, Tally())
        self.error = ""
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._next = 0
        self._seats = [_Seat() for _ in range(min(config.concurrency, config.games))]
        self._adjudicator = Adjudicator(config.adjudicate) if config.adjudicate else None

    # ------------------------------------------------------------------ running
    def start(self) -> None:
        """Start every engine process (side by side); MatchError with one line if one
        does not start or answer, naming it."""
        errors: list[str] = []

        def open_seat(seat: _Seat) -> None:
            for i in range(2):
                try:
                    self._seat_player(seat, i)
                except EngineGone as exc:
                    command = shown(" ".join(self.config.engines[i].argv))
                    errors.append(f"engine {LABELS[i]} ({command}): {exc}")
                    return

        threads = [threading.Thread(target=open_seat, args=(s,), daemon=True)
                   for s in self._seats]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if errors:
            self.close()
            raise MatchError(errors[0])
        first = self._seats[0].players
        self.names = {LABELS[i]: p.name for i, p in enumerate(first) if p is not None}

    def run(self) -> MatchState:
        """Play the games (after :meth:`start`); the final state. MatchError if a record
        cannot be written."""
        threads = [threading.Thread(target=self._work, args=(s,), daemon=True)
                   for s in self._seats]
        for t in threads:
            t.start()
        try:
            for t in threads:
                while t.is_alive():
                    t.join(0.2)  # wakes for Ctrl-C
        finally:
            self.close()
        if self.error:
            raise MatchError(self.error)
        return self.state

    def cancel(self) -> None:
        """Stop taking games; running games are dropped at their next move."""
        self._stop.set()

    def close(self) -> None:
        """Stop and end every engine process (and whatever each started); an engine
        still starting is ended as soon as it has started."""
        with self._lock:
            self._stop.set()
            players = [p for seat in self._seats for p in seat.players if p is not None]
            for seat in self._seats:
                seat.players[:] = [None, None]
        for p in players:
            p.quit()

    # ------------------------------------------------------------------ workers
    def _player(self, i: int) -> Player:
        player = Player(self.config.engines[i], LABELS[i])
        try:
            player.start()
        except EngineGone:
            player.close()
            raise
        return player

    def _seat_player(self, seat: _Seat, i: int) -> None:
        """Start engine ``i`` of ``seat``; EngineGone if it does not start, or if the
        match was closed meanwhile (it is killed then: :meth:`close` did not see it)."""
        player = self._player(i)
        with self._lock:
            if not self._stop.is_set():
                seat.players[i] = player
                return
        player.quit()
        raise EngineGone("the match is over")

    def _take(self) -> int | None:
        with self._lock:
            if self._stop.is_set() or self._next >= self.config.games:
                return None
            self._next += 1
            return self._next - 1

    def _work(self, seat: _Seat) -> None:
        while (g := self._take()) is not None:
            pair = g // 2
            opening = self.config.openings[pair % len(self.config.openings)]
            record = self._restart(seat, g, pair, opening)
            if record is None:
                with self._lock:
                    a, b = seat.players
                if a is None or b is None:  # closed meanwhile: the match is over
                    return
                white, black = (a, b) if g % 2 == 0 else (b, a)
                record = play_game(g + 1, pair, opening, white, black, self._adjudicator,
                                   self._stop)
            if record is None:
                return
            if record.termination in (TIME, CRASH):  # the offender is started again
                i = LABELS.index(record.loser)
                player = seat.players[i]
                if player is not None:
                    player.close()
                    seat.players[i] = None
            self._finished(record)

    def _restart(self, seat: _Seat, g: int, pair: int, opening: Opening) -> GameRecord | None:
        """Start the engines that died; a forfeit if one does not start."""
        for i in range(2):
            if seat.players[i] is None:
                try:
                    self._seat_player(seat, i)
                except EngineGone as exc:
                    white = LABELS[g % 2]
                    loser_is_white = LABELS[i] == white
                    return GameRecord(g + 1, pair, opening, white, opening.moves,
                                      1 if loser_is_white else 0, CRASH,
                                      f"{LABELS[i]} did not start again: {exc}")
        return None

    def _finished(self, record: GameRecord) -> None:
        config = self.config
        with self._lock:
            if self.error or self._stop.is_set():  # over (SPRT, Ctrl-C): games are dropped
                return
            tally = self.state.tally
            tally.add(record.pair, record.points("A"))
            llr: float | None = None
            verdict: str | None = None
            if config.sprt is not None and any(tally.pairs):
                llr = config.sprt.llr(tally.pairs)
                verdict = config.sprt.verdict(llr)
                if verdict is not None:
                    self._stop.set()
            self.state = replace(self.state, played=self.state.played + 1, llr=llr,
                                 verdict=verdict)
            if config.records is not None:
                try:
                    game_file(config.records, record, self.names)
                except GameFileError as exc:
                    self.error = str(exc)
                    self._stop.set()
                    return
            self.on_game(record, self.state)
