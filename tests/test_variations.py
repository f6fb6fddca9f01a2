"""Variations and comments: the game tree, its model, its file format and its keys."""

from __future__ import annotations

import pytest
from c4tui.engine.board.position import IllegalMoveError, Position
from pilot_util import sync
from rich.text import Text

from c4tui.app import C4App
from c4tui.app.session.model import GameModel
from c4tui.app.widgets import EvalGraph, MoveList
from c4tui.gamefile import Game, GameFileError, Node, format_game, load_game, parse_game, save_game
from c4tui.gamefile.tree import walk

pytestmark = pytest.mark.usefixtures("tmp_home")

D, E, C, F, G, A = 3, 4, 2, 5, 6, 0  # 0-based columns by name


def model(digits: str = "4453") -> GameModel:
    return GameModel(Position.from_moves(digits))


def main_line(m: GameModel) -> list[int]:
    return m.root.cols(m.root.main_path())


# ---------------------------------------------------------------------------- the model
def test_a_move_at_an_earlier_ply_opens_a_variation_and_the_same_move_follows():
    m = model()
    m.goto(2)
    m.play(G)  # 1. d1 d2 2. g1: a variation of 2. e1
    assert m.line == [D, D, G] and m.ply == 3 and m.path == (0, 0, 1)
    assert main_line(m) == [D, D, E, C]
    m.goto(2)
    m.play(E)  # the main line's move: followed, not added
    assert m.line == [D, D, E, C] and m.ply == 3 and m.root.size() == 5
    m.goto(2)
    m.play(G)  # the variation's move: followed too
    assert m.line == [D, D, G] and m.root.size() == 5
    m.play(A)  # at the end of a line: extends it
    assert m.line == [D, D, G, A] and m.path == (0, 0, 1, 0)
    assert m.undo() and m.line == [D, D, G] and m.ply == 3  # one edit per new move
    assert m.undo() and m.line == [D, D, E, C] and m.ply == 2
    assert not m.root.has_variations()
    assert m.redo() and m.redo() and m.line == [D, D, G, A]


def test_navigation_walks_the_current_line_and_a_click_can_leave_it():
    m = model()
    m.goto(1)
    m.play(C)  # 1. d1 c1 (a variation of d2)
    m.play(D)
    m.goto(0)
    assert m.position.digits() == ""
    m.goto(99)  # the end of the current line, the variation
    assert m.position.digits() == "434"
    m.goto_path((0,))  # d1: on the current line, which stays
    m.goto(99)
    assert m.position.digits() == "434"
    m.goto_path((0, 0, 0))  # e1 of the main line: the line changes
    assert m.position.digits() == "445" and m.line == [D, D, E, C]
    m.goto(99)
    assert m.position.digits() == "4453"
    with pytest.raises(IndexError):
        m.goto_path((0, 5))


def test_switching_between_sibling_variations():
    m = model()
    m.goto(2)
    m.play(G)
    m.goto(2)
    m.play(A)  # e1 (main), g1, a1 at move 3
    assert m.switch(1) == (0, 0, 0) and m.line == [D, D, E, C] and m.ply == 3  # around
    assert m.switch(1) == (0, 0, 1) and m.line == [D, D, G]
    assert m.switch(-1) == (0, 0, 0)
    m.goto(1)
    with pytest.raises(ValueError, match="move 1 has no alternative"):
        m.switch(1)
    m.goto(0)
    with pytest.raises(ValueError, match="no move viewed"):
        m.switch(1)


def test_promote_makes_the_viewed_line_the_main_line():
    m = model()
    m.goto(1)
    m.play(C)
    m.play(C)  # 1. d1 d2 (1... c1 2. c2)
    m.goto(1)
    m.play(E)  # 1. d1 d2 (1... c1 2. c2) (1... e1)
    m.play(E)
    pos = m.position
    assert m.path == (0, 2, 0)
    m.promote()
    assert main_line(m) == [D, E, E] and m.path == (0, 0, 0) and m.position is pos
    assert [c.col for c in m.root.at((0,)).children] == [E, D, C]  # the others keep order
    with pytest.raises(ValueError, match="on the main line already"):
        m.promote()
    assert m.undo() and main_line(m) == [D, D, E, C] and m.path == (0, 2, 0)


def test_delete_removes_the_variation_the_viewed_move_is_in():
    m = model()
    m.goto(2)
    m.play(G)
    m.play(A)
    m.play(A)  # 2. e1 (2. g1 a1 3. a2)
    m.goto(4)  # a1, inside the variation
    path, node = m.delete()
    assert path == (0, 0, 1) and node.size() == 3  # from its first move, to its end
    assert not m.root.has_variations() and m.ply == 2 and m.line == [D, D, E, C]
    assert m.undo() and m.line == [D, D, G, A, A] and m.ply == 4
    m.goto(3)
    m.goto_path((0, 0, 0, 0))  # c1 of the main line
    path, node = m.delete()  # on the main line: the move and the rest
    assert path == (0, 0, 0, 0) and main_line(m) == [D, D, E] and m.ply == 3
    m.goto(0)
    with pytest.raises(ValueError, match="no move viewed"):
        m.delete()


def test_delete_a_variation_inside_a_variation_keeps_the_outer_one():
    m = model()
    m.goto(2)
    m.play(G)
    m.play(A)
    m.play(A)
    m.goto(3)
    m.play(B := 1)  # 2. e1 (2. g1 a1 (2... b1) 3. a2)
    assert m.path == (0, 0, 1, 1)
    gone, _ = m.delete()
    assert gone == (0, 0, 1, 1) and m.root.at((0, 0, 1)).size() == 3 and m.ply == 3
    assert m.line == [D, D, G, A, A] and B not in m.line


def test_comments_are_edits_and_are_cleaned():
    m = model()
    m.goto(2)
    m.comment("  the\nbest\treply ")
    assert m.node.comment == "the best reply"
    m.comment("the best reply")  # unchanged: no edit
    m.comment("")
    assert m.node.comment == ""
    assert m.undo() and m.node.comment == "the best reply"
    assert m.undo() and m.node.comment == ""
    with pytest.raises(ValueError, match="cannot contain '}'"):
        m.comment("a } b")
    m.goto(0)
    m.comment("a game")  # the start: the game's comment
    assert m.root.comment == "a game"


def test_take_back_in_a_variation_goes_on_along_the_tree():
    m = model()
    m.goto(2)
    m.play(G)
    m.take_back()  # g1 is the current line's last move
    assert m.line == [D, D, E, C] and m.ply == 2 and not m.root.has_variations()
    m.goto(4)
    m.take_back()
    assert m.line == [D, D, E] and m.ply == 3
    assert m.undo() and m.line == [D, D, E, C] and m.ply == 4


def test_cut_removes_the_rest_of_the_line_in_one_edit():
    """Play mode's take-back: the user's move and what followed it, variations too."""
    m = model()
    m.goto(3)
    m.play(G)  # 2... g1, a variation of c1
    m.goto(4)
    m.cut(2)  # e1 and everything after it
    assert m.line == [D, D] and m.ply == 2 and m.root.size() == 2
    assert m.undo() and m.line == [D, D, E, G] and m.ply == 4
    with pytest.raises(IllegalMoveError, match="no move 5"):
        m.cut(4)


def test_load_is_undoable_with_the_tree_and_headers():
    m = model()
    m.goto(1)
    m.play(C)
    tree = parse_game("1. a1 {x} a2 (1... b1) *").tree
    m.load(tree, {"Event": "Club"})
    assert m.root is tree and m.line == [A, A] and m.ply == 2
    assert m.undo() and m.headers == {} and m.line == [D, C] and m.root.has_variations()
    assert m.redo() and m.headers == {"Event": "Club"} and m.root is tree


# ---------------------------------------------------------------------------- the file
TREE_TEXT = ("{a test} 1. d1 {the centre} 1... d2 2. e1 (2. c1 c2 (2... d3 {hm}) 3. d3) "
             "2... c1 (2... g1) 3. a1 *")


def test_variations_and_comments_round_trip(tmp_path):
    game = parse_game(TREE_TEXT)
    tree = game.tree
    assert tree.comment == "a test" and tree.at((0,)).comment == "the centre"
    assert [c.col for c in tree.at((0, 0)).children] == [E, C]
    assert game.position.digits() == "44531"  # the main line
    path = save_game(tmp_path / "t.c4g", game)
    text = path.read_text()
    assert TREE_TEXT.replace(" (2...", "\n(2...").split()[-12:] == text.split()[-12:]
    back = load_game(path)
    assert back.tree == tree and back.position == game.position
    assert format_game(back) == text  # and again: the same bytes
    assert all(len(line) <= 80 for line in text.splitlines())


def test_a_long_comment_wraps_and_lines_inside_it_are_not_headers_or_comments():
    game = Game.from_tree(Node.from_moves([D, D]).with_comment(
        (0,), "see ; this # and [that]" + " word" * 40))
    text = format_game(game)
    assert parse_game(text).tree == game.tree
    text = "4\n{a\n# not a comment line\n[not a header]\n; nor this}\n4"
    assert parse_game(text).tree.at((0,)).comment == (
        "a # not a comment line [not a header] ; nor this")


def test_variations_in_the_digit_notation_and_merging():
    assert parse_game("44 (3 3) 53").tree == parse_game("d1 d2 (c1 c2) e1 c1").tree
    # a variation whose first move is already there follows it
    assert parse_game("d1 (e1 e2) (e1 d1)").tree.at((1,)).children == (Node(E), Node(D))


def test_the_result_is_checked_against_the_main_line():
    assert parse_game("1. d1 (1. a1 a2 2. b1 b2 3. c1 c2 4. d1) 1... d2 *").position.ply == 2
    with pytest.raises(GameFileError, match="'1-0' does not match"):
        parse_game('[Result "1-0"]\n1. d1 d2 (1... a1 2. e1 a2 3. f1 a3 4. g1) *')


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("d1 d2 (e1", "line 1, column 7: variation '(' is never closed"),
        ("d1 d2\n e1 ) c1", "line 2, column 5: ')' without a '(' before it"),
        ("( d1 d2", "line 1, column 1: '(' with no move before it to vary"),
        ("d1 (e1 (f1)) ((", "line 1, column 15: '(' with no move before it"),
        ("d1 d2 ()", "line 1, column 8: empty variation '()'"),
        ("d1 {good\nmove d2", "line 1, column 4: comment '{' is never closed"),
        ("d1 d2 }", "line 1, column 7: '}' without a '{' before it"),
        ("d1 ({why} e1)", "line 1, column 5: a comment before the first move of a variation"),
        ("d1 (e1 *) d2", "line 1: result '*' before the end of the moves"),
        ("d1 d2 (e1 e3)", "line 1: move 3 'e3': a disc in column e lands on e2"),
        ("1. d1 d2\n2. e1 (2. d3 x9)", "line 2: move 4 'x9': not a square"),
    ],
)
def test_a_malformed_variation_or_comment_names_line_and_column(text, fragment):
    with pytest.raises(GameFileError) as info:
        parse_game(text, "v.c4g")
    msg = str(info.value)
    assert msg.startswith("v.c4g: ") and fragment in msg and "\n" not in msg, msg


def test_a_huge_move_text_is_refused_at_once():
    from c4tui.gamefile.movetext import MAX_TOKENS

    ok = "d1 " + "(e1 {c}) " * (MAX_TOKENS // 5)  # a few thousand variations: read
    assert parse_game(ok).tree.at((1,)).comment == " ".join(["c"] * (MAX_TOKENS // 5))
    with pytest.raises(GameFileError, match=r"^h.c4g: line 2: more than 50000 moves, number"):
        parse_game("d1\n" + "(e1) " * MAX_TOKENS, "h.c4g")


def test_has_line():
    tree = parse_game("d1 d2 (e1 e2) e1").tree
    assert tree.has_line([D, E, E]) and tree.has_line([D, D]) and tree.has_line([])
    assert not tree.has_line([D, E, D]) and not tree.has_line([E])


def test_walk_gives_pgn_order_with_squares():
    tree = parse_game("d1 {c} d2 (e1) e1").tree
    assert [(i.kind, i.square) for i in walk(tree)] == [
        ("move", "d1"), ("comment", ""), ("move", "d2"), ("(", ""), ("move", "e1"),
        (")", ""), ("move", "e1")]


# ---------------------------------------------------------------------------- the app
def tree_app(text: str = TREE_TEXT) -> C4App:
    game = parse_game(text)
    return C4App(game.position, engine=False, headers=game.headers, tree=game.tree)


def moves_text(app: C4App) -> str:
    return str(app.query_one(MoveList).render())


def styled(app: C4App, word: str) -> str:
    """The style of ``word``'s first occurrence in the move list."""
    text = app.query_one(MoveList).render()
    assert isinstance(text, Text)
    at = str(text).index(word)
    return " ".join(str(s.style) for s in text.spans if s.start <= at < s.end)


@sync
async def test_keys_make_switch_promote_delete_and_comment_variations():
    app = C4App(Position.from_moves("4453"), engine=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("up", "up", "7")  # 2. e1 (2. g1)
        assert app.model.line == [D, D, G]
        assert "2. e1 (2. g1) c1" in moves_text(app)
        await pilot.press("left_square_bracket")
        assert app.model.line == [D, D, E, C] and app.model.ply == 3
        assert "line 1 of 2 (the main line)" in app.last_message
        await pilot.press("right_square_bracket")
        assert app.model.line == [D, D, G]
        await pilot.press("P")
        assert "2. g1 (2. e1 c1)" in moves_text(app) and app.model.path == (0, 0, 0)
        await pilot.press("u")
        assert "2. e1 (2. g1) c1" in moves_text(app) and app.model.line == [D, D, G]
        await pilot.press("semicolon")
        await pilot.press(*"sharp", "enter")
        assert "(2. g1 {sharp}) c1" in moves_text(app)
        await pilot.press("D")
        assert app.last_message == "deleted the variation from 2. g1 (1 move; u undoes)"
        assert moves_text(app).endswith("1. d1 d2 2. e1 c1") and app.model.ply == 2
        await pilot.press("u")  # the deletion, then the comment, come back undone
        assert "(2. g1 {sharp})" in moves_text(app)
        await pilot.press("u")
        assert "{sharp}" not in moves_text(app) and app.model.root.has_variations()
        await pilot.press("ctrl+r", "ctrl+r")
        assert "(2. g1" not in moves_text(app)
        await pilot.press("home", "D")
        assert "no move viewed" in app.last_error
        await pilot.press("down", "P")
        assert "on the main line already" in app.last_error
        await pilot.press("right_square_bracket")
        assert "has no alternative" in app.last_error
        await pilot.press("semicolon", *"a}b", "enter")
        assert "comment: a comment cannot contain '}'" in app.last_error


@sync
async def test_clicking_a_move_inside_a_variation_goes_there():
    app = tree_app()
    async with app.run_test(size=(120, 40)) as pilot:
        text = moves_text(app)
        at = text.index("c2")  # 2. c1 c2, in the first variation
        await pilot.click(MoveList, offset=(at % app.query_one(MoveList).size.width, 0))
        assert app.model.path == (0, 0, 1, 0) and app.position.digits() == "4433"
        assert "reverse" in styled(app, "c2")
        assert styled(app, "a1") .startswith("dim")  # the main line is not walked now
        graph = app.query_one(EvalGraph)
        assert len(graph.values) == len(app.model.line) + 1  # the graph follows the line
        await pilot.press("end")
        assert app.position.digits() == "44334"  # 3. d3 ends this variation
        await pilot.click(MoveList, offset=(0, 0))  # "start"
        assert app.model.ply == 0 and app.model.line == [D, D, C, C, D]


def long_tree() -> Node:
    """20 moves, each with a one-move variation and a comment: many lines of move list."""
    m = model("44455566677712122113")
    for ply in range(20):
        m.goto_path((0,) * ply)
        col = next(c for c in m.position.legal_moves() if c != main_line(m)[ply])
        m.play(col)
        m.comment(f"try {ply}")
    return m.root


def viewed_shown(app: C4App) -> bool:
    text = app.query_one(MoveList).render()
    assert isinstance(text, Text)
    return any("reverse" in str(s.style) for s in text.spans)


@sync
async def test_the_move_list_scrolls_to_the_viewed_move_at_80x24():
    tree = long_tree()
    app = C4App(Position(), engine=False, tree=tree)
    async with app.run_test(size=(80, 24)) as pilot:
        moves = app.query_one(MoveList)
        assert len(moves.tokens()) > 100 and moves.size.height < 6
        assert len(moves_text(app).splitlines()) <= moves.size.height
        assert viewed_shown(app)  # the end of the main line
        await pilot.press("home")
        assert moves_text(app).startswith("start")
        for _ in range(20):
            await pilot.press("down")
            assert viewed_shown(app), app.model.ply
        for _ in range(8):
            await pilot.press("left_square_bracket")  # each variation, walked backwards
            assert viewed_shown(app)
            await pilot.press("up")


@sync
async def test_a_mark_is_drawn_after_a_move_of_the_current_line():
    app = tree_app()
    async with app.run_test(size=(80, 24)):
        moves = app.query_one(MoveList)
        moves.marks = {3: "?", 5: "!!"}  # 2. e1? and 3. a1!! (read before the next poll)
        assert "2. e1? (2. c1 c2" in moves_text(app) and "3. a1!!" in moves_text(app)


@sync
async def test_save_and_load_keep_the_variations(tmp_path):
    app = tree_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("up", "2")  # 3. b1: another variation
        assert app.files.save_file(tmp_path / "v.c4g")
        tree = app.model.root
        await pilot.press("e", "ctrl+u", "4", "enter")  # a new game
        assert not app.model.root.has_variations()
        assert app.files.load_file(tmp_path / "v.c4g")
        assert app.model.root == tree and "with variations" in app.last_message
