"""The threat panel: both players' threats and MILTON's threat-fill verdict, labelled as
the heuristic it is (and answered by the exact value when that says otherwise); with the
why view on (key ``w``), the checked certificate of Allis's rules for the position
(controllers/why.py): its verdict, the tree's first moves, one line per rule with its
squares, the selected rule's refuted groups (``W``), and MILTON's line below."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

from rich.text import Text
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget

from c4tui.engine.board.position import Position, parse_square
from c4tui.engine.explain import RuleUse
from c4tui.engine.seam import Score, ThreatVerdict

from ...report.text import game_over_text, milton_verdict, threat_summary, verdict_against
from ..bridge.engine_view import EngineState
from ..styles import PLAYER_STYLE, THREAT_MARK
from .board import BoardView

#: What the verdict is: MILTON's threat fill, who wins if no new threats appear.
VERDICT_LABEL = "heuristic, no new threats → "
#: Each rule's mark on the board and in the panel: a letter (readable without colour),
#: and a colour of its own (none of them the discs' yellow and red).
RULE_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdfghijklmnpqrstuvwyz"  # (no o e x: threats')
RULE_STYLES = ("bold #39c5cf", "bold #3fb950", "bold #d2a8ff", "bold #58a6ff",
               "bold #ffa657", "bold #f778ba", "bold #a5d6ff", "bold #7ee787")
#: The panel's width before it is laid out (its 80x24 width inside the border).
DEFAULT_WIDTH = 36


@dataclass(frozen=True)
class WhyShown:
    """What the why view shows for the position ``moves`` (digits): ``verdict`` in the
    exact value's words (``Black at least draws``) or why there is none (``no proof
    within 1 s``), ``busy`` while it is being found; for a proof, the tree's positions
    (``tree``, 0: the rules hold here), the moves to its first leaf (``line``, squares),
    that leaf's ``rules``, the ``side`` they argue for, the ``selected`` rule."""

    moves: str
    verdict: str
    busy: bool = False
    tree: int = 0
    line: tuple[str, ...] = ()
    rules: tuple[RuleUse, ...] = ()
    side: str = ""
    selected: int | None = None

    @property
    def proven(self) -> bool:
        return bool(self.side)


def rule_letter(i: int) -> str:
    """The ``i``-th rule's letter (``+`` past the alphabet's)."""
    return RULE_LETTERS[i] if i < len(RULE_LETTERS) else "+"


def rule_style(i: int) -> str:
    return RULE_STYLES[i % len(RULE_STYLES)]


def rule_words(use: RuleUse) -> str:
    """A rule instance in words, its squares named: ``claimeven b1 b2: answers on top``."""
    sq = use.squares
    if use.rule in ("aftereven", "before", "specialbefore"):
        what = ("fills it: a four" if use.rule == "aftereven"
                else "fills it or gets above")
        return f"{use.rule} {use.group}: {what}"
    if use.rule in ("claimeven", "vertical") and len(sq) == 2:
        return f"{use.rule} {sq[0]} {sq[1]}: answers on top"
    if use.rule == "baseinverse" and len(sq) == 2:
        return f"baseinverse {sq[0]} {sq[1]}: takes the other"
    if use.rule == "lowinverse" and len(sq) == 4:
        return f"lowinverse {' '.join(sq)}: gets {sq[1]} or {sq[3]}"
    if use.rule == "highinverse" and len(sq) == 6:
        return f"highinverse {' '.join(sq)}: one of each pair"
    if use.rule == "baseclaim" and len(sq) == 4:
        return f"baseclaim {' '.join(sq)}: {sq[0]}/{sq[2]}, {sq[1]}/{sq[3]}"
    if use.rule == "oddthreat" and sq:
        return f"oddthreat {sq[0]}: its column from it up"
    return f"{use.rule} {' '.join(sq)}"


def claim_contradicts(proves: str, pos: Position, sign: int) -> bool:
    """Whether a certificate's claim (``Black at least draws``, any case) and a result
    ``sign`` of ``pos`` (its side to move's view: 1 wins, 0 draw, -1 loses) cannot both
    be true."""
    low = proves.lower()
    side = 0 if low.startswith("white") else 1
    mine = sign if pos.to_move == side else -sign  # the certificate's side's view
    return mine <= 0 if low.endswith("wins") else mine < 0


def why_marks(why: WhyShown | None) -> tuple[tuple[int, int, str, str], ...]:
    """The board's marks of the rules' squares: (col, row, letter, style), the selected
    rule's last (drawn over a square it shares) and reversed."""
    if why is None:
        return ()
    out: list[tuple[int, int, str, str]] = []
    chosen: list[tuple[int, int, str, str]] = []
    for i, use in enumerate(why.rules):
        style = rule_style(i) + (" reverse" if i == why.selected else "")
        for name in use.squares:
            square = parse_square(name)
            if square is not None:
                (chosen if i == why.selected else out).append(
                    (*square, rule_letter(i), style))
    return tuple(out + chosen)


def draw_why(screen: Screen, why: WhyShown | None) -> None:
    """The why view (None: off) in the threat panel and its marks on the board."""
    screen.query_one(ThreatPanel).why = why
    screen.query_one(BoardView).why_marks = why_marks(why)


class ThreatPanel(Widget):
    """The app sets ``position``, ``verdict`` (None: not evaluated), ``exact`` (the
    position's proven value, None: not known), ``engine`` and ``why`` (None: the usual
    threat view)."""

    position: reactive[Position] = reactive(Position)
    verdict: reactive[ThreatVerdict | None] = reactive(None)
    exact: reactive[Score | None] = reactive(None)
    engine: reactive[EngineState] = reactive(EngineState.LOADING)
    why: reactive[WhyShown | None] = reactive(None)

    def render(self) -> Text:
        pos = self.position
        # wraps: a long verdict takes two lines, never cut; it comes first, so that long
        # threat lists (which wrap too) push the legend out of the 80x24 panel, not it
        text = Text()
        over = game_over_text(pos)
        if self.why is not None and not over:
            return self._why_text(self.why)
        text.append("" if over else VERDICT_LABEL, style="bold")
        if over:  # a fact, not the heuristic's
            text.append(over)
        else:
            text.append(self._milton())
        for i, line in enumerate(threat_summary(pos)):
            name, _, rest = line.partition(": ")
            text.append(f"\n{THREAT_MARK[i]}{name} ", style=PLAYER_STYLE[i])
            text.append(rest)
        text.append("\no odd e even CAPS acute x both", style="dim")
        return text

    def _milton(self, why: WhyShown | None = None) -> Text:
        """MILTON's verdict (after its label), what the exact value says against it, and
        in the why view what the rules prove against it."""
        pos, text = self.position, Text()
        if self.verdict is not None:
            text.append(milton_verdict(pos, self.verdict))
            against = verdict_against(pos, self.verdict, self.exact)
            if against:
                text.append(f"\n{against}", style="bold")
            elif why is not None and why.proven \
                    and claim_contradicts(why.verdict, pos, self.verdict.outcome):
                text.append("\nthe rules prove otherwise", style="bold")
        elif self.engine.waiting:
            text.append(f"waiting for the engine ({self.engine.value})")
        elif self.engine is EngineState.NOT_AVAILABLE:
            text.append("needs the engine (off: --no-engine)")
        else:
            text.append("needs the engine (not available)")
        return text

    def _why_text(self, why: WhyShown) -> Text:
        """The why view, fitted to the panel: the verdict, the tree's first moves, the
        selected rule's groups first; the rules then, a window of them around the selected
        one when they do not all fit (``W`` steps); MILTON's line and the legend last."""
        width = self.size.width or DEFAULT_WIDTH
        height = self.size.height or 1000

        def wrap(line: str) -> list[str]:
            return textwrap.wrap(line, width, subsequent_indent="  ") or [""]

        head: list[tuple[str, str]] = []
        if why.busy:
            head.append(("why: finding the rules…", "bold"))
        else:
            head += [(x, "bold") for x in wrap(f"why: {why.verdict}"
                                                + (" (checked)" if why.proven else ""))]
        if why.proven and why.tree:
            first = " ".join(why.line)
            head += [(x, "") for x in wrap(
                f"tree of {why.tree}; first: {first}; the rules after it")]
        rules = [(f"{rule_letter(i)} {rule_words(u)}",
                  rule_style(i) + (" reverse" if i == why.selected else ""))
                 for i, u in enumerate(why.rules)]
        if why.selected is not None and why.selected < len(why.rules):
            use = why.rules[why.selected]
            refuted = ", ".join(use.refutes) or "nothing new"
            head += [(x, rule_style(why.selected)) for x in wrap(
                f"{rule_letter(why.selected)} {use.rule} {' '.join(use.squares)} "
                f"refutes {refuted}")]
        tail: list[tuple[str, str]] = []
        if self.verdict is not None:  # (without one it would only say why not)
            milton = VERDICT_LABEL + self._milton(why).plain
            tail = [(x, "dim") for part in milton.split("\n") for x in wrap(part)]
        legend = ("board: each rule's squares by its letter; W: next rule" if why.rules
                  else "")
        room = height - len(head) - len(tail) - bool(legend)
        if len(rules) > room and legend:
            legend, room = "", room + 1  # the letters say it on their own
        shown, more = rules, 0
        if len(rules) > room:
            count = max(1, room - 1)  # one line says how many more
            sel = why.selected or 0
            start = 0 if sel < count else sel - count + 1
            shown, more = rules[start:start + count], len(rules) - count
        text = Text(no_wrap=True, overflow="ellipsis")
        lines = head + shown
        if more:
            lines.append((f"… {more} more rule{'s' * (more != 1)} (W steps)", "dim"))
        lines += tail
        if legend:
            lines += [(x, "dim") for x in wrap(legend)]
        for n, (line, style) in enumerate(lines):
            cut = line if len(line) <= width else line[:width - 1] + "…"
            text.append(("\n" if n else "") + cut, style=style)
        return text
