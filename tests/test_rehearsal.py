"""camelup play on a first run: the kernels compile in a background copy of
the game while the first human reads the table (advisor.cli.table.Rehearsal);
the table never computes beside it, and the game is the same with or
without it."""

import io
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import advisor.cli.rehearsal as rehearsal_module
from advisor import compiling, warm
from advisor.cards.game import CardsGame, CardsSetup
from advisor.cli.rehearsal import rehearse
from advisor.cli.table import BoardEngine, run_table
from advisor.cli.table_cards import CardsEngine
from advisor.game import Game

ROOT = Path(__file__).resolve().parents[1]
# the README's Camel Up Cards transcript: deck building, a bet, a reveal, the advice, then leave
CARDS_LINES = ["B1", "O1", "W1 W1", "leg:Y", "reveal", "best", "quit"]
BOARD_LINES = ["best", "pyramid", "odds", "leg:B", "pyramid", "quit"]


def _script(lines):
    queue = list(lines)
    return lambda prompt: queue.pop(0)


def _cards_table(rehearse_it: bool):
    out = io.StringIO()
    engine = CardsEngine(CardsGame(CardsSetup(players=4), 1, draw=False))
    table = run_table(engine, ["human", "greedy", "heuristic", "random"], read=_script(CARDS_LINES), out=out,
                      rehearse=rehearse_it)
    return table, out.getvalue()


def _board_table(rehearse_it: bool):
    out = io.StringIO()
    table = run_table(BoardEngine(Game("second", 4, 3)), ["human", "advisor", "heuristic", "random"],
                      read=_script(BOARD_LINES), out=out, rehearse=rehearse_it)
    return table, out.getvalue()


@pytest.mark.parametrize("make", [_cards_table, _board_table], ids=["cards", "second"])
def test_a_rehearsal_changes_nothing_the_table_shows(make):
    table, shown = make(True)
    assert table.rehearsal is not None and not table.rehearsal.running and table.rehearsal.error is None
    plain, plain_shown = make(False)
    assert plain.rehearsal is None
    assert shown == plain_shown
    assert "The advisor's ranking" in shown


@pytest.mark.parametrize("engine,seats", [
    (lambda: CardsEngine(CardsGame(CardsSetup(players=3), 5, draw=False)), ["human", "greedy", "margin"]),
    (lambda: BoardEngine(Game("first", 3, 5)), ["advisor", "human", "heuristic"]),
])
def test_the_rehearsal_lets_every_bot_choose_a_turn_and_advises_the_human(engine, seats, monkeypatch):
    """What it plays: each bot seat chooses at least once while the players
    take turns, the first human's advice is computed once at its turn; the
    game it was given is the only one changed."""
    chosen, advised = [], []
    game = engine()
    record = list(game.record)
    original_command = type(game).command

    def command(self, p, word):
        advised.append((p, word))
        return original_command(self, p, word)

    monkeypatch.setattr(type(game), "command", command)
    copy = game.replay(list(game.record))
    original_bot_actions = type(game).bot_actions

    def bot_actions(self, p, bot):
        if self.in_turns:
            chosen.append(p)
        yield from original_bot_actions(self, p, bot)

    monkeypatch.setattr(type(game), "bot_actions", bot_actions)
    rehearse(copy, seats)
    human = seats.index("human")
    assert advised == [(human, "best")]
    assert {i for i, s in enumerate(seats) if s != "human"} <= set(chosen)
    assert game.record == record  # the game itself untouched


def test_the_table_computes_nothing_while_the_rehearsal_runs(monkeypatch):
    """A bot's turn, an action and a command each wait until the rehearsal
    is over (numba's parallel kernels must not start from two threads)."""
    events = []

    def slow_rehearsal(engine, seats, limit=None):
        events.append(("rehearsal starts", time.perf_counter()))
        time.sleep(1.0)
        events.append(("rehearsal ends", time.perf_counter()))

    monkeypatch.setattr(rehearsal_module, "rehearse", slow_rehearsal)
    original = BoardEngine.bot_actions

    def bot_actions(self, p, bot):
        events.append(("bot computes", time.perf_counter()))
        yield from original(self, p, bot)

    monkeypatch.setattr(BoardEngine, "bot_actions", bot_actions)
    out = io.StringIO()
    run_table(BoardEngine(Game("second", 3, 3)), ["human", "random", "random"], read=_script(["pyramid", "quit"]),
              out=out, rehearse=True)
    names = [e for e, _ in events]
    start, end = names.index("rehearsal starts"), names.index("rehearsal ends")
    assert end == start + 1 and "bot computes" in names[end:], names  # the bots after the human's turn waited


def _compile_elsewhere(notice) -> threading.Thread:
    """A thread that compiles for 0.8 s while a rehearsal runs (started),
    then ends the rehearsal."""
    notice.background = True  # as a Rehearsal sets it

    def compile_elsewhere():
        notice.started("kernel")
        time.sleep(0.8)
        notice.finished("kernel")
        notice.background = False  # as a Rehearsal's end sets it

    thread = threading.Thread(target=compile_elsewhere)
    thread.start()
    return thread


def test_a_compile_in_another_thread_is_counted_not_shown():
    """The notice says nothing while the rehearsal's thread compiles (the
    player is typing), then counts its seconds in the last line."""
    stream = io.StringIO()
    with compiling.CompileNotice((), stream=stream) as notice:
        _compile_elsewhere(notice).join()
        assert stream.getvalue() == ""
    assert stream.getvalue() == ("camelup: kernels compiled in 1 s (1 s of it in the background); later runs load "
                                 "them from the cache\n")


@pytest.mark.parametrize("compiling_now", [True, False])
def test_leaving_before_the_rehearsal_ends_never_says_the_kernels_are_all_cached(compiling_now):
    """A player who leaves while the kernels still compile in the background
    (the rehearsal under way: compiling a kernel at that moment, or between
    two): the last line says the rest compiles on the next run, not that
    later runs load them from the cache."""
    stream = io.StringIO()
    leave = threading.Event()
    with compiling.CompileNotice((), stream=stream) as notice:
        notice.background = True  # a Rehearsal started and has not ended

        def rehearsal():
            notice.started("kernel")
            time.sleep(0.6)
            if compiling_now:
                leave.wait(30)  # still compiling when the command ends
            notice.finished("kernel")

        thread = threading.Thread(target=rehearsal, daemon=True)
        thread.start()
        time.sleep(0.7)
        assert stream.getvalue() == ""  # nothing said while the player types
    leave.set()
    thread.join()
    assert stream.getvalue() == ("camelup: kernels compiled in 1 s (1 s of it in the background), not all: the "
                                 "command ended while the rest compiled in the background; the next run compiles "
                                 "it\n")


def test_leaving_at_once_says_the_next_run_compiles_the_kernels():
    stream = io.StringIO()
    with compiling.CompileNotice((), stream=stream) as notice:
        notice.background = True  # a Rehearsal started, nothing compiled yet
    assert stream.getvalue() == ("camelup: the command ended while the kernels compiled in the background; the "
                                 "next run compiles them\n")


def test_a_rehearsal_that_ends_before_anything_compiles_says_nothing():
    stream = io.StringIO()
    with compiling.CompileNotice((), stream=stream) as notice:
        notice.background = True
        notice.background = False  # a rehearsal whose kernels were all cached
    assert stream.getvalue() == ""


def test_a_compile_in_another_thread_is_shown_when_no_rehearsal_runs():
    """The command's own threads (a thread pool of the valuation) compile as
    the command: said as before."""
    stream = io.StringIO()
    with compiling.CompileNotice((), stream=stream) as notice:
        thread = threading.Thread(target=lambda: (notice.started("kernel"), notice.finished("kernel")))
        thread.start()
        thread.join()
    assert stream.getvalue().startswith("camelup: compiling kernels (first run only) ...\n")


def test_waiting_for_the_rehearsal_is_said_once_and_not_counted_twice():
    stream = io.StringIO()
    with compiling.CompileNotice((), stream=stream) as notice:
        notice.wait_for(_compile_elsewhere(notice), "finishing the kernels compiling in the background")
    lines = stream.getvalue().splitlines()
    assert lines[0] == "camelup: finishing the kernels compiling in the background ..."
    assert lines[1].startswith("camelup: kernels compiled in 1 s (1 s of it in the background)")


@pytest.mark.processes
def test_a_first_run_of_play_starts_at_once_and_compiles_behind_the_prompt(tmp_path):
    """From an empty kernel cache: the table and the first prompt come
    before the bots' kernels compile, which start in the background; leaving
    at once ends the game cleanly."""
    env = {**os.environ, "CAMELUP_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-m", "advisor.cli", "play", "--edition", "cards", "--seed", "1"],
                         input="B1\nquit\n", capture_output=True, text=True, env=env, timeout=600, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "camelup: compiling kernels in the background while you read the table (first run only" in out.stderr
    assert "P0 keep in hand>" in out.stdout and "Game left at leg 1" in out.stdout
    # left long before the background compilation could end: the next run compiles the rest (said so)
    assert "the next run compiles" in out.stderr and "later runs load them from the cache" not in out.stderr
    assert "Traceback" not in out.stderr
