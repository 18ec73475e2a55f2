"use strict";
// A seat's page: it gives the seat's token (the link's #fragment, never sent in a URL) over a
// WebSocket and draws each view the server sends: built from that seat's observation only. The
// board is drawn generically: any list of piece ids as cards from the pack's data.

const [, , gameId, seatText] = location.pathname.split("/");
const token = decodeURIComponent(location.hash.slice(1));
let socket = null, closedForGood = false;

function drawActions() {
  const list = document.getElementById("actions");
  list.replaceChildren(...view.actions.map((label, i) => el("li", {},
    el("button", {type: "button", "data-action": i, text: label, on: {click: () => act(i)}}))));
  document.getElementById("actions-box").hidden = !view.actions.length;
  const first = list.querySelector("button");
  if (first && !list.contains(document.activeElement)) first.focus();
}

function draw() {
  document.getElementById("title").textContent = view.pack + " — " + view.names[view.seat];
  const waiting = view.waiting.filter(s => s !== view.seat).map(s => view.names[s]);
  document.getElementById("status").textContent = view.over ? "The game is over."
    : view.actions.length ? "Your turn: choose an action." + (waiting.length ? " (Also awaited: " + waiting.join(", ") + ".)" : "")
    : "Waiting for " + (waiting.join(", ") || "the others") + ".";
  drawActions();
  drawScores();
  drawTable(view.observation);
  if (Array.isArray(view.observation.players)) drawPlayers(view.observation);
}

function act(index) {
  if (!view || !socket || socket.readyState !== WebSocket.OPEN) return;
  showError("");
  socket.send(JSON.stringify({type: "act", step: view.step, action: index}));
  document.getElementById("actions").replaceChildren();
  document.getElementById("status").textContent = "Sent; waiting for the game…";
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  socket = new WebSocket(scheme + location.host + "/ws/" + gameId + "/" + seatText);
  socket.addEventListener("open", () => socket.send(JSON.stringify({type: "hello", token})));
  socket.addEventListener("message", event => {
    const message = JSON.parse(event.data);
    if (message.type === "error") {  // an action sent as the game ended is moot: nothing is left to choose
      return view && view.over ? undefined : showError(message.message, message.hint);
    }
    view = message;
    if (view.over) showError("");
    draw();
  });
  socket.addEventListener("close", event => {
    if (event.code >= 4000) closedForGood = true;  // refused: another try would be refused too
    document.getElementById("status").textContent = closedForGood ? "Disconnected." : "Disconnected; reconnecting…";
    if (!closedForGood) setTimeout(connect, 2000);
  });
}

document.addEventListener("keydown", event => {
  if (event.target.tagName === "INPUT" || event.ctrlKey || event.altKey || event.metaKey) return;
  const n = Number(event.key);
  if (n >= 1 && n <= 9 && view && n <= view.actions.length) act(n - 1);
});

document.getElementById("watch").href = "/watch/" + gameId + "/" + seatText + location.hash;
connect();
