"""The rules core of a turn on a game state (docs/rules.md, Actions), written once:
what a player may do and what doing it does.

* :func:`legal_actions`, :func:`check_action`, :func:`is_legal`: legality
  (with :func:`tile_spaces`, where a tile may go, and
  :func:`partner_options`, whom a player may partner);
* :func:`play` / :func:`apply`: a pure step ``state -> state`` (the pyramid
  action takes the :class:`~advisor.rules.actions.Roll` drawn), with the leg
  scoring and the race end scoring of :mod:`advisor.rules.scoring`;
* :func:`reveal` (a face-down card's colour), :func:`unrevealed`.

The actions themselves (:class:`~advisor.rules.actions.Action`) and their
effects on the board are :mod:`advisor.rules.actions`; one die roll is
:func:`advisor.rules.roll.step`.

``winner:?`` / ``loser:?`` record another player's overall card placed face
down when its colour is not seen: the state then holds a pile card of
unknown colour (valued with the pile model, as a face-down card of a view)
and the player's hand becomes a hidden hand.  Such cards must be revealed
(:func:`reveal`) before the race end is scored: the roll that ends the race
raises :class:`UnrevealedCards` until then.  They are never listed by
:func:`legal_actions` (a player placing their own card knows it).
"""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

from advisor.errors import IllegalActionError
from advisor.rules.roll import step
from advisor.rules.actions import Action, Roll, leg_bet_value, place_tile, take_leg_tile
from advisor.rules.editions import Edition
from advisor.rules.position import Position
from advisor.rules.scoring import LANDING_COIN, PILES, leg_rewards, overall_rewards, race_order, settle
from advisor.rules.state import GameState, PileCard, PlayerState, StateError

__all__ = ["Turn", "UnrevealedCards", "legal_actions", "check_action", "is_legal", "play", "play_checked", "apply",
           "reveal", "unrevealed", "tile_spaces", "partner_options"]


class Turn(NamedTuple):
    """What :func:`play` did: the ``state`` after the action, and for the
    pyramid action the ``landed`` tile's space (or ``None``), whether the
    leg or the race ended, and at the race end the ``final_stacks`` (beyond
    the track) and the race ``order`` (first to last)."""

    state: GameState
    landed: int | None = None
    leg_over: bool = False
    race_over: bool = False
    final_stacks: tuple[tuple[int, str], ...] | None = None
    order: tuple[str, ...] | None = None


class UnrevealedCards(IllegalActionError):
    """The race ends while a pile holds face-down cards of unknown colour:
    they must be revealed (:func:`reveal`) before the race is scored."""


# --------------------------------------------------------------------------
# Where a tile may go, whom a player may partner
# --------------------------------------------------------------------------


def tile_spaces(state: GameState, player: int) -> list[int]:
    """Spaces where ``player`` may place (or move) their tile: within the
    rules' ``tile_spaces`` (2..16), empty of camels and tiles, not next to
    another player's tile; their own tile is lifted first and must go to a
    different space."""
    pos = state.position
    low, high = pos.rules.tile_spaces
    occupied = {space for space, _ in pos.stacks}
    others = [t.space for t in pos.tiles if t.owner != player]
    own = state.own_tile(player)
    return [
        s for s in range(low, high + 1)
        if s not in occupied and s not in others and all(abs(s - o) > 1 for o in others)
        and (own is None or s != own.space)
    ]


def partner_options(state: GameState, player: int) -> list[int]:
    """The players ``player`` may ask to partner (2nd edition, 6-8 players;
    neither partnered this leg)."""
    ed = state.position.rules
    if ed.partnership_players is None or state.n_players < ed.partnership_players:
        return []
    if state.players[player].partner is not None:
        return []
    return [q for q in range(state.n_players) if q != player and state.players[q].partner is None]


# --------------------------------------------------------------------------
# Legality
# --------------------------------------------------------------------------


def legal_actions(state: GameState, player: int | None = None) -> list[Action]:
    """Every legal action of ``player`` (default: the player to move), in a
    fixed order: leg tiles, pyramid, tiles, overall cards, partnerships.  A
    hidden hand lists no overall card (only ``winner:?`` / ``loser:?``
    record one: :func:`check_action`)."""
    player = state.to_move if player is None else player
    pos = state.position
    ed = pos.rules
    out = [Action("leg", colour=c) for c, left in zip(ed.racing, pos.legtiles)
           if leg_bet_value(ed, left) is not None]
    out.append(Action("pyramid"))
    out += [Action("tile", space=space, sign=sign) for space in tile_spaces(state, player) for sign in "+-"]
    hand = "" if state.hand_hidden(player) else state.hand(player)
    out += [Action(kind, colour=c) for kind in PILES for c in hand]
    out += [Action("partner", partner=q) for q in partner_options(state, player)]
    return out


def check_action(state: GameState, action: Action | str, player: int | None = None) -> Action:
    """``action`` (parsed) if ``player`` (default: the one to move) may play
    it now, else :class:`~advisor.errors.IllegalActionError` naming it."""
    action = Action.parse(action)
    player = state.to_move if player is None else player
    if action.face_down:
        if state.hand_size(player) == 0:
            raise IllegalActionError(f"{action} is not legal for player {player} now: they hold no overall card")
        return action
    legal = legal_actions(state, player)
    if action not in legal:
        raise IllegalActionError(
            f"{str(action)!r} is not legal for player {player} now (legal: {', '.join(map(str, legal))})")
    return action


def is_legal(state: GameState, action: Action | str, player: int | None = None) -> bool:
    try:
        check_action(state, action, player)
    except IllegalActionError:
        return False
    return True


# --------------------------------------------------------------------------
# Playing
# --------------------------------------------------------------------------


def apply(state: GameState, action: Action | str, roll: Roll | None = None) -> GameState:
    """The state after the player to move plays ``action`` (see :func:`play`)."""
    return play(state, action, roll).state


def play(state: GameState, action: Action | str, roll: Roll | None = None) -> Turn:
    """The player to move plays ``action``: checked, then applied to a new
    state (``state`` is not changed).  The pyramid action needs the
    ``roll`` drawn; it ends the leg (leg scoring, the leg's holdings spent,
    the next player starts) or the race (the leg scored, then the overall
    piles; the board stays as before the roll)."""
    return play_checked(state, check_action(state, action), roll)


def play_checked(state: GameState, action: Action, roll: Roll | None = None) -> Turn:
    """:func:`play` of an action :func:`check_action` has already returned
    for the player to move in ``state`` (a game checks before it draws the
    roll: an illegal action changes nothing, its dice included); the action
    is not checked again."""
    player = state.to_move
    if action.kind == "pyramid":
        if roll is None:
            raise IllegalActionError("the pyramid action needs the roll drawn")
        return _roll(state, player, roll)
    if roll is not None:
        raise IllegalActionError("only the pyramid action takes a roll")
    players = list(state.players)
    me = players[player]
    pos = state.position
    piles = {"winner": state.winner_pile, "loser": state.loser_pile}
    if action.kind == "leg":
        value, stacks = take_leg_tile(pos.rules, pos.legtiles, pos.racing.index(action.colour))
        pos = replace(pos, legtiles=dict(zip(pos.racing, stacks)))
        players[player] = replace(me, leg_tiles=me.leg_tiles + ((action.colour, value),))
    elif action.kind == "tile":
        pos = place_tile(pos, player, action.space, action.sign)
    elif action.kind in PILES:
        piles[action.kind] = piles[action.kind] + (PileCard(player, action.colour),)
        if action.face_down:  # which card left the hand is not seen: the hand is hidden from now
            mine = sum(1 for card in piles["winner"] + piles["loser"] if card.player == player)
            players[player] = replace(me, overall_cards=len(pos.racing) - mine)
        elif not state.hand_hidden(player):
            players[player] = replace(me, overall_cards=state.hand(player).replace(action.colour, ""))
        else:
            players[player] = replace(me, overall_cards=me.overall_cards - 1)
    else:
        players[player] = replace(me, partner=action.partner)
        players[action.partner] = replace(players[action.partner], partner=player)
    after = GameState(pos, tuple(players), (player + 1) % state.n_players, piles["winner"], piles["loser"],
                      state.pile_model)
    return Turn(after)


def _spent(players) -> tuple[PlayerState, ...]:
    """The players once a leg's holdings are spent."""
    return tuple(replace(p, leg_tiles=(), pyramid_tiles=0, partner=None) for p in players)


def _settled(ed: Edition, players, rewards) -> tuple[PlayerState, ...]:
    return tuple(replace(p, money=settle(ed, p.money, r)) for p, r in zip(players, rewards))


def _roll(state: GameState, player: int, roll: Roll) -> Turn:
    pos = state.position
    ed = pos.rules
    if not isinstance(roll.die, str) or len(roll.die) != 1:
        raise IllegalActionError(f"a roll names one die, not {roll.die!r}")
    if roll.die not in pos.dice:
        raise IllegalActionError(f"die {roll.die!r} is not in the pyramid ({pos.dice})")
    result = step(pos, roll.die, roll.value, roll.colour)
    if result.race_over:
        hidden = [f"{name} pile card {k + 1} (player {card.player})" for name, k, card in unrevealed(state)]
        if hidden:
            raise UnrevealedCards(f"the race ends with this roll: reveal the colour of the {', '.join(hidden)} "
                                  "before it is scored")
    players = list(state.players)
    players[player] = replace(players[player], pyramid_tiles=players[player].pyramid_tiles + 1)
    if result.landed is not None:
        owner = pos.tile_at(result.landed).owner
        if owner is not None:  # the owner earns a coin at once
            players[owner] = replace(players[owner], money=players[owner].money + LANDING_COIN)
    players = tuple(players)
    nxt = (player + 1) % state.n_players
    if result.race_over:
        # the leg is scored as if it had ended, then the overall piles
        order = race_order(result.stacks, ed.racing)
        after_leg = _settled(ed, players, leg_rewards(ed, players, order))
        piles = ((state.winner_pile, order[0]), (state.loser_pile, order[-1]))
        at_end = _settled(ed, after_leg, overall_rewards(ed, state.n_players, piles))
        # the board stays as before the last roll (the final stacks lie
        # beyond the track); the leg's holdings are spent
        return Turn(replace(state, players=_spent(at_end)), result.landed, False, True, result.stacks,
                    tuple(order))
    dice = pos.dice.replace(roll.die, "")
    if len(dice) == ed.dice_left:  # the leg ends: score it and reset
        order = race_order(result.stacks, ed.racing)
        settled = _settled(ed, players, leg_rewards(ed, players, order))
        board = Position(stacks=result.stacks, rules=ed)
        # the player left of the one who rolled the last die starts
        after = GameState(board, _spent(settled), nxt, state.winner_pile, state.loser_pile, state.pile_model)
        return Turn(after, result.landed, True)
    board = replace(pos, stacks=result.stacks, dice=dice)
    return Turn(GameState(board, players, nxt, state.winner_pile, state.loser_pile, state.pile_model),
                result.landed)


def unrevealed(state: GameState) -> list[tuple[str, int, PileCard]]:
    """The pile cards placed face down whose colour nobody saw
    (``winner:?`` / ``loser:?``), as ``(pile, index, card)``, winner pile
    first, each pile in placement order: what :func:`reveal` must show
    before the race is scored."""
    return [(name, k, card) for name in PILES for k, card in enumerate(getattr(state, f"{name}_pile"))
            if card.colour is None]


def reveal(state: GameState, pile: str, index: int, colour: str) -> GameState:
    """``state`` with the face-down card ``index`` (0-based, placement
    order) of ``pile`` (``"winner"`` / ``"loser"``) shown to be ``colour``
    (the card was placed as ``winner:?`` / ``loser:?``)."""
    if pile not in PILES:
        raise IllegalActionError(f"piles are 'winner' and 'loser', not {pile!r}")
    cards = state.winner_pile if pile == "winner" else state.loser_pile
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(cards):
        raise IllegalActionError(f"the {pile} pile holds cards 0..{len(cards) - 1}, not {index!r}")
    card = cards[index]
    if card.colour is not None:
        raise IllegalActionError(f"card {index} of the {pile} pile is already known ({card.colour})")
    if not isinstance(colour, str) or colour not in state.position.racing or len(colour) != 1:
        raise IllegalActionError(f"a card names one racing camel of {state.position.racing}, not {colour!r}")
    cards = cards[:index] + (PileCard(card.player, colour),) + cards[index + 1:]
    try:
        return replace(state, **{f"{pile}_pile": cards})
    except StateError as exc:
        raise IllegalActionError(f"card {index} of the {pile} pile cannot be {colour}: {exc}") from None
