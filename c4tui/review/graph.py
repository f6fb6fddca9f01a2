"""The review's evaluation graph as a picture: ``c4tui review GAME --svg OUT`` (hand-written
SVG, standard library only) and ``--png OUT`` (matplotlib, the optional ``pictures`` extra).

One point per position of the game (the start, then after each move): White's win
percentage with perfect play from there (:func:`c4tui.review.accuracy.win_percent` of the exact
score, the review's accuracy scale: 100 White wins at once, 95-100 a White win, 50 a draw,
0-5 a Black win), so a move that changes the result is a jump and a slower win a small
step. Each move marked ``??``, ``?`` or ``?!`` gets its mark at the point after it, with
its square; the legend says what the marks mean (the ``!`` of an only move is in the
text review, not drawn: a won game has many). Colours are Okabe and Ito's (read by
colour-blind eyes), and every mark is also its own glyph.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from c4tui.bounded import shown
from c4tui.review.accuracy import win_percent
from c4tui.review.game import BLUNDER, INACCURACY, MISTAKE, GameReview

#: The drawn marks: glyph, class (in the SVG), colour, and the legend's words.
DRAWN = ((BLUNDER, "blunder", "#d55e00", "a win thrown away"),
         (MISTAKE, "mistake", "#e69f00", "a draw thrown away"),
         (INACCURACY, "inaccuracy", "#0072b2", "result kept but {n}+ moves slower, or a four "
          "missed"))
LINE = "#333333"
WIDTH, HEIGHT = 720, 340
#: The plot's box inside the picture: left, top, right, bottom margins.
LEFT, TOP, RIGHT, BOTTOM = 92, 40, 24, 82


@dataclass(frozen=True)
class Point:
    """One position of the game: ``ply`` moves played, White's win percentage, and the
    mark and square of the move that led to it ("" for the start and unmarked moves)."""

    ply: int
    white: float
    mark: str = ""
    square: str = ""
    number: str = ""


def graph_points(result: GameReview) -> list[Point]:
    """The graph's points: the start, then the position after each move."""
    points = [Point(0, win_percent(result.start))]
    for m in result.plies:
        mover = win_percent(m.after())
        points.append(Point(m.ply + 1, mover if m.player == 0 else 100.0 - mover, m.mark,
                            m.square(), m.number))
    return points


def _title(headers: dict[str, str]) -> str:
    """``Anna - Ben``, from the game's headers (untrusted: :func:`shown`), or a plain
    title."""
    names = [shown(headers.get(k, "").strip(), 40) for k in ("White", "Black")]
    if any(n and n != "?" for n in names):
        return f"{names[0] or '?'} (White) - {names[1] or '?'} (Black)"
    return "Evaluation with perfect play"


def _xy(ply: int, white: float, plies: int) -> tuple[float, float]:
    w, h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    return (round(LEFT + w * ply / max(plies, 1), 1),
            round(TOP + h * (100.0 - white) / 100.0, 1))


def _tag(name: str, content: str | None = None, **values: object) -> str:
    attrs = "".join(f" {k.rstrip('_').replace('_', '-')}={quoteattr(str(v))}"
                    for k, v in values.items())
    return f"<{name}{attrs}/>" if content is None else f"<{name}{attrs}>{escape(content)}</{name}>"


def review_svg(result: GameReview, headers: dict[str, str]) -> str:
    """The evaluation graph of a reviewed game as an SVG document."""
    points = graph_points(result)
    plies = len(points) - 1
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
           _tag("title", _title(headers)),
           _tag("rect", class_="background", x=0, y=0, width=WIDTH, height=HEIGHT,
                fill="#ffffff"),
           _tag("text", _title(headers), class_="title", x=LEFT, y=24, font_size=15,
                fill=LINE)]
    x0, y_top = _xy(0, 100.0, plies)
    x1, y_bottom = _xy(plies, 0.0, plies)
    out.append(_tag("rect", class_="plot", x=x0, y=y_top, width=round(x1 - x0, 1),
                    height=round(y_bottom - y_top, 1), fill="none", stroke="#bbbbbb"))
    for value, words in ((100.0, "White wins"), (50.0, "draw"), (0.0, "Black wins")):
        _, y = _xy(0, value, plies)
        out.append(_tag("line", class_="axis", x1=x0, y1=y, x2=x1, y2=y, stroke="#bbbbbb",
                        stroke_dasharray="4 3" if value == 50.0 else "none"))
        out.append(_tag("text", words, class_="axis-label", x=x0 - 8, y=y + 4,
                        text_anchor="end", fill=LINE))
    step = max(1, round(plies / 10 / 2) * 2)  # about ten ticks, on White's moves
    for ply in range(0, plies + 1, step):
        x, _ = _xy(ply, 0.0, plies)
        out.append(_tag("text", str(ply), class_="tick", x=x, y=y_bottom + 16,
                        text_anchor="middle", fill=LINE))
    out.append(_tag("text", "moves played (plies)", class_="axis-label",
                    x=round((x0 + x1) / 2, 1), y=y_bottom + 32, text_anchor="middle",
                    fill=LINE))
    line = " ".join("{},{}".format(*_xy(p.ply, p.white, plies)) for p in points)
    out.append(_tag("polyline", class_="evaluation", points=line, fill="none", stroke=LINE,
                    stroke_width=2))
    colours = {glyph: (cls, colour) for glyph, cls, colour, _ in DRAWN}
    for p in points:
        if p.mark not in colours:
            continue
        cls, colour = colours[p.mark]
        x, y = _xy(p.ply, p.white, plies)
        out.append(_tag("circle", class_=f"mark {cls}", cx=x, cy=y, r=5, fill=colour,
                        stroke="#ffffff", stroke_width=1.5))
        above = p.white < 75.0  # the label where the line is not
        out.append(_tag("text", f"{p.square}{p.mark}", class_=f"mark-label {cls}", x=x,
                        y=round(y - 10 if above else y + 18, 1), text_anchor="middle",
                        font_weight="bold", fill=colour))
    y = HEIGHT - 30
    x = 16.0
    for glyph, cls, colour, words in DRAWN:
        text = f"{glyph} {words.format(n=result.inaccuracy)}"
        out.append(_tag("circle", class_=f"legend-mark {cls}", cx=x, cy=y - 4, r=5,
                        fill=colour))
        out.append(_tag("text", text, class_="legend", x=x + 10, y=y, fill=LINE))
        x += 10 + 6.8 * len(text) + 16  # 12 px sans-serif: under 7 px a character
    out.append(_tag("text", "line: White's chances with perfect play after each move "
                    "(the review's accuracy scale)", class_="legend", x=24, y=HEIGHT - 10,
                    fill=LINE))
    out.append("</svg>")
    return "\n".join(out) + "\n"


class MissingMatplotlib(RuntimeError):
    """``--png`` without matplotlib: the message says how to install it."""


#: How ``--png``'s library is installed (the ``pictures`` extra of pyproject.toml).
PNG_INSTALL = "pip install 'c4tui[pictures]' (or: pip install matplotlib)"


def check_png() -> None:
    """Raise :class:`MissingMatplotlib` unless matplotlib can be imported (checked before
    a review's minutes of solving, not after)."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        raise MissingMatplotlib(f"--png needs matplotlib: {PNG_INSTALL}")


def review_png(result: GameReview, headers: dict[str, str]) -> bytes:
    """The same graph as a PNG, drawn by matplotlib (no browser, no system library)."""
    check_png()
    import matplotlib

    matplotlib.use("Agg")  # files only: no display, whatever the environment says
    from matplotlib.figure import Figure

    points = graph_points(result)
    fig = Figure(figsize=(WIDTH / 100, HEIGHT / 100), dpi=150)
    ax = fig.add_subplot()
    ax.plot([p.ply for p in points], [p.white for p in points], color=LINE, linewidth=1.6)
    ax.axhline(50.0, color="#bbbbbb", linestyle="--", linewidth=1)
    ax.set_ylim(-6, 106)
    ax.set_xlim(0, max(len(points) - 1, 1))
    ax.set_yticks([0, 50, 100], ["Black wins", "draw", "White wins"])
    ax.set_xlabel("moves played (plies)")
    ax.set_title(_title(headers), loc="left", fontsize=11)
    for glyph, _cls, colour, words in DRAWN:
        marked = [p for p in points if p.mark == glyph]
        ax.scatter([p.ply for p in marked], [p.white for p in marked], color=colour,
                   zorder=3, s=30, label=f"{glyph} {words.format(n=result.inaccuracy)}")
        for p in marked:
            ax.annotate(f"{p.square}{p.mark}", (p.ply, p.white), color=colour,
                        fontweight="bold", fontsize=8, ha="center",
                        xytext=(0, 8 if p.white < 75.0 else -14), textcoords="offset points")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=3, fontsize=8,
              frameon=False)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()
