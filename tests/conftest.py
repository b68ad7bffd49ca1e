"""The test session: test workers, kernels compiled once, shared fixtures.

``python -m pytest`` runs the tests on pytest-xdist workers (``-n auto
--dist loadgroup``, see pyproject.toml), one per core:

* **Kernels compiled once.**  At session start the controller starts one
  process that compiles every kernel missing from the cache (``camelup
  warmup`` of the cold groups).  Each worker waits for it before its first
  test that may call a kernel, then copies the warmed cache into a folder of
  its own (``NUMBA_CACHE_DIR``, set before numba is imported), so workers
  load the machine code and never write the shared cache at the same time
  (numba's cache index is not safe against two writers).
* **On every core.**  With 2+ cores and 2+ cold groups the warm-up splits
  the cold groups into two halves of about equal measured compile time
  and compiles them in two processes at once, each in a fresh cache folder
  of its own, then merges both folders into the shared cache
  (:func:`advisor.warm.split_compile`; the merge is
  :mod:`advisor._tools.numbacache`: numba's cache is not safe with two
  writers, so each half writes its own folder).  It then checks
  (``advisor.warm.cold_groups``) that every top-level kernel of every group
  is cached and compiles any group that is not (so a half that failed
  costs time, never a kernel).  Its report (``warm.done``, JSON) says
  whether it began from an empty cache.
* **The cold test compiles once too.**  The ``cold`` test runs first: its
  cold command compiles in a fresh cache beside the warm-up.  When the
  warm-up began from an empty cache (a fresh clone, CI, edited kernels) it
  compiled every kernel as ``camelup warmup`` in a fresh cache does, so the
  test checks every command on a copy of that cache (fixture
  ``session_warmup``) instead of compiling everything a second time; after
  a warm rerun, or without xdist, it compiles everything itself.
* **One numba thread per worker**, except the tests that compare thread
  counts (those using ``every_thread`` or marked ``threads``): they run on
  every thread, all on one worker (the ``threads`` group).
* **Expensive resources once**: the tests that share one (the Dask cluster,
  the web app, a module's played games or ``camelup serve``) form an xdist
  group that runs on one worker, so the fixture is computed once.

Without xdist (``-p no:xdist`` or ``-n 0``) nothing of this happens: kernels
compile on first use in the package's cache, as any program's would.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

# tests import the slow reference as `naive` and the shared helpers as `helpers`
sys.path.insert(0, str(Path(__file__).resolve().parent))

_WORKER = os.environ.get("PYTEST_XDIST_WORKER")  # set by xdist before this file is imported
_RUN_DIR = os.environ.get("CAMELUP_TEST_RUN")  # set by the controller (below) for its workers
if _WORKER and _RUN_DIR and "numba" not in sys.modules:
    # this worker's own numba cache, filled from the warmed shared cache (see _load_warm_cache)
    os.environ["NUMBA_CACHE_DIR"] = os.path.join(_RUN_DIR, _WORKER)
    # a user's CAMELUP_CACHE_DIR would outrank it (advisor.kernels._where): every worker would write the
    # controller's shared cache (the warm-up's, which the specializations test reads) and never its own
    os.environ.pop("CAMELUP_CACHE_DIR", None)
else:
    _RUN_DIR = None

import pytest  # noqa: E402
from helpers import client, cluster  # noqa: E402,F401  (session fixtures)

#: fixture -> marker: a test using the fixture gets the marker
FIXTURE_MARKS = {"cluster": "dask", "client": "web", "every_thread": "threads"}
#: markers whose tests form one xdist group (they run on one worker, so a
#: session resource starts once)
GROUPS = ("dask", "web", "threads")
#: run before everything else (and before the kernels are warm)
FIRST = "cold"
#: then these, the longest tests, so that no worker ends on one of them
EARLY = ("browser", "notebook", "processes", "slow")

_WARM_DONE = "warm.done"
# the controller's warm-up process: _warm_main below (argv: done file, run folder)
_WARM_SCRIPT = "import sys; sys.path.insert(0, sys.argv[3]); import conftest; conftest._warm_main(*sys.argv[1:3])"
_ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------- warm-up
def _terminated(*_):
    raise SystemExit(1)  # the controller ends the warm-up: the split compile's finally ends its halves


def _warm(run_dir: Path) -> dict:
    """Compile every kernel missing from the shared cache (see the module
    docstring): split over two processes when there are 2+ cores and 2+
    cold groups, then merged, checked and completed."""
    import signal

    start = time.perf_counter()
    from advisor.kernels._jit import CACHE_DIR
    from advisor.warm import cold_groups, halves, split_compile, unwarmed, usable_cores, warmup

    shared = Path(CACHE_DIR)
    empty = not shared.is_dir() or not any(p.is_file() for p in shared.rglob("*"))
    cold = cold_groups()
    parts = []
    if usable_cores() >= 2 and len(cold) >= 2:
        signal.signal(signal.SIGTERM, _terminated)
        parts = halves(cold)
        split = split_compile(parts)
        for line in split["failed"]:
            print(f"warm-up of {line} failed; compiled below instead", flush=True)
    missing = cold_groups()  # every top-level kernel of every group cached? else compile here
    if missing:
        warmup(groups=missing)
    report = {"cache": CACHE_DIR, "from_empty": empty, "cold": cold, "halves": parts,
              "compiled_after_merge": missing, "unwarmed": unwarmed(),
              "seconds": round(time.perf_counter() - start, 1)}
    print(json.dumps(report), flush=True)
    return report


def _warm_main(done: str, run_dir: str) -> None:
    """The controller's warm-up process: warm the shared cache, then write
    the report (JSON, ``ok`` false and the traceback on failure) to
    ``done``, atomically."""
    try:
        report = {"ok": True, **_warm(Path(run_dir))}
    except BaseException:  # noqa: BLE001 - the report says why; the workers must not wait for ever
        report = {"ok": False, "error": traceback.format_exc()}
    done = Path(done)
    tmp = done.with_suffix(".tmp")
    tmp.write_text(json.dumps(report))
    tmp.replace(done)


# ---------------------------------------------------------------- controller
def _controller(config) -> bool:
    return not hasattr(config, "workerinput") and config.pluginmanager.getplugin("dsession") is not None


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    """On the xdist controller, before the workers start: a folder for this
    run and the one process that warms the kernel cache."""
    config = session.config
    if not _controller(config) or config.option.collectonly:
        return
    run_dir = tempfile.mkdtemp(prefix="camelup-tests-")
    os.environ["CAMELUP_TEST_RUN"] = run_dir  # the workers inherit it
    with open(os.path.join(run_dir, "warm.log"), "w") as log:
        config._camelup_warm = (run_dir, subprocess.Popen(
            [sys.executable, "-c", _WARM_SCRIPT, os.path.join(run_dir, _WARM_DONE), run_dir,
             str(Path(__file__).resolve().parent)],
            stdout=log, stderr=subprocess.STDOUT, cwd=str(_ROOT)))


def pytest_unconfigure(config):
    warm = getattr(config, "_camelup_warm", None)
    if warm is not None:
        run_dir, proc = warm
        if proc.poll() is None:
            proc.terminate()
        proc.wait()
        shutil.rmtree(run_dir, ignore_errors=True)


# ---------------------------------------------------------------- collection
def _module_fixture(item) -> bool:
    """Whether ``item`` uses a module- or session-scoped fixture of its own
    module (computed once per worker that runs one of its tests)."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    module = item.nodeid.split("::")[0]
    for defs in info.name2fixturedefs.values():
        for fixturedef in defs:
            if fixturedef.scope in ("module", "session") and fixturedef.baseid == module:
                return True
    return False


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Markers from fixtures; xdist groups: one per shared resource, one per
    module for the tests that share a fixture of their module; and the
    order: the ``cold`` test first, then the long tests and the groups, then
    the rest as collected."""
    groups = {}
    for item in items:
        for fixture, marker in FIXTURE_MARKS.items():
            if fixture in getattr(item, "fixturenames", ()):
                item.add_marker(marker)
        if item.get_closest_marker("xdist_group") is not None:
            continue
        group = next((g for g in GROUPS if item.get_closest_marker(g) is not None), None)
        if group is None and _module_fixture(item):
            group = item.nodeid.split("::")[0]
        if group is not None:
            groups[item] = group
    # a module whose shared-fixture tests and resource tests would land on
    # two workers: all of them join the resource's group
    joined = {}
    for item, group in groups.items():
        module = item.nodeid.split("::")[0]
        if group in GROUPS and _module_fixture(item):
            joined.setdefault(module, group)
    for item, group in groups.items():
        item.add_marker(pytest.mark.xdist_group(joined.get(group, group)))

    def rank(pair):
        index, item = pair
        if item.get_closest_marker(FIRST) is not None:
            return (0, index)
        if any(item.get_closest_marker(m) is not None for m in EARLY):
            return (1, index)
        if item.get_closest_marker("xdist_group") is not None:
            return (2, index)
        return (3, index)

    items[:] = [item for _, item in sorted(enumerate(items), key=rank)]


# ---------------------------------------------------------------- workers
_loaded = False


def _warm_report() -> dict | None:
    """The report of the controller's warm-up (waiting for it to finish);
    None without one (no xdist)."""
    if _RUN_DIR is None:
        return None
    done = Path(_RUN_DIR) / _WARM_DONE
    deadline = time.monotonic() + 3600
    while not done.exists():
        if time.monotonic() > deadline:
            pytest.exit("the kernel warm-up did not finish within an hour", returncode=3)
        time.sleep(0.2)
    return json.loads(done.read_text())


def _load_warm_cache():
    """Wait for the controller's warm-up, then copy the warmed cache into
    this worker's own numba cache (once per worker)."""
    global _loaded
    if _loaded or _RUN_DIR is None:
        return
    _loaded = True
    report = _warm_report()
    if not report["ok"]:  # compile on first use instead; the tests will say what is wrong
        sys.stderr.write(f"kernel warm-up failed:\n{report['error']}\n")
        return
    shared = Path(report["cache"])
    from advisor.kernels._jit import CACHE_DIR

    if shared.is_dir() and Path(CACHE_DIR) != shared:
        shutil.copytree(shared, CACHE_DIR, dirs_exist_ok=True)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """On a worker, before the test's fixtures (a module or session fixture
    may call kernels, or start ``camelup serve``): the warmed kernels, and
    one numba thread unless the test compares thread counts."""
    if _WORKER is None or item.get_closest_marker(FIRST) is not None:
        return
    _load_warm_cache()
    import numba

    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS if item.get_closest_marker("threads") else 1)


# ---------------------------------------------------------------- fixtures
@pytest.fixture
def every_thread(monkeypatch):
    """Every parallel kernel call on every thread, however small (calls are
    otherwise sized by their work, see advisor/kernels/_jit.py): for tests
    that results do not depend on the thread count; Camel Up Cards
    results computed again, not read from the kernels' memo)."""
    from advisor.cards.odds import KERNEL_MEMO
    from advisor.kernels import _jit

    monkeypatch.setattr(_jit, "THREAD_SECONDS", 0.0)
    monkeypatch.setattr(KERNEL_MEMO, "enabled", False)


@pytest.fixture(scope="session")
def warmed_cache():
    """The kernel cache the session's warm-up filled (by making the calls
    ``camelup warmup`` makes, on top of what the cache held), or None: no
    warm-up (no xdist) or one that failed."""
    report = _warm_report()
    if report is None or not report["ok"]:
        return None
    return Path(report["cache"])


@pytest.fixture
def session_warmup():
    """For the ``cold`` test: a function that waits for the session's
    warm-up and returns the kernel cache it filled **from an empty cache**
    (a fresh clone, CI, edited kernels: it compiled every group, as
    ``camelup warmup`` in a fresh cache does), or None: no warm-up (no
    xdist), a warm-up that began with kernels cached, or one that failed."""
    def wait() -> Path | None:
        report = _warm_report()
        if report is None or not report["ok"] or not report["from_empty"]:
            return None
        return Path(report["cache"])

    return wait
