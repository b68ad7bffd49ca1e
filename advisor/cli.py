"""The ``camelup`` command.

``camelup --help`` and ``--version`` import nothing heavy (no numba, pandas
or matplotlib): subcommands import what they need when they run.  Bad input
prints one line to stderr and exits with status 2; nothing is computed.
"""

from __future__ import annotations

import argparse
import json
import re
import sys

from . import EXAMPLE_POSITION, __version__
from .errors import AdvisorError

__all__ = ["main"]

_TILE_ARG = re.compile(r"^-\d+(@\S*)?$")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, status 2 (as argparse does, minus the usage dump)
        raise _UsageError(f"{self.prog}: error: {message}")


class _UsageError(Exception):
    pass


def _build_parser() -> _Parser:
    parser = _Parser(
        prog="camelup",
        description="Exact odds and best moves for Camel Up (1st and 2nd edition).",
        epilog="Positions use the board string notation, e.g. "
        f"'{EXAMPLE_POSITION}'. Quote it, or pass its tokens as separate arguments.",
    )
    parser.add_argument("--version", action="version", version=f"camelup-advisor {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    odds = sub.add_parser(
        "odds",
        help="leg and race odds of a position",
        description="Probability of every racing camel finishing the current leg 1st..5th "
        "(exact over every remaining die order and face, unless --samples is given), and of "
        "winning / losing the whole race (exact when the race must end within this leg or the "
        "next, else simulated until the 95%% interval is below --precision). "
        "Without a position, the built-in example is analysed.",
    )
    odds.add_argument("position", nargs="*", help="board string (default: the built-in example)")
    odds.add_argument("--json", action="store_true", help="print one JSON object (see NOTATION.md)")
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

    sub.add_parser(
        "warmup",
        help="compile every kernel once (later runs load them from the cache)",
        description="Compile every numba kernel and report the time each took.",
    )
    return parser


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _precision(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number such as 0.002, got {text!r}") from None
    if not 1e-4 <= value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 0.0001 and below 1, got {text}")
    return value


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not 0 <= value < 2**63:
        raise argparse.ArgumentTypeError(f"must be 0..2**63-1, got {value}")
    return value


_VALUE_OPTIONS = ("--samples", "--seed", "--precision", "--threads")


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
    try:
        return _COMMANDS[args.command](args)
    except AdvisorError as exc:
        print(f"camelup: error: {exc}", file=sys.stderr)
        return 2


def _position_arg(args: argparse.Namespace):
    from .notation import parse_position

    text = " ".join(args.position) if args.position else None
    if text is None:
        if not args.json:
            print(f"No position given: analysing the built-in example '{EXAMPLE_POSITION}'.\n")
        else:
            print(f"camelup: no position given: analysing the built-in example '{EXAMPLE_POSITION}'", file=sys.stderr)
        text = EXAMPLE_POSITION
    return parse_position(text)


def _cmd_odds(args: argparse.Namespace) -> int:
    position = _position_arg(args)
    from .exact import leg_odds
    from .montecarlo import race_odds, resolve_seed

    seed = resolve_seed(args.seed)
    odds = leg_odds(position, samples=args.samples, seed=seed if args.samples else None)
    race = None
    if not args.leg_only:
        race = race_odds(position, samples=args.samples, precision=args.precision, seed=seed,
                         threads=args.threads)
    if args.json:
        out = {"position": str(position), "leg": odds.to_dict()}
        if not odds.exact:
            out["leg_samples"] = odds.samples
        if race is not None:
            out["race"] = race.to_dict()
            out["race_samples"] = race.samples
            out["race_legs"] = [float(x) for x in race.legs]
        if not odds.exact or (race is not None and not race.exact):
            out["seed"] = seed
        print(json.dumps(out))
        return 0
    print(_format_leg_table(odds))
    if race is not None:
        print()
        print(_format_race_table(race))
    return 0


def _format_race_table(race) -> str:
    from .exact import RANK_LABELS

    if race.exact:
        head = "Race odds, exact (the race must end within this leg or the next):"
    else:
        head = (f"Race odds, {race.samples:,} simulated races (seed {race.seed}), "
                f"95% intervals; later legs sampled from the exact end states of this leg:")
    hw = race.half_width()

    def cell(p: float, h: float) -> str:
        return f"{100 * p:5.1f}%" + ("       " if race.exact else f" +-{100 * h:4.2f}")

    lines = [head, "camel       win           lose      " + "".join(f"{x:>7}" for x in RANK_LABELS)]
    for i in sorted(range(len(race.camels)), key=lambda i: -race.win[i]):
        lines.append(
            f"  {race.camels[i]}   {cell(race.win[i], hw[i, 0])}  {cell(race.lose[i], hw[i, -1])}  "
            + "".join(f"{100 * x:6.1f}%" for x in race.rank[i])
        )
    legs = ", ".join(
        ("this leg" if k == 0 else f"{k} leg{'s' if k > 1 else ''} later") + f" {100 * p:.1f}%"
        for k, p in enumerate(race.legs) if p >= 0.0005
    )
    lines.append(f"The race ends: {legs}")
    return "\n".join(lines)


def _format_leg_table(odds) -> str:
    from .exact import RANK_LABELS

    p = odds.position
    ed = p.rules
    rolls = len(p.dice) - ed.dice_left
    lines = [f"Position: {p}  ({ed.title})"]
    if odds.exact:
        lines.append(
            f"Leg odds, exact over {odds.total:,} equally likely die sequences "
            f"({rolls} roll{'s' if rolls != 1 else ''} left in this leg):"
        )
    else:
        half = 1.96 * float(odds.stderr.max()) * 100
        lines.append(
            f"Leg odds, sampled from {odds.samples:,} legs (seed {odds.seed}; +-{half:.2f} pp at 95%):"
        )
    lines.append("camel " + "".join(f"{label:>8}" for label in RANK_LABELS))
    for camel in odds.order():
        row = odds.rank[odds.camels.index(camel)]
        lines.append(f"  {camel}   " + "".join(f"{100 * x:7.1f}%" for x in row))
    lines.append(f"P(the race ends during this leg): {100 * odds.race_ends:.1f}%")
    for space, expected in odds.expected_landings().items():
        tile = p.tile_at(space)
        lines.append(f"Tile {tile.token}: expected landings this leg {expected:.3f}")
    return "\n".join(lines)


def _cmd_warmup(args: argparse.Namespace) -> int:
    import time

    from .warm import warmup

    print("Compiling kernels (cached for later runs):", flush=True)
    start = time.perf_counter()
    warmup(verbose=True)
    print(f"Done in {time.perf_counter() - start:.1f} s.")
    return 0


_COMMANDS = {"odds": _cmd_odds, "warmup": _cmd_warmup}


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
