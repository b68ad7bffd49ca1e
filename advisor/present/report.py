"""Text reports: leg odds, race odds and advice as the CLI and the
interactive game print them."""

from __future__ import annotations

__all__ = ["format_leg_odds", "format_race_odds", "format_advice"]

from advisor._tools.intervals import honest_half, too_few, wilson_half
from advisor.odds.exact import RANK_LABELS
from advisor.rules.editions import CAMEL_NAMES
from advisor.valuation.explain import action_details as _details  # the figures behind an EV, one line


def describe_action(action: str) -> str:
    """An action in words: ``leg:R`` -> "Take the red leg tile"."""
    kind, _, rest = action.partition(":")
    if kind == "leg":
        return f"Take the {CAMEL_NAMES.get(rest, rest)} leg tile"
    if kind in ("winner", "loser"):
        return f"Bet {CAMEL_NAMES.get(rest, rest)} to {'win' if kind == 'winner' else 'lose'} the race"
    if kind == "tile":
        return f"Place your tile {rest[0]} on space {rest[1:]}"
    if kind == "pyramid":
        return "Roll (take a pyramid tile)"
    if kind == "partner":
        return f"Partner with player {rest}"
    return action


def format_leg_odds(odds) -> str:
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
        half = float(wilson_half(odds.rank, odds.samples).max()) * 100  # Wilson: honest at small counts
        legs = f"{odds.samples:,} leg{'s' * (odds.samples != 1)}"
        lines.append(f"Leg odds, sampled from {legs} (seed {odds.seed}; up to +-{half:.2f} pp at 95%, Wilson):")
        if too_few(odds.samples, "legs"):
            lines.append(f"Warning: {too_few(odds.samples, 'legs' if odds.samples != 1 else 'leg')}.")
    lines.append("camel " + "".join(f"{label:>8}" for label in RANK_LABELS))
    for camel in odds.order():
        row = odds.rank[odds.camels.index(camel)]
        lines.append(f"  {camel}   " + "".join(f"{100 * x:7.1f}%" for x in row))
    lines.append(f"P(the race ends during this leg): {100 * odds.race_ends:.1f}%")
    for space, expected in odds.expected_landings().items():
        tile = p.tile_at(space)
        lines.append(f"Tile {tile.token}: expected landings this leg {expected:.3f}")
    return "\n".join(lines)

def format_race_odds(race) -> str:
    if race.exact:
        head = "Race odds, exact (the race must end within this leg or the next):"
    else:
        head = (f"Race odds, {race.samples:,} simulated races (seed {race.seed}), "
                f"95% intervals; later legs sampled from the exact end states of this leg:")
    hw = race.half_width()
    if not race.exact:  # Wilson where the normal approximation fails (p near 0 or 1, few races)
        hw = honest_half(hw, race.rank, race.samples)

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

def _chance(p: float, se: float | None) -> str:
    """A chance of winning in whole percent, with its standard error where
    that shows at whole percent."""
    text = f"{100 * p:.0f}%"
    if se is not None and round(100 * se) >= 1:
        text += f" (+-{100 * se:.0f})"
    return text


def format_advice(state, frame, assumptions) -> str:
    player = frame.attrs["player"]
    me = state.players[player]
    lines = [f"Position: {state.position}  ({state.position.rules.title})",
             f"Advice for player {player}: money {me.money}, "
             f"leg tiles {' '.join(f'{c}{v}' for c, v in me.leg_tiles) or 'none'}, "
             f"pyramid tiles {me.pyramid_tiles}, overall cards in hand {state.hand(player) or 'none'}"]
    if assumptions:
        lines.append("Assumed (no game state given): " + "; ".join(assumptions) + ".")
    if frame.attrs["race_samples"] is not None:
        samples = frame.attrs["race_samples"]
        lines.append("Overall cards use race odds " + (
            "computed exactly." if samples == 0 else f"from {samples:,} simulated races (seed {frame.attrs['seed']})."))
    from advisor.bots.inference import face_down_lines  # lazy: the CLI loads this module at start-up (+0.1 s)

    lines += face_down_lines(state)
    win = "win" in frame.columns  # ranked by the chance of winning the game
    records = frame.to_dict(orient="records")
    if win:
        best = records[0]
        lines.append(f"Your chance of winning: {_chance(frame.attrs['win_now'], frame.attrs.get('win_now_se'))} now, "
                     f"{_chance(best['win'], best.get('win_se'))} after {describe_action(best['action'])}.")
    lines.append("")
    book = "cov" in frame.columns  # the portfolio view (with the race odds)
    head = f" {'cov':>7} {'portf.':>7}" if book else ""
    errors = win and "win_se" in frame.columns
    whead = (f" {'win':>6}" + (f" {'+-':>5}" if errors else "")) if win else ""
    lines.append(f"{'action':<10}{whead} {'EV':>7} {'sd':>6} {'P(loss)':>8} {'denial':>7}{head}  details")
    for row in records:
        cells = f" {row['cov']:+7.2f} {row['portfolio']:+7.3f}" if book else ""
        wcell = (f" {100 * row['win']:5.1f}%" + (f" {100 * row['win_se']:5.2f}" if errors else "")) if win else ""
        lines.append(f"{row['action']:<10}{wcell} {row['ev']:+7.3f} {row['sd']:6.2f} {100 * row['p_loss']:7.1f}% "
                     f"{row['denial']:+7.3f}{cells}  {_details(row)}")
    lines.append("")
    if win:
        lines.append("win: your chance of winning the game after the action (a shared first place counted as a "
                     "share), from every player's expected wealth and the legs left (advisor.valuation.winchance); rows ranked "
                     "by it, EV breaking near-ties; --objective ev ranks by EV.")
    if errors:
        lines.append("+-: the standard error of win (percentage points) from the sampling of the race odds it "
                     "reads (0: exact; advisor.valuation.winerror); not the model's own error (its calibration error on "
                     "held-out games, measured by python benchmarks/calibration.py).")
    lines.append("EV: expected change of your money in coins; sd / P(loss): spread and chance of a loss of the "
                 "action's own payout; denial: how much the next player's best option drops.")
    if book:
        lead, lam = frame.attrs["lead"], frame.attrs["risk_attitude"]
        mood = ("level with the richest other player: EV alone" if lam == 0 else
                f"you lead by {lead} coins: diversify" if lam > 0 else f"you trail by {-lead} coins: concentrate")
        lines.append("cov: covariance (coins^2) of the action's payout with the bets you hold (leg tiles this leg, "
                     "overall cards at the race end): > 0 adds to the outcomes you already need, < 0 hedges them; "
                     f"portf.: EV - {lam:.3f} x cov ({mood}; README, Portfolio view).")
    return "\n".join(lines)
