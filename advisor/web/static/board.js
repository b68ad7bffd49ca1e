// Drawing the boards as SVG, with every element clickable, draggable and
// reachable by keyboard.  This module only draws and reports gestures: what
// a gesture does is decided in app.js, and every position is checked by the
// server.  Styles are written as attributes so that the SVG stands alone
// (the PNG export draws it on a canvas).

const NS = "http://www.w3.org/2000/svg";
const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', Arial, sans-serif";

export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// Players as a person reads them: P1..Pn (the JSON counts from 0), or the
// names typed for the table.  A camel is never called by its letter alone
// where a player could be meant: "P1 took the purple leg tile".
let PLAYER_NAMES = [];

export function setPlayerNames(names) {
  PLAYER_NAMES = Array.isArray(names) ? names : [];
}

export function who(i) {
  const name = PLAYER_NAMES[i];
  return typeof name === "string" && name.trim() ? name.trim() : `P${Number(i) + 1}`;
}

// a line of the server's (which numbers players P1..Pn) with the typed names
export function namePlayers(text) {
  return String(text).replace(/\bP(\d+)\b/g, (m, k) => who(Number(k) - 1));
}

// Each camel's text colour on its own colour, as the server gives it
// (/api/games "ink": light on the dark camels); set once at start.
let INK = {};
export function setCamelInk(ink) {
  INK = ink ?? {};
}

export function ink(camel) {
  return INK[camel] ?? "#111";
}

// the player counts a game is for, fewest first (the server's rules)
export function playerCounts(info) {
  return Array.from({ length: info.max_players - info.min_players + 1 }, (_, k) => k + info.min_players);
}

export function textColour(camel) {
  return ink(camel) === "#111" ? "#1b1b1b" : "#ffffff";
}

export function pct(p, digits = 0) {
  if (p === null || p === undefined || Number.isNaN(p)) return "";
  const v = 100 * p;
  if (v > 0 && v < 0.5 && digits === 0) return "<1%";
  if (v < 100 && v > 99.5 && digits === 0) return ">99%";
  return `${v.toFixed(digits)}%`;
}

// ---------------------------------------------------------------- camels

function camelBar(letter, x, y, w, h, o) {
  const info = o.info;
  const colour = info.colours[letter];
  const crazy = info.crazy.includes(letter);
  const selected = o.selected === letter;
  const prob = o.probs ? o.probs[letter] : undefined;
  const name = info.names[letter] ?? letter;
  // 12 CSS px on a phone where the bar is tall enough (stacks of up to 3)
  const base = Math.max(8, Math.min(15, h * 0.62));
  const grow = o.minFont && h * 0.9 >= o.minFont;
  const fs = grow ? Math.max(base, o.minFont) : base;
  const label = crazy ? (grow && o.minFont > 13 ? `◀ ${letter}` : "◀ crazy") : letter;
  const g = svg("g", {
    class: "camel", "data-camel": letter, tabindex: o.readonly ? null : "0", role: o.readonly ? null : "button",
    "aria-label": `${name} camel${prob !== undefined ? `, ${pct(prob)} to win the leg` : ""}`,
    style: o.readonly ? null : "cursor: grab",
  },
    svg("rect", {
      x, y, width: w, height: h - 2, rx: 5, fill: colour,
      stroke: selected ? "#ff2d95" : crazy ? "#555" : "#00000066", "stroke-width": selected ? 3 : 1,
      "stroke-dasharray": crazy ? "4 2" : null,
    }),
    svg("text", {
      x: x + 6, y: y + h / 2, "dominant-baseline": "central", "font-size": fs, "font-weight": 700,
      fill: textColour(letter), "font-family": FONT, "pointer-events": "none",
    }, label),
  );
  if (prob !== undefined && !crazy) {
    g.append(svg("text", {
      x: x + w - 5, y: y + h / 2, "dominant-baseline": "central", "text-anchor": "end", "font-size": fs,
      fill: textColour(letter), "font-family": FONT, "pointer-events": "none",
    }, pct(prob)));
  }
  g.append(svg("title", {}, `${name} camel` + (prob !== undefined && !crazy ? `: P(wins this leg) ${pct(prob, 1)}` : "")));
  return g;
}

function stackBars(camels, x, bottom, w, room, o) {
  const h = Math.min(26, room / Math.max(camels.length, 1));
  return [...camels].map((c, i) => camelBar(c, x, bottom - (i + 1) * h, w, h, o));
}

// ---------------------------------------------------------------- tiles

function tileMark(tile, cx, cy, size, o) {
  const plus = tile.sign === "+";
  const names = o.info.tile_names;
  const fill = plus ? "#2e7d32" : "#c62828";
  const owner = tile.owner === null || tile.owner === undefined ? "" : `${who(tile.owner)}`;
  return svg("g", { class: "tile", "data-tile": tile.space, "pointer-events": "none" },
    svg("rect", { x: cx - size / 2, y: cy - size / 2, width: size, height: size, rx: 8, fill, stroke: "#00000055" }),
    svg("text", {
      x: cx, y: cy - (owner ? 6 : 0), "text-anchor": "middle", "dominant-baseline": "central", "font-size": size * 0.42,
      "font-weight": 800, fill: "#fff", "font-family": FONT,
    }, plus ? "+1" : "−1"),
    owner ? svg("text", {
      x: cx, y: cy + size * 0.28, "text-anchor": "middle", "dominant-baseline": "central", "font-size": Math.max(size * 0.22, o.minFont ?? 0),
      fill: "#fff", "font-family": FONT,
    }, owner) : null,
    svg("title", {}, `${plus ? names[0] : names[1]} tile${owner ? ` of ${owner}` : ""}`),
  );
}

// ---------------------------------------------------------------- heat map

// orange for gains, blue-grey for losses, stronger for larger values
function heatFill(value, max) {
  if (!max || value === undefined) return null;
  const a = Math.max(0.1, Math.min(1, Math.abs(value) / max)) * 0.75;
  return value >= 0 ? `rgba(255, 140, 0, ${a.toFixed(3)})` : `rgba(90, 110, 150, ${a.toFixed(3)})`;
}

function heatText(value) {
  return Math.abs(value) < 0.005 ? "" : value.toFixed(2);
}

// ---------------------------------------------------------------- board games

// the smallest font, in SVG units, that is still 12 CSS px once the board
// is scaled to `o.pxWidth` (a phone's width); 0 when the width is unknown
function minFont(viewWidth, o) {
  return o.pxWidth ? Math.max(0, (12.2 * viewWidth) / o.pxWidth) : 0;
}

const CELL = 100;
const MARGIN = 10;

// Spaces 1..16 around a 5x5 ring, clockwise from the top-left corner; the
// finish line lies between 16 and 1, as on the real board.
export function ringCell(space) {
  const i = space - 1;
  if (i < 5) return [i, 0];
  if (i < 8) return [4, i - 4];
  if (i < 13) return [12 - i, 4];
  return [0, 16 - i];
}

export function drawBoardGame(model, o) {
  const info = o.info;
  const size = 5 * CELL + 2 * MARGIN;
  o = { ...o, minFont: minFont(size, o) };
  const F = (n) => Math.max(n, o.minFont);
  const narrow = o.minFont > 13; // shorter captions where the letters must grow
  const root = svg("svg", {
    xmlns: NS, viewBox: `0 0 ${size} ${size}`, class: "board", role: "group",
    "aria-label": `${info.title} board`, "font-family": FONT,
  });
  root.append(svg("rect", { x: 0, y: 0, width: size, height: size, rx: 18, fill: "#f3e3bf" }));
  const stacks = new Map(model.stacks.map(([s, c]) => [s, c]));
  const tiles = new Map(model.tiles.map((t) => [t.space, t]));
  const heat = o.heat ?? {};
  const heatMax = Math.max(0, ...Object.values(heat).map(Math.abs));
  for (let space = 1; space <= 16; space++) {
    const [cx, cy] = ringCell(space);
    const x = MARGIN + cx * CELL;
    const y = MARGIN + cy * CELL;
    const camels = stacks.get(space) ?? "";
    const cell = svg("g", {
      class: "space", "data-space": space, tabindex: o.readonly ? null : "0", role: o.readonly ? null : "button",
      "aria-label": `space ${space}${camels ? `: ${[...camels].map((c) => info.names[c]).join(", ")} (bottom to top)` : ""}`
        + (tiles.get(space) ? `, ${tiles.get(space).sign} tile` : ""),
    },
      svg("rect", {
        x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 10,
        fill: heat[space] !== undefined && !camels && !tiles.get(space) ? heatFill(heat[space], heatMax) : space % 2 ? "#fbf3dd" : "#f7ebcb",
        stroke: o.target === space ? "#ff2d95" : "#b8975a", "stroke-width": o.target === space ? 3 : 1.2,
      }),
      svg("text", {
        x: x + 10, y: y + 17, "font-size": F(14), "font-weight": 700, fill: "#8a6d3b", "font-family": FONT,
      }, space),
    );
    if (heat[space] !== undefined && !camels && !tiles.get(space)) {
      cell.append(svg("text", {
        x: x + CELL / 2, y: y + CELL / 2 + 4, "text-anchor": "middle", "font-size": 17, fill: "#5a3a00",
        "font-weight": 700, "font-family": FONT, "pointer-events": "none",
      }, heatText(heat[space])));
      cell.append(svg("title", {}, `A ${o.info.tile_names[o.heatSign === "-" ? 1 : 0]} tile here: ${heat[space].toFixed(2)} expected landings this leg`));
    }
    if (tiles.get(space)) cell.append(tileMark(tiles.get(space), x + CELL / 2, y + CELL / 2 + 6, 52, o));
    cell.append(...stackBars(camels, x + 7, y + CELL - 8, CELL - 14, CELL - 32, o));
    root.append(cell);
  }
  // start and finish
  const fx = MARGIN + 4;
  const fy = MARGIN + CELL;
  for (let k = 0; k < 16; k++) {
    root.append(svg("rect", { x: fx + k * 5.75, y: fy - 3, width: 5.75, height: 3, fill: k % 2 ? "#222" : "#fff" }));
    root.append(svg("rect", { x: fx + k * 5.75, y: fy, width: 5.75, height: 3, fill: k % 2 ? "#fff" : "#222" }));
  }
  root.append(svg("text", { x: MARGIN + CELL + 8, y: MARGIN + CELL + 16, "font-size": F(13), fill: "#6b5327", "font-family": FONT },
    narrow ? "◀ finish · start ▶" : "◀ finish after 16 · start at 1 ▶"));

  if (model.beyond) {
    // the race is over: the camels beyond the finish line (or behind the start) instead of the pyramid
    const cy = MARGIN + CELL + 40;
    root.append(svg("text", { x: size / 2, y: cy, "text-anchor": "middle", "font-size": 18, "font-weight": 800, fill: "#3b2a14", "font-family": FONT },
      "The race is over"));
    model.beyond.forEach(([space, camels], k) => {
      const y0 = cy + 30 + k * 120;
      root.append(svg("text", { x: size / 2, y: y0, "text-anchor": "middle", "font-size": F(13), fill: "#6b5327", "font-family": FONT },
        space > 16 ? `past the finish line (space ${space}), bottom to top:` : `behind the start (space ${space}), bottom to top:`));
      root.append(...stackBars(camels, size / 2 - 70, y0 + 100, 140, 90, o));
    });
    return root;
  }
  // the pyramid: every die of the edition, those still inside bright
  const inside = new Set(model.dice);
  const dice = [...info.dice];
  const rows = [[dice[0]], dice.slice(1, 3), dice.slice(3)].filter((r) => r.length);
  const top = MARGIN + CELL + 44;
  root.append(svg("polygon", {
    points: `${size / 2},${top - 18} ${size / 2 - 112},${top + 118} ${size / 2 + 112},${top + 118}`,
    fill: "#e0c27a", stroke: "#a8842f", "stroke-width": 2,
  }));
  root.append(svg("text", { x: size / 2, y: top + 136, "text-anchor": "middle", "font-size": F(13), fill: "#6b5327", "font-family": FONT },
    narrow ? "dice to roll" : o.readonly ? "Pyramid: dice still to roll this leg" : "Pyramid: click a die to take it out or put it back"));
  rows.forEach((row, r) => {
    row.forEach((d, k) => {
      const dx = size / 2 + (k - (row.length - 1) / 2) * 46 - 18;
      const dy = top + 6 + r * 38;
      const isIn = inside.has(d);
      const grey = d === "x";
      const name = grey ? "grey" : info.names[d];
      const g = svg("g", {
        class: "die", "data-die": d, tabindex: o.readonly ? null : "0", role: o.readonly ? null : "button",
        "aria-pressed": isIn ? "true" : "false", "aria-label": `${name} die ${isIn ? "in the pyramid" : "rolled"}`,
        opacity: isIn ? 1 : 0.28, style: o.readonly ? null : "cursor: pointer",
      },
        svg("rect", {
          x: dx, y: dy, width: 36, height: 36, rx: 7, fill: grey ? "#9e9e9e" : info.colours[d],
          stroke: isIn ? "#00000088" : "#333", "stroke-dasharray": isIn ? null : "4 3", "stroke-width": 1.5,
        }),
        grey ? svg("path", { d: `M${dx + 36} ${dy} L${dx + 36} ${dy + 36} L${dx} ${dy + 36} Z`, fill: "#222", opacity: 0.55, "pointer-events": "none" }) : null,
        svg("text", {
          x: dx + 18, y: dy + 19, "text-anchor": "middle", "dominant-baseline": "central", "font-size": F(16), "font-weight": 800,
          fill: grey ? "#fff" : textColour(d), "font-family": FONT, "pointer-events": "none",
        }, grey ? "±" : d),
        svg("title", {}, `${name} die: ${isIn ? "still in the pyramid" : "already rolled this leg"}`),
      );
      root.append(g);
    });
  });

  // leg tiles left per colour (top value shown)
  const racing = [...info.racing];
  const ly = MARGIN + 3 * CELL + 30;
  root.append(svg("text", { x: size / 2, y: ly - 8, "text-anchor": "middle", "font-size": F(13), fill: "#6b5327", "font-family": FONT },
    narrow || o.readonly ? "Leg tiles left" : "Leg tiles left: click to take the top one"));
  racing.forEach((c, k) => {
    const left = model.legtiles[c] ?? [];
    const x = size / 2 + (k - 2) * 56 - 24;
    const g = svg("g", {
      class: "legtile", "data-legtile": c, tabindex: o.readonly ? null : "0", role: o.readonly ? null : "button",
      "aria-label": `${info.names[c]} leg tiles: ${left.length ? left.join(", ") : "none left"}`,
      style: o.readonly ? null : "cursor: pointer",
    },
      left.length > 1 ? svg("rect", { x: x + 4, y: ly + 4, width: 48, height: 46, rx: 6, fill: info.colours[c], opacity: 0.5 }) : null,
      svg("rect", {
        x, y: ly, width: 48, height: 46, rx: 6, fill: left.length ? info.colours[c] : "none",
        stroke: left.length ? "#00000066" : info.colours[c], "stroke-dasharray": left.length ? null : "4 3", "stroke-width": 1.5,
      }),
      svg("text", {
        x: x + 30, y: ly + 27, "text-anchor": "middle", "dominant-baseline": "central", "font-size": 22, "font-weight": 800,
        fill: left.length ? textColour(c) : "#777", "font-family": FONT, "pointer-events": "none",
      }, left.length ? left[0] : "–"),
      // the camel's letter: the stack is told apart without its colour
      svg("text", {
        x: x + 4, y: ly + 2 + 0.8 * F(14), "font-size": F(14), "font-weight": 800, class: "legtile-letter",
        fill: left.length ? textColour(c) : "#555", "font-family": FONT, "pointer-events": "none",
      }, c),
      svg("text", { x: x + 26, y: ly + 64, "text-anchor": "middle", "font-size": F(11), fill: "#6b5327", "font-family": FONT, "pointer-events": "none" },
        narrow ? `×${left.length}` : left.length ? `${left.length} left` : "none"),
      svg("title", {}, `${info.names[c]}: ${left.length ? `tiles ${left.join(", ")} left, ${left[0]} on top` : "no tile left"}`),
    );
    root.append(g);
  });
  return root;
}

// ---------------------------------------------------------------- Camel Up Cards

const CCOLS = 7;
const CW = 74;
const CH = 118;

// The spaces of the track cards in order: [{space, card, kind}] (space 0 is
// the start card); the finish card follows the last space.
function cardSpaces(track) {
  const out = [{ space: 0, card: -1, kind: "start" }];
  let space = 1;
  [...track].forEach((kind, card) => {
    const n = kind === "n" ? 2 : 1;
    for (let k = 0; k < n; k++) out.push({ space: space++, card, kind });
  });
  out.push({ space: space, card: track.length, kind: "finish" });
  return out;
}

export function drawCardsBoard(model, o) {
  const info = o.info;
  const cells = cardSpaces(model.track);
  const rows = Math.ceil(cells.length / CCOLS);
  const width = CCOLS * CW + 2 * MARGIN;
  const height = rows * CH + 2 * MARGIN;
  o = { ...o, minFont: minFont(width, o) };
  const F = (n) => Math.max(n, o.minFont);
  const root = svg("svg", {
    xmlns: NS, viewBox: `0 0 ${width} ${height}`, class: "board", role: "group", "aria-label": "Camel Up Cards track",
    "font-family": FONT,
  });
  root.append(svg("rect", { x: 0, y: 0, width, height, rx: 18, fill: "#f3e3bf" }));
  const stacks = new Map(model.stacks.map(([s, c]) => [s, c]));
  const pos = (i) => {
    const r = Math.floor(i / CCOLS);
    const k = i % CCOLS;
    const col = r % 2 ? CCOLS - 1 - k : k; // a snake, as cards are laid on a table
    return [MARGIN + col * CW, MARGIN + r * CH];
  };
  const heat = o.heat ?? {};
  const heatMax = Math.max(0, ...Object.values(heat).map(Math.abs));
  cells.forEach((cell, i) => {
    const [x, y] = pos(i);
    const camels = stacks.get(cell.space) ?? "";
    const kindFill = { start: "#d9c7a0", finish: "#ffffff", n: cell.card % 2 ? "#fbf3dd" : "#f5e6c4", s: "#e8c98a", h: "#f0dcaf" }[cell.kind];
    const figures = [["palm", model.palm], ["fennec", model.fennec]].filter(([, f]) => f && f.space === cell.space);
    const g = svg("g", {
      class: "space", "data-space": cell.kind === "finish" ? null : cell.space, tabindex: o.readonly || cell.kind === "finish" ? null : "0",
      role: cell.kind === "finish" ? null : "button",
      "aria-label": cell.kind === "finish" ? "finish" : `space ${cell.space}${camels ? `: ${[...camels].join(", ")}` : ""}`,
    },
      svg("rect", {
        x: x + 2, y: y + 2, width: CW - 4, height: CH - 4, rx: 9,
        fill: heat[cell.space] !== undefined && !camels ? heatFill(heat[cell.space], heatMax) : kindFill,
        stroke: o.target === cell.space ? "#ff2d95" : "#b8975a", "stroke-width": o.target === cell.space ? 3 : 1.2,
      }),
    );
    if (cell.kind === "finish") {
      for (let k = 0; k < 6; k++) {
        for (let j = 0; j < 2; j++) {
          g.append(svg("rect", { x: x + 8 + k * 10, y: y + 40 + j * 10, width: 10, height: 10, fill: (k + j) % 2 ? "#222" : "#fff" }));
        }
      }
      g.append(svg("text", { x: x + CW / 2, y: y + 84, "text-anchor": "middle", "font-size": F(13), "font-weight": 700, fill: "#333", "font-family": FONT }, "finish"));
      root.append(g);
      return;
    }
    const label = cell.kind === "start" ? "start" : `${cell.space}${cell.kind === "s" ? " sand" : cell.kind === "h" ? " ½" : ""}`;
    g.append(svg("text", { x: x + 8, y: y + 16, "font-size": F(12), "font-weight": 700, fill: "#8a6d3b", "font-family": FONT }, label));
    if (cell.kind !== "start") {
      g.append(svg("title", {}, cell.kind === "s" ? "a sandstorm card (1 space)" : cell.kind === "h" ? "the last card, half under the finish card" : `track card ${cell.card + 1}`));
    }
    // each figure a pill with its name and holder; where the letters must grow (a phone) and the
    // two do not fit the card's width, the holder goes on a second line
    let top = y + 26;
    figures.forEach(([name, f]) => {
      const fs = F(11);
      const holder = f.holder === null || f.holder === undefined ? "" : who(f.holder);
      const fits = (name.length + (holder ? holder.length + 1 : 0)) * fs * 0.6 + 12 <= CW - 6;
      const lines = fits || !holder ? [holder ? `${name} ${holder}` : name] : [name, holder];
      const lh = fs + 2;
      const ph = Math.max(20, lines.length * lh + 4);
      const pw = fits ? 60 : CW - 6;
      const cx = x + CW / 2;
      const pill = svg("g", { "pointer-events": "none" },
        svg("rect", { x: cx - pw / 2, y: top, width: pw, height: ph, rx: 10, fill: name === "palm" ? "#2e7d32" : "#e65100" }));
      lines.forEach((line, k) => {
        pill.append(svg("text", {
          x: cx, y: top + ph / 2 + (k - (lines.length - 1) / 2) * lh + 1, "text-anchor": "middle", "dominant-baseline": "central",
          "font-size": fs, fill: "#fff", "font-family": FONT,
        }, line));
      });
      g.append(pill);
      top += ph + 2;
    });
    if (heat[cell.space] !== undefined && !camels) {
      g.append(svg("text", { x: x + CW / 2, y: y + CH - 14, "text-anchor": "middle", "font-size": F(13), fill: "#2b2418", "font-weight": 700, "font-family": FONT, "pointer-events": "none" },
        (heat[cell.space] >= 0 ? "+" : "−") + Math.abs(heat[cell.space]).toFixed(2)));
      g.append(svg("title", {}, `EV of putting the ${o.heatSign === "-" ? "fennec" : "palm"} here: ${heat[cell.space].toFixed(2)} coins`));
    }
    g.append(...stackBars(camels, x + 6, y + CH - 6, CW - 12, CH - 30 - (top - y - 26), o));
    root.append(g);
  });
  return root;
}

// ---------------------------------------------------------------- gestures

// Click, drag (pointer) and keyboard on camels, spaces, dice and leg tiles,
// wired once on the element that holds the board (and the tray of camels
// off the board).  `handlers()` returns the current callbacks (or null when
// the board is read-only).
export function wireGestures(container, handlers) {
  let drag = null;
  let dragged = false;
  const targetAt = (x, y) => {
    const el = document.elementFromPoint(x, y);
    const camel = el?.closest?.("[data-camel]");
    const space = el?.closest?.("[data-space]");
    return {
      camel: camel ? camel.dataset.camel : null,
      space: space && space.dataset.space !== undefined ? Number(space.dataset.space) : null,
      tray: !!el?.closest?.(".tray"),
    };
  };
  container.addEventListener("pointerdown", (e) => {
    const camel = e.target.closest("[data-camel]");
    if (!camel || e.button !== 0 || !handlers()) return;
    drag = { camel: camel.dataset.camel, x: e.clientX, y: e.clientY, moved: false };
  });
  container.addEventListener("pointermove", (e) => {
    if (!drag) return;
    if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) > 8) {
      drag.moved = true;
      handlers()?.onDragStart?.(drag.camel);
    }
    if (drag.moved) handlers()?.onDragOver?.(targetAt(e.clientX, e.clientY));
  });
  const finish = (e) => {
    if (!drag) return;
    const d = drag;
    drag = null;
    if (d.moved) {
      dragged = true;
      setTimeout(() => { dragged = false; }, 0);
      handlers()?.onDrop?.(d.camel, targetAt(e.clientX, e.clientY));
    }
  };
  container.addEventListener("pointerup", finish);
  container.addEventListener("pointercancel", () => { drag = null; });
  container.addEventListener("click", (e) => {
    const o = handlers();
    if (!o || dragged) return;
    const camel = e.target.closest("[data-camel]");
    const die = e.target.closest("[data-die]");
    const leg = e.target.closest("[data-legtile]");
    const space = e.target.closest("[data-space]");
    if (die) return o.onDie?.(die.dataset.die);
    if (leg) return o.onLegTile?.(leg.dataset.legtile);
    if (camel) return o.onCamel?.(camel.dataset.camel);
    if (space) return o.onSpace?.(Number(space.dataset.space));
    if (e.target.closest(".tray")) return o.onTray?.();
  });
  container.addEventListener("keydown", (e) => {
    const o = handlers();
    if (!o) return;
    const camel = e.target.closest?.("[data-camel]");
    if (camel && o.onCamelKey?.(camel.dataset.camel, e.key)) {
      e.preventDefault();
      return;
    }
    const target = e.target.closest?.("[data-space], [data-die], [data-legtile], [data-camel]");
    if (!target || (e.key !== "Enter" && e.key !== " ")) return;
    e.preventDefault();
    target.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  });
}
