"""The ``camelup`` command.

``camelup --help`` and ``--version`` import nothing heavy (no numba, pandas
or matplotlib): subcommands import what they need when they run.  Bad input
prints one line to stderr and exits with status 2; nothing is computed.
"""

from __future__ import annotations

import argparse
import re
import sys

from advisor import EXAMPLE_POSITION, __version__
from advisor.errors import AdvisorError, Interrupted
from advisor._tools.jsonio import dumps
from advisor.present.report import format_advice, format_leg_odds, format_race_odds
from advisor.kernels._where import describe as cache_place

__all__ = ["main"]

_TILE_ARG = re.compile(r"^-\d+(@\S*)?$")


_BOTS_PLACEHOLDER = "{bots}"
_BOARD_BOTS_PLACEHOLDER = "{board_bots}"


class _Formatter(argparse.HelpFormatter):
    """Help text wrapped without breaking a word at its hyphen (a bot's
    name such as ``margin-no-risk`` stays whole)."""

    def _fill_text(self, text, width, indent):
        import textwrap

        text = self._whitespace_matcher.sub(" ", text).strip()
        return textwrap.fill(text, width, initial_indent=indent, subsequent_indent=indent, break_on_hyphens=False)

    def _split_lines(self, text, width):
        import textwrap

        return textwrap.wrap(self._whitespace_matcher.sub(" ", text).strip(), width, break_on_hyphens=False)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str):  # one line, status 2 (as argparse does, minus the usage dump)
        raise _UsageError(f"{self.prog}: error: {message}")

    def format_help(self) -> str:
        # the bots are listed from advisor.bots.policies.BOTS (imported only for this help)
        if self.description and _BOTS_PLACEHOLDER in self.description:
            self.description = self.description.replace(_BOTS_PLACEHOLDER, _bots_help())
        if self.description and _BOARD_BOTS_PLACEHOLDER in self.description:
            self.description = self.description.replace(_BOARD_BOTS_PLACEHOLDER, _bots_help(cards=False))
        return super().format_help()


def _bots_help(cards: bool = True) -> str:
    from advisor.bots.policies import BOTS

    board = "; ".join(f"{name} ({cls.summary})" for name, cls in BOTS.items())
    if not cards:
        return board
    from advisor.cards.bots import CARDS_BOTS

    return board + ". Camel Up Cards bots: " + "; ".join(f"{name} ({cls.summary})" for name, cls in CARDS_BOTS.items())


_JSON_HELP = "print one JSON object (see docs/notation.md, \"Machine output\")"
_OTHERS_HELP = ("Camel Up Cards: the other players' race actions: random (a random race action in this leg and later "
                "legs; the default of best), later (this leg: the deck alone; later legs random; the default of odds) "
                "or reveal (they only reveal)")
_RULES_HELP = ("a rule variant (house rule): a JSON file such as {\"name\": \"house\", \"money_floor\": null} "
               "or inline key=value pairs such as 'name=house money_floor=none pile_payouts=8,5,3,1' "
               "(see docs/user-guide/variants.md)")


class _UsageError(Exception):
    pass


def _build_parser() -> _Parser:
    parser = _Parser(
        prog="camelup",
        description="Exact odds and best moves for Camel Up (1st and 2nd edition) and Camel Up Cards.",
        epilog="Positions use the board string notation, e.g. "
        f"'{EXAMPLE_POSITION}'; a Camel Up Cards position starts with 'cards' (e.g. "
        "'cards 0:BG 2:OW 3:Y deck:4 known:B1G2 hand:O1'; `camelup play --edition cards` plays a game). "
        "Quote it, or pass its tokens as separate arguments.",
    )
    parser.add_argument("--version", action="version", version=f"camelup-advisor {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    odds = sub.add_parser(
        "odds",
        help="leg and race odds of a position",
        description="Probability of every racing camel finishing the current leg 1st..5th "
        "(exact over every remaining die order and face, unless --samples is given), and of "
        "winning / losing the whole race (exact when the race must end within this leg or the "
        "next, else simulated until the 95% interval is below --precision). "
        "Without a position, the built-in example is analysed.",
    )
    odds.add_argument("position", nargs="*", help="board string (default: the built-in example)")
    odds.add_argument("--json", action="store_true", help=_JSON_HELP)
    odds.add_argument(
        "--samples", type=_positive_int,
        help="sample N legs instead of enumerating the leg, and simulate N races (rounded up to a "
        "multiple of 32 replicates) instead of sampling to --precision",
    )
    odds.add_argument(
        "--precision", type=_precision, default=0.002,
        help="race odds: stop once every win/lose probability has a 95%% half-width below P "
        "(default 0.002 = +-0.2 percentage points)",
    )
    odds.add_argument("--seed", type=_seed, help="seed of every random figure (default: drawn and reported)")
    odds.add_argument("--threads", type=_positive_int, help="threads for the simulation (default: all cores)")
    odds.add_argument("--leg-only", action="store_true", help="leg odds only, no race odds")
    odds.add_argument("--others", choices=("random", "later", "reveal"), help=_OTHERS_HELP)
    odds.add_argument("--rules", help=_RULES_HELP)

    best = sub.add_parser(
        "best",
        help="every legal action ranked by expected value",
        description="Every legal action of the advised player, ranked by expected value (coins), "
        "with the probabilities behind each figure, its risk and how much it denies the next player. "
        "Give a board string (defaults are stated in the output) or a game state JSON file "
        "(see docs/notation.md, \"Game state file\"). Without either, the built-in example is analysed.",
    )
    best.add_argument("position", nargs="*", help="board string or path of a game state JSON file")
    best.add_argument("--player", type=_nonneg_int, help="the advised player (default: the player to move)")
    best.add_argument("--players", type=_positive_int, help="number of players for a bare board (default 4)")
    best.add_argument("--json", action="store_true", help=_JSON_HELP)
    best.add_argument("--precision", type=_precision, default=0.002,
                      help="race odds precision for overall cards (default 0.002)")
    best.add_argument("--seed", type=_seed, help="seed of the race simulation (default: drawn and reported)")
    best.add_argument("--threads", type=_positive_int, help="threads for the simulation (default: all cores)")
    best.add_argument("--no-denial", action="store_true", help="skip the denial column (faster)")
    best.add_argument("--objective", choices=("win", "ev"), default="win",
                      help="rank by the chance of winning the game (win, default: a win column, EV breaking "
                           "near-ties) or by expected coins (ev)")
    best.add_argument("--others", choices=("random", "later", "reveal"), help=_OTHERS_HELP)
    best.add_argument("--chart", help="also draw the EVs and the tile landing heat map to this picture file")
    best.add_argument("--game", type=_nonneg_int, help="with a file of game records (.jsonl): which game (default 0)")
    best.add_argument("--turn", type=_nonneg_int,
                      help="with a file of game records (.jsonl): the advice before this turn (default 0)")
    best.add_argument("--rules", help=_RULES_HELP)
    _overwrite_arg(best, "the --chart file")
    best.add_argument("--no-infer", action="store_true",
                      help="with game records: model other players' face-down overall cards by the race odds "
                           "instead of inferring their colours from the game's history")

    review = sub.add_parser(
        "review", help="every decision of recorded games against the best one; skill and luck apart",
        description="Review game records (JSON lines, from camelup simulate, camelup play, the web page or "
        "written by hand; 1st and 2nd edition, Camel Up Cards): each decision's EV against the best action's (EV lost, rank, "
        "the figures behind both), per player the EV lost, mistakes (> 0.5 coin) and blunders (> 1.5), "
        "accuracy (within 0.1 coin), and the final money taken apart exactly into start + skill + others + "
        "luck (see docs/user-guide/review.md). A record that does not replay is reported with its game and turn "
        "(exit status 2) and the other games are still reviewed. Camel Up Cards records are reviewed action "
        "by action from the mover's view, the EVs sampled; their money is not taken apart "
        "(docs/user-guide/review.md).")
    review.add_argument("records", help="game records (.jsonl)")
    review.add_argument("--game", type=_nonneg_int, help="review this game of the file only (0 = the first)")
    review.add_argument("--player", type=_nonneg_int, help="show this player's decisions and row only")
    review.add_argument("--json", action="store_true", help=_JSON_HELP)
    review.add_argument("-o", "--output", help="write every decision to this file (.csv, .jsonl or .parquet)")
    review.add_argument("--chart", help="draw the EV lost and the cumulative skill and luck of one game "
                        "(.png, .svg or .pdf)")
    review.add_argument("--precision", type=_precision, default=0.002,
                        help="race odds precision behind the overall cards (default 0.002, as best)")
    review.add_argument("--seed", type=_seed, default=0, help="seed of the race odds behind the details (default 0)")
    review.add_argument("--full", action="store_true",
                        help="value every decision with best's full valuation (slower)")
    review.add_argument("--details", action=argparse.BooleanOptionalAction, default=None,
                        help="the figures behind the action taken and the best one (default: on for one game)")
    review.add_argument("--processes", type=_int_option(1, MAX_PROCESSES, f"1..{MAX_PROCESSES}"),
                        help="worker processes (default: one per core)")
    review.add_argument("--engine", choices=("local", "dask"), default="local",
                        help="local (all cores of this machine) or dask (a Dask cluster, see --scheduler)")
    review.add_argument("--scheduler", help="address of the Dask scheduler, e.g. tcp://10.0.0.5:8786")
    _overwrite_arg(review, "the -o and --chart files")

    for name, text in (
        ("simulate", "play games between bots and write their records (JSON lines)"),
        ("tournament", "seat-rotated games between bots: win rates with 95% intervals, average money"),
    ):
        cmd = sub.add_parser(
            name, help=text.replace("%", "%%"),  # argparse %-formats help texts, not descriptions
            description=f"{text[0].upper()}{text[1:]}. With -o the records stream, as games finish, into "
            "OUTPUT.part, renamed to OUTPUT when the run is complete; after Ctrl-C, --resume continues "
            f"the run. Bots: {_BOTS_PLACEHOLDER}.")
        cmd.add_argument("--players", type=_positive_int, default=4, help="players (default 4)")
        cmd.add_argument("--bots", help="comma-separated bots, one per seat (default: advisor,heuristic then random in "
                         "the other seats; with --edition cards: greedy,heuristic then random)")
        cmd.add_argument("--games", type=_int_option(1, MAX_GAMES, f"1..{MAX_GAMES:,} (more would take weeks)"),
                         default=100, help="games to play (default 100)")
        cmd.add_argument("--edition", choices=("second", "first", "cards"), default="second",
                         help="second (default), first, or cards: Camel Up Cards with its default set-up")
        cmd.add_argument("--rules", help=_RULES_HELP)
        cmd.add_argument("--seed", type=_seed, default=0, help="seed of the run (default 0)")
        cmd.add_argument("--processes", type=_int_option(1, MAX_PROCESSES, f"1..{MAX_PROCESSES}"),
                         help="worker processes (default: one per core)")
        cmd.add_argument("-o", "--output", help="JSON lines file (.jsonl) for the game records"
                         + (" (required)" if name == "simulate" else ""), required=name == "simulate")
        cmd.add_argument("--resume", action="store_true",
                         help="continue an interrupted run: keep the complete games of OUTPUT.part")
        _overwrite_arg(cmd)
        _engine_args(cmd)
        cmd.add_argument("--dice", choices=("game", "leg"), default="game",
                         help="game (default): one random stream per game; leg: each leg's dice (Camel Up "
                         "Cards: its deal and deck order) fixed by the game's seed and the leg's number, whatever "
                         "the players do (see camelup duel)")
        if name == "tournament":
            cmd.add_argument("--json", action="store_true",
                             help="print the table as one JSON object (null where there is no interval)")
            cmd.add_argument("--seating", choices=("rotate", "orders"), default="rotate",
                             help="rotate (default): game i seats the bots as listed, rotated by i places: each "
                             "bot plays each seat equally often, always right after the same bot; orders: the "
                             "rotations of every cyclic order of the bots in turn (PLAYERS games each), so each "
                             "bot also plays right after each other bot equally often, balanced over every "
                             "PLAYERS! games (24 at 4 players; in Camel Up Cards the player just before another "
                             "takes the best cards first)")

    _duel_parser(sub)

    bot = sub.add_parser(
        "bot", help="a bot's ranking of every legal action in a game state (for programs hosting the bots)",
        description="Ask a bot for its move: every legal action of the player in the game state JSON file "
        "(see docs/notation.md, \"Game state file\"; - reads it from standard input), with the bot's score, "
        "best first; the "
        "bot plays the first, a host that refuses it takes the next. The state is what the bot sees: give "
        f"the other players' hands as counts to hide them. Bots: {_BOARD_BOTS_PLACEHOLDER}.")
    bot.add_argument("name", metavar="NAME", help="a bot")
    bot.add_argument("state", metavar="STATE", help="game state JSON file, or - for standard input")
    bot.add_argument("--player", type=_nonneg_int, help="the bot's player (default: the player to move)")
    bot.add_argument("--seed", type=_seed, default=0, help="seed of the bot's random numbers (default 0)")
    bot.add_argument("--json", action="store_true", help=_JSON_HELP)

    batch = sub.add_parser(
        "batch", help="analyse a file of positions into CSV, JSON lines or Parquet",
        description="Analyse every position of INPUT (.txt: one board string per line; .csv or "
        ".parquet: a 'position' column; .jsonl: a 'position' key, or a game state) into OUTPUT (.csv, "
        ".jsonl or .parquet): exact leg rank probabilities, and on request race odds, the best action "
        "with the chance of winning the game (--advice, ranked as --objective says), or every action's EV "
        "and chance of winning (--moves, long format). The input's other columns are kept. Bad rows get "
        "an 'error' and do not stop the batch; the exit status is 1 when any row failed. Rows are "
        "written in chunks to OUTPUT.part, which replaces OUTPUT only when complete; --resume "
        "continues an interrupted run.")
    batch.add_argument("input", help="input file (.txt, .csv, .jsonl or .parquet)")
    batch.add_argument("-o", "--output", required=True, help="output file (.csv, .jsonl or .parquet; Parquet "
                       "needs pip install 'camelup-advisor[parquet]')")
    batch.add_argument("--race", action="store_true", help="add race win/lose odds")
    batch.add_argument("--advice", action="store_true",
                       help="add the best action, its EV, the chance of winning now (win_now) and after it (best_win)")
    batch.add_argument("--moves", action="store_true",
                       help="write every action's EV and chance of winning (long format) instead")
    batch.add_argument("--objective", choices=("win", "ev"), default="win",
                       help="what ranks --advice and --moves: the chance of winning the game (win, default: EV "
                            "breaking near-ties) or expected coins (ev); Camel Up Cards advice ranks by EV and has "
                            "no chance of winning")
    batch.add_argument("--precision", type=_precision, default=0.01,
                       help="race odds precision (default 0.01 = +-1 percentage point)")
    batch.add_argument("--seed", type=_seed, default=0, help="seed of the race odds (default 0)")
    batch.add_argument("--resume", action="store_true",
                       help="continue the interrupted run in OUTPUT.part (same input and options), or start")
    batch.add_argument("--restart", action="store_true",
                       help="discard the interrupted run in OUTPUT.part and start again")
    _overwrite_arg(batch)
    batch.add_argument("--chunk", type=_positive_int, default=10_000, help="rows per chunk (default 10000)")
    batch.add_argument("--engine", choices=("local", "dask"), default="local",
                       help="local (all cores of this machine) or dask (a Dask cluster, see --scheduler)")
    batch.add_argument("--scheduler", help="address of the Dask scheduler, e.g. tcp://10.0.0.5:8786")

    chart = sub.add_parser(
        "chart", help="probability curves through a recorded game",
        description="Draw each camel's P(wins the leg), P(wins the race) and P(finishes last) after "
        "every turn of a game record (from camelup simulate), leg ends and the actual result marked "
        "(Camel Up Cards: the odds a spectator can give, from the shown, revealed and played cards). "
        "The format follows the extension of OUTPUT (.png, .svg, .pdf).")
    chart.add_argument("record", help="game records (JSON lines)")
    chart.add_argument("-o", "--output", required=True, help="picture file (.png, .svg or .pdf)")
    chart.add_argument("--game", type=_nonneg_int, default=0, help="which game of the file (default 0)")
    chart.add_argument("--precision", type=_precision, default=0.01, help="race odds precision (default 0.01)")
    _overwrite_arg(chart)
    show = sub.add_parser(
        "show", help="a picture of a position with its leg odds",
        description="Draw the board (track, stacks, crazy camels, tiles, pyramid) with P(1st this leg); "
        "for a Camel Up Cards position (the token cards) its track cards, sandstorms, camels, palm and fennec "
        "and race deck.")
    show.add_argument("position", nargs="*", help="board string (default: the built-in example)")
    show.add_argument("-o", "--output", required=True, help="picture file (.png, .svg or .pdf)")
    show.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    _overwrite_arg(show)

    play = sub.add_parser(
        "play", help="an interactive game: humans and bots at one table",
        description="Play Camel Up in the terminal. On your turn type an action (leg:R, pyramid, "
        "tile:+7, winner:B, ...) or 'odds', 'best' (the advisor's ranking), 'undo', 'save FILE', 'help', "
        "'quit'. Each human sees only what their player may see (overall cards face down). "
        "--edition cards plays Camel Up Cards: deck building, then turns of a race action (reveal, hand, palm:N, "
        "fennec:N) with an optional bet (leg:C, mid:C, winner:C, loser:C) before or after it.")
    play.add_argument("--seats", help="comma-separated seats: human or a bot (default: human,advisor,heuristic,"
                      "random; Camel Up Cards: human,greedy,heuristic,random; with --load: the seats saved in the "
                      "record)")
    play.add_argument("--edition", choices=("second", "first", "cards"),
                      help="second (default), first, or cards: Camel Up Cards with its default set-up")
    play.add_argument("--rules", help=_RULES_HELP)
    play.add_argument("--seed", type=_seed, help="seed of the game (default: drawn and shown)")
    play.add_argument("--load", metavar="FILE", help="continue a saved game (JSON lines game records)")
    play.add_argument("--game", type=_nonneg_int, help="with --load: which game of the file (default 0)")
    play.add_argument("--autosave", metavar="FILE", help="save the game to FILE after every turn (a new file)")

    serve = sub.add_parser(
        "serve", help="a web page for the table: click the board, see the odds and the best move, follow a game",
        description="Serve the Camel Up advisor as a local web page (and its JSON API; see "
        "docs/reference/web-api.md). The kernels "
        "are loaded first, then the address is printed.")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 serves phones on "
                       "the same network, with a warning)")
    serve.add_argument("--port", type=_int_option(0, 65535, "0..65535"), default=8000,
                       help="port (default 8000; 0 takes a free port and prints it)")
    serve.add_argument("--open", action="store_true", help="open the page in the browser once ready")
    serve.add_argument("--workers", type=_positive_int,
                       help="worker processes per lane (default: one per core)")

    sub.add_parser(
        "warmup",
        help="compile every kernel once (later runs load them from the cache)",
        description="Compile every numba kernel and report the time each took. " + cache_place(),
    )
    return parser


def _overwrite_arg(cmd, what: str = "OUTPUT") -> None:
    cmd.add_argument("--overwrite", action="store_true",
                     help=f"replace {what} if it exists (without it an existing file is never replaced; a file "
                     "another run is writing is refused either way)")


def _engine_args(cmd) -> None:
    cmd.add_argument("--engine", choices=("local", "dask"), default="local",
                     help="local (all cores of this machine) or dask (a Dask cluster, see --scheduler); the games "
                     "are the same")
    cmd.add_argument("--scheduler", help="address of the Dask scheduler, e.g. tcp://10.0.0.5:8786")


def _duel_parser(sub) -> None:
    duel = sub.add_parser(
        "duel", help="paired games: bot A against bot B with the same dice, seats and field",
        description="A paired duel (common random numbers): pair i is two games from one seed with per-leg "
        "dice (the set-up and every leg's dice fixed by the seed, whatever the players do), A in seat "
        "i mod PLAYERS in the first, B in that seat in the second, the same field in the other seats; the games "
        "differ only by the decisions. Reports A's and B's win rate and money and the paired differences A - B "
        "with 95% intervals (a shared first place counts as a fraction of a win). --sprt D0,D1 stops early by "
        "a sequential probability ratio test of H0: A's win rate is D0 points above B's, against H1: D1 points "
        "above (error rates --alpha, --beta; normal model of the per-pair win differences, variance estimated "
        "from the pairs; looked at after every turn of the seats from --sprt-min pairs on). With -o the records stream "
        "into OUTPUT.part, renamed when the run is complete; after Ctrl-C, --resume continues the run. "
        "--edition cards: Camel Up Cards, each leg's deal and race deck order drawn from the seed and the leg "
        "(the deck holds the cards the players put into it, in the order of a key drawn per card; "
        f"docs/user-guide/duels.md). Bots: {_BOTS_PLACEHOLDER}.")
    duel.add_argument("a", metavar="A", help="a bot")
    duel.add_argument("b", metavar="B", help="the bot it is compared with")
    duel.add_argument("--players", type=_positive_int, default=4, help="players (default 4)")
    duel.add_argument("--field", metavar="BOTS", help="comma-separated bots of the other seats, in order after the duelist, or one "
                      "bot for all of them (default: rival in every other seat; Camel Up Cards: greedy)")
    duel.add_argument("--games", type=_int_option(1, MAX_GAMES // 2, f"1..{MAX_GAMES // 2:,}"), default=500,
                      help="pairs of games to play (default 500; each pair is two games); with --sprt the most")
    duel.add_argument("--edition", choices=("second", "first", "cards"), default="second",
                      help="second (default), first, or cards: Camel Up Cards with its default set-up")
    duel.add_argument("--rules", help=_RULES_HELP)
    duel.add_argument("--seed", type=_seed, default=0, help="seed of the run (default 0)")
    duel.add_argument("--sprt", metavar="D0,D1",
                      help="stop early by the sequential test of H0: A's win rate exceeds B's by D0 points, "
                      "against H1: by D1 points (e.g. 0,2; a negative D0 as --sprt=-1,1)")
    duel.add_argument("--alpha", type=_precision, default=0.05,
                      help="with --sprt: the probability of accepting H1 when H0 holds (default 0.05)")
    duel.add_argument("--beta", type=_precision, default=0.05,
                      help="with --sprt: the probability of accepting H0 when H1 holds (default 0.05)")
    duel.add_argument("--sprt-min", metavar="N", type=_int_option(2, what="at least 2"), default=100,
                      help="with --sprt: pairs before the test is first looked at (default 100)")
    duel.add_argument("--json", action="store_true",
                      help="print the result as one JSON object (null where there is no figure)")
    duel.add_argument("--processes", type=_int_option(1, MAX_PROCESSES, f"1..{MAX_PROCESSES}"),
                      help="worker processes (default: one per core)")
    duel.add_argument("-o", "--output", help="JSON lines file (.jsonl) for the game records (pair i: games 2i, 2i+1)")
    duel.add_argument("--resume", action="store_true",
                      help="continue an interrupted run: keep the complete games of OUTPUT.part")
    _overwrite_arg(duel)
    _engine_args(duel)


_INTEGER = re.compile(r"[+-]?[0-9]{1,25}", re.ASCII)
_DECIMAL = re.compile(r"[+-]?(?:[0-9]{1,25}(?:\.[0-9]{0,25})?|\.[0-9]{1,25})(?:[eE][+-]?[0-9]{1,3})?", re.ASCII)


def _int_option(low: int, high: int | None = None, what: str = ""):
    """An argparse type: a whole number in ``low..high``."""

    def parse(text: str) -> int:
        if not _INTEGER.fullmatch(text):  # ASCII digits only: int() would take '١' and '1_000'
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text[:30]!r}")
        value = int(text)
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(
                f"must be {what or ('at least %d' % low)}, got {value}")
        return value

    return parse


MAX_GAMES = 10_000_000
MAX_PROCESSES = 256
_positive_int = _int_option(1)
_nonneg_int = _int_option(0, what="0 or more")
_seed = _int_option(0, 2**63 - 1, "0..2**63-1")


def _precision(text: str) -> float:
    if not _DECIMAL.fullmatch(text):  # ASCII only: float() would take '٠.٥', 'nan' and '1_0'
        raise argparse.ArgumentTypeError(f"expected a number such as 0.002, got {text[:30]!r}")
    value = float(text)
    if not 1e-4 <= value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 0.0001 and below 1, got {text}")
    return value


_VALUE_OPTIONS = ("--samples", "--seed", "--precision", "--threads", "--player", "--players", "--games",
                  "--processes", "--chunk", "--game", "--scheduler", "--engine", "--turn", "--rules", "--field",
                  "--sprt", "--alpha", "--beta", "--dice", "--sprt-min")


def _parse(parser: _Parser, argv: list[str]) -> argparse.Namespace:
    # Tile tokens such as '-5@2' look like options to argparse: lift them out
    # (unless they are the value of an option) and add them to the position.
    tiles = [
        tok for i, tok in enumerate(argv)
        if _TILE_ARG.match(tok) and (i == 0 or argv[i - 1] not in _VALUE_OPTIONS)
    ]
    rest = [tok for tok in argv if tok not in tiles]
    args = parser.parse_args(rest)
    if tiles:
        if getattr(args, "position", None) is None:
            parser.error(f"unrecognized arguments: {' '.join(tiles)}")
        args.position = list(args.position) + tiles
    return args


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args = _parse(parser, argv)
    except _UsageError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except SystemExit as exc:  # --help, --version
        return int(exc.code or 0)
    if args.command is None:
        parser.print_help()
        return 0
    problem = _numba_environment_problem()
    if problem:
        print(f"camelup: error: {problem}", file=sys.stderr)
        return 2
    try:
        with _claims(args), _compile_notice(args):
            return _COMMANDS[args.command](args)
    except AdvisorError as exc:
        print(f"camelup: error: {exc}", file=sys.stderr)
        return 2
    except Interrupted as exc:  # the command cleaned up and says what it kept
        print(f"\ncamelup: interrupted: {exc}", file=sys.stderr)
        return 130
    except KeyboardInterrupt:  # nothing worth keeping was under way
        print("\ncamelup: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader (e.g. `| head`) stopped reading: not an error
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


_THREADING_LAYERS = ("default", "safe", "threadsafe", "forksafe", "tbb", "omp", "workqueue")


def _numba_environment_problem(environ=None) -> str | None:
    """The numba settings of the environment that would break a command
    (checked before numba is imported: numba itself answers with a long
    traceback), as one line naming the variable and what it accepts."""
    import os

    env = os.environ if environ is None else environ
    threads = env.get("NUMBA_NUM_THREADS")
    if threads is not None and threads.strip() != "":
        text = threads.strip()
        if not (text.isascii() and text.isdigit()) or int(text) < 1:
            return (f"NUMBA_NUM_THREADS={threads[:20]!r}: must be a whole number of threads, 1 or more "
                    f"(this machine has {os.cpu_count()} cores), or unset")
    layer = env.get("NUMBA_THREADING_LAYER")
    if layer is not None and layer.strip() != "" and layer.strip().lower() not in _THREADING_LAYERS:
        return (f"NUMBA_THREADING_LAYER={layer[:20]!r}: must be one of {', '.join(_THREADING_LAYERS)}, or unset")
    disable = env.get("NUMBA_DISABLE_JIT")
    if disable is not None and disable.strip() not in ("", "0"):
        return (f"NUMBA_DISABLE_JIT={disable[:20]!r}: the kernels need numba's compiler (pure Python would take "
                "hours): set it to 0 or unset it")
    return None


def _claims(args: argparse.Namespace):
    """Every file the command writes (-o, --chart, --autosave), claimed for
    this run from the start (:func:`advisor._tools.files.claim`): a second run on
    one of them is refused in one line naming this run's pid."""
    import contextlib

    from advisor._tools.files import claim

    stack = contextlib.ExitStack()
    for option in ("output", "chart", "autosave"):
        path = getattr(args, option, None)
        if path:
            with contextlib.ExitStack() as undo:  # a refusal releases the files claimed so far
                undo.push(stack)
                stack.enter_context(claim(path))
                undo.pop_all()
    return stack


def _compile_notice(args: argparse.Namespace):
    """Says on stderr while kernels compile (the first run after an install,
    with the time the command's kernels usually take); nothing otherwise."""
    import contextlib

    from advisor.cards import is_cards
    from advisor.warm import CompileNotice, needs

    if args.command == "warmup":  # reports its own progress
        return contextlib.nullcontext()
    position = " ".join(getattr(args, "position", None) or [])
    bots = (getattr(args, "bots", None) or getattr(args, "seats", None) or "").split(",")
    if args.command == "duel":
        bots = [args.a, args.b, *(args.field or "rival").split(",")]
    elif args.command == "bot":
        bots = [args.name]
    race = getattr(args, "race", True) and not getattr(args, "leg_only", False)
    advice = getattr(args, "advice", False) or getattr(args, "moves", False)
    cards = is_cards(position) or getattr(args, "edition", None) == "cards"
    return CompileNotice(needs(args.command, cards=cards, race=race, advice=advice,
                               samples=getattr(args, "samples", None) is not None,
                               bots=[b.strip() for b in bots if b.strip()]))


def _rules_arg(args: argparse.Namespace, edition: str):
    """The rule variant of ``--rules`` for ``edition`` (``None`` without
    the option): a JSON file, or inline ``key=value`` pairs."""
    source = getattr(args, "rules", None)
    if source is None:
        return None
    from advisor.rules.editions import parse_rules_text, rules_from_json

    if source.endswith(".json") or _is_file(source):
        from advisor._tools.jsonio import MAX_BYTES, loads

        try:
            with open(source, "rb") as fh:
                data = fh.read(MAX_BYTES + 1)
        except OSError as exc:
            raise AdvisorError(f"--rules {source}: cannot read ({exc.strerror})") from None
        except ValueError:  # a NUL character in the name
            raise AdvisorError(f"--rules {source!r}: not a valid file name") from None
        return rules_from_json(edition, loads(data, source))
    return rules_from_json(edition, parse_rules_text(source))


def _board_edition(text: str) -> str:
    """The edition a board string names (its ``first`` token), else ``second``."""
    return "first" if "first" in text.split() else "second"


def _position_arg(args: argparse.Namespace):
    from advisor.notation import parse_position

    text = " ".join(args.position) if args.position else None
    if text is None:
        if not args.json:
            print(f"No position given: analysing the built-in example '{EXAMPLE_POSITION}'.\n")
        else:
            print(f"camelup: no position given: analysing the built-in example '{EXAMPLE_POSITION}'", file=sys.stderr)
        text = EXAMPLE_POSITION
    return parse_position(text, _rules_arg(args, _board_edition(text)))


def _cards_text(args: argparse.Namespace) -> str | None:
    """The position text if it is a Camel Up Cards position."""
    from advisor.cards import is_cards

    text = " ".join(args.position) if args.position else ""
    if is_cards(text):
        if getattr(args, "rules", None) is not None:
            raise AdvisorError("--rules applies to the board games (first and second editions), not to Camel Up Cards")
        return text
    if getattr(args, "others", None) is not None:
        raise AdvisorError("--others applies to Camel Up Cards positions only")
    return None


def _cmd_odds_cards(args: argparse.Namespace, text: str) -> int:
    from advisor.cards import cards_odds, format_cards_odds, parse_cards
    from advisor.cards.odds import ODDS_OTHERS

    from advisor._tools.sampling import kernel_threads

    pos = parse_cards(text)
    with kernel_threads(args.threads):
        odds = cards_odds(pos, samples=args.samples, leg_samples=args.samples, precision=args.precision,
                          seed=args.seed, others=args.others or ODDS_OTHERS, race=not args.leg_only)
    if args.json:
        from advisor.present.jsonout import cards_odds_json

        print(dumps(cards_odds_json(odds)))
        return 0
    print(format_cards_odds(odds))
    return 0


def _cmd_odds(args: argparse.Namespace) -> int:
    text = _cards_text(args)
    if text is not None:
        return _cmd_odds_cards(args, text)
    position = _position_arg(args)
    from advisor.odds.exact import leg_odds
    from advisor.odds.montecarlo import race_odds, resolve_seed

    seed = resolve_seed(args.seed)
    odds = leg_odds(position, samples=args.samples, seed=seed if args.samples else None)
    race = None
    if not args.leg_only:
        race = race_odds(position, samples=args.samples, precision=args.precision, seed=seed,
                         threads=args.threads)
    if args.json:
        from advisor.present.jsonout import odds_json

        print(dumps(odds_json(position, odds, race, seed)))
        return 0
    print(format_leg_odds(odds))
    if race is not None:
        print()
        print(format_race_odds(race))
    return 0


def _state_arg(args: argparse.Namespace):
    """A GameState from a JSON file or a board string, and the defaults used."""
    from advisor.rules.state import DEFAULT_PLAYERS, GameState

    text = " ".join(args.position)
    if len(args.position) == 1 and (text.endswith(".json") or _is_file(text)):
        if args.players is not None:
            raise AdvisorError("--players applies to a bare board string, not to a game state file")
        state = GameState.load(text)
        rules = _rules_arg(args, state.rules.name)
        if rules is not None and rules != state.rules:
            if not state.rules.is_standard:
                raise AdvisorError(f"--rules: the game state {text} gives its own rules ('{state.rules.variant}'); "
                                   "give the rules in one place")
            state = GameState.from_json({**state.to_json(), "rules": rules.rules_json()})
        return state, []
    from advisor.present.jsonout import board_assumptions

    position = _position_arg(args)
    n = args.players or DEFAULT_PLAYERS
    state = GameState.from_board(position, players=n)
    return state, board_assumptions(n, args.player, position.rules)


def _is_file(text: str) -> bool:
    """``text`` names an existing file (a board string never does; a name
    the system refuses, e.g. too long, is not one)."""
    from advisor._tools.files import file_kind

    try:
        return file_kind(text) == "file"
    except AdvisorError:
        return False


def _cmd_best_cards(args: argparse.Namespace, text: str) -> int:
    from advisor.cards import cards_best, format_cards_advice, parse_cards
    from advisor.cards.odds import ADVICE_OTHERS

    if args.player:
        raise AdvisorError(f"--player {args.player}: a Camel Up Cards position is written from the advised player's "
                           "view (player 0: its hand, bets, money; figure holders counted from it); for another "
                           "player give a game record: camelup best GAMES.jsonl --turn T --player P")
    for option in ("players", "chart"):
        if getattr(args, option) is not None:
            raise AdvisorError(f"--{option} does not apply to Camel Up Cards")
    _no_record_options(args)
    from advisor._tools.sampling import kernel_threads

    pos = parse_cards(text)
    with kernel_threads(args.threads):
        frame = cards_best(pos, seed=args.seed, others=args.others or ADVICE_OTHERS, precision=args.precision)
    if args.json:
        from advisor.present.jsonout import cards_best_json

        print(dumps(cards_best_json(pos, frame)))
        return 0
    print(format_cards_advice(frame))
    return 0


def _no_record_options(args: argparse.Namespace) -> None:
    if args.game is not None or args.turn is not None:
        raise AdvisorError("--game and --turn apply to a file of game records (.jsonl)")


def _cmd_best_cards_record(args: argparse.Namespace) -> int:
    """``camelup best CARDS.jsonl [--game N] [--turn T] [--player P]``: the
    advice before action T of a Camel Up Cards game, from player P's view
    (default: the player to act)."""
    from advisor.cards import format_cards_advice
    from advisor.cards.odds import ADVICE_OTHERS
    from advisor.cli.table_cards import step_advice
    from advisor.cards.record import iter_cards_records, replay_cards
    from advisor._tools.files import check_input
    from advisor._tools.sampling import kernel_threads

    path = args.position[0]
    for option in ("players", "chart"):
        if getattr(args, option) is not None:
            raise AdvisorError(f"--{option} does not apply to Camel Up Cards game records")
    check_input(path, "game records")
    game_no = args.game or 0
    found = [(line, record) for k, (line, record) in enumerate(iter_cards_records(path)) if k == game_no]
    if not found:
        count = sum(1 for _ in iter_cards_records(path))
        raise AdvisorError(f"--game {game_no}: {path} holds {count} game(s)")
    line, record = found[0]
    actions = [e for e in record if e.get("type") == "action"]
    turn = args.turn or 0
    if turn > len(actions):
        raise AdvisorError(f"--turn {turn}: game {game_no} of {path} has {len(actions)} actions (0..{len(actions)})")
    try:
        game = replay_cards(record, upto=turn)
    except AdvisorError as exc:
        raise AdvisorError(f"{path}:{line}: game {game_no} does not replay to action {turn}: {exc}") from None
    state = game.state
    if game.finished:
        raise AdvisorError(f"--turn {turn}: game {game_no} of {path} is over after action {turn - 1}")
    if state.phase != "turn":
        first = next((e["turn"] for e in actions[turn:] if not e["action"].startswith("build")), None)
        hint = f": the leg's first turn is --turn {first}" if first is not None else ""
        raise AdvisorError(f"--turn {turn}: leg {state.leg}'s race deck is being built (action {turn} is a deck "
                           f"building); the advice comes with the leg's turns{hint}")
    player = state.current if args.player is None else args.player
    if player >= state.setup.players:
        raise AdvisorError(f"--player {player}: the game has {state.setup.players} players")
    with kernel_threads(args.threads):
        frame = step_advice(state, player, seed=args.seed, others=args.others or ADVICE_OTHERS, precision=args.precision,
                            progress=None)
    if args.json:
        from advisor.present.jsonout import cards_best_json

        print(dumps({**cards_best_json(frame.attrs["position"], frame), "game": game_no, "turn": turn,
                     "player": player}))
        return 0
    step = "" if player != state.current or not (state.raced or state.bet) else \
        (" (its race action played: a bet now, or pass)" if state.raced else " (its bet taken: the race action)")
    print(f"Game {game_no} of {path}, before action {turn} (leg {state.leg}, P{state.current} to act{step}): "
          f"advice for P{player}, from what P{player} sees.")
    print(format_cards_advice(frame))
    return 0


def _cmd_best(args: argparse.Namespace) -> int:
    text = _cards_text(args)
    if text is not None:
        return _cmd_best_cards(args, text)
    if len(args.position) == 1 and args.position[0].lower().endswith(".jsonl") and _is_file(args.position[0]):
        from advisor.cards.record import is_cards_file

        if is_cards_file(args.position[0]):
            return _cmd_best_cards_record(args)
    if args.chart:
        _picture_path(args.chart, overwrite=args.overwrite)
    if _records_arg(args):
        from advisor.cli.review import record_state

        state, assumptions = record_state(args)
    else:
        state, assumptions = _state_arg(args)
    if args.no_infer:  # a state file's own card models too
        from advisor.bots.inference import without_models

        state = without_models(state)
    from advisor.valuation.engine import best_moves
    from advisor._tools.sampling import kernel_threads

    with kernel_threads(args.threads):
        frame = best_moves(state, args.player, precision=args.precision, seed=args.seed,
                           denial=not args.no_denial, objective=args.objective)
    if args.chart:
        from advisor.plotting import plot_advice, plot_landings

        fig = _figure((9, 9))
        top, bottom = fig.subplots(2, 1, height_ratios=[3, 1])
        plot_advice(frame, top)
        plot_landings(frame, bottom)
        _save(fig, args.chart)
    if args.json:
        from advisor.present.jsonout import best_json

        from advisor.bots.inference import face_down_json

        print(dumps({**best_json(state, frame, assumptions), **face_down_json(state)}))
        return 0
    print(format_advice(state, frame, assumptions))
    return 0


def _records_arg(args: argparse.Namespace) -> bool:
    """``camelup best GAMES.jsonl --game N --turn T``: advice at a turn of a record."""
    given = args.game is not None or args.turn is not None
    if len(args.position) == 1 and args.position[0].lower().endswith(".jsonl"):
        return True
    if given:
        raise AdvisorError("--game and --turn apply to a file of game records (.jsonl)")
    return False


def _cmd_review(args: argparse.Namespace) -> int:
    from advisor.cli.review import run_review

    return run_review(args)


def _edition_arg(args: argparse.Namespace):
    """``--edition``, or its variant given by ``--rules``."""
    if args.edition == "cards":
        if args.rules is not None:
            raise AdvisorError("--rules applies to the board games (first and second editions), not to Camel Up Cards")
        return args.edition
    return _rules_arg(args, args.edition) or args.edition


_DEFAULT_BOTS = {"cards": ("greedy", "heuristic")}


def _bots_arg(args: argparse.Namespace) -> list[str]:
    if args.bots is None:
        # the default field fits any player count: the two named bots, random in the other seats
        lead = _DEFAULT_BOTS.get(args.edition, ("advisor", "heuristic"))
        return [*lead[:args.players], *["random"] * max(0, args.players - len(lead))]
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if len(bots) != args.players:
        raise AdvisorError(f"--bots names {len(bots)} bots for {args.players} players: give one per seat")
    return bots


def _cmd_simulate(args: argparse.Namespace) -> int:
    from advisor.simulate.games import simulate_to_file

    bots = _bots_arg(args)
    edition = _edition_arg(args)
    totals = {"legs": 0, "turns": 0}

    def count(index: int, end: dict) -> None:
        totals["legs"] += end["legs"]
        totals["turns"] += end["turns"]

    games = simulate_to_file(bots, args.games, args.output, edition=edition, seed=args.seed,
                             processes=args.processes, resume=args.resume, on_game=count, overwrite=args.overwrite,
                             **_engine_kwargs(args))
    print(f"{games} games written to {args.output}: {totals['legs'] / games:.2f} legs and "
          f"{totals['turns'] / games:.1f} turns per game on average.")
    return 0


def _cmd_tournament(args: argparse.Namespace) -> int:
    from advisor.simulate.games import Standings, simulate, simulate_to_file

    bots = _bots_arg(args)
    edition = _edition_arg(args)
    if args.resume and not args.output:
        raise AdvisorError("--resume continues a run written with -o FILE: give -o")
    rules = getattr(edition, "rules_json", lambda: None)()
    table = Standings(bots, seating=args.seating)
    if args.output:
        simulate_to_file(bots, args.games, args.output, edition=edition, seed=args.seed,
                         processes=args.processes, rotate=args.seating, resume=args.resume, on_game=table.add,
                         overwrite=args.overwrite, **_engine_kwargs(args))
    else:
        for i, record in enumerate(simulate(bots, args.games, edition=edition, seed=args.seed,
                                            processes=args.processes, rotate=args.seating, **_engine_kwargs(args))):
            table.add(i, record[-1])
    frame = table.frame(edition=args.edition, seed=args.seed)
    if args.json:
        out = {"games": args.games, "seed": args.seed, "edition": args.edition}
        if rules is not None:
            out["rules"] = rules
        print(dumps({**out, "seating": args.seating, "bots": frame.to_dict(orient="records")}))
        return 0
    variant = "" if rules is None else f", {rules['name']} rules"
    game = "Camel Up Cards" if args.edition == "cards" else f"{args.edition} edition"
    seats = "seats rotated over every cyclic order" if args.seating == "orders" else "seats rotated"
    print(f"{args.games} games, {args.players} players, {game}{variant}, {seats}, "
          f"seed {args.seed}:")
    from advisor._tools.intervals import too_few

    if too_few(args.games, "games"):
        print(f"Warning: {too_few(args.games, 'games' if args.games != 1 else 'game')}.")
    print(f"{'seat entry':<14}{'win rate':>10}   95% interval   {'money':>7}   95% interval")
    for k, row in frame.iterrows():
        print(f"{k}:{row['bot']:<12}{100 * row['win_rate']:9.1f}%   "
              f"{_interval(100 * row['win_lo'], 100 * row['win_hi'], '4.1f', '%')}"
              f"   {row['money']:7.2f}   {_interval(row['money_lo'], row['money_hi'], '.2f')}")
    return 0


def _engine_kwargs(args: argparse.Namespace) -> dict:
    """``--engine``, ``--scheduler`` and ``--dice``, checked together."""
    if args.engine == "dask":
        if not args.scheduler:
            raise AdvisorError("--engine dask needs --scheduler ADDRESS")
        if args.processes is not None:
            raise AdvisorError("--processes applies to --engine local only")
    elif args.scheduler:
        raise AdvisorError("--scheduler applies to --engine dask only")
    out = {"engine": args.engine, "scheduler": args.scheduler}
    if getattr(args, "dice", "game") != "game":
        out["dice"] = args.dice
    return out


def _cmd_bot(args: argparse.Namespace) -> int:
    from advisor.cli.bot import run_bot

    return run_bot(args)


def _cmd_duel(args: argparse.Namespace) -> int:
    from advisor.cli.duel import run_duel

    _engine_kwargs(args)
    return run_duel(args, _edition_arg(args))


def _interval(lo: float, hi: float, spec: str, unit: str = "") -> str:
    """``lo-hi`` for a table, ``-`` where there is no interval (NaN)."""
    if lo != lo or hi != hi:
        return "-"
    return f"{lo:{spec}}-{hi:{spec}}{unit}"


def _cmd_batch(args: argparse.Namespace) -> int:
    from advisor.batch.positions import run_batch

    def note(message: str) -> None:
        print(f"camelup: {message}", file=sys.stderr)

    if args.engine == "dask":
        if not args.scheduler:
            raise AdvisorError("--engine dask needs --scheduler ADDRESS")
        if args.resume:
            raise AdvisorError("--resume is not available with --engine dask")
        from advisor.batch.distributed import run_batch_dask

        rows, failed = run_batch_dask(args.input, args.output, scheduler=args.scheduler, race=args.race,
                                      precision=args.precision, seed=args.seed, advice=args.advice,
                                      moves=args.moves, objective=args.objective, restart=args.restart, note=note,
                                      overwrite=args.overwrite)
    else:
        if args.scheduler:
            raise AdvisorError("--scheduler applies to --engine dask only")
        rows, failed = run_batch(args.input, args.output, race=args.race, precision=args.precision,
                                 seed=args.seed, advice=args.advice, moves=args.moves, objective=args.objective,
                                 resume=args.resume, restart=args.restart, chunk=args.chunk, note=note,
                                 overwrite=args.overwrite)
    print(f"{rows} position(s) analysed into {args.output}; {failed} failed.", file=sys.stderr)
    return 1 if failed else 0


_PICTURES = (".png", ".svg", ".pdf")


def _figure(size):
    from matplotlib.figure import Figure

    return Figure(figsize=size, layout="constrained")


def _picture_path(path: str, inputs=(), overwrite: bool = False) -> str:
    """``path`` if it can be written and its extension names a picture
    format (checked before any work is done); an existing file only with
    ``overwrite``."""
    from advisor._tools.files import check_output

    check_output(path, suffixes=_PICTURES, what="picture file", inputs=inputs, overwrite=overwrite)
    return path


def _save(fig, path: str) -> None:
    """Save ``fig`` to ``path``, which appears only when complete."""
    from pathlib import Path

    from advisor._tools.files import atomic_output

    with atomic_output(path, "picture file") as tmp:
        fig.savefig(tmp, format=Path(path).suffix.lower()[1:], dpi=120)
    print(f"Wrote {path}", file=sys.stderr)


def _cmd_chart(args: argparse.Namespace) -> int:
    from advisor.cards.record import is_cards_file, iter_cards_records
    from advisor._tools.files import check_input
    from advisor.game import iter_records
    from advisor.plotting import game_odds, plot_game_odds

    _picture_path(args.output, inputs=[args.record], overwrite=args.overwrite)
    check_input(args.record, "game records")
    count, chosen = 0, None
    games = iter_cards_records if is_cards_file(args.record) else iter_records
    for line, record in games(args.record):  # one game in memory at a time
        if count == args.game:
            chosen = line, record
            break
        count += 1
    if chosen is None:
        raise AdvisorError(f"--game {args.game}: {args.record} holds {count} game(s)")
    line, record = chosen
    if record[-1].get("type") != "end":
        raise AdvisorError(f"{args.record}:{line}: game {args.game} has no end line: the chart needs a whole game")
    try:
        frame = game_odds(record, precision=args.precision)
    except AdvisorError as exc:
        raise AdvisorError(f"{args.record}:{line}: game {args.game} is not a valid record: {exc}") from None
    fig = _figure((11, 10))
    for ax, what in zip(fig.subplots(3, 1, sharex=True), ("leg", "win", "lose")):
        plot_game_odds(record, ax, what=what, frame=frame)
    _save(fig, args.output)
    return 0


def _cmd_show(args: argparse.Namespace) -> int:
    from advisor.plotting import plot_board, plot_cards_board

    _picture_path(args.output, overwrite=args.overwrite)
    text = _cards_text(args)
    if text is not None:
        from advisor.cards import parse_cards

        position = parse_cards(text)
        fig = _figure((12, 3.8))
        plot_cards_board(position, fig.add_subplot())
        _save(fig, args.output)
        return 0
    position = _position_arg(args)
    fig = _figure((12, 3.8))
    plot_board(position, fig.add_subplot())
    _save(fig, args.output)
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    from advisor.bots.policies import BOTS
    from advisor.cards.record import is_cards_file
    from advisor.cli.table import load_game, play
    from advisor.rules.editions import get_edition

    seats = None if args.seats is None else [x.strip() for x in args.seats.split(",") if x.strip()]
    if args.edition == "cards" or (args.load is not None and is_cards_file(args.load)):
        return _cmd_play_cards(args, seats)
    for seat in seats or ():
        if seat != "human" and seat not in BOTS:
            raise AdvisorError(f"unknown seat {seat!r}: use human or a bot ({', '.join(BOTS)})")
    record = None
    if args.load is not None:  # everything is checked before the game prints anything
        for option in ("edition", "seed", "rules"):
            if getattr(args, option) is not None:
                raise AdvisorError(f"--{option} does not apply with --load: the saved game gives it")
        record = load_game(args.load, args.game or 0)
    else:
        if args.game is not None:
            raise AdvisorError("--game applies with --load only")
        seats = seats or ["human", "advisor", "heuristic", "random"]
        problem = get_edition(args.edition or "second").players_problem(len(seats))
        if problem:
            raise AdvisorError(problem)
    edition = args.edition or "second"
    play(seats, edition=_rules_arg(args, edition) or edition, seed=args.seed, record=record,
         autosave=args.autosave, source=args.load)
    return 0


def _cmd_play_cards(args: argparse.Namespace, seats: list[str] | None) -> int:
    """``camelup play --edition cards`` (or --load of a Camel Up Cards record)."""
    from advisor.cli.table_cards import load_cards_game, play_cards

    if args.rules is not None:
        raise AdvisorError("--rules applies to the board games (first and second editions), not to Camel Up Cards")
    record = None
    if args.load is not None:  # everything is checked before the game prints anything
        for option in ("edition", "seed"):
            if getattr(args, option) is not None:
                raise AdvisorError(f"--{option} does not apply with --load: the saved game gives it")
        record = load_cards_game(args.load, args.game or 0)
    elif args.game is not None:
        raise AdvisorError("--game applies with --load only")
    play_cards(seats or (None if record else ["human", "greedy", "heuristic", "random"]), seed=args.seed,
               record=record, autosave=args.autosave, source=args.load)
    return 0


def _cmd_warmup(args: argparse.Namespace) -> int:
    import time

    from advisor.warm import warmup

    from advisor.kernels._where import cache_root

    print(f"Compiling kernels (cached for later runs in {cache_root()}):", flush=True)
    start = time.perf_counter()
    warmup(verbose=True, progress=sys.stderr.isatty())
    print(f"Done in {time.perf_counter() - start:.1f} s.")
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    from advisor.web.server import serve

    serve(args.host, args.port, open_browser=args.open, workers=args.workers)
    return 0


_COMMANDS = {"odds": _cmd_odds, "best": _cmd_best, "simulate": _cmd_simulate, "tournament": _cmd_tournament,
             "play": _cmd_play, "batch": _cmd_batch, "chart": _cmd_chart, "show": _cmd_show,
             "warmup": _cmd_warmup, "serve": _cmd_serve, "review": _cmd_review, "duel": _cmd_duel,
             "bot": _cmd_bot}


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
