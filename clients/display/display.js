/* The hall display of one play-off: /display/{playoff}#key=<display key>.
 *
 * The page renders the hall view the server computes (orchestrator/views/hall/)
 * and decides nothing: which games are on, which game is next, which break is in
 * force, the marks and totals, the words, all come in the view. Between frames it
 * only counts: the running side of each clock down from the server's values, and
 * the countdowns to the instants the view names, on the server's time as the
 * connection measures it. While the link is down every clock stands still and the
 * page says, in large type, that the connection is lost and the clocks shown may be
 * behind (not that they stopped: the games go on in the hall).
 *
 * The key is in the address's fragment, which the browser never sends: the page
 * hands it to the server in the websocket's first frame only, never in a URL it
 * requests; the page makes no REST reads (docs/protocol.md). An old link with
 * ?key= still works, and the page puts its key into the fragment at once, so that
 * a reload or a bookmark does not send it again.
 *
 * Times of day are the hall's: in the event's time zone, as the view names it.
 * With ?viewer_zone=1 in the address (a broadcast followed from abroad) the page
 * also shows the time in the viewer's own zone, this browser's: beside the hall's
 * clock, and after the next game's planned start.
 */

import { PlayoffConnection } from "../common/connection.js";
import { clockTime, hallZone, viewerTime } from "../common/time.js";
import { setAttr, setText } from "../common/html.js";
import { askedLanguage, setWords, t } from "../common/words.js";
import { fitNames } from "./fit.js";
import { render } from "./render.js";
import { tickClocks, tickCountdowns } from "./tick.js";

const where = /^(.*)\/display\/([^/]+)\/?$/.exec(location.pathname);
const prefix = where ? where[1] : "";
const playoffId = where ? decodeURIComponent(where[2]) : "";
const key = takeKey();
const viewerZone = new URLSearchParams(location.search).get("viewer_zone") === "1";

/** The display key, from the fragment (#key=...) or an old link's query (?key=...). */
function takeKey() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const query = new URLSearchParams(location.search);
  const found = fragment.get("key") || query.get("key") || "";
  if (query.has("key")) {
    query.delete("key");
    if (found) fragment.set("key", found);
    const search = query.toString();
    history.replaceState(history.state, "",
      location.pathname + (search ? `?${search}` : "") + (fragment.toString() ? `#${fragment}` : ""));
  }
  return found;
}

const CONNECTION_TEXT = {
  live: "live",
  connecting: "connecting…",
  reconnecting: "offline",
};

const OFFLINE_TEXT = "Connection lost: clocks shown may be behind. Reconnecting…";

// The screen's language: ?lang= in its address, else its display key's. The server
// words the view in it, and its welcome brings the page's own few words (a hall
// screen reads nothing over REST).
const asked = askedLanguage();

/** What the page shows, for the hall's own checks and for tests. */
const shown = {
  playoffId,
  connection: "connecting",
  synced: false,
  error: null,
  lastSeq: null,   // the last event seq the connection applied
  viewSeq: -1,     // the seq of the view on the page
  kind: null,
  mode: "waiting",
  champion: null,
  clocks: {},      // "m:g" -> the clock as drawn: ms, running side as shown, texts
  shownAt: 0,      // performance.now() when those values were computed and drawn
  frames: 0,
  events: 0,
  views: 0,
  clockMessages: 0,
  snapshots: 0,
  welcomes: 0,
};
window.displayState = shown;

// A hall screen: the server takes a display key only, never a token that can send
// commands, which anyone reading this screen's address would have.
const conn = new PlayoffConnection({
  playoffId, prefix, token: () => key, client: "hall-display", view: "hall", screen: "hall",
  language: asked,
});

let dirty = true;

function showConnection() {
  const state = conn.state === "refused" ? "error" : conn.state;
  shown.connection = state;
  shown.error = state === "error" ? conn.error : shown.error;
  const el = document.getElementById("conn");
  setAttr(el, "data-state", state);
  // Refused: the server's words, often long, go on the stage; the pill stays short.
  setText(el, state === "error" ? t("refused") : t(CONNECTION_TEXT[state] || state));
  const offline = document.getElementById("offline");
  offline.hidden = state !== "reconnecting";
  setText(offline, state === "reconnecting" ? t(OFFLINE_TEXT) : "");
}

function draw() {
  if (dirty) {
    dirty = false;
    const view = conn.view;
    shown.viewSeq = view ? view.seq : -1;
    shown.kind = view ? view.kind : null;
    shown.mode = view ? view.mode : shown.error ? "error" : "waiting";
    shown.champion = view && view.champion ? view.champion.id : null;
    if (render(view, { playoffId, error: shown.error, viewerZone })) fitNames();
  }
  const now = conn.serverNow();
  const frozen = conn.frozenAt !== null && !conn.synced;
  shown.clocks = tickClocks(conn.view, now, conn.synced, frozen);
  shown.shownAt = performance.now();
  tickCountdowns(now, viewerZone);
  setText(document.getElementById("wallclock"),
    conn.view ? clockTime(now, hallZone(conn.view)) : "");
  const viewerClock = document.getElementById("viewerclock");
  viewerClock.hidden = !(viewerZone && conn.view);
  setText(viewerClock, viewerZone && conn.view ? t("your time {time}", { time: viewerTime(now) }) : "");
  shown.synced = conn.synced;
  shown.lastSeq = conn.seq;
  shown.frames = conn.counts.frames;
  shown.events = conn.counts.events;
  shown.views = conn.counts.views;
  shown.clockMessages = conn.counts.clocks;
  shown.snapshots = conn.counts.snapshots;
  shown.welcomes = conn.counts.welcomes;
}

function frame() {
  draw();
  requestAnimationFrame(frame);
}

conn.on("view", () => { dirty = true; });
conn.on("welcome", (d) => {
  if (!d || !d.language) return;
  setWords(d.language, d.words);
  dirty = true;
  showConnection();
});
conn.on("status", () => { showConnection(); dirty = true; });
conn.on("refused", (code) => {
  // A key that can send commands must not stay in a public screen's address.
  if (code === 4403) forgetKey();
  showConnection();
  dirty = true;
});

/** Take the key out of the address (a reload then asks for a display key). */
function forgetKey() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  fragment.delete("key");
  const rest = fragment.toString();
  history.replaceState(history.state, "", location.pathname + location.search + (rest ? `#${rest}` : ""));
}

// A new size or a late font changes what fits.
addEventListener("resize", () => fitNames());
if (document.fonts) document.fonts.ready.then(() => fitNames());

// A hidden tab gets no animation frames: keep what is exposed current regardless.
setInterval(() => { if (document.hidden) draw(); }, 500);

if (!playoffId || !key) {
  shown.error = !playoffId
    ? t("No play-off in the address.")
    : t("No display key: open /display/{playoff}#key=…");
  shown.connection = "error";
  const el = document.getElementById("conn");
  setAttr(el, "data-state", "error");
  setText(el, shown.error);
  draw();
} else {
  showConnection();
  conn.connect();
  requestAnimationFrame(frame);
}
