"""The search's commands: pause, step, stop, analyse, auto, books, node limit and hash size.

With an external engine (``--engine``) space stops the search (UGI cannot pause) and the
step keys stay in the footer greyed out: :meth:`SearchControl.key_state` tells the main
screen which of its bindings apply.
"""

from __future__ import annotations

from collections.abc import Callable

from c4tui.units import UnitError, parse_count, parse_mb

from ..bridge.engine_bridge import BridgeLike, EngineMissing
from ..bridge.live_search import NOT_WITH_EXTERNAL
from ..bridge.settings import SearchSettings
from ..session.model import GameModel
from ..widgets import PromptScreen
from .host import Host

#: The built-in search's actions an external engine cannot do (shown greyed out).
NEED_OWN_SEARCH = ("step_iteration", "step_nodes")


class SearchControl:
    """Every answer is a one-line message. ``hints``: whether the engine's opinion is
    shown (play mode may hide it; the search keys then refuse)."""

    def __init__(self, model: GameModel, bridge: BridgeLike, settings: SearchSettings,
                 host: Host, hints: Callable[[], bool]) -> None:
        self.model, self.bridge, self.settings, self.host = model, bridge, settings, host
        self._hints = hints

    def _engine_says(self, do: Callable[[], str], *, watched: bool = True) -> None:
        """Run a bridge command; its answer (or why there is no engine) is the message.
        ``watched``: the command acts on the search the panels show, which hidden hints
        hide (play mode): it is refused then."""
        if watched and not self._hints():
            self.host.error("search: the hints are hidden (h shows them)")
            return
        try:
            message = do()
        except EngineMissing as exc:
            self.host.error(f"search: {exc}")
            return
        if message:
            self.host.say(message)
        self.host.state_changed()

    def key_state(self, action: str) -> bool | None:
        """For the main screen's ``check_action``: with an external engine space stops
        rather than pauses, and the step keys are greyed out (None) so that their
        external twins say why. True: the action applies."""
        external = self.bridge.external
        if action == "toggle_pause":
            return not external
        if action in ("external_stop", "not_external"):
            return external
        if action in NEED_OWN_SEARCH:
            return None if external else True
        return True

    def external_stop(self) -> None:
        """Space with an external engine: ``stop`` (the last result stays)."""
        self._engine_says(self.bridge.search.stop)

    def not_external(self) -> None:
        """``n`` / ``N`` with an external engine: say why nothing happens."""
        self.host.say(f"stepping: {NOT_WITH_EXTERNAL}")

    def toggle_pause(self) -> None:
        self._engine_says(self.bridge.search.toggle_pause)

    def stop(self) -> None:
        self._engine_says(self.bridge.search.stop)

    def step_iteration(self) -> None:
        self._engine_says(self.bridge.search.step_iteration)

    def analyse(self) -> None:
        self._engine_says(self.bridge.analyse)

    def toggle_book(self) -> None:
        """``B``: the books off (or on again) for the analysis search, so that it can be
        watched and stepped in the opening; the exact values keep them."""
        self._engine_says(self.bridge.search.toggle_book, watched=False)

    def cycle_multipv(self) -> None:
        """``m``: the analysis search's lines, 1, 2, 3, every move (the panel lists them)."""
        self._engine_says(self.bridge.search.cycle_multipv, watched=False)

    def toggle_auto(self) -> None:
        """``a``: auto-analysis on or off (on: the viewed position is searched now)."""
        self.settings.auto = not self.settings.auto
        self.host.say(f"auto-analysis {'on' if self.settings.auto else 'off'}")
        if self.settings.auto:
            self.bridge.set_position(self.model.position)
        self.host.state_changed()

    def step_nodes(self) -> None:
        if not self._hints():
            self.host.error("search: the hints are hidden (h shows them)")
            return
        try:
            self.bridge.require_engine()
        except EngineMissing as exc:
            self.host.error(f"search: {exc}")
            return

        def step(n: int) -> None:
            self._engine_says(lambda: self.bridge.search.step_nodes(n))

        self._ask_number("Step how many nodes?", "10000", parse_count, "step nodes", step)

    def node_limit(self) -> None:
        def limit(n: int) -> None:
            self.bridge.search.set_node_limit(n)
            self.host.say(f"node limit {n:,}")
            self.host.state_changed()

        nodes = self.settings.search_limits().nodes
        self._ask_number("Node limit (e.g. 500k, 2M):", "" if nodes is None else str(nodes),
                         parse_count, "node limit", limit)

    def hash_size(self) -> None:
        def size(mb: int) -> None:
            self.host.say(self.bridge.search.set_hash(mb))
            self.host.state_changed()

        self._ask_number("Hash size in MB:", str(self.settings.options.hash_mb), parse_mb,
                         "hash size", size)

    def _ask_number(self, question: str, proposed: str, parse: Callable[[str, str], int],
                    what: str, use: Callable[[int], None]) -> None:
        """A prompt for a count or a size; ``parse`` checks the range it may have, and a
        bad answer is one error line."""
        def done(text: str | None) -> None:
            if text is None:
                return
            try:
                value = parse(text, what)
            except UnitError as exc:
                self.host.error(str(exc))
                return
            use(value)

        self.host.ask(PromptScreen(question, proposed), done)
