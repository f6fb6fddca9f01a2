"""A board as an SVG picture: discs, the last move, the threats, the best moves, a legend.

Pure Python, standard library only (no numba), so that :meth:`Position._repr_svg_` can
draw a position in Jupyter without loading a kernel, and ``c4tui render`` can write one
without a browser. The picture is text: every element says what it is in its ``class``
(``disc white``, ``disc black``, ``last-move``, ``threat white odd``, ``best``), which is
also how the tests read it back (``xml.etree``).

Readable without colour, as the app's board is (c4tui/app/styles.py): White's discs are
solid yellow, Black's dark red with a light ring inside (hollow, the app's ``○``), the two
differing in lightness as well as hue; the last move is a dot in its disc; a threat is a
small disc of its owner's kind with ``o`` (odd row: rows 1, 3, 5) or ``e`` (even row), in
capitals when it can be played now (acute); a best move is a triangle above its column and
a dashed ring on the square it lands on. The legend under the board says all of this.

Threats are the engine's threat map (:meth:`Position.threats`, the squares that complete a
four, which the app's threat panel lists); the best moves come from the caller (the exact
solver or the books), since finding them takes the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol
from xml.sax.saxutils import escape, quoteattr

from .geometry import COLUMN_NAMES, HEIGHT, WIDTH, square_bit

#: position.PLAYER_NAMES, written again: position.py imports this module (``_repr_svg_``),
#: so this one may not import it (tests/test_pictures.py checks that the two agree).
PLAYER_NAMES = ("White", "Black")


class Position(Protocol):
    """What the picture reads of a :class:`c4tui.engine.board.position.Position`."""

    history: list[int]

    @property
    def ply(self) -> int: ...
    @property
    def to_move(self) -> int: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def is_over(self) -> bool: ...
    def cell(self, col: int, row: int) -> int | None: ...
    def height(self, col: int) -> int: ...
    def can_play(self, col: int) -> bool: ...
    def threats(self, player: int) -> int: ...
    def possible_squares(self) -> int: ...
    def winning_four(self) -> list[tuple[int, int]]: ...
    def digits(self) -> str: ...

#: Pixels of one square, and of the margins around the board (labels, the best-move row).
CELL = 48
MARGIN = 28
#: Colours: the board, a hole, White's and Black's discs, Black's inner ring, the marks.
#: Yellow and dark red differ in lightness too (deuteranopia and protanopia keep that).
BOARD_FILL = "#1d4f91"
HOLE_FILL = "#ffffff"
DISC_FILL = ("#f2c230", "#b3262d")
DISC_EDGE = ("#8a6d00", "#5c0f14")
RING = "#f4d0d2"
INK = "#1a1a1a"
BEST_FILL = "#1a1a1a"
LEGEND_LINE = 18
#: The rules' marks (``c4tui explain --svg``): one colour per rule, dark enough on the
#: white hole for its letter; none is the discs' yellow or red.
RULE_COLOURS = ("#00838f", "#2e7d32", "#6a1b9a", "#1565c0", "#e65100", "#ad1457",
                "#4e342e", "#37474f")
#: The narrowest picture: the legend's longest line (13 px sans-serif) fits.
LEGEND_WIDTH = 480


@dataclass(frozen=True)
class RuleMark:
    """One rule's squares to mark on the board: its ``letter`` (the picture reads without
    colour), what the legend says of it (``words``), its ``squares`` (0-based column,
    row)."""

    letter: str
    words: str
    squares: tuple[tuple[int, int], ...]


def _attrs(**values: object) -> str:
    """``name="value"`` pairs, escaped; ``class_`` is written ``class``."""
    return " ".join(f"{k.rstrip('_').replace('_', '-')}={quoteattr(str(v))}"
                    for k, v in values.items())


def _tag(name: str, content: str | None = None, **values: object) -> str:
    attrs = (" " + _attrs(**values)) if values else ""
    if content is None:
        return f"<{name}{attrs}/>"
    return f"<{name}{attrs}>{escape(content)}</{name}>"


def _disc(cx: float, cy: float, r: float, player: int, cls: str,
          ring: bool = True) -> list[str]:
    """A disc of ``player``: White solid, Black with a light ring inside (hollow) unless
    ``ring`` is False (a threat's small disc, whose letter the ring would cross)."""
    out = [_tag("circle", class_=f"{cls} {PLAYER_NAMES[player].lower()}", cx=cx, cy=cy, r=r,
                fill=DISC_FILL[player], stroke=DISC_EDGE[player], stroke_width=2)]
    if player == 1 and ring:
        out.append(_tag("circle", class_="ring", cx=cx, cy=cy, r=round(r * 0.6, 1),
                        fill="none", stroke=RING, stroke_width=max(1.5, r / 8)))
    return out


def board_svg(pos: Position, best: Iterable[int] = (), best_words: str = "",
              threats: bool = True, last: bool = True, title: str | None = None,
              rules: Sequence[RuleMark] = (), rules_words: str = "") -> str:
    """The SVG picture of ``pos``.

    ``best``: columns (0-based) to mark as best moves, and ``best_words`` what the legend
    says of them (``White wins in 9``); ``threats``: draw both sides' threat squares;
    ``last``: mark the last move's disc; ``title``: a line above the board (escaped);
    ``rules``: squares to mark per rule (a ringed square with the rule's letter; the
    letters of every rule through a square), with ``rules_words`` the legend's line above
    the rules' (``Black at least draws by these rules``). Without ``rules`` the picture
    is what it was before they existed.
    """
    best = sorted(set(best))
    top = LEGEND_LINE if title else 0
    board_w, board_h = WIDTH * CELL, HEIGHT * CELL
    x0, y0 = MARGIN, top + MARGIN  # the board's top-left corner (room for the triangles)
    legend = _legend_lines(pos, best, best_words, threats, last)
    if rules or rules_words:
        legend += [rules_words] if rules_words else []
        legend += [f"{m.letter}: {m.words}" for m in rules]
    width = max(board_w + 2 * MARGIN, LEGEND_WIDTH)  # the legend's lines fit
    height = y0 + board_h + MARGIN + LEGEND_LINE * len(legend) + 8
    r = CELL * 0.4
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="13">',
           _tag("title", title or f"Connect Four: {pos.digits() or 'the empty board'}"),
           _tag("rect", class_="background", x=0, y=0, width=width, height=height,
                fill="#ffffff")]
    if title:
        out.append(_tag("text", title, class_="title", x=MARGIN, y=LEGEND_LINE + 2,
                        fill=INK, font_size=15))
    out.append(_tag("rect", class_="board", x=x0, y=y0, width=board_w, height=board_h,
                    rx=8, fill=BOARD_FILL))

    def centre(col: int, row: int) -> tuple[float, float]:
        return x0 + (col + 0.5) * CELL, y0 + (HEIGHT - row - 0.5) * CELL

    for c in range(WIDTH):  # the labels: columns under the board, rows to its left
        cx = x0 + (c + 0.5) * CELL
        out.append(_tag("text", COLUMN_NAMES[c], class_="label", x=cx, y=y0 + board_h + 18,
                        text_anchor="middle", fill=INK))
    for row in range(HEIGHT):
        out.append(_tag("text", str(row + 1), class_="label", x=x0 - 12,
                        y=centre(0, row)[1] + 5, text_anchor="middle", fill=INK))
    four = set(pos.winning_four())
    white, black = pos.threats(0), pos.threats(1)
    playable = pos.possible_squares()
    for c in range(WIDTH):
        for row in range(HEIGHT):
            cx, cy = centre(c, row)
            owner = pos.cell(c, row)
            if owner is not None:
                out += _disc(cx, cy, r, owner, "disc")
                if (c, row) in four:
                    out.append(_tag("circle", class_="four", cx=cx, cy=cy, r=r + 3,
                                    fill="none", stroke="#00a35a", stroke_width=4))
                continue
            out.append(_tag("circle", class_="hole", cx=cx, cy=cy, r=r, fill=HOLE_FILL))
            bit = square_bit(c, row)
            owners = [p for p, bits in ((0, white), (1, black)) if bits & bit]
            if not threats or not owners or pos.is_over:
                continue
            acute = bool(playable & bit)
            letter = "o" if row % 2 == 0 else "e"  # row 1 (index 0) is odd
            letter = letter.upper() if acute else letter
            for i, p in enumerate(owners):  # both sides: side by side, White left
                dx = 0.0 if len(owners) == 1 else (-0.22 if i == 0 else 0.22) * CELL
                kind = f"threat {PLAYER_NAMES[p].lower()} {'odd' if row % 2 == 0 else 'even'}"
                if acute:
                    kind += " acute"
                # an acute threat's disc and letter are larger (it is played now or never)
                size = 0.3 if acute and len(owners) == 1 else 0.2
                font = 16 if acute else 12
                out += _disc(cx + dx, cy, CELL * size, p, kind, ring=False)
                out.append(_tag("text", letter, class_="threat-letter", x=cx + dx,
                                y=cy + font * 0.37, text_anchor="middle", font_weight="bold",
                                font_size=font, fill=INK if p == 0 else "#ffffff"))
    out += _rule_marks(rules, centre, r)
    if last and pos.history:
        col = pos.history[-1]
        cx, cy = centre(col, pos.height(col) - 1)
        player = (pos.ply - 1) % 2
        out.append(_tag("circle", class_="last-move", cx=cx, cy=cy, r=CELL * 0.09,
                        fill=INK if player == 0 else "#ffffff"))
    for col in best:
        if not pos.can_play(col):
            continue
        cx = x0 + (col + 0.5) * CELL
        h = CELL * 0.3
        out.append(_tag("polygon", class_="best", fill=BEST_FILL,
                        points=f"{cx - h},{y0 - h - 4} {cx + h},{y0 - h - 4} {cx},{y0 - 4}"))
        lx, ly = centre(col, pos.height(col))
        out.append(_tag("circle", class_="best-square", cx=lx, cy=ly, r=r - 3, fill="none",
                        stroke=BEST_FILL, stroke_width=3, stroke_dasharray="6 4"))
    y = y0 + board_h + MARGIN + 10
    for line in legend:
        out.append(_tag("text", line, class_="legend", x=MARGIN, y=y, fill=INK))
        y += LEGEND_LINE
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _rule_marks(rules: Sequence[RuleMark], centre: Callable[[int, int], tuple[float, float]],
                r: float) -> list[str]:
    """A square outline in the first rule's colour on each square of the rules, with the
    letters of every rule through it (befores share squares): ``class="rule-mark"``,
    ``data-square="b2"``, ``data-rules="AB"``."""
    through: dict[tuple[int, int], list[int]] = {}
    for i, mark in enumerate(rules):
        for square in mark.squares:
            through.setdefault(square, []).append(i)
    out = []
    for (col, row), which in sorted(through.items()):
        cx, cy = centre(col, row)
        letters = "".join(rules[i].letter for i in which)
        colour = RULE_COLOURS[which[0] % len(RULE_COLOURS)]
        side = r * 1.5
        shown = letters if len(letters) <= 3 else letters[:2] + "+"
        name = f"{COLUMN_NAMES[col]}{row + 1}"
        out.append(f"<g {_attrs(class_='rule-mark', data_square=name, data_rules=letters)}>")
        out.append(_tag("rect", x=cx - side / 2, y=cy - side / 2, width=side, height=side,
                        rx=6, fill="none", stroke=colour, stroke_width=3))
        out.append(_tag("text", shown, x=cx, y=cy + 6, text_anchor="middle",
                        font_weight="bold", font_size=17 if len(shown) == 1 else 13,
                        fill=colour))
        out.append("</g>")
    return out


def _legend_lines(pos: Position, best: list[int], best_words: str, threats: bool,
                  last: bool) -> list[str]:
    """What the marks mean, in words (the picture's legend)."""
    lines = ["White: yellow discs; Black: red discs, ringed"]
    if pos.is_over:
        lines.append(f"{PLAYER_NAMES[pos.winner]} won (the four ringed green)"
                     if pos.winner is not None else "a draw: the board is full")
    else:
        lines.append(f"{PLAYER_NAMES[pos.to_move]} to move")
    if last and pos.history:
        lines[-1] += f"; dot: last move ({_last_square(pos)})"
    if threats and not pos.is_over:
        lines.append("small discs: threats (o odd row, e even row; CAPITAL: playable now)")
    shown = [c for c in best if pos.can_play(c)]
    if shown:
        names = ", ".join(COLUMN_NAMES[c] for c in shown)
        lines.append(f"triangle: best move{'s' if len(shown) > 1 else ''} {names}"
                     + (f" ({best_words})" if best_words else ""))
    return lines


def _last_square(pos: Position) -> str:
    """The last move's square: ``c1``."""
    col = pos.history[-1]
    return f"{COLUMN_NAMES[col]}{pos.height(col)}"
