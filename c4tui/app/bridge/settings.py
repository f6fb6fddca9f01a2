"""What the user sets for the engine: auto-analysis, the search's limits, hash size, an
external engine."""

from __future__ import annotations

from dataclasses import dataclass

from c4tui.engine.seam import Limits, SearchOptions, check_hash_mb

#: The built-in analysis search's node limit in the workstation until the user sets one
#: (``--nodes``, key ``l``); an external engine has none then (``go infinite``).
WORKSTATION_NODES = 2_000_000
#: Seconds the exact solver may take for the move values before they go heuristic.
EXACT_BUDGET = 3.0
#: Seconds the solver may spend on each column's perfect-play line after the values (a
#: longer line is cut there, a correct beginning; opening lines take seconds, others ms).
LINE_BUDGET = 1.0
#: Seconds the exact solver first spends on the positions after the viewed one's moves
#: (the user's next move shows its values at once) before it finds the lines.
PONDER_FIRST = 0.5
#: Positions whose engine results the app keeps (exact values and lines, verdicts, column
#: and graph values): the most recently viewed; an older one is analysed again when viewed.
RECENT_POSITIONS = 1024
#: The exact solver's table (MB).
SOLVER_HASH_MB = 64
#: The game review's own solver (key R): a modest table, one thread, beside the exact
#: worker's solver rather than taking it (the viewed position's values keep coming).
REVIEW_HASH_MB = 32
#: Seconds an external engine may take to answer ``ugi``, the first ``isready`` (ours
#: loads its kernels then: minutes on a cold numba cache, compiling beside the app's own
#: engine on a small machine) and ``stop``.
EXTERNAL_UGI_TIMEOUT = 10.0
EXTERNAL_READY_TIMEOUT = 300.0
EXTERNAL_STOP_TIMEOUT = 5.0


@dataclass
class SearchSettings:
    """The workstation's engine settings (the limits validate themselves when made)."""

    auto: bool = True  #: start a search on every new position
    #: the bounds the user set for each analysis search (``--nodes``, key ``l``); None:
    #: none set, the workstation's defaults apply (:meth:`search_limits`)
    limits: Limits | None = None
    #: how the analysis search searches, as the user set it: ``hash_mb`` (``--hash``, key
    #: ``H``; whole MB), ``use_book`` (off: ``--no-book``, key ``B``, to watch it search an
    #: opening position; the exact values keep the books), ``multipv`` (key ``m``: 1, 2,
    #: 3, every move); an external engine takes only the hash size
    options: SearchOptions = SearchOptions()
    #: an external UGI engine's command (``--engine``) instead of the built-in search
    engine_cmd: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        check_hash_mb(self.options.hash_mb)  # whole MB from 1: ValueError, one line

    def search_limits(self, external: bool = False) -> Limits:
        """What bounds an analysis search: the user's :attr:`limits`; without them, the
        workstation's defaults, the one place they are applied: :data:`WORKSTATION_NODES`
        for the built-in search, and no bound for an ``external`` engine (``go infinite``:
        it searches until it is done or the position changes)."""
        if self.limits is not None:
            return self.limits
        return Limits() if external else Limits(nodes=WORKSTATION_NODES)
