"""The public API and the JSON layouts, snapshotted: a change to either is
deliberate (update the snapshot here, and raise ``advisor._tools.jsonio.SCHEMA``
when a key of a JSON output changes meaning or goes)."""

from __future__ import annotations

import json
from pathlib import Path

import advisor
from advisor.game import Game
from advisor._tools.jsonio import SCHEMA

OUTPUTS = Path(__file__).resolve().parent / "golden" / "outputs"

API = [
    "__version__", "AdvisorError", "PositionError", "IllegalActionError", "Position", "Tile", "Edition", "EDITIONS",
    "get_edition", "rules_from_json", "RulesError", "parse_position", "format_position", "step", "Step", "setup_position", "random_position",
    "LegOdds", "leg_odds", "leg_odds_many", "sample_leg_odds", "RaceOdds", "race_odds", "best_moves", "analyse",
    "review", "evaluate", "legal_actions", "Action", "GameState", "PlayerState", "PileCard", "StateError", "warmup",
    "EXAMPLE_POSITION",
]

#: Top-level keys of each JSON output (golden output file -> keys, in order).
JSON_KEYS = {
    "odds_example_json": ["schema", "position", "leg", "race", "race_samples", "race_legs", "seed"],
    "odds_leg_only_json": ["schema", "position", "leg"],
    "odds_samples_json": ["schema", "position", "leg", "leg_samples", "race", "race_samples", "race_legs", "seed"],
    # objective added: which objective ranked the moves (win: the chance of winning, with win_now; ev)
    "best_example_json": ["schema", "position", "player", "moves", "assumptions", "race_samples", "seed",
                          "portfolio", "objective"],
    "best_first_state_json": ["schema", "position", "player", "moves", "race_samples", "seed", "portfolio",
                              "objective"],
    # win_now_se added: the standard error of win_now from the sampled race odds (each move's win_se too)
    "best_win_state_json": ["schema", "position", "player", "moves", "race_samples", "seed", "portfolio",
                            "objective", "win_now", "win_now_se"],
    "cards_odds_json": None,  # filled from the file below: Cards odds carry their own keys
    # others_model and leg_samples added: the other players' model in this leg and later legs, exact or sampled leg
    # objective added: the figure that ranked the moves (here "ev"); ranked by the chance of winning, win_now and
    # assumptions too
    "cards_best_json": ["schema", "position", "moves", "seed", "others", "race", "race_samples", "others_model",
                        "leg_samples", "objective"],
    "cards_best_win_json": ["schema", "position", "moves", "seed", "others", "race", "race_samples", "others_model",
                            "leg_samples", "objective", "win_now", "assumptions"],
}
MOVE_KEYS = {"action", "kind", "ev", "sd", "p_loss", "denial", "cov", "portfolio"}
PORTFOLIO_KEYS = ["lead", "risk_attitude", "joint_samples"]
SETUP_KEYS = ["type", "schema", "edition", "players", "seed", "board", "start"]
#: Under a rule variant: the ``rules`` key after ``position`` (odds, best)
#: and after ``start`` on a record's setup line; absent for the editions' own rules.
VARIANT_KEYS = {"odds": ["schema", "position", "rules", "leg"],
                "best": ["schema", "position", "rules", "player", "moves", "assumptions", "objective"],
                "setup": SETUP_KEYS + ["rules"]}


def _json(name: str):
    text = (OUTPUTS / f"{name}.stdout").read_text(encoding="utf-8")
    return json.loads(text.split("\n", 1)[1])  # after the "exit status" line


def test_public_api():
    assert advisor.__all__ == API
    for name in API:
        assert getattr(advisor, name) is not None


def test_json_keys():
    for name, keys in JSON_KEYS.items():
        data = _json(name)
        assert data["schema"] == SCHEMA, name
        if keys is not None:
            assert list(data) == keys, name
        else:
            assert list(data)[0] == "schema" and "seed" in data
    for name in ("best_example_json", "best_first_state_json", "best_win_state_json"):
        for move in _json(name)["moves"]:
            assert MOVE_KEYS <= set(move), name
            assert ("win" in move) == (name == "best_win_state_json"), name
            assert ("win_se" in move) == (name == "best_win_state_json"), name
        assert list(_json(name)["portfolio"]) == PORTFOLIO_KEYS, name


def test_live_outputs_carry_the_schema():
    from advisor import leg_odds, parse_position
    from advisor.present.jsonout import odds_json

    pos = parse_position("first 16:B 1:G 2:O 3:Y 4:W dice:B")
    assert list(odds_json(pos, leg_odds(pos))) == JSON_KEYS["odds_leg_only_json"]
    assert list(Game("second", 4, seed=1).record[0]) == SETUP_KEYS


def test_variant_json_keys():
    from advisor import best_moves, leg_odds, rules_from_json
    from advisor.present.jsonout import best_json, odds_json
    from advisor.rules.state import GameState

    house = rules_from_json("first", {"name": "house", "money_floor": None})
    state = GameState.from_board("first 10:B 8:G 6:O 4:Y 2:W dice:G", rules=house)
    assert list(odds_json(state.position, leg_odds(state.position))) == VARIANT_KEYS["odds"]
    frame = best_moves(state, race=False)
    assert list(best_json(state, frame, ["assumed"])) == VARIANT_KEYS["best"]
    assert list(Game(house, 3, seed=1).record[0]) == VARIANT_KEYS["setup"]
    assert Game(house, 3, seed=1).record[0]["rules"] == {"name": "house", "money_floor": None}


def test_face_down_card_model_layout():
    """A pile card's JSON keys (``model``: P(each camel), an added key) and
    the ``inferred`` object that ``best --json`` adds when cards carry models
    (docs/user-guide/best-move.md, Face-down cards inferred from the game's history)."""
    from advisor.bots.inference import face_down_json
    from advisor.rules.state import GameState

    model = {"B": 0.6, "G": 0.1, "P": 0.1, "R": 0.1, "Y": 0.1}
    state = GameState.from_json({"board": "1:B 2:YG 3:PR 14:w 15:k", "players": [{}, {"overall_cards": 4}, {}, {}],
                                 "winner_pile": [{"player": 1, "model": model}, {"player": 0, "colour": "B"}]})
    assert state.to_json()["winner_pile"] == [{"player": 1, "model": model}, {"player": 0, "colour": "B"}]
    out = face_down_json(state)
    assert list(out) == ["inferred"] and list(out["inferred"]) == ["cards", "hands"]
    assert out["inferred"]["cards"] == [{"pile": "winner", "index": 0, "player": 1, "model": model}]
    assert list(out["inferred"]["hands"]) == ["1"] and list(out["inferred"]["hands"]["1"]) == list("BGPRY")
    assert abs(out["inferred"]["hands"]["1"]["B"] - 0.4) < 1e-12  # P(B still in the hand) = 1 - 0.6
