"""The move list: numbered pairs ``1. d1 d2 2. e1 c1``, the viewed ply highlighted, the
review's marks after the moves (``d2??``)."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from c4tui.engine.geometry import COLUMN_NAMES
from c4tui.engine.position import Position

from ..messages import PlyClicked

Token = tuple[str, str, "int | None"]  # text, style, ply to jump to


class MoveList(Widget):
    """The app sets ``line`` (0-based columns), ``ply`` and ``marks`` (ply reached by a
    move -> its review mark: ``??``, ``?``, ``!``); a click on a move posts
    :class:`PlyClicked`. Wrapped to the widget's width; when the game is longer than the
    widget, the lines around the viewed ply are shown."""

    line: reactive[tuple[int, ...]] = reactive(tuple)
    ply: reactive[int] = reactive(0)
    marks: reactive[dict[int, str]] = reactive(dict)

    def action_pick(self, ply: int) -> None:
        self.post_message(PlyClicked(ply))

    def _tokens(self) -> list[Token]:
        """(text, style, ply to jump to) per token; ply 0 is the start."""
        toks: list[Token] = [("start", "reverse bold" if self.ply == 0 else "", 0)]
        pos = Position()
        for i, col in enumerate(self.line):
            row = pos.height(col)
            pos.play(col)
            if i % 2 == 0:
                toks.append((f"{i // 2 + 1}.", "dim", None))
            style = "reverse bold" if i + 1 == self.ply else ("" if i < self.ply else "dim")
            mark = self.marks.get(i + 1, "")
            toks.append((f"{COLUMN_NAMES[col]}{row + 1}{mark}", style, i + 1))
        return toks

    def render(self) -> Text:
        width = max(8, self.size.width)
        height = max(1, self.size.height)
        if not self.line:
            return Text("no moves yet: press 1-7, or ←/→ and enter", style="dim")
        lines: list[list[Token]] = [[]]
        used = 0
        current_line = 0
        for tok in self._tokens():
            need = len(tok[0]) + (1 if lines[-1] else 0)
            if lines[-1] and used + need > width:
                lines.append([])
                used, need = 0, len(tok[0])
            lines[-1].append(tok)
            used += need
            if tok[2] == self.ply:
                current_line = len(lines) - 1
        # a window of `height` lines that contains the current one, as low as possible
        first = max(0, min(current_line - height + 1 + (height > 2), len(lines) - height))
        first = min(first, current_line)
        out = Text(no_wrap=True, overflow="crop")
        for n, toks in enumerate(lines[first : first + height]):
            if n:
                out.append("\n")
            for k, (text, style, ply) in enumerate(toks):
                if k:
                    out.append(" ")
                st = Style.parse(style) if style else Style()
                if ply is not None:
                    st += Style.from_meta({"@click": f"pick({ply})"})
                out.append(text, style=st)
        return out
