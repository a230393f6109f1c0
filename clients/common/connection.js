/* One websocket session with a play-off (protocol v1, docs/protocol.md), shared by
 * the hall display and the arbiter console.
 *
 * The server decides and computes; this module only keeps what it sent:
 * - the last view frame (what the page renders), with each clock replaced by the
 *   clock an event frame carries, as the server computed it after that event;
 * - the last seq, to resume after a reconnect with exactly what was missed;
 * - the offset of the server's clock to ours, so clocks and countdowns run locally
 *   between frames, and a board can stamp a press in the server's time. Each ping
 *   this page sends carries an id that the server's pong echoes: the round trip
 *   bounds the offset on both sides, and the shortest recent round trip gives the
 *   estimate (its midpoint), within the lower bound every frame from the server sets
 *   (a frame cannot arrive before it was sent).
 *
 * It holds no rules of the play-off: no event types, no moves, no turns.
 */

import { localNow } from "./time.js";

const BACKOFF_FIRST_MS = 500;  // reconnection delay, doubling...
const BACKOFF_MAX_MS = 5000;   // ...up to this, jittered to 50-100 %
const STABLE_MS = 5000;        // a connection up this long resets the backoff
const CLIENT_PING_MS = 5000;   // our own pings: offset samples and liveness
const FIRST_PINGS = 5;         // pings sent on each welcome, ...
const FIRST_PING_GAP_MS = 150; // ...this far apart: a good offset from the start
const ROUND_TRIPS_KEPT = 120;  // the round trips the estimate chooses from (2 min for a board)
// Once measured, the offset moves towards a new estimate by at most this much per
// millisecond (0.5 %): two presses a second apart are then never more than 5 ms
// apart in error, however the estimate moves. Only an offset the frames prove wrong
// (outside the bounds their times set: another server, a tablet's clock reset) is
// moved at once, and only as far as the nearest bound: one round trip made slow by
// a network coming back never moves it far.
const OFFSET_SLEW = 0.005;
// The server's time as a page reckons it never runs backwards: a correction that
// would take it back holds it still until it catches up. A board has said "every press
// stamped before now is sent"; a press stamped earlier after that could be one the
// server had already given up waiting for (a false flag). A correction larger than
// this is another clock altogether (another server, a tablet's clock reset): taken at
// once.
const MONOTONE_MS = 1000;
const SILENT_MS = 12000;       // no frame for this long: the connection is dead
const WELCOME_TIMEOUT_MS = 8000;
const OFFSET_SAMPLES = 6;      // one-way samples kept for the lower bound

export class PlayoffConnection {
  /**
   * @param {object} options
   * @param {string} options.playoffId
   * @param {() => string} options.token  the token or display key (read at each hello)
   * @param {string} options.client        a name for the server's logs
   * @param {"hall"|"arbiter"} options.view the view this page renders
   * @param {"hall"} [options.screen]      a hall screen: the server refuses it any
   *                                       key but a display key (close 4403)
   * @param {string} [options.prefix]      a path prefix before /ws and /api
   * @param {boolean} [options.partial]    the server sends this page only some events
   *                                       (a board: its own match's), so a gap in seq
   *                                       is not a loss; each view says all it shows
   * @param {number} [options.pingMs]      how often this page pings: a board, which
   *                                       stamps presses, measures its offset more often
   * @param {string|(() => string)|null} [options.language] the language to word the
   *                                       views in (a screen's ?lang=, a console's
   *                                       switch: a function is read at each hello);
   *                                       none: its key's. The welcome says the one in
   *                                       force (event "welcome")
   */
  constructor({ playoffId, token, client, view, screen = null, prefix = "", partial = false,
    pingMs = CLIENT_PING_MS, language = null }) {
    this.playoffId = playoffId;
    this.token = token;
    this.client = client;
    this.viewKind = view;
    this.screen = screen;
    this.language = language;
    // This page's own id, the same in every hello: a reconnection replaces the
    // connection the server may still hold for it, never another screen's.
    this.instance = (globalThis.crypto && crypto.randomUUID)
      ? crypto.randomUUID().replaceAll("-", "")
      : Array.from({ length: 32 }, () => Math.floor(Math.random() * 16).toString(16)).join("");
    this.prefix = prefix;
    this.partial = partial;
    this.language = language;
    this.view = null;          // the last view, clocks kept current by event frames
    this.seq = null;           // seq of the last event or snapshot applied
    this.viewSeq = -1;
    this.offsetMs = 0;         // server ms - local ms
    this._latest = -Infinity;  // the latest server time this page has reckoned
    this._offsetAt = null;     // local time the offset was last set (null: never)
    this._measured = 0;        // round trips measured since the page opened
    this.state = "connecting"; // connecting | live | reconnecting | refused
    this.synced = false;       // welcomed and caught up: clocks may run
    this.frozenAt = null;      // server ms at which clocks froze (connection lost)
    this.role = null;
    this.error = null;
    this._refusal = null;      // the reason of an error frame before welcome, whole
    this.counts = { frames: 0, events: 0, views: 0, clocks: 0, snapshots: 0, welcomes: 0 };
    this.listeners = new Map();
    this._ws = null;
    this._attempt = 0;
    this._timer = null;
    this._welcomed = false;
    this._welcomeSeq = null;
    this._openedAt = 0;
    this._lastFrameAt = 0;
    this._offsets = [];
    this._roundTrips = [];     // { rtt, offset, upper } of our own pings, oldest first
    this._pings = new Map();   // ping id -> local time it was sent
    this._pingCounter = 0;
    this._counter = 0;
    this._prefix = Array.from(crypto.getRandomValues(new Uint8Array(4)),
      (b) => b.toString(16).padStart(2, "0")).join("");
    setInterval(() => this._watch(), 1000);
    setInterval(() => { if (this._welcomed) this._ping(); }, pingMs);
  }

  /** Listen to "view", "clock", "event", "status", "ack", "refused", "error". */
  on(name, handler) {
    if (!this.listeners.has(name)) this.listeners.set(name, []);
    this.listeners.get(name).push(handler);
    return this;
  }

  _emit(name, ...args) {
    for (const handler of this.listeners.get(name) || []) handler(...args);
  }

  /** The server's time now, in ms: frozen while the connection is down. */
  serverNow() {
    return this.frozenAt !== null ? this.frozenAt : this.runningNow();
  }

  /** The server's time now, in ms, running on while the connection is down (a board
   * keeps its clocks running through an outage); never earlier than a time it gave
   * before, unless the correction is larger than MONOTONE_MS. */
  runningNow() {
    const reckoned = localNow() + this.offsetMs;
    if (reckoned >= this._latest || this._latest - reckoned > MONOTONE_MS) {
      this._latest = reckoned;
    }
    return this._latest;
  }

  connect() {
    this._timer = null;
    let sock;
    try {
      const scheme = location.protocol === "https:" ? "wss://" : "ws://";
      sock = new WebSocket(
        `${scheme}${location.host}${this.prefix}/ws/playoffs/${encodeURIComponent(this.playoffId)}`);
    } catch (err) {
      this._lost(null, 1006, "cannot open");
      return;
    }
    this._ws = sock;
    this._welcomed = false;
    this._openedAt = localNow();
    this._lastFrameAt = this._openedAt;
    this._refusal = null;
    sock.onopen = () => {
      if (sock !== this._ws) return;
      const hello = {
        token: this.token(), last_seq: this.seq, client: this.client, view: this.viewKind,
        instance: this.instance,
      };
      if (this.screen) hello.screen = this.screen;
      const language = typeof this.language === "function" ? this.language() : this.language;
      if (language) hello.language = language;
      sock.send(JSON.stringify({ t: "hello", d: hello }));
    };
    sock.onmessage = (message) => { if (sock === this._ws) this._frame(message.data); };
    sock.onclose = (event) => { if (sock === this._ws) this._lost(sock, event.code, event.reason); };
    sock.onerror = () => { /* onclose follows */ };
  }

  /** Close for good (sign-out). */
  close() {
    const sock = this._ws;
    this._ws = null;
    clearTimeout(this._timer);
    this._timer = null;
    if (sock) sock.close(1000);
    this._setState("connecting");
  }

  /** Send a command over the websocket; its id, or null when the link is down. */
  command(payload, id) {
    if (!this.live()) return null;
    const commandId = id || this.newId();
    this._send({ t: "cmd", id: commandId, d: payload });
    return commandId;
  }

  newId() {
    this._counter += 1;
    return `${this.client}-${this._prefix}-${this._counter}`;
  }

  live() {
    return !!this._ws && this._ws.readyState === WebSocket.OPEN && this.state === "live";
  }

  _send(frame) {
    if (this._ws && this._ws.readyState === WebSocket.OPEN) {
      try { this._ws.send(JSON.stringify(frame)); } catch (err) { /* closing */ }
    }
  }

  _setState(state) {
    this.state = state;
    this._emit("status", state);
  }

  /** Ping now (fields of `extra` go with it: a board's `through_ms`); false when
   * there is no live connection to ping on. */
  ping(extra = {}) {
    if (!this._welcomed) return false;
    this._ping(extra);
    return true;
  }

  _ping(extra = {}) {
    this._pingCounter += 1;
    const id = `p${this._pingCounter}`;
    this._pings.set(id, localNow());
    if (this._pings.size > 64) this._pings.delete(this._pings.keys().next().value);
    this._send({ ...extra, t: "ping", id });
  }

  /** A frame the server sent at `serverMs` arrived at `receivedAt`: the offset is at
   * least their difference (the frame's transit time is not negative). */
  _sample(serverMs, receivedAt) {
    if (typeof serverMs !== "number" || !Number.isFinite(serverMs)) return;
    this._offsets.push(serverMs - receivedAt);
    if (this._offsets.length > OFFSET_SAMPLES) this._offsets.shift();
    this._estimate();
  }

  /** Our ping `id`, stamped `serverMs` by the server, came back at `receivedAt`. */
  _roundTrip(id, serverMs, receivedAt) {
    const sentAt = this._pings.get(id);
    this._pings.delete(id);
    if (sentAt === undefined || typeof serverMs !== "number" || !Number.isFinite(serverMs)) {
      this._sample(serverMs, receivedAt);
      return;
    }
    // The server stamped it between our send and our receipt: the offset lies in
    // [serverMs - receivedAt, serverMs - sentAt]; the midpoint errs by at most half
    // the round trip, and by the difference of the two ways' delays in truth.
    this._roundTrips.push({
      rtt: receivedAt - sentAt, offset: serverMs - (sentAt + receivedAt) / 2,
      upper: serverMs - sentAt,
    });
    if (this._roundTrips.length > ROUND_TRIPS_KEPT) this._roundTrips.shift();
    this._measured += 1;
    this._sample(serverMs, receivedAt);
  }

  _estimate() {
    const lower = this._offsets.length ? Math.max(...this._offsets) : -Infinity;
    let target = lower;
    let upper = Infinity;
    if (this._roundTrips.length) {
      let best = this._roundTrips[0];
      for (const sample of this._roundTrips) {
        if (sample.rtt < best.rtt) best = sample;
        upper = Math.min(upper, sample.upper);
      }
      upper = Math.max(upper, lower);
      target = Math.min(Math.max(best.offset, lower), upper);
    }
    if (!Number.isFinite(target)) return;
    // Once round trips were measured, a bound from one way alone (a new connection's
    // first frames) is no estimate: wait for this connection's own round trips.
    if (!this._roundTrips.length && this._measured > 0) return;
    const at = localNow();
    if (this._measured < FIRST_PINGS) {
      this.offsetMs = target;  // the page's first seconds: set outright
    } else {
      // Proved wrong: to the nearest bound at once; then gently towards the estimate.
      const bounded = Math.min(Math.max(this.offsetMs, lower), upper);
      const most = OFFSET_SLEW * (at - this._offsetAt);
      this.offsetMs = bounded + Math.max(-most, Math.min(most, target - bounded));
    }
    this._offsetAt = at;
  }

  _watch() {
    if (!this._ws) return;
    const now = localNow();
    if (!this._welcomed && now - this._openedAt > WELCOME_TIMEOUT_MS) {
      this._lost(this._ws, 4408, "no welcome");
    } else if (this._welcomed && now - this._lastFrameAt > SILENT_MS) {
      this._lost(this._ws, 4408, "silent");
    }
  }

  /** The connection is gone: freeze the clocks, come back later with our last seq. */
  _lost(sock, code, reason) {
    if (sock && sock !== this._ws) return;
    this._ws = null;
    if (sock) {
      sock.onopen = sock.onmessage = sock.onclose = null;
      try { sock.close(); } catch (err) { /* already closed */ }
    }
    if (this.frozenAt === null) this.frozenAt = this.runningNow();
    const wasUp = this._welcomed && localNow() - this._openedAt >= STABLE_MS;
    this._welcomed = false;
    this.synced = false;
    if (wasUp) this._attempt = 0;
    let delay;
    if (code === 4401 || code === 4403 || code === 4404 || code === 4429) {
      // 4429: too many failed attempts from this address; a valid token is never
      // refused so, so this one is not valid either: say why and stop. The error
      // frame before the close has the server's words whole (a close frame holds
      // only 123 bytes of them).
      this.error = this._refusal || reason
        || (code === 4404 ? "no such play-off" : "the token was refused");
      this._setState("refused");
      this._emit("refused", code, this.error);
      return;
    }
    this._setState(this.counts.welcomes === 0 ? "connecting" : "reconnecting");
    delay = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** this._attempt);
    delay *= 0.5 + Math.random() * 0.5;
    this._attempt += 1;
    if (this._timer === null) this._timer = setTimeout(() => this.connect(), delay);
  }

  /** Drop this connection and resume at once from the last seq (after a gap). */
  _resume() {
    const sock = this._ws;
    this._attempt = 0;
    this._lost(sock, 1000, "resume");
    clearTimeout(this._timer);
    this._timer = setTimeout(() => this.connect(), 50);
  }

  _frame(raw) {
    const receivedAt = localNow();
    this._lastFrameAt = receivedAt;
    this.counts.frames += 1;
    let msg;
    try { msg = JSON.parse(raw); } catch (err) { return; }
    if (!msg || typeof msg !== "object") return;
    const d = msg.d && typeof msg.d === "object" ? msg.d : {};
    switch (msg.t) {
      case "welcome": this._welcome(msg, d, receivedAt); break;
      case "snapshot": this._snapshot(msg, d, receivedAt); break;
      case "event": this._event(msg, d); break;
      case "view": this._view(msg, d, receivedAt); break;
      case "ping":
        this._sample(d.server_ms, receivedAt);
        this._send({ t: "pong" });
        break;
      case "pong":
        if (typeof msg.id === "string") this._roundTrip(msg.id, d.server_ms, receivedAt);
        else this._sample(d.server_ms, receivedAt);
        break;
      case "ack": this._emit("ack", msg.id, d, msg.seq); break;
      case "error":
        if (!this._welcomed && !msg.id && typeof d.reason === "string") this._refusal = d.reason;
        if (msg.id) this._emit("error", msg.id, d);
        else this._emit("error", null, d);
        break;
      default: break;
    }
  }

  _welcome(msg, d, receivedAt) {
    this._welcomed = true;
    this.counts.welcomes += 1;
    this.error = null;
    this.role = d.role || null;
    this._emit("welcome", d);
    this._offsets = [];  // perhaps another server process: measure afresh
    this._roundTrips = [];
    this._pings.clear();
    this._sample(d.server_ms, receivedAt);
    this._welcomeSeq = typeof msg.seq === "number" ? msg.seq : null;
    if (this.seq !== null && this._welcomeSeq !== null && this.seq === this._welcomeSeq) {
      this._synced();  // nothing missed
    }
    this._setState(this.synced ? "live" : "connecting");
    for (let k = 0; k < FIRST_PINGS; k += 1) {
      setTimeout(() => { if (this._welcomed) this._ping(); }, k * FIRST_PING_GAP_MS);
    }
  }

  _snapshot(msg, d, receivedAt) {
    // The view frame that follows a snapshot is what pages render; the snapshot
    // only resets where the stream stands.
    if (typeof msg.seq === "number") this.seq = msg.seq;
    for (const clock of Array.isArray(d.clocks) ? d.clocks : []) {
      this._sample(clock.server_ms, receivedAt);
    }
    this.counts.snapshots += 1;
  }

  _event(msg, d) {
    const seq = msg.seq;
    if (typeof seq !== "number") return;
    if (this.seq !== null && seq <= this.seq) return;  // already seen
    if (!this.partial && (this.seq === null || seq !== this.seq + 1)) {
      this._resume();  // a gap: the server sends exactly what we missed
      return;
    }
    this.seq = seq;
    this.counts.events += 1;
    if (d.clock && typeof d.clock === "object") this._clock(d.clock);
    this._emit("event", d, seq);
    if (!this.synced && this._welcomeSeq !== null && seq >= this._welcomeSeq && this.view) {
      this._synced();
    }
  }

  _clock(clock) {
    if (typeof clock.match !== "number" || typeof clock.game !== "number") return;
    this.counts.clocks += 1;
    if (this.view) {
      this.view.clocks = { ...(this.view.clocks || {}), [`${clock.match}:${clock.game}`]: clock };
    }
    this._emit("clock", clock);
  }

  _view(msg, d, receivedAt) {
    const seq = typeof msg.seq === "number" ? msg.seq : -1;
    if (seq < this.viewSeq) return;
    this.viewSeq = seq;
    this.counts.views += 1;
    this._sample(d.server_ms, receivedAt);
    this.view = d;
    if (!this.synced && (this._welcomeSeq === null || seq >= this._welcomeSeq)) this._synced();
    this._emit("view", d, seq);
  }

  _synced() {
    this.synced = true;
    this.frozenAt = null;
    this._setState("live");
  }

  /** Run a command over REST (when the websocket is down): the same payload. */
  async rest(payload, idempotencyKey) {
    const headers = { Authorization: `Bearer ${this.token()}`, "Content-Type": "application/json" };
    if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
    const response = await fetch(
      `${this.prefix}/api/playoffs/${encodeURIComponent(this.playoffId)}/commands`,
      { method: "POST", headers, body: JSON.stringify(payload), cache: "no-store",
        credentials: "omit" });
    let body = null;
    try { body = await response.json(); } catch (err) { body = null; }
    if (!response.ok) {
      const error = new Error(detailText(body && body.detail) || `HTTP ${response.status}`);
      error.status = response.status;
      error.kind = (body && body.kind) || null;  // a refusal a page tells apart
      throw error;
    }
    return body;
  }
}

/** An API error's detail as one line (422 lists name the field, line and column). */
export function detailText(detail) {
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    return detail.map((d) => {
      const loc = (d.loc || []).filter((p) => p !== "body").join(".");
      const where = d.line ? ` (line ${d.line}, column ${d.column})` : "";
      return (loc ? `${loc}: ` : "") + (d.msg || JSON.stringify(d)) + where;
    }).join("; ");
  }
  return detail ? JSON.stringify(detail) : "";
}
