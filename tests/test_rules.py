"""Hand-worked rule examples (docs/rules.md, board games).

Every expected state below was worked out by hand from docs/rules.md and is
written as literal stacks: ``"3:GP 5:RYB"`` means space 3 holds G (bottom)
and P (top), space 5 holds R, Y, B.  Spaces beyond the track (17, 18, ... or
0, -1, -2) are allowed in expected states because :func:`advisor.step`
reports them after the race ends.

Each docstring shows: state, die (value, colour), state after.
"""

from __future__ import annotations

import numpy as np
import pytest

from advisor import PositionError, leg_odds, parse_position, step


def stacks(text: str) -> tuple[tuple[int, str], ...]:
    """``"3:GP -1:wB"`` -> ``((-1, "wB"), (3, "GP"))`` (sorted by space)."""
    out = []
    for tok in text.split():
        space, camels = tok.split(":")
        out.append((int(space), camels))
    return tuple(sorted(out))


def check(before: str, die: str, value: int, after: str, *, colour=None, moved=None,
          landed=None, over=False):
    """Roll on ``before`` and compare every field of the Step."""
    result = step(parse_position(before), die, value, colour)
    assert result.stacks == stacks(after), (before, die, value, colour)
    assert result.moved == (moved if moved is not None else die)
    assert result.landed == landed
    assert result.race_over is over
    return result


def counts_of(odds) -> dict[str, list[int]]:
    return {c: [int(x) for x in odds.counts[i]] for i, c in enumerate(odds.camels)}


COLOURS = ["white", "black"]


# --------------------------------------------------------------------------
# Moving a racing camel
# --------------------------------------------------------------------------
def test_racing_camel_moves_alone():
    """1:B 6:G 7:P 8:R 9:Y 14:w 15:k, B rolls 2
    -> 3:B 6:G 7:P 8:R 9:Y 14:w 15:k (B alone, empty space)."""
    check("1:B 6:G 7:P 8:R 9:Y 14:w 15:k", "B", 2, "3:B 6:G 7:P 8:R 9:Y 14:w 15:k")


@pytest.mark.parametrize("value,after", [
    (1, "2:G 3:BP 6:R 9:Y 14:w 15:k"),
    (3, "2:G 5:BP 6:R 9:Y 14:w 15:k"),
])
def test_racing_camel_carries_camels_above_it(value, after):
    """2:GBP 6:R 9:Y 14:w 15:k, B rolls 1 / 3
    -> B takes P (above it) along, G (below) stays:
       2:G 3:BP ... / 2:G 5:BP 6:R 9:Y 14:w 15:k."""
    check("2:GBP 6:R 9:Y 14:w 15:k", "B", value, after)


def test_racing_unit_lands_on_top_of_stack():
    """2:GBP 5:RY 14:w 15:k, B rolls 3
    -> unit BP goes on top of RY: 2:G 5:RYBP 14:w 15:k."""
    check("2:GBP 5:RY 14:w 15:k", "B", 3, "2:G 5:RYBP 14:w 15:k")


def test_bottom_camel_carries_whole_stack_onto_next_stack():
    """2:GBP 3:RY 14:w 15:k, G rolls 1
    -> the whole stack GBP goes on top of RY: 3:RYGBP 14:w 15:k."""
    check("2:GBP 3:RY 14:w 15:k", "G", 1, "3:RYGBP 14:w 15:k")


def test_racing_camel_carries_crazy_camel_forward():
    """4:Bw 6:G 7:P 8:R 9:Y 15:k, B rolls 2
    -> B carries w forward onto G: 6:GBw 7:P 8:R 9:Y 15:k."""
    check("4:Bw 6:G 7:P 8:R 9:Y 15:k", "B", 2, "6:GBw 7:P 8:R 9:Y 15:k")


def test_racing_camel_carries_crazy_and_racing_camels_forward():
    """4:BwG 6:P 8:R 9:Y 15:k, B rolls 2
    -> unit BwG lands on P: 6:PBwG 8:R 9:Y 15:k."""
    check("4:BwG 6:P 8:R 9:Y 15:k", "B", 2, "6:PBwG 8:R 9:Y 15:k")


# --------------------------------------------------------------------------
# Which crazy camel the grey die moves
# --------------------------------------------------------------------------
@pytest.mark.parametrize("colour", COLOURS)
def test_crazy_rule1_only_carrier_moves_whatever_colour(colour):
    """1:B 2:G 3:P 8:R 10:kY 14:w, grey die 2 (white or black)
    -> only k carries a racing camel (Y), so k moves with Y onto R:
       1:B 2:G 3:P 8:RkY 14:w."""
    check("1:B 2:G 3:P 8:R 10:kY 14:w", "x", 2, "1:B 2:G 3:P 8:RkY 14:w",
          colour=colour, moved="k")


@pytest.mark.parametrize("colour", COLOURS)
def test_crazy_rule1_carrier_with_other_crazy_camel_above(colour):
    """3:B 5:P 7:R 9:Y 12:kGw, grey die 3 (white or black)
    -> k carries G (w above G carries no racing camel): k moves, taking G
       and w along, onto Y: 3:B 5:P 7:R 9:YkGw."""
    check("3:B 5:P 7:R 9:Y 12:kGw", "x", 3, "3:B 5:P 7:R 9:YkGw",
          colour=colour, moved="k")


@pytest.mark.parametrize("colour", COLOURS)
def test_crazy_rule1_lower_crazy_carries_racing_and_other_crazy(colour):
    """2:B 4:P 6:R 9:Y 13:wGk, grey die 1 (white or black)
    -> w carries G, k carries nothing: w moves with G and k:
       2:B 4:P 6:R 9:Y 12:wGk."""
    check("2:B 4:P 6:R 9:Y 13:wGk", "x", 1, "2:B 4:P 6:R 9:Y 12:wGk",
          colour=colour, moved="w")


@pytest.mark.parametrize("colour", COLOURS)
def test_crazy_rule2_upper_one_moves_whatever_colour(colour):
    """2:B 4:G 6:P 8:R 10:Y 13:wk, grey die 1 (white or black)
    -> k sits directly on w: k moves: 2:B 4:G 6:P 8:R 10:Y 12:k 13:w."""
    check("2:B 4:G 6:P 8:R 10:Y 13:wk", "x", 1, "2:B 4:G 6:P 8:R 10:Y 12:k 13:w",
          colour=colour, moved="k")


@pytest.mark.parametrize("colour", COLOURS)
def test_crazy_rule2_with_racing_camel_on_top(colour):
    """2:G 4:P 6:R 8:Y 13:wkB, grey die 2 (white or black)
    -> both crazy camels carry B (rule 1 does not apply), k is directly on
       w: k moves with B: 2:G 4:P 6:R 8:Y 11:kB 13:w."""
    check("2:G 4:P 6:R 8:Y 13:wkB", "x", 2, "2:G 4:P 6:R 8:Y 11:kB 13:w",
          colour=colour, moved="k")


@pytest.mark.parametrize("colour", COLOURS)
def test_crazy_rule2_white_on_black_with_racing_camel_on_top(colour):
    """2:G 4:P 6:R 10:Y 13:kwB, grey die 3 (white or black)
    -> w is directly on k (both carry B): w moves with B onto Y:
       2:G 4:P 6:R 10:YwB 13:k."""
    check("2:G 4:P 6:R 10:Y 13:kwB", "x", 3, "2:G 4:P 6:R 10:YwB 13:k",
          colour=colour, moved="w")


@pytest.mark.parametrize("colour", COLOURS)
def test_crazy_rule2_racing_camel_below_them(colour):
    """2:G 4:P 6:R 8:Y 13:Bwk, grey die 3 (white or black)
    -> neither carries a racing camel, k is directly on w: k moves:
       2:G 4:P 6:R 8:Y 10:k 13:Bw."""
    check("2:G 4:P 6:R 8:Y 13:Bwk", "x", 3, "2:G 4:P 6:R 8:Y 10:k 13:Bw",
          colour=colour, moved="k")


@pytest.mark.parametrize("colour,after,moved", [
    ("white", "2:B 4:G 6:P 8:R 10:Y 11:w 15:k", "w"),
    ("black", "2:B 4:G 6:P 8:R 10:Y 13:wk", "k"),
])
def test_crazy_rule3_rolled_colour_moves(colour, after, moved):
    """2:B 4:G 6:P 8:R 10:Y 13:w 15:k, grey die white 2 / black 2
    -> white: w 13->11: ... 11:w 15:k
       black: k 15->13, on top of w: ... 13:wk."""
    check("2:B 4:G 6:P 8:R 10:Y 13:w 15:k", "x", 2, after, colour=colour, moved=moved)


@pytest.mark.parametrize("colour,after,moved", [
    ("white", "2:R 4:P 6:Y 7:wB 12:kG", "w"),
    ("black", "2:R 4:P 6:Y 9:wB 10:kG", "k"),
])
def test_both_crazy_carry_racing_on_different_spaces_rule3(colour, after, moved):
    """2:R 4:P 6:Y 9:wB 12:kG, grey die white 2 / black 2
    -> both carry a racing camel, not stacked: rolled colour moves.
       white: 2:R 4:P 6:Y 7:wB 12:kG   black: 2:R 4:P 6:Y 9:wB 10:kG."""
    check("2:R 4:P 6:Y 9:wB 12:kG", "x", 2, after, colour=colour, moved=moved)


@pytest.mark.parametrize("colour,after,moved", [
    ("white", "2:B 5:P 9:Y 12:wGkR", "w"),
    ("black", "2:B 5:P 9:Y 12:kR 13:wG", "k"),
])
def test_both_crazy_carry_racing_in_one_stack_not_adjacent_rule3(colour, after, moved):
    """2:B 5:P 9:Y 13:wGkR, grey die white 1 / black 1
    -> both carry a racing camel, G lies between them (not directly on):
       rolled colour. white: w takes G, k, R: 12:wGkR
                      black: k takes R: 12:kR 13:wG."""
    check("2:B 5:P 9:Y 13:wGkR", "x", 1, after, colour=colour, moved=moved)


# --------------------------------------------------------------------------
# Crazy camels leaving the track backward
# --------------------------------------------------------------------------
@pytest.mark.parametrize("colour,value,after", [
    ("white", 2, "-1:wGP 1:R 5:B 6:Y 15:k"),
    ("black", 3, "-2:wGP 1:R 5:B 6:Y 15:k"),
    ("black", 1, "0:wGP 1:R 5:B 6:Y 15:k"),
])
def test_crazy_carries_racing_camels_backward_across_space_1(colour, value, after):
    """1:RwGP 5:B 6:Y 15:k, grey die (any colour: w is the only carrier)
    value 2 -> -1:wGP 1:R 5:B 6:Y 15:k, race over (likewise 3 -> -2, 1 -> 0)."""
    check("1:RwGP 5:B 6:Y 15:k", "x", value, after, colour=colour, moved="w", over=True)


def test_crazy_camel_alone_leaving_track_ends_race():
    """1:k 3:B 4:G 5:P 6:R 7:Y 14:w, grey die black 1
    -> k alone to 0: 0:k 3:B ... race over (any unit, either direction)."""
    check("1:k 3:B 4:G 5:P 6:R 7:Y 14:w", "x", 1, "0:k 3:B 4:G 5:P 6:R 7:Y 14:w",
          colour="black", moved="k", over=True)


def test_racing_camels_below_track_rank_last_lowest_last():
    """Position 1:RwGP 5:B 6:Y 15:k dice:Bx (second, 2 dice -> exactly 1 roll,
    12 equally likely sequences).

    Grey die (6 faces, 1 each): w is the only carrier, whatever the colour;
    w,G,P go to 0/-1/-2 and the race ends. Ranks: Y(6) 1st, B(5) 2nd,
    R(1) 3rd, then below the track P (higher in the stack) 4th, G (lowest)
    5th.
    B die (3 values x 2 faces): B to 6 (on Y), 7 or 8 -> B 1st, Y 2nd; at
    space 1 the stack R w G P gives P 3rd, G 4th, R 5th.
    """
    odds = leg_odds(parse_position("1:RwGP 5:B 6:Y 15:k dice:Bx"))
    assert odds.total == 12
    assert counts_of(odds) == {
        "B": [6, 6, 0, 0, 0],
        "G": [0, 0, 0, 6, 6],
        "P": [0, 0, 6, 6, 0],
        "R": [0, 0, 6, 0, 6],
        "Y": [6, 6, 0, 0, 0],
    }
    assert odds.race_ends == 0.5


# --------------------------------------------------------------------------
# Spectator tiles (second)
# --------------------------------------------------------------------------
def test_cheering_tile_racing_unit_one_further_on_top():
    """2:BG 6:P 8:R 9:Y 14:w 15:k +5, B rolls 3
    -> BG ends on 5 (cheering), one more to 6 on top of P:
       6:PBG 8:R 9:Y 14:w 15:k, landed 5."""
    check("2:BG 6:P 8:R 9:Y 14:w 15:k +5", "B", 3, "6:PBG 8:R 9:Y 14:w 15:k", landed=5)


def test_no_tile_landing_reports_none():
    """2:BG 6:P 8:R 9:Y 14:w 15:k +5, B rolls 2
    -> 4:BG 6:P 8:R 9:Y 14:w 15:k, landed None."""
    check("2:BG 6:P 8:R 9:Y 14:w 15:k +5", "B", 2, "4:BG 6:P 8:R 9:Y 14:w 15:k", landed=None)


def test_cheering_tile_crazy_unit_one_further_backward():
    """3:B 5:G 7:P 9:Y 12:kR 14:w +10, grey die white 2
    -> k carries R (rule 1, colour ignored): kR ends on 10 (cheering), one
       more backward to 9 on top of Y: 3:B 5:G 7:P 9:YkR 14:w, landed 10."""
    check("3:B 5:G 7:P 9:Y 12:kR 14:w +10", "x", 2, "3:B 5:G 7:P 9:YkR 14:w",
          colour="white", moved="k", landed=10)


def test_booing_tile_racing_unit_back_under_the_camels_it_left():
    """4:RBP 6:G 8:Y 14:w 15:k -5, B rolls 1
    -> BP ends on 5 (booing), back to 4 UNDER R (the camel it just left):
       4:BPR 6:G 8:Y 14:w 15:k, landed 5."""
    check("4:RBP 6:G 8:Y 14:w 15:k -5", "B", 1, "4:BPR 6:G 8:Y 14:w 15:k", landed=5)


def test_booing_tile_racing_unit_back_under_another_stack():
    """3:BG 4:RP 8:Y 14:w 15:k -5, B rolls 2
    -> BG ends on 5 (booing), back to 4 under RP: 4:BGRP 8:Y 14:w 15:k."""
    check("3:BG 4:RP 8:Y 14:w 15:k -5", "B", 2, "4:BGRP 8:Y 14:w 15:k", landed=5)


def test_booing_tile_racing_unit_back_to_empty_space():
    """3:B 6:G 7:P 8:R 9:Y 14:w 15:k -5, B rolls 2
    -> B ends on 5 (booing), back to the empty 4: 4:B 6:G 7:P 8:R 9:Y 14:w 15:k."""
    check("3:B 6:G 7:P 8:R 9:Y 14:w 15:k -5", "B", 2, "4:B 6:G 7:P 8:R 9:Y 14:w 15:k",
          landed=5)


def test_booing_tile_crazy_unit_one_forward_under():
    """2:B 4:G 6:P 11:Y 12:kR 14:w -10, grey die black 2
    -> kR ends on 10 (booing), one FORWARD to 11, under Y:
       2:B 4:G 6:P 11:kRY 14:w, landed 10."""
    check("2:B 4:G 6:P 11:Y 12:kR 14:w -10", "x", 2, "2:B 4:G 6:P 11:kRY 14:w",
          colour="black", moved="k", landed=10)


def test_booing_tile_crazy_unit_back_under_the_camels_it_left():
    """2:B 4:P 6:Y 12:GkR 15:w -11, grey die white 1
    -> k carries R (rule 1): kR ends on 11 (booing), forward to 12 under G:
       2:B 4:P 6:Y 12:kRG 15:w, landed 11."""
    check("2:B 4:P 6:Y 12:GkR 15:w -11", "x", 1, "2:B 4:P 6:Y 12:kRG 15:w",
          colour="white", moved="k", landed=11)


def test_expected_landings():
    """2:BG 6:P 8:R 9:Y 14:w 15:k +5 -12 dice:BGx (second, 3 dice, 2 rolls:
    6 ordered die pairs x 36 faces = 216 sequences; a racing value counts 2,
    a grey face 1).

    Tile 12 (booing): only a crazy unit can reach it.  w (14) and k (15)
    never carry a racing camel nor stack directly (k 15->14 lands on w only
    on the single grey roll), so the rolled colour moves: white 2 (w 14->12)
    and black 3 (k 15->12) land: 2 of the 6 grey faces.  The grey die is
    rolled in 4 of the 6 ordered pairs: 4 * 36 * 2/6 = 48 -> 48/216 = 2/9.

    Tile 5 (cheering), by first roll:
    - B first (B carries G): B 3 lands (2 faces x 6 = 12 in (B,G) and 12 in
      (B,x)); then in (B,G): G (alone, on top) from 3 with a 2, or from 4
      with a 1, lands: 4 + 4.  Sum 32.
    - G first (alone from 2): G 3 lands (24); then in (G,B): B 3 from 2
      lands after every G value (3 x 4 = 12).  Sum 36.
    - grey first: then B 3 (12) or G 3 (12) lands.  Sum 24.
    92/216 = 23/54.
    """
    odds = leg_odds(parse_position("2:BG 6:P 8:R 9:Y 14:w 15:k +5 -12 dice:BGx"))
    assert odds.total == 216
    assert int(odds.landing_counts[5]) == 92
    assert int(odds.landing_counts[12]) == 48
    assert odds.expected_landings() == pytest.approx({5: 23 / 54, 12: 2 / 9})


# --------------------------------------------------------------------------
# Finishing the race
# --------------------------------------------------------------------------
def test_finishing_past_16():
    """3:P 4:R 5:Y 10:w 11:k 15:BG, B rolls 3
    -> 18:BG, race over."""
    check("3:P 4:R 5:Y 10:w 11:k 15:BG", "B", 3, "3:P 4:R 5:Y 10:w 11:k 18:BG", over=True)


def test_racing_unit_carrying_crazy_camel_past_16():
    """2:G 3:P 4:R 5:Y 10:w 15:Bk, B rolls 2 -> 17:Bk, race over."""
    check("2:G 3:P 4:R 5:Y 10:w 15:Bk", "B", 2, "2:G 3:P 4:R 5:Y 10:w 17:Bk", over=True)


def test_cheering_tile_on_16_sends_unit_to_17():
    """2:G 3:P 4:R 5:Y 8:w 9:k 14:B +16, B rolls 2
    -> B ends on 16 (cheering), one more: 17:B, landed 16, race over."""
    check("2:G 3:P 4:R 5:Y 8:w 9:k 14:B +16", "B", 2, "2:G 3:P 4:R 5:Y 8:w 9:k 17:B",
          landed=16, over=True)


def test_race_end_mid_leg_stops_the_leg():
    """first 1:O 2:Y 3:W 14:G 16:B dice:BG (first edition: both dice are
    rolled unless the race ends; 2 * 6 * 6 = 72 sequences).

    B first (36): B 16 -> 17..19, race over, G never rolls: B 1st, G 2nd.
    G first, value 1 (12): G to 15, then B finishes: B 1st, G 2nd.
    G first, value 2 (12): G on top of B at 16; B then carries G past 16:
      G (on top) 1st, B 2nd.
    G first, value 3 (12): G to 17, race over at once, B not rolled:
      G 1st, B 2nd.  (Rolling B afterwards would put B ahead.)
    B 1st 48, 2nd 24; G 1st 24, 2nd 48; W 3rd, Y 4th, O 5th always.
    """
    odds = leg_odds(parse_position("first 1:O 2:Y 3:W 14:G 16:B dice:BG"))
    assert odds.total == 72
    assert counts_of(odds) == {
        "B": [48, 24, 0, 0, 0],
        "G": [24, 48, 0, 0, 0],
        "O": [0, 0, 0, 0, 72],
        "Y": [0, 0, 0, 72, 0],
        "W": [0, 0, 72, 0, 0],
    }
    assert odds.race_ends == 1.0


def test_race_end_by_crazy_or_racing_counts():
    """3:w 5:G 7:P 9:R 14:Y 15:B 16:k dice:Bx (2 dice, 1 roll, 12 sequences).
    Grey: neither crazy camel carries a racing camel and they are apart:
    white moves w (3 -> 2, 1, 0: the race ends on 3), black moves k.
    B: 15 -> 16 (on k), 17, 18: the race ends on 2 and 3 (4 sequences).
    Racing order never changes: B 1st, Y 2nd, R 3rd, P 4th, G 5th.
    Race ends in 1 + 4 = 5 of 12 sequences."""
    odds = leg_odds(parse_position("3:w 5:G 7:P 9:R 14:Y 15:B 16:k dice:Bx"))
    assert odds.total == 12
    assert odds.ended_count == 5
    assert counts_of(odds) == {
        "B": [12, 0, 0, 0, 0],
        "G": [0, 0, 0, 0, 12],
        "P": [0, 0, 0, 12, 0],
        "R": [0, 0, 12, 0, 0],
        "Y": [0, 12, 0, 0, 0],
    }


# --------------------------------------------------------------------------
# First edition: oasis / mirage, no grey die
# --------------------------------------------------------------------------
def test_first_edition_oasis():
    """first 2:BG 6:O 8:Y 9:W +5, B rolls 3
    -> BG ends on the oasis at 5, one more to 6 on top of O:
       first 6:OBG 8:Y 9:W, landed 5."""
    check("first 2:BG 6:O 8:Y 9:W +5", "B", 3, "6:OBG 8:Y 9:W", landed=5)


def test_first_edition_mirage():
    """first 3:B 4:OW 7:G 9:Y -5, B rolls 2
    -> B ends on the mirage at 5, back to 4 under OW: first 4:BOW 7:G 9:Y."""
    check("first 3:B 4:OW 7:G 9:Y -5", "B", 2, "4:BOW 7:G 9:Y", landed=5)


def test_first_edition_has_no_grey_die():
    """first 1:BGOYW, grey die x 1 white -> rejected (PositionError): the
    first edition has no crazy camels and no grey die."""
    with pytest.raises(PositionError):
        step(parse_position("first 1:BGOYW"), "x", 1, "white")


def test_first_edition_one_die_pyramid_rolls_it():
    """first 2:B 4:GO 5:Y 7:W -6 +9 dice:G: 1 die left, it is rolled
    (6 sequences). G (carrying O): 1 -> on Y: W, O, G, Y, B;
    2 -> mirage 6, back under Y at 5: W, Y, O, G, B; 3 -> on W at 7:
    O, G, W, Y, B."""
    odds = leg_odds(parse_position("first 2:B 4:GO 5:Y 7:W -6 +9 dice:G"))
    assert odds.total == 6
    assert counts_of(odds) == {
        "B": [0, 0, 0, 0, 6],
        "G": [0, 2, 2, 2, 0],
        "O": [2, 2, 2, 0, 0],
        "Y": [0, 2, 0, 4, 0],
        "W": [4, 0, 2, 0, 0],
    }


# --------------------------------------------------------------------------
# Pyramid sizes and leg length
# --------------------------------------------------------------------------
def test_second_two_dice_pyramid_rolls_exactly_once():
    """2:B 3:G 4:P 6:R 7:Y 14:w 15:k dice:BG (second: 1 die stays in the
    pyramid, so exactly one roll; 2 dice x 6 faces = 12 sequences).
    B 1 -> on G: Y R P B G; B 2 -> on P, B 3 -> 5: Y R B P G;
    G 1 -> on P, G 2 -> 5: Y R G P B; G 3 -> on R: Y G R P B.
    (Two rolls would give 72 sequences.)"""
    odds = leg_odds(parse_position("2:B 3:G 4:P 6:R 7:Y 14:w 15:k dice:BG"))
    assert odds.total == 12
    assert counts_of(odds) == {
        "B": [0, 0, 4, 2, 6],
        "G": [0, 2, 4, 0, 6],
        "P": [0, 0, 2, 10, 0],
        "R": [0, 10, 2, 0, 0],
        "Y": [12, 0, 0, 0, 0],
    }


@pytest.mark.parametrize("text,total", [
    ("1:BGPRY 14:w 15:k dice:Bx", 2 * 6),
    ("1:BGPRY 14:w 15:k dice:BGx", 3 * 2 * 6**2),
    ("1:BGPRY 14:w 15:k dice:BGPx", 4 * 3 * 2 * 6**3),
    ("1:B 2:YG 3:PR 14:w 15:k +5 -8", 6 * 5 * 4 * 3 * 2 * 6**5),
    ("first 1:BGOYW dice:O", 6),
    ("first 1:BGOYW dice:OW", 2 * 6**2),
    ("first 1:B 2:YG 3:OW +6 -10", 5 * 4 * 3 * 2 * 1 * 6**5),
])
def test_leg_length_by_edition(text, total):
    """second: m dice in the pyramid -> m-1 rolls, m!/1 * 6^(m-1) sequences;
    first: m dice -> m rolls, m! * 6^m.  Every row and column sums to it."""
    odds = leg_odds(parse_position(text))
    assert odds.total == total
    assert (odds.counts.sum(axis=0) == total).all()
    assert (odds.counts.sum(axis=1) == total).all()
    assert np.array_equal(odds.rank, odds.counts / total)
