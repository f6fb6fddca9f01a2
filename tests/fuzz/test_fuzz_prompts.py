"""The app's prompts fed random text through the real UI (pilot, engine off): open, save
(the file picker's path box), enter moves, node limit, hash size. Their parsers are fuzzed
directly (and far more) in test_fuzz_moves, test_fuzz_gamefile and test_fuzz_units; this
checks the path from the key to the model: no crash, one error line, and a refused value
changes nothing.
"""

from __future__ import annotations

import random

import pytest
from c4tui.engine.board.position import Position
from fuzzkit import LONG, count
from pilot_util import sync
from textual.widgets import Input

from c4tui.app import C4App
from c4tui.app.screens import ConfirmScreen

pytestmark = pytest.mark.usefixtures("tmp_home")

#: Texts typed at each prompt.
TEXTS = 500 if LONG else 8
PROMPTS = {"o": "open", "s": "save", "e": "enter moves", "l": "node limit", "H": "hash size"}
SAMPLES = [
    "", " ", "4453", "d1 d2 e1", "4444444", "1e400", "nan", "2M", "0", "-1", "1.5", "64",
    "99999", "~nobody/x.c4g", "a\0b", "../../x", "/", "x" * 300, "g.c4g", "1. d1 d2 *",
    "\u0661\u0662", "5k", "1_000", "\t", "e7",
]


def _texts(rng: random.Random, n: int) -> list[str]:
    """Fixed samples first, then random text (printable and not)."""
    out = list(SAMPLES)
    alphabet = list("0123456789 .-_kKMG/~xabcdefgh*[]\"e") + ["\u00e9", "\u2028", "\x1b"]
    while len(out) < n:
        if rng.random() < 0.7:
            out.append("".join(rng.choice(alphabet) for _ in range(rng.randint(0, 20))))
        else:  # any code point but the surrogates
            out.append("".join(chr(rng.choice([rng.randint(0, 0xD7FF),
                                               rng.randint(0xE000, 0x10FFFF)]))
                               for _ in range(rng.randint(0, 20))))
    return out[:n]


def _state(app: C4App) -> tuple:
    return (tuple(app.model.line), app.model.ply, dict(app.model.headers),
            app.settings.limits, app.settings.options)


@pytest.mark.parametrize("key", list(PROMPTS), ids=list(PROMPTS.values()))
@sync
async def test_prompt_text(key):
    rng = random.Random(ord(key))
    app = C4App(Position.from_moves("4453"), engine=False)
    async with app.run_test(size=(80, 24)) as pilot:
        for text in _texts(rng, TEXTS):
            before = _state(app)
            app.last_error = ""
            await pilot.press(key)
            await pilot.pause()
            if len(app.screen_stack) < 2:  # e.g. step nodes without an engine
                continue
            box = app.screen.query_one(Input)  # the file picker's path box, or the prompt
            box.focus()
            box.value = text.replace("\n", " ")
            await pilot.press("enter")
            await pilot.pause()
            while len(app.screen_stack) > 1:  # "exists. Replace it?": no; a folder: close
                await pilot.press("n" if isinstance(app.screen, ConfirmScreen) else "escape")
                await pilot.pause()
            assert app.is_running
            err = app.last_error
            assert "\n" not in err, err  # one line (a long typed token is echoed whole)
            if err and key != "s":
                assert _state(app) == before, (text, err)
            if key == "s":
                assert _state(app)[:3] == before[:3]  # saving never changes the game
            count(f"prompts: {PROMPTS[key]} (through the UI)")
