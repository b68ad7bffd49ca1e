"""Camel Up Cards (``cards``): positions, odds and advice.

See :mod:`advisor.cards.position` for the notation, :mod:`advisor.cards.odds`
for the model behind the odds and :mod:`advisor.cards.advice` for the EVs.
"""

from advisor._tools.intervals import honest_half
from advisor.cards.best import cards_best
from advisor.cards.odds import OTHERS, CardsOdds, cards_odds
from advisor.cards.position import CAMELS, CardsPosition, is_cards, parse_cards

__all__ = ["CardsOdds", "CardsPosition", "cards_best", "cards_odds", "is_cards", "parse_cards", "format_cards_odds",
           "format_cards_advice"]


def format_cards_odds(odds: CardsOdds) -> str:
    """The odds as the CLI prints them."""
    import numpy as np

    pos = odds.position
    lines = [f"Position: {pos}  (Camel Up Cards, {pos.players} players, track of {pos.length} spaces)"]
    cards = f"{pos.deck} card{'s' if pos.deck > 1 else ''}"
    if OTHERS[odds.others][0]:  # the other players' race actions in this leg
        how = (f"sampled from {odds.leg_samples:,} legs (seed {odds.seed})" if odds.leg_samples
               else "exact over every order and content of the deck and the unseen hand cards")
        lines.append(f"Leg odds, {how}: the rest of the leg from player {pos.next}'s turn, the {cards} left in "
                     f"the race deck ({pos.unknown} unknown), the other players' race actions at random "
                     f"(--others random):")
    elif odds.leg_samples:
        lines.append(f"Leg odds, sampled from {odds.leg_samples:,} legs (seed {odds.seed}), the {cards} "
                     f"left in the race deck revealed:")
    else:
        lines.append(f"Leg odds, exact over every order and content of the {cards} left in the race deck "
                     f"({pos.unknown} unknown):")
    labels = ["1st", "2nd", "3rd", "4th", "5th"]
    lines.append("camel " + "".join(f"{x:>8}" for x in labels))
    for i in sorted(range(5), key=lambda i: -odds.leg[i] @ (4 - np.arange(5))):  # by expected rank
        lines.append(f"  {CAMELS[i]}   " + "".join(f"{100 * x:7.1f}%" for x in odds.leg[i]))
    lines.append(f"P(the race ends during this leg): {100 * odds.race_ends:.1f}%")
    if odds.win is None:
        return "\n".join(lines)
    if odds.race_samples:
        lines.append(f"Race odds, {odds.race_samples:,} simulated races (seed {odds.seed}; other players: "
                     f"{odds.others}), 95% intervals:")
    else:
        lines.append("Race odds, exact (the race must end in this leg):")
    lines.append("camel       win            lose")

    def half(p: float, se: float) -> str:  # Wilson where the normal approximation fails (p near 0 or 1)
        if not odds.race_samples:
            return "       "
        return f" +-{100 * float(honest_half(1.96 * se, p, odds.race_samples)):4.2f}"

    for i in sorted(range(5), key=lambda i: -odds.win[i]):
        lines.append(f"  {CAMELS[i]}   {100 * odds.win[i]:5.1f}%{half(odds.win[i], odds.win_se[i])}  "
                     f"{100 * odds.lose[i]:5.1f}%{half(odds.lose[i], odds.lose_se[i])}")
    return "\n".join(lines)


def format_cards_advice(frame, top: int = 15) -> str:
    """The advice as the CLI prints it: the best turns first (with the
    chance of winning when the frame has it)."""
    win = "win" in frame.columns
    lines = [f"Position: {frame.attrs['position']}",
             f"Best turns (race action with an optional bet; EV in coins; seed {frame.attrs['seed']}, "
             f"other players: {frame.attrs['others']}):"]
    if win:
        if frame.attrs.get("assumptions"):
            lines.append("Assumed (a position, not a game record): " + "; ".join(frame.attrs["assumptions"]) + ".")
        lines.append(f"Your chance of winning: {100 * frame.attrs['win_now']:.0f}% now, "
                     f"{100 * frame['win'].iloc[0]:.0f}% after {frame['action'].iloc[0]}.")
    lines.append(f"  {'turn':<26} {'timing':<8} {'win':>6} {'EV':>7}" if win else
                 "  turn                       timing      EV")
    for row in frame.head(top).itertuples():
        cell = f" {100 * row.win:5.1f}%" if win else ""
        lines.append(f"  {row.action:<26} {row.timing:<8}{cell} {row.ev:+7.3f}")
    if len(frame) > top:
        lines.append(f"  ... {len(frame) - top} more (--json lists every turn)")
    if win:
        lines.append(f"win: your chance of winning the game after the turn (a shared first place counted as a share): "
                     f"each leg outcome settles every player's bets, a race over is won by the most money, a race "
                     f"that goes on by the chance that your money ends the largest, the legs to come moving every "
                     f"player's money by a normal change (spread {frame.attrs['spread']} coins between two players; "
                     "advisor.cards.endgame); rows ranked by it, EV breaking near-ties; --objective ev ranks by EV. "
                     "Its calibration on held-out games: python benchmarks/calibration.py --edition cards.")
    return "\n".join(lines)
