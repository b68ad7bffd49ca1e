"""Bots that other programs can host: ``ranked`` (every legal action with
its score, best first), ``choose`` its first action, the fallback of a host
that refuses an action, :func:`advisor.bots.policies.ask` and ``camelup bot``."""

from __future__ import annotations

import json

import numpy as np
import pytest

from advisor.bots.policies import BOTS, ask, first_accepted, make_bot, order
from advisor.cards.bots import CARDS_BOTS, make_cards_bot
from advisor.cards.game import CardsGame, CardsSetup, legal_actions as cards_legal
from advisor.errors import AdvisorError, IllegalActionError
from advisor.valuation.engine import fast_values, legal_actions
from played import game_states
from helpers import run


@pytest.fixture(scope="session")
def states():
    """``(view, player)`` at every fourth turn of a second-edition game."""
    return game_states("second", ("rival", "advisor", "heuristic", "random"), 5, limit=40)[::4]


@pytest.fixture(scope="session")
def first_states():
    """``(view, player)`` at every fifth turn of a first-edition game."""
    return game_states("first", ("advisor", "rival", "random", "heuristic"), 6, limit=30)[::5]


@pytest.mark.parametrize("name", sorted(BOTS))
def test_ranked_lists_every_legal_action_once_best_first(name, states, first_states):
    bot = make_bot(name)
    for view, p in states + first_states:
        ranking = bot.ranked(view, p, np.random.default_rng(1))
        actions = [a for a, _ in ranking]
        assert sorted(actions) == sorted(legal_actions(view, p))
        scores = [s for _, s in ranking]
        assert all(a >= b for a, b in zip(scores, scores[1:]))


@pytest.mark.parametrize("name", sorted(BOTS))
def test_choose_is_the_first_of_ranked_with_the_same_random_numbers(name, states, first_states):
    bot = make_bot(name)
    for view, p in states + first_states:
        r1, r2 = np.random.default_rng(7), np.random.default_rng(7)
        assert bot.choose(view, p, r1) == bot.ranked(view, p, r2)[0][0]
        assert r1.integers(1 << 30) == r2.integers(1 << 30)  # the same draws were made


@pytest.mark.parametrize("name,kwargs", [("advisor", {}), ("denial", {"denial": True}), ("rival", {"rivals": True})])
def test_ranked_scores_are_the_valuations_scores(name, kwargs, states):
    bot = make_bot(name)
    for view, p in states:
        values = fast_values(view, p, precision=0.02, **kwargs)
        if name == "advisor":
            want = values.scores()
        elif name == "denial":
            want = values.scores(0.5)
        else:
            want = values.scores(rivals_weight=1.0)  # 1 / (players - 1) times the 3 others
        got = dict(bot.ranked(view, p))
        assert got == dict(zip(values.actions, map(float, want)))
        assert bot.ranked(view, p)[0][0] == values.best(*((0.5,) if name == "denial" else ()),
                                                          **({"rivals_weight": 1.0} if name == "rival" else {}))


def test_order_keeps_ties_in_the_given_order():
    assert order(["a", "b", "c", "d"], [1.0, 2.0, 2.0, -np.inf]) == [("b", 2.0), ("c", 2.0), ("a", 1.0),
                                                                     ("d", -np.inf)]
    # the first of the ties is np.argmax's choice
    scores = [0.5, 3.0, 1.0, 3.0]
    assert order(list("wxyz"), scores)[0][0] == "wxyz"[int(np.argmax(scores))]


def test_heuristic_ranks_the_pyramid_against_the_leg_tiles_and_the_rest_last(states):
    bot = make_bot("heuristic")
    view, p = states[0]
    ranking = bot.ranked(view, p)
    scores = dict(ranking)
    assert scores["pyramid"] == 1.0
    others = [a for a, _ in ranking if not (a.startswith("leg:") or a == "pyramid")]
    assert all(scores[a] == -np.inf for a in others)
    assert [a for a, _ in ranking][-len(others):] == others


def test_random_ranks_the_drawn_action_first_then_the_others_in_legal_order(states):
    view, p = states[1]
    legal = legal_actions(view, p)
    ranking = make_bot("random").ranked(view, p, np.random.default_rng(3))
    k = int(np.random.default_rng(3).integers(len(legal)))
    assert [a for a, _ in ranking] == [legal[k], *legal[:k], *legal[k + 1:]]
    assert {s for _, s in ranking} == {1 / len(legal)}


def test_a_host_that_refuses_takes_the_next_action(states):
    view, p = states[2]
    ranking = make_bot("rival").ranked(view, p)
    refused = {ranking[0][0], ranking[1][0]}
    assert first_accepted(ranking, lambda a: a not in refused) == ranking[2][0]
    assert first_accepted(ranking, lambda a: True) == ranking[0][0]
    # e.g. a host without overall cards: the best action that is not one
    best_other = next(a for a, _ in ranking if not a.startswith(("winner:", "loser:")))
    assert first_accepted(ranking, lambda a: not a.startswith(("winner:", "loser:"))) == best_other
    with pytest.raises(IllegalActionError, match="refused"):
        first_accepted(ranking, lambda a: False)


def test_ask_from_a_state_its_json_and_its_file(tmp_path, states):
    view, p = states[3]
    want = make_bot("advisor").ranked(view, p)
    assert ask("advisor", view, p) == want
    assert ask("advisor", view.to_json(), p) == want
    path = tmp_path / "state.json"
    path.write_text(json.dumps(view.to_json()))
    assert ask(make_bot("advisor"), str(path), p) == want
    with pytest.raises(AdvisorError, match="unknown bot"):
        ask("nobody", view, p)
    with pytest.raises(AdvisorError, match="hidden"):
        ask("advisor", view, (p + 1) % view.n_players)  # another player's hand is a count in this view


def test_cli_bot_json_shape(tmp_path, capsys, states):
    view, p = states[3]
    path = tmp_path / "state.json"
    path.write_text(json.dumps(view.to_json()))
    code, out, err = run(["bot", "rival", str(path), "--json"], capsys)
    assert code == 0 and err == ""
    data = json.loads(out)
    assert set(data) == {"bot", "position", "player", "seed", "choice", "ranking", "seconds"}
    assert data["bot"] == "rival" and data["player"] == p and data["position"] == str(view.position)
    want = make_bot("rival").ranked(view, p)
    assert [(r["action"], r["score"]) for r in data["ranking"]] == want
    assert data["choice"] == want[0][0]
    assert data["seconds"] > 0
    code, out, _ = run(["bot", "heuristic", str(path), "--json"], capsys)
    ranking = json.loads(out)["ranking"]
    assert any(r["score"] is None for r in ranking)  # -inf: never taken by its rule, null in strict JSON
    code, out, _ = run(["bot", "advisor", str(path)], capsys)
    assert code == 0 and out.splitlines()[0].startswith(f"Bot advisor, player {p} (to move)")
    assert len(out.splitlines()) == 2 + len(legal_actions(view, p))


def test_cli_bot_reads_standard_input(tmp_path, capsys, monkeypatch, states):
    import io

    view, p = states[3]
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(json.dumps(view.to_json()).encode())))
    code, out, _ = run(["bot", "advisor", "-", "--json"], capsys)
    assert code == 0 and json.loads(out)["choice"] == make_bot("advisor").ranked(view, p)[0][0]


@pytest.mark.parametrize("argv,message", [
    (["bot", "nobody", "X.json"], "unknown bot 'nobody'"),
    (["bot", "rival", "/nonexistent/state.json"], "cannot read"),
    (["bot", "rival", "STATE", "--player", "1"], "hand is hidden"),
    (["bot", "rival", "STATE", "--player", "9"], "must be a player 0..3"),
    (["bot", "rival", "BAD"], "must be a board string"),
    (["bot", "rival"], "required"),
])
def test_cli_bot_bad_input_one_line_exit_2(argv, message, tmp_path, capsys, states):
    view, p = states[0]
    state = tmp_path / "state.json"
    state.write_text(json.dumps(view.to_json()))
    bad = tmp_path / "bad.json"
    bad.write_text('{"board": 3}')
    argv = [str(state) if a == "STATE" else str(bad) if a == "BAD" else a for a in argv]
    if "--player" in argv and argv[-1] == "1":
        argv[-1] = str((p + 1) % 4)
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err


def _cards_steps(seed=4, players=3, limit=40):
    """``(state, player)`` before each step of a Cards game of greedy,
    heuristic and random bots."""
    game = CardsGame(CardsSetup(players=players), seed)
    bots = [make_cards_bot(n) for n in ("greedy", "heuristic", "random")]
    rngs = [np.random.default_rng([seed, s]) for s in range(players)]
    out = []
    while not game.finished and len(out) < limit:
        p = game.state.current
        out.append((game.state, p))
        game.play(bots[p].choose(game.state, p, rngs[p]))
    return out


@pytest.fixture(scope="session")
def cards_steps():
    return _cards_steps()


@pytest.mark.parametrize("name", sorted(CARDS_BOTS))
def test_cards_bots_rank_every_legal_action_and_choose_the_first(name, cards_steps):
    for state, p in cards_steps:
        ranking = make_cards_bot(name).ranked(state, p, np.random.default_rng(2))
        actions = [a for a, _ in ranking]
        if state.phase == "build":
            assert len(actions) == 1 and actions[0].kind == "build"
        else:
            assert sorted(map(str, actions)) == sorted(map(str, cards_legal(state)))
        scores = [s for _, s in ranking]
        assert all(a >= b for a, b in zip(scores, scores[1:]))
        assert make_cards_bot(name).choose(state, p, np.random.default_rng(2)) == actions[0]


def test_cards_greedy_plays_the_race_action_of_its_chosen_turn_after_its_bet():
    """Through a whole game the ranking's first step is what the bot
    plays: the bet of a turn, then that turn's race action."""
    game = CardsGame(CardsSetup(players=3), 11)
    bots = [make_cards_bot("greedy") for _ in range(3)]
    rngs = [np.random.default_rng([11, s]) for s in range(3)]
    steps = 0
    while not game.finished and steps < 60:
        p = game.state.current
        seed = int(rngs[p].integers(1 << 30))
        ranking = bots[p].ranked(game.state, p, np.random.default_rng(seed))
        action = bots[p].choose(game.state, p, np.random.default_rng(seed))
        assert action == ranking[0][0]
        game.play(action)
        steps += 1
