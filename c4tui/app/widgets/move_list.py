"""The move list: the game tree PGN-style, ``1. d1 d2 2. e1 (2. c1 c2 3. d3) c1``.

The current line (the moves ↑ ↓ walk) is drawn plain, the other variations dim, comments
``{ … }`` dim italic, the viewed move reversed; every move is clickable.
"""

from __future__ import annotations

from typing import NamedTuple

from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from c4tui.gamefile.movetext import movetext_words
from c4tui.gamefile.tree import Node, Path

from ..messages import NodeClicked
from .board_size import KEY_COLUMNS

VIEWED = "reverse bold"
OFF_LINE = "dim"
COMMENT = "dim italic"
NUMBER = "dim"


BREAK, SPACE, GLUED = 0, 1, 2  # what comes before a token: a space where a line may
# break, a space that keeps it with the token before (a move after its number), nothing


class Token(NamedTuple):
    """A piece of the move list: text, style, the path a click goes to (None: not a
    move), and what comes before it (BREAK, SPACE or GLUED)."""

    text: str
    style: str
    target: Path | None
    before: int = BREAK


class MoveList(Widget):
    """The app sets ``root`` (the game tree), ``line_path`` (the current line), ``ply``
    (the viewed ply along it) and ``marks`` (ply of the current line -> a mark drawn after
    its move: c4tui.review.game's ``??``, ``?``, ``?!``, ``!``); a click on a move posts
    :class:`NodeClicked`. Wrapped to the widget's width; when the game is longer than the
    widget, the lines around the viewed move are shown."""

    root: reactive[Node] = reactive(Node)
    line_path: reactive[Path] = reactive(tuple)
    ply: reactive[int] = reactive(0)
    marks: reactive[dict[int, str]] = reactive(dict)

    def action_pick(self, target: str) -> None:
        self.post_message(NodeClicked(tuple(int(i) for i in target.split(".") if i)))

    def tokens(self) -> list[Token]:
        """The tree as tokens, in PGN order."""
        line, viewed = self.line_path, self.line_path[: self.ply]
        toks = [Token("start", VIEWED if self.ply == 0 else "", ())]
        before = BREAK  # what comes before the next move: GLUED after "(", SPACE after
        # its number (kept with it)
        for word in movetext_words(self.root, compact=True):  # the file's words, compact
            if word.kind == "number":
                toks.append(Token(word.text, NUMBER, None, before))
                before = SPACE
            elif word.kind == "move":
                path, ply = word.item.path, word.item.ply
                on_line = line[: len(path)] == path
                text = word.text + (self.marks.get(ply + 1, "") if on_line else "")
                style = VIEWED if path == viewed else ("" if on_line else OFF_LINE)
                toks.append(Token(text, style, path, before))
                before = BREAK
            elif word.kind == "comment":
                toks.append(Token(word.text, COMMENT, None))
            else:
                toks.append(Token(word.text, NUMBER, None, GLUED if word.kind == ")" else BREAK))
                before = GLUED if word.kind == "(" else BREAK
        return toks

    def render(self) -> Text:
        width = max(8, self.size.width)
        height = max(1, self.size.height)
        if not self.root.children and not self.root.comment:
            return Text(f"no moves yet: press 1-{KEY_COLUMNS}, or ←/→ and enter", style="dim")
        # words: tokens kept together (a line breaks between words only)
        words: list[list[Token]] = []
        for tok in self.tokens():
            if tok.before == BREAK or not words:
                words.append([tok])
            else:
                words[-1].append(tok)
        lines: list[list[list[Token]]] = [[]]
        used = 0
        current_line = 0
        viewed = self.line_path[: self.ply]
        for word in words:
            size = sum(len(t.text) + (t.before == SPACE) for t in word)
            need = size + (1 if lines[-1] else 0)
            if lines[-1] and used + need > width:
                lines.append([])
                used, need = 0, size
            lines[-1].append(word)
            used += need
            if any(t.target == viewed for t in word):
                current_line = len(lines) - 1
        # a window of `height` lines that contains the current one, as low as possible
        first = max(0, min(current_line - height + 1 + (height > 2), len(lines) - height))
        first = min(first, current_line)
        out = Text(no_wrap=True, overflow="crop")
        for n, line in enumerate(lines[first: first + height]):
            if n:
                out.append("\n")
            for k, word in enumerate(line):
                if k:
                    out.append(" ")
                for tok in word:
                    if tok.before == SPACE:
                        out.append(" ")
                    st = Style.parse(tok.style) if tok.style else Style()
                    if tok.target is not None:
                        target = ".".join(map(str, tok.target))
                        st += Style.from_meta({"@click": f"pick({target!r})"})
                    out.append(tok.text, style=st)
        return out
