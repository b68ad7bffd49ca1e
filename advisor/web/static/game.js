// Game mode: record what happens at the table, turn by turn.  The buttons
// offer exactly the legal actions the server lists; the server moves the
// camels, pays the tiles, scores the legs and keeps the record.

import { chip, h } from "./results.js";
import { ink, namePlayers, playerCounts, who } from "./board.js";

function btn(label, attrs = {}) {
  return h("button", { type: "button", ...attrs }, label);
}

export function renderGame(S, act) {
  const info = { ...S.info[S.game], colours: S.info.colours, names: S.info.names };
  const box = h("div", { class: "game", id: "game-panel" });
  if (S.gameError) box.append(h("p", { class: "error", role: "alert", id: "game-error" }, S.gameError));
  if (S.game === "cards") return box;
  if (!S.view) {
    box.append(newGameForm(S, act, info));
    return box;
  }
  const v = S.view;
  const legal = new Set(v.legal);
  const head = h("div", { class: "game-head" },
    h("p", { class: "turn" }, v.finished ? `${v.legs} legs · ${v.turns} turns · ` : `Leg ${v.legs} · turn ${v.turns + 1} · `,
      v.finished ? h("b", {}, "the race is over") : h("b", { id: "to-move" }, `${who(v.to_move)} to move`)),
    h("div", { class: "row wrap" },
      btn("Undo", { id: "undo", disabled: v.turns === 0 || S.gameBusy, onclick: () => act.undo(), title: "take back the last turn" }),
      btn("Save the game", { id: "save-game", onclick: () => act.save(), title: "download the game record (JSON lines)" }),
      h("label", { class: "filebutton" }, "Open a game…",
        fileInput((file) => act.load(file))),
      btn("New game", { onclick: () => act.close() })),
    meChoice(S, v, act));
  box.append(head);
  if (v.games && v.games.length > 1) {
    box.append(h("label", {}, "Game of the file: ", (() => {
      const sel = h("select", { id: "pick-game" }, v.games.map((g) => h("option", { value: g.index, selected: g.index === v.index },
        `#${g.index}: ${g.players} players, ${g.turns} turns${g.winner_camel ? `, ${g.winner_camel} won` : ""}${g.bots ? ` (${g.bots.join(", ")})` : ""}`)));
      sel.addEventListener("change", () => act.pick(Number(sel.value)));
      return sel;
    })()));
  }
  if (v.reveal_needed) box.append(revealForm(v, info, act, S.gameBusy));
  else if (!v.finished) box.append(actionsFor(v, legal, info, act, S.gameBusy, S.me));
  if (!v.reveal_needed && v.hidden_cards?.length) {
    box.append(h("p", { class: "hint", id: "face-down-note" },
      `Face down, colour not seen: ${v.hidden_cards.map((c) => `${who(c.player)} on the ${c.pile} pile`).join(", ")}. `
      + "They are valued by the race odds until the race ends; then the page asks for their colours."));
  }
  if (v.log.length) {
    const items = v.log.map((line, i) => h("li", {}, namePlayers(line))).reverse();
    box.append(h("details", { class: "log", open: true }, h("summary", {}, `What happened (${v.log.length} turns)`),
      h("ol", { reversed: true, id: "game-log" }, items)));
  }
  return box;
}

// Which seat is the user's: their own overall cards are entered by colour
// (and kept in this browser); the others' go face down unseen.
function meChoice(S, v, act) {
  const me = S.me !== null && S.me < v.players ? S.me : null;
  const sel = h("select", { id: "me-seat", "aria-label": "your seat" },
    h("option", { value: "", selected: me === null }, "my seat: not said"),
    Array.from({ length: v.players }, (_, p) => h("option", { value: p, selected: me === p }, `my seat: ${who(p)}`)));
  sel.addEventListener("change", () => act.setMe(sel.value === "" ? null : Number(sel.value)));
  return h("div", { class: "row wrap" }, sel,
    h("span", { class: "hint" }, me === null ? "say which seat is yours: your overall cards are then entered by colour, the others' face down"
      : `your overall cards are entered by colour; the others' go face down unseen`));
}

function fileInput(onfile) {
  const input = h("input", { type: "file", accept: ".jsonl,.json,.txt,application/json", id: "load-game" });
  input.addEventListener("change", () => { if (input.files[0]) onfile(input.files[0]); input.value = ""; });
  return input;
}

function newGameForm(S, act, info) {
  // the choices live in the page state, so a re-render while the user picks keeps them
  const form = (S.newGameForm ??= { players: null, start: "" });
  const players = Math.min(info.max_players, Math.max(info.min_players, form.players ?? S.table?.n ?? 4));
  const n = h("select", { id: "game-players", "aria-label": "players", onchange: (e) => { form.players = Number(e.target.value); } },
    playerCounts(info).map((p) => h("option", { value: p, selected: p === players }, `${p} players`)));
  const start = h("select", { id: "game-start", "aria-label": "first player", onchange: (e) => { form.start = e.target.value; } },
    h("option", { value: "", selected: form.start === "" }, "first player: drawn"),
    Array.from({ length: info.max_players }, (_, p) => h("option", { value: p, selected: form.start === String(p) }, `first player: ${who(p)}`)));
  const opts = () => ({ players: Number(n.value), ...(start.value === "" ? {} : { start: Number(start.value) }) });
  const busy = S.gameBusy;
  return h("div", { class: "newgame", "aria-busy": String(busy) },
    h("h2", {}, "Follow a game at the table"),
    h("p", {}, "Start from a set-up by the rules (drawn here) or from the board as you set it up on the left, then record every turn: who took which tile, which die came out of the pyramid and what it showed."),
    h("div", { class: "row wrap" }, n, start),
    h("div", { class: "row wrap" },
      btn("Set up by the rules", { id: "new-random", class: "primary", disabled: busy, onclick: () => act.newGame(opts()) }),
      btn("Start from the board on the left", { id: "new-from-board", class: "primary", disabled: busy, onclick: () => act.newGame({ ...opts(), board: S.pos.board }) }),
      h("label", { class: "filebutton" }, "Open a saved game…", fileInput((file) => act.load(file)))),
    startingNote(busy));
}

// While a new game is being set up (on a first start the server may still
// be preparing the game's engine): the buttons wait and a line says so.
export function startingNote(busy) {
  return busy ? h("p", { class: "starting", id: "game-starting", role: "status" },
    "Setting up the game… (the first game after the server starts waits until its engine is prepared)") : null;
}

function actionsFor(v, legal, info, act, busy, me = null) {
  // the user's own seat places cards by colour; another's card goes face down unseen
  const mine = me === null || me >= v.players ? null : me === v.to_move;
  const wrap = h("div", { class: "actions" });
  const actor = `${who(v.to_move)}`;
  // leg tiles
  const legs = [...info.racing].filter((c) => legal.has(`leg:${c}`));
  const top = Object.fromEntries([...info.racing].map((c) => [c, v.position.legtiles[c]?.[0]]));
  if (legs.length) {
    wrap.append(h("div", { class: "group" }, h("span", { class: "label" }, `${actor} took a leg tile:`),
      legs.map((c) => btn(`${c} ${top[c]}`, {
        class: "camelbtn", "data-action": `leg:${c}`, disabled: busy,
        style: `background:${info.colours[c]};color:${ink(c)}`,
        onclick: () => act.act(`leg:${c}`),
      }))));
  }
  // the pyramid: which die came out and what it showed
  if (legal.has("pyramid")) {
    const dice = [...v.position.dice];
    const rows = dice.map((d) => {
      const grey = d === "x";
      const faces = grey ? [["white", 1], ["white", 2], ["white", 3], ["black", 1], ["black", 2], ["black", 3]] : [[null, 1], [null, 2], [null, 3]];
      return h("div", { class: "dierow" },
        h("span", { class: "die", style: `background:${grey ? "#9e9e9e" : info.colours[d]};color:${grey ? "#fff" : ink(d)}` }, grey ? "grey" : d),
        faces.map(([colour, value]) => btn(colour ? `${colour === "white" ? "W" : "B"}${value}` : String(value), {
          class: `face${colour ? ` ${colour}` : ""}`, disabled: busy, "data-roll": `${d}${value}${colour ? colour[0] : ""}`,
          title: colour ? `the grey die showed ${colour} ${value}` : `${info.names[d]} die showed ${value}`,
          onclick: () => act.act("pyramid", colour ? { die: d, value, colour } : { die: d, value }),
        })));
    });
    wrap.append(h("div", { class: "group" }, h("span", { class: "label" }, `${actor} rolled: which die came out, what did it show?`),
      h("div", { class: "dice" }, rows),
      btn("roll for me (random)", { class: "link", disabled: busy, onclick: () => act.act("pyramid", null, true) })));
  }
  // tiles
  const tiles = v.legal.filter((a) => a.startsWith("tile:"));
  if (tiles.length) {
    const spaces = [...new Set(tiles.map((a) => Number(a.slice(6))))];
    const sel = h("select", { id: "tile-space", "aria-label": "space" }, spaces.map((s) => h("option", { value: s }, `space ${s}`)));
    const names = info.tile_names;
    wrap.append(h("div", { class: "group" }, h("span", { class: "label" }, `${actor} put their tile on`), sel,
      btn(`+ ${names[0]}`, { disabled: busy, onclick: () => act.act(`tile:+${sel.value}`) }),
      btn(`− ${names[1]}`, { disabled: busy, onclick: () => act.act(`tile:-${sel.value}`) })));
  }
  // overall cards
  const cards = v.legal.filter((a) => a.startsWith("winner:") || a.startsWith("loser:"));
  if (cards.length && mine !== false) {
    const pile = (name, label) => {
      const colours = v.legal.filter((a) => a.startsWith(`${name}:`)).map((a) => a.slice(name.length + 1));
      return h("span", { class: "sub" }, label, colours.map((c) => btn(c, {
        class: "camelbtn small", disabled: busy, "data-action": `${name}:${c}`,
        style: `background:${info.colours[c]};color:${ink(c)}`,
        onclick: () => act.act(`${name}:${c}`),
      })));
    };
    wrap.append(h("div", { class: "group" }, h("span", { class: "label" }, `${actor} placed an overall card:`),
      pile("winner", "winner "), pile("loser", " loser ")));
  }
  if (v.face_down && mine !== true) {
    // at the table another player's card goes face down: record it unseen
    wrap.append(h("div", { class: "group" }, h("span", { class: "label" }, `${actor} placed a card face down (colour not seen):`),
      ["winner", "loser"].map((name) => btn(`on the ${name} pile`, {
        class: "small", disabled: busy, "data-action": `${name}:?`,
        title: `the colour is asked for when the race ends`,
        onclick: () => act.act(`${name}:?`),
      }))));
  }
  const partners = v.legal.filter((a) => a.startsWith("partner:"));
  if (partners.length) {
    wrap.append(h("div", { class: "group" }, h("span", { class: "label" }, `${actor} formed a partnership with`),
      partners.map((a) => btn(`${who(Number(a.slice(8)))}`, { disabled: busy, onclick: () => act.act(a) }))));
  }
  return wrap;
}

// The roll ends the race: the face-down cards are turned over and their
// colours entered, then the same roll is played.
function revealForm(v, info, act, busy) {
  const need = v.reveal_needed;
  const roll = need.roll;
  const shown = roll.colour ? `${roll.colour} ${roll.value} (grey die)` : `${info.names[roll.die] ?? roll.die} ${roll.value}`;
  const selects = need.cards.map((c) => h("select", { class: "reveal-colour", "aria-label": `colour of ${who(c.player)}'s card on the ${c.pile} pile` },
    h("option", { value: "" }, "colour…"),
    [...c.colours].map((col) => h("option", { value: col }, info.names[col] ?? col))));
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const go = btn("Turn them over and play the roll", {
    id: "reveal-play", class: "primary", disabled: busy,
    onclick: () => {
      if (selects.some((s) => !s.value)) {
        error.textContent = "give the colour of every face-down card";
        error.hidden = false;
        return;
      }
      act.act("pyramid", roll, false, need.cards.map((c, k) => ({ pile: c.pile, index: c.index, colour: selects[k].value })));
    },
  });
  return h("div", { class: "actions reveal", id: "reveal-form" },
    h("p", {}, h("b", {}, `The roll ${shown} ends the race. `), "Turn over the face-down overall cards and give their colours:"),
    h("ul", {}, need.cards.map((c, k) => h("li", {}, `${who(c.player)}, card ${c.index + 1} of the ${c.pile} pile: `, selects[k]))),
    error, h("div", { class: "row wrap" }, go, btn("Cancel", { onclick: () => act.replay() })));
}

export { chip };
