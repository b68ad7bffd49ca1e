"""camelup play: scripted humans at the table; hidden cards, undo, save/load,
bad input, leaving."""

import io
import json
import re
from dataclasses import replace

import numpy as np
import pytest

from advisor.cli.command import main
from advisor.errors import AdvisorError, Interrupted
from advisor.game import Game, read_records, replay, write_records
from advisor.cli.table import cards_held, load_game, play, render, render_view, save_game
from advisor.simulate.games import play_game
from typed import scripted  # noqa: E402  (tests/typed.py)


def rolls_forever(n=400):
    return ["pyramid"] * n


def test_a_human_types_commands_and_actions():
    out = io.StringIO()
    game = play(["human", "heuristic", "random"], seed=3,
                read=scripted(["HELP", "actions", "leg:Z", "Pyramid", " leg: b ", "quit"]), out=out)
    text = out.getvalue()
    assert "Type an action or a command" in text          # help
    assert "Not possible:" in text and "leg:Z" in text     # an illegal action is refused
    assert "P0 (you): pyramid: die" in text                # the human's roll is described
    assert "Game left at turn" in text and "not saved" in text
    humans = [e for e in game.record[1:] if e["player"] == 0]
    assert [e["action"] for e in humans] == ["pyramid", "leg:B"]
    assert game.record[0]["seats"] == ["human", "heuristic", "random"]


def test_odds_and_best_on_request():
    out = io.StringIO()
    play(["human", "random", "random"], seed=5, read=scripted(["odds", "best"]), out=out)
    text = out.getvalue()
    assert "Leg odds, exact" in text and "Race odds" in text
    assert "The advisor's ranking" in text


def test_bots_alone_finish_the_game():
    out = io.StringIO()
    game = play(["heuristic", "random", "random"], seed=9, read=scripted([]), out=out)
    assert game.finished and "The race is over" in out.getvalue() and "Winner(s)" in out.getvalue()


def test_render_shows_the_table_as_the_viewer_sees_it():
    game = Game("first", 2, seed=1)
    text = render(game, 0)
    assert text.startswith("P0's view")
    assert "Pyramid: B G O Y W" in text and "Leg tiles left: B:532" in text
    assert "P0 (you)" in text and "overall cards in hand BGOYW" in text and "overall cards in hand: 5" in text


@pytest.mark.parametrize("argv, fragment", [
    (["play", "--seats", "human,robot,random"], "unknown seat 'robot'"),
    (["play", "--seats", "human,random"], "3-8 players"),
    (["play", "--game", "1"], "--game applies with --load only"),
])
def test_bad_seats_and_options(argv, fragment, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert fragment in err and err.count("\n") == 1


# ======================================================================
# Hidden information
# ======================================================================


def _before_the_end(text):
    return text.split("The race is over")[0]


def test_a_human_never_sees_the_bots_overall_cards():
    out = io.StringIO()
    game = play(["human", "random", "random", "random"], seed=4, read=scripted(rolls_forever()), out=out)
    assert game.finished
    text = out.getvalue()
    shown = _before_the_end(text)
    placed = [e for e in game.record if e.get("action", "").startswith(("winner:", "loser:")) and e["player"] != 0]
    assert placed  # the bots placed cards ...
    assert shown.count("placed a card on the") == len(placed)  # ... announced face down
    assert not re.search(r"P[123] \(random\): (winner|loser):", shown)
    assert not re.search(r"P[123]:[BGPRY]", shown)  # the piles show the others' cards as '?'
    for e in placed:  # each card is revealed at the end, with its owner and colour
        pile, colour = e["action"].split(":")
        assert re.search(rf"P{e['player']} \(random\)\s+{colour}  turn\s+{e['turn'] + 1} ", text)
    # the others' hands are counts, the human's own hand is its colours
    assert re.search(r"P1 \(random\) .*overall cards in hand: [0-5]", shown)
    assert "P0 (you)" in shown and "overall cards in hand BGPRY" in shown


def test_render_reads_only_the_view():
    # a view whose other players' hands hold made-up colours: the table
    # never prints those colours
    game = Game("second", 4, seed=2, start=0)
    for action in ("winner:B", "loser:G", "winner:R", "pyramid"):
        game.apply(action)
    view = game.view(3)
    planted = replace(view, players=tuple(replace(p, overall_cards="PY" if i != 3 else p.overall_cards)
                                          for i, p in enumerate(view.players)))
    text = render_view(planted, 3, legs=game.legs, turn=game.turns, seats=["a", "b", "c", "human"])
    assert "PY" not in text  # another player's hand is shown as a count, never as colours
    text = render_view(view, 3, legs=game.legs, turn=game.turns, seats=["a", "b", "c", "human"])
    assert text.count("overall cards in hand: 4") == 3  # P0, P1, P2 placed one card each
    assert "Winner pile (placement order): P0:? P2:?" in text and "Loser pile (placement order): P1:?" in text
    assert [cards_held(view, p) for p in range(4)] == [4, 4, 4, 5]


def test_own_cards_are_shown_to_their_owner_only():
    game = Game("second", 3, seed=2, start=0)
    game.apply("winner:B")
    assert "Winner pile (placement order): P0:B" in render(game, 0)
    assert "Winner pile (placement order): P0:?" in render(game, 1)
    assert "overall cards in hand GPRY" in render(game, 0)


def test_several_humans_each_see_their_own_view():
    out = io.StringIO()
    game = play(["human", "human", "random"], seed=6,
                read=scripted(["winner:B", "loser:Y", "pyramid", "pyramid", "quit"]), out=out)
    text = out.getvalue()
    views = re.findall(r"=== P(\d)'s turn: P\d's view \(the other players look away\) ===\n(P\d)'s view", text)
    assert views and all(f"P{a}" == b for a, b in views) and {a for a, _ in views} == {"0", "1"}
    # nobody's card colour is announced; each sees their own card face up
    assert "the B card" not in text and "the Y card" not in text
    blocks = text.split("=== ")
    p1 = [b for b in blocks if b.startswith("P1's turn")]
    p0_later = [b for b in blocks if b.startswith("P0's turn")][1:]
    assert "P0:?" in p1[0] and "P0:B" not in p1[0]
    assert "P0:B" in p0_later[0] and "P1:?" in p0_later[0]
    assert [e["action"] for e in game.record[1:] if e["player"] in (0, 1)][:2] == ["winner:B", "loser:Y"]


def test_best_and_odds_advise_from_the_players_view(monkeypatch):
    import advisor.valuation.engine as ev
    import advisor.odds.exact as exact

    seen = {}

    def fake_best(state, player, **kw):
        seen["best"] = (state, player)
        raise AdvisorError("stop here")

    def fake_leg_odds(pos):
        seen["odds"] = pos
        raise AdvisorError("stop here")

    monkeypatch.setattr(ev, "best_moves", fake_best)
    monkeypatch.setattr(exact, "leg_odds", fake_leg_odds)
    holder = {}

    def read(prompt):
        holder.setdefault("n", 0)
        holder["n"] += 1
        return {1: "best", 2: "odds"}.get(holder["n"]) or (_ for _ in ()).throw(EOFError)

    out = io.StringIO()
    # the bots of seed 8 place overall cards before the human's first turn
    game = play(["random", "random", "random", "human"], seed=8, read=read, out=out)
    state, player = seen["best"]
    assert player == 3 and state == game.view(3) and state != game.state
    others = [c for c in state.winner_pile + state.loser_pile if c.player != 3]
    assert others and all(c.colour is None for c in others)
    assert seen["odds"] == game.view(3).position
    assert "Not possible: stop here" in out.getvalue()  # an advisor error is one line, not a traceback


# ======================================================================
# Undo
# ======================================================================


def test_undo_takes_back_the_human_action_and_the_bot_turns_after_it():
    out = io.StringIO()
    game = play(["human", "random", "heuristic", "advisor"], seed=11,
                read=scripted(["leg:B", "pyramid", "undo"]), out=out)
    before = play(["human", "random", "heuristic", "advisor"], seed=11, read=scripted(["leg:B"]), out=io.StringIO())
    assert game.record == before.record  # back to the human's second turn, exactly
    assert game.to_move == 0
    text = out.getvalue()
    assert "Taken back: your turn (pyramid: die" in text and "and the 3 bot turn(s) after it" in text


def test_undo_keeps_the_dice_and_a_redone_game_plays_on_identically():
    straight = play(["human", "random", "heuristic", "random"], seed=12, read=scripted(rolls_forever()),
                    out=io.StringIO())
    out = io.StringIO()
    redone = play(["human", "random", "heuristic", "random"], seed=12,
                  read=scripted(["pyramid", "pyramid", "undo", "undo", "pyramid", "pyramid", "undo"]
                                + rolls_forever()), out=out)
    assert redone.record == straight.record
    rolls = re.findall(r"P0 \(you\): pyramid: die (.*)", out.getvalue())
    assert rolls[0] == rolls[2] and rolls[1] == rolls[3] == rolls[4]  # the same die, the same face


def test_undo_then_another_action_draws_fresh_dice_and_the_record_replays():
    out = io.StringIO()
    game = play(["human", "random", "random"], seed=13, read=scripted(["pyramid", "undo", "leg:B", "pyramid"]),
                out=out)
    assert [e["action"] for e in game.record[1:] if e["player"] == 0][:2] == ["leg:B", "pyramid"]
    assert replay(game.record).record == game.record


def test_undo_with_nothing_to_undo_and_after_another_human():
    out = io.StringIO()
    play(["human", "random", "random"], seed=14, read=scripted(["undo"]), out=out)
    assert "Not possible: nothing to undo" in out.getvalue()
    out = io.StringIO()
    game = play(["human", "human", "random"], seed=14, read=scripted(["pyramid", "pyramid", "undo"]), out=out)
    assert "Not possible: P1 has played since your last action" in out.getvalue()
    assert [e["player"] for e in game.record[1:] if e["action"] == "pyramid"][:2] == [0, 1]


# ======================================================================
# Save and load
# ======================================================================

SEATS = ["human", "random", "heuristic", "advisor"]


@pytest.fixture(scope="module")
def straight_game():
    return play(SEATS, seed=21, read=scripted(rolls_forever()), out=io.StringIO())


def test_save_at_the_prompt_and_continue_as_if_uninterrupted(straight_game, tmp_path):
    path = tmp_path / "g.jsonl"
    out = io.StringIO()
    part = play(SEATS, seed=21, read=scripted(["pyramid"] * 5 + [f"save {path}", "quit"]), out=out)
    assert f"Saved in {path}" in out.getvalue() and f"saved in {path}" in out.getvalue()
    [saved] = read_records(path)
    assert saved == part.record and "end" not in {e["type"] for e in saved}
    assert saved[0]["seats"] == SEATS
    assert not list(tmp_path.glob(".*part"))  # nothing left beside it
    record = load_game(path)
    out = io.StringIO()
    resumed = play(record=record, read=scripted(rolls_forever()), out=out, source=path)
    assert "continuing at leg" in out.getvalue()
    assert resumed.record == straight_game.record
    assert read_records(path) == [saved]  # the file loaded is untouched


def test_autosave_and_ctrl_c_then_load_through_the_cli(straight_game, tmp_path, monkeypatch, capsys):
    path = tmp_path / "auto.jsonl"
    with pytest.raises(Interrupted, match=f"saved in {re.escape(str(path))}"):
        play(SEATS, seed=21, read=scripted(["pyramid"] * 7, then=KeyboardInterrupt), out=io.StringIO(),
             autosave=path)
    [saved] = read_records(path)
    assert sum(1 for e in saved if e.get("player") == 0) == 7
    monkeypatch.setattr("sys.stdin", io.StringIO("pyramid\n" * 400))
    assert main(["play", "--load", str(path)]) == 0
    out = capsys.readouterr().out
    assert "continuing at leg" in out and "The race is over" in out
    final = straight_game.summary()
    assert f"Winner(s): " in out and all(f"with {final['money'][i]} coins" in out for i in final["winners"])


def test_load_with_other_seats_and_from_a_simulated_record(tmp_path):
    record = play_game(["random", "heuristic", "random"], "second", 31)
    cut = [e for e in record if e["type"] != "end"][:20]
    path = tmp_path / "sim.jsonl"
    write_records([record, cut], path)
    with pytest.raises(AdvisorError, match="is over"):
        load_game(path, 0)
    loaded = load_game(path, 1)
    out = io.StringIO()
    game = play(["human", "heuristic", "random"], record=loaded, read=scripted(["quit"] * 5), out=out)
    assert game.record[1:20] == cut[1:20] and game.record[0] == {**cut[0], "seats": ["human", "heuristic", "random"]}
    assert game.record[0]["bots"] == ["random", "heuristic", "random"]  # the record is extended, never changed
    # the seats the record names (bots) are used when none are given
    auto = play(record=loaded, read=scripted([]), out=io.StringIO())
    assert auto.finished and auto.record[0]["seats"] == ["random", "heuristic", "random"]


def test_save_never_overwrites_an_input_or_another_file(tmp_path):
    src = tmp_path / "in.jsonl"
    play(SEATS, seed=22, read=scripted(["pyramid", f"save {src}", "quit"]), out=io.StringIO())
    original = src.read_text()
    other = tmp_path / "other.txt"
    other.write_text("keep me")
    out = io.StringIO()
    play(record=load_game(src), source=src, out=out,
         read=scripted([f"save {src}", f"save {other}", f"save {tmp_path}", f"save {tmp_path}/no/such/g.jsonl",
                        "save", "pyramid", f"save {tmp_path / 'new.jsonl'}", "pyramid",
                        f"save {tmp_path / 'new.jsonl'}", "quit"]))
    text = out.getvalue()
    assert "is the file this game was loaded from" in text
    assert "other.txt exists: save to another file" in text
    assert "is a folder" in text and "does not exist" in text and "save needs a file name" in text
    assert src.read_text() == original and other.read_text() == "keep me"
    [new] = read_records(tmp_path / "new.jsonl")  # saved twice this session: the later save
    assert len([e for e in new if e["type"] == "action"]) > len([e for e in read_records(src)[0] if e["type"] == "action"]) + 1
    with pytest.raises(AdvisorError, match="loaded from"):
        play(record=load_game(src), source=src, autosave=src, read=scripted([]), out=io.StringIO())
    with pytest.raises(AdvisorError, match="exists"):
        play(SEATS, seed=1, autosave=other, read=scripted([]), out=io.StringIO())


def test_a_failed_save_leaves_the_old_file_whole(tmp_path, monkeypatch):
    import advisor.game as game_module

    path = tmp_path / "g.jsonl"
    game = Game("second", 3, seed=3)
    save_game(game.record, path)
    before = path.read_text()

    def broken(games, where):
        with open(where, "w") as fh:
            fh.write('{"type": "setup"')
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(game_module, "write_records", broken)
    game.apply("pyramid")
    with pytest.raises(AdvisorError, match="cannot write .*No space left"):
        save_game(game.record, path)
    assert path.read_text() == before and sorted(p.name for p in tmp_path.iterdir()) == ["g.jsonl"]


def test_an_unfinished_record_replays_and_its_breakdown_is_the_money_so_far():
    from advisor.reviews.scoresheet import score_breakdown

    record = play_game(["random", "random", "heuristic"], "first", 41)
    for k in (1, 2, 17, len(record) - 2):
        cut = record[:k]
        game = replay(cut)
        assert game.turns == k - 1 and not game.finished
        frame = score_breakdown(cut)
        assert list(frame["final"]) == game.money()


@pytest.mark.parametrize("content, fragment", [
    (None, "no such file"),
    ("", "empty (no game in it)"),
    ("not json\n", "not valid JSON"),
    ('{"type": "action"}\n', "starts with its setup line"),
    ('{"type": "setup", "edition": "third", "players": 3, "seed": 1, "board": "1:B", "start": 0}\n',
     "'edition' must be one of"),
    (b"\xff\xfe\x00binary", "not UTF-8 text"),
])
def test_load_errors_are_one_line(tmp_path, capsys, content, fragment):
    path = tmp_path / "bad.jsonl"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    assert main(["play", "--load", str(path)]) == 2
    err = capsys.readouterr().err
    assert fragment in err and err.count("\n") == 1


def test_load_option_errors(tmp_path, capsys):
    path = tmp_path / "g.jsonl"
    save_game(Game("second", 3, seed=3).record, path)
    for argv, fragment in [
        (["--seed", "3"], "--seed does not apply with --load"),
        (["--edition", "first"], "--edition does not apply with --load"),
        (["--game", "2"], "--game 2: "),
        ([], "does not name its seats"),
        (["--seats", "human,random"], "2 seats for a game of 3 players"),
    ]:
        assert main(["play", "--load", str(path), *argv]) == 2
        err = capsys.readouterr().err
        assert fragment in err and err.count("\n") == 1, (argv, err)


# ======================================================================
# Bad input, end of input, Ctrl-C
# ======================================================================


def test_garbage_at_the_prompt_gets_one_line_each(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a line that happens to save writes here
    rng = np.random.default_rng(5)
    alphabet = list("leg:pyramidtilewinnerloserpartnerundosaveoddsbest +-0123456789BGPRYxk!?\\/\t\x00é²١💥")
    lines = ["", "   ", "leg:", "tile:+", "tile:+99", "tile:+-3", "winner:", "loser:BB", "partner:9",
             "partner:-1", "undo now", "odds please", "save", "quit now", "x" * 10_000, "\x00", "١:B", "leg:B leg:G",
             "save a\x00b", "save " + "n" * 5000, "save /proc/version", "save ~nosuchuser/x", "save " + str(tmp_path)]
    lines += ["".join(rng.choice(alphabet, size=int(rng.integers(1, 30)))) for _ in range(300)]
    lines += ["save " + "".join(rng.choice(alphabet, size=int(rng.integers(1, 12)))) for _ in range(30)]
    out = io.StringIO()
    play(["human", "random", "random"], seed=51, read=scripted(lines + ["quit"]), out=out)
    text = out.getvalue()
    assert "Traceback" not in text
    assert "Not possible: 'leg:' is not one of your legal actions now" in text
    assert "Not possible: undo takes no argument" in text
    assert "xxxxxxxx...'" in text and "x" * 100 not in text  # long input is echoed shortened
    assert "Not possible: cannot save to 'a\\x00b'" in text and "File name too long" in text


def test_end_of_input_and_ctrl_c_at_the_prompt(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("pyramid\n"))
    assert main(["play", "--seats", "human,random,random", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().splitlines()[-1].startswith("Game left at turn") and "end of input" in out

    def interrupt(prompt=""):
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", interrupt)
    assert main(["play", "--seats", "human,random,random", "--seed", "3"]) == 130
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith("camelup: interrupted: game left at turn")
    assert "not saved: type 'save FILE' before leaving, or start with --autosave FILE" in err
    path = tmp_path / "a.jsonl"
    assert main(["play", "--seats", "human,random,random", "--seed", "3", "--autosave", str(path)]) == 130
    err = capsys.readouterr().err
    assert f"saved in {path}: continue with camelup play --load {path}" in err
    assert replay(read_records(path)[0]).turns >= 0


def test_rolls_come_from_the_history_not_from_the_games_own_dice():
    from advisor.cli.table import history_rng

    game = Game("second", 3, seed=5)
    state = game.rng.bit_generator.state
    a = game.draw_roll(history_rng(game.record, 0))
    assert game.rng.bit_generator.state == state  # the game's own dice are not touched
    assert a == game.draw_roll(history_rng(game.record, 0))  # same game so far, same roll
    game.apply("leg:B")
    assert history_rng(game.record, 0).integers(2**62) != history_rng(game.record[:1], 0).integers(2**62)
    assert history_rng(game.record, 0).integers(2**62) != history_rng(game.record, 1).integers(2**62)


def test_a_failed_autosave_is_reported_and_the_game_goes_on(tmp_path, monkeypatch):
    import advisor.cli.table as play_module

    def full(record, path):
        raise AdvisorError(f"cannot write {path}: No space left on device")

    monkeypatch.setattr(play_module, "save_game", full)
    out = io.StringIO()
    game = play(["human", "random", "random"], seed=3, autosave=tmp_path / "a.jsonl",
                read=scripted(["pyramid", "pyramid", "quit"]), out=out)
    text = out.getvalue()
    assert [e["action"] for e in game.record[1:] if e["player"] == 0] == ["pyramid", "pyramid"]
    assert "Autosave failed (cannot write" in text and "the game goes on" in text
    assert "autosave failed: cannot write" in text.splitlines()[-1]


def test_a_loaded_game_with_per_leg_dice_keeps_its_dice(tmp_path):
    # A record played with per-leg dice ("dice": "leg") continues with the same dice, roll
    # for roll, whatever the seats do: a fresh game of the same seed playing the same
    # actions draws the very same rolls from its own dice source.
    record = play_game(["heuristic", "random", "heuristic"], "second", 41, dice="leg")
    cut = [e for e in record if e["type"] != "end"][:12]
    path = tmp_path / "legdice.jsonl"
    write_records([cut], path)
    game = play(["heuristic", "heuristic", "heuristic"], record=load_game(path), read=scripted([]),
                out=io.StringIO())
    assert game.record[0]["dice"] == "leg" and game.finished
    fresh = Game("second", 3, 41, dice="leg")
    for e in game.record[1:]:
        if e["type"] != "action":  # heuristic bots place no overall cards: no reveal to make
            break
        entry = fresh.apply(e["action"])  # rolls drawn from the game's own dice
        assert entry.get("roll") == e.get("roll")
    assert fresh.turns > len([e for e in cut if e["type"] == "action"])  # checked beyond the cut
    assert replay(game.record).record == game.record
