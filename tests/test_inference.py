"""The inference of face-down overall cards (advisor.bots.inference): features,
the model's probabilities worked by hand, the fit, the accuracy on played
games against their known truth, the state's per-card models and their use
in the advice."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from advisor.cli import command as cli
from advisor.game import write_records
from advisor.bots.inference import (DEFAULT_BETA, FEATURES, InferenceError, card_features, check_params, evaluate, fit,
                               hand_colours, infer_view, placements, player_marginals, stored_beta)
from advisor.valuation.overall import hand_distribution, hand_distribution_cards, right_payout, right_payouts_cards
from advisor.simulate.games import play_game
from advisor.rules.state import GameState, StateError
from advisor.valuation.engine import best_moves

RACING = "BGPRY"


# ---------------------------------------------------------------- features, by hand

def test_card_features_by_hand():
    win = np.array([0.5, 0.2, 0.1, 0.1, 0.1])
    lose = np.array([0.0, 0.1, 0.2, 0.3, 0.4])
    x = card_features(win, lose, "winner", leg=1, index=2, leg_tiles=["G"], racing=RACING)
    assert x.shape == (5, len(FEATURES))
    assert x[0, 0] == pytest.approx(math.log(0.5))  # log_odds
    assert x[0, 1] == pytest.approx(math.log(1e-3))  # log_other, floored
    assert list(x[:, 2]) == [1, 0, 0, 0, 0]  # favourite
    assert x[1, 3] == pytest.approx(math.log(0.2))  # first leg: log_odds again
    assert list(x[:, 4]) == [0, 1, 0, 0, 0]  # a G leg tile held
    assert x[2, 5] == pytest.approx(math.log(0.1) * 0.5)  # third card on the pile: place 2/4
    y = card_features(win, lose, "loser", leg=3, index=7, leg_tiles=[], racing=RACING)
    assert y[4, 0] == pytest.approx(math.log(0.4)) and list(y[:, 2]) == [0, 0, 0, 0, 1]
    assert not y[:, 3].any() and y[4, 5] == pytest.approx(math.log(0.4))  # later legs; place capped at 1


# ---------------------------------------------------------------- the model, by hand

def _x(probs):
    """Features whose only nonzero column is log_odds = log(probs)."""
    x = np.zeros((len(probs), len(FEATURES)))
    x[:, 0] = np.log(probs)
    return x


def test_one_card_under_the_default_coefficients_is_its_odds():
    marg, hand = player_marginals([_x([0.5, 0.3, 0.2])], DEFAULT_BETA)
    assert marg[0] == pytest.approx([0.5, 0.3, 0.2])
    assert hand == pytest.approx([0.5, 0.7, 0.8])


def test_two_cards_of_one_player_have_distinct_colours():
    p = np.array([0.5, 0.3, 0.2])
    marg, hand = player_marginals([_x(p), _x(p)], DEFAULT_BETA)
    z = 1 - (0.25 + 0.09 + 0.04)  # P(two independent draws differ) = 0.62
    assert marg[0, 0] == pytest.approx(0.5 * (1 - 0.5) / z)  # 0.25 / 0.62
    assert marg[0, 1] == pytest.approx(0.3 * (1 - 0.3) / z)
    assert marg[1] == pytest.approx(marg[0])
    # the camel left in hand: P(neither card) = p_c^... = P(the pair is the other two)
    assert hand[2] == pytest.approx(2 * 0.5 * 0.3 / z)
    assert hand.sum() == pytest.approx(1.0)


def test_coefficients_sharpen_and_exclusions_apply():
    beta = 2 * DEFAULT_BETA  # probabilities squared, renormalised
    marg, _ = player_marginals([_x([0.5, 0.3, 0.2])], beta)
    assert marg[0] == pytest.approx(np.array([0.25, 0.09, 0.04]) / 0.38)
    marg, _ = player_marginals([_x([0.5, 0.3, 0.2])], DEFAULT_BETA, excluded=[0])
    assert marg[0] == pytest.approx([0, 0.6, 0.4])
    with pytest.raises(InferenceError):
        player_marginals([_x([0.5, 0.5]), _x([0.5, 0.5])], DEFAULT_BETA, excluded=[0])


def test_hand_of_per_card_models_by_hand():
    # two face-down cards among candidates B, G, P; hand of one card
    q1 = np.array([0.6, 0.3, 0.1, 0, 0])
    q2 = np.array([0.2, 0.2, 0.6, 0, 0])
    hands, probs = hand_distribution_cards(1, [0, 1, 2], [q1, q2])
    w = {(2,): 0.6 * 0.2 + 0.3 * 0.2,  # rest B,G: q1(B)q2(G) + q1(G)q2(B)
         (1,): 0.6 * 0.6 + 0.1 * 0.2,  # rest B,P
         (0,): 0.3 * 0.6 + 0.1 * 0.2}  # rest G,P
    total = sum(w.values())
    assert dict(zip(hands, probs)) == pytest.approx({h: v / total for h, v in w.items()})
    # equal models on both piles: the pile model's hand distribution
    q = np.array([0.4, 0.3, 0.2, 0.1, 0.0])
    a = hand_distribution_cards(2, [0, 1, 2, 3], [q, q])
    b = hand_distribution(2, [0, 1, 2, 3], {"winner": 2, "loser": 0}, {"winner": q, "loser": q})
    assert a[0] == b[0] and a[1] == pytest.approx(b[1])


def test_poisson_binomial_payout_matches_the_binomial_for_equal_cards():
    q = np.array([0.3, 0.1, 0.2, 0.25, 0.15])
    values, probs = right_payouts_cards([1, 0, 0, 0, 0], np.array([q, q, q]))
    v, p = right_payout(1, 3, 0.3)
    assert list(values[0]) == list(v) and probs[0] == pytest.approx(p)
    # two different cards, by hand: P(neither names G) = 0.9 * 0.5
    values, probs = right_payouts_cards([0] * 5, np.array([q, [0.1, 0.5, 0.1, 0.2, 0.1]]))
    assert list(values[1]) == [8, 5, 3] and probs[1] == pytest.approx([0.9 * 0.5, 0.1 * 0.5 + 0.9 * 0.5, 0.05])


# ---------------------------------------------------------------- the fit

def test_fit_recovers_known_coefficients():
    rng = np.random.default_rng(3)
    beta = np.array([1.8, 0.3, 0.7, -0.4, 1.1, -0.6])
    from advisor.bots.inference import CardEvent, colourings

    games = []
    for _ in range(600):
        m = int(rng.integers(1, 4))
        xs = [rng.normal(size=(5, len(FEATURES))) for _ in range(m)]
        seqs = colourings(m)
        u = np.array([sum(xs[k][s[k]] @ beta for k in range(m)) for s in seqs])
        p = np.exp(u - u.max())
        pick = seqs[rng.choice(len(seqs), p=p / p.sum())]
        games.append([CardEvent(k, 0, "winner", k, xs[k], np.full(5, 0.2), RACING[pick[k]]) for k in range(m)])
    got = fit(games, RACING)
    assert got == pytest.approx(beta, abs=0.35)


def test_stored_coefficients_and_their_checks():
    beta = stored_beta()
    assert beta.shape == (len(FEATURES),) and np.isfinite(beta).all()
    with pytest.raises(InferenceError, match="name the features"):
        check_params({"beta": {"log_odds": 1.0}})
    with pytest.raises(InferenceError, match="finite"):
        check_params({"beta": {f: float("nan") for f in FEATURES}})


# ---------------------------------------------------------------- played games: the truth known

@pytest.fixture(scope="module")
def games():
    return [play_game(["advisor", "random", "rival", "random"], seed=s) for s in (5, 6, 7)]


def test_placements_read_the_public_history(games):
    record = games[0]
    events = placements(record)
    placed = [e for e in record if e.get("type") == "action" and e["action"].split(":")[0] in ("winner", "loser")]
    assert [(e.turn, e.player, e.pile) for e in events] == [(p["turn"], p["player"], p["action"].split(":")[0])
                                                           for p in placed]
    assert [e.colour for e in events] == [p["action"].split(":")[1] for p in placed]
    for e in events:
        assert e.odds.sum() == pytest.approx(1.0)
    upto = placed[len(placed) // 2]["turn"]
    assert len(placements(record, upto)) == sum(1 for p in placed if p["turn"] < upto)


def test_held_out_accuracy_against_the_truth(games):
    """The figures of evaluate() recomputed card by card from the truth."""
    events = [placements(r) for r in games]
    beta = stored_beta()
    report = evaluate(events, RACING, {"default": None, "inferred": beta})
    for name, b in (("default", None), ("inferred", beta)):
        for pile in ("winner", "loser"):
            hits, losses = [], []
            for game in events:
                for player in {e.player for e in game}:
                    mine = [e for e in game if e.player == player]
                    for k, e in enumerate(mine):
                        if e.pile != pile:
                            continue
                        probs = e.odds / e.odds.sum() if b is None else \
                            player_marginals([m.features for m in mine[:k + 1]], b)[0][k]
                        truth = RACING.index(e.colour)
                        hits.append(probs.argmax() == truth)
                        losses.append(-math.log(probs[truth]))
            r = report[name][pile]
            assert r["cards"] == len(hits) > 0
            assert r["top1"] == pytest.approx(np.mean(hits))
            assert r["log_loss"] == pytest.approx(np.mean(losses))
    both = lambda name: sum(report[name][p]["log_loss"] * report[name][p]["cards"] for p in ("winner", "loser"))
    assert both("inferred") < both("default")


def test_infer_view_fills_other_players_cards(games, tmp_path):
    record = games[0]
    turns = [e for e in record if e.get("type") == "action"]
    upto = max(e["turn"] for e in turns if e["action"].split(":")[0] in ("winner", "loser")) + 1
    viewer = next(e["player"] for e in turns[upto:])
    view = infer_view(record, upto, viewer)
    for card in view.winner_pile + view.loser_pile:
        if card.player == viewer:
            assert card.model is None and card.colour is not None
        else:
            assert card.colour is None and sum(p for _, p in card.model) == pytest.approx(1.0)
    back = GameState.from_json(json.loads(json.dumps(view.to_json())))
    assert back == view
    for p in range(view.n_players):
        h = hand_colours(view, p)
        if h is not None:
            assert sum(h.values()) == pytest.approx(view.hand_size(p))


def test_cli_best_from_records_infers_unless_told_not(games, tmp_path, capsys):
    path = tmp_path / "games.jsonl"
    write_records(games[:1], path)
    record = games[0]
    turn = max(e["turn"] for e in record if e.get("type") == "action"
               and e["action"].split(":")[0] in ("winner", "loser") and e["player"] != 0) + 1
    args = [str(path), "--turn", str(turn), "--player", "0", "--json", "--seed", "3", "--no-denial"]
    assert cli.main(["best", *args]) == 0
    inferred = json.loads(capsys.readouterr().out)
    assert inferred["inferred"]["cards"] and all(c["player"] != 0 for c in inferred["inferred"]["cards"])
    assert cli.main(["best", *args, "--no-infer"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert "inferred" not in plain
    assert [m["action"] for m in plain["moves"]] and {m["action"] for m in plain["moves"]} == \
        {m["action"] for m in inferred["moves"]}
    assert cli.main(["best", *[a for a in args if a != "--json"]]) == 0
    assert "Face-down cards (colours inferred" in capsys.readouterr().out


# ---------------------------------------------------------------- the state's per-card models

STATE = {"board": "1:B 2:YG 3:PR 14:w 15:k", "players": [{"overall_cards": "BGPRY"}, {"overall_cards": 3}, {}, {}],
         "winner_pile": [{"player": 1}, {"player": 1}]}


def test_a_card_model_changes_the_advice():
    sure_b = {"B": 0.9, "G": 0.025, "P": 0.025, "R": 0.025, "Y": 0.025}
    plain = best_moves(GameState.from_json(STATE), 0, seed=1, precision=0.02).set_index("action")
    state = GameState.from_json({**STATE, "winner_pile": [{"player": 1, "model": sure_b}, {"player": 1}]})
    assert state.to_json()["winner_pile"][0] == {"player": 1, "model": sure_b}
    modelled = best_moves(state, 0, seed=1, precision=0.02).set_index("action")
    # B now surely has an earlier card on the pile: a B card pays less, the others more
    assert modelled.loc["winner:B", "ev"] < plain.loc["winner:B", "ev"] - 0.2
    assert modelled.loc["winner:G", "ev"] > plain.loc["winner:G", "ev"]


@pytest.mark.parametrize("card, message", [
    ({"player": 1, "model": {"B": 0.5, "G": 0.5}}, "give a probability for each of BGPRY"),
    ({"player": 1, "model": {"B": 0.5, "G": 0.5, "P": 0.5, "R": 0, "Y": 0}}, "sum to 1"),
    ({"player": 1, "model": {"B": -1, "G": 1, "P": 0.5, "R": 0.5, "Y": 0}}, "sum to 1"),
    ({"player": 1, "model": {"B": "x", "G": 1, "P": 0, "R": 0, "Y": 0}}, "sum to 1"),
    ({"player": 1, "model": [0.2] * 5}, "must be an object"),
    ({"player": 1, "colour": "B", "model": {"B": 1, "G": 0, "P": 0, "R": 0, "Y": 0}}, "colour is given"),
    ({"player": 1, "odds": {}}, "must be"),
])
def test_bad_card_models_are_one_line_errors(card, message):
    with pytest.raises(StateError, match=message) as info:
        GameState.from_json({**STATE, "winner_pile": [card, {"player": 1}]})
    assert "\n" not in str(info.value) and "winner_pile[0]" in str(info.value)


def test_cli_bad_model_in_a_state_file(tmp_path, capsys):
    path = tmp_path / "state.json"
    path.write_text(json.dumps({**STATE, "winner_pile": [{"player": 1, "model": {"B": 1}}, {"player": 1}]}))
    assert cli.main(["best", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "winner_pile[0].model" in err


def test_no_infer_drops_a_state_files_card_models(tmp_path, capsys):
    sure_b = {"B": 0.9, "G": 0.025, "P": 0.025, "R": 0.025, "Y": 0.025}
    path = tmp_path / "state.json"
    path.write_text(json.dumps({**STATE, "winner_pile": [{"player": 1, "model": sure_b}, {"player": 1}]}))
    plain_path = tmp_path / "plain.json"
    plain_path.write_text(json.dumps(STATE))
    outs = []
    for argv in ([str(path)], [str(path), "--no-infer"], [str(plain_path)]):
        assert cli.main(["best", *argv, "--json", "--seed", "2", "--no-denial", "--precision", "0.02"]) == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert outs[0]["inferred"]["cards"][0]["model"] == sure_b
    assert outs[1]["moves"] == outs[2]["moves"] != outs[0]["moves"]


def test_web_game_mode_infers_unless_told_not(games):
    from advisor.web.work import game_replay

    record = games[0]
    last = max(k for k, e in enumerate(record) if e.get("type") == "action"
               and e["action"].split(":")[0] in ("winner", "loser"))
    cut = record[:last + 2]
    view = game_replay(cut)
    to_move = view["to_move"]
    others = [c for c in view["inferred"]["cards"] if c["player"] != to_move]
    assert others and len(others) == len(view["inferred"]["cards"])
    modelled = [c for pile in ("winner_pile", "loser_pile") for c in view["advised"][pile] if "model" in c]
    assert len(modelled) == len(others)
    state = GameState.from_json(view["advised"])  # what the page sends back for the advice
    assert any(c.model for c in state.winner_pile + state.loser_pile)
    plain = game_replay(cut, infer=False)
    assert "inferred" not in plain and not any("model" in c for p in ("winner_pile", "loser_pile")
                                               for c in plain["advised"][p])


def test_web_api_infer_field(games, client):
    record = games[0]
    last = max(k for k, e in enumerate(record) if e.get("type") == "action"
               and e["action"].split(":")[0] in ("winner", "loser"))
    cut = record[:last + 2]
    inferred = client.post("/api/game/replay", json={"record": cut}).json()
    plain = client.post("/api/game/replay", json={"record": cut, "infer": False}).json()
    bad = client.post("/api/game/replay", json={"record": cut, "infer": "yes"})
    assert inferred["inferred"]["cards"] and "inferred" not in plain
    assert bad.status_code == 400 and bad.json()["error"].startswith("infer: expected true or false")
