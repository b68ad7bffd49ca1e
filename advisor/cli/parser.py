"""The parser of the ``camelup`` command: one small function per command
adds its subparser and arguments, and :data:`COMMAND_PARSERS` lists them in
the order of ``camelup --help``.

Building the parser imports nothing heavy (the bots are listed from
:mod:`advisor.bots.policies` only when a help text names them).  A bad
command line is one line, :class:`UsageError` (exit status 2 in
:func:`advisor.cli.command.main`).
"""

from __future__ import annotations

import argparse
import re
import textwrap

from advisor import EXAMPLE_POSITION, __version__
from advisor.kernels._where import describe as cache_place

__all__: list[str] = []

#: Why this module imports inside its functions (tests/test_imports_top.py checks it).
LAZY_IMPORTS = "the bots are listed from their modules only when a help text names them: camelup --help stays fast"

_TILE_ARG = re.compile(r"^-\d+(@\S*)?$")


_BOTS_PLACEHOLDER = "{bots}"
_BOARD_BOTS_PLACEHOLDER = "{board_bots}"


class _Formatter(argparse.HelpFormatter):
    """Help text wrapped without breaking a word at its hyphen (a bot's
    name such as ``margin-no-risk`` stays whole)."""

    def _fill_text(self, text, width, indent):
        text = self._whitespace_matcher.sub(" ", text).strip()
        return textwrap.fill(text, width, initial_indent=indent, subsequent_indent=indent, break_on_hyphens=False)

    def _split_lines(self, text, width):
        return textwrap.wrap(self._whitespace_matcher.sub(" ", text).strip(), width, break_on_hyphens=False)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str):  # one line, status 2 (as argparse does, minus the usage dump)
        raise UsageError(f"{self.prog}: error: {message}")

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
_EDITION_HELP = "second (default), first, or cards: Camel Up Cards with its default set-up"
_RULES_HELP = ("a rule variant (house rule): a JSON file such as {\"name\": \"house\", \"money_floor\": null} "
               "or inline key=value pairs such as 'name=house money_floor=none pile_payouts=8,5,3,1' "
               "(see docs/user-guide/variants.md)")


class UsageError(Exception):
    """A bad command line: the one line to print (exit status 2)."""


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


def _add_overwrite_option(cmd, what: str = "OUTPUT") -> None:
    cmd.add_argument("--overwrite", action="store_true",
                     help=f"replace {what} if it exists (without it an existing file is never replaced; a file "
                     "another run is writing is refused either way)")


def _add_picture_output(cmd) -> None:
    cmd.add_argument("-o", "--output", required=True, help="picture file (.png, .svg or .pdf)")


def _add_engine_options(cmd, note: str = "") -> None:
    """``--engine`` and ``--scheduler``: where the work runs (``note`` ends
    the engine's help)."""
    cmd.add_argument("--engine", choices=("local", "dask"), default="local",
                     help="local (all cores of this machine) or dask (a Dask cluster, see --scheduler)" + note)
    cmd.add_argument("--scheduler", help="address of the Dask scheduler, e.g. tcp://10.0.0.5:8786")


def _add_processes_option(cmd) -> None:
    cmd.add_argument("--processes", type=_int_option(1, MAX_PROCESSES, f"1..{MAX_PROCESSES}"),
                     help="worker processes (default: one per core)")


def _add_sampling_options(cmd, precision_help: str, seed_help: str) -> None:
    """``--precision``, ``--seed`` and ``--threads`` of a position's odds or advice."""
    cmd.add_argument("--precision", type=_precision, default=0.002, help=precision_help)
    cmd.add_argument("--seed", type=_seed, help=seed_help)
    cmd.add_argument("--threads", type=_positive_int, help="threads for the simulation (default: all cores)")


def _add_edition_options(cmd) -> None:
    """``--edition``, ``--rules`` and ``--seed`` of a run of games."""
    cmd.add_argument("--edition", choices=("second", "first", "cards"), default="second", help=_EDITION_HELP)
    cmd.add_argument("--rules", help=_RULES_HELP)
    cmd.add_argument("--seed", type=_seed, default=0, help="seed of the run (default 0)")


def _add_records_output_options(cmd, output_help: str, required: bool = False) -> None:
    """Where a run of games writes its records, and how it runs: ``--processes``,
    ``-o``, ``--resume``, ``--overwrite``, ``--engine``, ``--scheduler``."""
    _add_processes_option(cmd)
    cmd.add_argument("-o", "--output", help=output_help, required=required)
    cmd.add_argument("--resume", action="store_true",
                     help="continue an interrupted run: keep the complete games of OUTPUT.part")
    _add_overwrite_option(cmd)
    _add_engine_options(cmd, "; the games are the same")


def _add_odds(sub, name: str) -> None:
    """``camelup odds``: leg and race odds."""
    odds = sub.add_parser(
        name,
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
    _add_sampling_options(odds, "race odds: stop once every win/lose probability has a 95%% half-width below P "
                          "(default 0.002 = +-0.2 percentage points)",
                          "seed of every random figure (default: drawn and reported)")
    odds.add_argument("--leg-only", action="store_true", help="leg odds only, no race odds")
    odds.add_argument("--others", choices=("random", "later", "reveal"), help=_OTHERS_HELP)
    odds.add_argument("--rules", help=_RULES_HELP)


def _add_best(sub, name: str) -> None:
    """``camelup best``: every legal action ranked."""
    best = sub.add_parser(
        name,
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
    _add_sampling_options(best, "race odds precision for overall cards (default 0.002)",
                          "seed of the race simulation (default: drawn and reported)")
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
    _add_overwrite_option(best, "the --chart file")
    best.add_argument("--no-infer", action="store_true",
                      help="with game records: model other players' face-down overall cards by the race odds "
                           "instead of inferring their colours from the game's history")


def _add_review(sub, name: str) -> None:
    """``camelup review``: recorded games against the best decisions."""
    review = sub.add_parser(
        name, help="every decision of recorded games against the best one; skill and luck apart",
        description="Review game records (JSON lines, from camelup simulate, camelup play, the web page or "
        "written by hand; 1st and 2nd edition, Camel Up Cards): each decision's EV against the best action's (EV lost, rank, "
        "the figures behind both) and its chance of winning the game against the highest chance's (win lost: the "
        "advice's win model, a shared first place counting 1/k), per player the EV lost and the win lost, "
        "mistakes (> 0.5 coin) and blunders (> 1.5), "
        "accuracy (within 0.1 coin), and the final money taken apart exactly into start + skill + others + "
        "luck (see docs/user-guide/review.md). A record that does not replay is reported with its game and turn "
        "(exit status 2) and the other games are still reviewed. Camel Up Cards records are reviewed action "
        "by action from the mover's view, the EVs sampled, the chance of winning from the Camel Up Cards advice's "
        "win model; their money is not taken apart (docs/user-guide/review.md).")
    review.add_argument("records", help="game records (.jsonl)")
    review.add_argument("--game", type=_nonneg_int, help="review this game of the file only (0 = the first)")
    review.add_argument("--player", type=_nonneg_int,
                        help="show this player's decisions and row only (only their decisions are "
                        "valued: faster)")
    review.add_argument("--json", action="store_true", help=_JSON_HELP)
    review.add_argument("-o", "--output", help="write every decision to this file (.csv, .jsonl or .parquet)")
    review.add_argument("--chart", help="draw the EV lost, the chance of winning lost and the cumulative skill "
                        "and luck of one game (.png, .svg or .pdf)")
    review.add_argument("--precision", type=_precision, default=0.002,
                        help="race odds precision behind the overall cards (default 0.002, as best)")
    review.add_argument("--seed", type=_seed, default=0, help="seed of the race odds behind the details (default 0)")
    review.add_argument("--full", action="store_true",
                        help="value every decision with best's full valuation (slower)")
    review.add_argument("--details", action=argparse.BooleanOptionalAction, default=None,
                        help="the figures behind the action taken and the best one (default: on for one game)")
    _add_processes_option(review)
    _add_engine_options(review)
    _add_overwrite_option(review, "the -o and --chart files")


def _games_parser(sub, name: str, text: str, output_required: bool = False):
    """The subparser of ``camelup simulate`` or ``camelup tournament``, with
    the arguments they share."""
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
    _add_edition_options(cmd)
    _add_records_output_options(cmd, "JSON lines file (.jsonl) for the game records"
                                + (" (required)" if output_required else ""), required=output_required)
    cmd.add_argument("--dice", choices=("game", "leg"), default="game",
                     help="game (default): one random stream per game; leg: each leg's dice (Camel Up "
                     "Cards: its deal and deck order) fixed by the game's seed and the leg's number, whatever "
                     "the players do (see camelup duel)")
    return cmd


def _add_simulate(sub, name: str) -> None:
    """``camelup simulate``: games between bots, their records written."""
    _games_parser(sub, name, "play games between bots and write their records (JSON lines)", output_required=True)


def _add_tournament(sub, name: str) -> None:
    """``camelup tournament``: seat-rotated games between bots, a table of results."""
    cmd = _games_parser(sub, name, "seat-rotated games between bots: win rates with 95% intervals, average money")
    cmd.add_argument("--json", action="store_true",
                     help="print the table as one JSON object (null where there is no interval)")
    cmd.add_argument("--seating", choices=("rotate", "orders"), default="rotate",
                     help="rotate (default): game i seats the bots as listed, rotated by i places: each "
                     "bot plays each seat equally often, always right after the same bot; orders: the "
                     "rotations of every cyclic order of the bots in turn (PLAYERS games each), so each "
                     "bot also plays right after each other bot equally often, balanced over every "
                     "PLAYERS! games (24 at 4 players; in Camel Up Cards the player just before another "
                     "takes the best cards first)")


def _add_duel(sub, name: str) -> None:
    """``camelup duel``: paired games of two bots."""
    duel = sub.add_parser(
        name, help="paired games: bot A against bot B with the same dice, seats and field",
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
    _add_edition_options(duel)
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
    _add_records_output_options(duel, "JSON lines file (.jsonl) for the game records (pair i: games 2i, 2i+1)")


def _add_bot(sub, name: str) -> None:
    """``camelup bot``: a bot's ranking of the legal actions of a game state."""
    bot = sub.add_parser(
        name, help="a bot's ranking of every legal action in a game state (for programs hosting the bots)",
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


def _add_batch(sub, name: str) -> None:
    """``camelup batch``: a file of positions analysed into a table."""
    batch = sub.add_parser(
        name, help="analyse a file of positions into CSV, JSON lines or Parquet",
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
                            "breaking near-ties) or expected coins (ev), for both games")
    batch.add_argument("--precision", type=_precision, default=0.01,
                       help="race odds precision (default 0.01 = +-1 percentage point)")
    batch.add_argument("--seed", type=_seed, default=0, help="seed of the race odds (default 0)")
    batch.add_argument("--resume", action="store_true",
                       help="continue the interrupted run in OUTPUT.part (same input and options), or start")
    batch.add_argument("--restart", action="store_true",
                       help="discard the interrupted run in OUTPUT.part and start again")
    _add_overwrite_option(batch)
    batch.add_argument("--chunk", type=_positive_int, default=10_000, help="rows per chunk (default 10000)")
    _add_engine_options(batch)


def _add_chart(sub, name: str) -> None:
    """``camelup chart``: probability curves through a recorded game."""
    chart = sub.add_parser(
        name, help="probability curves through a recorded game",
        description="Draw each camel's P(wins the leg), P(wins the race) and P(finishes last) after "
        "every turn of a game record (from camelup simulate), leg ends and the actual result marked "
        "(Camel Up Cards: the odds a spectator can give, from the shown, revealed and played cards). "
        "The format follows the extension of OUTPUT (.png, .svg, .pdf).")
    chart.add_argument("record", help="game records (JSON lines)")
    _add_picture_output(chart)
    chart.add_argument("--game", type=_nonneg_int, default=0, help="which game of the file (default 0)")
    chart.add_argument("--precision", type=_precision, default=0.01, help="race odds precision (default 0.01)")
    _add_overwrite_option(chart)


def _add_show(sub, name: str) -> None:
    """``camelup show``: a picture of a position."""
    show = sub.add_parser(
        name, help="a picture of a position with its leg odds",
        description="Draw the board (track, stacks, crazy camels, tiles, pyramid) with P(1st this leg); "
        "for a Camel Up Cards position (the token cards) its track cards, sandstorms, camels, palm and fennec "
        "and race deck.")
    show.add_argument("position", nargs="*", help="board string (default: the built-in example)")
    _add_picture_output(show)
    show.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    _add_overwrite_option(show)


def _add_play(sub, name: str) -> None:
    """``camelup play``: a game at the terminal."""
    play = sub.add_parser(
        name, help="an interactive game: humans and bots at one table",
        description="Play Camel Up in the terminal. On your turn type an action (leg:R, pyramid, "
        "tile:+7, winner:B, ...) or 'odds', 'best' (the advisor's ranking), 'undo', 'save FILE', 'help', "
        "'quit'. Each human sees only what their player may see (overall cards face down). "
        "--edition cards plays Camel Up Cards: deck building, then turns of a race action (reveal, hand, palm:N, "
        "fennec:N) with an optional bet (leg:C, mid:C, winner:C, loser:C) before or after it. On a first run "
        "the table shows at once and the kernels compile in the background while you read it (the table "
        "waits for them before it computes, and says so).")
    play.add_argument("--seats", help="comma-separated seats: human or a bot (default: human,advisor,heuristic,"
                      "random; Camel Up Cards: human,greedy,heuristic,random; with --load: the seats saved in the "
                      "record)")
    play.add_argument("--edition", choices=("second", "first", "cards"), help=_EDITION_HELP)
    play.add_argument("--rules", help=_RULES_HELP)
    play.add_argument("--seed", type=_seed, help="seed of the game (default: drawn and shown)")
    play.add_argument("--load", metavar="FILE", help="continue a saved game (JSON lines game records)")
    play.add_argument("--game", type=_nonneg_int, help="with --load: which game of the file (default 0)")
    play.add_argument("--autosave", metavar="FILE", help="save the game to FILE after every turn (a new file)")


def _add_serve(sub, name: str) -> None:
    """``camelup serve``: the web page."""
    serve = sub.add_parser(
        name, help="a web page for the table: click the board, see the odds and the best move, follow a game",
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


def _add_warmup(sub, name: str) -> None:
    """``camelup warmup``: every kernel compiled ahead."""
    sub.add_parser(
        name,
        help="compile every kernel once (later runs load them from the cache)",
        description="Compile every numba kernel and report the time each took. " + cache_place(),
    )


#: Every command, in the order of ``camelup --help``, and the function that
#: adds its subparser (the handlers are :data:`advisor.cli.command.COMMANDS`).
COMMAND_PARSERS = {
    "odds": _add_odds,
    "best": _add_best,
    "review": _add_review,
    "simulate": _add_simulate,
    "tournament": _add_tournament,
    "duel": _add_duel,
    "bot": _add_bot,
    "batch": _add_batch,
    "chart": _add_chart,
    "show": _add_show,
    "play": _add_play,
    "serve": _add_serve,
    "warmup": _add_warmup,
}


def build_parser() -> _Parser:
    """The whole ``camelup`` parser, every command of :data:`COMMAND_PARSERS` in it."""
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
    for name, add in COMMAND_PARSERS.items():
        add(sub, name)
    return parser


_VALUE_OPTIONS = ("--samples", "--seed", "--precision", "--threads", "--player", "--players", "--games",
                  "--processes", "--chunk", "--game", "--scheduler", "--engine", "--turn", "--rules", "--field",
                  "--sprt", "--alpha", "--beta", "--dice", "--sprt-min")


def parse(parser: _Parser, argv: list[str]) -> argparse.Namespace:
    """The arguments of ``argv`` (tile tokens such as ``-5@2`` kept in the position)."""
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
