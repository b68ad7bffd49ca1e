"""``camelup odds``, ``camelup best`` and ``camelup batch``: the odds of a
position, every action of the advised player ranked (a board string, a
game state file, a turn of a game record, or a Camel Up Cards position or
record), and a file of positions analysed into a table.

``camelup review`` is :func:`advisor.cli.review.run_review`."""

from __future__ import annotations

import argparse
import sys

from advisor._tools.files import check_input
from advisor._tools.jsonio import dumps
from advisor._tools.sampling import kernel_threads
from advisor import inputs as reader
from advisor.cli.args import cards_text, position_arg, position_kind, state_arg
from advisor.cli.pictures import figure, picture_path, save_picture
from advisor.cli.review import record_state
from advisor.errors import AdvisorError
from advisor.present.report import format_advice, format_leg_odds, format_race_odds
from advisor.odds.exact import leg_odds
from advisor.plotting import plot_advice, plot_landings
from advisor.present.jsonout import best_json, cards_best_json, cards_odds_json, odds_json

__all__: list[str] = []

#: Why this module imports inside its functions (tests/test_imports_top.py checks it).
LAZY_IMPORTS = "the command line loads a command's engine only when the command runs: camelup --help stays fast"


def cmd_odds(args: argparse.Namespace) -> int:
    """``camelup odds``: leg odds, and race odds unless ``--leg-only``."""
    text = cards_text(args)
    if text is not None:
        return _cmd_odds_cards(args, text)
    position = position_arg(args)
    from advisor.odds.montecarlo import race_odds, resolve_seed

    seed = resolve_seed(args.seed)
    odds = leg_odds(position, samples=args.samples, seed=seed if args.samples else None)
    race = None
    if not args.leg_only:
        race = race_odds(position, samples=args.samples, precision=args.precision, seed=seed,
                         threads=args.threads)
    if args.json:
        print(dumps(odds_json(position, odds, race, seed)))
        return 0
    print(format_leg_odds(odds))
    if race is not None:
        print()
        print(format_race_odds(race))
    return 0


def _cmd_odds_cards(args: argparse.Namespace, text: str) -> int:
    from advisor.cards import cards_odds, format_cards_odds
    from advisor.cards.odds import ODDS_OTHERS

    pos = reader.read_input(text, kind="cards").value
    with kernel_threads(args.threads):
        odds = cards_odds(pos, samples=args.samples, leg_samples=args.samples, precision=args.precision,
                          seed=args.seed, others=args.others or ODDS_OTHERS, race=not args.leg_only)
    if args.json:
        print(dumps(cards_odds_json(odds)))
        return 0
    print(format_cards_odds(odds))
    return 0


def cmd_best(args: argparse.Namespace) -> int:
    """``camelup best``: every legal action ranked, as text, JSON or a picture."""
    text = cards_text(args)
    if text is not None:
        return _cmd_best_cards(args, text)
    kind = position_kind(args)
    if kind == "cards-records":
        return _cmd_best_cards_record(args)
    if args.chart:
        picture_path(args.chart, overwrite=args.overwrite)
    if kind == "records":
        state, assumptions = record_state(args)
    else:
        _no_record_options(args)
        state, assumptions = state_arg(args, kind)
    if args.no_infer:  # a state file's own card models too
        from advisor.bots.inference import without_models

        state = without_models(state)
    from advisor.valuation.engine import advice_table

    with kernel_threads(args.threads):  # the text and JSON need no pandas: the table, not best_moves' frame
        advice = advice_table(state, args.player, precision=args.precision, seed=args.seed,
                              denial=not args.no_denial, objective=args.objective)
    if args.chart:
        fig = figure((9, 9))
        top, bottom = fig.subplots(2, 1, height_ratios=[3, 1])
        frame = advice.frame()
        plot_advice(frame, top)
        plot_landings(frame, bottom)
        save_picture(fig, args.chart)
    if args.json:
        from advisor.bots.inference import face_down_json

        print(dumps({**best_json(state, advice, assumptions), **face_down_json(state)}))
        return 0
    print(format_advice(state, advice, assumptions))
    return 0


def _cmd_best_cards(args: argparse.Namespace, text: str) -> int:
    from advisor.cards import cards_best, format_cards_advice
    from advisor.cards.odds import ADVICE_OTHERS

    if args.player:
        raise AdvisorError(f"--player {args.player}: a Camel Up Cards position is written from the advised player's "
                           "view (player 0: its hand, bets, money; figure holders counted from it); for another "
                           "player give a game record: camelup best GAMES.jsonl --turn T --player P")
    for option in ("players", "chart"):
        if getattr(args, option) is not None:
            raise AdvisorError(f"--{option} does not apply to Camel Up Cards")
    _no_record_options(args)
    pos = reader.read_input(text, kind="cards").value
    with kernel_threads(args.threads):
        frame = cards_best(pos, seed=args.seed, others=args.others or ADVICE_OTHERS, precision=args.precision,
                           objective=args.objective)
    if args.json:
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
    from advisor.cards.record import iter_cards_records, replay_cards
    from advisor.cli.table_cards import step_advice

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
                            progress=None, objective=args.objective)
    if args.json:
        print(dumps({**cards_best_json(frame.attrs["position"], frame), "game": game_no, "turn": turn,
                     "player": player}))
        return 0
    step = "" if player != state.current or not (state.raced or state.bet) else \
        (" (its race action played: a bet now, or pass)" if state.raced else " (its bet taken: the race action)")
    print(f"Game {game_no} of {path}, before action {turn} (leg {state.leg}, P{state.current} to act{step}): "
          f"advice for P{player}, from what P{player} sees.")
    print(format_cards_advice(frame))
    return 0


def cmd_batch(args: argparse.Namespace) -> int:
    """``camelup batch``: every position of a file analysed into a table; exit status 1 if a row failed."""
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
