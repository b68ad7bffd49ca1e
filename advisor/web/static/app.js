// The page: board editor, players, results, game mode, sharing.
//
// The browser holds what is on the table (the position, the players, the
// game record); the server checks every position (/api/position,
// /api/state), applies every game action (/api/game/...), and computes
// every figure (/api/analyse).  No rule of the game is written here.

import { ApiError, getJSON, postJSON, streamJSON } from "./api.js";
import { drawBoardGame, drawCardsBoard, ink, namePlayers, pct, setCamelInk, setPlayerNames, textColour, who, wireGestures } from "./board.js";
import { adviceList, actionWords, chip, figureHeat, h, legTable, raceTable, signed, tileHeat } from "./results.js";
import { renderCardsPanel, renderPlayers } from "./panels.js";
import { renderGame } from "./game.js";
import { cardsAnalysisBody, cardsBoardText, cardsSnapshot, cardsTablePanel, lastHumanAction, privateShown, renderCardsGame, stepIndex } from "./cardsgame.js";
import { drawCurves } from "./chart.js";

const $ = (id) => document.getElementById(id);

export const S = {
  info: null,
  game: "second", // second | first | cards
  mode: "analyse", // analyse | game
  pos: null, // the last valid position (object from the server)
  draft: null, // the editor's copy, possibly with camels off the board
  selected: null, // the camel picked up
  tool: "camel", // camel | + | - | palm | fennec
  owner: null, // owner of tiles placed (player) / holder of figures
  heatSign: "+",
  seed: "1", // a string: seeds reach 2**63-1, beyond what a JavaScript number holds exactly
  precision: 0.002,
  objective: "win", // what the advice ranks by, win (the chance of winning the game) or ev (coins)
  table: null, // players, money, bets (board games)
  tableInfo: null, // hands and free leg tiles from /api/state
  tableError: null,
  results: null, // the stages of the current analysis
  controller: null,
  expanded: false,
  last: {}, // the last position of each game
  // game mode
  view: null, // the game as the server replays it
  curve: new Map(), // board -> curve row
  gameError: null,
  gameBusy: false,
  step: null, // Camel Up Cards: the step shown of a finished game (null: the end)
  cardsShown: null, // Camel Up Cards: the human whose own cards the screen shows
  me: storedSeat(), // board games: the user's own seat (their overall cards are entered as colours), or null
  openActions: new Set(), // the options the user opened (they stay open through redraws)
};

function storedSeat() {
  try {
    const v = localStorage.getItem("camelup.me");
    return v !== null && /^\d+$/.test(v) ? Number(v) : null;
  } catch (e) {
    return null;
  }
}

const isCardsGame = () => S.mode === "game" && S.view?.edition === "cards";

// ---------------------------------------------------------------- start

async function init() {
  S.info = await getJSON("/api/games");
  setCamelInk(S.info.ink);
  wireGestures($("board-area"), () => (S.mode === "analyse" ? boardHandlers : null));
  for (const b of document.querySelectorAll("#game-tabs button")) b.addEventListener("click", () => switchGame(b.dataset.game));
  for (const b of document.querySelectorAll("#mode-tabs button")) b.addEventListener("click", () => switchMode(b.dataset.mode));
  $("text-form").addEventListener("submit", (e) => {
    e.preventDefault();
    applyText($("board-text").value);
  });
  wireShare();
  wireHistory();
  for (const kind of ["pointerdown", "keydown", "wheel", "touchstart"]) {
    $("advice-block").addEventListener(kind, () => { if (S.results) S.results.touched = true; }, { passive: true });
  }
  const params = new URLSearchParams(location.search);
  const board = params.get("board");
  if (params.get("seed") && /^\d+$/.test(params.get("seed"))) S.seed = params.get("seed");
  if (params.get("objective") === "ev") S.objective = "ev";
  if (history.state?.idx !== undefined) hist.index = history.state.idx; // a reload keeps its place in the history
  hist.length = hist.index + 1;
  hist.restoring = true; // the address is read, not rewritten, until the page stands
  try {
    if (board) {
      $("board-text").value = board;
      await applyText(board, true);
    }
    if (S.pos && params.get("table")) tableFromAddress(params.get("table"));
  } finally {
    hist.restoring = false;
  }
  // a shared board the server refuses stays in the box with its error, and the
  // address keeps it: the example is drawn behind it, nothing else changes
  if (!S.pos) await loadBoard(S.info.examples.second, { keepText: Boolean(board) });
  else record(S.pos.board);
  if (params.get("mode") === "game") switchMode("game");
  document.body.dataset.ready = "1";
}

async function loadBoard(text, opts = {}) {
  const obj = await postJSON("/api/position", { board: text });
  setPosition(obj, opts);
}

// ---------------------------------------------------------------- positions

function clone(x) {
  return JSON.parse(JSON.stringify(x));
}

function setPosition(obj, { keepTable = false, keepText = false } = {}) {
  const changedGame = !S.pos || obj.game !== S.game;
  S.pos = obj;
  S.game = obj.game;
  S.draft = clone(obj);
  S.draft.tray = [];
  S.last[S.game] = obj.board;
  if (!keepTable && (changedGame || !S.table)) S.table = defaultTable();
  if (S.table) S.table.board = obj.board;
  if (!keepText) {
    $("board-text").value = obj.board;
    hideTextError();
    record(obj.board);
  }
  scheduleAnalysis();
  render();
}

function defaultTable() {
  if (S.game === "cards") return null;
  const ed = S.info[S.game];
  const n = Math.max(ed.min_players, 4);
  return {
    n, to_move: 0, advised: 0,
    players: Array.from({ length: n }, () => ({ money: ed.start_money, leg_tiles: [], pyramid_tiles: 0, overall_cards: null, partner: null })),
    winner_pile: [], loser_pile: [],
  };
}

// The editor's gestures change the draft; once every camel is on the board
// the server checks it: a position it refuses is explained and undone.
let edits = 0; // only the answer to the latest edit is applied

async function commitDraft() {
  const seq = ++edits;
  if (S.draft.tray.length) {
    // camels off the board: the board string and the address show what is on it
    const text = draftText(S.draft);
    $("board-text").value = text;
    record(text, { draft: S.draft });
    cancelAnalysis();
    render();
    return;
  }
  const { tray, ...obj } = S.draft;
  try {
    const out = await postJSON("/api/position", { position: obj });
    if (seq !== edits) return;
    setPosition(out, { keepTable: true });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (seq !== edits) return;
    S.draft = clone(S.pos);
    S.draft.tray = [];
    showTextError(err.message, null);
    render();
  }
}

async function applyText(text, initial = false) {
  const seq = ++edits;
  try {
    const out = await postJSON("/api/position", { board: text });
    if (seq !== edits) return;
    setPosition(out, { keepTable: out.game === S.game && !initial });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    showTextError(err.message, err.token, text);
  }
}

function showTextError(message, token, text) {
  const box = $("text-error");
  box.hidden = false;
  box.textContent = message;
  box.dataset.token = token ?? "";
  $("board-text").setAttribute("aria-invalid", "true");
  if (token && text !== undefined) {
    const i = text.indexOf(token);
    if (i >= 0) {
      const input = $("board-text");
      input.focus();
      input.setSelectionRange(i, i + token.length);
    }
  }
}

function hideTextError() {
  $("text-error").hidden = true;
  $("board-text").removeAttribute("aria-invalid");
}

// ---------------------------------------------------------------- editing

function stacksOf(draft) {
  return new Map(draft.stacks.map(([s, c]) => [s, c]));
}

function setStacks(draft, map) {
  draft.stacks = [...map.entries()].filter(([, c]) => c).sort((a, b) => a[0] - b[0]);
}

function spaceOf(draft, camel) {
  for (const [s, c] of draft.stacks) if (c.includes(camel)) return s;
  return null;
}

function lift(draft, camel) {
  const map = stacksOf(draft);
  for (const [s, c] of map) if (c.includes(camel)) map.set(s, c.replace(camel, ""));
  setStacks(draft, map);
  draft.tray = draft.tray.filter((c) => c !== camel);
}

function putOnTop(draft, camel, space) {
  lift(draft, camel);
  const map = stacksOf(draft);
  map.set(space, (map.get(space) ?? "") + camel);
  setStacks(draft, map);
}

function putUnder(draft, camel, other) {
  if (camel === other) return;
  lift(draft, camel);
  const space = spaceOf(draft, other);
  const map = stacksOf(draft);
  const stack = map.get(space);
  const i = stack.indexOf(other);
  map.set(space, stack.slice(0, i) + camel + stack.slice(i));
  setStacks(draft, map);
}

function toTray(draft, camel) {
  lift(draft, camel);
  draft.tray.push(camel);
}

function trackSpaces() {
  if (S.game === "cards") return { low: 0, high: S.draft.length };
  return { low: 1, high: S.info[S.game].track };
}

const boardHandlers = {
  onCamel(camel) {
    if (S.tool !== "camel") S.tool = "camel";
    if (S.selected && S.selected !== camel && spaceOf(S.draft, camel) !== null) {
      putUnder(S.draft, S.selected, camel);
      S.selected = null;
      return commitDraft();
    }
    S.selected = S.selected === camel ? null : camel;
    render();
    focusCamel(camel);
  },
  onSpace(space) {
    if (S.tool === "camel") {
      if (!S.selected) return;
      putOnTop(S.draft, S.selected, space);
      const moved = S.selected;
      S.selected = null;
      commitDraft().then(() => focusCamel(moved));
      return;
    }
    if (S.tool === "+" || S.tool === "-") return editTile(space, S.tool);
    if (S.tool === "palm" || S.tool === "fennec") return editFigure(space, S.tool);
  },
  onTray() {
    if (S.selected) {
      toTray(S.draft, S.selected);
      S.selected = null;
      commitDraft();
    }
  },
  onDie(die) {
    const inside = S.draft.dice.includes(die);
    S.draft.dice = inside ? S.draft.dice.replace(die, "") : S.draft.dice + die;
    commitDraft();
  },
  onLegTile(colour) {
    const left = S.draft.legtiles[colour];
    S.draft.legtiles[colour] = left.length ? left.slice(1) : [...S.info[S.game].leg_stack];
    commitDraft();
  },
  onDragStart(camel) {
    S.selected = camel;
    document.body.classList.add("dragging");
  },
  onDrop(camel, target) {
    document.body.classList.remove("dragging");
    S.selected = null;
    if (target.tray) toTray(S.draft, camel);
    else if (target.camel && target.camel !== camel) putUnder(S.draft, camel, target.camel);
    else if (target.space !== null) putOnTop(S.draft, camel, target.space);
    else return render();
    commitDraft();
  },
  onCamelKey(camel, key) {
    const { low, high } = trackSpaces();
    const space = spaceOf(S.draft, camel);
    if ((key === "ArrowRight" || key === "ArrowLeft") && space !== null) {
      const next = Math.min(high, Math.max(low, space + (key === "ArrowRight" ? 1 : -1)));
      putOnTop(S.draft, camel, next);
    } else if ((key === "ArrowUp" || key === "ArrowDown") && space !== null) {
      const map = stacksOf(S.draft);
      const stack = map.get(space);
      const i = stack.indexOf(camel);
      const j = key === "ArrowUp" ? i + 1 : i - 1;
      if (j < 0 || j >= stack.length) return true;
      const a = [...stack];
      [a[i], a[j]] = [a[j], a[i]];
      map.set(space, a.join(""));
      setStacks(S.draft, map);
    } else if (key === "Delete" || key === "Backspace") {
      toTray(S.draft, camel);
    } else if (key === "Escape") {
      S.selected = null;
      render();
      return true;
    } else {
      return false;
    }
    commitDraft().then(() => focusCamel(camel));
    return true;
  },
};

function focusCamel(camel) {
  requestAnimationFrame(() => document.querySelector(`#board-area [data-camel="${camel}"]`)?.focus());
}

function editTile(space, sign) {
  const tiles = S.draft.tiles;
  const i = tiles.findIndex((t) => t.space === space);
  const owner = S.owner;
  if (i >= 0 && tiles[i].sign === sign && tiles[i].owner === owner) tiles.splice(i, 1);
  else if (i >= 0) tiles[i] = { space, sign, owner };
  else tiles.push({ space, sign, owner });
  commitDraft();
}

function editFigure(space, name) {
  const fig = S.draft[name];
  S.draft[name] = fig && fig.space === space ? null : { space, holder: S.owner };
  commitDraft();
}

// ---------------------------------------------------------------- switching

async function switchGame(game) {
  if (game === S.game && S.pos) return;
  S.selected = null;
  S.tool = "camel";
  S.owner = null;
  await loadBoard(S.last[game] ?? S.info.examples[game]);
  if (S.mode === "game" && S.view && S.view.edition !== game) {
    S.view = null;
    S.curve.clear();
    render();
  }
}

function switchMode(mode) {
  S.mode = mode;
  S.selected = null;
  render();
  scheduleAnalysis();
}

// ---------------------------------------------------------------- players (board games)

function tableState() {
  const t = S.table;
  return {
    board: S.pos.board,
    players: t.players.map((p) => ({ ...p })),
    to_move: t.to_move,
    winner_pile: t.winner_pile,
    loser_pile: t.loser_pile,
  };
}

async function checkTable() {
  try {
    const out = await postJSON("/api/state", { state: tableState() });
    S.tableInfo = out;
    S.tableError = null;
    return true;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    S.tableError = err.message;
    return false;
  }
}

let tableTimer = null;

function onTableChange() {
  scheduleAnalysis();
  // typing a number is one edit, not one per key
  clearTimeout(tableTimer);
  tableTimer = setTimeout(() => { if (S.pos && S.mode === "analyse") record(S.pos.board); }, 300);
}

// ---------------------------------------------------------------- address and history
//
// The address holds the whole editor state: the board (board=) and the
// players, their money, tiles, cards and the piles (table=, JSON).  Every
// edit is an entry of the browser's history: Back returns to the previous
// position, and the editor's Undo / Redo walk the same entries.  What the
// advice ranks by (objective=ev; the chance of winning when absent) is a
// choice of the reader, not an edit: it is in the address of every entry
// and Back leaves it as chosen.

const hist = { index: 0, length: 1, restoring: false };

function addressTable() {
  if (!S.table || S.game === "cards") return null;
  const { board, ...rest } = S.table;
  return rest;
}

function record(text, { draft = null } = {}) {
  if (hist.restoring) return;
  const url = new URL(location.href);
  url.searchParams.set("board", text);
  objectiveInAddress(url);
  const table = addressTable();
  if (table) url.searchParams.set("table", JSON.stringify(table));
  else url.searchParams.delete("table");
  const entry = { board: text, table: table ? clone(table) : null, draft: draft ? clone(draft) : null };
  if (history.state?.idx === undefined) {
    history.replaceState({ idx: hist.index, ...entry }, "", url);
  } else if (url.href !== location.href) {
    hist.index += 1;
    hist.length = hist.index + 1;
    history.pushState({ idx: hist.index, ...entry }, "", url);
  } else {
    return;
  }
  renderUndo();
}

function objectiveInAddress(url) {
  if (S.objective === "ev") url.searchParams.set("objective", "ev");
  else url.searchParams.delete("objective");
  return url;
}

// The address of the entry shown, with the objective chosen.
function keepObjectiveInAddress() {
  const url = objectiveInAddress(new URL(location.href));
  if (url.href !== location.href) history.replaceState(history.state, "", url);
}

function tableFromAddress(text) {
  let t = null;
  try {
    t = JSON.parse(text);
  } catch (e) {
    t = null;
  }
  const ed = S.info[S.game];
  const ok = t && typeof t === "object" && Array.isArray(t.players) && ed
    && t.players.length >= ed.min_players && t.players.length <= ed.max_players;
  if (!ok) {
    flash("The players in the link could not be read: the table starts afresh.");
    return;
  }
  const n = t.players.length;
  S.table = {
    ...defaultTable(), ...t, n, board: S.pos.board,
    to_move: Number.isInteger(t.to_move) && t.to_move < n ? t.to_move : 0,
    advised: Number.isInteger(t.advised) && t.advised < n ? t.advised : 0,
    names: Array.isArray(t.names) ? t.names.map((x) => String(x).slice(0, 24)) : [],
  };
  scheduleAnalysis();
  render();
}

function wireHistory() {
  window.addEventListener("popstate", (e) => {
    const st = e.state;
    if (!st || st.idx === undefined || S.mode !== "analyse") return;
    hist.index = st.idx;
    keepObjectiveInAddress();
    restore(st);
  });
  document.addEventListener("keydown", (e) => {
    if (S.mode !== "analyse" || !(e.ctrlKey || e.metaKey) || e.key.toLowerCase() !== "z") return;
    if (e.target.closest?.("input, select, textarea")) return; // the field's own undo
    e.preventDefault();
    if (e.shiftKey) redo();
    else undo();
  });
}

function undo() {
  if (hist.index > 0) history.back();
}

function redo() {
  if (hist.index < hist.length - 1) history.forward();
}

async function restore(st) {
  hist.restoring = true;
  try {
    S.selected = null;
    S.table = st.table ? clone(st.table) : null;
    if (st.draft) {
      if (!S.pos || st.draft.game !== S.game) S.pos = (await postJSON("/api/position", { board: S.info.examples[st.draft.game] }));
      S.game = st.draft.game;
      S.draft = clone(st.draft);
      if (S.table) S.table.board = S.pos.board;
      $("board-text").value = st.board;
      hideTextError();
      cancelAnalysis();
      render();
    } else {
      const out = await postJSON("/api/position", { board: st.board });
      if (!S.table && out.game !== "cards") S.table = null;
      setPosition(out, { keepTable: !!S.table });
    }
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    $("board-text").value = st.board;
    showTextError(err.message, err.token, st.board);
  } finally {
    hist.restoring = false;
  }
  renderUndo();
}

function renderUndo() {
  const u = $("undo-edit");
  const r = $("redo-edit");
  if (u) u.disabled = hist.index <= 0;
  if (r) r.disabled = hist.index >= hist.length - 1;
}

// The board string of the editor's draft while camels are off the board
// (no valid position yet): what is on the board, in the notation's tokens.
function draftText(d) {
  if (S.game === "cards") {
    const keep = (S.pos?.board ?? "cards").split(/\s+/).filter((t) => t && !/^\d+:/.test(t) && !/^(palm|fennec)/.test(t));
    return [...keep, ...d.stacks.map(([sp, c]) => `${sp}:${c}`)].join(" ");
  }
  const ed = S.info[S.game];
  const out = [S.game, ...d.stacks.map(([sp, c]) => `${sp}:${c}`)];
  for (const t of d.tiles) out.push(`${t.sign}${t.space}${t.owner === null || t.owner === undefined ? "" : `@${t.owner}`}`);
  if (d.dice !== ed.dice) out.push(`dice:${d.dice}`);
  const full = ed.leg_stack.join(",");
  const legs = [...ed.racing].filter((c) => (d.legtiles[c] ?? []).join(",") !== full).map((c) => `${c}${(d.legtiles[c] ?? []).join("")}`);
  if (legs.length) out.push(`legtiles:${legs.join(",")}`);
  return out.join(" ");
}

// ---------------------------------------------------------------- analysis

let timer = null;

function scheduleAnalysis() {
  // results of the previous position are never shown beside a new one
  analyses++;
  cancelAnalysis();
  clearTimeout(timer);
  timer = setTimeout(analyse, 60);
}

function cancelAnalysis() {
  S.controller?.abort();
  S.controller = null;
  S.results = null;
}

let analyses = 0; // only the latest analysis may show its results

async function analyse() {
  const gen = ++analyses;
  cancelAnalysis();
  if (!S.pos || S.draft?.tray?.length) return render();
  let body;
  if (S.mode === "game") {
    if (isCardsGame()) {
      const cards = cardsAnalysisBody(S);
      if (!cards) return render();
      body = { ...cards, seed: S.seed, objective: S.objective };
    } else {
      if (S.game === "cards" || !S.view || S.view.finished) return render();
      body = { state: S.view.advised, seed: S.seed, precision: S.precision, objective: S.objective };
    }
  } else if (S.game === "cards") {
    body = { board: S.pos.board, seed: S.seed, objective: S.objective };
  } else {
    const before = JSON.stringify([S.tableInfo?.hands, S.tableInfo?.free_leg_tiles, S.tableError]);
    const ok = await checkTable();
    if (gen !== analyses) return;
    if (JSON.stringify([S.tableInfo?.hands, S.tableInfo?.free_leg_tiles, S.tableError]) !== before) renderSide();
    if (!ok) {
      S.results = { error: S.tableError, where: "players" };
      return renderResults();
    }
    body = { state: tableState(), player: S.table.advised, seed: S.seed, precision: S.precision, objective: S.objective };
  }
  const controller = new AbortController();
  S.controller = controller;
  const results = { stages: [], body };
  S.results = results;
  renderResults();
  try {
    await streamJSON("/api/analyse", body, (line) => {
      if (controller.signal.aborted) return;
      if (line.stage === "start") results.planned = line.stages;
      else if (line.stage === "error") results.error = line.error;
      else if (line.stage !== "done") results[line.stage] = line;
      if (line.stage !== "start") results.stages.push(line.stage);
      renderResults();
      if (line.stage === "advice" || line.stage === "advice_leg" || line.stage === "leg") renderBoard();
    }, controller.signal);
  } catch (err) {
    if (err.name === "AbortError") return;
    if (!(err instanceof ApiError)) throw err;
    results.error = err.message;
    renderResults();
  } finally {
    if (S.controller === controller) S.controller = null;
  }
}

// What the advice ranks by (every game): the chance of winning the
// game (win) or the expected coins (ev).  The choice goes in the address;
// a finished analysis is ranked again by the server (/api/best, the same
// figures as its advice stage) while its odds stay on the screen, one still
// running starts again with the choice.
function setObjective(objective) {
  if (objective === S.objective) return;
  S.objective = objective;
  keepObjectiveInAddress();
  const r = S.results;
  if (!r || r.error || !r.advice || !(r.body?.state || r.body?.board)) {
    scheduleAnalysis();
    render();
    return;
  }
  rerank(r);
}

async function rerank(r) {
  S.controller?.abort();
  const controller = new AbortController();
  S.controller = controller;
  const body = { ...r.body, objective: S.objective };
  r.reranking = S.objective;
  renderResults();
  try {
    const best = await postJSON("/api/best", body, controller.signal);
    if (S.results !== r) return;
    r.body = body;
    r.advice = { ...r.advice, best };
    // the list is drawn best first by the new ranking, without rank marks
    r.touched = false;
  } catch (err) {
    if (err.name === "AbortError") return;
    if (!(err instanceof ApiError)) throw err;
    if (S.results === r) r.error = err.message;
  } finally {
    if (S.controller === controller) { // not overtaken by a later choice or an edit
      S.controller = null;
      r.reranking = null;
    }
  }
  if (S.results !== r) return;
  renderResults();
  renderBoard();
}

function renderObjectiveSwitch() {
  const box = $("objective-switch");
  const shown = S.game !== "cards" || S.mode !== "game" || isCardsGame();
  box.hidden = !shown;
  if (!shown) return box.replaceChildren();
  box.replaceChildren(h("div", { class: "toolgroup objective", role: "group", "aria-label": "rank the options by" },
    h("span", {}, "Rank by:"),
    [["win", "chance of winning", "your chance of winning the game (EV breaks near-ties)"],
      ["ev", "coins (EV)", "the expected change of your money, in coins"]].map(([v, label, title]) => button(label, {
      class: `tool small${S.objective === v ? " on" : ""}`, "aria-pressed": String(S.objective === v),
      "data-objective": v, title, onclick: () => setObjective(v),
    }))));
}

// ---------------------------------------------------------------- rendering

function render() {
  setPlayerNames(S.table?.names);
  document.body.dataset.game = S.game;
  document.body.dataset.mode = S.mode;
  for (const b of document.querySelectorAll("#game-tabs button")) b.setAttribute("aria-pressed", String(b.dataset.game === S.game));
  for (const b of document.querySelectorAll("#mode-tabs button")) b.setAttribute("aria-pressed", String(b.dataset.mode === S.mode));
  renderBoard();
  renderTools();
  renderSide();
  renderGameBlock();
  renderResults();
}

function boardModel() {
  if (isCardsGame()) return cardsSnapshot(S);
  if (S.mode === "game" && S.view) {
    if (!S.view.finished) return S.view.position;
    // the race is over: the final stacks, those beyond the track drawn apart
    const track = S.info[S.game].track;
    const final = S.view.final_stacks;
    return {
      ...S.view.position,
      stacks: final.filter(([s]) => s >= 1 && s <= track),
      beyond: final.filter(([s]) => s < 1 || s > track),
    };
  }
  return S.draft;
}

function currentProbs() {
  const odds = S.results?.race?.odds ?? S.results?.leg?.odds;
  if (!odds) return null;
  const out = {};
  for (const [c, v] of Object.entries(odds.leg)) out[c] = v.rank[0];
  return out;
}

function currentBest() {
  return S.results?.advice?.best ?? S.results?.advice_leg?.best ?? null;
}

export function renderBoard() {
  const model = boardModel();
  const area = $("board");
  const tray = $("tray");
  if (!model) return;
  const info = { ...S.info[S.game], colours: S.info.colours, names: S.info.names };
  const readonly = S.mode === "game";
  const best = currentBest();
  const heat = S.heatSign === "off" ? null
    : S.game === "cards" ? figureHeat(best, S.heatSign === "-" ? "fennec" : "palm") : tileHeat(best, S.heatSign);
  const opts = { info, selected: S.selected, probs: currentProbs(), heat, heatSign: S.heatSign, readonly, pxWidth: area.clientWidth };
  const el = S.game === "cards" ? drawCardsBoard(model, opts) : drawBoardGame(model, opts);
  // a redraw keeps the keyboard focus where it was
  const active = document.activeElement;
  let again = null;
  if (active && area.contains(active)) {
    for (const key of ["camel", "space", "die", "legtile"]) {
      if (active.dataset?.[key] !== undefined) again = `[data-${key}="${active.dataset[key]}"]`;
    }
    if (active.dataset?.camel !== undefined) again = `[data-camel="${active.dataset.camel}"]`;
  }
  area.replaceChildren(el);
  if (again) area.querySelector(again)?.focus({ preventScroll: true });
  tray.replaceChildren();
  const off = model.tray ?? [];
  if (!readonly && (off.length || S.selected)) {
    tray.append(h("span", { class: "tray-label" }, off.length
      ? "Off the board — click a camel, then a space:" : "Click a space to put the camel there, another camel to put it under that one, or here to take it off the board"));
    for (const c of off) {
      tray.append(h("button", {
        type: "button", class: `tray-camel${S.selected === c ? " selected" : ""}`, "data-camel": c,
        style: `background:${info.colours[c]};color:${ink(c)}`,
        "aria-label": `${info.names[c]} camel, off the board`,
      }, c));
    }
  }
}

function button(label, attrs = {}) {
  return h("button", { type: "button", ...attrs }, label);
}

function renderTools() {
  const box = $("tools");
  box.replaceChildren();
  const input = $("board-text");
  const inGame = S.mode === "game" && !!S.view;
  input.readOnly = inGame;
  $("text-form").querySelector("button").hidden = inGame;
  if (inGame) input.value = S.view.edition === "cards" ? cardsBoardText(S) : S.view.board;
  else if (S.pos && document.activeElement !== input && $("text-error").hidden) {
    input.value = S.draft?.tray?.length ? draftText(S.draft) : S.pos.board;
  }
  if (S.mode === "game") {
    // the panel is on the right on a wide screen, below the board on a phone
    const where = [h("span", { class: "wide-only" }, "on the right"), h("span", { class: "narrow-only" }, "below")];
    box.append(h("p", { class: "note", id: "follow-note" }, S.game === "cards" ? "The board follows the game: play each turn " : "The board follows the game: record each turn ",
      where, "."));
    return;
  }
  const ed = S.info[S.game];
  const tools = S.game === "cards"
    ? [["camel", "Move camels"], ["palm", "Palm (+1)"], ["fennec", "Fennec (−1)"]]
    : [["camel", "Move camels"], ["+", `${S.game === "first" ? "Oasis" : "Cheering"} tile +`], ["-", `${S.game === "first" ? "Mirage" : "Booing"} tile −`]];
  const group = h("div", { class: "toolgroup", role: "radiogroup", "aria-label": "what a click on a space does" },
    tools.map(([tool, label]) => button(label, {
      class: `tool${S.tool === tool ? " on" : ""}`, "aria-pressed": String(S.tool === tool), "data-tool": tool,
      onclick: () => { S.tool = tool; S.selected = null; render(); },
    })));
  box.append(group);
  if (S.draft) box.append(piecePicker());
  if (S.tool !== "camel") {
    const max = S.game === "cards" ? S.draft.players : S.table?.n ?? ed.max_players; // only the seated players own tiles
    const sel = h("select", { id: "owner", "aria-label": S.game === "cards" ? "who holds its card" : "whose tile" },
      h("option", { value: "" }, S.game === "cards" ? "card held by nobody you track" : "owner: nobody tracked"),
      Array.from({ length: max }, (_, p) => h("option", { value: p, selected: S.owner === p }, S.game === "cards" ? `card held by ${who(p)}${p === 0 ? " (you)" : ""}` : `owner: ${who(p)}`)));
    sel.addEventListener("change", () => { S.owner = sel.value === "" ? null : Number(sel.value); });
    box.append(sel);
  }
  const actions = h("div", { class: "toolgroup" },
    button("↶ Undo", { id: "undo-edit", title: "undo the last edit (Ctrl+Z; the browser's Back does the same)", disabled: hist.index <= 0, onclick: undo }),
    button("↷ Redo", { id: "redo-edit", title: "redo (Ctrl+Shift+Z; the browser's Forward)", disabled: hist.index >= hist.length - 1, onclick: redo }),
    button("Example", { onclick: () => loadBoard(S.info.examples[S.game]) }),
    S.game !== "cards" ? button("Set up by the rules", { id: "random-setup", onclick: randomSetup }) : null,
    button("Clear the board", {
      id: "clear-board",
      onclick: () => {
        // every camel off the board, no tile or figure, a full pyramid and full stacks
        for (const [, camels] of S.draft.stacks) for (const c of camels) S.draft.tray.push(c);
        S.draft.stacks = [];
        if (S.game === "cards") {
          S.draft.palm = null;
          S.draft.fennec = null;
        } else {
          S.draft.tiles = [];
          S.draft.dice = ed.dice;
          for (const c of ed.racing) S.draft.legtiles[c] = [...ed.leg_stack];
        }
        S.selected = null;
        commitDraft();
      },
    }));
  box.append(actions);
  const heatLabel = S.game === "cards" ? ["palm", "fennec"] : ["+", "−"];
  box.append(h("div", { class: "toolgroup heat", role: "radiogroup" },
    h("span", {}, S.game === "cards" ? "Figure EV on the track:" : "Tile landings on the track:"),
    [["+", heatLabel[0]], ["-", heatLabel[1]], ["off", "off"]].map(([v, label]) => button(label, {
      class: `tool small${S.heatSign === v ? " on" : ""}`, "aria-pressed": String(S.heatSign === v),
      onclick: () => { S.heatSign = v; render(); },
    }))));
}

// On a phone the board's camels, dice and leg tiles are too small for a
// finger: the same pieces as buttons of 44 px (shown on narrow or touch
// screens; a tap does what a click on the piece does).
function piecePicker() {
  const ed = S.info[S.game];
  const info = S.game === "cards" ? S.info.cards : ed;
  const camels = [...info.racing, ...(info.crazy ?? "")];
  const wrap = h("div", { class: "phone-pick", id: "phone-pick" });
  wrap.append(h("div", { class: "toolgroup", role: "group", "aria-label": "camels" }, h("span", { class: "tray-label" }, "Camel:"),
    camels.map((c) => button(c, {
      class: `camelbtn${S.selected === c ? " selected" : ""}`, "data-pick-camel": c, "aria-pressed": String(S.selected === c),
      style: `background:${S.info.colours[c]};color:${textColour(c)}`,
      "aria-label": `${S.info.names[c]} camel: pick it up (then tap a space), or put the camel picked up under it`,
      onclick: () => boardHandlers.onCamel(c),
    }))));
  if (S.game !== "cards") {
    wrap.append(h("div", { class: "toolgroup", role: "group", "aria-label": "dice" }, h("span", { class: "tray-label" }, "Dice in the pyramid:"),
      [...ed.dice].map((d) => {
        const inside = S.draft.dice.includes(d);
        return button(d === "x" ? "grey" : d, {
          class: `face${inside ? "" : " out"}`, "data-pick-die": d, "aria-pressed": String(inside),
          style: inside ? `background:${d === "x" ? "#9e9e9e" : S.info.colours[d]};color:${d === "x" ? "#fff" : textColour(d)}` : null,
          "aria-label": `${d === "x" ? "grey" : S.info.names[d]} die ${inside ? "in the pyramid" : "rolled"}`,
          onclick: () => boardHandlers.onDie(d),
        });
      })));
    wrap.append(h("div", { class: "toolgroup", role: "group", "aria-label": "leg tiles" }, h("span", { class: "tray-label" }, "Take a leg tile:"),
      [...ed.racing].map((c) => {
        const left = S.draft.legtiles[c] ?? [];
        return button(`${c} ${left.length ? left[0] : "–"}`, {
          class: "camelbtn", "data-pick-legtile": c, style: `background:${S.info.colours[c]};color:${textColour(c)}`,
          "aria-label": `${S.info.names[c]} leg tiles: ${left.length ? left.join(", ") : "none left"}`,
          onclick: () => boardHandlers.onLegTile(c),
        });
      })));
  }
  return wrap;
}

async function randomSetup() {
  const ed = S.info[S.game];
  const view = await postJSON("/api/game/new", { edition: S.game, players: Math.max(ed.min_players, S.table?.n ?? 4) });
  await loadBoard(view.board);
}

function renderSide() {
  const box = $("side-block");
  if (isCardsGame()) {
    box.replaceChildren(cardsTablePanel(S, { ...S.info.cards, colours: S.info.colours, names: S.info.names }));
    return;
  }
  if (S.mode === "game" && S.game === "cards") {
    box.replaceChildren(h("p", { class: "note" }, ""));
    return;
  }
  if (S.mode === "game" && S.game !== "cards") {
    box.replaceChildren(S.view ? gameTable() : h("p", { class: "note" }, ""));
    return;
  }
  if (S.game === "cards") {
    box.replaceChildren(renderCardsPanel(S, { commit: commitDraft, render }));
    return;
  }
  box.replaceChildren(renderPlayers(S, { changed: onTableChange, named: onTableChange, render }));
}

// A hand is colours when known, a number when its cards went face down unseen.
function handText(v, i) {
  const hand = v.hands[i];
  if (typeof hand === "number") return `${hand} in hand (not seen)`;
  if (v.finished || i === S.me) return hand || "–";
  return `${hand.length} in hand`;
}

function gameTable() {
  const v = S.view;
  const rows = v.state.players.map((p, i) => h("tr", { class: i === v.to_move && !v.finished ? "to-move" : "" },
    h("td", {}, `${who(i)}`, i === v.to_move && !v.finished ? " ◀ to move" : ""),
    h("td", { class: "num" }, p.money),
    h("td", {}, p.leg_tiles.join(" ") || "–"),
    h("td", { class: "num" }, p.pyramid_tiles),
    h("td", { class: "hand" }, handText(v, i)),
    h("td", {}, p.partner === null ? "" : `${who(p.partner)}`)));
  const pile = (name, cards) => h("p", {}, `${name}: `, cards.length ? cards.map((c) => h("span", { class: "pilecard" },
    `${who(c.player)}`, v.finished && c.colour ? ` ${c.colour}` : " ▮")) : "empty");
  return h("details", { open: true, class: "card" },
    h("summary", {}, h("h2", {}, "The table")),
    h("div", { class: "scroll" }, h("table", { class: "players" },
      h("thead", {}, h("tr", {}, ["player", "money", "leg tiles", "pyramid", "overall cards", "partner"].map((x) => h("th", {}, x)))),
      h("tbody", {}, rows))),
    pile("Winner pile", v.state.winner_pile), pile("Loser pile", v.state.loser_pile),
    h("p", { class: "note" }, v.finished ? "Piles revealed at the end of the race." : "Overall cards are placed face down."));
}

const STAGES = {
  leg: "leg odds", advice_leg: "options from the leg", race: "race odds", advice: "all options",
};

function renderStatus() {
  const box = $("status");
  box.replaceChildren();
  const r = S.results;
  if (S.draft?.tray?.length && S.mode === "analyse") {
    box.append(h("p", { class: "hint" }, `Put ${S.draft.tray.join(", ")} on the board to see the odds: click a camel, then a space.`));
    return;
  }
  if (!r) return;
  if (r.error) {
    box.append(h("p", { class: "error", role: "alert", id: "analysis-error" }, r.where === "players" ? `Players: ${r.error}` : r.error));
    return;
  }
  const planned = r.planned ?? [];
  box.append(h("ul", { class: "stages" }, planned.map((s) => h("li", {
    class: r[s] ? "done" : "running", "data-stage": s,
  }, r[s] ? "✓ " : "… ", STAGES[s] ?? s))));
}

function bestCallout() {
  const box = $("best-block");
  box.replaceChildren();
  const best = currentBest();
  const info = { ...S.info[S.game], colours: S.info.colours, names: S.info.names };
  const atEnd = !isCardsGame() || !S.view.finished || stepIndex(S) === S.view.steps.length - 1;
  if (S.mode === "game" && S.view?.finished && atEnd) {
    const sum = S.view.summary;
    const order = sum.winners.map((p) => `${who(p)}`).join(" and ");
    box.append(h("p", { class: "lead" }, `The race is over: ${info.names[sum.winner_camel]} won, ${info.names[sum.loser_camel]} came last. `,
      h("b", {}, `${order} win${sum.winners.length > 1 ? "" : "s"} the game`), ` with ${Math.max(...sum.money)} coins.`));
    return;
  }
  if (!best || !best.moves.length) return;
  const top = best.moves[0];
  const actor = isCardsGame() ? `${who(cardsSnapshot(S).viewer)}` : S.game === "cards" ? "you" : `${who(best.player)}`;
  const final = !!S.results?.advice;
  if (best.hidden_hand) box.append(hiddenHandNote(best.hidden_hand, info));
  box.append(
    h("p", { class: "kicker" }, final ? `Best move for ${actor}` : `Best move for ${actor} so far (overall cards still being valued)`),
    h("p", { class: "lead", id: "best-move" }, actionWords(top.action, info, S.game, top), " ",
      h("span", { class: `ev ${top.ev >= 0 ? "pos" : "neg"}` }, `${signed(top.ev)} coins`)),
  );
  if (typeof best.win_now === "number" && typeof top.win === "number") {
    // the player advised is the reader: "your", as the command line says it
    box.append(h("p", { class: "winline", id: "win-headline" }, "Your chance of winning: ",
      h("b", { id: "win-now" }, pct(best.win_now)), " now, ", h("b", { id: "win-after" }, pct(top.win)),
      ` after “${actionWords(top.action, info, S.game, top)}”`));
  }
  if (best.moves.length > 1) {
    const second = best.moves[1];
    const win = typeof second.win === "number" ? `, ${pct(second.win)} to win` : "";
    box.append(h("p", { class: "sub" }, `Next best: ${actionWords(second.action, info, S.game, second)} (${signed(second.ev)}${win})`));
  }
  const ranked = rankedBy(best);
  if (ranked) box.append(h("p", { class: "sub", id: "ranked-by", "data-objective": best.objective }, ranked));
  if (best.assumptions) box.append(h("p", { class: "note" }, best.assumptions.join("; ")));
}

// Which objective ranked the options (the advice says so).
function rankedBy(best) {
  if (!best.objective) return null;
  const r = S.results;
  if (r?.reranking) return `Ranking again by ${r.reranking === "win" ? "the chance of winning" : "coins"}…`;
  if (best.objective === "win") return "Ranked by your chance of winning the game (EV breaks near-ties).";
  if (S.objective === "win") return "Ranked by coins (EV) for now: the chance of winning comes with the race odds.";
  return "Ranked by coins (EV): the expected change of your money.";
}

// One line: the advised player's overall cards went face down unseen, so
// their hand is modelled from what the table knows.
function hiddenHandNote(hh, info) {
  const held = Object.entries(hh.held).map(([c, p]) => `${c} ${Math.round(100 * p)}%`).join(", ");
  return h("p", { class: "note", id: "hidden-hand-note" },
    `${who(hh.player)}'s cards went face down unseen: advised from what the table knows, their ${hh.size} cards in hand `
    + `modelled as any hidden hand (most likely ${hh.hand}, ${Math.round(100 * hh.p_hand)}%; P(holds) ${held}).`);
}

export function renderResults() {
  renderStatus();
  bestCallout();
  renderObjectiveSwitch();
  const r = S.results;
  const info = { ...S.info[S.game], colours: S.info.colours, names: S.info.names };
  const legBox = $("leg");
  const raceBox = $("race");
  const adviceBox = $("advice");
  const odds = r?.race?.odds ?? r?.leg?.odds;
  const waiting = (text) => h("p", { class: "note pending" }, text);
  const blank = S.mode === "game" && (!S.view || (isCardsGame() ? !cardsAnalysisBody(S) : S.view.finished));
  for (const id of ["advice-block", "leg-block", "race-block"]) $(id).hidden = blank;
  legBox.replaceChildren(blank ? "" : odds ? legTable(odds, info, { race_ends: r?.leg?.race_ends, landings: r?.leg?.landings }) : waiting("Counting every die order…"));
  raceBox.replaceChildren(blank ? "" : r?.race ? raceTable(r.race.odds, info) : waiting("Simulating races…"));
  const best = currentBest();
  if (best && r) {
    // once the user has touched the list, its rows keep the order first
    // shown for this position (see adviceList); untouched, it stays best first
    if (!r.touched) {
      r.order = null;
      r.firstRank = null;
    }
    r.order ??= [];
    r.firstRank ??= new Map(best.moves.map((m, i) => [m.action, i]));
    const known = new Set(r.order);
    for (const m of best.moves) if (!known.has(m.action)) r.order.push(m.action);
  }
  adviceBox.classList.toggle("stale", !!r?.reranking);
  adviceBox.setAttribute("aria-busy", String(!!r?.reranking));
  adviceBox.replaceChildren(blank ? "" : best
    ? adviceList(best, info, S.game, {
      pending: !r?.advice && (r?.planned ?? []).includes("advice"), expanded: S.expanded,
      onToggle: () => { S.expanded = !S.expanded; renderResults(); },
      order: r?.order ?? null, firstRank: r?.firstRank ?? null, open: S.openActions,
      onResort: () => { r.order = best.moves.map((m) => m.action); r.firstRank = new Map(best.moves.map((m, i) => [m.action, i])); renderResults(); },
    })
    : waiting("Valuing every action…"));
}

// ---------------------------------------------------------------- game mode

function renderGameBlock() {
  const box = $("game-block");
  const curves = $("curve-block");
  box.hidden = S.mode !== "game";
  curves.hidden = S.mode !== "game" || !S.view;
  if (S.mode !== "game") return;
  const cards = S.view ? S.view.edition === "cards" : S.game === "cards";
  box.replaceChildren(cards ? renderCardsGame(S, gameActions, { ...S.info.cards, colours: S.info.colours, names: S.info.names })
    : renderGame(S, gameActions));
  drawCurveBlock();
}

const gameActions = {
  async newGame(opts) {
    await gameCall("/api/game/new", { edition: S.game, ...opts });
  },
  render() {
    render();
  },
  setMe(seat) {
    S.me = seat;
    try {
      if (seat === null) localStorage.removeItem("camelup.me");
      else localStorage.setItem("camelup.me", String(seat));
    } catch (e) {
      /* storage refused: kept for this page only */
    }
    render();
  },
  shown() {
    render();
    scheduleAnalysis();
  },
  step(k) {
    S.step = k;
    render();
    scheduleAnalysis();
  },
  async act(action, roll, random = false, reveals = null) {
    const body = { record: S.view.record, action };
    if (roll) body.roll = roll;
    if (random) body.random = true;
    if (reveals) body.reveals = reveals;
    await gameCall("/api/game/act", body);
  },
  async replay() {
    await gameCall("/api/game/replay", { record: S.view.record });
  },
  async undo() {
    if (S.view.edition === "cards") {
      // back to before the last move of a human (the bots' moves after it go too)
      const cut = lastHumanAction(S.view);
      if (cut === null) return;
      await gameCall("/api/game/replay", { record: S.view.record.slice(0, cut) });
      return;
    }
    const rec = S.view.record.filter((e) => e.type !== "end");
    if (rec.length <= 1) return;
    await gameCall("/api/game/replay", { record: rec.slice(0, -1) });
  },
  save() {
    const text = S.view.record.map(recordLine).join("\n") + "\n";
    download(new Blob([text], { type: "application/x-ndjson" }), S.view.edition === "cards" ? "camelup-cards-game.jsonl" : "camelup-game.jsonl");
  },
  async load(file, index = 0) {
    const text = await file.text();
    S.loadedText = text;
    await gameCall("/api/game/load", { text, game: index });
  },
  async pick(index) {
    await gameCall("/api/game/load", { text: S.loadedText, game: index });
  },
  close() {
    S.view = null;
    S.curve.clear();
    S.step = null;
    render();
    scheduleAnalysis();
  },
};

// One line of the saved record: the seed, which the page carries as a string,
// written as the whole number the command line reads (digits kept exactly).
function recordLine(entry) {
  if (typeof entry.seed !== "string" || !/^\d+$/.test(entry.seed)) return JSON.stringify(entry);
  return JSON.stringify({ ...entry, seed: 0 }).replace(/"seed":0\b/, `"seed":${entry.seed}`);
}

async function gameCall(path, body) {
  if (S.gameBusy) return; // one turn at a time: each starts from the record the last one returned
  // the analysis and the curves of the position before the move are stale: stop them
  // (the server drops work whose client left), so the move never waits behind them
  cancelAnalysis();
  clearTimeout(timer);
  curveRuns++;
  S.curveController?.abort();
  S.gameBusy = true;
  renderGameBlock();
  try {
    const view = await postJSON(path, body);
    S.gameError = null;
    if (S.view && view.record[0].seed !== S.view.record[0].seed) S.curve.clear();
    const sameGame = S.view && JSON.stringify(S.view.record[0]) === JSON.stringify(view.record[0]);
    if (!sameGame || view.finished !== S.view.finished) S.step = null;
    if (!sameGame) S.cardsShown = null;
    S.view = view;
    if (view.edition !== S.game) {
      // the editor follows the game of the record opened
      S.selected = null;
      S.tool = "camel";
      const obj = await postJSON("/api/position", { board: S.last[view.edition] ?? S.info.examples[view.edition] });
      S.pos = obj;
      S.game = obj.game;
      S.draft = clone(obj);
      S.draft.tray = [];
      S.table = defaultTable();
    }
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    S.gameError = err.message;
  } finally {
    S.gameBusy = false;
  }
  render();
  scheduleAnalysis();
  updateCurve();
}

const curveKey = (board) => board.split(" legtiles:")[0];

// the boards of the curves: one per turn (Camel Up Cards: the position a
// spectator sees at the start of every player's turn)
function curveBoards() {
  if (S.view.edition === "cards") return { boards: S.view.curve_boards, legs: S.view.curve_legs };
  return { boards: S.view.finished ? S.view.boards.slice(0, -1) : S.view.boards, legs: S.view.leg_of_turn };
}

let curveRuns = 0;

async function updateCurve() {
  if (!S.view) return;
  const run = ++curveRuns;
  const view = S.view;
  const { boards } = curveBoards();
  const missing = [...new Set(boards.map(curveKey))].filter((b) => !S.curve.has(b));
  // Camel Up Cards odds take longer: a few boards per request, drawn as they come
  const size = view.edition === "cards" ? 6 : 400;
  for (let i = 0; i < missing.length; i += size) {
    if (run !== curveRuns || S.view !== view) return;
    const part = missing.slice(i, i + size);
    try {
      const controller = new AbortController();
      S.curveController = controller;
      const out = await postJSON("/api/curve", { boards: part }, controller.signal);
      part.forEach((b, k) => S.curve.set(b, out.rows[k]));
    } catch (err) {
      if (err.name === "AbortError") return;
      if (!(err instanceof ApiError)) throw err;
      return;
    }
    if (size < missing.length) drawCurveBlock();
  }
  drawCurveBlock();
}

function drawCurveBlock() {
  const box = $("curves");
  if (!S.view || S.mode !== "game") return;
  const { boards, legs } = curveBoards();
  const rows = boards.map((b) => S.curve.get(curveKey(b)));
  const done = rows.filter((r) => r).length;
  if (!rows.length || done < rows.length) {
    box.replaceChildren(h("p", { class: "note pending", id: "curve-progress" },
      rows.length ? `Computing the odds at every turn… ${done} of ${rows.length}` : "The curves start with the first turn."));
    return;
  }
  const info = { colours: S.info.colours };
  const result = S.view.finished ? { winner: S.view.summary.winner_camel, loser: S.view.summary.loser_camel } : {};
  const cards = S.view.edition === "cards";
  const marker = cards && S.view.finished ? cardsSnapshot(S).curve_index : null;
  box.replaceChildren(drawCurves(rows, legs, info, result, marker),
    h("p", { class: "note" }, "Leg ends dashed", S.view.finished ? "; the race's winner and last camel drawn thick" : "",
      marker !== null ? "; the step shown marked" : "", ".",
      cards ? " The odds a spectator can give at the start of each turn (the shown, revealed and played cards known)." : ""));
}

// ---------------------------------------------------------------- share & export

function download(blob, name) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

async function copy(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    flash(`${what} copied`);
  } catch (e) {
    window.prompt(`Copy the ${what}:`, text);
  }
}

function flash(text) {
  const note = h("div", { class: "toast", role: "status" }, text);
  document.body.append(note);
  setTimeout(() => note.remove(), 1800);
}

export async function boardPNG() {
  const el = document.querySelector("#board svg");
  const clone = el.cloneNode(true);
  const [, , w, hgt] = clone.getAttribute("viewBox").split(" ").map(Number);
  const scale = 2;
  clone.setAttribute("width", w * scale);
  clone.setAttribute("height", hgt * scale);
  const text = new XMLSerializer().serializeToString(clone);
  const img = new Image();
  img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(text);
  await img.decode();
  const canvas = document.createElement("canvas");
  canvas.width = w * scale;
  canvas.height = hgt * scale;
  canvas.getContext("2d").drawImage(img, 0, 0);
  return new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
}

function wireShare() {
  const menu = $("share-menu");
  const btn = $("share-button");
  btn.addEventListener("click", () => {
    menu.hidden = !menu.hidden;
    btn.setAttribute("aria-expanded", String(!menu.hidden));
  });
  const close = () => { menu.hidden = true; btn.setAttribute("aria-expanded", "false"); };
  $("copy-link").addEventListener("click", () => { close(); copy(location.href, "link"); });
  $("copy-board").addEventListener("click", () => { close(); copy(currentBoard(), "board string"); });
  $("save-state").addEventListener("click", () => {
    close();
    const data = isCardsGame() ? { board: cardsBoardText(S) }
      : S.mode === "game" && S.view ? S.view.state : S.game === "cards" ? { board: S.pos.board } : tableState();
    download(new Blob([JSON.stringify(data, null, 2) + "\n"], { type: "application/json" }), "camelup-state.json");
  });
  $("save-png").addEventListener("click", async () => {
    close();
    download(await boardPNG(), "camelup-board.png");
  });
}

function currentBoard() {
  if (isCardsGame()) return cardsBoardText(S);
  return S.mode === "game" && S.view ? S.view.board : S.pos.board;
}

window.camelup = { S, boardPNG, render };
let resizeTimer = null;
window.addEventListener("resize", () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(renderBoard, 150); });
init().catch((err) => {
  $("status").replaceChildren(h("p", { class: "error" }, `The page could not start: ${err.message}`));
  throw err;
});
