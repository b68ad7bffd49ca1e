"""Every stop quiet: workers say nothing when the parent is killed or
Ctrl-C'd; numba settings that would break a command are one line, checked
before numba is imported."""

import os
import signal
import subprocess
import sys
import time

import pytest

from advisor.cli.command import _numba_environment_problem
from helpers import as_a_terminal_job, ended
from advisor._tools.workers import TRACKER_WARNINGS, _WhileParentLives, held_interrupts, quiet_tracker, worker_init

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV = {**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}

_PROBE = "import sys; from advisor.cli import main; rc = main(sys.argv[1:]); print('numba' in sys.modules, rc)"


@pytest.mark.parametrize("name,value,accepted", [
    ("NUMBA_NUM_THREADS", "0", "1 or more"),
    ("NUMBA_NUM_THREADS", "-1", "1 or more"),
    ("NUMBA_NUM_THREADS", "abc", "1 or more"),
    ("NUMBA_THREADING_LAYER", "nope", "one of default, safe"),
    ("NUMBA_DISABLE_JIT", "1", "set it to 0 or unset it"),
])
def test_a_bad_numba_setting_is_one_line_before_numba_loads(name, value, accepted):
    """BUG: these gave 30-line tracebacks (abc: a traceback-style warning)."""
    env = {k: v for k, v in ENV.items() if not k.startswith("NUMBA_")}
    env[name] = value
    proc = subprocess.run([sys.executable, "-c", _PROBE, "odds", "--leg-only"], env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.stdout.split() == ["False", "2"]  # refused before numba was imported
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and name in lines[0] and accepted in lines[0], proc.stderr


def test_good_numba_settings_pass():
    assert _numba_environment_problem({}) is None
    assert _numba_environment_problem({"NUMBA_NUM_THREADS": "2", "NUMBA_THREADING_LAYER": "workqueue",
                                       "NUMBA_DISABLE_JIT": "0"}) is None


def test_a_worker_writes_nothing_once_its_parent_is_gone(tmp_path):
    with open(tmp_path / "err.txt", "w") as fh:
        alive = _WhileParentLives(fh, os.getppid())
        alive.write("while the parent lives\n")
        orphan = _WhileParentLives(fh, -1)  # not this process's parent: as after kill -9 of the parent
        assert orphan.write("Traceback ... BrokenPipeError\n") == len("Traceback ... BrokenPipeError\n")
        orphan.flush()
    assert (tmp_path / "err.txt").read_text() == "while the parent lives\n"


def _held_mask(queue) -> None:
    """In a new process: is Ctrl-C blocked at start, and after worker_init?"""
    at_start = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])
    worker_init(60.0)
    after = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])
    queue.put((at_start, after, signal.getsignal(signal.SIGINT) == signal.SIG_IGN))


@pytest.mark.processes
def test_a_process_started_while_ctrl_c_is_held_gets_it_only_once_it_ignores_it():
    """BUG: Ctrl-C while a pool's workers were still importing printed a
    KeyboardInterrupt traceback from each (and could leave the parent
    waiting on a half-started pool). A worker now starts with Ctrl-C
    blocked; worker_init ignores it, then unblocks."""
    import multiprocessing as mp

    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    with held_interrupts():
        process = ctx.Process(target=_held_mask, args=(queue,))
        process.start()
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, [])  # the parent's mask is back
    assert queue.get(timeout=120) == (True, False, True)
    process.join(timeout=60)
    assert process.exitcode == 0


def test_the_parents_ctrl_c_waits_until_the_pool_stands():
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a terminal, whatever was inherited
    try:
        _ctrl_c_inside_held_interrupts()
    finally:
        signal.signal(signal.SIGINT, previous)


def _ctrl_c_inside_held_interrupts():
    reached = []
    with pytest.raises(KeyboardInterrupt):
        with held_interrupts():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)
            reached.append("the pool is started")  # not cut short
    assert reached == ["the pool is started"]


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


@pytest.mark.processes
def test_ctrl_c_while_the_workers_start_is_one_line(tmp_path):
    """Ctrl-C to the whole process group as soon as the pool's workers
    exist (they are still importing): one line from the parent, nothing
    from the workers, and the command ends."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "advisor.cli", "simulate", "--bots", "random,random,random", "--players", "3",
         "--games", "100000", "--processes", "2", "-o", str(tmp_path / "g.jsonl")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True, env=ENV,
        preexec_fn=as_a_terminal_job)
    deadline = time.time() + 300
    while time.time() < deadline and len(_children(proc.pid)) < 3 and proc.poll() is None:  # two workers + tracker
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGINT)
    stdout, stderr = ended(proc)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
    assert stderr.strip().splitlines() == ["camelup: interrupted: no game of 100,000 was complete; nothing kept"]


_MASK_PROBE = """
import signal, sys

def held():  # the initializer: whether the worker began with Ctrl-C blocked
    global HELD
    HELD = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])

def report(_):
    return HELD
"""


@pytest.mark.processes
def test_every_worker_of_a_pool_begins_with_ctrl_c_held(tmp_path):
    """BUG: the resource tracker, started by the pool's first lock, unblocked
    Ctrl-C in the parent on its way (multiprocessing blocks, then unblocks,
    the signals it keeps from the tracker), so the workers spawned after it
    began with Ctrl-C open: one still importing printed a traceback on
    Ctrl-C.  Each worker of a fresh process's first pool reports its
    signal mask at its start."""
    (tmp_path / "maskprobe.py").write_text(_MASK_PROBE)
    script = ("import sys, maskprobe; from advisor._tools.workers import spawn_pool\n"
              "with spawn_pool(3, maskprobe.held) as pool: print(pool.map(maskprobe.report, range(12), chunksize=1))")
    env = {**ENV, "PYTHONPATH": str(tmp_path) + os.pathsep + ENV["PYTHONPATH"]}
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == str([True] * 12), out.stdout


def test_the_resource_tracker_is_told_to_keep_quiet(monkeypatch):
    monkeypatch.setattr(sys, "warnoptions", [])
    quiet_tracker()
    quiet_tracker()
    assert sys.warnoptions == [TRACKER_WARNINGS]
    from multiprocessing import util

    assert f"-W{TRACKER_WARNINGS}" in util._args_from_interpreter_flags()  # what the tracker is started with


def test_kill_9_of_simulate_leaves_the_terminal_quiet(tmp_path):
    """BUG: kill -9 of simulate flooded the terminal with BrokenPipeError
    tracebacks and leaked-semaphore warnings from the workers."""
    out = tmp_path / "g.jsonl"
    err = open(tmp_path / "err.txt", "w")
    proc = subprocess.Popen([sys.executable, "-m", "advisor.cli", "simulate", "--bots",
                             "random,random,random,random", "--games", "2000", "--processes", "2", "-o", str(out)],
                            env=ENV, stdout=subprocess.DEVNULL, stderr=err, start_new_session=True)
    part = tmp_path / "g.jsonl.part"
    deadline = time.time() + 300
    while time.time() < deadline and proc.poll() is None and (not part.exists() or part.stat().st_size < 10_000):
        time.sleep(0.1)
    assert proc.poll() is None, "the run ended before it could be killed"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    # the workers notice (within 0.25 s) and end, the tracker cleans up: the
    # whole process group gone within 4 s (then nothing more can be written)
    deadline = time.monotonic() + 4
    while True:
        try:
            os.killpg(proc.pid, 0)
            left = True
        except ProcessLookupError:
            left = False
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    err.close()
    assert (tmp_path / "err.txt").read_text() == ""
    if left:
        os.killpg(proc.pid, signal.SIGKILL)
    assert not left


def test_serve_stops_a_busy_worker_at_once():
    """Workers leave Ctrl-C to the server; its shutdown ends the ones still
    computing instead of waiting for their task."""
    import asyncio

    from advisor.web.pool import Lanes

    lanes = Lanes(1, warm=False)

    async def busy():
        task = asyncio.ensure_future(lanes.run("slow", "sleep", seconds=60))
        await asyncio.sleep(0)
        return task

    loop = asyncio.new_event_loop()
    try:
        task = loop.run_until_complete(busy())
        deadline = time.time() + 120
        while not lanes.pools["slow"]._processes and time.time() < deadline:
            loop.run_until_complete(asyncio.sleep(0.1))
        loop.run_until_complete(asyncio.sleep(2))  # the worker has taken the task
        workers = list(lanes.pools["slow"]._processes.values())
        managers = [pool._executor_manager_thread for pool in lanes.pools.values()]
        start = time.time()
        lanes.shutdown()
        for process in workers:
            process.join(10)
        assert all(not p.is_alive() for p in workers) and time.time() - start < 10
        # every pool's manager thread has ended: none is left to be woken at
        # exit through the pipe it closes as it ends ("Bad file descriptor"
        # tracebacks when serve stopped)
        assert [t for t in managers if t is not None and t.is_alive()] == []
        task.cancel()
    finally:
        loop.close()


@pytest.mark.processes
def test_serve_stopped_while_answering_says_one_line_not_a_traceback():
    """BUG: SIGTERM (or Ctrl-C) while a request computed printed "Exception
    in ASGI application" with a 40-line traceback per request once the
    grace period was over. Now: no traceback, no error line; the last
    line says how many requests were cut short."""
    import json
    import re
    import threading
    import urllib.request

    proc = subprocess.Popen([sys.executable, "-m", "advisor.cli", "serve", "--port", "0", "--workers", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**ENV, "PYTHONUNBUFFERED": "1"})
    try:
        url = None
        deadline = time.time() + 240
        while url is None and time.time() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            m = re.search(r"ready at (http://\S+)", line)
            url = m.group(1).rstrip("/") if m else None
        assert url is not None, proc.stderr.read() if proc.poll() is not None else "no address"

        def ask(path, body):
            request = urllib.request.Request(url + path, data=json.dumps(body).encode(),
                                             headers={"Content-Type": "application/json"})
            try:
                urllib.request.urlopen(request, timeout=120).read()
            except Exception:  # the server stops under it: any end will do
                pass

        slow = {"board": "1:B 2:YG 3:PR 14:w 15:k", "precision": 0.001}  # the finest: seconds each, one worker
        # eight on the one slow worker: far more work than the server's 3 s grace period, however fast the machine
        askers = [threading.Thread(target=ask, args=(path, slow), daemon=True)
                  for path in ("/api/best", "/api/odds") * 4]
        for t in askers:
            t.start()
        waiting = 0
        while waiting < len(askers) and time.time() < deadline:  # the requests are in the server's lanes
            with urllib.request.urlopen(url + "/api/health", timeout=30) as answer:
                waiting = sum(lane["waiting"] for lane in json.load(answer)["lanes"].values())
            time.sleep(0.1)
        assert waiting == len(askers)
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=120)
    assert "Traceback" not in err and "ERROR" not in err, err
    assert re.search(r"Stopped; [1-8] request\(s\) still computing were answered 503\.", out), out
