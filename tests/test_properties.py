"""Property-based tests: random and mutated input never escapes as anything
but the documented error type.

* the board parser and the Camel Up Cards parser: only ``PositionError``
  (and what they accept round-trips through its canonical string);
* game-state JSON (objects and text): only ``StateError``; what is accepted
  round-trips and has legal actions;
* batch rows (``analyse``, ``run_batch`` on small files): bad rows become
  rows with an ``error``; nothing raises but ``AdvisorError``;
* every command through ``cli.main(argv)`` with argv built from valid pieces
  and mutations of them: exit 0 (or 1 for a batch with failed rows), or exit
  2 with exactly one line on stderr; never an exception.

Inputs are mutated the way users and files get them wrong: characters
inserted, deleted or replaced (among them Unicode digits, superscripts,
full-width letters, non-breaking spaces), tokens dropped, doubled or
swapped, numbers replaced by huge ones.  Examples are derandomized (the same
on every run, no example database) and bounded, and the commands run are
cheap ones (--leg-only, tiny sample counts, one-game runs of cheap bots), so
the module takes well under a minute.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import string
import sys

import pytest

pytest.importorskip("hypothesis")

from hypothesis import HealthCheck, example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from advisor.errors import AdvisorError, PositionError  # noqa: E402

PROFILE = settings(derandomize=True, database=None, deadline=None, print_blob=True,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                          HealthCheck.data_too_large])


def profile(examples: int):
    return settings(PROFILE, max_examples=examples)


# --------------------------------------------------------------------------
# Mutations
# --------------------------------------------------------------------------
ODD_CHARS = ["\u00b2", "\u00b3", "\u0661", "\u0665", "\u06f3", "\u0967", "\uff11", "\uff22", "\u00a0", "\u2003",
             "\t", "\n", "\x00", "\u200b", "\u00e9", "\U0001d7d9", "\u2155", "-", "+", ":", "@", ",", "_", "."]
ALPHABET = st.sampled_from(list(string.ascii_letters + string.digits + " :+-@,") + ODD_CHARS)
HUGE_NUMBERS = st.sampled_from(["9" * 5000, "1" * 4301, "0" * 40 + "3", "99999999999", "-1", "18446744073709551616",
                                "1" * 20, "00", "1e9", "1.5", "\u00b2", "\u0661\u0662"])


@st.composite
def mutated(draw, base: str) -> str:
    """``base`` with a few random edits."""
    text = base
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["insert", "delete", "replace", "number", "token-drop", "token-dup",
                                     "token-swap", "token-add"]))
        tokens = text.split(" ")
        if kind in ("insert", "replace", "delete") or not tokens:
            i = draw(st.integers(0, max(0, len(text))))
            if kind == "insert":
                text = text[:i] + draw(ALPHABET) + text[i:]
            elif kind == "replace" and text:
                i = min(i, len(text) - 1)
                text = text[:i] + draw(ALPHABET) + text[i + 1:]
            elif text:
                text = text[:i] + text[i + 1:]
        elif kind == "number":
            numbers = list(re.finditer(r"[0-9]+", text))
            if numbers:
                m = draw(st.sampled_from(numbers))
                text = text[:m.start()] + draw(HUGE_NUMBERS) + text[m.end():]
        elif kind == "token-drop" and tokens:
            del tokens[draw(st.integers(0, len(tokens) - 1))]
            text = " ".join(tokens)
        elif kind == "token-dup" and tokens:
            tokens.append(draw(st.sampled_from(tokens)))
            text = " ".join(tokens)
        elif kind == "token-swap" and len(tokens) > 1:
            i, j = draw(st.integers(0, len(tokens) - 1)), draw(st.integers(0, len(tokens) - 1))
            tokens[i], tokens[j] = tokens[j], tokens[i]
            text = " ".join(tokens)
        else:
            tokens.append(draw(st.sampled_from(TOKENS)) + draw(st.sampled_from(["", "x", "1", "\u00b2"])))
            text = " ".join(tokens)
    return text


TOKENS = ["first", "second", "cards", "dice:", "legtiles:", "1:", "16:", "17:", "0:", "+5", "-8@1", "+2@9",
          "players:", "deck:", "decksize:", "known:", "out:", "revealed:", "hand:", "palm:", "fennec:", "track:",
          "mid:", "winners:", "losers:", "bets:", "money:"]

BOARDS = [
    "1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx",
    "1:B 2:G 3:P 4:R 5:Y 14:wk legtiles:B322,G,Y2",
    "3:B 5:G 7:P 9:R 11:Y 13:w 16:k +2@0 -15@3",
    "16:BGPRYwk -2 +14",
    "first 1:B 2:YG 3:OW +6 dice:BGO",
    "first 16:WYOGB +8@0 -14@1 legtiles:O,W2",
    "1:BGPRY 14:w 15:k dice:Bx",
]
CARDS = [
    "cards 0:BGOWY",
    "cards players:3 1:B 2:GO 4:WY palm:5@1 deck:7 known:B1G2 out:O1 hand:W1",
    "cards 2:BG 3:OWY fennec:6 legtiles:B32,G2 mid:GOWY bets:B5,mB money:5",
    "cards players:2 track:nnnnnnnh 0:YWOGB revealed:B1B1 winners:BGO losers:WY bets:wY,lW decksize:10 deck:8",
]


def board_texts():
    return st.one_of(st.sampled_from(BOARDS), st.sampled_from(BOARDS).flatmap(mutated),
                     st.text(ALPHABET, max_size=40))


def cards_texts():
    return st.one_of(st.sampled_from(CARDS), st.sampled_from(CARDS).flatmap(mutated),
                     st.text(ALPHABET, max_size=40).map(lambda t: "cards " + t))


# --------------------------------------------------------------------------
# Parsers
# --------------------------------------------------------------------------
@profile(300)
@given(board_texts())
def test_board_parser_raises_only_position_error(text):
    from advisor.notation import format_position, parse_position

    try:
        position = parse_position(text)
    except PositionError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 400
        return
    assert text.isascii()  # the notation is ASCII
    assert parse_position(format_position(position)) == position


@profile(300)
@given(cards_texts())
def test_cards_parser_raises_only_position_error(text):
    from advisor.cards import parse_cards

    try:
        position = parse_cards(text)
    except PositionError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 400
        return
    assert text.isascii()
    assert parse_cards(str(position)) == position


# --------------------------------------------------------------------------
# Game-state JSON
# --------------------------------------------------------------------------
STATES = [
    {"board": "1:B 2:YG 3:PR 14:w 15:k +5@1 dice:GPRx legtiles:B322",
     "players": [{"money": 3, "leg_tiles": ["B5"], "pyramid_tiles": 1, "overall_cards": "GPRY", "partner": None},
                 {"money": 4}, {"money": 2}, {"money": 3}],
     "to_move": 0, "winner_pile": [{"player": 2}, {"player": 0, "colour": "B"}], "loser_pile": [],
     "pile_model": {"winner": {"B": 0.2, "G": 0.2, "P": 0.2, "R": 0.2, "Y": 0.2}}},
    {"board": "first 1:BG 2:OY 3:W", "players": 2},
    {"board": "1:B 2:YG 3:PR 14:w 15:k", "players": [{"partner": 1}, {"partner": 0}, {}, {}, {}, {}],
     "to_move": 3, "loser_pile": [{"player": 5}, {"player": 1, "colour": "G"}]},
]

JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-10, 10), st.sampled_from([10**23, -10**23, 10**400, 2**63]),
              st.floats(allow_nan=True, allow_infinity=True), st.text(ALPHABET, max_size=8),
              st.sampled_from(["B5", "GPRY", "x", "\u00b2", "B\u00b2"])),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(ALPHABET, max_size=6), inner,
                                                                         max_size=3)),
    max_leaves=10)


def _paths(obj, prefix=()):
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, prefix + (i,))


@st.composite
def mutated_states(draw):
    state = json.loads(json.dumps(draw(st.sampled_from(STATES))))
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(state) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = state
        for key in path[:-1]:
            parent = parent[key]
        action = draw(st.sampled_from(["replace", "delete", "add"]))
        if action == "delete" and isinstance(parent, dict):
            parent.pop(path[-1], None)
        elif action == "add" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["money", "x", "players", "colour", "partner", "B"]))] = draw(JSON_VALUES)
        elif action == "add" and isinstance(parent, list):
            parent.append(draw(JSON_VALUES))
        else:
            parent[path[-1]] = draw(st.one_of(JSON_VALUES, st.sampled_from(BOARDS).flatmap(mutated)))
    return state


@profile(300)
@given(st.one_of(mutated_states(), JSON_VALUES))
def test_state_objects_raise_only_state_error(data):
    from advisor.valuation.engine import legal_actions
    from advisor.rules.state import GameState, StateError

    try:
        state = GameState.from_json(data)
    except StateError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 500
        return
    again = GameState.from_json(state.to_json())
    assert again.to_json() == state.to_json()
    try:
        actions = legal_actions(state)
    except StateError as exc:  # the advised player's hand is unknown: asked for by name
        assert "overall_cards" in str(exc)
        return
    assert "pyramid" in actions or not state.position.dice


@profile(200)
@given(st.one_of(mutated_states().map(json.dumps).flatmap(mutated), st.text(ALPHABET, max_size=30),
                 st.sampled_from(["[" * 5000 + "]" * 5000, '{"board": ' * 3000, "1" * 5000, "NaN", "{}"])))
def test_state_text_raises_only_state_error(text):
    from advisor.rules.state import GameState, StateError

    try:
        GameState.from_json(text)
    except StateError as exc:
        assert "\n" not in str(exc)


# --------------------------------------------------------------------------
# Batch rows
# --------------------------------------------------------------------------
@profile(60)
@given(st.lists(st.one_of(board_texts(), mutated_states(), st.none(), st.integers()), min_size=1, max_size=6))
@example(["1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx", "1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx cards"])
def test_analyse_never_raises_on_bad_rows(rows):
    """Bad rows become rows with an error; the one refusal of the whole
    batch is a mix of games (a row with the token ``cards`` is a Camel Up
    Cards position, and one batch analyses one game): one line saying so."""
    from advisor.batch.positions import analyse
    from advisor.cards.position import is_cards
    from advisor.errors import AdvisorError

    kinds = {is_cards(row) for row in rows if isinstance(row, str) and row}
    if len(kinds) == 2:
        with pytest.raises(AdvisorError, match="mix Camel Up Cards positions") as info:
            analyse(rows)
        assert "\n" not in str(info.value)
        return
    frame = analyse(rows)
    assert len(frame) == len(rows)
    for i, row in enumerate(rows):
        error = frame.at[i, "error"]
        if error:
            assert "\n" not in error


@profile(40)
@given(st.lists(st.one_of(board_texts(), mutated_states().map(json.dumps), st.text(ALPHABET, max_size=20)),
                min_size=1, max_size=5),
       st.sampled_from([".txt", ".jsonl", ".csv"]), st.booleans())
@example(["1:B 2:YG 3:PR 14:w 15:k +5@\u00b2", "9" * 5000 + ":B 2:YG 3:PR 14:w 15:k", "\u0661:B 2:YG 3:PR 14:w 15:k"],
         ".txt", False)
@example([json.dumps({"board": "1:B 2:YG 3:PR 14:w 15:k", "players": [{"money": 10**23}] * 4}),
          "[" * 5000 + "]" * 5000], ".jsonl", True)
def test_run_batch_on_small_files(tmp_path_factory, lines, suffix, advice):
    from advisor.batch.positions import run_batch

    folder = tmp_path_factory.mktemp("batch")
    src = folder / f"in{suffix}"
    if suffix == ".csv":
        text = "position\n" + "\n".join('"' + line.replace('"', '""') + '"' for line in lines) + "\n"
    elif suffix == ".jsonl":
        text = "\n".join(line if line.startswith("{") else json.dumps({"position": line}) for line in lines) + "\n"
    else:
        text = "\n".join(lines) + "\n"
    src.write_text(text, encoding="utf-8")
    try:
        rows, failed = run_batch(src, folder / "out.jsonl", advice=advice, precision=0.5, progress=False)
    except AdvisorError as exc:
        assert "\n" not in str(exc)
        return
    assert 0 <= failed <= rows


# --------------------------------------------------------------------------
# Every command
# --------------------------------------------------------------------------
VALUES = {
    "--samples": ["64", "0", "-5", "x", "\u00b2", "1" * 30, "1_000"],
    "--precision": ["0.5", "0", "2", "nan", "inf", "\u0660.\u0665", "1e-9", ".5"],
    "--seed": ["1", "-1", str(2**63), "\u0661", "9" * 5000],
    "--threads": ["1", "0", "x"],
    "--player": ["0", "1", "9", "-1", "x"],
    "--players": ["3", "4", "0", "99999999999", "x"],
    "--games": ["1", "2", "0", "100000000000", "\u00b2"],
    "--processes": ["1", "0"],
    "--edition": ["second", "first", "third", "cards"],
    "--bots": ["random,random,random", "random,heuristic,random,random", "random", "robot,random,random",
               ",,,", "random,random,random,random,random,random,random,random,random"],
    "--others": ["random", "reveal", "x"],
    "--game": ["0", "1", "5", "-1"],
    "--chunk": ["1", "0", "5"],
    "--engine": ["local", "dask", "x"],
    "--seats": ["human,random,random", "random,random,random", "human", "robot,random,random", "human,human,random"],
}
FLAGS = ["--json", "--leg-only", "--no-denial", "--resume", "--race", "--advice", "--moves", "--help", "--bogus"]
OPTIONS = {
    "odds": ["--samples", "--precision", "--seed", "--threads", "--others"],
    "best": ["--player", "--players", "--seed", "--threads", "--others"],
    "simulate": ["--players", "--bots", "--games", "--edition", "--seed", "--processes"],
    "tournament": ["--players", "--bots", "--games", "--edition", "--seed", "--processes"],
    "batch": ["--seed", "--chunk", "--engine", "--precision"],
    "chart": ["--game", "--precision"],
    "show": [],
    "play": ["--seats", "--edition", "--seed"],
    "warmup": [],
}


@st.composite
def argvs(draw, files):
    command = draw(st.sampled_from(list(OPTIONS) + ["fly", ""]))
    argv = [command] if command else []
    options = OPTIONS.get(command, [])
    for option in draw(st.lists(st.sampled_from(options), max_size=3, unique=True)) if options else []:
        argv += [option, draw(st.sampled_from(VALUES[option]).flatmap(
            lambda v: st.one_of(st.just(v), mutated(v) if v else st.just(v))))]
    argv += draw(st.lists(st.sampled_from(FLAGS), max_size=2, unique=True))
    if command in ("odds", "best", "show"):
        pieces = draw(st.one_of(st.just([]), board_texts().map(lambda t: [t]), st.just([BOARDS[0] + " " + "9" * 5000]),
                                board_texts().map(lambda t: t.split(" ")),
                                cards_texts().map(lambda t: [t]), st.sampled_from(files["states"])))
        argv += pieces
    if command in ("simulate", "tournament", "show", "chart", "batch"):
        if draw(st.booleans()) or command in ("show", "chart", "batch", "simulate"):
            argv += ["-o", draw(st.sampled_from(files["outputs"]))]
    if command == "chart":
        argv.append(draw(st.sampled_from(files["records"])))
    if command == "batch":
        argv.append(draw(st.sampled_from(files["inputs"])))
    if command == "best" and draw(st.booleans()):
        argv += ["--chart", draw(st.sampled_from(files["outputs"]))]
    return _cheap(argv)


def _cheap(argv: list[str]) -> list[str]:
    """Keep every run cheap: leg odds only, loose race odds, tiny runs of
    cheap bots in this process, no Camel Up Cards advice (seconds each)."""
    if not argv:
        return argv
    command = argv[0]
    if command == "odds":
        argv += ["--leg-only"]
        if "--samples" in argv:
            argv[argv.index("--samples") + 1] = "64"
    if command == "best":
        argv = [a for a in argv if "cards" not in a.split()] + ["--precision", "0.5", "--no-denial"]
    if command in ("simulate", "tournament"):
        argv += ["--processes", "1"]
        if "--bots" not in argv:
            argv += ["--bots", "random,random,random,random"]
        argv = [a if not a.startswith("advisor") else "random" for a in argv]
        if "--games" not in argv:
            argv += ["--games", "2"]
        i = argv.index("--games") + 1
        if i < len(argv) and argv[i].isascii() and argv[i].isdigit() and len(argv[i]) < 9 and int(argv[i]) > 2:
            argv[i] = "2"
    if command == "chart":
        argv += ["--precision", "0.5"]
    if command == "batch":
        argv += ["--precision", "0.5"]
        if "--engine" in argv:  # a Dask cluster is the distributed tests' business
            argv[argv.index("--engine") + 1] = "x"
    if command == "play":
        argv = [a.replace("advisor", "random") for a in argv]
    if command == "warmup":
        argv.append("--bogus")  # compiling every kernel is the warmup tests' business
    return argv


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    from advisor.game import write_records

    d = tmp_path_factory.mktemp("cli")
    (d / "ok.json").write_text(json.dumps(STATES[0]))
    (d / "bad.json").write_text('{"board": "1:B", "players": 99999999999}')
    (d / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (d / "binary.json").write_bytes(b"\x89PNG\x00\xff\xfe")
    game = _short_game()
    write_records([game], d / "g.jsonl")
    (d / "five.jsonl").write_text("5\n")
    (d / "short.jsonl").write_text("\n".join(json.dumps(e) for e in game[:4]) + "\n")
    (d / "binary.jsonl").write_bytes(b"\x89PNG\x00\xff\xfe\n")
    (d / "in.txt").write_text("1:B 2:YG 3:PR 14:w 15:k\n\u00b2:B\n" + "9" * 5000 + ":B\n")
    (d / "in.csv").write_text("position,x\n1:B 2:YG 3:PR 14:w 15:k,1\nbad,2\n")
    (d / "in.jsonl").write_text(json.dumps(STATES[0]) + "\n" + json.dumps({"board": "x", "players": 10**30}) + "\n"
                                + "[" * 5000 + "]" * 5000 + "\n5\n")
    (d / "folder.png").mkdir()
    out = {
        "states": [[str(d / "ok.json")], [str(d / "bad.json")], [str(d / "deep.json")], [str(d / "binary.json")],
                   [str(d / "missing.json")]],
        "records": [str(d / n) for n in ("g.jsonl", "five.jsonl", "short.jsonl", "binary.jsonl", "missing.jsonl")],
        "inputs": [str(d / n) for n in ("in.txt", "in.csv", "in.jsonl", "missing.txt", "g.jsonl")],
        "outputs": [str(d / n) for n in ("o.png", "o.svg", "o.jsonl", "o.csv", "o.bmp", "folder.png")]
                   + ["/nonexistent/o.png", "/nonexistent/o.jsonl", str(d / "in.csv"), str(d / ("o" * 300 + ".png")),
                      str(d / ("o" * 250 + ".jsonl")), str(d / "o\x00.png"), "/dev/null", ""],
    }
    for key in ("records", "inputs"):
        out[key] += [str(d / ("x" * 300 + ".jsonl")), str(d / "x\x00.jsonl"), str(d)]
    out["states"] += [["s" * 300 + ".json"], ["s\x00.json"], ["s" * 300]]
    return out


def _short_game():
    """A whole game of a few turns (charting it is cheap): the camels start
    next to the finish."""
    import numpy as np

    from advisor.bots.policies import make_bot
    from advisor.game import Game

    game = Game("second", 3, seed=2, start=0, position="13:w 14:k 15:BGPRY")
    bot, rng = make_bot("random"), np.random.default_rng(2)
    while not game.finished:
        game.apply(bot.choose(game.view(game.to_move), game.to_move, rng))
    return game.record


@profile(150)
@given(data=st.data())
def test_every_command_exits_cleanly(files, data):
    from advisor.cli.command import main

    argv = data.draw(argvs(files))
    stdout, stderr = io.StringIO(), io.StringIO()
    stdin = io.StringIO("quit\n")
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr), _stdin(stdin):
        code = main(argv)
    err = stderr.getvalue()
    lines = [line for line in err.splitlines() if line.strip()]
    if code == 2:
        assert len(lines) == 1, (argv, err)
        assert "Traceback" not in err
    else:
        assert code in (0, 1), (argv, code, err)
        assert "Traceback" not in err
    if code == 0 and "--json" in argv and "--help" not in argv:
        json.loads(stdout.getvalue(), parse_constant=_no_constant)


@contextlib.contextmanager
def _stdin(stream):
    old = sys.stdin
    sys.stdin = stream
    try:
        yield
    finally:
        sys.stdin = old


def _no_constant(name):
    raise AssertionError(f"{name} in JSON output")


def test_mutations_reach_the_hard_cases():
    """The strategies do produce the inputs this module is about."""
    from hypothesis import find

    find(board_texts(), lambda t: "\u00b2" in t or "\u0661" in t, settings=PROFILE)
    find(board_texts(), lambda t: len(t) > 4300, settings=PROFILE)
    find(mutated_states(), lambda s: any(isinstance(v, int) and not isinstance(v, bool) and abs(v) > 10**20
                                         for v in _leaves(s)), settings=PROFILE)


def _leaves(obj):
    if isinstance(obj, dict):
        for v in obj.values():
            yield from _leaves(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _leaves(v)
    else:
        yield obj

