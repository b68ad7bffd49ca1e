"""The API's OpenAPI 3.1 document (``GET /api/openapi.json``), built from the
routes and the fields each endpoint accepts (:data:`advisor.web.inputs.FIELDS`),
so it cannot drift from what the server does."""

from __future__ import annotations

from advisor._version import __version__
from advisor.web.inputs import FIELDS

__all__ = ["document", "DESCRIPTIONS"]

DESCRIPTIONS = {
    "/": "The page (HTML).",
    "/api/health": "Server status, version and the worker lanes' counters.",
    "/api/status": "What is ready: on a first start the kernels compile in the background while the page "
                   "works; `preparing` names each part of the page still being prepared (leg, advice, race, "
                   "curve, cards, game: the board game's game mode, cards_game: Camel Up Cards' game mode) with the seconds it still needs (from measured compile times); "
                   "`groups`: each kernel group's state. A request whose kernels are not ready waits for them.",
    "/api/games": "The three games as data for the editor: camels, dice, leg tile stacks, player counts, colours.",
    "/api/rules": "The same document as `/api/games`: each game's rules as the page reads them (camel and tile "
                  "names, player counts, start money, money floor, leg tile stacks), taken from the rules modules.",
    "/api/openapi.json": "This document.",
    "/api/position": "Read a board string (`board`) or write the editor's position object (`position`): answers "
                     "the canonical board string and the object; 400 names the token at fault.",
    "/api/state": "Validate a game state: answers its canonical JSON, the board and the legal actions of the "
                  "player to move.",
    "/api/odds": "Leg and race odds: the JSON of `camelup odds --json`.",
    "/api/best": "Every legal action ranked by EV: the JSON of `camelup best --json`.",
    "/api/analyse": "Progressive analysis, NDJSON: one object per line as each stage is ready: `start`, `leg` "
                    "(`odds`, `race_ends`, `landings`), `advice_leg` (`best` valued without race odds), `race` "
                    "(`odds`), `advice` (`best`), then `done`; `error` ends the stream on failure. A client that "
                    "disconnects cancels the stages not yet started.",
    "/api/curve": "Per board: P(1st this leg), P(wins the race), P(finishes last) of every camel (the curves of "
                  "`camelup chart`).",
    "/api/game/new": "Start a game (set-up by the rules, or a given start board): answers the game view with its "
                     "record. With `edition: cards` a Camel Up Cards game: the seats (humans and bots), the set-up "
                     "and first deal drawn from `seed`, the bots' moves until a human is to move; the view is the "
                     "human to move's (no other player's hidden card outside `record`).",
    "/api/game/replay": "Replay a game record (the browser holds it; undo is the record less its last action). "
                        "A Camel Up Cards record cut at a bot's move gets the bots' moves; a finished one answers "
                        "every step (`steps`: the table as the player to move saw it).",
    "/api/game/act": "Replay a record and play the action of the player to move; for `pyramid` the die that "
                     "came out and its face, or `random`. Camel Up Cards: the action of the human to move "
                     "(build:H/S/D/X in the deck building, then reveal, hand, palm:N, fennec:N, a bet or pass), "
                     "then the bots' moves until a human is to move.",
    "/api/game/load": "Read the text of a JSON-lines file of game records (as `camelup simulate` writes, board "
                      "games or Camel Up Cards): a summary of each game and the view of one. Board games (replay, "
                      "act, load): `advised`, the state the player to move sees, carries each other player's "
                      "face-down card's colours inferred from the game's history (`inferred`); `infer: false` "
                      "leaves them to the race odds.",
}

_ERROR = {"description": "one-line error", "content": {"application/json": {"schema": {
    "type": "object", "required": ["error"],
    "properties": {"error": {"type": "string"}, "token": {"type": "string"}}}}}}


def document(routes) -> dict:
    """The OpenAPI document of ``routes`` (the app's ``(path, methods,
    handler)`` triples)."""
    paths: dict = {}
    for path, methods, _ in routes:
        for method in methods:
            op: dict = {"summary": DESCRIPTIONS[path].split(":")[0].split(". ")[0],
                        "description": DESCRIPTIONS[path], "responses": {
                            "200": {"description": "the result (JSON; NDJSON for /api/analyse; HTML for /)"}}}
            if method == "POST":
                op["requestBody"] = {"required": True, "content": {"application/json": {"schema": {
                    "type": "object", "additionalProperties": False,
                    "properties": {name: {"description": text} for name, text in FIELDS[path].items()}}}}}
                op["responses"].update({"400": _ERROR, "413": _ERROR, "500": _ERROR, "503": _ERROR})
            paths.setdefault(path, {})[method.lower()] = op
    return {"openapi": "3.1.0",
            "info": {"title": "camelup-advisor", "version": __version__,
                     "description": "The JSON API behind `camelup serve`."},
            "paths": paths}
