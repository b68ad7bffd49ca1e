"""Charts (matplotlib).  Every function takes ``ax=None`` (a new figure when
omitted) and returns the Axes it drew on.

* :func:`plot_board`: the track, the stacks in their colours, crazy camels,
  tiles and the dice still in the pyramid;
* :func:`plot_cards_board`: a Camel Up Cards position: track cards,
  sandstorms, stacks, palm and fennec, the race deck;
* :func:`plot_game_odds`: each camel's probability of winning the leg and the
  race (and of finishing last) after every turn of a recorded game, leg
  boundaries and the actual results marked (board games and Camel Up Cards);
* :func:`plot_advice`: the EV of every action as a bar chart;
* :func:`plot_landings`: a heat map of the track for tile placement
  (expected landings of a cheering and a booing tile on every legal space);
* :func:`plot_review`: a reviewed game: the EV lost on every turn (bars,
  coloured by player), the chance of winning lost (markers, right axis) and
  each player's cumulative skill and luck (lines).
"""

from __future__ import annotations

import numpy as np

from advisor.errors import AdvisorError
from advisor.rules.position import DISPLAY_HOOKS, Position

__all__ = ["CAMEL_COLOURS", "CAMEL_INK", "plot_board", "plot_game_odds", "game_odds", "cards_game_odds", "plot_advice",
           "plot_landings", "plot_review", "PLAYER_COLOURS", "position_svg", "plot_cards_board"]

#: Why this module imports inside its functions (tests/test_imports_top.py checks it).
LAZY_IMPORTS = ("import advisor loads this module (the notebook picture of a Position): a chart's odds and "
                "records load when it is drawn")

#: Drawing colours of the players (seat 0, 1, ...).
PLAYER_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")

#: Drawing colours of the camels (racing and crazy).
CAMEL_COLOURS = {
    "B": "#1f5fbf", "G": "#2e9e44", "P": "#8a3fb5", "R": "#d62728", "Y": "#f2c014",
    "O": "#f07f16", "W": "#f4f4f4", "w": "#ffffff", "k": "#202020",
}

#: The page's text colour on each camel's colour (light on the dark ones).
CAMEL_INK = {c: "#fff" if c in "BGPROk" else "#111" for c in CAMEL_COLOURS}


def _axes(ax, size=(10, 3)):
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=size)
    return ax


def plot_board(position, ax=None, *, odds=None):
    """Draw ``position`` (a Position or board string).  ``odds``: a LegOdds
    to print P(1st) beside the track (default: computed)."""
    from matplotlib.patches import FancyBboxPatch, Rectangle

    from advisor.odds.exact import as_position, leg_odds

    pos = as_position(position)
    ax = _axes(ax, (12, 3.6))
    ed = pos.rules
    for space in range(1, 17):
        ax.add_patch(Rectangle((space - 0.5, -0.5), 1, 0.35, facecolor="#e8d9b5", edgecolor="#a08a5a"))
        ax.text(space, -0.33, str(space), ha="center", va="center", fontsize=8)
        tile = pos.tile_at(space)
        if tile is not None:
            owner = "" if tile.owner is None else f"P{tile.owner}"
            ax.text(space, 0.2, f"{tile.sign}\n{owner}", ha="center", va="bottom", fontsize=11,
                    color="#2e7d32" if tile.sign == "+" else "#b71c1c", fontweight="bold")
    for space, camels in pos.stacks:
        for height, camel in enumerate(camels):
            crazy = camel in ed.crazy
            ax.add_patch(FancyBboxPatch((space - 0.38, -0.1 + 0.42 * height), 0.76, 0.36,
                                        boxstyle="round,pad=0.02", facecolor=CAMEL_COLOURS[camel],
                                        edgecolor="black", linewidth=1.5 if crazy else 0.8,
                                        linestyle="--" if crazy else "-"))
            ax.text(space, 0.08 + 0.42 * height, camel, ha="center", va="center", fontsize=9,
                    color="white" if camel in "BPRGk" else "black")
    ax.text(16.7, -0.33, "finish", fontsize=8, va="center")
    ax.text(0.5, 3.05, "Pyramid: " + " ".join(pos.dice), fontsize=9)
    odds = odds if odds is not None else leg_odds(pos)
    best = "  ".join(f"{c} {100 * odds.probability(c):.0f}%" for c in odds.order())
    ax.text(0.5, 2.75, "P(1st this leg): " + best, fontsize=9)
    ax.set_xlim(0.3, 17.6)
    ax.set_ylim(-0.6, 3.3)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(f"{ed.title}: {pos}", fontsize=9)
    return ax


#: Fill colours of the Camel Up Cards track cards by kind.
_TRACK_FILL = {"n": "#e8d9b5", "s": "#d9a86c", "h": "#e8d9b5"}


def plot_cards_board(position, ax=None, *, odds=None):
    """Draw a Camel Up Cards position (a CardsPosition or its string): the
    start card with the camels side by side (the last ranked on the left),
    the track cards (normal cards of 2 spaces, sandstorm sides and the card
    half covered by the finish card of 1), the stacks, the palm and fennec
    with their card's holder, the race deck (cards left, known, revealed)
    and P(1st this leg).  ``odds``: a CardsOdds to print (default: the leg
    odds computed with seed 0)."""
    from matplotlib.patches import FancyBboxPatch, Rectangle

    from advisor.cards.odds import as_cards, cards_odds
    from advisor.cards.position import CAMELS

    pos = as_cards(position)
    length = pos.length
    ax = _axes(ax, (12, 3.8))
    ax.add_patch(Rectangle((-2.6, -0.5), 3.1, 0.35, facecolor="#c9c9c9", edgecolor="#707070"))
    ax.text(-1.05, -0.33, "start", ha="center", va="center", fontsize=8)
    left = 0.5
    for kind in pos.track:
        width = 2 if kind == "n" else 1
        ax.add_patch(Rectangle((left, -0.5), width, 0.35, facecolor=_TRACK_FILL[kind], edgecolor="#6b5a3a",
                               linewidth=1.2, hatch="//" if kind == "s" else None))
        if kind == "s":
            ax.text(left + 0.5, -0.62, "sandstorm", ha="center", va="center", fontsize=6)
        left += width
    for space in range(1, length + 1):
        ax.text(space, -0.33, str(space), ha="center", va="center", fontsize=7)
    if pos.track.endswith("h"):
        ax.text(length, -0.62, "half", ha="center", va="center", fontsize=6)
    ax.text(length + 0.62, -0.33, "finish", fontsize=8, va="center")

    def camel(x, y, c, width=0.76):
        ax.add_patch(FancyBboxPatch((x - width / 2, y), width, 0.36, boxstyle="round,pad=0.02",
                                    facecolor=CAMEL_COLOURS[c], edgecolor="black", linewidth=0.8))
        ax.text(x, y + 0.18, c, ha="center", va="center", fontsize=9, color="white" if c in "BG" else "black")

    for space, stack in pos.stacks:
        for height, c in enumerate(stack):
            if space == 0:  # side by side on the start card, the last ranked on the left
                camel(-2.3 + 0.6 * height, -0.1, c, width=0.5)
            else:
                camel(space, -0.1 + 0.42 * height, c)
    for name, fig, colour in (("palm", pos.palm, "#2e7d32"), ("fennec", pos.fennec, "#b26a00")):
        if fig:
            space, holder = fig
            who = "" if holder is None else f"\nP{holder}"
            ax.text(space, 0.0, f"{name}{who}", ha="center", va="bottom", fontsize=8, color=colour,
                    fontweight="bold")
    held = lambda cards: "".join(f"{c}{v}" for c, v in cards) or "-"  # noqa: E731
    ax.text(-2.5, 3.05, f"Race deck: {pos.deck} of {pos.decksize} cards left ({len(pos.known)} known: "
            f"{held(pos.known)}); revealed: {held(pos.revealed)}"
            + (f"; hand: {held([pos.hand])}" if pos.hand else ""), fontsize=9)
    odds = odds if odds is not None else cards_odds(pos, race=False, seed=0)
    order = sorted(range(5), key=lambda i: -odds.leg[i, 0])
    best = "  ".join(f"{CAMELS[i]} {100 * odds.leg[i, 0]:.0f}%" for i in order)
    ax.text(-2.5, 2.75, "P(1st this leg): " + best, fontsize=9)
    ax.set_xlim(-2.8, length + 1.9)
    ax.set_ylim(-0.75, 3.3)
    ax.set_aspect("equal")
    ax.axis("off")
    title = f"Camel Up Cards, {pos.players} players: {pos}"
    ax.set_title(title if len(title) <= 160 else title[:150] + "...", fontsize=9)
    return ax


def position_svg(position) -> str:
    """The board picture of :func:`plot_board` as SVG text (for notebooks)."""
    import io

    from matplotlib.figure import Figure

    fig = Figure(figsize=(12, 3.6))
    plot_board(position, fig.add_subplot())
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    return buf.getvalue()


# a Position shows as this picture in notebooks (the rules draw nothing)
DISPLAY_HOOKS["svg"] = position_svg


def game_odds(record, *, precision: float = 0.01, seed: int = 0):
    """A DataFrame with one row per position of a recorded game (before each
    turn): turn, leg, and for every racing camel ``C_leg`` (P(1st this
    leg)), ``C_win`` and ``C_lose`` (race odds)."""
    from advisor.cards.record import is_cards_record

    if is_cards_record(record):
        return cards_game_odds(record, precision=precision, seed=seed)
    import pandas as pd

    from advisor.odds.exact import leg_odds
    from advisor.game import replay
    from advisor.odds.montecarlo import race_odds

    game = replay(record)  # checks the record once
    texts = game.boards()[:-1]  # positions before each turn (the last is the end)
    legs = [1]
    for entry in game.record[1:]:
        if entry.get("type") == "action":
            legs.append(legs[-1] + (1 if entry.get("leg_over") else 0))
    rows = []
    cache: dict[str, tuple] = {}
    for turn, text in enumerate(texts):
        key = text.split(" legtiles:")[0]  # leg tiles do not change the odds
        if key not in cache:
            pos = Position.from_string(text)
            cache[key] = (leg_odds(pos), race_odds(pos, precision=precision, seed=seed))
        leg, race = cache[key]
        row = {"turn": turn, "leg": legs[turn]}
        for i, c in enumerate(leg.camels):
            row[f"{c}_leg"] = leg.rank[i, 0]
            row[f"{c}_win"] = race.win[i]
            row[f"{c}_lose"] = race.lose[i]
        rows.append(row)
    frame = pd.DataFrame(rows)
    frame.attrs.update(winner=game.winner_camel, loser=game.loser_camel, camels=leg.camels)
    return frame


def cards_game_odds(record, *, precision: float = 0.01, seed: int = 0):
    """:func:`game_odds` of a Camel Up Cards record: one row per player
    turn (turn, leg, player), the odds of the position as a spectator sees
    it at the turn's start (the shown, revealed and played cards known;
    :meth:`advisor.cards.game.CardsState.position` with ``player=None``)."""
    import pandas as pd

    from advisor.cards.game import ranking
    from advisor.cards.odds import cards_odds
    from advisor.cards.record import replay_cards

    starts = []

    def visit(game) -> None:
        s = game.state
        if s.phase == "turn" and not s.raced and not s.bet:
            starts.append((s.leg, s.current, s.position(None)))

    game = replay_cards(record, visit=visit)  # checks the record once
    if not game.finished:
        raise AdvisorError("the game is not over: the chart needs a whole game")
    rows = []
    cache: dict[str, object] = {}
    for turn, (leg, player, pos) in enumerate(starts):
        key = str(pos).split(" legtiles:")[0]  # the cards on offer do not change the odds
        if key not in cache:
            cache[key] = cards_odds(pos, precision=precision, seed=seed)
        odds = cache[key]
        row = {"turn": turn, "leg": leg, "player": player}
        for i, c in enumerate(odds.camels):
            row[f"{c}_leg"] = odds.leg[i, 0]
            row[f"{c}_win"] = odds.win[i]
            row[f"{c}_lose"] = odds.lose[i]
        rows.append(row)
    order = ranking(game.state.sp, game.state.ht)
    frame = pd.DataFrame(rows)
    frame.attrs.update(winner=order[0], loser=order[-1], camels=tuple(odds.camels))
    return frame


def plot_game_odds(record, ax=None, *, what: str = "win", precision: float = 0.01, seed: int = 0, frame=None):
    """Probability curves through a recorded game: ``what`` is ``"win"`` (race
    winner), ``"lose"`` (race loser) or ``"leg"`` (leg winner).  Leg
    boundaries are dashed lines; the actual winner (or loser) is drawn bold."""
    if what not in ("win", "lose", "leg"):
        raise ValueError(f"what must be 'win', 'lose' or 'leg', not {what!r}")
    frame = frame if frame is not None else game_odds(record, precision=precision, seed=seed)
    ax = _axes(ax, (10, 4))
    actual = frame.attrs["loser"] if what == "lose" else frame.attrs["winner"]
    from matplotlib.patheffects import withStroke

    for camel in frame.attrs["camels"]:
        bold = camel == actual and what != "leg"
        width = 3 if bold else 1.4
        pale = [withStroke(linewidth=width + 1.6, foreground="#606060")] if camel in "Ww" else None
        ax.plot(frame["turn"], frame[f"{camel}_{what}"], color=CAMEL_COLOURS[camel], linewidth=width,
                label=camel + (" (actual)" if bold else ""), path_effects=pale)
    for turn in frame.index[frame["leg"].diff().fillna(0) > 0]:
        ax.axvline(frame.at[turn, "turn"] - 0.5, color="grey", linestyle="--", linewidth=0.8)
    ax.set_xlabel("turn")
    ax.set_ylabel({"win": "P(wins the race)", "lose": "P(finishes last)", "leg": "P(wins the leg)"}[what])
    ax.set_ylim(0, 1)
    ax.legend(loc="upper left", fontsize=8, ncol=5)
    ax.set_title(f"Race won by {frame.attrs['winner']}, last {frame.attrs['loser']}; dashed: leg ends")
    return ax


def plot_advice(frame, ax=None, *, top: int | None = 20):
    """The EV of every action of a :func:`advisor.best_moves` frame (best
    first), as horizontal bars; ``top`` limits the number of bars."""
    ax = _axes(ax, (7, 6))
    data = frame.head(top) if top else frame
    kinds = {"leg": "#1f77b4", "pyramid": "#7f7f7f", "tile": "#2ca02c", "winner": "#ff7f0e",
             "loser": "#9467bd", "partner": "#8c564b"}
    ax.barh(range(len(data)), data["ev"], color=[kinds.get(k, "#333333") for k in data["kind"]])
    ax.set_yticks(range(len(data)), data["action"])
    ax.invert_yaxis()
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlabel("expected value (coins)")
    ax.set_title(f"Advice for player {frame.attrs.get('player', 0)}: {frame.attrs.get('position', '')}", fontsize=8)
    return ax


def plot_landings(frame, ax=None):
    """Heat map of the track for tile placement from a
    :func:`advisor.best_moves` frame: expected landings of a cheering (+) and a
    booing (-) tile on every space where the player may place one."""
    ax = _axes(ax, (10, 2.2))
    grid = np.full((2, 16), np.nan)
    tiles = frame[frame["kind"] == "tile"]
    for action, landings in zip(tiles["action"], tiles["landings"]):
        sign, space = action[5], int(action[6:])
        grid[0 if sign == "+" else 1, space - 1] = landings
    image = ax.imshow(grid, aspect="auto", cmap="viridis", extent=(0.5, 16.5, 1.5, -0.5))
    ax.set_yticks([0, 1], ["+ cheering", "- booing"])
    ax.set_xticks(range(1, 17))
    ax.set_xlabel("space (blank: not a legal place)")
    ax.figure.colorbar(image, ax=ax, label="expected landings")
    return ax


def plot_review(review, ax=None):
    """A reviewed game (:func:`advisor.review`): per turn, the EV lost
    by the player who acted (bars below zero, in that player's colour) and
    the chance of winning they lost (black-edged markers below zero, in
    percentage points on a second axis at the right, its zero level with
    the coins'; Camel Up Cards' from its advice's win model), and each
    reviewed player's cumulative skill (solid line) and luck (dashed) in coins; leg
    ends as grey dotted lines.  Returns the coins' Axes (the second one, in
    the same figure, has the label ``"win chance lost"``)."""
    ax = _axes(ax, (11, 5))
    dec, steps, info = review.decisions, review.steps, review.info
    seats = info["seats"]
    colours = [PLAYER_COLOURS[p % len(PLAYER_COLOURS)] for p in range(info["players"])]
    ax.bar(dec["turn"], -dec["ev_lost"], width=0.8, color=[colours[p] for p in dec["player"]], alpha=0.55)
    for p in review.players["player"]:  # the players reviewed (advisor.review(players=...): those asked for)
        mine = steps[steps["player"] == p].sort_values("turn")
        ax.plot(mine["turn"], mine["skill"].cumsum(), color=colours[p], linewidth=1.8,
                label=f"{p} {seats[p]}: skill")
        if mine["luck"].notna().any():  # a Camel Up Cards review has no luck part
            ax.plot(mine["turn"], mine["luck"].cumsum(), color=colours[p], linewidth=1.2, linestyle="--",
                    label=f"{p} {seats[p]}: luck")
    for turn in dec["turn"][dec["leg"].diff().fillna(0) > 0]:
        ax.axvline(turn - 0.5, color="grey", linestyle=":", linewidth=0.8)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xlabel("turn")
    ax.set_ylabel("coins: cumulative skill and luck; EV lost (bars, below 0)")
    handles = _plot_win_lost(ax, dec, colours)
    ax.legend(handles=ax.get_legend_handles_labels()[0] + handles, loc="upper left", fontsize=7,
              ncol=max(1, info["players"] // 2))
    end = ("final money " + " ".join(str(m) for m in info["money"])) if info["finished"] else "unfinished record"
    ax.set_title(f"Game {info['game']} review: {end}; dotted: leg ends", fontsize=9)
    return ax


def _plot_win_lost(ax, dec, colours) -> list:
    """The chance of winning lost per turn on a second axis at the right of
    ``ax`` (labelled ``"win chance lost"``; markers below zero where a
    chance was lost, the zero level with the coins'); the legend's handles
    of it (none when no decision has the figure)."""
    lost = dec["win_lost"].to_numpy(float) * 100
    if np.isnan(lost).all():
        return []
    from matplotlib.lines import Line2D

    right = ax.twinx()
    right.set_label("win chance lost")
    shown = lost > 0.05  # a chance lost, to a twentieth of a percentage point (as a bar of EV lost shows)
    right.scatter(dec["turn"][shown], -lost[shown], s=18, marker="v",
                  color=[colours[p] for p in dec["player"][shown]], edgecolors="black", linewidths=0.6,
                  zorder=3, label="win chance lost")
    low, high = ax.get_ylim()
    if low > -0.1 * (high - low):  # room below zero for the markers
        low = -0.1 * (high - low)
        ax.set_ylim(low, high)
    deepest = max(float(np.nanmax(lost)), 0.5) * 1.1
    scale = deepest / -low  # percentage points per coin: the zero level with the coins'
    right.set_ylim(low * scale, high * scale)
    ticks = [t for t in right.get_yticks() if low * scale <= t <= 0]  # a chance lost reads downwards from 0
    right.set_yticks(ticks, [f"{abs(t):g}" for t in ticks])
    right.set_ylabel("win chance lost: percentage points, down from 0 (markers)")
    return [Line2D([], [], linestyle="", marker="v", markerfacecolor="white", markeredgecolor="black",
                   label="win chance lost (right axis, player's colour)")]
