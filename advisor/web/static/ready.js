// What the server is still preparing (kernels compiling on its first start):
// a line above the results naming every part not ready yet, and a note in
// each section of the page that waits, with the seconds left (from
// GET /api/status; estimates from measured compile times).  Polls until
// everything is ready, then removes every note.

// part: [the section that waits for it, its name, the game it serves (both when absent)]
const PARTS = {
  leg: ["leg-block", "leg odds"],
  advice: ["advice-block", "advice"],
  race: ["race-block", "race odds"],
  curve: ["curve-block", "odds through the game"],
  cards: [null, "Camel Up Cards"],
  game: ["game-block", "game mode", "board"],
  cards_game: ["game-block", "Camel Up Cards game mode", "cards"],
};

function about(seconds) {
  if (seconds === null || seconds === undefined) return "checking the kernel cache";
  return seconds < 10 ? `${Math.max(1, Math.round(seconds))} s` : `${5 * Math.round(seconds / 5)} s`;
}

function note(sectionId, text) {
  const section = sectionId && document.getElementById(sectionId);
  if (!section) return;
  let p = section.querySelector(":scope > .preparing-note");
  if (!text) { if (p) p.remove(); return; }
  if (!p) {
    p = document.createElement("p");
    p.className = "preparing-note";
    const h2 = section.querySelector(":scope > h2");
    if (h2) h2.after(p); else section.prepend(p);
  }
  p.textContent = text;
}

export function showReadiness(status) {
  const banner = document.getElementById("preparing");
  const preparing = status.preparing || {};
  const names = Object.keys(preparing);
  // a section's note: the part of the game on the page (game mode waits for its own game's kernels)
  const cards = document.body.dataset.game === "cards";
  for (const [part, [sectionId, , game]] of Object.entries(PARTS)) {
    if (game && (game === "cards") !== cards) continue;
    note(sectionId, part in preparing
      ? (preparing[part] === null ? "Checking the compiled kernels; your request waits for it."
        : `Being prepared (first start only): about ${about(preparing[part])} more; your request waits for it.`)
      : "");
  }
  if (!banner) return;
  if (!names.length) { banner.hidden = true; banner.textContent = ""; return; }
  banner.hidden = false;
  banner.textContent = "First start: still preparing " +
    names.map((p) => `${(PARTS[p] || [null, p])[1]} (${preparing[p] === null ? "" : "about "}${about(preparing[p])})`)
      .join(", ") +
    ". Everything else works now.";
}

async function poll() {
  try {
    const res = await fetch("/api/status", { cache: "no-store" });
    if (res.ok) {
      const status = await res.json();
      showReadiness(status);
      if (status.ready) return;
    }
  } catch (e) { /* the server restarts: try again */ }
  setTimeout(poll, 1000);
}

poll();
