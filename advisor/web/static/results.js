// Results: the leg table, the race odds and the ranked actions, drawn from
// the JSON of the API (the same as `camelup odds --json` / `best --json`).

import { pct, textColour, who } from "./board.js";

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "html") el.innerHTML = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function chip(info, camel, text) {
  return h("span", { class: "chip", style: `background:${info.colours[camel]};color:${textColour(camel)}` }, ...[text ?? camel].flat());
}

const signed = (x, d = 2) => (x === null || x === undefined ? "…" : `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(d)}`);

// ---------------------------------------------------------------- words

export function actionWords(action, info, game, row = {}) {
  const name = (c) => info.names[c] ?? c;
  const tileNames = info.tile_names; // the edition's names of a tile's + and - sides
  if (game === "cards") return cardsWords(action, name);
  const [kind, arg] = action.split(":");
  switch (kind) {
    case "leg": return `Take the ${name(arg)} leg tile${row.value ? ` (${row.value})` : ""}`;
    case "pyramid": return "Roll: take a pyramid tile";
    case "tile": return `${arg[0] === "+" ? tileNames[0] : tileNames[1]} tile (${arg[0] === "+" ? "+" : "−"}) on space ${arg.slice(1)}`.replace(/^./, (c) => c.toUpperCase());
    case "winner": return `Bet ${name(arg)} wins the race (overall card)`;
    case "loser": return `Bet ${name(arg)} comes last (overall card)`;
    case "partner": return `Partnership with ${who(Number(arg))}`;
    default: return action;
  }
}

function cardsWords(action, name) {
  const part = (p) => {
    const [kind, arg] = p.split(":");
    switch (kind) {
      case "reveal": return "reveal the top race card";
      case "best": return "take the best bet for the card seen (if any is worth it)";
      case "hand": return "play your hand card";
      case "palm": return `put the palm on ${arg}`;
      case "fennec": return `put the fennec on ${arg}`;
      case "leg": return `take the ${name(arg)} leg-winner card`;
      case "mid": return `take the ${name(arg)} midfield card`;
      case "winner": return `take the ${name(arg)} overall winner card`;
      case "loser": return `take the ${name(arg)} overall loser card`;
      case "pass": return "end the turn without a bet";
      default: return p;
    }
  };
  const text = action.split("+").map(part).join(", then ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function actionColour(action, info) {
  const m = action.match(/(?:leg|winner|loser|mid):([A-Z])/);
  return m ? info.colours[m[1]] : action.startsWith("tile:+") || action.startsWith("palm") ? "#2e7d32"
    : action.startsWith("tile:-") || action.startsWith("fennec") ? "#c62828" : "#9e9e9e";
}

// ---------------------------------------------------------------- leg

export function legTable(odds, info, extra = {}) {
  const camels = Object.keys(odds.leg).sort((a, b) => odds.leg[b].rank[0] - odds.leg[a].rank[0]
    || odds.leg[b].rank[1] - odds.leg[a].rank[1]);
  const head = h("tr", {}, h("th", {}, "camel"), ["1st", "2nd", "3rd", "4th", "5th"].map((r) => h("th", {}, r)));
  const rows = camels.map((c) => h("tr", { "data-camel-row": c },
    h("td", {}, chip(info, c, [c, h("span", { class: "cname" }, ` ${info.names[c] ?? ""}`)])),
    odds.leg[c].rank.map((p, k) => h("td", {
      class: "num", "data-p": p,
      style: `background: rgba(${k === 0 ? "46,125,50" : k === 4 ? "198,40,40" : "120,120,120"}, ${(0.08 + 0.6 * p).toFixed(3)})`,
    }, pct(p, 1)))));
  const note = [];
  if (odds.leg_samples) note.push(`sampled from ${odds.leg_samples.toLocaleString()} legs`);
  else note.push("exact: every remaining die order and face counted");
  if (extra.race_ends !== undefined) note.push(`P(the race ends during this leg) ${pct(extra.race_ends, 1)}`);
  if (odds.race_ends_this_leg !== undefined) note.push(`P(the race ends during this leg) ${pct(odds.race_ends_this_leg, 1)}`);
  if (extra.landings && Object.keys(extra.landings).length) {
    note.push("expected landings on the tiles: " + Object.entries(extra.landings).map(([s, v]) => `space ${s}: ${v.toFixed(2)}`).join(", "));
  }
  return h("div", {},
    h("table", { class: "odds leg-table", id: "leg-table" }, h("thead", {}, head), h("tbody", {}, rows)),
    h("p", { class: "note" }, note.join(" · ")));
}

// ---------------------------------------------------------------- race

export function raceTable(odds, info) {
  const camels = Object.keys(odds.race).sort((a, b) => odds.race[b].win - odds.race[a].win);
  const half = (se) => (se ? ` ±${(196 * se).toFixed(1)}` : "");
  const rows = camels.map((c) => {
    const r = odds.race[c];
    const ranks = r.rank ?? null;
    return h("tr", {},
      h("td", {}, chip(info, c, [c, h("span", { class: "cname" }, ` ${info.names[c] ?? ""}`)])),
      h("td", { class: "num win" }, h("span", { class: "bar", style: `width:${(100 * r.win).toFixed(1)}%` }), h("b", {}, pct(r.win, 1)), h("small", {}, half(r.win_se))),
      h("td", { class: "num lose" }, h("span", { class: "bar", style: `width:${(100 * r.lose).toFixed(1)}%` }), h("b", {}, pct(r.lose, 1)), h("small", {}, half(r.lose_se))),
      ranks ? h("td", { class: "ranks" }, rankStrip(ranks, info, c)) : null);
  });
  const hasRanks = camels.length && odds.race[camels[0]].rank;
  const note = [];
  if (odds.race_samples) note.push(`${odds.race_samples.toLocaleString()} simulated races (seed ${odds.seed}); ± is the 95% interval in points`);
  else note.push("exact: the race must end within this leg or the next");
  if (odds.race_legs) {
    const legs = odds.race_legs.map((p, k) => [k, p]).filter(([, p]) => p >= 0.005)
      .map(([k, p]) => `${k === 0 ? "this leg" : k === 1 ? "next leg" : `${k} legs later`} ${pct(p)}`);
    note.push(`the race ends: ${legs.join(", ")}`);
  }
  return h("div", {},
    h("table", { class: "odds race-table" },
      h("thead", {}, h("tr", {}, h("th", {}, "camel"), h("th", {}, "wins the race"), h("th", {}, "comes last"),
        hasRanks ? h("th", {}, "final place 1st → 5th") : null)),
      h("tbody", {}, rows)),
    h("p", { class: "note" }, note.join(" · ")));
}

function rankStrip(ranks, info, c) {
  return h("span", { class: "strip", title: ranks.map((p, k) => `${k + 1}: ${pct(p, 1)}`).join("  ") },
    ranks.map((p, k) => h("span", { class: "seg", style: `height:${Math.max(2, 26 * p).toFixed(1)}px;background:${info.colours[c]}` }, "")));
}

// ---------------------------------------------------------------- advice

function details(row, game) {
  const out = [];
  const f = (k, label, fmt = (x) => x.toFixed(3)) => {
    if (row[k] !== undefined && row[k] !== null) out.push(`${label} ${fmt(row[k])}`);
  };
  if (game === "cards") {
    if (row.timing) out.push(`bet ${row.timing === "before" ? "before the reveal" : row.timing === "after" ? "after seeing the card" : "before or after"}`);
    return out.join(" · ");
  }
  f("win", "chance of winning the game", (x) => pct(x, 1));
  f("p_first", "P(1st)", (x) => pct(x, 1));
  f("p_second", "P(2nd)", (x) => pct(x, 1));
  if (row.kind === "loser") f("p_rest", "P(last)", (x) => pct(x, 1));
  else f("p_rest", "P(3rd–5th)", (x) => pct(x, 1));
  f("pile_place", "card #", (x) => String(x));
  f("landings", "expected landings");
  f("bets_change", "change of your leg tiles");
  f("overall_change", "change of your overall cards");
  f("sd", "sd");
  f("p_loss", "P(loss)", (x) => pct(x, 1));
  if (row.denial !== null && row.denial !== undefined) f("denial", "denial", (x) => signed(x, 3));
  if (row.floor && Math.abs(row.floor) > 1e-9) f("floor", "money floor", (x) => signed(x, 3));
  return out.join(" · ");
}

// The ranked actions.  `order` (the actions in the order first shown for
// this position) keeps rows where they are while later stages arrive: a row
// whose rank changed is marked, never moved, until the user sorts again
// (`onResort`); `open` (a Set of actions) keeps the rows the user opened open.
// When the advice gives each option's chance of winning the game (`win`,
// the options ranked by it), it stands beside the EV.
export function adviceList(best, info, game, { pending = false, limit = 12, expanded = false, onToggle, order = null,
  firstRank = null, open = null, onResort = null } = {}) {
  const moves = best.moves;
  const withWin = moves.some((m) => typeof m.win === "number");
  const top = Math.max(1e-9, ...moves.map((m) => Math.abs(m.ev)));
  const rank = new Map(moves.map((m, i) => [m.action, i]));
  const byAction = new Map(moves.map((m) => [m.action, m]));
  const ordered = order ? [...order.filter((a) => byAction.has(a)), ...moves.map((m) => m.action).filter((a) => !order.includes(a))]
    .map((a) => byAction.get(a)) : moves;
  const shown = expanded ? ordered : ordered.filter((m, i) => i < limit || rank.get(m.action) < limit);
  let moved = 0;
  const list = h("ol", { class: `advice${withWin ? " with-win" : ""}`, id: "advice-list" }, shown.map((m) => {
    const w = (48 * Math.abs(m.ev)) / top;
    const k = rank.get(m.action);
    const was = firstRank?.get(m.action);
    const mark = was === undefined ? (firstRank ? "new" : "") : was === k ? "" : k < was ? "↑" : "↓";
    if (mark) moved += 1;
    const box = h("details", { open: open?.has(m.action) ?? false },
      h("summary", {},
        h("span", { class: "rank" }, k + 1, mark ? h("span", {
          class: "moved", title: was === undefined ? `valued by a later stage: now #${k + 1}` : `rank changed as the later stages came in: #${was + 1} → #${k + 1}`,
        }, mark === "new" ? "•" : mark) : ""),
        h("span", { class: "swatch", style: `background:${actionColour(m.action, info)}` }),
        h("span", { class: "what" }, actionWords(m.action, info, game, m)),
        withWin ? winCell(m.win, m.win_se) : null,
        h("span", { class: "evbar" },
          h("span", { class: m.ev >= 0 ? "pos" : "neg", style: `width:${w.toFixed(1)}%;${m.ev >= 0 ? "left:50%" : `right:50%`}` })),
        h("span", { class: "ev" }, signed(m.ev))),
      h("div", { class: "why" }, h("code", {}, m.action), " ", details(m, game) || "no further figures"));
    if (open) box.addEventListener("toggle", () => { if (box.open) open.add(m.action); else open.delete(m.action); });
    return h("li", { class: `${k === 0 ? "best" : ""}${mark ? " moved-row" : ""}`, "data-action": m.action, "data-rank": k + 1 }, box);
  }));
  const parts = [list];
  if (withWin) {
    parts.unshift(h("div", { class: "advice-head" },
      h("span", { class: "what" }, "option"), h("span", { class: "win" }, "win"), h("span", { class: "evhead" }, "EV", h("span", { class: "unit" }, " (coins)"))));
  }
  if (moved && onResort) {
    parts.unshift(h("p", { class: "note", id: "ranks-changed" }, `${moved} rank${moved > 1 ? "s" : ""} changed as the later stages came in (marked ↑ ↓ •); the rows stay where they are. `,
      h("button", { class: "link", type: "button", id: "resort", onclick: onResort }, "sort best first")));
  }
  if (moves.length > limit) {
    parts.push(h("button", { class: "link", type: "button", onclick: onToggle },
      expanded ? "show fewer" : `show all ${moves.length} actions`));
  }
  if (pending) parts.push(h("p", { class: "note pending" }, "Overall winner/loser cards and the denial column follow once the race odds are ready…"));
  if (withWin) parts.push(h("p", { class: "note", id: "win-note" }, game === "cards" ? CARDS_WIN_NOTE : WIN_NOTE));
  return h("div", {}, parts);
}

// What the chance of winning is (the command line's words for its win column;
// advisor.valuation.winchance and benchmarks/calibration.py for the model).
export const WIN_NOTE = "Win: your chance of winning the game after the option, a model's estimate from every player's "
  + "expected wealth and the legs left (a first place shared by k players counts 1/k); the model is fitted on "
  + "simulated games and its calibration checked on held-out ones.";

// Camel Up Cards' chance of winning (the command line's words; advisor.cards.endgame).
export const CARDS_WIN_NOTE = "Win: your chance of winning the game after the option: each way the leg can end "
  + "settles every player's bets; a race over is won by the most money (a first place shared by k players counts "
  + "1/k), a race that goes on by the chance that your money ends the largest, the legs to come moving every "
  + "player's money by a normal change; its calibration is measured on held-out games.";

// A chance of winning: its figure (one decimal, as the command line's table)
// over a bar of its length out of 100%; the figure carries it, the bar adds
// no colour code.  The tooltip adds its standard error (se, when given: the
// sampling error of the race odds it reads, advisor.valuation.winerror).
function winCell(p, se) {
  if (typeof p !== "number") return h("span", { class: "win" }, "");
  const error = typeof se === "number"
    ? ` ± ${(100 * se).toFixed(2)} points (standard error from the sampled race odds; 0: exact; not the model's own error)`
    : "";
  return h("span", { class: "win", title: `chance of winning the game after it: ${pct(p, 1)}${error}` },
    h("span", { class: "winbar", style: `width:${(100 * p).toFixed(1)}%` }), h("b", {}, pct(p, 1)));
}

// The tile landing heat map: {space: expected landings} for one side.
export function tileHeat(best, sign) {
  const out = {};
  for (const m of best?.moves ?? []) {
    const match = m.action.match(/^tile:([+-])(\d+)$/);
    if (match && match[1] === sign && m.landings !== null && m.landings !== undefined) out[Number(match[2])] = m.landings;
  }
  return out;
}

// Camel Up Cards: the EV of placing the palm / fennec on each space.
export function figureHeat(best, name) {
  const out = {};
  for (const m of best?.moves ?? []) {
    const match = m.action.match(/^(palm|fennec):(\d+)$/);
    if (match && match[1] === name) out[Number(match[2])] = m.ev;
  }
  return out;
}

export { signed };
