"""The search's keys: pause, step, stop, analyse, auto, books, node limit and hash size.

With an external engine (``--engine``) space stops the search (UGI cannot pause) and the
step keys stay in the footer greyed out: :meth:`SearchActions.check_action` switches
between the usual bindings and :data:`EXTERNAL_BINDINGS`, which answer for those keys.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.binding import Binding

from c4tui.engine.seam import Limits
from c4tui.units import UnitError, parse_count, parse_mb

from .engine_bridge import NOT_WITH_EXTERNAL, EngineMissing
from .widgets import PromptScreen

if TYPE_CHECKING:
    from .main import C4App

    _Base = C4App
else:
    _Base = object

#: Only with an external engine (see :meth:`SearchActions.check_action`).
EXTERNAL_BINDINGS = [
    Binding("space", "external_stop", "stop"),
    Binding("n", "not_external", "step", show=False),
    Binding("N", "not_external", "step N nodes", show=False),
]
#: The built-in search's actions an external engine cannot do (shown greyed out).
NEED_OWN_SEARCH = ("step_iteration", "step_nodes")


class SearchActions(_Base):
    """Mixed into :class:`C4App`; every answer is a one-line message."""

    def _engine_says(self, do: Callable[[], str], *, watched: bool = True) -> None:
        """Run a bridge command; its answer (or why there is no engine) is the message.
        ``watched``: the command acts on the search the panels show, which hidden hints
        hide (play mode): it is refused then."""
        if watched and not self.hints:
            self.error("search: the hints are hidden (h shows them)")
            return
        try:
            message = do()
        except EngineMissing as exc:
            self.error(f"search: {exc}")
            return
        if message:
            self.say(message)
        self.show()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """With an external engine space stops rather than pauses, and the step keys are
        greyed out (None) so that their :data:`EXTERNAL_BINDINGS` twins say why."""
        external = self.bridge.external
        if action == "toggle_pause":
            return not external
        if action in ("external_stop", "not_external"):
            return external
        if action in NEED_OWN_SEARCH:
            return None if external else True
        return super().check_action(action, parameters)

    def key_help(self, binding: Binding) -> str | None:
        """A key's title in the command palette; None: not listed (it does not apply)."""
        state = self.check_action(binding.action.split("(")[0], ())
        if state is False or binding.action == "not_external":
            return None
        title = binding.description[:1].upper() + binding.description[1:]
        return title if state else f"{title} ({NOT_WITH_EXTERNAL})"

    def action_external_stop(self) -> None:
        """Space with an external engine: ``stop`` (the last result stays)."""
        self._engine_says(self.bridge.stop)

    def action_not_external(self) -> None:
        """``n`` / ``N`` with an external engine: say why nothing happens."""
        self.say(f"stepping: {NOT_WITH_EXTERNAL}")

    def action_toggle_pause(self) -> None:
        self._engine_says(self.bridge.toggle_pause)

    def action_stop(self) -> None:
        self._engine_says(self.bridge.stop)

    def action_step_iteration(self) -> None:
        self._engine_says(self.bridge.step_iteration)

    def action_analyse(self) -> None:
        self._engine_says(self.bridge.analyse)

    def action_toggle_book(self) -> None:
        """``B``: the books off (or on again) for the analysis search, so that it can be
        watched and stepped in the opening; the exact values keep them."""
        self._engine_says(self.bridge.toggle_book, watched=False)

    def action_toggle_auto(self) -> None:
        self.settings.auto = not self.settings.auto
        self.say(f"auto-analysis {'on' if self.settings.auto else 'off'}")
        if self.settings.auto:
            self.bridge.set_position(self.position)
        self.show()

    def action_step_nodes(self) -> None:
        if not self.hints:
            self.error("search: the hints are hidden (h shows them)")
            return
        try:
            self.bridge.require_engine()
        except EngineMissing as exc:
            self.error(f"search: {exc}")
            return

        def done(text: str | None) -> None:
            if text is None:
                return
            try:
                n = parse_count(text, "step nodes")
            except UnitError as exc:
                self.error(str(exc))
                return
            self._engine_says(lambda: self.bridge.step_nodes(n))

        self.push_screen(PromptScreen("Step how many nodes?", "10000"), done)

    def action_node_limit(self) -> None:
        def done(text: str | None) -> None:
            if text is None:
                return
            try:
                n = parse_count(text, "node limit")
                Limits(n, self.settings.hash_mb)
            except (UnitError, ValueError) as exc:
                self.error(str(exc))
                return
            self.bridge.set_node_limit(n)
            self.say(f"node limit {n:,}")
            self.show()

        self.push_screen(PromptScreen("Node limit (e.g. 500k, 2M):",
                                      str(self.settings.node_limit)), done)

    def action_hash_size(self) -> None:
        def done(text: str | None) -> None:
            if text is None:
                return
            try:
                mb = parse_mb(text, "hash size")
                Limits(self.settings.node_limit, mb)
            except (UnitError, ValueError) as exc:
                self.error(str(exc))
                return
            self.say(self.bridge.set_hash(mb))
            self.show()

        self.push_screen(PromptScreen("Hash size in MB:", str(self.settings.hash_mb)), done)
