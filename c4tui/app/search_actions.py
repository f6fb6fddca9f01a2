"""The search's keys: pause, step, stop, analyse, auto, node limit and hash size."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from c4tui.engine.seam import Limits
from c4tui.units import UnitError, parse_count, parse_mb

from .engine_bridge import EngineMissing
from .widgets import PromptScreen

if TYPE_CHECKING:
    from .main import C4App

    _Base = C4App
else:
    _Base = object


class SearchActions(_Base):
    """Mixed into :class:`C4App`; every answer is a one-line message."""

    def _engine_says(self, do: Callable[[], str]) -> None:
        """Run a bridge command; its answer (or why there is no engine) is the message."""
        try:
            message = do()
        except EngineMissing as exc:
            self.error(f"search: {exc}")
            return
        if message:
            self.say(message)
        self.show()

    def action_toggle_pause(self) -> None:
        self._engine_says(self.bridge.toggle_pause)

    def action_stop(self) -> None:
        self._engine_says(self.bridge.stop)

    def action_step_iteration(self) -> None:
        self._engine_says(self.bridge.step_iteration)

    def action_analyse(self) -> None:
        self._engine_says(self.bridge.analyse)

    def action_toggle_auto(self) -> None:
        self.settings.auto = not self.settings.auto
        self.say(f"auto-analysis {'on' if self.settings.auto else 'off'}")
        if self.settings.auto:
            self.bridge.set_position(self.position)
        self.show()

    def action_step_nodes(self) -> None:
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
