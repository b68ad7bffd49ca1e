// Game mode for Camel Up Cards: play a game on the page (humans at one
// screen and bots), or step through a recorded one.  The server deals,
// checks every action, moves the camels, plays the bots and keeps no game:
// the page holds the record and sends it with each action.  What the page
// shows is the view the server answers: the human to move's own cards and
// what is public; once the game is over, every step as the player to move
// then saw it.

import { chip, h } from "./results.js";
import { ink, namePlayers, playerCounts, who } from "./board.js";
import { startingNote } from "./game.js";

const SEAT_NAMES = ["human", "margin", "shark", "greedy", "heuristic", "random"];
const SEAT_HELP = {
  human: "a player at this screen",
  margin: "a bot: every turn, the chance of winning the game (its lead after the leg against what the legs to come may change)",
  shark: "a bot: the advisor's values, less what a turn gives the others; plays for the win at the end",
  greedy: "a bot: the advisor's best turn",
  heuristic: "a bot: the leader's leg card, then reveal",
  random: "a bot: random legal moves",
};

function btn(label, attrs = {}) {
  return h("button", { type: "button", ...attrs }, label);
}

const cardsOf = (text) => (text ? text.match(/../g) : []);

function cardChip(info, card, extra = {}) {
  return h("span", {
    class: "chip racecard", "data-card": card, ...extra,
    style: `background:${info.colours[card[0]]};color:${ink(card[0])}`,
  }, `${card[0]}+${card[1]}`);
}

function cardRow(info, text, none = "none") {
  const cards = cardsOf(text);
  return cards.length ? cards.map((c) => cardChip(info, c)) : h("span", { class: "note" }, none);
}

// ---------------------------------------------------------------- what is shown

// The table shown: the step picked in a finished game, else the live table.
export function cardsSnapshot(S) {
  const v = S.view;
  if (!v) return null;
  if (v.finished && v.steps) return v.steps[stepIndex(S)];
  return v.table;
}

export function stepIndex(S) {
  const n = S.view.steps.length - 1;
  return S.step === null || S.step === undefined || S.step > n ? n : Math.max(0, S.step);
}

function humans(v) {
  return v.seats.filter((s) => s === "human").length;
}

// Whether the viewer's own cards may be on the screen: with more than one
// human at the screen, each turn starts face down until its player says so.
export function privateShown(S) {
  const v = S.view;
  if (!v || v.finished) return true;
  if (v.viewer === null) return false;
  return humans(v) < 2 || S.cardsShown === v.viewer;
}

// The board string of the text box: the viewer's position (the advice's
// input) when it may be shown, else the one a spectator sees.
export function cardsBoardText(S) {
  const snap = cardsSnapshot(S);
  if (!snap) return "";
  return (privateShown(S) && snap.position) || snap.spectator || snap.board;
}

// The analysis of the shown step: the position of the player to move, and
// the game it is played in (the other players' money and bets, public at
// the table, and the leg), so that the chance of winning is that game's.
export function cardsAnalysisBody(S) {
  const snap = cardsSnapshot(S);
  if (!snap || !snap.position || !privateShown(S)) return null;
  return { board: snap.position, step: snap.step, rivals: rivalsOf(snap), leg: snap.leg };
}

// The players after the viewer, in turn order: money and bets as the
// board string's bets: token writes them.
function rivalsOf(snap) {
  const n = snap.players.length;
  return Array.from({ length: n - 1 }, (_, k) => {
    const p = snap.players[(snap.viewer + k + 1) % n];
    const bets = [...p.leg, ...[...p.mid].map((c) => `m${c}`)];
    if (p.winner) bets.push(`w${p.winner}`);
    if (p.loser) bets.push(`l${p.loser}`);
    return { money: p.money, bets };
  });
}

// ---------------------------------------------------------------- the panel

export function renderCardsGame(S, act, info) {
  const box = h("div", { class: "game cardsgame", id: "game-panel" });
  if (S.gameError) box.append(h("p", { class: "error", role: "alert", id: "game-error" }, S.gameError));
  if (!S.view) {
    box.append(newGameForm(S, act, info));
    return box;
  }
  const v = S.view;
  box.append(head(S, act, v));
  if (v.games && v.games.length > 1) box.append(gamePicker(v, act));
  if (v.finished) {
    box.append(review(S, act, v, info));
    return box;
  }
  if (S.gameBusy) box.append(h("p", { class: "hint", id: "bots-busy" }, "Playing… (the bots move until a human is to move)"));
  if (v.viewer === null) {
    box.append(h("p", { class: "hint" }, `${who(v.to_move)} (${v.seats[v.to_move]}) is to move and no seat is human: open the game with a human seat to go on.`));
  } else if (!privateShown(S)) {
    box.append(curtain(S, act, v));
  } else if (v.phase === "build") {
    box.append(buildForm(S, act, v, info));
  } else {
    box.append(turnActions(S, act, v, info));
  }
  box.append(logList(v, null, null));
  return box;
}

function head(S, act, v) {
  const seats = v.seats.map((s, i) => `${who(i)} ${s}`).join(" · ");
  const status = v.finished
    ? h("b", {}, "the race is over")
    : h("span", {}, h("b", { id: "to-move" }, `${who(v.to_move)} to move`),
      v.viewer !== null && privateShown(S) ? h("span", { class: "viewer", id: "viewer-note" }, ` · the cards shown are ${who(v.viewer)}'s`) : "");
  const undoable = lastHumanAction(v) !== null;
  return h("div", { class: "game-head" },
    h("p", { class: "turn" }, `Leg ${v.legs} · `, status),
    h("div", { class: "row wrap" },
      btn("Undo", { id: "undo", disabled: !undoable || S.gameBusy, onclick: () => act.undo(), title: "take back the last move of a human (and the bots' moves after it)" }),
      btn("Save the game", { id: "save-game", onclick: () => act.save(), title: "download the game record (JSON lines)" }),
      h("label", { class: "filebutton" }, "Open a game…", fileInput((file) => act.load(file))),
      btn("New game", { onclick: () => act.close() })),
    h("p", { class: "note seats" }, seats));
}

// The index of the record's last action of a human seat (undo cuts there).
export function lastHumanAction(v) {
  for (let i = v.record.length - 1; i > 0; i--) {
    const e = v.record[i];
    if (e.type === "action" && v.seats[e.player] === "human") return i;
  }
  return null;
}

function fileInput(onfile) {
  const input = h("input", { type: "file", accept: ".jsonl,.json,.txt,application/json", id: "load-game" });
  input.addEventListener("change", () => { if (input.files[0]) onfile(input.files[0]); input.value = ""; });
  return input;
}

function gamePicker(v, act) {
  const sel = h("select", { id: "pick-game" }, v.games.map((g) => h("option", { value: g.index, selected: g.index === v.index },
    `#${g.index}: ${g.players} players, ${g.turns} actions${g.winners ? `, ${g.winners.map((x) => who(x)).join(" and ")} won` : ""}${g.bots ? ` (${g.bots.join(", ")})` : ""}`)));
  sel.addEventListener("change", () => act.pick(Number(sel.value)));
  return h("label", {}, "Game of the file: ", sel);
}

// ---------------------------------------------------------------- a new game

function newGameForm(S, act, info) {
  // the choices live in the page state: a redraw while the user picks keeps them
  const form = (S.cardsForm ??= { players: 4, seats: ["human", "heuristic", "greedy", "random", "random", "random"], seed: "" });
  const players = h("select", { id: "cards-players", "aria-label": "players" },
    playerCounts(info).map((n) => h("option", { value: n, selected: n === form.players }, `${n} players`)));
  players.addEventListener("change", () => { form.players = Number(players.value); act.render(); });
  const seats = Array.from({ length: form.players }, (_, i) => {
    const sel = h("select", { id: `cards-seat-${i}`, "aria-label": `seat of ${who(i)}` },
      SEAT_NAMES.map((s) => h("option", { value: s, selected: form.seats[i] === s, title: SEAT_HELP[s] }, s)));
    sel.addEventListener("change", () => { form.seats[i] = sel.value; });
    return h("label", { class: "seat" }, `${who(i)} `, sel);
  });
  const seed = h("input", { id: "cards-seed", inputmode: "numeric", placeholder: "drawn", value: form.seed, "aria-label": "seed", size: 8 });
  seed.addEventListener("input", () => { form.seed = seed.value.trim(); });
  const start = () => {
    const body = { players: form.players, seats: form.seats.slice(0, form.players) };
    if (form.seed !== "") body.seed = form.seed; // a string: the server reads its digits exactly
    act.newGame(body);
  };
  return h("div", { class: "newgame", "aria-busy": String(S.gameBusy) },
    h("h2", {}, "Play Camel Up Cards"),
    h("p", {}, "The page deals the cards by the rules and keeps the record. Humans take turns at this screen: each sees only their own cards (the page asks before it shows them). The bots move by themselves."),
    h("div", { class: "row wrap" }, players, h("label", {}, "seed ", seed)),
    h("div", { class: "row wrap seats" }, seats),
    h("div", { class: "row wrap" },
      btn("Deal", { id: "cards-new", class: "primary", disabled: S.gameBusy, onclick: start }),
      h("label", { class: "filebutton" }, "Open a game (saved, or from camelup simulate)…", fileInput((file) => act.load(file)))),
    startingNote(S.gameBusy));
}

// ---------------------------------------------------------------- hot seat

function curtain(S, act, v) {
  return h("div", { class: "curtain", id: "curtain" },
    h("p", {}, h("b", {}, `${who(v.viewer)}'s turn.`), ` Pass the screen to ${who(v.viewer)}; the others look away.`),
    btn(`Show ${who(v.viewer)}'s cards`, { id: "show-view", class: "primary", onclick: () => { S.cardsShown = v.viewer; act.shown(); } }));
}

// ---------------------------------------------------------------- deck building

const ROLES = [["hand", "hand"], ["show", "show"], ["deck", "deck"], ["discard", "discard"]];

function buildForm(S, act, v, info) {
  const b = v.build;
  const dealt = cardsOf(b.dealt);
  const key = `${v.record.length}:${b.dealt}`;
  if (!S.buildPick || S.buildPick.key !== key) S.buildPick = { key, roles: dealt.map(() => null) };
  const roles = S.buildPick.roles;
  const need = { hand: 1, show: b.shown, deck: b.down };
  const count = (r) => roles.filter((x) => x === r).length;
  const problems = [];
  for (const [r, n] of Object.entries(need)) {
    const c = count(r);
    const what = { hand: "in hand", show: "to show", deck: "face down into the deck" }[r];
    if (c !== n) problems.push(`${c < n ? "choose" : "too many:"} ${n} ${n === 1 ? "card" : "cards"} ${what}${c ? ` (${c} chosen)` : ""}`);
  }
  const ok = problems.length === 0;
  const action = () => {
    const pick = (r) => dealt.filter((_, i) => roles[i] === r).join("");
    const rest = dealt.filter((_, i) => roles[i] === null || roles[i] === "discard").join("");
    return `build:${pick("hand")}/${pick("show")}/${pick("deck")}/${rest}`;
  };
  const rows = dealt.map((card, i) => h("li", { class: "buildcard", "data-index": i },
    cardChip(info, card),
    h("span", { class: "roles", role: "group", "aria-label": `${card}: where it goes` },
      ROLES.filter(([r]) => r !== "show" || b.shown).map(([r, label]) => btn(label, {
        class: `small role${roles[i] === r ? " on" : ""}`, "data-role": r, "aria-pressed": String(roles[i] === r),
        disabled: S.gameBusy,
        onclick: () => { roles[i] = roles[i] === r ? null : r; act.render(); },
      })))));
  return h("div", { class: "actions build", id: "build-form" },
    h("p", {}, h("b", {}, `${who(v.viewer)}: build the race deck for leg ${v.legs}. `),
      `Keep 1 card in hand${b.shown ? ", show 1 to everyone" : ""}, put ${b.down} face down into the race deck, discard ${b.discard}${b.discard ? " (the cards left unmarked)" : ""}.`),
    h("ol", { class: "dealt" }, rows),
    h("p", { class: ok ? "note" : "hint", id: "build-status" }, ok ? `Ready: ${action()}` : problems.join("; ")),
    btn("Build the deck", { id: "build-go", class: "primary", disabled: !ok || S.gameBusy, onclick: () => act.act(action()) }));
}

// ---------------------------------------------------------------- a turn

function turnActions(S, act, v, info) {
  const legal = new Set(v.legal);
  const snap = v.table;
  const me = snap.players[v.viewer];
  const busy = S.gameBusy;
  const wrap = h("div", { class: "actions", id: "turn-actions" });
  const actor = `${who(v.viewer)}`;
  if (snap.step === "bet") wrap.append(h("p", { class: "note" }, "Your race action is done: take a bet, or end the turn."));
  if (snap.step === "race") wrap.append(h("p", { class: "note" }, "Your bet is taken: now your race action."));
  if (legal.has("reveal")) {
    const race = h("div", { class: "group", id: "race-actions" }, h("span", { class: "label" }, `${actor}'s race action:`),
      btn(`Reveal the top card (${snap.deck} left)`, { "data-action": "reveal", class: "primary", disabled: busy, onclick: () => act.act("reveal") }));
    if (legal.has("hand") && me.hand) {
      race.append(btn(`Play your hand card ${me.hand[0]}+${me.hand[1]} (${info.names[me.hand[0]]} moves 1)`, {
        "data-action": "hand", disabled: busy, onclick: () => act.act("hand"),
      }));
    }
    for (const name of ["palm", "fennec"]) {
      const spaces = v.legal.filter((a) => a.startsWith(`${name}:`)).map((a) => Number(a.slice(name.length + 1)));
      if (!spaces.length) continue;
      const sel = h("select", { id: `${name}-space`, "aria-label": `${name}: space` }, spaces.map((s) => h("option", { value: s }, `space ${s}`)));
      race.append(h("span", { class: "sub figure" }, sel,
        btn(name === "palm" ? "Palm (+1)" : "Fennec (−1)", { "data-action": name, disabled: busy, onclick: () => act.act(`${name}:${sel.value}`) })));
    }
    wrap.append(race);
  }
  const bets = v.legal.filter((a) => /^(leg|mid|winner|loser):/.test(a));
  if (bets.length) {
    const group = h("div", { class: "group", id: "bet-actions" },
      h("span", { class: "label" }, snap.step === "turn" ? `${actor}'s bet (optional; before or after the race action):` : `${actor}'s bet:`));
    const line = (kind, label, text) => {
      const colours = bets.filter((a) => a.startsWith(`${kind}:`)).map((a) => a.slice(kind.length + 1));
      if (!colours.length) return;
      group.append(h("span", { class: "sub betline" }, h("span", { class: "betlabel" }, label), colours.map((c) => btn(text(c), {
        class: "camelbtn small", "data-action": `${kind}:${c}`, disabled: busy,
        title: `${label} ${info.names[c]}`,
        style: `background:${info.colours[c]};color:${ink(c)}`,
        onclick: () => act.act(`${kind}:${c}`),
      }))));
    };
    line("leg", "leg winner", (c) => `${c} ${snap.legtiles[c][0]}`);
    line("mid", "midfield", (c) => c);
    line("winner", "overall winner", (c) => c);
    line("loser", "overall loser", (c) => c);
    if (me.winner || me.loser) group.append(h("p", { class: "note" }, "Taking another overall card of the same kind returns the one you hold."));
    wrap.append(group);
  }
  if (legal.has("pass")) {
    wrap.append(btn("End the turn without a bet", { "data-action": "pass", id: "pass", disabled: busy, onclick: () => act.act("pass") }));
  }
  return wrap;
}

// ---------------------------------------------------------------- the log

function logList(v, current, onpick) {
  if (!v.log.length) return "";
  const items = v.log.map((line, i) => h("li", {
    class: current === i + 1 ? "current" : "", "data-step": i + 1,
    onclick: onpick ? () => onpick(i + 1) : null, tabindex: onpick ? "0" : null,
  }, namePlayers(line))).reverse();
  return h("details", { class: "log", open: true }, h("summary", {}, `What happened (${v.log.length} action${v.log.length === 1 ? "" : "s"})`),
    h("ol", { reversed: true, id: "game-log" }, items));
}

// ---------------------------------------------------------------- review

function review(S, act, v, info) {
  const n = v.steps.length - 1;
  const k = stepIndex(S);
  const go = (i) => act.step(Math.max(0, Math.min(n, i)));
  const range = h("input", { type: "range", id: "step-range", min: 0, max: n, value: k, "aria-label": "step" });
  range.addEventListener("change", () => go(Number(range.value)));
  const snap = v.steps[k];
  const what = k === 0 ? "The set-up: the camels moved by five cards, the cards dealt." : namePlayers(v.log[k - 1]);
  const mover = snap.viewer === null ? "" : `${who(snap.viewer)} to move (${v.seats[snap.viewer]})${snap.position ? ": the advice is for their view" : ": deck building"}`;
  return h("div", { class: "review", id: "review" },
    h("p", { class: "lead" }, `${v.summary.order ? `${info.names[v.summary.winner_camel]} won the race, ${info.names[v.summary.loser_camel]} came last. ` : ""}`,
      h("b", {}, `${v.summary.winners.map((x) => who(x)).join(" and ")} win${v.summary.winners.length > 1 ? "" : "s"}`),
      ` with ${Math.max(...v.summary.money)} coins (money ${v.summary.money.join(", ")}).`),
    h("div", { class: "row wrap stepper" },
      btn("« start", { id: "step-first", title: "the set-up", disabled: k === 0, onclick: () => go(0) }),
      btn("◀", { id: "step-prev", title: "the step before", disabled: k === 0, onclick: () => go(k - 1) }),
      h("span", { id: "step-label" }, `step ${k} of ${n}`),
      btn("▶", { id: "step-next", title: "the next step", disabled: k === n, onclick: () => go(k + 1) }),
      btn("end »", { id: "step-last", title: "the end", disabled: k === n, onclick: () => go(n) }),
      range),
    h("p", { class: "steptext", id: "step-text" }, what),
    mover ? h("p", { class: "note", id: "step-mover" }, mover) : "",
    logList(v, k, go));
}

// ---------------------------------------------------------------- the table (left side)

export function cardsTablePanel(S, info) {
  const v = S.view;
  const snap = cardsSnapshot(S);
  const own = snap.viewer !== null && privateShown(S) ? snap.viewer : null;
  const rows = snap.players.map((p, i) => h("tr", { class: i === snap.current && !v.finished ? "to-move" : "" },
    h("td", {}, `${who(i)}`, h("small", {}, ` ${v.seats[i]}`), i === snap.current && snap.phase !== "over" ? " ◀" : ""),
    h("td", { class: "num" }, p.money),
    h("td", {}, p.leg.length ? p.leg.map((x) => chip(info, x[0], x)) : "–"),
    h("td", {}, p.mid ? [...p.mid].map((c) => chip(info, c, `m${c}`)) : "–"),
    h("td", {}, p.winner ? chip(info, p.winner, `w${p.winner}`) : "", p.loser ? chip(info, p.loser, `l${p.loser}`) : "", !p.winner && !p.loser ? "–" : ""),
    h("td", {}, p.figures.join(", ") || "–"),
    h("td", { class: "handcell" }, i === own && p.hand ? cardChip(info, p.hand) : p.building ? "building" : p.has_hand ? (i === own ? "" : "1 card") : "–")));
  const table = h("table", { class: "players", id: "cards-table" },
    h("thead", {}, h("tr", {}, ["player", "money", "leg cards", "midfield", "overall", "figure cards", "hand"].map((x) => h("th", {}, x)))),
    h("tbody", {}, rows));
  const mine = own === null ? null : snap.players[own];
  const line = (label, content, id) => h("div", { class: "row wrap", id }, h("b", {}, `${label}: `), content);
  const offer = (key) => [...info.racing].map((c) => h("span", { class: `chip${snap[key].includes(c) ? "" : " gone"}`, style: snap[key].includes(c) ? `background:${info.colours[c]};color:${ink(c)}` : "" }, c));
  return h("details", { open: true, class: "card", id: "cards-game-table" },
    h("summary", {}, h("h2", {}, v.finished ? `The table at step ${stepIndex(S)}` : "The table")),
    h("div", { class: "scroll" }, table),
    line("Race deck", h("span", {}, `${snap.deck} of ${snap.decksize} cards left`), "deck-line"),
    line("Shown", cardRow(info, snap.shown, snap.phase === "build" ? "turned up when the deck is shuffled" : "none")),
    line("Revealed", cardRow(info, snap.revealed)),
    line("Hand cards played", cardRow(info, snap.played)),
    mine && snap.phase === "build" ? line(`${who(own)}'s dealt cards`, cardRow(info, mine.dealt), "own-dealt") : "",
    mine && snap.phase !== "build" ? line(`${who(own)}'s cards in the deck`, cardRow(info, mine.down), "own-down") : "",
    mine && snap.phase !== "build" ? line(`${who(own)}'s discards`, cardRow(info, mine.discard)) : "",
    line("Leg-winner cards", [...info.racing].map((c) => chip(info, c, `${c} ${snap.legtiles[c].join(",") || "none"}`))),
    line("Midfield on offer", offer("mid")),
    line("Overall winner cards", offer("winners")),
    line("Overall loser cards", offer("losers")),
    h("p", { class: "note" }, own === null
      ? (v.finished ? "A review: at each step the table as the player to move saw it." : "Hidden: the hand cards and the cards each player put face down.")
      : `${who(own)}'s own cards are shown; the other players' hand cards and face-down cards are not.`));
}
