"""The web application (Starlette): the page, its static files and the JSON
API behind it.

Every endpoint takes a JSON object (``POST``) and answers JSON; bad input
gets HTTP 400 ``{"error": "one line"}`` (and ``"token"`` for a board
string), the same message as the command line's.  An unexpected error is
logged with its traceback on the server and answered with HTTP 500 and a
one-line ``{"error": ...}``: never a traceback to the client.  Request
bodies are limited in size (413).  Static files come only from the
package's ``static`` folder.

The server holds no game: the browser keeps the game record and sends it
with each request; load and save go through the browser.
"""

from __future__ import annotations

import asyncio
import json
import logging
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any, Callable

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from advisor import EXAMPLE_FIRST, EXAMPLE_POSITION
from advisor import inputs as reader
from advisor._tools.jsonio import dumps
from advisor._version import __version__
from advisor.cards.position import (CAMELS as CARD_CAMELS, DECK_SIZES, DEFAULT_TRACK, EXAMPLE_CARDS, FULL_DECK,
                                    LEG_STACK, MONEY_FLOOR, PLAYERS, START_MONEY, default_deck)
from advisor.errors import AdvisorError
from advisor.plotting import CAMEL_COLOURS, CAMEL_INK
from advisor.rules.editions import CAMEL_NAMES, EDITIONS, TRACK_LENGTH
from advisor.valuation.engine import legal_actions
from advisor.web import inputs
from advisor.web.cardsgame import SEATS_TEXT, check_seats
from advisor.web.inputs import InputError, get_bool, get_int, get_str, parse_body
from advisor.web.openapi import document
from advisor.web.pool import Busy, Lanes
from advisor.web.ready import Readiness
from advisor.web.work import MAX_CURVE_BOARDS, MAX_RECORD_ENTRIES, cards_json, position_json


__all__ = ["create_app", "static_dir", "BODY_LIMIT", "LOAD_LIMIT", "ROUTES"]

log = logging.getLogger("advisor.web")

#: Largest request body (bytes) of every endpoint but /api/game/load.
BODY_LIMIT = 256 * 1024
#: Largest body of /api/game/load (a file of game records).
LOAD_LIMIT = 16 * 1024 * 1024
#: Seconds a request body may take to arrive (a client that stalls mid-upload gets 408).
BODY_SECONDS = 30.0


def seeds_as_numbers(record: list) -> list:
    """A game record from the page with its setup line's seed back as a
    whole number.  Seeds reach 2**63-1, beyond the integers a browser's
    JSON numbers hold exactly (2**53): the page reads every ``"seed"`` of an
    answer as a string of digits and sends it back so; the API takes a seed
    in either form and answers it as a JSON number (the command line's
    JSON)."""
    head = record[0]
    seed = head.get("seed")
    if isinstance(seed, str) and seed.isdigit() and len(seed) < 40:
        return [{**head, "seed": int(seed)}, *record[1:]]
    return record


class ClientGone(Exception):
    """The client closed the connection before the answer was ready."""


def static_dir() -> str:
    """The package's folder of static files (page, scripts, styles)."""
    return str(resources.files("advisor.web") / "static")


class BodyTooLarge(Exception):
    pass


async def _read(request: Request, limit: int) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise BodyTooLarge(limit)
    size = 0
    chunks = []
    with anyio.fail_after(BODY_SECONDS):
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise BodyTooLarge(limit)
            chunks.append(chunk)
    return b"".join(chunks)


async def _unless_gone(request: Request, awaitable) -> Any:
    """Await ``awaitable`` (a computation in the lanes) unless the client
    leaves first: then it is cancelled (a task no worker has taken is never
    run) and :class:`ClientGone` is raised.  The body is read by then, so the
    next message from the client is its disconnect."""
    work = asyncio.ensure_future(awaitable)

    async def gone() -> None:
        while (await request.receive())["type"] != "http.disconnect":
            pass

    watch = asyncio.ensure_future(gone())
    try:
        await asyncio.wait({work, watch}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        watch.cancel()
        if not work.done():
            work.cancel()  # the client left first (or this request was cancelled)
    if not work.done() or work.cancelled():
        raise ClientGone()
    return work.result()


async def _body(request: Request) -> dict:
    limit = LOAD_LIMIT if request.url.path == "/api/game/load" else BODY_LIMIT
    return parse_body(await _read(request, limit), request.url.path)


def _lanes(request: Request) -> Lanes:
    return request.app.state.lanes


# --------------------------------------------------------------------------
# Streaming with cancellation
# --------------------------------------------------------------------------


class CancellableStream(StreamingResponse):
    """A streaming response that stops its generator as soon as the client
    disconnects (whatever the ASGI server's spec version), so work not yet
    started is never started."""

    async def __call__(self, scope, receive, send) -> None:
        async with anyio.create_task_group() as group:
            async def stream() -> None:
                try:
                    await self.stream_response(send)
                except OSError:
                    pass
                group.cancel_scope.cancel()

            group.start_soon(stream)
            await self.listen_for_disconnect(receive)
            group.cancel_scope.cancel()


# --------------------------------------------------------------------------
# Endpoints
# --------------------------------------------------------------------------


async def index(request: Request) -> Response:
    return FileResponse(f"{static_dir()}/index.html", media_type="text/html")


async def health(request: Request) -> Response:
    lanes = _lanes(request)
    return JSONResponse({"status": "ok", "version": __version__, "workers": lanes.workers,
                         "lanes": {name: vars(stats) for name, stats in lanes.stats.items()}})


async def status(request: Request) -> Response:
    """What is ready and what is still being prepared (compiled), with the
    seconds each part of the page still needs."""
    readiness = getattr(request.app.state, "readiness", None)
    if readiness is None:
        return JSONResponse({"ready": True, "groups": [], "preparing": {}})
    return JSONResponse(readiness.status())


async def games_info(request: Request) -> Response:
    """The games as data for the page (``/api/games``, ``/api/rules``):
    camels and their names, dice, tile stacks and tile names, player counts,
    start money and the money floor, each read from the rules that play the
    game, so the page holds no copy of a rule."""
    out: dict[str, Any] = {}
    for ed in EDITIONS.values():
        out[ed.name] = {
            "title": ed.title, "racing": ed.racing, "crazy": ed.crazy, "dice": ed.dice,
            "leg_stack": list(ed.leg_stack), "min_players": ed.min_players, "max_players": ed.max_players,
            "partnership_players": ed.partnership_players, "track": TRACK_LENGTH, "dice_left": ed.dice_left,
            "rolls_per_leg": ed.rolls_per_leg, "tile_names": list(ed.tile_names), "start_money": ed.start_money,
            "money_floor": ed.money_floor,
        }
    out["cards"] = {
        "title": "Camel Up Cards", "racing": CARD_CAMELS, "crazy": "", "leg_stack": list(LEG_STACK),
        "min_players": PLAYERS[0], "max_players": PLAYERS[-1], "start_money": START_MONEY, "money_floor": MONEY_FLOOR,
        "card_values": sorted({value for _, value in FULL_DECK}),
        "default_track": {n: DEFAULT_TRACK(n) for n in PLAYERS},
        "default_deck": {n: default_deck(n) for n in PLAYERS},
        "deck_sizes": [DECK_SIZES[0], DECK_SIZES[-1]],
    }
    out["colours"] = CAMEL_COLOURS
    out["ink"] = CAMEL_INK
    out["names"] = CAMEL_NAMES
    out["examples"] = {"second": EXAMPLE_POSITION, "first": EXAMPLE_FIRST, "cards": EXAMPLE_CARDS}
    return JSONResponse(out)


async def position(request: Request) -> Response:
    """Read a board string, or write the editor's position object; either
    way the canonical string and the object come back."""
    body = await _body(request)
    text = get_str(body, "board")
    obj = body.get("position")
    if (text is None) == (obj is None):
        raise InputError("give either board (a board string) or position (a position object)")
    if text is not None:
        read = reader.read_input(text)
        return JSONResponse(cards_json(read.value) if read.kind == "cards" else position_json(read.value))
    if isinstance(obj, dict) and obj.get("game") == "cards":
        return JSONResponse(cards_json(inputs.cards_from_json(obj)))
    return JSONResponse(position_json(inputs.position_from_json(obj)))


async def state(request: Request) -> Response:
    """Validate a game state; answers its canonical form and the legal
    actions of the player to move."""
    body = await _body(request)
    if "state" not in body:
        raise InputError("give state (a game state object)")
    st = reader.state_from_json(body["state"])
    try:
        legal = legal_actions(st)
    except AdvisorError as exc:  # e.g. the hand of the player to move is unknown
        legal, note = [], str(exc)
    else:
        note = None
    ed = st.position.rules
    free = []  # leg tiles taken from the board that nobody is said to hold
    held = [f"{c}{v}" for p in st.players for c, v in p.leg_tiles]
    for colour, left in zip(ed.racing, st.position.legtiles):
        for value in ed.leg_stack[: len(ed.leg_stack) - len(left)]:
            tile = f"{colour}{value}"
            if tile in held:
                held.remove(tile)
            else:
                free.append(tile)
    return JSONResponse({"state": st.to_json(), "board": str(st.position), "legal": legal, "note": note,
                         "hands": [st.hand(i) for i in range(st.n_players)], "free_leg_tiles": free})


async def odds(request: Request) -> Response:
    """The JSON of ``camelup odds --json``."""
    body = await _body(request)
    sub = inputs.subject(body)
    opts = inputs.options(body, sub)
    leg_only = get_bool(body, "leg_only", False)
    lanes = _lanes(request)
    if sub.game == "cards":
        task = "cards_leg" if leg_only else "cards_race"
        lane = "fast" if leg_only else "slow"
        result = await _unless_gone(request, lanes.run(lane, task, board=sub.board, seed=opts["seed"],
                                                       others=opts["others"]))
    elif leg_only:
        result = await _unless_gone(request, lanes.run("fast", "leg", board=sub.board))
    else:
        result = await _unless_gone(request, lanes.run("slow", "race", board=sub.board, precision=opts["precision"],
                                                       seed=opts["seed"]))
    return JSONResponse(result["odds"])


def _objective(body: dict) -> str:
    """``objective``: what the advice ranks by (``camelup best --objective``)."""
    return get_str(body, "objective", "win", choices=("win", "ev"))


async def best(request: Request) -> Response:
    """The JSON of ``camelup best --json``."""
    body = await _body(request)
    sub = inputs.subject(body)
    opts = inputs.options(body, sub)
    lanes = _lanes(request)
    if sub.game == "cards":
        result = await _unless_gone(request, lanes.run("slow", "cards_advice", board=sub.board, seed=opts["seed"],
                                                       others=opts["others"], step=opts["step"],
                                                       objective=_objective(body), rivals=opts["rivals"],
                                                       leg=opts["leg"]))
    else:
        result = await _unless_gone(request, lanes.run(
            "slow", "advice", state=sub.state, player=sub.player, precision=opts["precision"], seed=opts["seed"],
            denial=get_bool(body, "denial", True), race=True, assumptions=sub.assumptions, objective=_objective(body)))
    return JSONResponse(result["best"])


def _stages(sub: inputs.Subject, opts: dict, race: bool, advice: bool, denial: bool) -> list[tuple[str, str, str, dict]]:
    """(stage, lane, task, arguments) of a progressive analysis."""
    seed, precision, others = opts["seed"], opts["precision"], opts["others"]
    if sub.game == "cards":
        out = [("leg", "fast", "cards_leg", {"board": sub.board, "seed": seed, "others": others})]
        if race:
            out.append(("race", "slow", "cards_race", {"board": sub.board, "seed": seed, "others": others}))
        if advice:
            out.append(("advice", "slow", "cards_advice", {"board": sub.board, "seed": seed, "others": others,
                                                           "step": opts["step"],
                                                           "objective": opts.get("objective", "win"),
                                                           "rivals": opts["rivals"], "leg": opts["leg"]}))
        return out
    common = {"state": sub.state, "player": sub.player, "precision": precision, "seed": seed, "denial": denial,
              "assumptions": sub.assumptions, "objective": opts.get("objective", "win")}
    out = [("leg", "fast", "leg", {"board": sub.board})]
    if advice:
        out.append(("advice_leg", "fast", "advice", {**common, "race": False}))
    if race:
        out.append(("race", "slow", "race", {"board": sub.board, "precision": precision, "seed": seed}))
    if race and advice:
        out.append(("advice", "slow", "advice", {**common, "race": True}))
    return out


async def analyse(request: Request) -> Response:
    """A progressive analysis: one JSON object per line as each stage is
    ready (leg odds, the advice from the leg alone, race odds, the full
    advice), then ``{"stage": "done"}``.  When the client goes away the
    stages not yet started are never started."""
    body = await _body(request)
    sub = inputs.subject(body)
    opts = inputs.options(body, sub)
    opts = {**opts, "objective": _objective(body)}
    stages = _stages(sub, opts, get_bool(body, "race", True), get_bool(body, "advice", True),
                     get_bool(body, "denial", True))
    lanes = _lanes(request)

    async def lines():
        head = {"stage": "start", "game": sub.game, "board": sub.board, "seed": opts["seed"],
                "stages": [s[0] for s in stages]}
        if sub.state is not None:
            head["state"] = sub.state
        yield dumps(head) + "\n"
        # the fast stages run side by side at once; each slow stage starts when
        # its turn comes, so an edit that makes this analysis stale usually
        # cancels them before they start
        running: dict[str, asyncio.Task] = {}

        def start(stage, lane, task, kwargs):
            running[stage] = asyncio.ensure_future(lanes.run(lane, task, **kwargs))

        try:
            for item in stages:
                if item[1] == "fast":
                    start(*item)
            for item in stages:
                stage = item[0]
                if stage not in running:
                    start(*item)
                try:
                    result = await running[stage]
                except (AdvisorError, Busy) as exc:
                    yield dumps({"stage": "error", "failed": stage, "error": str(exc)}) + "\n"
                    return
                except asyncio.CancelledError:
                    raise
                except Exception:  # logged here; the client gets one line
                    log.exception("analysis stage %s failed", stage)
                    yield dumps({"stage": "error", "failed": stage,
                                 "error": "internal error (logged on the server)"}) + "\n"
                    return
                yield dumps({"stage": stage, **result}) + "\n"
            yield dumps({"stage": "done"}) + "\n"
        finally:
            for pending in running.values():
                if not pending.done():
                    pending.cancel()

    return CancellableStream(lines(), media_type="application/x-ndjson",
                             headers={"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"})


async def curve(request: Request) -> Response:
    body = await _body(request)
    boards = body.get("boards")
    if not isinstance(boards, list) or not all(isinstance(b, str) and len(b) < 1000 for b in boards):
        raise InputError("boards: expected a list of board strings")
    if len(boards) > MAX_CURVE_BOARDS:
        raise InputError(f"boards: at most {MAX_CURVE_BOARDS} per request, got {len(boards)}")
    cards = bool(boards) and reader.input_kind(boards[0]) == "cards"
    for b in boards:  # every board checked before any work
        if (reader.input_kind(b) == "cards") != cards:
            raise InputError("boards: positions of one game (Camel Up Cards positions or board-game boards)")
        reader.read_input(b, kind="cards" if cards else "board")
    result = await _unless_gone(request, _lanes(request).run(
        "slow", "cards_curve" if cards else "curve", boards=boards, precision=inputs.get_precision(body, 0.01),
        seed=inputs.get_seed(body, 0)))
    return JSONResponse(result)


async def game_new(request: Request) -> Response:
    body = await _body(request)
    edition = get_str(body, "edition", "second", choices=("second", "first", "cards"))
    players = get_int(body, "players", None if edition == "cards" else 4, low=1, high=64)
    seed = body.get("seed")
    if seed is not None:
        seed = inputs.get_seed(body)
    start = get_int(body, "start", low=0, high=63)
    board = get_str(body, "board", max_len=1000)
    seats = body.get("seats")
    track = get_str(body, "track", max_len=64)
    if edition == "cards":
        for name, value in (("start", start), ("board", board)):
            if value is not None:
                raise InputError(f"{name} applies to the board games (a Camel Up Cards game starts by its set-up "
                                 "card, player 0 first)")
        if seats is not None:
            if not isinstance(seats, list) or len(seats) > 64:
                raise InputError(f"seats: a list of seat names, {SEATS_TEXT}")
            check_seats(seats, len(seats) if players is None else players)
    else:
        for name, value in (("seats", seats), ("track", track)):
            if value is not None:
                raise InputError(f"{name} applies to Camel Up Cards games (edition cards)")
    if board is not None:
        reader.read_input(board, kind="board")
    result = await _lanes(request).run("game", "game_new", edition=edition, players=players, seed=seed, start=start,
                                       board=board, seats=seats, track=track)
    return JSONResponse(result)


def _record(body: dict) -> list:
    record = body.get("record")
    if not isinstance(record, list) or not record or not all(isinstance(e, dict) for e in record):
        raise InputError("record: expected the game record, a list of its entries (objects)")
    if len(record) > MAX_RECORD_ENTRIES:
        raise InputError(f"record: at most {MAX_RECORD_ENTRIES} entries, got {len(record)}")
    return seeds_as_numbers(record)


def _game_lane(record: list) -> str:
    """Game moves have their own lane: they never wait behind analysis."""
    return "game"


async def game_replay(request: Request) -> Response:
    body = await _body(request)
    record = _record(body)
    infer = get_bool(body, "infer", True)
    return JSONResponse(await _lanes(request).run(_game_lane(record), "game_replay", record=record,
                                                  **({} if infer else {"infer": False})))


async def game_act(request: Request) -> Response:
    body = await _body(request)
    record = _record(body)
    action = get_str(body, "action", max_len=64)
    if action is None:
        raise InputError("action: give the action of the player to move, e.g. leg:R, pyramid or (Camel Up Cards) "
                         "reveal")
    roll = body.get("roll")
    if roll is not None:
        roll = inputs._check_keys(roll, "roll", {"die", "value", "colour"})
        die = get_str(roll, "die", max_len=1)
        value = get_int(roll, "value", low=1, high=3)
        colour = get_str(roll, "colour", choices=("white", "black"))
        if die is None or value is None:
            raise InputError("roll: give die (its letter) and value (1..3), and colour for the grey die")
        if (die == "x") != (colour is not None):
            raise InputError("roll: the grey die x needs colour white or black; a racing die has no colour")
        roll = {"die": die, "value": value, **({"colour": colour} if colour else {})}
    random = get_bool(body, "random", False)
    reveals = body.get("reveals")
    if reveals is not None:
        if not isinstance(reveals, list) or len(reveals) > 64:
            raise InputError("reveals: a list of the face-down cards turned over, each {pile, index, colour}")
        checked = []
        for k, card in enumerate(reveals):
            card = inputs._check_keys(card, f"reveals[{k}]", {"pile", "index", "colour"})
            pile = get_str(card, "pile", choices=("winner", "loser"))
            index = get_int(card, "index", low=0, high=63)
            colour = get_str(card, "colour", max_len=1)
            if pile is None or index is None or colour is None:
                raise InputError(f"reveals[{k}]: give pile (winner or loser), index and colour")
            checked.append({"pile": pile, "index": index, "colour": colour})
        reveals = checked
    infer = get_bool(body, "infer", True)
    return JSONResponse(await _lanes(request).run(_game_lane(record), "game_act", record=record, action=action,
                                                  roll=roll, random_roll=random, reveals=reveals,
                                                  **({} if infer else {"infer": False})))


async def game_load(request: Request) -> Response:
    body = await _body(request)
    text = body.get("text")
    if not isinstance(text, str):
        raise InputError("text: expected the text of a JSON-lines file of game records")
    index = get_int(body, "game", 0, low=0)
    infer = get_bool(body, "infer", True)
    return JSONResponse(await _lanes(request).run("game", "game_load", text=text, index=index,
                                                  **({} if infer else {"infer": False})))


async def openapi(request: Request) -> Response:
    return JSONResponse(document(ROUTES))


#: (path, methods, endpoint) of every route but the static files.
ROUTES: list[tuple[str, list[str], Callable]] = [
    ("/", ["GET"], index),
    ("/api/health", ["GET"], health),
    ("/api/status", ["GET"], status),
    ("/api/games", ["GET"], games_info),
    ("/api/rules", ["GET"], games_info),
    ("/api/openapi.json", ["GET"], openapi),
    ("/api/position", ["POST"], position),
    ("/api/state", ["POST"], state),
    ("/api/odds", ["POST"], odds),
    ("/api/best", ["POST"], best),
    ("/api/analyse", ["POST"], analyse),
    ("/api/curve", ["POST"], curve),
    ("/api/game/new", ["POST"], game_new),
    ("/api/game/replay", ["POST"], game_replay),
    ("/api/game/act", ["POST"], game_act),
    ("/api/game/load", ["POST"], game_load),
]


# --------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


async def _user_error(request: Request, exc: Exception) -> Response:
    out = {"error": _one_line(str(exc))}
    token = getattr(exc, "token", None)
    if token is not None:
        out["token"] = token
    return JSONResponse(out, status_code=400)


async def _too_large(request: Request, exc: Exception) -> Response:
    return JSONResponse({"error": f"the request body is larger than {exc.args[0]:,} bytes"}, status_code=413)


async def _busy(request: Request, exc: Exception) -> Response:
    return JSONResponse({"error": _one_line(str(exc))}, status_code=503, headers={"Retry-After": "1"})


async def _http_error(request: Request, exc: HTTPException) -> Response:
    return JSONResponse({"error": _one_line(exc.detail)}, status_code=exc.status_code, headers=exc.headers)


async def _disconnected(request: Request, exc: Exception) -> Response:
    # nobody is left to read the answer: one line in the log, no traceback
    log.info("the client closed the connection %s %s %s", "during the upload to" if isinstance(exc, ClientDisconnect)
             else "before the answer to", request.method, request.url.path)
    return Response(status_code=499)


async def _slow_upload(request: Request, exc: Exception) -> Response:
    log.info("the request body to %s %s did not arrive within %g s", request.method, request.url.path, BODY_SECONDS)
    return JSONResponse({"error": f"the request body did not arrive within {BODY_SECONDS:g} seconds"},
                        status_code=408, headers={"Connection": "close"})


async def _bug(request: Request, exc: Exception) -> Response:
    log.error("internal error on %s %s", request.method, request.url.path, exc_info=exc)
    return JSONResponse({"error": f"internal error ({type(exc).__name__}); the server's log has the details"},
                        status_code=500)


# --------------------------------------------------------------------------
# The application
# --------------------------------------------------------------------------


def create_app(*, workers: int | None = None, warm: bool = True, on_ready: Callable[[], None] | None = None,
               lanes: Lanes | None = None, prepare: bool | Readiness = False,
               on_prepared: Callable[[str, str, float | None], None] | None = None,
               loopback: bool = False) -> "OwnPageOnly":
    """The web application.  ``workers``: processes per lane (default: the
    cores); ``warm``: load the kernels in every worker before serving;
    ``on_ready``: called once the workers are up (``camelup serve`` prints
    the address then); ``lanes``: share an existing pool (tests);
    ``prepare``: serve at once and compile the kernels in a process of
    their own, most needed first (:mod:`advisor.web.ready`; the workers then
    load them from the cache as their tasks need them; a
    :class:`~advisor.web.ready.Readiness` given is used), calling
    ``on_prepared(group, state, seconds)`` as each group starts and ends.
    ``loopback``: the server listens on loopback only, so a Host header that
    is not a loopback name is refused (:class:`OwnPageOnly`)."""

    @asynccontextmanager
    async def lifespan(app: Starlette):
        own = lanes is None
        app.state.readiness = None
        if own and prepare:
            app.state.readiness = prepare if isinstance(prepare, Readiness) else Readiness()
            if on_prepared is not None:
                app.state.readiness.listeners.append(on_prepared)
            await app.state.readiness.start()
        app.state.lanes = (Lanes(workers, warm=warm and not prepare, readiness=app.state.readiness) if own
                           else lanes)
        try:
            if own:
                await app.state.lanes.start()
            if on_ready is not None:
                on_ready()
            yield
        finally:
            if own:
                app.state.lanes.shutdown()
            if app.state.readiness is not None:
                await app.state.readiness.stop()

    routes = [Route(path, endpoint, methods=methods) for path, methods, endpoint in ROUTES]
    routes.append(Mount("/static", StaticFiles(directory=static_dir(), follow_symlink=False), name="static"))
    handlers = {AdvisorError: _user_error, BodyTooLarge: _too_large, Busy: _busy, HTTPException: _http_error,
                ClientDisconnect: _disconnected, ClientGone: _disconnected, TimeoutError: _slow_upload,
                Exception: _bug}
    app = Starlette(routes=routes, exception_handlers=handlers, lifespan=lifespan)
    return OwnPageOnly(app, loopback=loopback)


# --------------------------------------------------------------------------
# Only the user's own browser may drive it
# --------------------------------------------------------------------------

#: Host names that are this machine's loopback interface.
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1", "[::1]")


def _hostname(host: str) -> str:
    """The name part of a Host header (``[::1]:8000`` -> ``::1``)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def is_loopback_name(host: str) -> bool:
    """Whether the Host header ``host`` names the loopback interface:
    localhost (and names under .localhost), 127.0.0.0/8, ::1."""
    import ipaddress

    name = _hostname(host).rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


class OwnPageOnly:
    """ASGI middleware: a request from another site's page is refused (403),
    and so, when the server is bound to loopback (``loopback``), is a
    request whose Host header is not a loopback name (421: DNS rebinding,
    where another site's name is made to point at 127.0.0.1).

    A browser sends ``Origin`` with every cross-origin request (a ``POST``
    of ``text/plain`` needs no preflight, so it would reach the endpoint);
    the page's own requests carry its own origin, ``http://`` + Host, or
    none (same-origin ``GET``).  ``Sec-Fetch-Site: cross-site`` is refused
    as well.  Clients other than browsers (curl, scripts) send neither.

    A request still computing when the server stops (its grace period
    over, the server cancels it) is answered 503 and counted
    (``cut_short``), without a traceback."""

    def __init__(self, app, loopback: bool = False):
        self.app = app
        self.loopback = loopback
        self.cut_short = 0  # requests still computing when the server stopped

    def __getattr__(self, name):  # app.state, app.routes... of the wrapped application
        return getattr(self.app, name)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http":
            problem = self.problem(scope)
            if problem is not None:
                status, message = problem
                log.info("refused %s %s: %s", scope.get("method"), scope.get("path"), message)
                response = JSONResponse({"error": message}, status_code=status, headers={"Connection": "close"})
                await response(scope, receive, send)
                return
        try:
            await self.app(scope, receive, send)
        except asyncio.CancelledError:
            if scope["type"] != "http":
                raise
            # Only the server's own stop cancels a request (a client that
            # leaves is noticed, never cancelled: _unless_gone): its grace
            # period is over.  Counted (camelup serve says how many in its
            # last line), a 503 if the answer had not begun, no traceback.
            self.cut_short += 1
            log.debug("stopped while answering %s %s", scope.get("method"), scope.get("path"))
            stopping = JSONResponse({"error": "the server is stopping"}, status_code=503,
                                    headers={"Connection": "close"})
            try:
                await stopping(scope, receive, send)
            except Exception:  # the answer had begun, or the connection is gone: nothing more to say
                pass

    def problem(self, scope) -> tuple[int, str] | None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = headers.get("host", "")
        if self.loopback and not is_loopback_name(host):
            return 421, (f"Host {host[:80]!r} is not a name of this machine's loopback interface; open the page at "
                         "http://127.0.0.1 or http://localhost")
        origin = headers.get("origin")
        if origin is not None and origin.lower() != f"{scope.get('scheme', 'http')}://{host}".lower():
            return 403, f"requests from another site's page are refused (Origin {origin[:80]!r})"
        if headers.get("sec-fetch-site") == "cross-site":
            return 403, "requests from another site's page are refused (Sec-Fetch-Site: cross-site)"
        return None
