"use strict";
// The replay viewer: step through a game's frames (the position after each action), jump to a
// period's start, look through any seat's view (what its page showed) or all of them (a finished
// game), with the totals after each period. Its data is inlined (`replay --html`) or asked of the
// server (`/watch/ID`, `/watch/ID/SEAT#TOKEN` for a game still being played, or a log opened).

const ALL = "-1";
let replay = null, at = 0, shown = null;

function drawFrame() {
  const frame = replay.frames[at], last = at === replay.frames.length - 1;
  view = {seat: shown === ALL ? null : Number(shown), names: replay.names, pieces: replay.pieces,
          over: last && replay.over, scores: replay.scores, winners: replay.winners};
  const played = frame.played ? " — " + replay.names[frame.played.seat] + ": " + frame.played.action : "";
  document.getElementById("status").textContent = "Action " + frame.step + " of " + replay.actions +
    (view.over ? " — the game is over." : ", period " + frame.period) + played;
  document.getElementById("frame").value = at;
  const passed = replay.periods.filter(p => p.step <= frame.step);
  document.getElementById("period").value = passed.length ? passed[passed.length - 1].step : 0;
  drawScores();
  // a view is its keys, each from its own part or from what the views share (replay.py's `view`)
  const own = frame.views[shown], obs = {};
  for (const key of frame.keys[shown]) obs[key] = key in own ? own[key] : frame.shared[key];
  drawTable(obs);
  if (Array.isArray(obs.players)) drawPlayers(obs); else document.getElementById("players").replaceChildren();
}

function go(index) {
  at = Math.max(0, Math.min(replay.frames.length - 1, index));
  drawFrame();
}

function frameAt(step) {
  // the first kept frame at or after that step
  const i = replay.frames.findIndex(f => f.step >= step);
  return i < 0 ? replay.frames.length - 1 : i;
}

function drawPeriods() {
  const head = el("tr", {}, el("th", {text: "after period"}), ...replay.names.map(n => el("th", {text: n})));
  const rows = replay.periods.map(p => el("tr", {}, el("td", {text: p.ended}), ...p.totals.map(t => el("td", {text: t}))));
  document.getElementById("periods").replaceChildren(head, ...rows);
}

function start(data) {
  replay = data;
  document.getElementById("open").hidden = true;
  document.getElementById("viewer").hidden = false;
  document.getElementById("title").textContent = "Watch again: " + (replay.title || replay.pack);
  const note = replay.kept < replay.actions + 1
    ? "A long game: " + replay.kept + " of its " + (replay.actions + 1) +
      " positions are kept (every few actions, each period's start and the last)."
    : "";
  document.getElementById("note").textContent = note + (replay.everything ? "" : " This game is shown from one seat only.");
  const seats = replay.seats.map(String).concat(replay.everything ? [ALL] : []);
  shown = replay.everything ? ALL : seats[0];
  const seat = document.getElementById("seat");
  seat.replaceChildren(...seats.map(s => el("option", {value: s, text: s === ALL ? "all (the whole game)" : replay.names[Number(s)]})));
  seat.value = shown;
  seat.addEventListener("change", () => { shown = seat.value; drawFrame(); });
  const period = document.getElementById("period");
  period.replaceChildren(el("option", {value: 0, text: "the start"}),
    ...replay.periods.map(p => el("option", {value: p.step, text: "after period " + p.ended + " (action " + p.step + ")"})));
  period.addEventListener("change", () => go(frameAt(Number(period.value))));
  const range = document.getElementById("frame");
  range.max = replay.frames.length - 1;
  range.addEventListener("input", () => go(Number(range.value)));
  document.getElementById("first").addEventListener("click", () => go(0));
  document.getElementById("back").addEventListener("click", () => go(at - 1));
  document.getElementById("forward").addEventListener("click", () => go(at + 1));
  document.getElementById("last").addEventListener("click", () => go(replay.frames.length - 1));
  document.addEventListener("keydown", event => {
    if (["INPUT", "SELECT"].includes(event.target.tagName)) return;
    if (event.key === "ArrowLeft") go(at - 1);
    if (event.key === "ArrowRight") go(at + 1);
  });
  drawPeriods();
  go(0);
}

async function ask(url, body) {
  const reply = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  const data = await reply.json();
  if (!reply.ok) return showError(data.error, data.hint);
  start(data);
}

function load() {
  const inline = document.getElementById("replay-data");
  if (inline) return start(JSON.parse(inline.textContent));
  const [, , gameId, seatText] = location.pathname.split("/");
  if (gameId) {
    const token = decodeURIComponent(location.hash.slice(1));
    return ask("/api/replay", seatText ? {game: gameId, seat: Number(seatText), token} : {game: gameId});
  }
  const asked = new URLSearchParams(location.search);  // `/watch?name=FILE&seed=N`: a link to a game
  if (asked.get("name")) {
    const seed = asked.get("seed");
    return ask("/api/replay", seed ? {name: asked.get("name"), seed: Number(seed)} : {name: asked.get("name")});
  }
  const form = document.getElementById("open");
  form.hidden = false;
  form.addEventListener("submit", async event => {
    event.preventDefault();
    showError("");
    const file = document.getElementById("log-file").files[0];
    if (file) return ask("/api/replay", {text: await file.text()});
    ask("/api/replay", {name: document.getElementById("log-name").value.trim()});
  });
}

load();
