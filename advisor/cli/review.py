"""``camelup review`` and ``camelup best GAMES.jsonl --game N --turn T``:
the command-line side of :mod:`advisor.reviews.review` (checks before work, text
and JSON output, the decisions file, the chart)."""

from __future__ import annotations

import sys
from pathlib import Path

from advisor.errors import AdvisorError
from advisor.cli.args import engine_kwargs
from advisor._tools.files import atomic_output, check_input, check_output
from advisor._tools.jsonio import dumps
from advisor.plotting import plot_review

__all__ = ["run_review", "record_state", "format_review", "format_summary", "seat_summary", "review_json",
           "write_table", "TABLE_SUFFIXES"]

#: Why this module imports inside its functions (tests/test_imports_top.py checks it).
LAZY_IMPORTS = "the command line loads a command's engine only when the command runs: camelup --help stays fast"

TABLE_SUFFIXES = (".csv", ".jsonl", ".parquet")
PICTURE_SUFFIXES = (".png", ".svg", ".pdf")


def _pick(path, game: int):
    """``(line, record)`` of game ``game`` of a file of records."""
    from advisor.reviews.review import read_games

    count = 0
    for index, line, record in read_games(path):
        if index == game:
            return line, record
        count += 1
    raise AdvisorError(f"--game {game}: {path} holds {count} game(s)")


def record_state(args):
    """The state of ``camelup best GAMES.jsonl [--game N] [--turn T]
    [--player P]``: the game replayed to turn T (before it), as the advised
    player (default: the one to move) sees it, other players' face-down
    cards inferred from the game's history (:func:`advisor.bots.inference.infer_view`)
    unless ``--no-infer``; and no assumptions."""
    from advisor.game import replay

    path = args.position[0]
    if args.players is not None:
        raise AdvisorError("--players applies to a bare board string, not to game records")
    check_input(path, "game records")
    game_no = args.game or 0
    line, record = _pick(path, game_no)
    turns = sum(1 for e in record if e.get("type") == "action")
    turn = args.turn or 0
    if turn > turns:
        raise AdvisorError(f"--turn {turn}: game {game_no} of {path} has {turns} turns (0..{turns})")
    try:
        game = replay(record, upto=turn)
    except AdvisorError as exc:
        raise AdvisorError(f"{path}:{line}: game {game_no} does not replay to turn {turn}: {exc}") from None
    if game.finished:
        raise AdvisorError(f"--turn {turn}: game {game_no} of {path} is over after turn {turn - 1}")
    player = game.to_move if args.player is None else args.player
    if player >= game.state.n_players:
        raise AdvisorError(f"--player {player}: the game has {game.state.n_players} players")
    args.player = player
    if not getattr(args, "no_infer", False):
        from advisor.bots.inference import infer_view

        return infer_view(record, turn, player), []
    return game.view(player), []


# --------------------------------------------------------------------------
# Files
# --------------------------------------------------------------------------


def write_table(frame, path) -> None:
    """Write ``frame`` to ``path`` (.csv, .jsonl or .parquet), which appears
    only when complete."""
    kind = Path(path).suffix.lower()
    with atomic_output(path, "output") as tmp:
        if kind == ".csv":
            frame.to_csv(tmp, index=False)
        elif kind == ".parquet":
            frame.to_parquet(tmp, index=False)
        else:
            with open(tmp, "w", encoding="utf-8") as fh:
                for row in frame.to_dict(orient="records"):
                    fh.write(dumps(row) + "\n")


def _check_paths(args) -> None:
    """Everything checked before any work: the records readable, the
    outputs writable (not the input), Parquet support, the options."""
    check_input(args.records, "game records")
    if args.output:
        check_output(args.output, suffixes=TABLE_SUFFIXES, inputs=[args.records], overwrite=args.overwrite)
        if Path(args.output).suffix.lower() == ".parquet":
            from advisor.batch.io import pyarrow_parquet

            pyarrow_parquet()
    if args.chart:
        check_output(args.chart, suffixes=PICTURE_SUFFIXES, what="picture file", inputs=[args.records],
                     overwrite=args.overwrite)
    engine_kwargs(args)  # --engine, --scheduler and --processes checked together


# --------------------------------------------------------------------------
# Text and JSON
# --------------------------------------------------------------------------


def _coins(x: float) -> str:
    return "-" if x != x else f"{x:+.2f}"  # NaN: a part not computed (Camel Up Cards)


def _points(x: float, width: int = 6) -> str:
    """A chance (or a chance lost) in percentage points; NaN: no figure (a player without decisions)."""
    return f"{'-':>{width}}" if x != x else f"{100 * x:{width}.1f}"


def format_review(rev, player: int | None = None) -> str:
    """One game's review as text: every decision, then the players."""
    info = rev.info
    title = {"second": "Camel Up (2nd edition)", "first": "Camel Up (1st edition)",
             "cards": "Camel Up Cards"}[info["edition"]]
    end = (f"race won by {info['winner_camel']}, last {info['loser_camel']}; money "
           + " ".join(str(m) for m in info["money"])) if info["finished"] else "unfinished record"
    lines = [f"Game {info['game']}: {title}, {info['players']} players, {info['turns']} turns, {info['legs']} legs; "
             f"{end}", ""]
    dec = rev.decisions if player is None else rev.decisions[rev.decisions["player"] == player]
    lines.append(f"{'turn':>4} {'leg':>3} {'player':<12} {'action':<10} {'EV':>7}  {'best':<10} {'EV':>7} "
                 f"{'lost':>6} {'rank':>7} | {'win%':>5}  {'best win':<10} {'win%':>5} {'lost':>5}")
    if info["edition"] == "cards":
        lines[-1:-1] = ["Camel Up Cards: one row per action of a turn (deck building not valued), its turn the "
                        "action's number in the record (camelup best FILE --turn T advises it); EV from the "
                        "mover's view, an action at a turn's start with the best way to finish the turn "
                        f"(race odds to {info['precision']:g}, seed {info['seed']}: sampled figures).", ""]
    for r in dec.itertuples():
        mark = " ??" if r.ev_lost > 1.5 else " ?" if r.ev_lost > 0.5 else ""
        lines.append(f"{r.turn:>4} {r.leg:>3} {f'{r.player} {r.seat}'[:12]:<12} {r.action:<10} {r.ev:+7.3f}  "
                     f"{r.best_action:<10} {r.best_ev:+7.3f} {r.ev_lost:6.3f} {f'{r.rank}/{r.options}':>7} | "
                     f"{_points(r.win, 5)}  {r.best_win_action or '-':<10} {_points(r.best_win, 5)} "
                     f"{_points(r.win_lost, 5)}{mark}")
        if isinstance(r.details, str) and r.ev_lost > 0.0005:
            lines.append(f"{'':>9}taken: {r.details}")
            lines.append(f"{'':>9}best:  {r.best_details}")
    lines += ["", "?: a mistake (EV lost > 0.5 coin); ??: a blunder (> 1.5).",
              _WIN_NOTE if info["edition"] != "cards" else _CARDS_WIN_NOTE, ""]
    lines.append(_players_text(rev.players if player is None else rev.players[rev.players["player"] == player]))
    return "\n".join(lines)


_WIN_NOTE = ("win%: the chance of winning the game after the action (the advice's win model, a first place shared "
             "by k players counting 1/k); best win: the action of the highest chance; lost: the chance lost "
             "against it, in percentage points.")
_CARDS_WIN_NOTE = ("win%: the chance of winning the game after the action, from the mover's view (the Camel Up "
                   "Cards advice's win model, the margin bot's; an action at a turn's start with the turn of the "
                   "highest chance it starts; a first place shared by k players counting 1/k); best win: the "
                   "action of the highest chance; lost: the chance lost against it, in percentage points.")


def _players_text(players) -> str:
    lines = [f"{'player':<14}{'decisions':>9} {'EV lost':>8} {'mean':>6} {'mistakes':>8} {'blunders':>8} "
             f"{'accurate':>8} {'win lost':>8} | {'start':>5} {'skill':>7} {'others':>7} {'luck':>7} = {'final':>6}"]
    for r in players.itertuples():
        lines.append(f"{f'{r.player} {r.seat}'[:14]:<14}{r.decisions:>9} {r.ev_lost_total:8.2f} "
                     f"{r.ev_lost_mean:6.3f} {r.mistakes:>8} {r.blunders:>8} {100 * r.accurate:7.0f}% "
                     f"{_points(r.win_lost_total, 8)} | "
                     f"{r.start:5.1f} {_coins(r.skill):>7} {_coins(r.others):>7} {_coins(r.luck):>7} = "
                     f"{'-' if r.final != r.final else f'{r.final:.1f}':>6}{'  won' if r.won else ''}")
    for r in players.itertuples():
        if r.mistake_list:
            lines.append(f"player {r.player} mistakes: {r.mistake_list}")
    if players.attrs.get("decomposed", True):
        lines.append("start + skill (EV of own actions) + others (EV others' actions moved) + luck (the dice "
                     "beyond expectation) = final money, exactly; win lost: the chance of winning lost over the "
                     "player's decisions, in percentage points (not part of the sum).")
    else:
        lines.append("skill: the EV of own actions, each from the mover's view (sampled figures); others and "
                     "luck are not computed for Camel Up Cards (docs/user-guide/review.md); win lost: the chance "
                     "of winning lost over the player's decisions, in percentage points.")
    return "\n".join(lines)


def seat_summary(players):
    """The players of many reviewed games summed by seat name: games,
    decisions, EV lost per decision, mistakes and blunders per game,
    accuracy, mean start, skill, others, luck and final money, win rate,
    chance of winning lost per decision."""
    import pandas as pd

    if not len(players):
        return pd.DataFrame(columns=["seat", "games", "decisions", "ev_lost_mean", "mistakes", "blunders",
                                     "accurate", "skill", "others", "luck", "final", "win_rate", "win_lost_mean"])
    frame = players.assign(won=players["won"].astype(float),
                           close=players["accurate"] * players["decisions"])
    grouped = frame.groupby("seat", sort=False)
    out = pd.DataFrame({
        "games": grouped.size(),
        "decisions": grouped["decisions"].sum(),
        "ev_lost_mean": grouped["ev_lost_total"].sum() / grouped["decisions"].sum(),
        "mistakes": grouped["mistakes"].mean(), "blunders": grouped["blunders"].mean(),
        "accurate": grouped["close"].sum() / grouped["decisions"].sum(),
        **{k: grouped[k].mean() for k in ("skill", "others", "luck", "final")},
        "win_rate": grouped["won"].mean(),
        # NaN where no game of the seat has the figure (no decisions)
        "win_lost_mean": grouped["win_lost_total"].sum(min_count=1) / grouped["decisions"].sum(),
    }).reset_index()
    return out


def format_summary(players, games: int) -> str:
    table = seat_summary(players)
    lines = [f"{games} game(s) reviewed; per seat (mistakes and blunders per game; skill, others, luck, final: "
             "mean coins per game; win lost/turn: the chance of winning lost per decision, in percentage points):",
             f"{'seat':<14}{'games':>6} {'EV lost/turn':>12} {'mistakes':>8} {'blunders':>8} {'accurate':>8} | "
             f"{'skill':>7} {'others':>7} {'luck':>7} {'final':>7} {'won':>6} {'win lost/turn':>13}"]
    for r in table.itertuples():
        lines.append(f"{str(r.seat)[:14]:<14}{r.games:>6} {r.ev_lost_mean:12.3f} {r.mistakes:8.1f} "
                     f"{r.blunders:8.1f} {100 * r.accurate:7.0f}% | {_coins(r.skill):>7} {_coins(r.others):>7} "
                     f"{_coins(r.luck):>7} {r.final:7.1f} {100 * r.win_rate:5.1f}% {_points(r.win_lost_mean, 13)}")
    return "\n".join(lines)


def review_json(results, errors: list[dict], player: int | None, options: dict) -> dict:
    """The ``--json`` object: options, each game's decisions and players
    (with the exact parts as strings of fractions), the errors."""
    games = []
    for rev in results:
        dec, pl = rev.decisions, rev.players
        if player is not None:
            dec, pl = dec[dec["player"] == player], pl[pl["player"] == player]
        exact = [{k: str(v) for k, v in parts.items()} for p, parts in enumerate(rev.exact)
                 if player is None or p == player]
        info = {k: rev.info[k] for k in ("game", "edition", "players", "turns", "legs", "finished", "seats",
                                          "money", "winner_camel", "loser_camel")}
        games.append({**info, "decisions": dec.to_dict(orient="records"), "players": pl.to_dict(orient="records"),
                      "exact": exact})
    return {**options, "games": games, "errors": errors}


# --------------------------------------------------------------------------
# The command
# --------------------------------------------------------------------------


def run_review(args) -> int:
    """``camelup review``: exit status 0, or 2 when a game could not be
    reviewed (the others are)."""
    import pandas as pd

    from advisor.reviews.review import count_games, review_records

    _check_paths(args)
    games = None if args.game is None else {args.game}
    total = count_games(args.records, games)  # the whole file is read (and its format checked) first
    if args.game is not None and total == 0:
        raise AdvisorError(f"--game {args.game}: {args.records} holds {count_games(args.records)} game(s)")
    if args.chart and total != 1:
        raise AdvisorError(f"--chart draws one game and {args.records} holds {total}: give --game N")
    details = args.details if args.details is not None else total == 1
    options = {"precision": args.precision, "seed": args.seed, "full": args.full, "details": details}
    players = None if args.player is None else {args.player}  # --player: only theirs are valued
    reviews, errors = [], []
    for done in review_records(args.records, games=games, processes=args.processes, engine=args.engine,
                               scheduler=args.scheduler, total=total, players=players, **options):
        if done.error:
            print(f"camelup: error: {done.error}", file=sys.stderr)
            errors.append({"game": done.index, "line": done.line, "error": done.error})
        else:
            reviews.append(done.review)
    if args.player is not None and reviews and args.player >= max(r.info["players"] for r in reviews):
        raise AdvisorError(f"--player {args.player}: the games have at most "
                           f"{max(r.info['players'] for r in reviews)} players")
    if args.output:
        frames = [r.decisions for r in reviews]
        table = pd.concat(frames, ignore_index=True) if frames else reviews_empty()
        if args.player is not None:
            table = table[table["player"] == args.player]
        write_table(table, args.output)
        print(f"Wrote {len(table)} decisions of {len(reviews)} game(s) to {args.output}", file=sys.stderr)
    if args.chart and reviews:
        _chart(reviews[0], args.chart)
    if args.json:
        print(dumps(review_json(reviews, errors, args.player, options)))
    elif len(reviews) == 1 and total == 1:
        print(format_review(reviews[0], args.player))
    elif reviews:
        players = pd.concat([r.players for r in reviews], ignore_index=True)
        if args.player is not None:
            players = players[players["player"] == args.player]
        print(format_summary(players, len(reviews)))
    return 2 if errors else 0


def reviews_empty():
    import pandas as pd

    from advisor.reviews.review import DECISION_COLUMNS

    return pd.DataFrame(columns=DECISION_COLUMNS)


def _chart(rev, path: str) -> None:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(11, 5), layout="constrained")
    plot_review(rev, fig.add_subplot())
    with atomic_output(path, "picture file") as tmp:
        fig.savefig(tmp, format=Path(path).suffix.lower()[1:], dpi=120)
    print(f"Wrote {path}", file=sys.stderr)
