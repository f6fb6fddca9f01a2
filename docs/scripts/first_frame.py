"""Time from interpreter start to the workstation's first frame (headless, 80x24).

Textual calls the auto-pilot once the app is ready, i.e. after its first refresh. Run with a
warm numba cache: ``.venv/bin/python docs/scripts/first_frame.py``.
"""

import sys
import time

t0 = time.perf_counter()
# The imports are part of the start-up being timed: the console script imports c4tui.cli.
from c4tui.engine.board.position import Position  # noqa: E402
from c4tui.engine.seam import Limits  # noqa: E402

import c4tui.cli  # noqa: E402, F401
from c4tui.app import C4App  # noqa: E402
from c4tui.app.bridge.engine_bridge import SearchSettings  # noqa: E402

app = C4App(
    Position.from_moves("4453"),
    settings=SearchSettings(auto=True, limits=Limits(nodes=2_000_000), hash_mb=16),
    engine=True,
    headers={},
)
async def pilot(p):
    t = time.perf_counter() - t0
    print(f"first frame ready after {t:.3f} s", file=sys.stderr)
    await p.press("q")
app.run(headless=True, size=(80, 24), auto_pilot=pilot)
