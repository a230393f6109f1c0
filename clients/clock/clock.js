/* The board clock: /clock/{playoff}#key=<board key>, on a tablet beside the board.
 *
 * Two halves, one per player: the player who has moved taps their own half, as on a
 * physical clock (a touch or a click anywhere on it; on a keyboard the space bar
 * presses the running side, "a" or the left Shift the left half, "l" or the right
 * Shift the right half). The page renders the board view the server computes
 * (orchestrator/views/board.py) and decides nothing: who plays which colour, which
 * side sits on the left, the increment and from which move, the draw odds, the flag
 * and the result all come in the view.
 *
 * Between frames it counts the running side down from the server's values, on the
 * server's time as the connection measures it. A press is stamped here, at the tap
 * (this machine's monotonic clock plus the measured offset), switches the halves at
 * once, and goes to the server with its stamp: the server charges the time measured
 * here. While the link is down the clocks run on and presses wait, in order, with
 * their stamps; they go when the link is back (marked `queued`), up to the outage the
 * server allows (the view's `allowance.outage_ms`). The next frame from the server
 * replaces what the page worked out.
 *
 * The key is in the address's fragment, which the browser never sends: the page
 * hands it to the server in the websocket's first frame only.
 *
 * The page speaks its key's language, or the one its address asks for (`?lang=es`,
 * sent in the hello): the server words the view in it and names it in the welcome,
 * and the page's own words (t(), data-t) follow.
 */

import { PlayoffConnection } from "../common/connection.js";
import { clockUrgency, formatClock, hallTime, hallZone } from "../common/time.js";
import { setAttr, setText } from "../common/html.js";
import { askedLanguage, setWords, t, useLanguage } from "../common/words.js";

const where = /^(.*)\/clock\/([^/]+)\/?$/.exec(location.pathname);
const prefix = where ? where[1] : "";
const playoffId = where ? decodeURIComponent(where[2]) : "";
const key = new URLSearchParams(location.hash.slice(1)).get("key") || "";

const STATUS_EVERY_MS = 10000;  // the board says it is here, with its battery
const OTHER = { white: "black", black: "white" };
// The page's words, in English: t() gives them in the page's language where shown.
const COLOUR_WORD = { white: "White", black: "Black" };
const FLAG_FELL = { white: "White's flag fell", black: "Black's flag fell" };
const CONNECTION_TEXT = { live: "online", connecting: "connecting…", reconnecting: "offline" };

/** What the page shows and holds, for tests and for the arbiter looking at the tablet. */
const shown = {
  playoffId,
  connection: "connecting",
  error: null,
  status: "waiting",
  halves: { left: null, right: null },  // per half: side, time text, ms, running
  pending: 0,    // presses sent, not yet answered
  queued: 0,     // presses held while the link is down
  sent: [],      // every press sent: its payload (stamps included)
  refused: [],   // the server's words for presses it refused
  through: [],   // each instant this board said it had sent every press up to
};
window.boardState = shown;

const conn = new PlayoffConnection({
  playoffId, prefix, token: () => key, client: "board-clock", view: "board", partial: true,
  // Presses are stamped in the server's time: measure the offset every second.
  pingMs: 1000, language: askedLanguage(),
});

const S = {
  view: null,
  server: null,      // the clock as the server last sent it
  local: null,       // the clock as this page worked it out after its own presses
  queue: [],         // presses waiting for the link, in order
  pending: new Map(),  // command id -> press, until acknowledged or refused
  counter: 0,
  wake: null,
};

/** Server time now: local monotonic time plus the measured offset (running on while
 * the link is down: the game goes on at the board). */
function now() {
  return conn.runningNow();
}

function currentClock() {
  if (S.local && (S.pending.size || S.queue.length || moveCount(S.local) > moveCount(S.server))) {
    return S.local;
  }
  return S.server;
}

function moveCount(clock) {
  if (!clock || !clock.moves) return -1;
  return (Number(clock.moves.white) || 0) + (Number(clock.moves.black) || 0);
}

function remaining(clock, side, at) {
  let ms = Number(clock[`${side}_ms`]) || 0;
  if (clock.running === side) {
    ms -= Math.max(0, at - (Number(clock.server_ms) || 0));
  }
  return Math.max(0, Math.round(ms));
}

function sameGame(clock) {
  const view = S.view;
  return Boolean(view && clock && clock.match === view.match && clock.game === view.game);
}

// ------------------------------------------------------------------ pressing

/** The player of `side` has moved and taps their half. */
function press(side) {
  const view = S.view;
  const clock = currentClock();
  if (!view || !clock || view.status !== "running") return;
  if (clock.running !== side) return;  // a tap on the waiting half does nothing
  const stamp = Math.floor(now());  // the millisecond the press fell in
  const move = clock.next_move;
  // Optimistic: the halves switch at the tap; the server's next frame replaces this.
  const left = remaining(clock, side, stamp);
  const gains = view.increment_ms && move >= (view.increment_from_move || 1) ? view.increment_ms : 0;
  const moves = { ...(clock.moves || { white: 0, black: 0 }) };
  moves[side] = (Number(moves[side]) || 0) + 1;
  const other = OTHER[side];
  S.local = {
    ...clock, [`${side}_ms`]: left + gains, running: other, to_move: other,
    server_ms: stamp, moves, next_move: (Number(moves[other]) || 0) + 1,
  };
  const payload = {
    type: "press", match: view.match, game: view.game, side, move, stamp_ms: stamp, queued: false,
  };
  if (conn.live()) send(payload);
  else S.queue.push(payload);
  watchFlag();
  draw();
}

function send(payload) {
  S.counter += 1;
  const id = conn.command(payload, `b-${conn.instance.slice(0, 8)}-${S.counter}`);
  if (id === null) {
    S.queue.unshift({ ...payload });
    return false;
  }
  S.pending.set(id, payload);
  shown.sent.push(payload);
  return true;
}

/** Back on line: the held presses go, in order, marked as sent after an outage. */
function flush() {
  // Sent before the link dropped, unanswered: again with the same id (the server
  // applies an id once and answers a copy with the same ack).
  for (const [id, payload] of S.pending) conn.command(payload, id);
  while (S.queue.length && conn.live()) {
    const payload = { ...S.queue.shift(), queued: true };
    if (!send(payload)) break;
  }
  if (!S.queue.length) sentThrough();
  draw();
}

// ------------------------------------------------------------------ the flag's instant

/** Tell the server every press stamped before now has been sent: the frames of one
 * connection arrive in order, so a flag that fell before now need wait for nothing
 * more from this board (docs/protocol.md, "through_ms"). */
function sentThrough() {
  const through = Math.floor(now());
  if (conn.ping({ through_ms: through })) shown.through.push(through);
}

const flagWatch = { at: null, timer: null };

/** At the instant the running side's time runs out here, say so at once: the server
 * logs the flag as soon as it knows no press made before it is still coming. */
function watchFlag() {
  const clock = currentClock();
  const view = S.view;
  let at = null;
  if (view && clock && view.status === "running" && clock.running) {
    at = (Number(clock.server_ms) || 0) + (Number(clock[`${clock.running}_ms`]) || 0);
  }
  if (at === flagWatch.at) return;
  clearTimeout(flagWatch.timer);
  flagWatch.at = at;
  flagWatch.timer = null;
  if (at !== null) armFlagWatch(at);
}

function armFlagWatch(at) {
  flagWatch.timer = setTimeout(() => {
    flagWatch.timer = null;
    if (flagWatch.at !== at) return;
    // The offset may have been measured afresh since: wait until the instant has
    // truly come in the server's time, as this page now reckons it.
    if (now() < at) armFlagWatch(at);
    else if (!S.queue.length) sentThrough();
  }, Math.max(0, at - now()) + 1);
}

// ------------------------------------------------------------------ calling the arbiter

function askCall() {
  const view = S.view;
  if (!view || view.status === "over" || view.status === "called") return;
  document.getElementById("confirm-call").hidden = false;
  document.getElementById("call-no").focus();
}

function call() {
  document.getElementById("confirm-call").hidden = true;
  const view = S.view;
  if (!view) return;
  const payload = { type: "call-arbiter", match: view.match, stamp_ms: Math.floor(now()) };
  S.counter += 1;
  if (conn.command(payload, `b-${conn.instance.slice(0, 8)}-${S.counter}`) === null) {
    setText(document.getElementById("notice"),
      t("No connection: call the arbiter by hand; the clocks run on."));
    return;
  }
  // The clock stops at once on this board too; the server's frame confirms it.
  const clock = currentClock();
  if (clock && clock.running) {
    const at = Math.round(now());
    S.local = { ...clock, white_ms: remaining(clock, "white", at),
      black_ms: remaining(clock, "black", at), running: null, status: "paused", server_ms: at };
    S.server = S.local;
  }
  draw();
}

// ------------------------------------------------------------------ drawing

function sideOf(place) {
  const left = (S.view && S.view.left) || "white";
  return place === "left" ? left : OTHER[left];
}

function drawHalf(view, place, clock, at) {
  const el = document.getElementById(`half-${place}`);
  const side = sideOf(place);
  const player = view && view.players ? view.players[side] : null;
  setAttr(el, "data-side", side);
  setText(el.querySelector('[data-role="colour"]'), t(COLOUR_WORD[side]));
  setText(el.querySelector('[data-role="name"]'),
    player ? player.name : (view && view.waits) || "");
  const ms = clock ? remaining(clock, side, at) : null;
  const text = ms === null ? "—" : formatClock(ms);
  const time = el.querySelector('[data-role="time"]');
  setText(time, text);
  setAttr(time, "data-ms", ms === null ? "" : String(ms));
  setAttr(el, "data-low", ms === null ? "no" : clockUrgency(ms));
  const running = Boolean(clock && clock.running === side);
  setAttr(el, "data-running", running ? "true" : "false");
  const moves = clock && clock.moves ? Number(clock.moves[side]) || 0 : 0;
  setText(el.querySelector('[data-role="moves"]'), clock ? t("Moves: {count}", { count: moves }) : "");
  setText(el.querySelector('[data-role="increment"]'), (view && view.increment) || "");
  const flag = el.querySelector('[data-role="flag"]');
  const fell = Boolean(view && view.flag === side);
  flag.hidden = !fell;
  setAttr(el, "data-flag", fell ? "true" : "false");
  el.setAttribute("aria-label", player
    ? t("{colour}, {name}: {time}", { colour: t(COLOUR_WORD[side]), name: player.name, time: text })
    : t("{colour}: {time}", { colour: t(COLOUR_WORD[side]), time: text }));
  shown.halves[place] = { side, text, ms, running, moves, flag: fell };
}

function draw() {
  // The view says which game is at the board (a flagged one stays, at 0 with its
  // flag, until the next starts), and its status: the page renders it.
  const view = S.view;
  const at = now();
  const clock = currentClock();
  const app = document.getElementById("app");
  const status = view ? view.status : "waiting";
  shown.status = status;
  setAttr(app, "data-status", status);
  drawHalf(view, "left", clock, at);
  drawHalf(view, "right", clock, at);
  shown.pending = S.pending.size;
  shown.queued = S.queue.length;
  setText(document.getElementById("title"), view ? view.title || "" : t("Board clock"));
  if (!view) return;
  setText(document.getElementById("game"), view.game_name || "");
  const drawMeans = document.getElementById("draw-means");
  drawMeans.hidden = !view.draw_means;
  setText(drawMeans, view.draw_means || "");
  const called = document.getElementById("called");
  called.hidden = !view.called;
  setText(called, view.called
    ? t("Arbiter called at {time}. The clocks are stopped until the arbiter resumes them.",
      { time: hallTime(view.called.at_ms, hallZone(view), true) })
    : "");
  document.getElementById("call").disabled = status === "over" || status === "called";
  setText(document.getElementById("notice"), notice(view));
}

function notice(view) {
  if (view.flag) return t(FLAG_FELL[view.flag]);
  if (view.result) return t("Game over: {result}", { result: view.result });
  if (view.status === "waiting") return view.waits || t("Waiting for the arbiter to start the game");
  if (view.status === "paused") return t("Clocks stopped by the arbiter");
  return "";
}

function showConnection() {
  const state = conn.state === "refused" ? "error" : conn.state;
  shown.connection = state;
  const el = document.getElementById("conn");
  setAttr(el, "data-state", state);
  const word = CONNECTION_TEXT[state] ? t(CONNECTION_TEXT[state]) : state;
  const text = S.queue.length
    ? t("{connection} · {count} held", { connection: word, count: S.queue.length }) : word;
  setText(el, state === "error" ? t("refused") : text);
  if (state === "error") {
    shown.error = conn.error;
    setText(document.getElementById("notice"), conn.error || t("The board key was refused"));
  }
}

function frame() {
  draw();
  showConnection();
  requestAnimationFrame(frame);
}

// ------------------------------------------------------------------ the connection

conn.on("view", (view) => {
  if (!view || view.view !== "board") return;
  S.view = view;
  if (view.clock) S.server = view.clock;
  else S.server = null;
  if (!S.pending.size && !S.queue.length && !(S.local && moveCount(S.local) > moveCount(S.server))) {
    S.local = null;
  }
  watchFlag();
  draw();
});

conn.on("clock", (clock) => {
  // A press's clock, between views: the view says everything else (a call, its end,
  // a flag come with a view of their own).
  if (!sameGame(clock)) return;
  S.server = clock;
  if (S.view) S.view = { ...S.view, clock };
  watchFlag();
  draw();
});

conn.on("ack", (id) => {
  if (S.pending.delete(id)) draw();
});

conn.on("error", (id, d) => {
  if (!id) return;
  if (!S.pending.has(id)) {
    setText(document.getElementById("notice"), d.reason || t("refused"));
    return;
  }
  S.pending.delete(id);
  shown.refused.push(d.reason || d.code || "refused");
  if (!S.pending.size) S.local = null;  // the server's clock stands
  watchFlag();
  if (d.kind === "outage-too-long") {
    S.queue = [];
    setText(document.getElementById("notice"), t("The arbiter has been told and sets the clocks."));
  }
  draw();
});

// The welcome names the language the server words this board in (its address's, else
// its key's) and brings the page's own words in it.
conn.on("welcome", (d) => {
  if (!d || !d.language) return;
  setWords(d.language, d.words);
  draw();
});

conn.on("status", (state) => {
  showConnection();
  if (state === "live") {
    flush();
    reportStatus();
  }
});

conn.on("refused", () => showConnection());

// ------------------------------------------------------------------ input

for (const place of ["left", "right"]) {
  const el = document.getElementById(`half-${place}`);
  // A press acts on touch-down, as a physical clock does, not on release.
  el.addEventListener("pointerdown", (e) => {
    e.preventDefault();
    press(sideOf(place));
    wakeUp();
  });
  el.addEventListener("click", (e) => {
    if (e.detail === 0) press(sideOf(place));  // a keyboard's activation of the button
  });
  el.addEventListener("contextmenu", (e) => e.preventDefault());
}

document.addEventListener("keydown", (e) => {
  if (!document.getElementById("confirm-call").hidden) {
    if (e.key === "Escape") document.getElementById("confirm-call").hidden = true;
    return;
  }
  let side = null;
  if (e.code === "Space" || e.key === " ") side = currentClock() ? currentClock().running : null;
  else if (e.key === "a" || e.key === "A" || e.code === "ShiftLeft") side = sideOf("left");
  else if (e.key === "l" || e.key === "L" || e.code === "ShiftRight") side = sideOf("right");
  else return;
  e.preventDefault();
  if (e.repeat || !side) return;
  press(side);
});

document.getElementById("call").addEventListener("click", askCall);
document.getElementById("call-no").addEventListener("click", () => {
  document.getElementById("confirm-call").hidden = true;
});
document.getElementById("call-yes").addEventListener("click", call);
document.getElementById("fullscreen").addEventListener("click", () => {
  const root = document.documentElement;
  if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
  else if (root.requestFullscreen) root.requestFullscreen().catch(() => {});
  wakeUp();
});

// ------------------------------------------------------------------ awake and present

/** The screen stays on while the page shows (the Wake Lock API, where the browser has it). */
async function wakeUp() {
  if (S.wake || !("wakeLock" in navigator) || document.visibilityState !== "visible") return;
  try {
    S.wake = await navigator.wakeLock.request("screen");
    S.wake.addEventListener("release", () => { S.wake = null; });
  } catch (err) {
    S.wake = null;  // refused (battery saver, no gesture yet): asked again at the next tap
  }
}
document.addEventListener("visibilitychange", wakeUp);

async function battery() {
  if (!navigator.getBattery) return { battery: null, charging: null };
  try {
    const b = await navigator.getBattery();
    return { battery: b.level, charging: b.charging };
  } catch (err) {
    return { battery: null, charging: null };
  }
}

async function reportStatus() {
  if (!S.view || !conn.live()) return;
  const power = await battery();
  S.counter += 1;
  conn.command({ type: "board-status", match: S.view.match, ...power },
    `s-${conn.instance.slice(0, 8)}-${S.counter}`);
}

setInterval(reportStatus, STATUS_EVERY_MS);
// A hidden tab gets no animation frames: keep what is exposed current regardless.
setInterval(() => { if (document.hidden) draw(); }, 500);

/** Without a play-off or a key there is nothing to connect to: the page says why. */
function cannotOpen() {
  shown.error = !playoffId ? t("No play-off in the address.")
    : t("No board key: open {address}", { address: "/clock/{playoff}#key=…" });
  shown.connection = "error";
  const el = document.getElementById("conn");
  setAttr(el, "data-state", "error");
  setText(el, t("no key"));
  setText(document.getElementById("notice"), shown.error);
}

if (!playoffId || !key) {
  // No connection to bring the words: fetch those of the language the address asks for.
  cannotOpen();
  useLanguage(askedLanguage(), prefix).then(cannotOpen);  // said again in it
} else {
  conn.connect();
  wakeUp();
  requestAnimationFrame(frame);
}
