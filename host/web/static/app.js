// Conductor's web view: draws the game snapshot the app publishes, live over server-sent events.
"use strict";

const $ = (id) => document.getElementById(id);
let pin = sessionStorage.getItem("conductor-pin") || "";
let cameraOn = false;
// The session token the server put in the page: it proves a request comes from this page.
const token = document.querySelector('meta[name="conductor-token"]')?.content || "";

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function card(c) {
  const node = el("div", "card" + (c.locked ? " locked" : ""));
  node.dataset.number = c.number;
  node.append(el("div", "number", String(c.number)));
  if (c.ability) node.append(el("div", "ability", c.ability.replaceAll("-", " ")));
  return node;
}

// A seat's box, headed with its name and whether it is to play or has won.
function seatBox(seat, label, turn) {
  const winners = new Set(turn.winners || []);
  const box = el("div", "seat");
  box.dataset.seat = seat;
  if (turn.on_turn === seat) box.classList.add("on-turn");
  if (winners.has(seat)) box.classList.add("winner");
  const name = el("div", "seat-name");
  name.append(el("span", "", label));
  name.append(el("span", "", winners.has(seat) ? "winner" : turn.on_turn === seat ? "to play" : ""));
  box.append(name);
  return box;
}

function drawTrains(table, turn) {
  const root = el("div");
  for (const seat of table.seats) {
    const box = seatBox(seat.seat, "Seat " + seat.seat, turn);
    const cards = el("div", "cards");
    seat.cards.forEach((c) => cards.append(card(c)));
    box.append(cards);
    root.append(box);
  }
  const faceup = el("div", "faceup");
  faceup.append(el("div", "seat-name", "Face up beside the draw pile · draw pile: " + table.draw_pile + " cards"));
  const cards = el("div", "cards");
  table.faceup.forEach((c) => cards.append(card(c)));
  faceup.append(cards);
  root.append(faceup);
  return root;
}

function trackCard(c, extra) {
  const node = el("div", "card track " + c.kind + (extra ? " " + extra : ""));
  node.dataset.name = c.name;
  node.append(el("div", "number", String(c.value)));
  if (c.kind !== "track") node.append(el("div", "ability", c.kind));
  return node;
}

function drawRollecate(table, turn) {
  const root = el("div");
  const railway = el("div", "railway");
  railway.append(el("div", "seat-name", "Railway from its start · draw pile: " + table.draw_pile + " cards"));
  const cards = el("div", "cards");
  table.railway.forEach((c, i) => cards.append(trackCard(c, i === table.train ? "train" : "")));
  railway.append(cards);
  root.append(railway);
  for (const seat of table.seats) {
    const box = seatBox(seat.seat, "Seat " + seat.seat + " · " + seat.held + " in hand", turn);
    const pile = el("div", "cards pile");
    if (seat.discard.length === 0) pile.append(el("div", "empty", "discard pile empty"));
    seat.discard.forEach((c) => pile.append(trackCard(c)));
    box.append(pile);
    root.append(box);
  }
  return root;
}

// Train Line: the board as a grid of cells (tap one to pick it for an entry), each seat's pawns.
function drawTrainline(table, turn) {
  const root = el("div");
  const rows = Math.max(...table.cells.map((c) => c.cell[0])) + 1;
  const cols = Math.max(...table.cells.map((c) => c.cell[1])) + 1;
  const board = el("div", "tl-board");
  board.style.gridTemplateColumns = "repeat(" + cols + ", minmax(0, 1fr))";
  board.style.gridTemplateRows = "repeat(" + rows + ", auto)";
  for (const c of table.cells) {
    const cell = el("div", "tl-cell " + c.space);
    cell.dataset.cell = c.cell.join(",");
    cell.style.gridRow = String(c.cell[0] + 1);
    cell.style.gridColumn = String(c.cell[1] + 1);
    if (taps.some((t) => t.join(",") === c.cell.join(","))) cell.classList.add("tapped");
    for (const p of c.pawns) {
      const pawn = el("span", "pawn seat-" + p.seat + " " + p.where, String(p.seat));
      pawn.title = "seat " + p.seat + " (" + p.where + ")";
      cell.append(pawn);
    }
    cell.addEventListener("click", () => tap(c.cell));
    board.append(cell);
  }
  root.append(board);
  for (const seat of table.seats) {
    const box = seatBox(seat.seat, "Seat " + seat.seat + " · " + seat.seated + " of " + table.pawns +
      " seated · " + (seat.supply + (seat.missed ? 1 : 0)) + " off the train", turn);
    if (picked.seat === seat.seat) box.classList.add("picked");
    box.addEventListener("click", () => { picked.seat = picked.seat === seat.seat ? null : seat.seat; redraw(); });
    root.append(box);
  }
  return root;
}

function drawTable(table, turn) {
  if (table && table.kind === "trains") return drawTrains(table, turn);
  if (table && table.kind === "rollecate") return drawRollecate(table, turn);
  if (table && table.kind === "trainline") return drawTrainline(table, turn);
  return el("pre", "raw", JSON.stringify(table, null, 2));
}

// What a player is entering: cells tapped on the drawn table, cards picked, a seat named.
let taps = [];
let picked = { cards: [], takes: "", seat: null };
let lastState = null;

function tap(cell) {
  const key = cell.join(",");
  const at = taps.findIndex((t) => t.join(",") === key);
  if (at >= 0) taps.splice(at, 1); else taps.push(cell);
  redraw();
}

function clearEntry() {
  taps = [];
  picked = { cards: [], takes: "", seat: null };
}

function redraw() { if (lastState) render(lastState); }

// The game's entries on offer (its descriptor's WebInputs): buttons, or taps and cards.
function drawInputs(inputs) {
  const root = $("inputs");
  root.replaceChildren();
  $("inputs-panel").hidden = inputs.length === 0;
  for (const offer of inputs) {
    const box = el("div", "offer");
    box.dataset.input = offer.name;
    box.append(el("div", "offer-label", offer.label));
    for (const choice of offer.choices || []) {
      const button = el("button", "choice", choice.label);
      button.type = "button";
      button.addEventListener("click", () => enter(offer.name, choice.value));
      box.append(button);
    }
    if (offer.taps) box.append(tapEntry(offer));
    root.append(box);
  }
}

function tapEntry(offer) {
  const form = el("div", "tap-entry");
  form.append(el("div", "tapped-cells", taps.length ? "tapped: " + taps.map((t) => "(" + t.join(", ") + ")").join(" → ") :
    "tap the cells on the board"));
  const cards = el("div", "card-picks");
  for (const name of offer.cards || []) {
    const chip = el("button", "chip" + (picked.cards.includes(name) ? " on" : ""), name);
    chip.type = "button";
    chip.dataset.card = name;
    chip.addEventListener("click", () => {
      const at = picked.cards.indexOf(name);
      if (at >= 0) picked.cards.splice(at, 1); else picked.cards.push(name);
      redraw();
    });
    cards.append(chip);
  }
  form.append(cards);
  if (offer.takes) {
    const takes = el("select", "takes");
    takes.append(el("option", "", "card a Pan Handler takes…"));
    takes.options[0].value = "";
    for (const name of offer.cards || []) {
      const option = el("option", "", name);
      option.value = name;
      option.selected = picked.takes === name;
      takes.append(option);
    }
    takes.addEventListener("change", () => { picked.takes = takes.value; });
    form.append(takes);
  }
  const send = el("button", "send", "Send");
  send.type = "button";
  send.addEventListener("click", () => enter(offer.name, {
    cells: taps, cards: picked.cards, takes: picked.takes || null, seat: picked.seat,
  }));
  const clear = el("button", "clear", "Clear");
  clear.type = "button";
  clear.addEventListener("click", () => { clearEntry(); redraw(); });
  form.append(send, clear);
  return form;
}

async function enter(name, value) {
  const response = await post("/input", JSON.stringify({ input: name, value: value }));
  if (response && response.ok) { clearEntry(); redraw(); }
}

function render(state) {
  if (!state || !state.game) return;
  lastState = state;
  document.title = "Conductor — " + state.title;
  $("title").textContent = state.title;
  const turn = state.turn || {};
  const status = $("status");
  const over = (turn.winners || []).length > 0;
  status.textContent = over ? "won by seat " + turn.winners.join(" and ") :
    turn.on_turn === null || turn.on_turn === undefined ? state.status || "" : "seat " + turn.on_turn + " to play";
  status.classList.toggle("over", over);
  const message = $("message");
  if (state.message && state.message.text) {
    message.hidden = false;
    message.className = "message " + (state.message.level || "info");
    message.textContent = state.message.text;
  } else {
    message.hidden = true;
  }
  const table = $("table");
  table.replaceChildren(drawTable(state.table, turn));
  const log = $("log");
  log.replaceChildren(...(state.log || []).slice().reverse().map((entry) => {
    const item = el("li", entry.verdict || "", entry.text);
    item.value = entry.seq;
    return item;
  }));
  const scores = state.scores || [];
  $("scores-panel").hidden = scores.length === 0;
  $("scores").replaceChildren(...scores.map((row) => {
    const tr = el("tr");
    tr.append(el("th", "", "Seat " + row.seat), el("td", "", String(row.score)));
    return tr;
  }));
  drawInputs(state.inputs || []);
  cameraOn = Boolean(state.camera);
  if (cameraOn) refreshCamera();
}

function withPin(url) {
  return pin ? url + (url.includes("?") ? "&" : "?") + "pin=" + encodeURIComponent(pin) : url;
}

function refreshCamera() {
  const img = $("camera");
  const probe = new Image();
  probe.onload = () => { img.src = probe.src; img.hidden = false; $("no-camera").hidden = true; };
  probe.src = withPin("/frame.jpg?t=" + Date.now());
}

async function post(path, body) {
  const headers = { "X-Conductor-Token": token, "X-Conductor-Pin": pin };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, { method: "POST", headers: headers, body: body }).catch(() => null);
  if (response && (response.status === 401 || response.status === 429)) askPin(await pinProblem(response));
  return response;
}

function send(control) { return post("/" + control); }

// What to tell the player about a refused PIN (none for a first visit).
async function pinProblem(response) {
  const answer = await response.json().catch(() => ({}));
  if (answer.pin === "locked") return "Too many wrong PINs: try again in " + answer.seconds + " s.";
  if (answer.pin === "wrong") return "Wrong PIN: look at Conductor's screen and try again.";
  return "";
}

function askPin(problem) {
  const dialog = $("pin-dialog");
  const error = $("pin-error");
  error.textContent = problem || "";
  error.hidden = !problem;
  if (!dialog.open) dialog.showModal();
}

function connect() {
  const events = new EventSource(withPin("/events"));
  events.onmessage = (event) => render(JSON.parse(event.data));
  events.onerror = async () => {
    events.close();
    $("status").textContent = "reconnecting…";
    const probe = await fetch(withPin("/state")).catch(() => null);
    if (probe && (probe.status === 401 || probe.status === 429)) {
      askPin(await pinProblem(probe));
      return;
    }
    setTimeout(connect, 1500);
  };
}

// The PIN is tried once before the live connection opens, so a wrong one is said at once.
$("pin-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const tried = $("pin").value.trim();
  const answer = await fetch("/state", { headers: { "X-Conductor-Pin": tried } }).catch(() => null);
  if (!answer) { askPin("Conductor does not answer: is it still running?"); return; }
  if (!answer.ok) { askPin(await pinProblem(answer)); return; }
  pin = tried;
  sessionStorage.setItem("conductor-pin", pin);
  $("pin-dialog").close();
  connect();
});
$("undo").addEventListener("click", () => send("undo"));
$("accept").addEventListener("click", () => send("accept"));
setInterval(() => { if (cameraOn) refreshCamera(); }, 1000);
connect();
