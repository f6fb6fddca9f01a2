"""``c4tui explain``: why a position is at least a draw or a win, as Allis's rules say.

Each position gets a certificate from :mod:`c4tui.engine.explain`: the rule instances that
refute every group the opponent could complete, at the position itself or at the leaves
of a small proof tree, checked by an independent checker before it is shown
(docs/explain.md). Pure Python: no numba kernel is called.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from c4tui.bounded import LineTooLong, shown

from . import options
from .errors import FAILURE, USAGE, bad_value, fail
from .size import SIZE_OPTION, check_size

if TYPE_CHECKING:
    from c4tui.engine.board.picture import RuleMark
    from c4tui.engine.board.position import Position
    from c4tui.engine.explain import Certificate, ProofNode, RuleUse

#: The longest budget taken (a day): past it a typo more likely than a wish.
MAX_BUDGET = 86_400.0
#: How many lines of a proof tree the text output prints (the JSON has every rule).
TREE_LINES = 60
#: The rules' letters in the picture (--svg), one per rule instance.
SVG_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _budget(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        bad_value("--budget", text, "not a number of seconds")
    if not (math.isfinite(value) and 0 < value <= MAX_BUDGET):
        bad_value("--budget", text, f"out of range (more than 0, at most {MAX_BUDGET:,.0f} s)")
    return value


def _side(text: str | None) -> int | None:
    if text is None:
        return None
    low = text.strip().lower()
    if low not in ("white", "black"):
        bad_value("--side", text, "expected white or black")
    return 0 if low == "white" else 1


def explain(
    moves: options.POSITIONS = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON object per position: moves, proves, "
                           "rules, tree, checked (docs/explain.md).")
    ] = False,
    budget: Annotated[
        str, typer.Option("--budget", metavar="S", help="Seconds for the proof search "
                          "past the rules, per position.")
    ] = "1",
    side: Annotated[
        str | None, typer.Option("--side", metavar="white|black", show_default=False,
                                 help="The side to argue for (default: Black, or White "
                                 "when it holds an odd threat).")
    ] = None,
    svg: Annotated[
        str | None, typer.Option("--svg", metavar="FILE", show_default=False,
                                 help="Also draw the position with the rules' squares "
                                 "marked (a letter per rule) and a legend, to FILE "
                                 "(one position; '-': standard output instead of the "
                                 "text).")
    ] = None,
    size: SIZE_OPTION = None,
) -> None:
    """Explain positions with Allis's nine rules: which side they prove at least draws
    or wins, and the rules that show it.

    The rules argue for the side that controls zugzwang (Black, unless White holds an odd
    threat), at a position with the other side to move. Where they prove nothing there,
    a search over the moves (within --budget seconds) looks for a tree whose leaves they
    prove. Every certificate shown has been re-checked by an independent checker; a
    position nothing proves says so ("proves nothing"), it is not an error. Boards of an
    odd number of rows have no rules (--size).
    """
    check_size(size, "explain")
    seconds = _budget(budget)
    who = _side(side)
    from .solve import argument_positions

    if svg is not None:
        raise typer.Exit(_explain_svg(moves, svg, seconds, who, as_json))
    lines = argument_positions(moves) if moves is not None else options.stdin_positions()
    raise typer.Exit(_explain_lines(lines, seconds, who, as_json))


def _explain_svg(moves: list[str] | None, svg: str, budget: float, side: int | None,
                 as_json: bool) -> int:
    """``--svg``: one position's certificate as a picture, written whole or not at all
    (nothing is written for bad input); the text (or JSON) on stdout as usual."""
    from c4tui.engine.board.picture import board_svg
    from c4tui.engine.board.position import Position
    from c4tui.engine.explain import explain as find

    if moves is None or len(moves) != 1:
        fail("explain: --svg draws one position: give exactly one (\"\" the empty board)")
    options.picture_path("explain", "--svg", svg)
    try:
        pos = Position.parse(moves[0])
        if pos.is_over:
            raise ValueError("the game is already over" if pos.winner is not None
                             else "the board is full")
    except ValueError as exc:
        fail(f"explain: argument 1: {exc}")
    cert = find(pos, side, budget)
    marks, words = svg_rules(pos, cert)
    claim = cert.proves[:1].upper() + cert.proves[1:] if cert.proves else "proves nothing"
    picture = board_svg(pos, threats=False, title=f"{cert.moves or 'the empty board'}: "
                        f"{claim}", rules=marks, rules_words=words)
    if svg == "-":
        sys.stdout.write(picture)
        return 0
    from c4tui.atomicfile import atomic_write

    try:
        atomic_write(Path(svg).expanduser(), picture.encode(), overwrite=True)
    except OSError as exc:
        fail(f"explain: {shown(svg)}: {exc.strerror or exc}", FAILURE)
    sys.stdout.write((_json(cert) if as_json else _text(pos, cert)) + "\n")
    return 0


def svg_rules(pos: Position, cert: Certificate) -> tuple[list[RuleMark], str]:
    """The picture's marks: the rules of the proof's first leaf (the position's own when
    the rules prove it), a letter each, and the legend's line above them. A certificate
    the checker did not confirm marks nothing."""
    from c4tui.engine.board.picture import RuleMark
    from c4tui.engine.board.position import parse_square

    if cert.proves is None or cert.proof is None:
        return [], f"no proof ({'; '.join(cert.notes)})"
    if not cert.checked:
        return [], "the checker refused the proof: nothing marked"
    leaf = cert.proof
    while leaf.children:
        leaf = leaf.children[0]
    after = _squares(pos, leaf.moves)
    where = f"after {after}" if after else "here"
    words = f"{cert.proves[:1].upper()}{cert.proves[1:]}: the rules {where} (checked)"
    marks = []
    for i, use in enumerate(leaf.rules):
        squares = tuple(sq for sq in (parse_square(n) for n in use.squares) if sq)
        letter = SVG_LETTERS[i] if i < len(SVG_LETTERS) else f"{i + 1}"
        group = f" (group {use.group})" if use.group else ""
        marks.append(RuleMark(letter, f"{use.rule} {' '.join(use.squares)}{group}", squares))
    return marks, words


def _explain_lines(lines: Iterable[tuple[str, str | LineTooLong]], budget: float,
                   side: int | None, as_json: bool) -> int:
    from c4tui.engine.board.position import Position
    from c4tui.engine.explain import explain as find

    status = 0
    for where, line in lines:
        if isinstance(line, LineTooLong):
            print(f"c4tui: {line}", file=sys.stderr)
            status = USAGE
            continue
        try:
            pos = Position.parse(line)
            if pos.is_over:
                raise ValueError("the game is already over" if pos.winner is not None
                                 else "the board is full")
        except ValueError as exc:
            print(f"c4tui: {where}: {exc}", file=sys.stderr)
            status = USAGE
            continue
        cert = find(pos, side, budget)
        out = _json(cert) if as_json else _text(pos, cert)
        sys.stdout.write(out + "\n")
        sys.stdout.flush()
    return status


def _json(cert: Certificate) -> str:
    from c4tui.engine.explain.certificate import node_to_dict, use_to_dict

    rules = []
    for at, use in cert.rules():
        row = use_to_dict(use)
        if cert.tree:
            row["at"] = at
        rules.append(row)
    return json.dumps({"moves": cert.moves, "side": cert.side, "proves": cert.proves,
                       "rules": rules, "tree": cert.tree, "checked": cert.checked,
                       "seconds": round(cert.seconds, 3),
                       "proof": None if cert.proof is None else node_to_dict(cert.proof)})


def _squares(pos: Position, moves: str) -> str:
    """The moves from ``pos`` to the position ``moves`` (its digits), as squares."""
    from c4tui.engine.board.position import MOVE_CHARS

    line = [MOVE_CHARS.index(ch) for ch in moves[pos.ply:]]
    return " ".join(pos.line_squares(line))


def _text(pos: Position, cert: Certificate) -> str:
    head = cert.moves or '""'
    if cert.proves is None:
        return f"{head}: proves nothing ({'; '.join(cert.notes)}; {cert.seconds:.2f} s)"
    where = ("the rules at this position" if cert.tree == 0
             else f"a tree of {cert.tree} position{'s' * (cert.tree != 1)} above the "
                  f"rules' leaves")
    verdict = "checked" if cert.checked else "NOT confirmed by the checker"
    lines = [f"{head}: {cert.proves} ({where}; {verdict}; {cert.seconds:.2f} s)"]
    if cert.proof is None:
        return lines[0]
    if cert.tree == 0:
        lines += [_rule_line(u, full=True) for u in cert.proof.rules]
    else:
        _tree_lines(pos, cert.proof, 1, lines)
        if len(lines) > TREE_LINES + 1:
            hidden = len(lines) - TREE_LINES - 1
            lines = lines[:TREE_LINES + 1] + [f"  ... {hidden} more lines (--json has all)"]
    lines += [f"  {n}" for n in cert.notes]
    return "\n".join(lines)


def _rule_line(use: RuleUse, full: bool, indent: str = "  ") -> str:
    group = f" (group {use.group})" if use.group else ""
    head = f"{indent}{use.rule:<13} {' '.join(use.squares)}{group}"
    if not full:
        return head
    return f"{head}: refutes {', '.join(use.refutes) or 'nothing new'}"


def _tree_lines(root: Position, node: ProofNode, depth: int, out: list[str]) -> None:
    indent = "  " * depth
    line = _squares(root, node.moves)
    at = f"after {line}" if line else "here"
    if node.kind == "rules":
        out.append(f"{indent}{at}: the rules ({', '.join(u.rule for u in node.rules)})")
        out += [_rule_line(u, full=False, indent=indent + "  ") for u in node.rules]
    elif node.kind == "four":
        out.append(f"{indent}{at}: a four")
    elif node.kind == "full":
        out.append(f"{indent}{at}: the board is full, a draw")
    elif node.kind == "move":
        move = _squares(root, node.children[0].moves).split()[-1]
        out.append(f"{indent}{at}: play {move}")
        _tree_lines(root, node.children[0], depth + 1, out)
    else:
        out.append(f"{indent}{at}: every reply")
        for child in node.children:
            _tree_lines(root, child, depth + 1, out)


def register(app: typer.Typer) -> None:
    """Add ``explain`` to the CLI."""
    app.command("explain")(explain)
