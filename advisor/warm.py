"""Compile every kernel once (``camelup warmup`` / ``advisor.warmup()``), and
say so while kernels compile.

Kernels are compiled with ``cache=True``: the first process pays the
compilation and writes the machine code to the cache; later processes load
it in a fraction of a second.  Numba compiles a kernel again for every new
combination of argument types, so warming up calls the same public
functions the commands call (odds, advice, batch, the bots' valuation,
Camel Up Cards odds and advice), on positions that take every path to a
kernel, rather than the kernels themselves.

The kernels are grouped (:data:`GROUPS`); each group names the kernels
called from Python that it compiles.  :func:`unwarmed` lists every kernel of
:mod:`advisor.kernels` (found by walking the package, so a new kernel cannot
be forgotten) whose machine code is not in the cache; after
:func:`warmup` it is empty, and the tests check that after a warmup in a
fresh cache no command compiles anything.

:class:`advisor.compiling.CompileNotice` is what the command line shows on stderr while numba
compiles (which it does only when the cache lacks a kernel): a spinner on a
terminal, one line otherwise, with the time the compilation usually takes.

**The estimate** ("first run only, about N s") is measured, never guessed,
and counts what the command compiles.  A group's figure is what its
warm-up function compiles: every specialization of its kernels any command
calls; one command calls a fraction of them (the opening of ``camelup
play --edition cards`` compiles about 45 s, its three groups 127 s).  So each
*form* of a command (:func:`forms`: odds, leg odds only, sampled odds,
advice, a picture, a chart, a review, batch with or without race odds or
advice, one game of a family of bots; board or Camel Up Cards) is measured
on its own from an empty cache (``benchmarks/bench_compile.py --forms all
--write``), which stores, per form, the processor seconds numba spent on
each kernel (its own share: a kernel compiled inside another's compilation
is charged to itself, not to its caller).  A command's estimate
(:func:`form_seconds`) is the sum, over the kernels of its forms (a game
of several bots: the union of its bots' forms, :func:`form_kernels`), of
those whose machine code is not in the cache, so a partly warm cache counts
only what is left.  At the table, on a first run, the bots that move before
the first human compile their turns before the table shows: the notice
says about how long from the measured openings of their families of bot
(:func:`opening_forms`).  The groups' figures remain what
``camelup warmup``, the page's preparer and the worker processes of a run
of several games or reviews pay: those compile whole groups
(:func:`warmup`), and there the groups are the honest estimate.

**Two cores, one compile.**  Numba compiles in one thread, so a first run
on two cores would leave one idle.  Where the kernel groups a command needs
are cold and two processes compile them clearly sooner (:func:`split_plan`),
:func:`compile_first` compiles them split in two halves of about equal
measured seconds (:func:`halves`), each in a process and a temporary cache
folder of its own (numba's cache is not safe with two writers), then merges
both into the user's cache (:mod:`advisor._tools.numbacache`); the command
then loads them.  A callee both halves need compiles in both: that is the
price.  The notice then announces :func:`split_estimate` (the longer half
over the share of a core each half gets).  A half that fails costs time
only: what is missing compiles where the command calls it.
"""

from __future__ import annotations

import functools
import importlib
import json
import pkgutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

import numpy

from advisor import kernels as kernel_package
from advisor._tools.numbacache import compile_halves, merge_cache
from advisor.cards import cards_best, cards_odds
from advisor.cards.fast import cards_values
from advisor.notation import parse_position
from advisor.odds.exact import leg_odds, leg_odds_many
from advisor.odds.levels import leg_levels
from advisor.odds.montecarlo import race_odds, sample_leg_odds, simulate_races
from advisor.rules.roll import step
from advisor.rules.state import GameState
from advisor.valuation.legs import LegOutcomes
from advisor.valuation.fast import fast_values
from advisor.valuation.portfolio import joint_counts

__all__ = ["warmup", "GROUPS", "Group", "kernels", "unwarmed", "cold_groups", "needs",
           "compile_figures", "estimate", "cpu_share", "forms", "opening_forms", "form_kernels", "form_seconds",
           "halves",
           "half_seconds", "split_compile", "split_plan", "free_cores", "split_share", "split_estimate", "compile_first"]


@dataclass(frozen=True)
class Group:
    """Kernels compiled together: ``kernels`` (``module.name`` in
    :mod:`advisor.kernels`) are those called from Python; ``seconds`` is
    how long compiling them takes (measured, see :func:`compile_figures`).
    ``run`` makes the public calls that compile them."""

    name: str
    title: str
    kernels: tuple[str, ...]
    guess: float
    run: Callable[[], object]

    @property
    def seconds(self) -> float:
        """Processor seconds compiling this group alone from an empty cache
        takes, as measured (``advisor/data/compile_seconds.json``); the old
        guess when the group was never measured."""
        measured = compile_figures().get("groups", {}).get(self.name)
        return float(measured["cpu_s"]) if measured else float(self.guess)


_SECOND = "1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx"
_SECOND_START = "1:B 2:YG 3:PR 16:w 15:k +6@1"
_FIRST = "first 1:B 2:YG 3:OW +6 dice:BGO"
_CARDS_EXACT = "cards 0:BG 2:OW 3:Y deck:4 known:B1G2 hand:O1"
_CARDS_ENDS = "cards track:nnnnnnnn 14:BG 15:OW 16:Y deck:2 known:B1G1 hand:Y1"
_CARDS_LAST = "cards 0:BG 2:OW 3:Y deck:1 known:B1 next:1"


def _moves():
    second, first = parse_position(_SECOND), parse_position(_FIRST)
    step(second, "x", 1, "white")
    step(second, "G", 2)
    step(first, "O", 3)


def _leg():
    leg_odds(_SECOND)
    leg_odds(_FIRST)
    race_odds("14:B 15:YG 16:PR 1:w 2:k dice:BG", seed=0)  # exact: the next leg surely ends the race


def _joint():
    # what the advice adds to the leg odds and the race: the joint leg
    # outcomes (with a tile tracked, as the tile tables count landings) and
    # the race outcomes joint with the leg's (the portfolio view); neither
    # runs the race simulation, so this group compiles beside ``race``
    position = GameState.from_board(_SECOND).position
    LegOutcomes.of(position)
    LegOutcomes.of(position, 5)
    joint_counts(position, 100, seed=0)


def _levels():
    leg_levels(_SECOND)
    leg_levels(_FIRST, merged=False)


def _batch():
    leg_odds_many([_SECOND, _FIRST])


def _sampler():
    sample_leg_odds(_SECOND, samples=1000, seed=0)


def _race():
    # the race simulation as race_odds runs it from the leg-end states, alone:
    # the leg's exact enumeration before it is the leg group's, so this group
    # compiles beside the leg's and the advice's (a split compile's halves)
    from advisor.kernels.board.race import score_boards
    from advisor.rules.encode import encode, full_pyramid

    for board in (_FIRST, _SECOND):
        position = parse_position(board)
        boards = numpy.array([encode(position).board], numpy.int64)
        simulate_races(boards, numpy.ones(1), 2, 8, 0, 0, full_pyramid(position.rules), position.rules.rolls_per_leg)
        score_boards(boards, numpy.ones(1, numpy.int64), numpy.zeros((5, 5), numpy.int64))


def _bots():
    for board in (_SECOND, _SECOND_START, _FIRST):  # tile placements enumerated, then sampled
        fast_values(GameState.from_board(board), rivals=True)
    # an own overall card on a pile: tiles change its value (candidate races)
    fast_values(GameState.from_json({
        "board": "12:B 13:YG 14:PR 3:w 5:k -9@1 dice:GPRx",
        "players": [{"money": 2, "overall_cards": "GPR"}, {}, {}],
        "winner_pile": [{"player": 0, "colour": "B"}],
        "loser_pile": [{"player": 1}, {"player": 0, "colour": "Y"}],
    }), 0, rivals=True)
    joint_counts(GameState.from_board(_SECOND).position, 100, seed=0)  # the portfolio view


def _cards_legs():
    cards_odds(_CARDS_EXACT, race=False, others="reveal")
    cards_odds("cards 0:BGOWY", seed=0, race=False, others="reveal", leg_samples=1_000)  # sampled
    cards_odds(_CARDS_EXACT, seed=0, race=False)  # the other players' actions: sampled
    cards_odds(_CARDS_LAST, race=False)  # ... exact
    cards_best(_CARDS_ENDS, seed=0, progress=False)  # the race ends in this leg: no race sampled


def _cards_bots():
    cards_values(_CARDS_EXACT, seed=0, legs=200, races=50)  # every race action on shared scenarios
    cards_values(_CARDS_LAST.replace(" next:1", ""), seed=0)  # exact legs


def _cards_races():
    for others in ("random", "later", "reveal"):
        cards_odds(_CARDS_EXACT, seed=0, samples=200, others=others)


GROUPS: tuple[Group, ...] = (
    Group("moves", "board moves", ("board.track.roll", "board.track.crazy_mover"), 3, _moves),
    Group("leg", "exact leg odds", ("board.leg.enumerate_leg", "board.leg.completions"), 10, _leg),
    # each group's measured time is what it adds to those before it; the
    # race's and the advice's warm-ups share no costly kernel (they compile
    # in two processes at once for camelup best, advisor.warm.split_plan)
    Group("race", "race simulation", ("board.race.race_replicates", "board.race.score_boards"), 12, _race),
    Group("joint", "advice (joint leg and race outcomes)", ("board.leg.enumerate_joint", "board.portfolio.race_joint"),
          8, _joint),
    Group("batch", "many positions at once", ("board.leg.leg_counts_batch",), 7, _batch),
    Group("levels", "leg enumeration tree", ("board.leg.leg_levels",), 8, _levels),
    Group("sampler", "leg sampler", ("board.sample.sample_leg",), 20, _sampler),
    Group("bots", "the bots' valuation", ("board.candidates.candidate_joint", "board.candidates.candidate_races",
                                          "board.candidates.after_each_roll"), 25, _bots),
    Group("cards_legs", "Camel Up Cards legs", ("cards.exact.leg_counts", "cards.track.leg_sample", "cards.track.move",
                                                "cards.track.rank_code", "cards.others.leg_others_exact",
                                                "cards.others.leg_others_sample"), 37, _cards_legs),
    Group("cards_races", "Camel Up Cards races", ("cards.track.race_sample", "cards.others.race_others_sample"), 20,
          _cards_races),
    Group("cards_bots", "the Camel Up Cards bots' valuation", ("cards.turns.candidate_outcomes",), 20, _cards_bots),
)
_BY_NAME = {g.name: g for g in GROUPS}


@functools.lru_cache(maxsize=1)
def compile_figures() -> dict:
    """The measured compile times (``advisor/data/compile_seconds.json``,
    written by ``benchmarks/bench_compile.py --write``): per group
    (``groups``) the processor seconds (``cpu_s``) compiling it adds to the
    groups before it from an empty cache, the wall-clock seconds and the
    load average during the measurement; per command form (``commands``,
    see :func:`forms`) the same figures for one run of the command from an
    empty cache, and ``kernels``: the processor seconds of each kernel's own
    compilation in that run.  Empty when the file is missing."""
    from importlib import resources

    try:
        text = resources.files("advisor.data").joinpath("compile_seconds.json").read_text(encoding="utf-8")
        return json.loads(text)
    except (OSError, ValueError):
        return {}


def usable_cores() -> int:
    """The cores this process may run on (its affinity where the system
    says it, else all)."""
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def cpu_share(probe: float = 0.2) -> float:
    """The share of one core a single-threaded computation gets on this
    machine now (1: an idle core; 0.25 on a machine four times busier than
    its cores): spins for ``probe`` seconds when the load average exceeds
    the cores, and measures the processor time it got."""
    import os

    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        return 1.0
    cores = usable_cores()
    if load < cores:
        return 1.0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < probe:
        pass
    got = (time.process_time() - cpu) / max(time.perf_counter() - start, 1e-9)
    return min(1.0, max(got, 0.02))


def _group_seconds(names: Iterable[str]) -> float:
    """The measured processor seconds of compiling the groups ``names``."""
    return sum(_BY_NAME[n].seconds for n in names)


def estimate(names: Iterable[str], share: float | None = None) -> float:
    """Seconds compiling the groups ``names`` takes from an empty cache on
    this machine now: their measured processor seconds over the share of a
    core a computation gets (:func:`cpu_share`, or ``share``)."""
    seconds = _group_seconds(names)
    if not seconds:
        return 0.0
    return seconds / (cpu_share() if share is None else share)


def _groups(names: Iterable[str] | None) -> list[Group]:
    if names is None:
        return list(GROUPS)
    names = set(names)
    unknown = names - set(_BY_NAME)
    if unknown:
        raise ValueError(f"unknown kernel group(s): {', '.join(sorted(unknown))}")
    return [g for g in GROUPS if g.name in names]


def warmup(verbose: bool = False, *, groups: Iterable[str] | None = None,
           progress: bool | None = None) -> dict[str, float]:
    """Compile (or load from the cache) every kernel, or those of ``groups``
    (names of :data:`GROUPS`); returns seconds per group (by title) and
    prints them when ``verbose``.  ``progress``: a progress bar on stderr
    (default: off)."""
    from tqdm import tqdm

    chosen = _groups(groups)
    times: dict[str, float] = {}
    with tqdm(chosen, unit="group", disable=not progress, file=sys.stderr, leave=False) as bar:
        for group in bar:
            bar.set_description(group.title)
            start = time.perf_counter()
            group.run()
            times[group.title] = time.perf_counter() - start
            if verbose:
                bar.write(f"  {group.title:<28} {times[group.title]:7.2f} s", file=sys.stdout)
    return times


def kernels() -> dict[str, object]:
    """Every kernel of :mod:`advisor.kernels`, by ``module.name``: each
    numba dispatcher (or sized parallel kernel) defined in one of its
    modules."""
    from numba.core.registry import CPUDispatcher

    from advisor.kernels._jit import dispatcher_of

    found: dict[str, object] = {}
    prefix = kernel_package.__name__ + "."
    for info in pkgutil.walk_packages(kernel_package.__path__, prefix):
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            dispatcher = dispatcher_of(obj)
            if isinstance(dispatcher, CPUDispatcher) and dispatcher.py_func.__module__ == module.__name__:
                found[f"{info.name[len(prefix):]}.{name}"] = obj
    return found


def unwarmed() -> list[str]:
    """Kernels whose machine code is not in the cache (``module.name``).
    A kernel inlined into its callers (``inline="always"``) has none of its
    own and is left out unless a group names it."""
    from advisor.kernels._jit import dispatcher_of, is_cached

    named = {k for g in GROUPS for k in g.kernels}
    out = []
    for name, kernel in kernels().items():
        inline = dispatcher_of(kernel).targetoptions.get("inline") == "always"
        if (name in named or not inline) and not is_cached(kernel):
            out.append(name)
    return out


def cold_groups(names: Iterable[str] | None = None) -> list[str]:
    """The groups (of ``names``, default all) with a kernel whose machine
    code is not in the cache: calling them compiles.  A group whose cache
    cannot be inspected counts as warm."""
    from advisor.kernels._jit import is_cached

    return [g.name for g in _groups(names) if any(is_cached(_kernel(k)) is False for k in g.kernels)]


def _kernel(name: str):
    """The kernel ``module.name`` of :mod:`advisor.kernels` (importing its
    module only: cheaper than :func:`kernels`, which every command would
    pay for its compile check)."""
    module, _, attr = name.rpartition(".")
    return getattr(importlib.import_module(f"{kernel_package.__name__}.{module}"), attr)


_BOT_GROUPS = {"random": (), "heuristic": ("leg",), "advisor": ("leg", "joint", "race", "bots"),
               "denial": ("leg", "joint", "race", "bots"), "rival": ("leg", "joint", "race", "bots")}


def needs(command: str, *, cards: bool = False, race: bool = True, samples: bool = False, advice: bool = False,
          bots: Iterable[str] = ()) -> tuple[str, ...]:
    """The kernel groups a command uses: ``cards`` for a Camel Up Cards
    position; ``race``: race odds asked; ``samples``: sampled leg odds;
    ``advice``: a batch with advice or moves; ``bots``: the bots of a game."""
    if command == "warmup":
        return tuple(g.name for g in GROUPS)
    if cards:
        valuing = any(bot not in ("random", "heuristic", "human") for bot in bots)
        return tuple(dict.fromkeys(("cards_legs",) + (("cards_races",) if race or command == "best" else ())
                                   + (("cards_bots", "cards_races") if valuing else ())))
    games = ("moves",) + tuple(g for bot in bots for g in _BOT_GROUPS.get(bot, ("leg", "joint", "race", "bots")))
    table = {
        "odds": ("leg",) + (("race",) if race else ()) + (("sampler",) if samples else ()),
        "best": ("leg", "joint", "race"),
        "batch": ("batch",) + (("race",) if race else ()) + (("leg", "joint", "race") if advice else ()),
        "chart": ("moves", "leg", "race"),
        "show": ("leg",),
        "simulate": games,
        "tournament": games,
        "duel": games,
        "bot": games,
        "play": games + ("leg", "joint", "race"),
        "review": ("moves", "leg", "joint", "race", "bots"),
    }
    return tuple(dict.fromkeys(table.get(command, ())))


_GAMES = ("simulate", "tournament", "duel", "bot", "play")


def _bot_family(bot: str) -> str:
    """The family of a bot for the measured forms: random, heuristic, or
    valuing (every bot that values actions)."""
    return bot if bot in ("random", "heuristic") else "valuing"


def _bot_form(bot: str, cards: bool) -> str | None:
    """The measured form of one game of ``bot`` (None: a human's seat)."""
    if bot == "human":
        return None
    return ("cards-" if cards else "") + "game-" + _bot_family(bot)


def opening_forms(bots: Iterable[str], cards: bool = False) -> tuple[str, ...] | None:
    """The measured forms of the turns ``bots`` play at the table before
    the first human's (``camelup play`` on a first run: they compile before
    the table shows): one per family of bot, each two of its turns from the
    start; None when none was measured (Camel Up Cards, whose humans build
    their decks first) or no bot moves first."""
    names = tuple(dict.fromkeys(("cards-" if cards else "") + "opening-" + _bot_family(bot)
                                for bot in bots if bot != "human"))
    return names if names and form_kernels(names) is not None else None


def forms(command: str, *, cards: bool = False, race: bool = True, samples: bool = False, advice: bool = False,
          bots: Iterable[str] = (), workers: bool = False) -> tuple[str, ...] | None:
    """The measured command forms (``commands`` of
    :func:`compile_figures`) whose kernels the command compiles, or None
    when its estimate is the groups' (:func:`needs`).  Options as for
    :func:`needs`; ``workers``: a run of several games or reviews on worker
    processes, which compiles whole groups first (:func:`warmup`).  A game
    is one form per family of its bots (random; heuristic; every bot that
    values actions: one game of ``rival``, or of ``greedy`` in Camel Up
    Cards).  A human at the table with such a bot: the measured opening of
    a game at the table (``play``: the set-up or deck building, the bots'
    turns until the human's, the odds and the advice asked; a long game
    compiles a little more later, as it reaches rarer positions, and the
    closing line says the whole); with other bots only, their games and
    the advice (``best``)."""
    prefix = "cards-" if cards else ""
    if command == "warmup" or workers:
        return None
    if command in _GAMES:
        chosen = [_bot_form(bot, cards) for bot in bots]
        if command == "play" and "human" in bots:
            if prefix + "game-valuing" in chosen:  # the opening of a game at the table, measured whole
                return (prefix + "play",)
            chosen.append(prefix + "best")
        return tuple(dict.fromkeys(f for f in chosen if f))
    if command == "odds":
        if samples and not cards:  # sampled legs and races; sampled legs alone: the groups
            return ("odds-samples",) if race else None
        return (prefix + ("odds" if race else "odds-leg"),)
    if command in ("best", "show"):
        return (prefix + command,)
    if command in ("chart", "review") and not cards:
        return (command,)
    if command == "batch" and not cards:
        return ("batch-advice" if advice else "batch-race" if race else "batch",)
    return None


def form_kernels(names: Iterable[str]) -> dict[str, float] | None:
    """Processor seconds each kernel's own compilation took in the forms
    ``names`` from an empty cache; None when a form was not measured.  A
    kernel of several forms counts at its figure in the largest of them
    (the most processor seconds): a kernel's own share depends on which of
    its callees compiled before it, inside another kernel, and the largest
    form compiled most of them.  Measured on the unions the commands take
    (``game-mixed``, ``opening-mixed`` of ``benchmarks/bench_compile.py``)
    this is within 2%; each kernel at its largest figure counted callees
    twice (+10%, +14%)."""
    measured = compile_figures().get("commands", {})
    if any(name not in measured for name in names):
        return None
    figures = sorted((measured[name]["kernels"] for name in dict.fromkeys(names)),
                     key=lambda kernels: -sum(kernels.values()))  # stable: equal totals in the order named
    out: dict[str, float] = {}
    for kernels in figures:
        for kernel, seconds in kernels.items():
            out.setdefault(kernel, float(seconds))
    return out


def form_seconds(names: Iterable[str], cached: Callable[[str], bool] | None = None) -> float | None:
    """Processor seconds the forms ``names`` compile from this cache: the
    measured seconds of their kernels whose machine code the cache lacks
    (``cached(kernel)``, default: :func:`advisor.kernels._jit.is_cached`;
    a kernel it cannot tell counts as missing); None when a form was not
    measured.  Numba's own functions (``numba.``...), compiled inside
    the kernels' compilations and never cached, count in the share of the
    kernels' seconds left to compile."""
    figures = form_kernels(names)
    if figures is None:
        return None
    if cached is None:
        cached = _in_cache()
    ours = {kernel: seconds for kernel, seconds in figures.items() if not kernel.startswith("numba.")}
    left = sum(seconds for kernel, seconds in ours.items() if not cached(kernel))
    numba_own = sum(figures.values()) - sum(ours.values())
    return left + (numba_own * left / sum(ours.values()) if left else 0.0)


def _in_cache() -> Callable[[str], bool]:
    """Whether the cache holds a kernel's machine code, by name (a kernel
    no longer in :mod:`advisor.kernels`, or one whose cache cannot be
    inspected, counts as missing)."""
    from advisor.kernels._jit import is_cached

    found = kernels()
    return lambda kernel: kernel in found and is_cached(found[kernel]) is True


# ---------------------------------------------------------------- the split compile
#: One half of a split compile (:func:`compile_halves`): the groups named on
#: its command line compiled in the cache folder its ``CAMELUP_CACHE_DIR``
#: names; it prints that folder.  It leaves Ctrl-C to its parent and ends
#: when the parent is gone (:func:`advisor._tools.workers.worker_init`).
_HALF_SCRIPT = ("import sys; from advisor._tools.workers import worker_init; worker_init(); "
                "from advisor.warm import warmup; warmup(groups=sys.argv[1:]); "
                "from advisor.kernels._jit import CACHE_DIR; print(CACHE_DIR)")

#: Processor seconds a half spends before it compiles (starting Python,
#: importing numba and the package: 0.4 CPU-s measured, with the start).
_HALF_START = 1.0

#: A split compile is used when its longer half is at most this share of
#: compiling the command's kernels in one process.
_SPLIT_GAIN = 0.8


def _family(name: str) -> str:
    return "cards" if name.startswith("cards_") else "board"


def half_seconds(names: Iterable[str]) -> float:
    """Processor seconds compiling the groups ``names`` alone takes, from
    the measured figures: a group's figure is what it adds to the groups
    before it in :data:`GROUPS`, and compiled alone it also compiles the
    callees those groups compiled.  So a half counts every group of its
    family (the board's, Camel Up Cards') up to its last one: an upper
    bound (board ``race`` alone measured 25.7 CPU-s against 22.2 counted
    and 10.8 its own figure, on a machine at load 6-9, 2026-11-27).  Where
    each group of the half was also measured alone (``groups_alone``,
    ``benchmarks/bench_compile.py --alone``), their sum is a bound too
    (callees two of them share counted twice; a group whose every kernel
    another of the half compiled alone, its ``covers``, adds nothing): the
    smaller is taken; a half measured as such (``a+b``) counts its own
    figure."""
    chosen = set(names)
    total = 0.0
    for family in ("board", "cards"):
        order = [g.name for g in GROUPS if _family(g.name) == family]
        last = max((i for i, n in enumerate(order) if n in chosen), default=-1)
        total += _group_seconds(order[:last + 1])
    alone = compile_figures().get("groups_alone", {})
    together = "+".join(g.name for g in GROUPS if g.name in chosen)
    if len(chosen) > 1 and together in alone:  # this very half measured
        return min(total, float(alone[together]["cpu_s"]))
    if chosen and all(n in alone for n in chosen):
        kept: list[str] = []
        for n in sorted(chosen, key=lambda n: -float(alone[n]["cpu_s"])):
            if not any(n in alone[k].get("covers", ()) for k in kept):
                kept.append(n)
        total = min(total, sum(float(alone[n]["cpu_s"]) for n in kept))
    return total


def halves(names: Iterable[str]) -> list[list[str]]:
    """The groups ``names`` split into two halves of about equal compile
    seconds (:func:`half_seconds`; the split with the smallest longer
    half, each half in :data:`GROUPS` order, so a group compiles after
    those it builds on); one half when there are fewer than two groups.
    A callee both halves need compiles in both: that is the price."""
    names = [g.name for g in _groups(names)]
    if len(names) < 2:
        return [names]
    best, best_cost = None, None
    for mask in range(1, 2 ** (len(names) - 1)):  # the first group stays in the second half: no mirror twice
        first = [n for i, n in enumerate(names) if mask >> i & 1]
        second = [n for n in names if n not in first]
        cost = max(half_seconds(first), half_seconds(second))
        if best_cost is None or cost < best_cost:
            best, best_cost = [first, second], cost
    return sorted(best, key=lambda half: names.index(half[0]))


def split_compile(parts: list[list[str]], *, notice: "advisor.compiling.CompileNotice | None" = None) -> dict:
    """Compile the kernel groups ``parts`` (two halves, :func:`halves` or
    :func:`split_plan`) in two processes at once
    (:func:`advisor._tools.numbacache.compile_halves`), each in a temporary cache
    folder, then merge both into this process's kernel cache
    (:func:`advisor._tools.numbacache.merge_cache`).  A half that fails
    costs time only: what is still missing compiles when called.
    ``notice``: shown while the halves compile, with their estimate.
    Returns a report: the halves, the failures, the seconds."""
    import shutil
    import tempfile

    from advisor.kernels._jit import CACHE_DIR

    start = time.perf_counter()
    folder = Path(tempfile.mkdtemp(prefix="camelup-split-"))
    if notice is not None:
        notice.seconds = split_estimate(parts)
        notice.started("split compile")
    try:
        folders, failed = compile_halves(parts, folder, _HALF_SCRIPT)
        for part in folders:
            merge_cache(part, Path(CACHE_DIR))
    finally:
        if notice is not None:
            notice.finished("split compile")
        shutil.rmtree(folder, ignore_errors=True)
    return {"halves": parts, "failed": failed, "seconds": round(time.perf_counter() - start, 1)}


def split_share() -> float:
    """The share of one core each of two compiling processes gets on this
    machine now: half the idle cores (:func:`free_cores`, measured now, not
    the 1-minute load average, which still counts a command just ended),
    at most a whole core each."""
    return max(0.05, min(1.0, free_cores() / 2))


def split_estimate(parts: list[list[str]], share: float | None = None) -> float:
    """Seconds a split compile of ``parts`` takes on this machine now:
    its longer half's measured seconds (and its start), over the share of a
    core each half gets (:func:`split_share`, or ``share``)."""
    longest = max((half_seconds(part) for part in parts), default=0.0)
    return (longest + _HALF_START) / (split_share() if share is None else share)


def _cpu_times() -> tuple[int, int] | None:
    """The system's (idle, total) processor time so far, in clock ticks,
    summed over its processors (``/proc/stat``); None where there is none."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    if len(fields) < 5:
        return None
    return fields[3] + fields[4], sum(fields[:8])  # idle + iowait; user..steal


def free_cores(probe: float = 0.25) -> float:
    """How many of the usable cores are idle now: the system's idle share
    over ``probe`` seconds (``/proc/stat``) times its cores, at most the
    usable ones.  Where the system has no such counters, the usable cores
    less the 1-minute load average (which still counts, for a minute, a
    command that just ended: one run after another never split), or all of
    them without a load average either."""
    import os

    before = _cpu_times()
    if before is not None:
        time.sleep(probe)
        after = _cpu_times()
        if after is not None and after[1] > before[1]:
            idle = (after[0] - before[0]) / (after[1] - before[1])
            return min(float(usable_cores()), idle * (os.cpu_count() or 1))
    try:
        return usable_cores() - os.getloadavg()[0]
    except (AttributeError, OSError):
        return float(usable_cores())


def _jit_enabled() -> bool:
    import numba

    return not numba.config.DISABLE_JIT


def split_plan(groups: Iterable[str], forms: Iterable[str] | None = None) -> list[list[str]] | None:
    """The halves to compile the cold ones of ``groups`` in (:func:`halves`),
    or None when one process is as good: fewer than two usable cores, the
    JIT disabled, no idle core (:func:`free_cores`: on a busy machine a
    second process gained nothing and cost its share of duplicated
    callees: ``camelup warmup`` took 392 s split against 349 s in one
    process at load 6-8 on 2 cores, 2026-11-27), fewer than two cold
    groups, or a longer half that would
    compile nearly as long as the command's own kernels (``forms``,
    :func:`form_seconds`; else the groups) in one process.  The cache is
    looked at only when a split pays with every group cold (a command whose
    groups never split pays nothing on a warm start, and one that compiles
    nothing, such as ``serve``, loads no numba), and the idle cores only
    when a split is due (their probe takes a quarter second)."""
    if usable_cores() < 2:
        return None
    groups, forms = tuple(groups), None if forms is None else tuple(forms)

    def worth(names: list[str], cached=None) -> list[list[str]] | None:
        if len(names) < 2:
            return None
        parts = halves(names)
        alone = form_seconds(forms, cached) if forms is not None else None
        if alone is None:
            alone = _group_seconds(names)
        if len(parts) < 2 or max(half_seconds(p) for p in parts) + _HALF_START > _SPLIT_GAIN * alone:
            return None
        return parts

    if worth(list(groups), cached=lambda kernel: False) is None or not _jit_enabled():  # numba loaded after
        return None
    parts = worth(cold_groups(groups))
    if parts is None or free_cores() < 1:
        return None
    return parts


def compile_first(notice: "advisor.compiling.CompileNotice") -> dict | None:
    """Before a command runs: when the kernels it needs (``notice``'s
    groups and forms) are cold and two processes compile them sooner
    (:func:`split_plan`), compile them so (:func:`split_compile`); the
    command then loads them from the cache.  None when nothing was split."""
    parts = split_plan(notice.groups, notice.forms)
    if parts is None:
        return None
    return split_compile(parts, notice=notice)
