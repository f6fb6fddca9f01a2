"""Pictures (issue 36): the board as SVG (engine/board/picture.py, ``c4tui render``,
``Position._repr_svg_``), read back with xml.etree as a browser would parse it."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from c4tui.engine.board.picture import board_svg
from c4tui.engine.board.position import Position

from c4tui.cli import main

SVG = "{http://www.w3.org/2000/svg}"


def _classes(svg: str) -> list[set[str]]:
    """The class words of every element of a picture (which must be valid XML)."""
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return [set(el.get("class", "").split()) for el in root.iter()]


def _count(svg: str, *words: str) -> int:
    return sum(set(words) <= c for c in _classes(svg))


def _texts(svg: str, cls: str) -> list[str]:
    return [el.text or "" for el in ET.fromstring(svg).iter()
            if cls in el.get("class", "").split()]


def _run(argv: list[str], capsys) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(argv)
    out = capsys.readouterr()
    return info.value.code, out.out, out.err


def test_board_picture_has_the_discs_the_last_move_and_the_threats():
    pos = Position.from_moves("445566")  # White d1 e1 f1, Black d2 e2 f2 (last: f2)
    svg = board_svg(pos, best=[2, 6], best_words="White wins in 1")
    assert _count(svg, "disc", "white") == 3 and _count(svg, "disc", "black") == 3
    assert _count(svg, "hole") == 42 - 6
    assert _count(svg, "last-move") == 1
    # White threatens c1 and g1 (odd, playable now), Black c2 and g2 (even)
    assert _count(svg, "threat", "white", "odd", "acute") == 2
    assert _count(svg, "threat", "black", "even") == 2
    assert _count(svg, "threat", "black", "acute") == 0
    assert sorted(_texts(svg, "threat-letter")) == ["O", "O", "e", "e"]
    assert _count(svg, "best") == 2 and _count(svg, "best-square") == 2
    legend = " ".join(_texts(svg, "legend"))
    assert "last move (f2)" in legend and "best moves c, g (White wins in 1)" in legend
    assert "o odd row, e even row" in legend and "White: yellow discs" in legend


def test_the_last_move_dot_is_on_the_last_disc():
    pos = Position.from_moves("4453")
    root = ET.fromstring(board_svg(pos))
    dot = next(el for el in root.iter() if el.get("class") == "last-move")
    discs = [el for el in root.iter() if "disc" in el.get("class", "").split()]
    at = [d for d in discs if (d.get("cx"), d.get("cy")) == (dot.get("cx"), dot.get("cy"))]
    assert len(at) == 1 and "black" in at[0].get("class", "")  # c1, Black's second disc


def test_a_won_game_rings_its_four_and_marks_no_threats():
    svg = board_svg(Position.from_moves("4455663"))
    assert _count(svg, "four") == 4 and _count(svg, "threat") == 0
    assert "White won" in " ".join(_texts(svg, "legend"))


def test_untrusted_title_is_escaped():
    svg = board_svg(Position(), title='<script>"&"</script>')
    assert _texts(svg, "title") == ['<script>"&"</script>']  # text, not an element
    assert _count(svg, "disc") == 0 and _count(svg, "hole") == 42


def test_the_picture_names_the_players_as_the_position_does():
    from c4tui.engine.board import picture, position

    assert picture.PLAYER_NAMES == position.PLAYER_NAMES


def test_position_shows_itself_in_jupyter():
    pos = Position.from_moves("4453")
    svg = pos._repr_svg_()
    assert svg.startswith("<svg") and _count(svg, "disc") == 4


def test_render_writes_the_picture(tmp_path: Path, capsys):
    out = tmp_path / "board.svg"
    code, stdout, err = _run(["render", "44444433333322", "--svg", str(out)], capsys)
    assert (code, stdout, err) == (0, "", "")
    svg = out.read_text()
    assert _count(svg, "disc", "white") == 7 and _count(svg, "disc", "black") == 7
    # White wins at once at a1 or e1 (the exact solver: 14 discs, beyond the books)
    assert _count(svg, "best") == 2
    assert "best moves a, e (White wins in 1)" in " ".join(_texts(svg, "legend"))
    assert _count(svg, "last-move") == 1


def test_render_to_stdout_from_the_books(capsys):
    code, stdout, err = _run(["render", "4453", "--svg", "-", "--no-threats"], capsys)
    assert (code, err) == (0, "")
    assert _count(stdout, "threat") == 0
    # solve --analyze 4453 says -5 -5 -2 -3 -4 -2 -2: c, f and g keep -2 (the books)
    assert _count(stdout, "best") == 3 and _count(stdout, "best-square") == 3
    assert "best moves c, f, g (Black wins in 18)" in " ".join(_texts(stdout, "legend"))


def test_render_bad_moves_is_one_line_and_no_file(tmp_path: Path, capsys):
    out = tmp_path / "board.svg"
    code, stdout, err = _run(["render", "4444444", "--svg", str(out)], capsys)
    assert (code, stdout) == (2, "")
    assert err.count("\n") == 1 and err.startswith("c4tui: render: ") and "column d is full" in err
    assert list(tmp_path.iterdir()) == []  # no file, not even a temporary one
    code, _, err = _run(["render", "44"], capsys)
    assert code == 2 and err == ("c4tui: render: say where the picture goes: --svg OUT (or "
                                 "--svg - for stdout)\n")


def test_render_keeps_an_old_file_when_the_moves_are_bad(tmp_path: Path, capsys,
                                                         monkeypatch):
    out = tmp_path / "board.svg"
    out.write_text("old")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, _, _ = _run(["render", "448", "--svg", str(out)], capsys)
    assert code == 2 and out.read_text() == "old"


# -- review --svg / --png: the evaluation graph with the marks ----------------------------

GAME = ('[White "Ann <&>"]\n[Black "Bob\x1b[2J"]\n\n'
        "1. c1 d1 2. d2 d3 3. e1 e2 4. f1 f2 5. g1 g2 *\n")  # 3444556677: ?? ? and 3 ?!


def _review(argv: list[str], capsys) -> tuple[int, str, str]:
    return _run(["review", *argv, "--threads", "1", "--hash", "16"], capsys)


def test_review_svg_draws_the_graph_and_its_marks(tmp_path: Path, capsys):
    game = tmp_path / "g.c4g"
    game.write_text(GAME)
    out = tmp_path / "graph.svg"
    code, stdout, err = _review([str(game), "--svg", str(out)], capsys)
    assert code == 0, err
    assert "c1??" in stdout  # the text review is printed as before
    svg = out.read_text()
    root = ET.fromstring(svg)
    (line,) = [el for el in root.iter() if el.get("class") == "evaluation"]
    assert len(line.get("points", "").split()) == 11  # the start and ten moves
    assert _count(svg, "mark", "blunder") == 1 and _count(svg, "mark", "mistake") == 1
    assert _count(svg, "mark", "inaccuracy") == 3
    assert _texts(svg, "mark-label") == ["c1??", "e1?", "f2?!", "g1?!", "g2?!"]
    legend = " ".join(_texts(svg, "legend"))
    assert "?? a win thrown away" in legend and "? a draw thrown away" in legend
    assert "?! result kept but 4+ moves slower" in legend
    # the players' names are untrusted: the escape sequence is shown, not kept
    assert _texts(svg, "title") == ["Ann <&> (White) - Bob\\x1b[2J (Black)"]


def test_review_png_is_drawn_by_matplotlib(tmp_path: Path, capsys):
    out = tmp_path / "graph.png"
    code, _, err = _review(["3444556677", "--png", str(out), "--json"], capsys)
    assert code == 0, err
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 10_000


def test_review_png_without_matplotlib_says_how_to_install_it(tmp_path: Path, capsys,
                                                               monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "matplotlib" else real(name, *a))
    out = tmp_path / "graph.png"
    code, stdout, err = _review(["3444556677", "--png", str(out)], capsys)
    assert (code, stdout) == (1, "")  # said before the game is solved: nothing printed
    assert err == ("c4tui: review: --png needs matplotlib: pip install 'c4tui[pictures]' "
                   "(or: pip install matplotlib)\n")
    assert not out.exists()


def test_review_pictures_of_a_folder_are_refused(tmp_path: Path, capsys):
    code, stdout, err = _review([str(tmp_path), "--summary", "--svg", str(tmp_path / "x")],
                                capsys)
    assert (code, stdout) == (2, "")
    assert err == ("c4tui: review: --svg and --png draw one game's graph, not a folder's "
                   "(--summary)\n")


def test_the_notebook_example_of_engine_api_runs(monkeypatch):
    """docs/engine-api.md's notebook example, run as written (IPython's SVG stood in for:
    IPython is not a dependency)."""
    import re
    import sys
    import types

    doc = (Path(__file__).resolve().parents[1] / "docs" / "engine-api.md").read_text()
    section = doc.split("## Pictures", 1)[1].split("\n## ", 1)[0]
    (code,) = re.findall(r"```python\n(.*?)```", section, re.S)
    shown: list[str] = []
    display = types.ModuleType("IPython.display")
    display.SVG = lambda data: shown.append(data)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "IPython", types.ModuleType("IPython"))
    monkeypatch.setitem(sys.modules, "IPython.display", display)
    namespace: dict = {}
    exec(compile(code, "engine-api.md", "exec"), namespace)
    assert namespace["pos"]._repr_svg_().startswith("<svg")
    (svg,) = shown
    assert _count(svg, "best") == 3  # c, f and g keep 4453's -2
    assert "best moves c, f, g (score -2)" in " ".join(_texts(svg, "legend"))


@pytest.mark.parametrize("argv", [["render", "4453", "--svg"], ["explain", "4453", "--svg"],
                                  ["review", "3444556677", "--svg"],
                                  ["review", "3444556677", "--png"]])
def test_a_picture_to_a_fifo_is_bad_input_said_before_any_work(tmp_path: Path, capsys, argv):
    """A FIFO (or a device) named as the picture was found only when written, after the
    work, and exited 1 as a failure: it is bad input, said at once with exit status 2."""
    import os

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    code, stdout, err = _run([*argv, str(fifo)], capsys)
    assert (code, stdout) == (2, "")
    assert err == f"c4tui: {argv[0]}: {argv[-1]} {fifo}: not a regular file\n"
