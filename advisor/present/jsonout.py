"""The JSON objects of ``--json`` on the command line, also served by the
web API (``camelup serve``): one builder per result, so the two never
differ.

Every object is plain, strict JSON data (:func:`advisor._tools.jsonio.clean`):
numpy numbers become Python numbers and a figure that does not exist (NaN
in a DataFrame) becomes ``null``.
"""

from __future__ import annotations

from advisor._tools.jsonio import SCHEMA, clean

__all__ = ["odds_json", "best_json", "cards_odds_json", "cards_best_json", "board_assumptions"]


def odds_json(position, leg, race=None, seed: int | None = None) -> dict:
    """``camelup odds --json``: ``leg`` a LegOdds, ``race`` a RaceOdds or
    ``None`` (leg only); ``seed`` is reported when any figure was sampled."""
    out = {"schema": SCHEMA, "position": str(position)}
    _add_rules(out, position.rules)
    out["leg"] = leg.to_dict()
    if not leg.exact:
        out["leg_samples"] = leg.samples
    if race is not None:
        out["race"] = race.to_dict()
        out["race_samples"] = race.samples
        out["race_legs"] = [float(x) for x in race.legs]
    if not leg.exact or (race is not None and not race.exact):
        out["seed"] = seed
    return clean(out)


def _add_rules(out: dict, rules) -> None:
    """The ``rules`` key (after ``position``): the rule variant the figures
    are under; none for the edition's own rules."""
    data = rules.rules_json()
    if data is not None:
        out["rules"] = data


def board_assumptions(players: int, player: int | None, rules=None) -> list[str]:
    """What the advice of a bare board string assumes (``assumptions`` of
    ``camelup best --json``); ``rules``: a variant (its start money)."""
    money = 3 if rules is None else rules.start_money
    return [
        f"{players} players; player {player or 0} is advised" + ("" if player else " and to move"),
        f"every player: money {money}, no leg or pyramid tiles, all five overall cards in hand, no partner",
        "overall piles empty; leg tiles as on the board (legtiles:) or full stacks",
    ]


def best_json(state, frame, assumptions=()) -> dict:
    """``camelup best --json``: the advice ``frame`` of
    :func:`advisor.best_moves` for ``state``."""
    moves = clean(frame.to_dict(orient="records"))
    out = {"schema": SCHEMA, "position": str(state.position)}
    _add_rules(out, state.position.rules)
    out.update(player=frame.attrs["player"], moves=moves)
    if assumptions:
        out["assumptions"] = list(assumptions)
    if frame.attrs["race_samples"] is not None:
        out["race_samples"] = frame.attrs["race_samples"]
        out["seed"] = frame.attrs["seed"]
    if "risk_attitude" in frame.attrs:
        out["portfolio"] = {k: frame.attrs[k] for k in ("lead", "risk_attitude", "joint_samples")}
    out["objective"] = frame.attrs.get("objective", "ev")
    if "win_now" in frame.attrs:
        out["win_now"] = frame.attrs["win_now"]
    if "win_now_se" in frame.attrs:
        out["win_now_se"] = frame.attrs["win_now_se"]
    return out


def cards_odds_json(odds) -> dict:
    """``camelup odds --json`` for a Camel Up Cards position."""
    out = {"schema": SCHEMA, **odds.to_dict()}
    out["seed"] = odds.seed
    return clean(out)


def cards_best_json(position, frame) -> dict:
    """``camelup best --json`` for a Camel Up Cards position: the keys of
    the chance of winning named as the board game's (:func:`best_json`):
    ``objective``, ``win_now``, each move's ``win``, ``assumptions``."""
    out = {"schema": SCHEMA, "position": str(position), "moves": clean(frame.to_dict(orient="records")),
           "seed": frame.attrs["seed"], "others": frame.attrs["others"], "race": frame.attrs["race"],
           "race_samples": frame.attrs["race_samples"], "others_model": frame.attrs["others_model"],
           "leg_samples": frame.attrs["leg_samples"], "objective": frame.attrs.get("objective", "ev")}
    if "win_now" in frame.attrs:
        out["win_now"] = clean(frame.attrs["win_now"])
        if frame.attrs.get("assumptions"):
            out["assumptions"] = list(frame.attrs["assumptions"])
    return out
