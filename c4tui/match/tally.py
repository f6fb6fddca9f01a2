"""The match's counts from engine A's side: wins, draws, losses and the pair outcomes."""

from __future__ import annotations

from dataclasses import dataclass, field

from c4tui.units import plural

from .elo import EloEstimate, estimate


@dataclass
class Tally:
    """Engine A's results: per game (W/D/L) and per finished pair of games (pentanomial:
    how many pairs A scored 0, 0.5, 1, 1.5 and 2 points in)."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    pairs: list[int] = field(default_factory=lambda: [0] * 5)
    _halves: dict[int, float] = field(default_factory=dict)  # a pair's first game's points

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float | None:
        """A's points per game (0-1), None before any game."""
        return (self.wins + self.draws / 2) / self.games if self.games else None

    def add(self, pair: int, points: float) -> None:
        """A scored ``points`` (1, 0.5 or 0) in a game of ``pair``."""
        if points == 1.0:
            self.wins += 1
        elif points == 0.5:
            self.draws += 1
        else:
            self.losses += 1
        first = self._halves.pop(pair, None)
        if first is None:
            self._halves[pair] = points
        else:
            self.pairs[int(round(2 * (first + points)))] += 1

    @property
    def trinomial(self) -> list[int]:
        """Losses, draws, wins (worst first, as the pentanomial)."""
        return [self.losses, self.draws, self.wins]

    def counts(self) -> list[int]:
        """The samples of the statistics: the pair counts once a pair is complete, else
        the games' (a match of single games has no pairs)."""
        return list(self.pairs) if sum(self.pairs) else self.trinomial

    def elo(self) -> EloEstimate | None:
        return estimate(self.counts())

    def elo_basis(self) -> str:
        """What :meth:`elo` is computed over: ``2 complete pairs`` once a pair is
        complete (a pair's second game still running is not in it, so its score may
        differ from the games' score), else ``3 games``."""
        complete = sum(self.pairs)
        return plural(complete, "complete pair") if complete else plural(self.games, "game")
