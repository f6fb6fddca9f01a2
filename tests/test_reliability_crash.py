"""Crash safety (issue 16, docs/reliability.md): kill -9 during a save and during a book
build, a full disk and a read-only directory when saving.

* A process saves two large games in turn over the same file, in a loop, and is killed
  (SIGKILL) at a random moment: the file always loads as one of the two games.
* A book build (the small subtree build of tests/test_book_build.py, checkpointing after
  every block) is killed at a random moment, then resumed: the book is byte for byte the
  one an uninterrupted build writes.
* A crash file holds the traceback, also when the exception reached the app without one
  (Textual's ``WorkerFailed`` for an exception in a worker: issue 33).
* A full disk (a 64 KiB tmpfs, when this process may mount one; else skipped) and a
  simulated ENOSPC/EROFS/EIO (os.write, os.fsync and os.replace patched) give one line and
  leave the old file as it was, with no temporary file behind; so does a read-only
  directory (chmod; skipped for root, whom permissions do not stop, and then a read-only
  tmpfs is mounted instead).

The number of kills: a few in ``make test``, more in the long run (``make fuzz``).
"""

from __future__ import annotations

import errno
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from c4tui.book import load
from c4tui.book.builder import build_book
from c4tui.book.checkpoint import Checkpoint
from c4tui.book.format import encode
from c4tui.engine.board.position import Position

from c4tui import atomicfile, gamefile
from c4tui.gamefile import Game, GameFileError, load_game, save_game

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "fuzz"))
from fuzzkit import LONG, count  # noqa: E402
from waiting import read_line, wait_until  # noqa: E402

KILLS = 150 if LONG else 4
BOOK_KILLS = 40 if LONG else 1

GAME_A = "24274223556244377441552"  # two positions of tests/data/positions.txt
GAME_B = "3455555163126114463523641747364"

_SAVER = """
import sys
from c4tui.engine.board.position import Position
from c4tui.gamefile import Game, save_game
path, a, b = sys.argv[1:4]
games = [Game(Position.from_moves(m), {"Event": m, "Annotation": m[0] * 400_000})
         for m in (a, b)]
print("ready", flush=True)
i = 1  # B first: the file holds A before the first save
while True:
    save_game(path, games[i % 2], overwrite=True)
    i += 1
"""


def test_kill_during_save_leaves_the_old_or_the_new_game(tmp_path):
    """SIGKILL at random moments of a save loop (800 kB files): never half a file."""
    path = tmp_path / "g.c4g"
    save_game(path, Game(Position.from_moves(GAME_A), {"Event": GAME_A}))
    rng = random.Random(16)
    seen = set()
    for _ in range(KILLS):
        proc = subprocess.Popen([sys.executable, "-c", _SAVER, str(path), GAME_A, GAME_B],
                                stdout=subprocess.PIPE)
        assert read_line(proc.stdout, 60, "the saver's 'ready'") == b"ready\n"
        # the moment of the kill, at random among the saves: not a wait for anything,
        # the moment is what the test varies
        time.sleep(rng.uniform(0, 0.4))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        game = load_game(path)  # a GameFileError (half a file) fails the test
        digits = game.position.digits()
        assert digits in (GAME_A, GAME_B) and game.headers["Event"] == digits
        seen.add(digits)
        count("crash: kill -9 during save")
    # temporary files of killed saves may stay (hidden, .g.c4g.*.tmp); never the target
    assert all(p.name == "g.c4g" or p.name.startswith(".g.c4g.") for p in tmp_path.iterdir())
    if KILLS >= 6:
        assert len(seen) == 2, "the kills never landed between two saves: not a test"


_BUILDER = """
import sys
sys.path.insert(0, sys.argv[1])
import test_book_build as t
from c4tui.book.builder import build_book
print("ready", flush=True)
build_book(t.PLY, sys.argv[2], root=t.ROOT, workers=int(sys.argv[3]), block_size=2,
           checkpoint_every=0.0, progress=False, solver_factory=t.slow_ref_factory)
"""


@pytest.fixture(scope="module")
def reference_bytes(tmp_path_factory) -> bytes:
    """The book of one uninterrupted build."""
    import test_book_build as t

    out = tmp_path_factory.mktemp("ref") / "ref.c4b"
    build_book(t.PLY, out, root=t.ROOT, workers=0, block_size=2, progress=False,
               solver_factory=t.ref_factory)
    return encode(load(out))


@pytest.mark.parametrize("workers", [0, 2])
def test_kill_during_book_build_then_resume(tmp_path, reference_bytes, workers):
    """SIGKILL at a random moment of a checkpointing build; the resumed build's book is
    identical to an uninterrupted build's (the kill lands mid-build every time)."""
    import test_book_build as t

    rng = random.Random(1600 + workers)
    for i in range(BOOK_KILLS):
        out = tmp_path / f"b{i}.c4b"
        proc = subprocess.Popen([sys.executable, "-c", _BUILDER, str(HERE), str(out),
                                 str(workers)], stdout=subprocess.PIPE)
        assert read_line(proc.stdout, 120, "the builder's 'ready'") == b"ready\n"
        # Killed at a random moment of the build, always with something to resume and
        # before its end: once the checkpoint holds a random number of the 42 positions
        # (2 to 30), then within the next block of 2 (0.15 s a position; the checkpoint
        # may be being written).
        ck = out.with_suffix(".c4ck")
        at = rng.randrange(2, 32, 2)
        wait_until(lambda ck=ck, at=at: ck.exists() and Checkpoint.load(ck).solved >= at,
                   120, f"{at} positions in the checkpoint", proc=proc)
        time.sleep(rng.uniform(0, 0.3))  # the moment inside a block: not a wait
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert not out.exists(), "the build ended before the kill: not a test"
        rep = build_book(t.PLY, out, root=t.ROOT, workers=0, block_size=2, progress=False,
                         solver_factory=t.ref_factory)
        assert rep.finished and rep.solved_before >= at  # resumed from the checkpoint
        assert encode(load(out)) == reference_bytes
        count("crash: kill -9 during book build")


# ---------------------------------------------------------------- full disk, read-only
def _old_file(d: Path) -> tuple[Path, bytes]:
    p = save_game(d / "g.c4g", Game(Position.from_moves(GAME_A)))
    return p, p.read_bytes()


BIG = Game(Position.from_moves(GAME_B), {"Annotation": "x" * 200_000})


def _check_refused(d: Path, p: Path, before: bytes, exc: GameFileError, why: str) -> None:
    msg = str(exc)
    assert "\n" not in msg and msg.startswith(str(p)) and why in msg, msg
    assert p.read_bytes() == before
    assert sorted(x.name for x in d.iterdir() if not x.name.startswith("filler")) == ["g.c4g"]


@pytest.mark.parametrize("where,err", [("write", errno.ENOSPC), ("fsync", errno.ENOSPC),
                                       ("fsync", errno.EIO), ("replace", errno.EROFS)])
def test_simulated_write_errors_keep_the_old_file(tmp_path, monkeypatch, where, err):
    """ENOSPC/EIO/EROFS raised by the atomic writer's system calls (simulated)."""
    p, before = _old_file(tmp_path)

    def fail(*args, **kwargs):
        raise OSError(err, os.strerror(err))

    if where == "write":
        real_fdopen = os.fdopen

        class Failing:
            """The temporary file, whose writes fail (as a full disk's do)."""

            def __init__(self, fh) -> None:  # noqa: ANN001
                self.fh = fh

            def __enter__(self):  # noqa: ANN204
                return self

            def __exit__(self, *exc) -> None:  # noqa: ANN002
                self.fh.close()

            def fileno(self) -> int:
                return self.fh.fileno()

            write = flush = staticmethod(fail)

        monkeypatch.setattr(atomicfile.os, "fdopen",
                            lambda fd, *a, **kw: Failing(real_fdopen(fd, *a, **kw)))
    else:
        monkeypatch.setattr(atomicfile.os, where, fail)
    with pytest.raises(GameFileError) as info:
        save_game(p, BIG, overwrite=True)
    _check_refused(tmp_path, p, before, info.value, os.strerror(err))
    count("crash: simulated write errors")


def _mount_tmpfs(d: Path, *opts: str) -> bool:
    d.mkdir(exist_ok=True)
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", ",".join(("size=64k", *opts)), "tmpfs",
                        str(d)], capture_output=True)
    return r.returncode == 0


def _umount(d: Path) -> None:
    subprocess.run(["umount", str(d)], capture_output=True)


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root")
def test_full_disk_keeps_the_old_file(tmp_path):
    """A real full disk: a 64 KiB tmpfs, filled up, then a 200 kB game saved over a game."""
    d = tmp_path / "small"
    if not _mount_tmpfs(d):
        pytest.skip("cannot mount a tmpfs here")
    try:
        p, before = _old_file(d)
        with open(d / "filler", "wb") as fh:
            with pytest.raises(OSError):
                fh.write(b"\0" * 100_000)
                fh.flush()
        with pytest.raises(GameFileError) as info:
            save_game(p, BIG, overwrite=True)
        _check_refused(d, p, before, info.value, "No space left on device")
        with pytest.raises(GameFileError) as info:  # a new name: nothing is created
            save_game(d / "new.c4g", BIG)
        assert not (d / "new.c4g").exists()
        count("crash: full disk (tmpfs)")
    finally:
        _umount(d)


def test_read_only_directory_keeps_the_old_file(tmp_path):
    """chmod 0555 on the directory (or, for root, a read-only tmpfs): one line, no change."""
    d = tmp_path / "ro"
    if os.geteuid() == 0:
        if not _mount_tmpfs(d):
            pytest.skip("root ignores chmod, and no tmpfs can be mounted here")
        p, before = _old_file(d)
        subprocess.run(["mount", "-o", "remount,ro", str(d)], check=True)
        why = "Read-only file system"
    else:
        d.mkdir()
        p, before = _old_file(d)
        d.chmod(0o555)
        why = "Permission denied"
    try:
        for over in (True, False):
            target = p if over else d / "new.c4g"
            with pytest.raises(GameFileError) as info:
                save_game(target, BIG, overwrite=over)
            msg = str(info.value)
            assert "\n" not in msg and why in msg, msg
            assert p.read_bytes() == before and not (d / "new.c4g").exists()
        assert load_game(p).position.digits() == GAME_A
        count("crash: read-only directory")
    finally:
        if os.geteuid() == 0:
            _umount(d)
        else:
            d.chmod(0o755)


def test_app_keeps_the_game_when_a_save_fails(tmp_path, monkeypatch):
    """The app's save path (FileControl.save_file) on a failing disk: an error line, the
    game still in the model."""
    from c4tui.app import C4App

    def fail(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(atomicfile.os, "fsync", fail)
    app = C4App(Position.from_moves(GAME_B), engine=False)
    shown: list[str] = []
    monkeypatch.setattr(app, "error", shown.append)
    assert app.files.save_file(tmp_path / "g.c4g") is False
    assert shown and "No space left on device" in shown[0] and "\n" not in shown[0]
    assert app.model.full_position().digits() == GAME_B
    assert not list(tmp_path.iterdir())
    assert gamefile.load_game  # the module is intact (nothing patched but fsync)


# ---------------------------------------------------------------- crash files
def _raised(error: BaseException) -> BaseException:
    try:
        raise error
    except BaseException as caught:  # noqa: BLE001 - the test wants it with its frames
        return caught


def planted_in_a_worker() -> None:
    raise RuntimeError("planted in a worker")


def test_a_worker_failure_report_holds_the_workers_traceback():
    """Textual hands the app a WorkerFailed that was never raised (no frames, no cause):
    the report used to hold one line, ``textual.worker.WorkerFailed: ...``."""
    from textual.worker import WorkerFailed

    from c4tui.app.session.crash import report_text

    try:
        planted_in_a_worker()
    except RuntimeError as exc:
        inner = exc
    text = report_text(WorkerFailed(inner), {"moves": "4453"})
    assert "Traceback (most recent call last)" in text
    assert "in planted_in_a_worker" in text and "RuntimeError: planted in a worker" in text
    assert text.rstrip().endswith("WorkerFailed: Worker raised exception: "
                                  "RuntimeError('planted in a worker')")
    plain = report_text(_raised(KeyError(0)), {})  # an ordinary crash: as before
    assert plain.count("Traceback (most recent call last)") == 1
    assert "direct cause" not in plain


def test_a_crash_in_a_worker_leaves_a_report_with_its_traceback(monkeypatch):
    """The app's path: a worker of a key raises; the app dies (exit 1) and the crash file
    names the function that raised."""
    import asyncio

    from textual.worker import WorkerFailed

    from c4tui.app import C4App
    from c4tui.app.screens.main import MainScreen

    async def failing() -> None:
        planted_in_a_worker()

    def start(self: MainScreen) -> None:
        self.run_worker(failing())  # exit_on_error, as Textual's own workers (the palette)

    monkeypatch.setattr(MainScreen, "action_toggle_threats", start)
    app = C4App(Position.from_moves("4453"), engine=False)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("t")
            await pilot.pause()

    with pytest.raises(WorkerFailed):
        asyncio.run(run())
    assert app.return_code == 1
    report = app.session.crash
    assert report is not None and report.path is not None
    text = report.path.read_text()
    assert "Traceback (most recent call last)" in text and "in planted_in_a_worker" in text
    assert "moves: 4453" in text
