"""The board string of docs/notation.md: parsing, canonical form,
errors naming the token at fault, Position construction, repr, hashing."""

from __future__ import annotations

import re

import pytest

from advisor import Position, PositionError, Tile, format_position, parse_position

# Canonical strings: format(parse(s)) == s.
CANONICAL = [
    # second edition
    "1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx",
    "1:B 2:YG 3:PR 14:w 15:k +5 -8",
    "1:BGPRY 16:wk",
    "1:BGPRY 14:w 15:k dice:Bx",
    "1:BGPRY 14:w 15:k dice:BG",
    "1:BGPRY 14:w 15:k dice:BGPRY",
    "1:Y 2:R 3:P 4:G 5:B 14:k 15:w",
    "3:B 5:G 7:P 9:R 11:Y 13:w 16:k +2@0 -15@3",
    "2:kBw 3:PGR 6:Y +4@7 -10",
    "1:B 2:G 3:P 4:R 5:Y 14:wk legtiles:B322,G,Y2",
    "1:B 2:G 3:P 4:R 5:Y 14:wk dice:PY legtiles:B,G,P,R,Y",
    "16:BGPRYwk -2 +14",
    # first edition
    "first 1:B 2:YG 3:OW +6 dice:BGO",
    "first 1:B 2:YG 3:OW +6 -10",
    "first 1:BGOYW",
    "first 1:BGOYW dice:W",
    "first 16:WYOGB +8@0 -14@1 legtiles:O,W2",
    "first 4:O 5:BGYW dice:BGOY",
]

# (any spelling, its canonical form)
NON_CANONICAL = [
    ("second 1:B 2:YG 3:PR 14:w 15:k", "1:B 2:YG 3:PR 14:w 15:k"),
    ("dice:xRPG -8 +5 15:k 14:w 3:PR 2:YG 1:B", "1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx"),
    ("15:k dice:BGPRYx 1:BGPRY 14:w", "1:BGPRY 14:w 15:k"),
    ("1:BGOYW first dice:WOB", "first 1:BGOYW dice:BOW"),
    ("dice:BGOYW first 1:BGOYW", "first 1:BGOYW"),
    ("1:BGPRY 14:w 15:k legtiles:B5322,G322", "1:BGPRY 14:w 15:k legtiles:G322"),
    ("1:BGPRY 14:w 15:k legtiles:Y,B2", "1:BGPRY 14:w 15:k legtiles:B2,Y"),
    ("legtiles:W,B532 first 1:BGOYW", "first 1:BGOYW legtiles:W"),
    ("  1:BGPRY   14:w\t15:k  ", "1:BGPRY 14:w 15:k"),
    ("-8@1 15:k +5@2 14:w 1:BGPRY", "1:BGPRY 14:w 15:k +5@2 -8@1"),
    ("16:k 1:R 15:w 2:G dice:xY 3:B 4:P 5:Y", "1:R 2:G 3:B 4:P 5:Y 15:w 16:k dice:Yx"),
]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_strings_are_fixed_points(text):
    p = parse_position(text)
    assert format_position(p) == text
    assert str(p) == text


@pytest.mark.parametrize("text", CANONICAL + [s for s, _ in NON_CANONICAL])
def test_round_trip(text):
    p = parse_position(text)
    again = parse_position(format_position(p))
    assert again == p
    assert hash(again) == hash(p)


@pytest.mark.parametrize("text,canonical", NON_CANONICAL)
def test_any_token_order_gives_canonical_form(text, canonical):
    assert format_position(parse_position(text)) == canonical


def test_tokens_in_any_order_give_equal_positions():
    tokens = "1:B 2:YG 3:PR 14:w 15:k +5 -8@1 dice:GPRx legtiles:P22".split()
    base = parse_position(" ".join(tokens))
    for shift in range(len(tokens)):
        rotated = tokens[shift:] + tokens[:shift]
        assert parse_position(" ".join(rotated)) == base
        assert parse_position(" ".join(reversed(rotated))) == base


def test_parsed_fields():
    p = parse_position("first 3:OW 1:B 2:YG +6@2 -10 dice:OGB legtiles:Y2")
    assert p.edition == "first"
    assert p.stacks == ((1, "B"), (2, "YG"), (3, "OW"))
    assert p.tiles == (Tile(6, "+", 2), Tile(10, "-", None))
    assert p.dice == "BGO"
    assert p.legtiles == ((5, 3, 2), (5, 3, 2), (5, 3, 2), (2,), (5, 3, 2))
    assert p.space_of("G") == 2
    assert p.stack_at(2) == "YG"
    assert p.tile_at(10) == Tile(10, "-")
    assert not p.is_leg_start


def test_default_edition_and_full_pyramid():
    p = parse_position("1:BGPRY 14:w 15:k")
    assert p.edition == "second"
    assert p.dice == "BGPRYx"
    assert p.is_leg_start
    assert p.legtiles == ((5, 3, 2, 2),) * 5


# --------------------------------------------------------------------------
# Errors: one bad string per class, with the token at fault
# --------------------------------------------------------------------------
S = " 14:w 15:k"  # the crazy camels, to complete second-edition strings

BAD = [
    # (id, string, token at fault, message substring)
    ("unknown token", "1:BGPRY foo" + S, "foo", "unrecognised token"),
    ("unknown token 2", "1:BGPRY @" + S, "@", "unrecognised token"),
    ("space not a number", "a:BGPRY" + S, "a:BGPRY", "unrecognised token"),
    ("space 0", "0:B 1:GPRY" + S, "0:B", "space must be 1..16"),
    ("space 17", "1:BGPRY 14:w 17:k", "17:k", "space must be 1..16"),
    ("space -1", "-1:BGPRY" + S, "-1:BGPRY", "space must be 1..16"),
    ("space twice", "1:BGP 1:RY" + S, "1:RY", "space 1"),
    ("empty stack", "1: 2:BGPRY" + S, "1:", "at least one camel"),
    ("camel missing", "1:BGPR" + S, None, "'Y'"),
    ("crazy camel missing", "1:BGPRY 14:w", None, "'k'"),
    ("camel twice in a stack", "1:BGPRB 2:Y" + S, "1:BGPRB", "twice"),
    ("camel twice in two stacks", "1:BGPRY 2:B" + S, "2:B", "twice"),
    ("unknown letter", "1:BGPRY 3:Z" + S, "3:Z", "unknown camel 'Z'"),
    ("first-edition letter in second", "1:BGPRO 2:Y" + S, "1:BGPRO", "unknown camel 'O'"),
    ("crazy camel in first", "first 1:BGOYW 14:w", "14:w", "crazy camel 'w'"),
    ("tile on space 1", "2:BGPRY +1" + S, "+1", "space 1"),
    ("tile on space 0", "1:BGPRY +0" + S, "+0", "space must be 1..16"),
    ("tile on space 17", "1:BGPRY -17" + S, "-17", "space must be 1..16"),
    ("tile on a camel", "1:BGPRY -14" + S, "-14", "holds camels"),
    ("tile on a crazy camel", "1:BGPRY +15" + S, "+15", "holds camels"),
    ("adjacent tiles", "1:BGPRY +5 -6" + S, "-6", "adjacent"),
    ("two tiles on one space", "1:BGPRY +5 -5" + S, "-5", "already holds a tile"),
    ("two tiles of one owner", "1:BGPRY +5@1 -9@1" + S, "-9@1", "one tile"),
    ("owner not a number", "1:BGPRY +5@a" + S, "+5@a", "owner"),
    ("owner negative", "1:BGPRY +5@-1" + S, "+5@-1", "owner"),
    ("owner too large", "1:BGPRY +5@8" + S, "+5@8", "owner"),
    ("unknown die letter", "1:BGPRY dice:BZ" + S, "dice:BZ", "unknown die 'Z'"),
    ("die twice", "1:BGPRY dice:BBG" + S, "dice:BBG", "twice"),
    ("dice given twice", "1:BGPRY dice:BG dice:PR" + S, "dice:PR", "twice"),
    ("grey die in first", "first 1:BGOYW dice:Bx", "dice:Bx", "unknown die 'x'"),
    ("empty pyramid second", "1:BGPRY dice:" + S, "dice:", "empty"),
    ("empty pyramid first", "first 1:BGOYW dice:", "dice:", "empty"),
    ("one-die pyramid second", "1:BGPRY dice:B" + S, "dice:B", "leg is over"),
    ("one grey die second", "1:BGPRY dice:x" + S, "dice:x", "leg is over"),
    ("legtiles not a suffix second", "1:BGPRY legtiles:B32" + S, "legtiles:B32", "5322"),
    ("legtiles too long second", "1:BGPRY legtiles:B55322" + S, "legtiles:B55322", "5322"),
    ("legtiles not a suffix first", "first 1:BGOYW legtiles:B22", "legtiles:B22", "532"),
    ("legtiles second stack in first", "first 1:BGOYW legtiles:B322", "legtiles:B322", "532"),
    ("legtiles colour twice", "1:BGPRY legtiles:B22,B2" + S, "legtiles:B22,B2", "twice"),
    ("legtiles unknown colour", "1:BGPRY legtiles:Z2" + S, "legtiles:Z2", "unknown colour 'Z'"),
    ("legtiles first colour in second", "1:BGPRY legtiles:O" + S, "legtiles:O", "unknown colour 'O'"),
    ("legtiles not digits", "1:BGPRY legtiles:Bx" + S, "legtiles:Bx", "digits"),
    ("legtiles empty", "1:BGPRY legtiles:" + S, "legtiles:", "no colour"),
    ("legtiles empty entry", "1:BGPRY legtiles:B,,G" + S, "legtiles:B,,G", "empty entry"),
    ("edition twice", "first first 1:BGOYW", "first", "already"),
    ("two editions", "first second 1:BGOYW", "second", "already"),
    ("empty string", "", None, "empty"),
    ("blank string", "   ", None, "empty"),
    # the notation is ASCII: Python's int() and isdigit() would take these
    ("superscript owner", "1:BGPRY +5@\u00b2" + S, "+5@\u00b2", "U+00B2"),
    ("superscript tile value", "1:BGPRY legtiles:B\u00b322" + S, "legtiles:B\u00b322", "U+00B3"),
    ("Arabic-Indic space", "\u0661:BGPRY" + S, "\u0661:BGPRY", "U+0661"),
    ("Arabic-Indic tile space", "1:BGPRY +\u0665" + S, "+\u0665", "U+0665"),
    ("full-width camel", "1:BGPR\uff39" + S, "1:BGPR\uff39", "U+FF39"),
    ("non-breaking space", "1:BGPRY\u00a014:w 15:k", "1:BGPRY\u00a014:w", "U+00A0"),
    ("huge space", "1:BGPRY 14:w " + "1" * 5000 + ":k", "1" * 5000 + ":k", "far too large"),
    ("huge tile space", "1:BGPRY +" + "9" * 4400 + S, "+" + "9" * 4400, "far too large"),
    ("huge owner", "1:BGPRY +5@" + "9" * 20 + S, "+5@" + "9" * 20, "far too large"),
    ("huge negative space", "-" + "1" * 5000 + ":BGPRY" + S, "-" + "1" * 5000 + ":BGPRY", "far too large"),
]


@pytest.mark.parametrize("text,token,fragment", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_string(text, token, fragment):
    with pytest.raises(PositionError) as info:
        parse_position(text)
    err = info.value
    assert isinstance(err, ValueError)
    assert err.token == token
    assert fragment in str(err)
    if token is not None and len(token) <= 60:  # longer ones are shortened
        assert str(err).startswith(f"invalid token {token!r}: ")


def test_leading_zeros_are_not_a_large_number():
    assert parse_position("0000000000000001:BGPRY 14:w 15:k +00000000005@0000000001") == parse_position(
        "1:BGPRY 14:w 15:k +5@1")


def test_a_long_token_is_shortened_in_the_message():
    with pytest.raises(PositionError) as info:
        parse_position("1:BGPRY 14:w " + "1" * 5000 + ":k")
    assert len(str(info.value)) < 200 and info.value.token == "1" * 5000 + ":k"


def test_error_message_format_example():
    with pytest.raises(PositionError) as info:
        parse_position("1:BGPRY 14:w 17:k")
    assert str(info.value) == "invalid token '17:k': space must be 1..16"


def test_several_missing_camels_are_named():
    with pytest.raises(PositionError) as info:
        parse_position("1:BGP 14:w")
    assert info.value.token is None
    for camel in "RYk":
        assert repr(camel) in str(info.value)


BAD_IN_CONTEXT = [
    "1:BGPRY legtiles:B322,G32" + S,
    "1:BGPRY legtiles:G2,B55" + S,
]


@pytest.mark.parametrize("text", [b[1] for b in BAD if b[2] is not None] + BAD_IN_CONTEXT)
def test_token_at_fault_is_a_token_of_the_input(text):
    """docs/notation.md: the message names the token at fault, so ``.token`` is
    one of the whitespace-separated tokens the user typed (for a
    multi-colour ``legtiles:`` token, the whole token)."""
    with pytest.raises(PositionError) as info:
        parse_position(text)
    assert info.value.token in re.split(r"[ \t\n\r\f\v]+", text)  # ASCII white space only


def test_non_string_is_rejected():
    with pytest.raises(PositionError):
        parse_position(None)  # type: ignore[arg-type]


# --------------------------------------------------------------------------
# Position objects: construction, repr, equality, hashing
# --------------------------------------------------------------------------
def test_direct_construction_equals_parsed():
    built = Position(
        edition="second",
        stacks={3: "PR", 1: "B", 2: "YG", 14: "w", 15: "k"},
        tiles=[Tile(8, "-"), Tile(5, "+", 2)],
        dice="xRPG",
        legtiles={"P": (2, 2), "B": [5, 3, 2, 2]},
    )
    parsed = parse_position("1:B 2:YG 3:PR 14:w 15:k +5@2 -8 dice:GPRx legtiles:P22")
    assert built == parsed
    assert hash(built) == hash(parsed)
    assert str(built) == "1:B 2:YG 3:PR 14:w 15:k +5@2 -8 dice:GPRx legtiles:P22"


def test_direct_construction_pairs_and_tuple_tiles():
    built = Position(edition="first", stacks=[(2, "YG"), (1, "B"), (3, "OW")], tiles=[(6, "+")])
    assert built == parse_position("first 1:B 2:YG 3:OW +6")


BAD_BUILDS = [
    ("space 0", dict(stacks={0: "BGPRY", 14: "w", 15: "k"}), "0:BGPRY"),
    ("space 17", dict(stacks={1: "BGPRY", 14: "w", 17: "k"}), "17:k"),
    ("space twice", dict(stacks=[(1, "BGP"), (1, "RY"), (14, "w"), (15, "k")]), "1:RY"),
    ("camel missing", dict(stacks={1: "BGPR", 14: "w", 15: "k"}), None),
    ("camel twice", dict(stacks={1: "BGPRY", 2: "B", 14: "w", 15: "k"}), "2:B"),
    ("unknown letter", dict(stacks={1: "BGPRYZ", 14: "w", 15: "k"}), "1:BGPRYZ"),
    ("crazy in first", dict(edition="first", stacks={1: "BGOYW", 5: "k"}), "5:k"),
    ("tile on 1", dict(stacks={2: "BGPRY", 14: "w", 15: "k"}, tiles=[Tile(1, "+")]), "+1"),
    ("tile on camel", dict(stacks={2: "BGPRY", 14: "w", 15: "k"}, tiles=[Tile(2, "-")]), "-2"),
    ("adjacent tiles", dict(stacks={2: "BGPRY", 14: "w", 15: "k"}, tiles=[Tile(5, "+"), Tile(4, "-")]), "-4"),
    ("bad side", dict(stacks={2: "BGPRY", 14: "w", 15: "k"}, tiles=[Tile(5, "*")]), "*5"),
    ("same owner", dict(stacks={2: "BGPRY", 14: "w", 15: "k"}, tiles=[Tile(5, "+", 0), Tile(9, "-", 0)]), "-9@0"),
    ("owner too large", dict(stacks={2: "BGPRY", 14: "w", 15: "k"}, tiles=[Tile(5, "+", 8)]), "+5@8"),
    ("one-die pyramid", dict(stacks={2: "BGPRY", 14: "w", 15: "k"}, dice="x"), "dice:x"),
    ("empty pyramid", dict(stacks={2: "BGPRY", 14: "w", 15: "k"}, dice=""), "dice:"),
    ("grey die in first", dict(edition="first", stacks={1: "BGOYW"}, dice="Ox"), "dice:Ox"),
    ("die twice", dict(stacks={2: "BGPRY", 14: "w", 15: "k"}, dice="BB"), "dice:BB"),
    ("legtiles not suffix", dict(stacks={2: "BGPRY", 14: "w", 15: "k"}, legtiles={"B": (3, 2)}), "legtiles:B32"),
    ("legtiles unknown colour", dict(stacks={2: "BGPRY", 14: "w", 15: "k"}, legtiles={"O": ()}), "legtiles:O"),
    ("unknown edition", dict(edition="third", stacks={2: "BGPRY", 14: "w", 15: "k"}), "third"),
]


@pytest.mark.parametrize("kwargs,token", [b[1:] for b in BAD_BUILDS], ids=[b[0] for b in BAD_BUILDS])
def test_direct_construction_validates(kwargs, token):
    with pytest.raises(PositionError) as info:
        Position(**kwargs)
    assert info.value.token == token


@pytest.mark.parametrize("text", CANONICAL)
def test_repr_evaluates_back(text):
    p = parse_position(text)
    r = repr(p)
    assert r == f"Position.from_string({text!r})"
    assert eval(r, {"Position": Position}) == p


def test_hashable_and_equal_for_equal_boards():
    a = parse_position("1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx")
    b = parse_position("dice:RxGP -8 +5 3:PR 2:YG 1:B 15:k 14:w second")
    c = parse_position("1:B 2:GY 3:PR 14:w 15:k +5 -8 dice:GPRx")  # G and Y swapped
    d = parse_position("1:B 2:YG 3:PR 14:w 15:k +5 +8 dice:GPRx")  # other tile side
    e = parse_position("1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPR")  # no grey die
    assert a == b and hash(a) == hash(b)
    assert len({a, b, c, d, e}) == 4
    assert {a: 1}[b] == 1
    for other in (c, d, e):
        assert a != other


def test_position_is_immutable():
    p = parse_position("1:BGPRY 14:w 15:k")
    with pytest.raises(AttributeError):
        p.dice = "BG"  # type: ignore[misc]


def test_editions_differ():
    assert parse_position("1:BGOYW first") != parse_position("1:BGPRY 14:w 15:k")
