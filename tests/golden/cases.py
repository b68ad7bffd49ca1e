"""The golden command outputs: a fixed set of ``camelup`` commands whose
exact output is kept in ``tests/golden/outputs/``.

Each case is ``(name, argv, files)``: the command line (``{inputs}`` is
``tests/golden/inputs``, ``{out}`` a fresh folder for the files the command
writes) and the names of the files it writes there, which are kept beside
its stdout (``NAME.stdout``, ``NAME.FILE``).  Every random figure has a
seed and race odds a coarse precision, so the whole set runs in well under a
minute once the kernels are compiled.

The outputs are regenerated only on purpose, by
``python tests/golden/make_outputs.py``; ``tests/test_golden_outputs.py``
runs every case through :func:`advisor.cli.command.main` and compares byte for
byte.  The one difference allowed is the ``schema`` key (the version of a
JSON output's layout), which the comparison removes from both sides.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
INPUTS = HERE / "inputs"
OUTPUTS = HERE / "outputs"

EXAMPLE = "1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx"
#: the race must end in this leg (every racing camel on 16): exact race odds
ENDS_NOW = "16:BGPRY 8:wk dice:Bx"
#: the white crazy camel carries B and G on space 1: the grey die can take
#: them below the track (ranked behind everything) and end the race
BELOW = "1:wBG 2:PRY 12:k +4 -6 dice:xB"
#: a booing tile under a stack and a cheering one for the crazy camel
TILES = "3:B 4:G 6:PR 8:Y 11:k 13:w -5 +9 -12 dice:BGYx legtiles:B2,Y"
FIRST = "first 1:BG 2:OW 3:Y"
FIRST_MID = "first 3:BG 4:O 6:YW +5 -8 dice:BOW legtiles:B2"
CARDS = "cards 0:BG 2:OW 3:Y deck:4 known:B1G2"
CARDS_BEST = "cards 0:BG 2:OW 3:Y deck:4 known:B1G2 hand:O1 legtiles:B322 bets:B5 money:2"
CARDS_END = "cards track:nnnnnnnh 0:B 12:G 13:OW 14:Y deck:2 known:Y1 hand:G1 palm:9"
#: the other players in this leg, exact: a 2-card deck, player 1's hand card known, player 2's unseen
CARDS_HANDS = "cards players:3 0:BG 2:OW 3:Y deck:2 known:B1 palm:6@1 hands:G1? next:1"

RACE = ["--precision", "0.05", "--threads", "1"]

CASES: list[tuple[str, list[str], list[str]]] = [
    # odds: text and JSON, both editions, rule edges
    ("odds_example", ["odds", EXAMPLE, "--seed", "1", *RACE], []),
    ("odds_example_json", ["odds", EXAMPLE, "--json", "--seed", "1", *RACE], []),
    ("odds_default", ["odds", "--leg-only"], []),
    ("odds_ends_now", ["odds", ENDS_NOW, "--seed", "2", *RACE], []),
    ("odds_ends_now_json", ["odds", ENDS_NOW, "--json", "--seed", "2", *RACE], []),
    ("odds_below", ["odds", BELOW, "--json", "--seed", "3", *RACE], []),
    ("odds_tiles", ["odds", TILES, "--seed", "4", *RACE], []),
    ("odds_leg_only_json", ["odds", TILES, "--json", "--leg-only"], []),
    ("odds_samples", ["odds", EXAMPLE, "--samples", "2000", "--seed", "5", "--threads", "1"], []),
    ("odds_samples_json", ["odds", BELOW, "--json", "--samples", "640", "--seed", "6", "--threads", "1"], []),
    ("odds_first", ["odds", FIRST, "--seed", "7", *RACE], []),
    ("odds_first_json", ["odds", FIRST_MID, "--json", "--seed", "8", *RACE], []),
    # best: bare boards and game states
    ("best_example", ["best", EXAMPLE, "--seed", "1", "--objective", "ev", *RACE], []),
    ("best_example_json", ["best", EXAMPLE, "--json", "--seed", "1", "--objective", "ev", *RACE], []),
    ("best_tiles_json", ["best", TILES, "--json", "--seed", "2", "--players", "3", "--player", "1", "--objective", "ev",
                         *RACE], []),
    ("best_first_json", ["best", FIRST_MID, "--json", "--seed", "3", "--no-denial", "--objective", "ev", *RACE], []),
    ("best_ends_now", ["best", ENDS_NOW, "--seed", "4", "--objective", "ev", *RACE], []),
    ("best_partnership", ["best", "{inputs}/partnership.json", "--seed", "5", "--objective", "ev", *RACE], []),
    ("best_partnership_json", ["best", "{inputs}/partnership.json", "--json", "--seed", "5", "--objective", "ev",
                               *RACE], []),
    ("best_hidden_json", ["best", "{inputs}/hidden.json", "--json", "--seed", "6", "--objective", "ev", *RACE], []),
    ("best_broke", ["best", "{inputs}/broke.json", "--seed", "7", "--objective", "ev", *RACE], []),
    ("best_broke_json", ["best", "{inputs}/broke.json", "--json", "--seed", "7", "--objective", "ev", *RACE], []),
    ("best_first_state_json", ["best", "{inputs}/first.json", "--json", "--seed", "8", "--objective", "ev", *RACE], []),
    # best ranked by the chance of winning the game (the default objective): text and JSON, both editions
    ("best_win_example", ["best", EXAMPLE, "--seed", "1", *RACE], []),
    ("best_win_state_json", ["best", "{inputs}/first.json", "--json", "--seed", "8", *RACE], []),
    ("best_win_broke", ["best", "{inputs}/broke.json", "--seed", "7", *RACE], []),
    # batch: CSV and JSON lines, race odds, advice, every move; ranked by EV (--objective ev: the best
    # actions and EVs the batch gave before the objective, with the chances of winning beside them)
    ("batch_csv", ["batch", "{inputs}/batch.jsonl", "-o", "{out}/rows.csv", "--race", "--advice",
                   "--precision", "0.05", "--seed", "9", "--objective", "ev"], ["rows.csv"]),
    ("batch_moves_jsonl", ["batch", "{inputs}/batch.jsonl", "-o", "{out}/moves.jsonl", "--moves",
                           "--precision", "0.05", "--seed", "10", "--objective", "ev"], ["moves.jsonl"]),
    ("batch_txt_jsonl", ["batch", "{inputs}/boards.txt", "-o", "{out}/legs.jsonl", "--advice", "--objective", "ev"],
     ["legs.jsonl"]),
    # batch ranked by the chance of winning the game (the default objective): the advice and every move
    ("batch_win_csv", ["batch", "{inputs}/batch.jsonl", "-o", "{out}/rows.csv", "--race", "--advice",
                       "--precision", "0.05", "--seed", "9"], ["rows.csv"]),
    ("batch_win_moves_jsonl", ["batch", "{inputs}/batch.jsonl", "-o", "{out}/moves.jsonl", "--moves",
                               "--precision", "0.05", "--seed", "10"], ["moves.jsonl"]),
    # whole games
    ("tournament_json", ["tournament", "--bots", "advisor,heuristic,random", "--players", "3", "--games", "3",
                         "--seed", "11", "--processes", "1", "--json"], []),
    ("simulate_bots", ["simulate", "--bots", "rival,denial,advisor,heuristic", "--games", "1", "--seed", "12",
                       "--processes", "1", "-o", "{out}/games.jsonl"], ["games.jsonl"]),
    ("simulate_six", ["simulate", "--players", "6", "--bots", "random,random,random,random,random,random",
                      "--games", "2", "--seed", "13", "--processes", "1", "-o", "{out}/six.jsonl"], ["six.jsonl"]),
    ("simulate_first", ["simulate", "--edition", "first", "--players", "2", "--bots", "advisor,random",
                        "--games", "2", "--seed", "14", "--processes", "1", "-o", "{out}/first.jsonl"],
     ["first.jsonl"]),
    # Camel Up Cards: the odds of the deck's leg (the odds' default, --others later: small unknown
    # decks give exact legs); the advice with the other players' race actions in this leg (its
    # default, --others random: sampled legs but CARDS_END's, exact), and the same for the odds
    # (CARDS_HANDS': exact); best --others later: the advice as it was before they were modelled;
    # the advice by EV (--objective ev: as it was before it played to win) and by the chance of winning
    ("cards_odds", ["odds", CARDS, "--seed", "1", *RACE], []),
    ("cards_odds_json", ["odds", CARDS, "--json", "--seed", "1", *RACE], []),
    ("cards_odds_end_json", ["odds", CARDS_END, "--json", "--seed", "2", *RACE], []),
    ("cards_best", ["best", CARDS_BEST, "--seed", "3", "--objective", "ev", *RACE], []),
    ("cards_best_json", ["best", CARDS_BEST, "--json", "--seed", "3", "--objective", "ev", *RACE], []),
    ("cards_odds_hands", ["odds", CARDS_HANDS, "--seed", "4", "--others", "random", *RACE], []),
    ("cards_odds_random", ["odds", CARDS, "--seed", "1", "--others", "random", *RACE], []),
    ("cards_best_later", ["best", CARDS_BEST, "--seed", "3", "--others", "later", "--objective", "ev", *RACE], []),
    # Camel Up Cards' advice ranked by the chance of winning the game (the default objective)
    ("cards_best_win", ["best", CARDS_BEST, "--seed", "3", *RACE], []),
    ("cards_best_win_json", ["best", CARDS_BEST, "--json", "--seed", "3", *RACE], []),
]

_SCHEMA = re.compile(r'"schema": (?:[0-9]+|"[^"]*"), |, "schema": (?:[0-9]+|"[^"]*")')


def without_schema(text: str) -> str:
    """``text`` without any ``"schema": ...`` key of its JSON objects."""
    return _SCHEMA.sub("", text)


def run_case(argv: list[str], out: Path) -> tuple[int, str]:
    """Run one command in this process: ``(exit status, stdout)``."""
    from advisor.cli.command import main

    args = [a.replace("{inputs}", str(INPUTS)).replace("{out}", str(out)) for a in argv]
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        status = main(args)
    return status, stdout.getvalue()


def outputs(name: str, argv: list[str], files: list[str], out: Path) -> dict[str, str]:
    """Every output of one case: ``{file name: text}`` (``NAME.stdout`` and
    ``NAME.FILE`` for each file written), the exit status first in stdout's."""
    status, stdout = run_case(argv, out)
    stdout = stdout.replace(str(out), "{out}").replace(str(INPUTS), "{inputs}")  # the same wherever run
    got = {f"{name}.stdout": f"exit status {status}\n{stdout}"}
    for file in files:
        got[f"{name}.{file}"] = (out / file).read_text(encoding="utf-8")
    return got
