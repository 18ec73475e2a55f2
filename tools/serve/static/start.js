"use strict";
// The start page: choose a pack, players, options, wonders and who plays each seat; start the
// game and get one link per person's seat; the games on this server listed below.

let packs = [];

function currentPack() {
  return packs.find(p => p.key === document.getElementById("pack").value);
}

function drawOptions() {
  const pack = currentPack(), box = document.getElementById("options");
  box.replaceChildren(el("legend", {text: "Options"}));
  for (const [name, value] of Object.entries(pack.options)) {
    const input = typeof value === "boolean" ? el("input", {type: "checkbox", "data-option": name})
      : el("input", {type: typeof value === "number" ? "number" : "text", "data-option": name});
    if (typeof value === "boolean") input.checked = value; else input.value = value;
    box.append(el("label", {}, name + " ", input));
  }
  if (!Object.keys(pack.options).length) box.append(el("span", {class: "hint", text: "this pack has none"}));
  document.getElementById("wonder-list").replaceChildren(...pack.wonders.map(w => el("option", {value: w})));
  document.getElementById("bot-list").replaceChildren(...["person", ...pack.bots].map(b => el("option", {value: b})));
  const players = document.getElementById("players");
  players.min = pack.players.min; players.max = pack.players.max;
  players.value = Math.min(Math.max(players.value, pack.players.min), pack.players.max);
  drawSeats();
}

function drawSeats() {
  // seats are added or removed at the end, the others left as they are (with what was typed, and focus)
  const pack = currentPack(), box = document.getElementById("seats");
  const n = Number(document.getElementById("players").value) || pack.players.min;
  const seats = box.querySelectorAll("label");
  for (let seat = seats.length; seat < n; seat++) {
    const input = el("input", {list: "bot-list", "data-seat": seat, "aria-label": "seat " + seat});
    input.value = seat === 0 ? "person" : pack.bots.includes("greedy") ? "greedy" : pack.bots[0];
    box.append(el("label", {}, "seat " + seat + " ", input));
  }
  for (let seat = seats.length - 1; seat >= n; seat--) seats[seat].remove();
}

function optionValues() {
  const out = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    const name = input.dataset.option, value = currentPack().options[name];
    out[name] = typeof value === "boolean" ? input.checked : typeof value === "number" ? Number(input.value) : input.value;
  }
  return out;
}

async function start(event) {
  event.preventDefault();
  showError("");
  const body = {pack: document.getElementById("pack").value,
                players: Number(document.getElementById("players").value),
                seats: [...document.querySelectorAll("[data-seat]")].map(i => i.value.trim()),
                options: optionValues()};
  const wonders = document.getElementById("wonders").value.trim();
  if (wonders) body.wonders = wonders;
  const reply = await fetch("/api/games", {method: "POST", headers: {"Content-Type": "application/json"},
                                            body: JSON.stringify(body)});
  const data = await reply.json();
  if (!reply.ok) return showError(data.error, data.hint);
  const box = document.getElementById("links");
  box.replaceChildren(el("p", {text: "Game started. Give each person their seat's link (it is their key to the seat):"}));
  const list = el("ul");
  for (const link of data.links) {
    const url = location.origin + link.url;
    list.append(el("li", {}, "seat " + link.seat + ": ", el("a", {href: url, text: url})));
  }
  box.append(list);
  listGames();
}

async function listGames() {
  const games = await (await fetch("/api/games")).json();
  const rows = games.map(g => el("tr", {},
    el("td", {text: g.id}), el("td", {text: g.pack}), el("td", {text: g.seats.join(", ")}),
    el("td", {text: g.step}),
    el("td", {text: g.finished ? "finished: " + g.scores.join(" / ") : "being played"}),
    el("td", {}, el("a", {href: "/watch/" + encodeURIComponent(g.id), text: "watch"}))));
  document.querySelector("#games tbody").replaceChildren(...rows);
}

async function load() {
  packs = await (await fetch("/api/packs")).json();
  document.getElementById("pack").replaceChildren(...packs.map(p => el("option", {value: p.key, text: p.name + " (" + p.key + ")"})));
  document.getElementById("pack").addEventListener("change", drawOptions);
  document.getElementById("players").addEventListener("change", drawSeats);
  document.getElementById("start").addEventListener("submit", start);
  drawOptions();
  listGames();
}

load();
