"""Shared fixtures, and which tests are ``slow`` (left out of ``make test-fast``)."""

from __future__ import annotations

import gc
import os
import signal
import time

import platformdirs
import pytest

#: The tests ``make test-fast`` (``pytest -m "not slow"``) leaves out; ``make test`` runs
#: them too. A file (all its tests) or ``file::test`` (all its parameters), with why: real
#: processes, terminals, a browser or Dask; the engine compiled cold; or seconds of work
#: (``pytest --durations``, two shared cores). Kept in one table rather than on the tests,
#: so that the fast subset reads in one place; a name here that its file no longer has
#: is an error, so a renamed test cannot silently join the fast subset.
SLOW: dict[str, str] = {
    # whole files: the engine's pilots, real processes, clusters, other board sizes
    "tests/fuzz/test_fuzz_app.py": "monkey runs of the app, 15 s",
    "tests/fuzz/test_fuzz_cli.py": "real c4tui processes, 13 s",
    "tests/fuzz/test_fuzz_gamefile.py": "8 s; tests/test_gamefile.py is the fast share",
    "tests/fuzz/test_fuzz_prompts.py": "every prompt through the UI, 25 s",
    "tests/fuzz/test_fuzz_serve.py::test_served_sessions_closed_at_once_exit_quietly":
        "a server, 5 sessions opened and closed, 10 s",
    "tests/fuzz/test_fuzz_untrusted.py": "hostile text through the CLI and the screens, 35 s",
    "tests/test_app_80x24.py": "pilots, a few seconds",
    "tests/test_app_board_snapshots.py": "snapshots after the engine's analysis and a review",
    "tests/test_app_column_values.py": "the engine's pilots, the solver's budget",
    "tests/test_app_db12.py": "the engine's pilots",
    "tests/test_app_engine.py": "the engine's pilots, 25 s",
    "tests/test_app_external.py": "external engine processes, 15 s",
    "tests/test_app_faults.py": "tiny terminals and key bursts, 50 s",
    "tests/test_app_files.py": "file dialogs, 13 s",
    "tests/test_app_idle.py": "CPU measured over seconds",
    "tests/test_app_navigator.py": "pilots, 5 s",
    "tests/test_app_no_book.py": "the engine's pilots",
    "tests/test_app_play.py": "the engine plays, 12 s",
    "tests/test_app_review.py": "reviews with the real review worker, 10 s",
    "tests/test_app_session.py": "the real app in a pty, 20 s",
    "tests/test_app_snapshots.py": "snapshots after the engine's analysis, 6 s",
    "tests/test_app_board_headers.py": "the headers dialog's pilots, 3 s",
    "tests/test_book_dask.py": "Dask clusters, 30 s",
    "tests/test_games_db.py": "imports killed and self-play, 5 s",
    "tests/test_links.py": "pilots and processes, 2.5 s",
    "tests/test_match_run.py": "real matches between engine processes, 20 s",
    "tests/test_match_hostile.py": "matches with forking, flooding engines, 25 s",
    "tests/test_app_external_hostile.py": "the app with a forking engine: pilots, a pty, 20 s",
    "tests/test_puzzles.py": "puzzle searches, Ctrl-C of a process, 12 s",
    "tests/test_reliability_crash.py": "kill -9 of saves and builds",
    "tests/test_reliability_interrupt.py": "Ctrl-C of real solves, one on a cold cache",
    "tests/test_reliability_memory.py": "prompts opened and closed, 5 s",
    "tests/test_reliability_quit.py": "the real app in a pty, quit timed",
    "tests/test_review_summary.py": "Ctrl-C of a review process, 2.5 s",
    "tests/test_setup.py": "the set-up screen's pilots, 5 s",
    "tests/test_explain_soundness.py": "explain against the solver on four sizes, minutes",
    "tests/test_explain_playout.py": "certificates played to the end on four small sizes, 7 s",
    "tests/test_explain.py::test_empty_7x4_board_has_a_small_tree":
        "the empty 7x4 board's proof tree made smaller, 9 s",
    "tests/test_sizes.py": "kernels compiled for other board sizes, minutes",
    "tests/test_wide_analysis.py": "the analysis kernels compiled for 8x8, 7 s",
    "tests/test_solve_progress.py": "the empty board solved on a pty, 30 s",
    "tests/test_solver_threads.py": "the solver on several threads, a cold start's first line",
    "tests/test_trainer.py": "the trainer's pilots with the engine, 4 s",
    "tests/test_ugi_faults.py": "engine processes with faults, 20 s",
    "tests/test_ugi_match.py": "games between engine processes, 11 s",
    "tests/test_versus.py": "two engines play a game, 12 s",
    # single tests in files that are otherwise quick
    "tests/test_untrusted_text.py::test_a_crafted_file_through_every_screen": "pilots, 5 s",
    "tests/fuzz/test_fuzz_controller.py::test_paused_and_stepped_search_is_exact": "3 s",
    "tests/fuzz/test_fuzz_hostile.py::test_solve_on_long_lines": "processes, 2 s",
    "tests/test_games_db_foreign.py::test_a_full_disk_in_the_middle_of_an_import_is_one_line":
        "a 40,000-game import fills a real tmpfs, 5 s",
    "tests/fuzz/test_fuzz_ugi.py::test_real_engine_process": "processes, 2 s",
    "tests/test_analysis_cli.py::test_analyze_names_where_an_answer_came_from": "6 s",
    "tests/test_analysis_eval.py::test_threat_fill_outcome_exact_with_one_free_column": "1 s",
    "tests/test_app.py::test_closing_the_terminal_ends_the_app": "a pty",
    "tests/test_app.py::test_sighup_ends_the_app": "a pty",
    "tests/test_app.py::test_quit_during_the_first_compile_is_immediate": "a cold compile",
    "tests/test_warmup.py::test_solve_imports_only_what_it_uses": "real c4tui processes, 6 s",
    "tests/test_warmup.py::test_a_position_deeper_than_the_books_loads_only_the_lookups_it_needs":
        "a real c4tui process, 3 s",
    "tests/test_warmup.py::test_quitting_the_app_during_a_cold_compile_leaves_no_process":
        "a cold compile in a pty, 9 s",
    "tests/test_app.py::test_save_and_load_through_the_picker": "1.5 s",
    "tests/test_app.py::test_node_limit_and_hash_prompts_validate": "1.5 s",
    "tests/test_app.py::test_absurd_numbers_in_prompts_give_one_line_errors": "1.3 s",
    "tests/test_app_small_truths.py::test_a_step_of_n_nodes_ends_paused_on_the_status_line":
        "the engine's pilot, a step deep in a search, 10 s",
    "tests/test_book_answer.py::test_solve_searches_what_the_books_leave_open": "2-20 s",
    "tests/test_book_answer.py::test_solve_with_a_damaged_book_warns_and_searches": "2 s",
    "tests/test_book_build.py::test_worker_processes_and_sigterm_resume": "Dask, 3 s",
    "tests/test_book_build.py::test_killed_build_leaves_no_workers": "Dask, 3 s",
    "tests/test_book_build.py::test_engine_uses_the_book": "a process, 2 s",
    "tests/test_book_enum.py::test_known_counts": "1 s",
    "tests/test_cli_vocabulary.py::test_help_shows_no_bool_placeholder_and_says_its_defaults":
        "every command's help, 2 s",
    "tests/test_db12.py::test_conversion_is_cached_and_a_damaged_cache_is_rebuilt":
        "converts the 12-ply database, 9 s",
    "tests/test_db12.py::test_a_cache_directory_it_cannot_write_is_said_once_and_converted_once":
        "converts the 12-ply database, 3 s",
    "tests/test_games_db_app.py::test_explorer_snapshot": "the engine's exact values first",
    "tests/test_hostile_input.py::test_cli_refuses_devices_and_fifos_with_one_line": "5 s",
    "tests/test_hostile_input.py::test_cli_huge_numbers_are_one_line_errors": "processes",
    "tests/test_hostile_input.py::test_cli_reads_no_endless_line_from_stdin": "a process",
    "tests/test_hostile_input.py::test_a_book_bomb_is_refused_before_it_inflates": "1 s",
    "tests/test_match_stats.py::test_simulated_equal_engines_mostly_accept_h0": "1 s",
    "tests/test_search.py::test_random_control_sequences_never_deadlock": "200 sequences",
    "tests/test_serve.py::test_the_workstation_plays_in_a_headless_browser": "a browser",
    "tests/test_serve.py::test_the_page_requests_nothing_from_another_host": "a browser, 12 s",
    "tests/test_serve.py::test_sessions_are_bounded_clamped_and_reaped": "sessions, 1.5 s",
    "tests/test_serve.py::test_a_stuck_session_is_killed_and_waited_for": "3.5 s",
    "tests/test_serve.py::test_stopping_the_server_ends_its_sessions": "sessions, 1 s",
    "tests/test_serve.py::test_a_killed_server_leaves_no_session_behind": "2 s",
    "tests/test_serve.py::test_a_non_local_host_needs_public": "a server, 1 s",
    "tests/test_solver.py::test_transpositions_share_one_key": "2 s",
    "tests/test_solver.py::test_pons_sets": "Pons's test sets, 2-3 s each",
    "tests/test_solver.py::test_a_stopped_analysis_says_what_it_had_proven": "1 s",
    "tests/test_ugi_protocol.py::test_a_go_that_cannot_search_answers_the_null_move": "5 s",
    "tests/test_ugi_protocol.py::test_exact_play_is_perfect": "5 s",
    "tests/test_ugi_protocol.py::test_timed_go_answers_in_time": "2 s",
    "tests/test_ugi_protocol.py::test_infinite_waits_for_stop_and_answers_isready_and_query_meanwhile":
        "2 s",
    "tests/test_ugi_protocol.py::test_a_storm_of_random_commands_neither_breaks_nor_hangs_the_engine":
        "2 s",
    "tests/test_variations.py::test_the_move_list_scrolls_to_the_viewed_move_at_80x24": "3 s",
    "tests/test_variations.py::test_keys_make_switch_promote_delete_and_comment_variations":
        "2 s",
}


#: The files whose tests compile the kernels for another board size (in a subprocess, on a
#: cold cache: 30-90 s each). ``make test`` runs the tests in two worker processes
#: (pytest-xdist, ``--dist loadgroup``): the tests of one size share an ``xdist_group``, so
#: one worker compiles a size once and the other never compiles the same one beside it.
#: A test's size is its ``size`` parameter; a file's own size where it has none.
SIZE_COMPILES: dict[str, str | None] = {
    "tests/test_sizes.py": None,
    "tests/test_explain_soundness.py": None,
    "tests/test_wide_analysis.py": "8x8",
}


def _size_group(item, path: str) -> str | None:
    """The ``xdist_group`` of a test that compiles another size's kernels, or None."""
    if path not in SIZE_COMPILES:
        return None
    callspec = getattr(item, "callspec", None)
    size = callspec.params.get("size") if callspec is not None else None
    size = size or SIZE_COMPILES[path]
    return f"size-{size}" if size else None


@pytest.hookimpl(tryfirst=True)  # before -m "not slow" deselects by the marker
def pytest_collection_modifyitems(config, items) -> None:
    """Mark the tests of :data:`SLOW` ``slow``; refuse a name there that its file lacks;
    group the tests of one board size's compile (:data:`SIZE_COMPILES`)."""
    modules = {}
    for item in items:
        path = item.nodeid.partition("::")[0]
        modules.setdefault(path, getattr(item, "module", None))
        name = getattr(item, "originalname", item.name)
        if path in SLOW or f"{path}::{name}" in SLOW:
            item.add_marker(pytest.mark.slow)
        if (group := _size_group(item, path)) is not None:
            item.add_marker(pytest.mark.xdist_group(group))
    gone = [key for key in SLOW if "::" in key
            and (module := modules.get(key.partition("::")[0])) is not None
            and not hasattr(module, key.partition("::")[2])]
    if gone:
        raise pytest.UsageError(f"tests/conftest.py SLOW names tests that do not exist: {gone}")


def pytest_sessionstart(session) -> None:
    """On a cold cache (a clean clone), compile the 7x6 kernels once before the test
    workers start, in parallel child processes (``engine.warmup``'s ``ParallelCompile``,
    the app's own cold start): otherwise each worker's first engine test compiles the
    same kernels beside the other. Only in the controlling process, and only for 7x6."""
    if hasattr(session.config, "workerinput") or os.environ.get("C4TUI_SIZE"):
        return
    from c4tui.engine import warmup

    if warmup.is_compiled():
        return
    report = session.config.pluginmanager.get_plugin("terminalreporter")
    say = report.write_line if report is not None else print
    start = time.monotonic()
    compiling = warmup.ParallelCompile(warmup.stage_names())
    say(f"compiling the engine's {compiling.total} kernels once for the run (cold cache)")
    compiling.start()
    compiling.wait()
    state = "done" if compiling.succeeded() else "failed (each test compiles what it needs)"
    say(f"compiling the engine: {state} in {time.monotonic() - start:.0f} s")


# A run started in the background by a shell without job control inherits SIGINT ignored,
# and an ignored signal stays ignored across exec: the tests that send Ctrl-C to a command
# (puzzles build, match, solve, review) would wait for a child that never hears it. Python's
# own handler here makes every child start with the default again.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# The converted 12-ply database is cached per user (a few seconds to build). Pin the cache
# directory before any test changes HOME, so that every test and CLI subprocess of the run
# shares one conversion; tests of the cache itself point C4TUI_CACHE_DIR elsewhere.
os.environ.setdefault("C4TUI_CACHE_DIR", platformdirs.user_cache_dir("c4tui"))


@pytest.fixture(autouse=True)
def _private_state(tmp_path_factory, monkeypatch):
    """Every test gets its own state directory (the recent-files list): never the user's."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))
    yield
    # The CLI's solver setup freezes the process's objects out of the garbage collector's
    # sight (c4tui/cli/solve.py: a short process's objects all live to its end); a test
    # that ran it in this process hands them back, so that later garbage is collected.
    gc.unfreeze()


@pytest.fixture
def tmp_home(tmp_path, monkeypatch):
    """Games go to a temporary data directory, never the real home."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


@pytest.fixture
def no_books(monkeypatch):
    """Every book off (C4TUI_BOOK=none; external engines started by a test inherit it),
    restored afterwards."""
    from c4tui.book import load_default

    monkeypatch.setenv("C4TUI_BOOK", "none")
    load_default(reload=True)
    yield
    monkeypatch.delenv("C4TUI_BOOK")
    load_default(reload=True)
