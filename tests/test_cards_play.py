"""camelup play --edition cards: scripted humans against the Cards bots;
deck building, turns, bad entries, hidden cards, save/load, undo, Ctrl-C;
camelup best on a Cards game record with --player."""

import dataclasses
import io
import json
import re

import pytest

from advisor.cards.game import UNSEEN, CardsGame, CardsSetup
from advisor.cli.table_cards import CardsEngine, load_cards_game, play_cards, render_cards, step_advice
from advisor.cards.record import read_cards_records, replay_cards, write_cards_records
from advisor.cli.command import main
from advisor.errors import AdvisorError, Interrupted
from typed import scripted  # noqa: E402  (tests/typed.py)


def auto_human(out, lines=(), then=None):
    """A scripted human reading the screen: first ``lines``; then (unless
    ``then`` is raised) builds keeping its first dealt card, showing the
    next and putting the next ones face down, and reveals and passes."""
    queue = list(lines)

    def read(prompt):
        if queue:
            return queue.pop(0)
        if then is not None:
            raise then
        if "keep in hand>" in prompt or "show>" in prompt or "face down" in prompt:
            text = out.getvalue()
            dealt = re.findall(r"Your dealt cards: ([^.]*)\.", text)[-1].split()
            if "keep in hand" in prompt:
                return dealt[0]
            shows = "show 1," in text.rsplit("Your dealt cards", 1)[1][:200]
            if "show>" in prompt:
                return dealt[1]
            n = int(re.search(r"\((\d+) cards\)", prompt).group(1))
            start = 2 if shows else 1
            return " ".join(dealt[start:start + n])
        if "bet or pass" in prompt:
            return "pass"
        return "reveal"

    return read


SEATS = ["human", "heuristic", "random"]
SEED = 7


@pytest.fixture(scope="module")
def straight():
    """An uninterrupted game: the human against two bots, to the end."""
    out = io.StringIO()
    game = play_cards(SEATS, seed=SEED, read=auto_human(out), out=out)
    return game, out.getvalue()


def _human_actions(record, p=0):
    return [e["action"] for e in record if e.get("type") == "action" and e["player"] == p]


# ======================================================================
# Whole games
# ======================================================================


def test_a_human_plays_a_whole_game_against_the_bots(straight):
    game, text = straight
    assert game.finished
    assert text.startswith(f"Camel Up Cards, 3 players, seed {SEED}")
    assert "The race is over:" in text and "Winner(s):" in text and "Scoring (coins" in text
    replayed = replay_cards(game.record)  # every line checks
    assert replayed.state == game.state and game.record[0]["seats"] == SEATS
    mine = _human_actions(game.record)
    assert any(a.startswith("build:") for a in mine) and "reveal" in mine and "pass" in mine
    legs = game.state.leg
    assert text.count("P0 (you): built the race deck: kept ") == legs  # the solo human hears its own cards
    money = [p.money for p in game.state.players]
    names = ["P0 (you)", "P1 (heuristic)", "P2 (random)"]
    assert text.rstrip().endswith("Winner(s): " + ", ".join(
        f"{names[i]} with {money[i]} coins" for i in game.state.winners_of_game()) + ".")
    scores = text.split("Scoring (coins")[1]
    for i, m in enumerate(money):  # the score sheet's final column
        assert re.search(rf"P{i} [^\n]*\s{m}\s", scores)


def test_the_deck_building_prompts_and_a_turn_with_bets():
    out = io.StringIO()
    lines = ["table", "actions"]  # shown the dealt cards, then: keep, show, face down
    game = play_cards(["human", "random", "random"], seed=3,
                      read=auto_human(out, lines[:2]), out=out)
    text = out.getvalue()
    assert "Deck building: type the card to keep in hand, from" in text
    builds = [e for e in game.record if e.get("action", "").startswith("build:") and e["player"] == 0]
    first = builds[0]["action"]
    hand, shown, down, discard = first.split(":")[1].split("/")
    dealt = re.findall(r"Your dealt cards: ([^.]*)\.", text)[0].split()
    assert hand == dealt[0] and shown == dealt[1] and down == "".join(dealt[2:5]) and discard == dealt[5]


def test_a_bet_before_and_after_the_race_action():
    out = io.StringIO()
    human = auto_human(out)
    script = iter(["leg:b", "leg:G", "pass", "fennec:99", "reveal", "Mid:o", "quit"])

    def read(prompt):
        if "keep in hand" in prompt or "show>" in prompt or "face down" in prompt:
            return human(prompt)
        return next(script)

    game = play_cards(["human", "random", "random"], seed=11, read=read, out=out)
    text = out.getvalue()
    mine = _human_actions(game.record)
    assert mine[1:] == ["leg:B", "reveal", "mid:O"]  # case-insensitive; one bet, one race action
    assert "Not possible: leg:G: one bet per turn" in text
    assert "Not possible: pass ends a turn after its race action" in text
    assert "Not possible: fennec:99: a figure goes on an empty space" in text


def test_bots_alone_finish_and_a_bad_setup_is_one_message():
    game = play_cards(["heuristic", "random"], seed=2, read=scripted([]), out=io.StringIO())
    assert game.finished
    with pytest.raises(AdvisorError, match="unknown seat 'advisor'"):
        play_cards(["human", "advisor"], seed=1, out=io.StringIO())
    with pytest.raises(AdvisorError, match="2-6 players"):
        play_cards(["human"] * 7, seed=1, out=io.StringIO())


# ======================================================================
# Bad entries
# ======================================================================


def test_garbage_at_every_prompt_gets_one_line_each(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    junk = ["", "  ", "B9", "xyz", "B1B1B1B1B1B1B1B1", "build:", "build:B1/G1/O1/W1", "build:" + "x" * 500,
            "reveal now", "palm:", "palm:-3", "palm:1000000", "leg:", "leg:Q", "mid:BB", "winner:1", "hand:B",
            "\x00", "١:B", "x" * 10_000, "odds please", "undo now", "save", "pass", "hand", "reveal", "reveal",
            "leg:B", "leg:G", "winner:Y", "loser:Y", "loser:W", "pass"]
    out = io.StringIO()
    human = auto_human(out)
    state = {"n": 0, "junk": 0}

    def read(prompt):
        state["n"] += 1
        if state["n"] > 600:
            return "quit"
        if state["n"] % 3:  # junk between real answers, at every kind of prompt
            state["junk"] += 1
            return junk[state["junk"] % len(junk)]
        return human(prompt)

    game = play_cards(["human", "random", "random", "heuristic"], seed=5, read=read, out=out)
    text = out.getvalue()
    assert "Traceback" not in text
    refusals = [line for line in text.splitlines() if "Not possible:" in line]
    assert len(refusals) > 50
    assert all(line.startswith(("Not possible:", "P0 ")) for line in refusals)  # one line each
    assert "x" * 100 not in text  # long input is echoed shortened
    assert "Not possible: undo takes no argument" in text
    assert replay_cards(game.record).state == game.state


def test_an_illegal_action_changes_nothing():
    game = CardsGame(CardsSetup(players=3), seed=1, draw=False)
    engine = CardsEngine(game)
    before = (game.state, list(game.record))
    for line in ("reveal", "leg:B", "palm:3", "build:B1/G1/O1W1B1/Y1"):
        with pytest.raises(AdvisorError):
            engine.entry(0, line)
    assert (game.state, game.record) == before


# ======================================================================
# Hidden information
# ======================================================================


def _states(record):
    """Every state of a replayed record, with the player to act."""
    out = []
    replay_cards(record, visit=lambda g: out.append(g.state))
    return out


def test_a_view_hides_the_others_cards_and_the_deck(straight):
    game, _ = straight
    for state in _states(game.record):
        for viewer in range(3):
            view = state.view(viewer)
            assert view.players[viewer] == state.players[viewer]
            assert all(c == UNSEEN for c in view.deck) and len(view.deck) == len(state.deck)
            for i, p in enumerate(view.players):
                if i != viewer:
                    assert p.hand in (None, UNSEEN) and (p.hand is None) == (state.players[i].hand is None)
                    assert set(p.dealt) <= {UNSEEN} and p.down == () and p.discard == ()
            if state.phase == "build":
                assert len(view.shown) <= 1
            if state.phase == "turn":
                assert view.shown == state.shown
                # the advice from the view is the advice from the player's own position
                assert view.position(viewer) == state.position(viewer)


def test_the_table_never_depends_on_the_others_hidden_cards(straight):
    game, _ = straight
    seats = ["human", "heuristic", "random"]
    for state in _states(game.record)[::7]:
        text = render_cards(state.view(0), 0, seats)
        # the others' hands, face-down and discarded cards and the deck's order changed: the same table
        swapped = dataclasses.replace(state, deck=tuple(reversed(state.deck)), players=tuple(
            p if i == 0 else dataclasses.replace(p, hand=("Y", 2) if p.hand else None, down=(("B", 2),) * len(p.down),
                                                 discard=(), dealt=(("O", 2),) * len(p.dealt))
            for i, p in enumerate(state.players)))
        assert render_cards(swapped.view(0), 0, seats) == text


def test_the_human_never_sees_a_bots_hand_card(straight):
    game, text = straight
    before_end = text.split("The race is over")[0]
    assert not re.search(r"P[12] \((heuristic|random)\): built the race deck: kept [BGOWY]\+", before_end)
    assert re.search(r"P1 \(heuristic\): built the race deck: kept a card in hand, showed a card", before_end)
    rows = [line for line in before_end.splitlines() if re.match(r"\s+\*?P[12] \(", line)]
    assert rows and not any(re.search(r"hand card [BGOWY]\+", line) for line in rows)
    assert all("Your cards" in line or "Your dealt" in line
               for line in before_end.splitlines() if "face down in the deck" in line or "dealt cards:" in line)
    # the human's own hand card is shown to them
    assert re.search(r"P0 \(you\)\s+money\s+\d+\s+bets .* hand card [BGOWY]\+[12]", before_end)


def test_several_humans_hear_no_cards_and_each_sees_their_own_view():
    out = io.StringIO()
    game = play_cards(["human", "human", "random"], seed=4, read=auto_human(out, then=None), out=out)
    text = out.getvalue().split("The race is over")[0]
    assert "=== P0's turn: P0's view" in text and "=== P1's turn: P1's view" in text
    assert "kept a card in hand" in text and not re.search(r"built the race deck: kept [BGOWY]\+", text)
    for block in text.split("=== ")[1:]:
        viewer = int(block[1])
        other = 1 - viewer
        assert f"P{viewer}'s view" in block and f"P{viewer} (you)" in block
        rows = re.findall(rf"P{other} \(human\)[^\n]*", block)
        assert rows and not any(re.search(r"hand card [BGOWY]\+", row) for row in rows)
    assert game.finished


# ======================================================================
# Advice at the table
# ======================================================================


def test_best_and_odds_at_each_step_of_a_turn(monkeypatch):
    import advisor.cli.table_cards as cards_play

    monkeypatch.setattr(cards_play, "_ADVICE_PRECISION", 0.05)
    seen = []
    real = step_advice

    def spy(state, player, **kw):
        frame = real(state, player, **kw)
        seen.append((state, player, frame))
        return frame

    monkeypatch.setattr(cards_play, "step_advice", spy)
    out = io.StringIO()
    human = auto_human(out)
    script = iter(["odds", "best", "leg:B", "hint", "reveal",  # a bet, then the race action: the turn is over
                   "reveal", "best", "pass", "quit"])

    def read(prompt):
        if "keep in hand" in prompt and "advice come" not in out.getvalue():
            return "best"  # not yet: the deck is being built
        if "keep in hand" in prompt or "show>" in prompt or "face down" in prompt:
            return human(prompt)
        return next(script)

    play_cards(["human", "random", "random"], seed=8, read=read, out=out)
    text = out.getvalue()
    assert "Not possible: the odds and the advice come with the leg's turns" in text
    assert "Leg odds, exact" in text or "Leg odds, sampled" in text
    assert "whole turns: a race action with an optional bet" in text
    assert "your race action, your bet taken" in text and "a bet now, or pass" in text
    assert len(seen) == 3
    (s1, p1, f1), (s2, p2, f2), (s3, p3, f3) = seen
    assert p1 == p2 == p3 == 0
    assert f1.attrs["position"] == str(s1.position(0))  # from the player's own view
    assert set(f2["timing"]) == {""} and all(not b for b in f2["bet"])  # race actions only
    assert "reveal" in set(f2["action"])
    assert set(f3["timing"]) <= {"now", ""} and "pass" in set(f3["action"])
    assert not any("+" in a for a in f3["action"])


# ======================================================================
# Save, load, undo, leaving
# ======================================================================


def test_save_then_load_plays_on_as_the_uninterrupted_game(straight, tmp_path):
    game, _ = straight
    path = tmp_path / "g.jsonl"
    out = io.StringIO()
    human = auto_human(out)
    n = {"k": 0}

    def read(prompt):
        n["k"] += 1
        if n["k"] == 14:
            return f"save {path}"
        if n["k"] == 15:
            return "quit"
        return human(prompt)

    part = play_cards(SEATS, seed=SEED, read=read, out=out)
    assert f"Saved in {path}" in out.getvalue() and "continue with: camelup play --load" in out.getvalue()
    [saved] = read_cards_records(path)
    assert saved == part.record and saved[0]["seats"] == SEATS and "end" not in {e["type"] for e in saved}
    assert not list(tmp_path.glob(".*part*"))
    record = load_cards_game(path)
    out = io.StringIO()
    resumed = play_cards(record=record, read=auto_human(out), out=out, source=path)
    assert "continuing at leg" in out.getvalue()
    assert resumed.record == game.record
    assert read_cards_records(path) == [saved]  # the file loaded is untouched
    out = io.StringIO()
    play_cards(record=record, read=scripted([f"save {path}", "quit"]), out=out, source=path)
    assert "the file this game was loaded from" in out.getvalue()


def test_ctrl_c_with_autosave_then_load_through_the_cli(straight, tmp_path, monkeypatch, capsys):
    game, _ = straight
    path = tmp_path / "auto.jsonl"
    out = io.StringIO()
    human = auto_human(out)
    n = {"k": 0}

    def read(prompt):
        n["k"] += 1
        if n["k"] == 30:
            raise KeyboardInterrupt
        return human(prompt)

    with pytest.raises(Interrupted, match=f"saved in {re.escape(str(path))}"):
        play_cards(SEATS, seed=SEED, read=read, out=out, autosave=path)
    [saved] = read_cards_records(path)
    assert saved == game.record[:len(saved)]
    # the CLI continues it: the human's answers read from stdin
    answers = _human_actions(game.record)[len(_human_actions(saved)):]  # a build as one line: build:H/S/D/X
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(answers) + "\n"))
    assert main(["play", "--load", str(path)]) == 0
    text = capsys.readouterr().out
    assert "continuing at leg" in text and "The race is over" in text
    money = [p.money for p in game.state.players]
    assert all(f"with {money[i]} coins" in text for i in game.state.winners_of_game())


def test_ctrl_c_in_a_bots_turn_keeps_the_game_from_the_turns_start(straight, tmp_path, monkeypatch):
    from advisor.cards.bots import HeuristicCardsBot

    game, _ = straight
    real = HeuristicCardsBot.choose

    def choose(self, state, player, rng):
        if state.phase == "turn" and state.bet and not state.raced:  # between its bet and its race action
            raise KeyboardInterrupt
        return real(self, state, player, rng)

    monkeypatch.setattr(HeuristicCardsBot, "choose", choose)
    path = tmp_path / "mid.jsonl"
    out = io.StringIO()
    with pytest.raises(Interrupted):
        play_cards(SEATS, seed=SEED, read=auto_human(out), out=out, autosave=path)
    [saved] = read_cards_records(path)
    last = saved[-1]
    assert not (last.get("player") == 1 and last.get("action", "").startswith("leg:"))  # not half a turn
    monkeypatch.setattr(HeuristicCardsBot, "choose", real)
    out = io.StringIO()
    resumed = play_cards(record=load_cards_game(path), read=auto_human(out), out=out)
    assert resumed.record == game.record


def test_ctrl_c_and_end_of_input_at_the_prompt_through_the_cli(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("B1\n"))
    assert main(["play", "--edition", "cards", "--seats", "human,random", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().splitlines()[-1].startswith("Game left at leg 1, action 1 (end of input), not saved")

    def interrupt(prompt=""):
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", interrupt)
    assert main(["play", "--edition", "cards", "--seats", "human,random", "--seed", "3"]) == 130
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith("camelup: interrupted: game left at leg 1, action 1")
    path = tmp_path / "a.jsonl"
    assert main(["play", "--edition", "cards", "--seats", "human,random", "--seed", "3", "--autosave",
                 str(path)]) == 130
    err = capsys.readouterr().err
    assert f"saved in {path}: continue with camelup play --load {path}" in err
    [saved] = read_cards_records(path)
    assert saved[0]["seats"] == ["human", "random"] and saved[0]["seed"] == 3


def test_undo_takes_back_choices_and_actions_but_nothing_seen():
    out = io.StringIO()
    human = auto_human(out)
    plan = {"show": ["undo"], "race": ["undo"], "bet": ["undo", "pass"], "action": ["leg:B", "reveal"]}

    def read(prompt):
        kind = ("show" if "show>" in prompt else "race" if "race action>" in prompt else
                "bet" if "bet or pass>" in prompt else "action" if "action>" in prompt else None)
        if kind and plan[kind]:
            return plan[kind].pop(0)
        if kind == "action":
            return "quit"
        return human(prompt)

    game = play_cards(["human", "random", "random"], seed=12, read=read, out=out)
    text = out.getvalue()
    assert re.search(r"Taken back: [BGOWY][12] \(hand\)\. Choose again: P0 keep in hand>", text)  # a build choice
    assert "Taken back: your turn (took the top leg-winner card of B (leg:B))." in text
    assert ("Not possible: undo cannot take back what the table has seen: a card was revealed since your last "
            "action") in text
    assert _human_actions(game.record)[1:] == ["reveal", "pass"]
    assert replay_cards(game.record).state == game.state


def test_load_errors_are_one_line(tmp_path, capsys):
    done = play_cards(["random", "random"], seed=1, read=scripted([]), out=io.StringIO())
    path = tmp_path / "over.jsonl"
    write_cards_records([done.record], path)
    assert main(["play", "--load", str(path)]) == 2
    assert "is over" in capsys.readouterr().err
    bad = [dict(e) for e in done.record[:12]]
    bad[-1] = {**bad[-1], "board": "track:n 1:BGOWY"}
    path2 = tmp_path / "bad.jsonl"
    write_cards_records([bad], path2)
    assert main(["play", "--load", str(path2)]) == 2
    err = capsys.readouterr().err
    assert "is not a valid record" in err and err.count("\n") == 1
    for argv, fragment in ((["--seed", "3"], "--seed does not apply with --load"),
                           (["--game", "4"], "holds 1 game(s)")):
        assert main(["play", "--load", str(path2), *argv]) == 2
        assert fragment in capsys.readouterr().err


@pytest.mark.parametrize("argv, fragment", [
    (["play", "--edition", "cards", "--seats", "human,robot"], "unknown seat 'robot'"),
    (["play", "--edition", "cards", "--seats", "human,advisor"], "unknown seat 'advisor'"),
    (["play", "--edition", "cards", "--seats", "human"], "2-6 players"),
    (["play", "--edition", "cards", "--rules", "x"], "--rules applies to the board games"),
    (["play", "--edition", "cards", "--game", "1"], "--game applies with --load only"),
])
def test_bad_cards_options(argv, fragment, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert fragment in err and err.count("\n") == 1


# ======================================================================
# camelup best on a Cards game record: --player
# ======================================================================


@pytest.fixture(scope="module")
def records(tmp_path_factory, straight):
    path = tmp_path_factory.mktemp("cards") / "games.jsonl"
    write_cards_records([straight[0].record], path)
    return path


def _turn_start(record, player=None, after=0):
    """The first action >= ``after`` that starts a turn (of ``player``)."""
    states = []
    replay_cards(record, visit=lambda g: states.append((g.turns, g.state)))
    for turns, state in states:
        if turns >= after and state.phase == "turn" and not (state.raced or state.bet) and \
                (player is None or state.current == player):
            return turns, state
    raise AssertionError


def test_best_on_a_cards_record_advises_the_given_player_from_their_view(straight, records, capsys):
    record = straight[0].record
    turn, state = _turn_start(record, after=20)
    mover = state.current
    other = (mover + 1) % 3
    outputs = {}
    for player in (None, other):
        argv = ["best", str(records), "--turn", str(turn), "--seed", "1", "--precision", "0.05", "--json"]
        if player is not None:
            argv += ["--player", str(player)]
        assert main(argv) == 0
        outputs[player] = json.loads(capsys.readouterr().out)
    assert outputs[None]["player"] == mover and outputs[other]["player"] == other
    assert outputs[None]["position"] == str(state.position(mover))
    assert outputs[other]["position"] == str(state.position(other))
    assert outputs[None]["position"] != outputs[other]["position"]  # their own hands and holdings
    assert outputs[other]["turn"] == turn and outputs[other]["game"] == 0
    hand = state.players[other].hand
    assert f"hand:{hand[0]}{hand[1]}" in outputs[other]["position"]
    assert main(["best", str(records), "--turn", str(turn), "--player", str(other), "--seed", "1",
                 "--precision", "0.05"]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"Game 0 of {records}, before action {turn} (leg {state.leg}, P{mover} to act): "
                           f"advice for P{other}, from what P{other} sees.")
    assert "Best turns" in text


def test_best_on_a_cards_record_mid_turn_gives_the_rest_of_the_turn(straight, records, capsys):
    record = straight[0].record
    states = []
    replay_cards(record, visit=lambda g: states.append((g.turns, g.state)))
    turn = next(t for t, s in states if s.phase == "turn" and s.raced and not s.bet)
    assert main(["best", str(records), "--turn", str(turn), "--seed", "1", "--precision", "0.05", "--json"]) == 0
    moves = json.loads(capsys.readouterr().out)["moves"]
    assert {m["timing"] for m in moves} <= {"now", ""} and "pass" in {m["action"] for m in moves}


@pytest.mark.parametrize("extra, fragment", [
    (["--turn", "0"], "race deck is being built"),
    (["--turn", "100000"], "actions (0.."),
    (["--game", "3"], "holds 1 game(s)"),
    (["--player", "7", "--turn", "TURN"], "--player 7: the game has 3 players"),
    (["--players", "4"], "--players does not apply"),
])
def test_best_on_a_cards_record_errors(straight, records, capsys, extra, fragment):
    turn, _ = _turn_start(straight[0].record, after=5)
    extra = [str(turn) if x == "TURN" else x for x in extra]
    assert main(["best", str(records), *extra]) == 2
    err = capsys.readouterr().err
    assert fragment in err and err.count("\n") == 1


def test_player_on_a_cards_position_string(capsys):
    assert main(["best", "cards", "players:3", "0:BGOWY", "--player", "2"]) == 2
    err = capsys.readouterr().err
    assert "written from the advised player's view" in err and "--turn T --player P" in err
    assert main(["best", "cards", "players:3", "0:BGOWY", "--turn", "2"]) == 2
    assert "--game and --turn apply to a file of game records" in capsys.readouterr().err


def test_a_setup_without_face_down_cards_and_a_simulated_record_to_continue():
    from advisor.cards.bots import play_cards_game

    out = io.StringIO()
    setup = CardsSetup(players=3, shown=1, down=0, dealt=3)  # keep one, show one, discard one
    game = play_cards(["human", "random", "random"], setup=setup, seed=2, read=auto_human(out), out=out)
    assert game.finished and "P0 face down" not in out.getvalue()
    simulated = play_cards_game(["random", "heuristic"], seed=3)
    cut = [e for e in simulated if e["type"] != "end"][:15]
    resumed = play_cards(record=cut, read=scripted([]), out=io.StringIO())  # the record's bots take the seats
    assert resumed.finished and resumed.record[0]["seats"] == ["random", "heuristic"]
    assert resumed.record[:15] == [{**cut[0], "seats": ["random", "heuristic"]}] + cut[1:]


def test_a_failed_save_leaves_the_old_file_whole_and_the_game_goes_on(tmp_path, monkeypatch):
    import advisor._tools.jsonio
    import advisor.cards.record  # where a Camel Up Cards game is written

    path = tmp_path / "g.jsonl"
    out = io.StringIO()
    human = auto_human(out)
    real = advisor._tools.jsonio.dumps
    steps = iter([f"save {path}", "AUTO", "AUTO", "FAIL", f"save {path}", "quit"])

    def read(prompt):
        step = next(steps)
        if step == "FAIL":
            calls = {"n": 0}

            def dumps(obj, *a, **k):
                calls["n"] += 1
                if calls["n"] > 1:
                    raise OSError(28, "No space left on device")
                return real(obj, *a, **k)

            monkeypatch.setattr(advisor.cards.record, "dumps", dumps)
            step = next(steps)
        return human(prompt) if step == "AUTO" else step

    play_cards(["human", "random", "random"], seed=9, read=read, out=out)
    text = out.getvalue()
    assert "Not possible: cannot write" in text and "No space left on device" in text
    [saved] = read_cards_records(path)
    assert len(saved) == 2 and saved[1]["type"] == "deal"  # the first save, whole
    assert not list(tmp_path.glob(".*"))


def test_a_file_of_deeply_nested_json_is_one_line_for_best_and_play(tmp_path, capsys):
    path = tmp_path / "deep.jsonl"
    path.write_text("[" * 100_000 + "]" * 100_000 + "\n")
    for argv in (["best", str(path)], ["play", "--load", str(path)]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "nested" in err
