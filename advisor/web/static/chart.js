// The probability curves through a game (as `camelup chart` draws them):
// each camel's P(wins the leg), P(wins the race) and P(comes last) after
// every turn, leg ends dashed.

import { svg } from "./board.js";

const W = 560;
const H = 150;
const L = 38;
const R = 26; // room for the camels' letters at the ends of the lines
const T = 22;
const B = 22;

// a dash pattern per camel, so that the lines are told apart without colour
const DASHES = [null, "9 4", "2 3", "10 3 2 3", "5 5", "1 4", "14 4 4 4"];

function one(rows, key, title, camels, colours, legStarts, actual, marker) {
  const n = Math.max(rows.length - 1, 1);
  const x = (i) => L + ((W - L - R) * i) / n;
  const y = (p) => T + (H - T - B) * (1 - p);
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "curve", role: "img", "aria-label": title });
  root.append(svg("text", { x: L, y: 14, "font-size": 12, "font-weight": 700, fill: "#333" }, title));
  for (const p of [0, 0.5, 1]) {
    root.append(svg("line", { x1: L, x2: W - R, y1: y(p), y2: y(p), stroke: "#ddd" }));
    root.append(svg("text", { x: L - 4, y: y(p) + 4, "text-anchor": "end", "font-size": 10, fill: "#666" }, `${p * 100}%`));
  }
  for (const i of legStarts) {
    root.append(svg("line", { x1: x(i - 0.5), x2: x(i - 0.5), y1: T, y2: H - B, stroke: "#999", "stroke-dasharray": "4 3" }));
  }
  root.append(svg("text", { x: W - R, y: H - 6, "text-anchor": "end", "font-size": 10, fill: "#666" }, "turn →"));
  if (marker !== null && marker !== undefined) {
    root.append(svg("line", { x1: x(marker), x2: x(marker), y1: T - 4, y2: H - B, stroke: "#ff2d95", "stroke-width": 2, class: "marker" }));
  }
  const ends = [];
  camels.forEach((c, k) => {
    const pts = rows.map((r, i) => `${x(i).toFixed(1)},${y(r[key][c]).toFixed(1)}`).join(" ");
    const stroke = colours[c] === "#f4f4f4" ? "#bbb" : colours[c];
    root.append(svg("polyline", {
      points: pts, fill: "none", stroke, "stroke-width": c === actual ? 4 : 2, "data-camel-curve": c,
      "stroke-dasharray": DASHES[k % DASHES.length],
    }, svg("title", {}, c)));
    if (rows.length === 1) root.append(svg("circle", { cx: x(0), cy: y(rows[0][key][c]), r: 3, fill: stroke }));
    ends.push({ c, y: y(rows[rows.length - 1][key][c]), stroke });
  });
  // each line ends with its camel's letter, the letters kept apart
  ends.sort((a, b) => a.y - b.y);
  for (let i = 1; i < ends.length; i++) ends[i].y = Math.max(ends[i].y, ends[i - 1].y + 11);
  const over = ends.length ? ends[ends.length - 1].y - (H - B + 4) : 0;
  if (over > 0) for (const e of ends) e.y -= over;
  for (const e of ends) {
    root.append(svg("text", {
      x: W - R + 4, y: e.y + 4, "font-size": 11, "font-weight": 800, fill: "#333", stroke: e.stroke, "stroke-width": 0.4,
      class: "curve-label", "data-camel-label": e.c,
    }, e.c));
  }
  return root;
}

// `marker`: a turn to mark (the step shown), or null.
export function drawCurves(rows, legOfTurn, info, result = {}, marker = null) {
  const camels = Object.keys(rows[0].leg);
  const legStarts = [];
  for (let i = 1; i < rows.length; i++) if (legOfTurn[i] !== legOfTurn[i - 1]) legStarts.push(i);
  const box = document.createElement("div");
  box.className = "curves";
  box.append(
    one(rows, "leg", "P(wins this leg)", camels, info.colours, legStarts, null, marker),
    one(rows, "win", "P(wins the race)", camels, info.colours, legStarts, result.winner, marker),
    one(rows, "lose", "P(comes last)", camels, info.colours, legStarts, result.loser, marker),
  );
  return box;
}
