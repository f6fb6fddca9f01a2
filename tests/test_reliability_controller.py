"""A race the controller fuzzer found (issue 16, docs/reliability.md): a pause sent within
the kernel's 2 ms nap after a resume (space pressed twice quickly, or resume() then
pause() from code) paused the search, but the controller did not see the kernel's pause:
``path()`` stayed empty (the app's search-path panel blank) and ``wait_paused()`` never
returned. Fixed in the controller (9a14a21, 1bf9bbb); this is its regression test.
"""

from __future__ import annotations

from c4tui.engine.analysis.controller import SearchController
from c4tui.engine.board.position import Position
from c4tui.engine.seam import Limits, SearchOptions
from waiting import wait_until


def test_resume_then_pause_at_once_shows_the_path():
    ctl = SearchController()
    try:
        ctl.start(Position.from_moves("5354"), Limits(nodes=None),
                  SearchOptions(hash_mb=1, use_book=False))
        # inside a long iteration: the kernel pauses (in the driver, between iterations,
        # there is no path to show)
        wait_until(lambda: ctl.snapshot().nodes >= 100_000, 60, "100,000 nodes")
        ctl.pause()
        assert ctl.wait_paused(10)
        for _ in range(30):
            ctl.resume()
            ctl.pause()  # at once: the kernel is still asleep in its pause loop
            assert ctl.wait_paused(2), "paused, but wait_paused() does not see it"
            assert ctl.snapshot().state == "paused"
            assert ctl.path(), "paused, but the search path is empty"
    finally:
        ctl.close()
