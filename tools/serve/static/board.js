"use strict";
// The board, drawn the same way on a seat's page and in the replay viewer: `view` (set by the page)
// holds an observation's pieces (`pieces`), the seats' names, whose view it is (`seat`, null for
// all of them) and, at the end, the scores. Any list of piece ids is drawn as cards from the
// pack's data; every text goes in through textContent (common.js).

let view = null;

function pieceName(id) {
  const piece = view.pieces[id];
  return piece && piece.name ? piece.name : String(id);
}

function card(id) {
  const piece = view.pieces[id] || {};
  const box = el("div", {class: "card"}, el("div", {class: "name", text: pieceName(id)}));
  if (piece.colour) box.style.setProperty("--c", piece.colour);
  if (piece.colour) box.append(el("div", {class: "line", text: piece.colour}));
  if (piece.cost) box.append(el("div", {class: "line", text: "cost: " + piece.cost}));
  if (piece.effect) box.append(el("div", {class: "line", text: piece.effect}));
  if (piece.power) box.append(el("div", {class: "line", text: piece.power}));
  if (piece.chain_from) box.append(el("div", {class: "line", text: "free after: " + piece.chain_from.map(pieceName).join(", ")}));
  return box;
}

function isPieces(value) {
  return Array.isArray(value) && value.length > 0 && value.every(v => typeof v === "string" && v in view.pieces);
}

function words(value) {
  // a value in a line: a piece by its name, an object as `key value; key value`
  if (value === null) return "—";
  if (typeof value === "string") return value in view.pieces ? pieceName(value) : value;
  if (Array.isArray(value)) return value.length ? value.map(words).join(", ") : "none";
  if (typeof value === "object") return Object.entries(value).map(([k, v]) => k + " " + words(v)).join("; ");
  return String(value);
}

function valueNode(value) {
  if (isPieces(value)) return el("div", {class: "cards"}, ...value.map(card));
  if (Array.isArray(value) && value.some(v => v !== null && typeof v === "object"))
    return el("ul", {}, ...value.map(v => el("li", {text: words(v)})));
  if (value !== null && typeof value === "object" && !Array.isArray(value))
    return el("div", {}, ...Object.entries(value).map(([k, v]) => field(k, v)));
  return words(value);
}

function field(key, value) {
  return el("div", {class: "field"}, el("span", {class: "key", text: key + ": "}), valueNode(value));
}

function wonder(player) {
  const id = player.wonder || player.city, piece = view.pieces[id];
  if (!piece) return null;
  const stages = piece.sides && player.side ? (piece.sides[player.side] || {}).stages : piece.stages;
  const built = Array.isArray(player.stages) ? player.stages.length : player.stages;
  const box = el("div", {}, el("h3", {text: pieceName(id) + (player.side ? ", side " + player.side : "")}));
  if (piece.power) box.append(el("div", {class: "line", text: piece.power}));
  if (Array.isArray(stages)) {
    box.append(el("ol", {class: "stages"}, ...stages.map((s, i) =>
      el("li", {class: Array.isArray(player.stages) ? (player.stages.includes(i + 1) ? "built" : "") : (i < built ? "built" : ""),
                text: (s.cost ? s.cost + " → " : "") + (s.effect || "") }))));
  }
  return box;
}

function drawPlayers(obs) {
  const n = obs.players.length, me = view.seat === null ? 0 : view.seat;  // (all: from seat 0)
  const order = [...obs.players].sort((a, b) => ((a.seat - me + n) % n) - ((b.seat - me + n) % n));
  const boxes = order.map(player => {
    const where = player.seat === me || view.seat === null ? "" : player.seat === (me + 1) % n ? " — left neighbour"
      : player.seat === (me - 1 + n) % n ? " — right neighbour" : "";
    const box = el("div", {class: "player" + (player.seat === view.seat ? " you" : "")},
                   el("h3", {text: view.names[player.seat] + where}), wonder(player));
    for (const [key, value] of Object.entries(player)) {
      // (the wonder is drawn above: `wonder`, or a board's `city` where a city is one piece)
      if (!["seat", "wonder", "side"].includes(key) && !(key === "city" && typeof value === "string")) box.append(field(key, value));
    }
    return box;
  });
  document.getElementById("players").replaceChildren(...boxes);
}

function drawTable(obs) {
  const rows = Object.entries(obs).filter(([key]) => !["players", "seat", "to_act"].includes(key));
  document.getElementById("table").replaceChildren(...rows.map(([key, value]) =>
    key === "hand" ? el("div", {}, el("h3", {text: view.seat === null ? "Hand" : "Your hand"}), valueNode(value)) : field(key, value)));
}

function drawScores() {
  const box = document.getElementById("scores-box");
  box.hidden = !view.over;
  if (!view.over) return;
  const categories = Object.keys(view.scores[0].breakdown || {});
  const head = el("tr", {}, el("th", {text: "player"}), ...categories.map(c => el("th", {text: c})), el("th", {text: "total"}));
  const rows = view.scores.map((s, seat) => el("tr", {}, el("td", {text: view.names[seat] + (view.winners.includes(seat) ? " (winner)" : "")}),
    ...categories.map(c => el("td", {text: s.breakdown[c]})), el("td", {text: s.total})));
  document.getElementById("scores").replaceChildren(head, ...rows);
}

