// The side panels: the players of a board game (money, tiles, cards,
// piles, partners: the game state of `camelup best GAME.json`) and the
// cards of Camel Up Cards (deck, known cards, hand, bets).  Every change is
// checked by the server before it is analysed.

import { chip, h } from "./results.js";
import { ink, namePlayers, playerCounts, who } from "./board.js";

function select(id, label, options, value, onchange) {
  const el = h("select", { id, "aria-label": label },
    options.map(([v, text]) => h("option", { value: String(v), selected: String(v) === String(value) }, text)));
  el.addEventListener("change", () => onchange(el.value));
  return el;
}

// A number field: every keystroke goes to the model at once (so a redraw
// never loses what is being typed); `commit` runs when the field is left.
function number(id, label, value, min, max, onchange, commit) {
  const el = h("input", { id, type: "number", inputmode: "numeric", min, max, value, "aria-label": label, class: "num" });
  el.addEventListener("input", () => {
    const v = Number(el.value);
    if (el.value !== "" && Number.isInteger(v)) onchange(v);
  });
  if (commit) el.addEventListener("change", commit);
  return el;
}

// keep the focus on the same control across a redraw
function keepFocus(build) {
  const id = document.activeElement?.id;
  const el = build();
  if (id) requestAnimationFrame(() => document.getElementById(id)?.focus());
  return el;
}

// ---------------------------------------------------------------- board games

export function renderPlayers(S, ctx) {
  return keepFocus(() => players(S, ctx));
}

function players(S, ctx) {
  const info = { ...S.info[S.game], colours: S.info.colours, names: S.info.names };
  const t = S.table;
  const changed = () => { ctx.changed(); ctx.render(); };
  const ps = (n) => Array.from({ length: n }, (_, i) => [i, `${who(i)}`]);
  const resize = (n) => {
    while (t.players.length < n) t.players.push({ money: info.start_money, leg_tiles: [], pyramid_tiles: 0, overall_cards: null, partner: null });
    t.players.length = n;
    t.n = n;
    t.to_move = Math.min(t.to_move, n - 1);
    t.advised = Math.min(t.advised, n - 1);
    for (const p of t.players) if (p.partner !== null && p.partner >= n) p.partner = null;
    t.winner_pile = t.winner_pile.filter((c) => c.player < n);
    t.loser_pile = t.loser_pile.filter((c) => c.player < n);
    changed();
  };
  const head = h("div", { class: "row wrap" },
    h("label", {}, "Players ", select("players-n", "number of players",
      playerCounts(info).map((n) => [n, n]), t.n, (v) => resize(Number(v)))),
    h("label", {}, "Advice for ", select("advised", "advised player", ps(t.n), t.advised, (v) => { t.advised = Number(v); changed(); })),
    h("label", {}, "To move ", select("to-move", "player to move", ps(t.n), t.to_move, (v) => { t.to_move = Number(v); changed(); })),
    h("label", {}, "Names ", namesInput(t, ctx)));
  const hands = S.tableInfo?.hands ?? [];
  const free = S.tableInfo?.free_leg_tiles ?? [];
  const partners = info.partnership_players !== null && t.n >= info.partnership_players;
  const rows = t.players.map((p, i) => {
    const hand = hands[i] ?? (p.overall_cards ?? info.racing);
    const held = p.leg_tiles.map((tile, k) => h("button", {
      type: "button", class: "chip removable", style: `background:${info.colours[tile[0]]};color:${ink(tile[0])}`,
      title: "click to give it back", "aria-label": `${who(i)} holds ${tile}; remove`,
      onclick: () => { p.leg_tiles.splice(k, 1); changed(); },
    }, tile));
    const add = free.length ? select(`add-tile-${i}`, `give ${who(i)} a leg tile`, [["", "+ tile"], ...free.map((x) => [x, x])], "", (v) => {
      if (v) { p.leg_tiles.push(v); changed(); }
    }) : null;
    const cards = [...info.racing].map((c) => {
      const has = hand.includes(c);
      return h("button", {
        type: "button", class: `cardtoggle${has ? " on" : ""}`, "aria-pressed": String(has),
        style: has ? `background:${info.colours[c]};color:${ink(c)}` : null,
        title: has ? `${who(i)} still holds the ${info.names[c]} overall card` : `${who(i)} no longer holds the ${info.names[c]} card`,
        onclick: () => { p.overall_cards = has ? hand.replace(c, "") : [...info.racing].filter((x) => hand.includes(x) || x === c).join(""); changed(); },
      }, c);
    });
    return h("tr", { class: i === t.advised ? "advised" : "" },
      h("th", {}, `${who(i)}`, i === t.to_move ? h("small", {}, " to move") : ""),
      h("td", {}, number(`money-${i}`, `${who(i)} money`, p.money, info.money_floor, 999, (v) => { p.money = v; ctx.changed(); })),
      h("td", { class: "held" }, held, add),
      h("td", {}, number(`pyr-${i}`, `${who(i)} pyramid tiles`, p.pyramid_tiles, 0, info.rolls_per_leg, (v) => { p.pyramid_tiles = v; ctx.changed(); })),
      h("td", { class: "hand" }, cards),
      partners ? h("td", {}, select(`partner-${i}`, `${who(i)} partner`, [["", "–"], ...Array.from({ length: t.n }, (_, q) => [q, `${who(q)}`]).filter(([q]) => q !== i)],
        p.partner ?? "", (v) => {
          const q = v === "" ? null : Number(v);
          if (p.partner !== null) t.players[p.partner].partner = null;
          p.partner = q;
          if (q !== null) t.players[q].partner = i;
          changed();
        })) : null);
  });
  const table = h("table", { class: "players" },
    h("thead", {}, h("tr", {}, ["", "money", "leg tiles held", "pyramid tiles", "overall cards in hand", partners ? "partner" : null].filter((x) => x !== null).map((x) => h("th", {}, x)))),
    h("tbody", {}, rows));
  const pile = (name, key) => {
    const cards = t[key];
    const list = cards.map((c, k) => h("button", {
      type: "button", class: "pilecard removable", title: "click to take it back",
      style: c.colour ? `border-color:${info.colours[c.colour]}` : null,
      onclick: () => { cards.splice(k, 1); changed(); },
    }, `${k + 1}. ${who(c.player)} `, c.colour ? chip(info, c.colour) : "▮ face down"));
    // the choice being made survives redraws
    S.pileAdd ??= {};
    const choice = (S.pileAdd[key] ??= { who: null, colour: "" });
    const whoValue = choice.who !== null && choice.who < t.n ? choice.who : t.advised;
    const whoSelect = select(`${key}-who`, `${name}: whose card`, ps(t.n), whoValue, (v) => { choice.who = Number(v); });
    const colour = select(`${key}-colour`, `${name}: colour`, [["", "face down"], ...[...info.racing].map((c) => [c, info.names[c]])],
      choice.colour, (v) => { choice.colour = v; });
    const addBtn = h("button", {
      type: "button", onclick: () => {
        const player = Number(whoSelect.value);
        cards.push(colour.value ? { player, colour: colour.value } : { player });
        choice.colour = "";
        changed();
      },
    }, "add");
    return h("div", { class: "pile" }, h("b", {}, `${name}: `), list.length ? list : h("span", { class: "note" }, "empty "),
      h("span", { class: "adder" }, whoSelect, colour, addBtn));
  };
  return h("details", { open: true, class: "card", id: "players-panel" },
    h("summary", {}, h("h2", {}, "Players, money and bets")),
    head,
    h("div", { class: "scroll" }, table),
    pile("Winner pile", "winner_pile"),
    pile("Loser pile", "loser_pile"),
    h("p", { class: "note" }, "Other players' overall cards go face down, as on the table; give the colours of the advised player's own."),
    S.tableError ? h("p", { class: "error", role: "alert", id: "players-error" }, S.tableError) : null,
    h("button", { type: "button", class: "link", onclick: () => { Object.assign(t, defaultPlayers(S, t.n)); changed(); } }, "reset the players"));
}

// the players' names, as typed (comma-separated; an empty one stays Pn)
function namesInput(t, ctx) {
  const el = h("input", {
    id: "player-names", type: "text", "aria-label": "players' names, comma-separated", autocomplete: "off",
    placeholder: Array.from({ length: t.n }, (_, i) => `P${i + 1}`).join(", "), value: (t.names ?? []).join(", "),
  });
  el.addEventListener("change", () => {
    const names = el.value.split(",").map((x) => x.trim().slice(0, 24));
    t.names = names.some((x) => x) ? names : [];
    ctx.named?.();
    ctx.render();
  });
  return el;
}

function defaultPlayers(S, n) {
  return {
    players: Array.from({ length: n }, () => ({ money: S.info[S.game].start_money, leg_tiles: [], pyramid_tiles: 0, overall_cards: null, partner: null })),
    winner_pile: [], loser_pile: [], to_move: 0, advised: 0,
  };
}

// ---------------------------------------------------------------- Camel Up Cards

// every kind of racing card: each camel's card values (the server's rules)
const cardKinds = (info) => [...info.racing].flatMap((c) => info.card_values.map((v) => `${c}${v}`));

function cardList(text) {
  return text ? text.match(/../g) : [];
}

export function renderCardsPanel(S, ctx) {
  return keepFocus(() => cardsPanel(S, ctx));
}

function cardsPanel(S, ctx) {
  const info = { ...S.info.cards, colours: S.info.colours, names: S.info.names };
  const d = S.draft;
  const commit = () => ctx.commit();
  const cardChip = (card, onclick, label) => h("button", {
    type: "button", class: "chip removable", onclick, "aria-label": label,
    style: `background:${info.colours[card[0]]};color:${ink(card[0])}`,
  }, `${card[0]}+${card[1]}`);
  const list = (key, name, help) => {
    const cards = cardList(d[key] ?? "");
    const add = select(`add-${key}`, `add a card to ${name}`, [["", "+ card"], ...cardKinds(info).map((k) => [k, `${k[0]} +${k[1]}`])], "", (v) => {
      if (v) { d[key] = (d[key] ?? "") + v; commit(); }
    });
    return h("div", { class: "row wrap" }, h("b", { title: help }, `${name}: `),
      cards.map((c, k) => cardChip(c, () => { const a = cardList(d[key]); a.splice(k, 1); d[key] = a.join(""); commit(); }, `${name} ${c}; remove`)),
      cards.length ? "" : h("span", { class: "note" }, "none "), add);
  };
  const track = h("div", { class: "row wrap" }, h("b", {}, "Track cards: "),
    [...d.track].map((kind, k) => h("button", {
      type: "button", class: "trackcard", title: "click: normal (2 spaces) / sandstorm (1 space) / half covered (last card)",
      onclick: () => {
        const cycle = k === d.track.length - 1 ? { n: "s", s: "h", h: "n" } : { n: "s", s: "n", h: "n" };
        d.track = d.track.slice(0, k) + cycle[kind] + d.track.slice(k + 1);
        commit();
      },
    }, kind === "n" ? "2" : kind === "s" ? "1 sand" : "½")),
    h("button", { type: "button", onclick: () => { d.track = d.track.replace(/h$/, "n") + "n"; commit(); } }, "+ card"),
    h("button", { type: "button", onclick: () => { d.track = d.track.slice(0, -1); commit(); } }, "− card"));
  const stacks = h("div", { class: "row wrap" }, h("b", {}, "Leg-winner cards left: "),
    [...info.racing].map((c) => {
      const left = d.legtiles[c] ?? [];
      return h("button", {
        type: "button", class: "chip", title: "click to take the top card",
        style: left.length ? `background:${info.colours[c]};color:${ink(c)}` : "opacity:.5",
        onclick: () => { d.legtiles[c] = left.length ? left.slice(1) : [...info.leg_stack]; commit(); },
      }, `${c} ${left.length ? left.join(",") : "none"}`);
    }));
  const toggles = (key, name) => h("div", { class: "row wrap" }, h("b", {}, `${name}: `),
    [...info.racing].map((c) => {
      const on = (d[key] ?? "").includes(c);
      return h("button", {
        type: "button", class: `cardtoggle${on ? " on" : ""}`, "aria-pressed": String(on),
        style: on ? `background:${info.colours[c]};color:${ink(c)}` : null,
        onclick: () => { d[key] = on ? d[key].replace(c, "") : d[key] + c; commit(); },
      }, c);
    }));
  const bets = h("div", { class: "row wrap" }, h("b", {}, "Your bets: "),
    (d.bets ?? []).map((b, k) => h("button", {
      type: "button", class: "chip removable", onclick: () => { d.bets.splice(k, 1); commit(); },
    }, b)),
    select("add-bet", "add a bet you hold", [["", "+ bet"],
      ...[...info.racing].flatMap((c) => [...[...new Set(info.leg_stack)].map((v, k) => [`${c}${v}`, k ? `${c} ${v}` : `${c} ${v} leg winner`]), [`m${c}`, `${c} midfield`], [`w${c}`, `${c} overall winner`], [`l${c}`, `${c} overall loser`]])],
    "", (v) => { if (v) { d.bets = [...(d.bets ?? []), v]; commit(); } }));
  return h("details", { open: true, class: "card", id: "cards-panel" },
    h("summary", {}, h("h2", {}, "Cards, deck and bets")),
    h("div", { class: "row wrap" },
      h("label", {}, "Players ", select("cards-players", "players", playerCounts(info).map((n) => [n, n]), d.players, (v) => {
        d.players = Number(v); d.track = info.default_track[v]; d.decksize = info.default_deck[v]; d.deck = Math.min(d.deck, d.decksize); commit();
      })),
      h("label", {}, "Your money ", number("cards-money", "your money", d.money, info.money_floor, 999, (v) => { d.money = v; }, commit)),
      h("label", {}, "Race deck: ", number("cards-deck", "cards left in the race deck", d.deck, 1, info.deck_sizes[1], (v) => { d.deck = v; }, commit),
        " left of ", number("cards-decksize", "cards per leg's deck", d.decksize, ...info.deck_sizes, (v) => { d.decksize = v; }, commit))),
    track,
    list("known", "Known in the deck", "your own cards put in and the publicly shown ones"),
    list("revealed", "Revealed this leg", "the revealed pile"),
    list("out", "Seen elsewhere", "cards known not to be in the deck"),
    h("div", { class: "row wrap" }, h("b", {}, "Your hand card: "),
      select("cards-hand", "your hand card", [["", "none"], ...cardKinds(info).map((k) => [k, `${k[0]} +${k[1]}`])], d.hand ?? "", (v) => { d.hand = v || null; commit(); })),
    stacks,
    toggles("mid", "Midfield cards on offer"),
    toggles("winners", "Overall winner cards on the table"),
    toggles("losers", "Overall loser cards on the table"),
    bets,
    h("p", { class: "note" }, "You are P1. The deck's unknown cards are drawn from the cards you have not seen."));
}
