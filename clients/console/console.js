/* Arbiter console: /arbiter/{playoff}.
 *
 * Plain JavaScript, no dependencies. The server is the authority: the page sends
 * commands (websocket protocol v1, docs/protocol.md, or the REST routes for what
 * only REST offers), shows each one as pending until the server acknowledges it,
 * and redraws from the server's state (GET /api/playoffs/{id}, re-fetched when
 * events arrive) and from the clocks carried by the events.
 *
 * The token is typed into the page and kept in sessionStorage for this tab only;
 * it travels in the websocket hello and in Authorization headers, never in a URL.
 */
(() => {
  "use strict";

  const PLAYOFF = decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").pop() || "");
  const TOKEN_KEY = "arbiter-console:token:" + PLAYOFF;
  const CLOCK_KEY = "arbiter-console:acts-as-clock:" + PLAYOFF;
  const API = "/api/playoffs/" + encodeURIComponent(PLAYOFF);
  const REFETCH_MS = 120;
  const SLOW_MS = 8000;
  const RESEND_MAX_AGE_MS = 30000;
  const MOVED_MS = 60000;

  const WS_TYPES = new Set([
    "start-clock", "press", "pause", "resume", "adjust", "result", "lots", "coin-toss",
    "armageddon-colours", "board-score",
  ]);
  const CLOCK_TYPES = new Set(["press", "pause", "resume", "adjust"]);
  const RESULTS = [
    ["1-0", "1-0", "White wins", "result-1-0"],
    ["1/2-1/2", "½-½", "Draw", "result-draw"],
    ["0-1", "0-1", "Black wins", "result-0-1"],
    ["+/-", "+/−", "White wins by forfeit", "result-white-forfeit"],
    ["-/+", "−/+", "Black wins by forfeit", "result-black-forfeit"],
    ["-/-", "−/−", "Double forfeit", "result-double-forfeit"],
  ];

  const S = {
    token: null,
    view: null,
    wsSeq: 0,
    clocks: new Map(),
    moves: new Map(),
    offset: 0,
    reflow: null,
    seqTypes: new Map(),
    pending: new Map(),
    log: [],
    alerts: [],
    ws: null,
    conn: "off",
    retry: 0,
    reconnectTimer: null,
    heartbeatMs: 15000,
    lastFrameAt: 0,
    refetchTimer: null,
    fetching: false,
    refetchAgain: false,
    placings: null,
    placingsSeq: -1,
    verified: new Map(),
    actsAsClock: localStorage.getItem(CLOCK_KEY) !== "off",
    html: new Map(),
  };

  // ------------------------------------------------------------------ helpers

  const $ = (id) => document.getElementById(id);
  const esc = (value) => String(value ?? "").replace(/[&<>"']/g, (c) => ({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;",
  })[c]);
  const attr = esc;

  function name(id) {
    if (id === null || id === undefined) return "?";
    const names = (S.view && S.view.names) || {};
    return names[id] || String(id);
  }

  function randomHex(bytes) {
    const a = new Uint8Array(bytes);
    crypto.getRandomValues(a);
    return Array.from(a, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  const PREFIX = randomHex(4);
  let counter = 0;
  const newId = () => `console-${PREFIX}-${++counter}`;

  function parseTime(iso) {
    if (!iso) return null;
    const t = Date.parse(iso);
    return Number.isNaN(t) ? null : t;
  }

  function hhmm(ms) {
    if (ms === null || ms === undefined) return "—";
    const d = new Date(ms);
    return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
  }

  function hhmmss(ms) {
    const d = new Date(ms);
    return `${hhmm(ms)}:${String(d.getSeconds()).padStart(2, "0")}`;
  }

  function isoDurationMs(text) {
    if (!text) return 0;
    const m = /^(-)?P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/
      .exec(String(text));
    if (!m) return 0;
    const [, neg, d, h, mi, s] = m;
    const ms = (((+d || 0) * 24 + (+h || 0)) * 60 + (+mi || 0)) * 60000 + (+s || 0) * 1000;
    return neg ? -ms : ms;
  }

  function minutesText(ms) {
    const total = Math.round(Math.abs(ms) / 60000);
    if (total < 60) return `${total} min`;
    const h = Math.floor(total / 60);
    const m = total % 60;
    return m ? `${h} h ${m} min` : `${h} h`;
  }

  function signedMinutes(ms) {
    return (ms < 0 ? "−" : "+") + minutesText(ms);
  }

  function clockText(ms) {
    const v = Math.max(0, ms);
    const tenths = Math.floor(v / 100) % 10;
    const s = Math.floor(v / 1000);
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    const sec = String(s % 60).padStart(2, "0");
    if (h) return `${h}:${String(m).padStart(2, "0")}:${sec}`;
    if (v < 20000) return `${m}:${sec}.${tenths}`;
    return `${m}:${sec}`;
  }

  const serverNow = () => Date.now() + S.offset;
  const gameKey = (m, g) => `${m}:${g}`;

  // ------------------------------------------------------------------ REST

  class ApiError extends Error {
    constructor(status, reason, code) {
      super(reason);
      this.status = status;
      this.reason = reason;
      this.code = code;
    }
  }

  function detailText(detail) {
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

  async function api(method, path, body, key) {
    const headers = { Authorization: `Bearer ${S.token}` };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (key) headers["Idempotency-Key"] = key;
    let response;
    try {
      response = await fetch(path, {
        method, headers, body: body === undefined ? undefined : JSON.stringify(body),
        cache: "no-store", credentials: "omit",
      });
    } catch (err) {
      throw new ApiError(0, "the server could not be reached", "network");
    }
    let data = null;
    try { data = await response.json(); } catch (err) { data = null; }
    if (!response.ok) {
      const reason = detailText(data && data.detail) || `HTTP ${response.status}`;
      throw new ApiError(response.status, reason, codeOfStatus(response.status));
    }
    return data;
  }

  function codeOfStatus(status) {
    return ({ 401: "unauthorized", 403: "forbidden", 404: "not-found", 409: "conflict",
      422: "bad-command", 429: "rate-limited" })[status] || (status >= 500 ? "server" : "error");
  }

  function adviceFor(code) {
    switch (code) {
      case "conflict":
        return "Nothing was changed. The console has re-read the state: check what it shows now, and send the command again only if it still applies.";
      case "bad-command":
        return "Nothing was changed. Correct the value named above and send it again.";
      case "unauthorized":
        return "The token was refused. Tap “Forget token” and connect with a valid arbiter token.";
      case "forbidden":
      case "read-only":
        return "This token may not do that (is it a display key, or another event's token?). Connect with an arbiter or chief arbiter token.";
      case "rate-limited":
        return "Too many commands at once: wait a second and send it again.";
      case "network":
        return "The server did not answer, so the command may not have arrived. Check the network; the state shown is re-read on reconnection: check it before sending again.";
      case "offline":
        return "Wait until the status at the top shows “live”, then send it again.";
      case "not-found":
        return "Check the address of this page: the play-off was not found.";
      default:
        return "Check the state shown, then try again; if it persists, tell the chief arbiter.";
    }
  }

  // ------------------------------------------------------------------ alerts

  function pushAlert(title, reason, code, key) {
    S.alerts = S.alerts.filter((a) => !(key && a.key === key));
    S.alerts.unshift({ id: newId(), title, reason, advice: adviceFor(code), code, key });
    S.alerts = S.alerts.slice(0, 4);
    renderAlerts();
  }

  function dropAlerts(key) {
    const before = S.alerts.length;
    S.alerts = S.alerts.filter((a) => a.key !== key);
    if (S.alerts.length !== before) renderAlerts();
  }

  function renderAlerts() {
    $("alerts").innerHTML = S.alerts.map((a) => `
      <div class="alert" role="alert" data-testid="alert-error" data-code="${attr(a.code)}">
        <div class="alert-text">
          <strong>${esc(a.title)}</strong>
          <p class="alert-reason" data-testid="alert-reason">${esc(a.reason)}</p>
          <p class="alert-advice" data-testid="alert-advice">${esc(a.advice)}</p>
        </div>
        <button type="button" class="btn btn-quiet" data-action="dismiss" data-id="${attr(a.id)}"
                data-testid="alert-dismiss">Dismiss</button>
      </div>`).join("");
  }

  // ------------------------------------------------------------------ commands

  function restFor(cmd) {
    const m = cmd.match;
    const g = cmd.game;
    const base = `${API}/matches/${m}`;
    switch (cmd.type) {
      case "start-clock": return ["POST", `${base}/games/${g}/start`, undefined];
      case "result": return ["POST", `${base}/games/${g}/result`, { result: cmd.result }];
      case "lots": return ["POST", `${base}/lots`, { method: "service" }];
      case "lots-physical": return ["POST", `${base}/lots`, { method: "physical", white: cmd.white }];
      case "coin-toss":
        return ["POST", `${base}/coin-toss`, { method: "service", caller: cmd.caller, call: cmd.call }];
      case "coin-toss-physical":
        return ["POST", `${base}/coin-toss`, { method: "physical", winner: cmd.winner }];
      case "armageddon-colours":
        return ["POST", `${base}/armageddon-colours`, { white: cmd.white, black: cmd.black }];
      case "board-score":
        return ["POST", `${API}/board-scores`, {
          stanza: cmd.stanza, board: cmd.board, table: cmd.table, ns_score: cmd.ns_score,
        }];
      case "move-start":
        return ["POST", `${base}/games/${g}/move-start`, { at: cmd.at, reason: cmd.reason }];
      case "postpone":
        return ["POST", `${base}/games/${g}/postpone`, { minutes: cmd.minutes, reason: cmd.reason }];
      case "correct":
        return ["PUT", `${base}/games/${g}/result`, { result: cmd.result, reason: cmd.reason }];
      case "time-control":
        return ["POST", `${API}/time-control`, {
          time_control: cmd.time_control, match: cmd.match ?? null, reason: cmd.reason,
        }];
      case "deadline":
        return ["POST", `${API}/deadline`, { deadline: cmd.deadline, reason: cmd.reason }];
      default: return null;
    }
  }

  /** Busy: a command with this key is pending, or acknowledged but not yet in the view. */
  function busy(key) {
    if (!key) return false;
    for (const rec of S.log) {
      if (rec.key !== key) continue;
      if (rec.status === "pending") return true;
      if (rec.status === "ok" && rec.waitView && S.view && S.view.seq < rec.seq) return true;
    }
    return false;
  }

  function wsLive() {
    return S.ws && S.ws.readyState === WebSocket.OPEN && S.conn === "live";
  }

  function send(cmd, label, key, clear) {
    if (busy(key)) return;
    const rec = {
      id: newId(), cmd, label, key, clear: clear || [], status: "pending", sentAt: Date.now(),
      via: null, reason: null, seq: 0, slow: false, waitView: !CLOCK_TYPES.has(cmd.type),
    };
    S.log.unshift(rec);
    S.log = S.log.slice(0, 40);
    if (WS_TYPES.has(cmd.type) && wsLive()) {
      rec.via = "websocket";
      S.pending.set(rec.id, rec);
      S.ws.send(JSON.stringify({ t: "cmd", id: rec.id, d: cmd }));
    } else {
      const rest = restFor(cmd);
      if (!rest) {
        fail(rec, "offline", "the live connection is down, and clock commands go only over it");
        return;
      }
      rec.via = "REST";
      S.pending.set(rec.id, rec);
      api(rest[0], rest[1], rest[2], rec.id).then((data) => {
        for (const e of (data && data.events) || []) S.seqTypes.set(e.seq, e.type);
        succeed(rec, (data && data.seq) || 0);
        if (!wsLive()) refetchNow();
      }, (err) => fail(rec, err.code, err.reason));
    }
    render();
  }

  function succeed(rec, seq) {
    if (rec.status !== "pending") return;
    rec.status = "ok";
    rec.seq = seq;
    S.pending.delete(rec.id);
    dropAlerts(rec.key);
    for (const id of rec.clear) {
      const el = $(id);
      if (el) el.value = "";
    }
    if (rec.waitView) refetchNow();
    render();
  }

  function fail(rec, code, reason) {
    rec.status = "error";
    rec.reason = reason;
    S.pending.delete(rec.id);
    pushAlert(`${rec.label}: refused`, reason, code, rec.key);
    refetchSoon();
    render();
  }

  function resendPending() {
    for (const rec of S.pending.values()) {
      if (rec.via !== "websocket") continue;
      if (Date.now() - rec.sentAt > RESEND_MAX_AGE_MS) {
        fail(rec, "network", "not confirmed before the connection dropped");
        continue;
      }
      // The same id: the server applies a command id once and answers a copy with the same ack.
      S.ws.send(JSON.stringify({ t: "cmd", id: rec.id, d: rec.cmd }));
    }
  }

  // ------------------------------------------------------------------ state

  function applyView(view) {
    if (!view) return;
    if (S.view && typeof view.seq === "number" && view.seq < S.view.seq) return;
    const before = S.view;
    if (before) noteReflow(before.schedule, view.schedule, causes(before.seq, view.seq));
    S.view = view;
    document.title = `Arbiter · ${view.name || PLAYOFF}`;
    if (view.champion && S.placingsSeq !== view.seq) {
      S.placingsSeq = view.seq;
      api("GET", `${API}/placings`).then((p) => { S.placings = p; render(); }, () => {});
    }
    for (const d of view.draws || []) verifyLater(d.draw);
    render();
  }

  /** What was logged between two states, by type (from the events and the REST answers). */
  function causes(fromSeq, toSeq) {
    const types = [];
    for (const [seq, type] of S.seqTypes) {
      if (seq > fromSeq && seq <= toSeq && type !== "transition-fired") types.push(type);
      if (seq <= toSeq - 1000) S.seqTypes.delete(seq);
    }
    return [...new Set(types)].join(", ") || "the time passing";
  }

  function noteReflow(oldPlan, newPlan, cause) {
    if (!oldPlan || !newPlan || !oldPlan.games || !newPlan.games) return;
    const old = new Map(oldPlan.games.map((g) => [gameKey(g.match, g.game), g]));
    const moved = new Map();
    for (const g of newPlan.games) {
      const was = old.get(gameKey(g.match, g.game));
      if (!was || g.status !== "planned") continue; // a start or an end is not a re-flow
      const delta = parseTime(g.start) - parseTime(was.start);
      if (Math.abs(delta) >= MOVED_MS) {
        moved.set(gameKey(g.match, g.game), {
          from: parseTime(was.start), to: parseTime(g.start), delta,
          fromEnd: parseTime(was.end),
        });
      }
    }
    if (!moved.size) {
      // Keep the last re-flow marks only on games still planned where it put them.
      if (S.reflow) {
        const now = new Map(newPlan.games.map((g) => [gameKey(g.match, g.game), g]));
        for (const [k, v] of S.reflow.moved) {
          const g = now.get(k);
          if (!g || g.status !== "planned" || Math.abs(parseTime(g.start) - v.to) >= MOVED_MS) S.reflow.moved.delete(k);
        }
        if (!S.reflow.moved.size) S.reflow = null;
      }
      return;
    }
    S.reflow = { at: Date.now(), moved, cause };
  }

  function refetchSoon() {
    clearTimeout(S.refetchTimer);
    S.refetchTimer = setTimeout(refetchNow, REFETCH_MS);
  }

  async function refetchNow() {
    clearTimeout(S.refetchTimer);
    if (!S.token) return;
    if (S.fetching) { S.refetchAgain = true; return; }
    S.fetching = true;
    try {
      applyView(await api("GET", API));
    } catch (err) {
      if (err.code === "unauthorized" || err.code === "forbidden") tokenRefused(err.reason);
    } finally {
      S.fetching = false;
      if (S.refetchAgain) { S.refetchAgain = false; refetchSoon(); }
    }
  }

  async function fetchMoves() {
    try {
      const log = await api("GET", `${API}/events?after=0`);
      for (const e of log.events || []) trackMoves(e.type, e.data || {});
      renderNow();
    } catch (err) { /* the moves show as unknown until the next press */ }
  }

  function trackMoves(type, data) {
    if (data.match === undefined || data.game === undefined) return;
    const key = gameKey(data.match, data.game);
    if (type === "game-started" && !S.moves.has(key)) S.moves.set(key, { white: 0, black: 0 });
    if (type === "clock-pressed") {
      const m = S.moves.get(key) || { white: 0, black: 0 };
      m[data.side] = Math.max(m[data.side] || 0, Number(data.move) || 0);
      S.moves.set(key, m);
    }
  }

  function setClock(c) {
    S.clocks.set(gameKey(c.match, c.game), { ...c });
  }

  function clockRemaining(c, side) {
    const ms = side === "white" ? c.white_ms : c.black_ms;
    if (c.running === side) return ms - (serverNow() - c.server_ms);
    return ms;
  }

  // ------------------------------------------------------------------ websocket

  function setConn(conn, text) {
    S.conn = conn;
    const el = $("connection");
    el.className = `pill pill-${conn === "live" ? "live" : conn === "refused" ? "bad" : "off"}`;
    el.textContent = text || conn;
    el.dataset.state = conn;
  }

  function connect() {
    clearTimeout(S.reconnectTimer);
    if (!S.token) return;
    if (S.ws) { const old = S.ws; S.ws = null; old.close(1000); }
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    let ws;
    try {
      ws = new WebSocket(`${scheme}${location.host}/ws/playoffs/${encodeURIComponent(PLAYOFF)}`);
    } catch (err) {
      scheduleReconnect();
      return;
    }
    S.ws = ws;
    setConn("connecting", "connecting…");
    ws.onopen = () => {
      S.lastFrameAt = Date.now();
      ws.send(JSON.stringify({ t: "hello", d: {
        token: S.token, last_seq: S.wsSeq > 0 ? S.wsSeq : null, client: "arbiter-console",
      } }));
    };
    ws.onmessage = (message) => { if (ws === S.ws) onFrame(ws, message.data); };
    ws.onclose = (event) => { if (ws === S.ws) onClose(event); };
    ws.onerror = () => {};
  }

  function scheduleReconnect() {
    const delay = Math.min(10000, 500 * 2 ** Math.min(S.retry, 5));
    S.retry += 1;
    setConn("off", `offline · reconnecting in ${Math.ceil(delay / 1000)} s`);
    clearTimeout(S.reconnectTimer);
    S.reconnectTimer = setTimeout(connect, delay);
  }

  function onClose(event) {
    S.ws = null;
    if (!S.token) { setConn("off", "not connected"); return; }
    if (event.code === 4401) { tokenRefused(event.reason || "the token was refused"); return; }
    if (event.code === 4404) {
      setConn("refused", "no such play-off");
      pushAlert("Connection refused", event.reason || "no such play-off", "not-found", "connection");
      return;
    }
    scheduleReconnect();
    render();
  }

  function onFrame(ws, text) {
    S.lastFrameAt = Date.now();
    let f;
    try { f = JSON.parse(text); } catch (err) { return; }
    const d = f.d || {};
    switch (f.t) {
      case "welcome":
        S.heartbeatMs = d.heartbeat_ms || 15000;
        if (typeof d.server_ms === "number") S.offset = d.server_ms - Date.now();
        S.retry = 0;
        setConn("live", "live");
        dropAlerts("connection");
        resendPending();
        if (S.wsSeq > 0) refetchSoon();
        render();
        break;
      case "snapshot":
        S.wsSeq = f.seq;
        S.clocks = new Map();
        for (const c of d.clocks || []) setClock(c);
        if (d.state) {
          if (S.view && d.state.seq < S.view.seq) refetchSoon();
          else applyView(d.state);
        }
        fetchMoves();
        render();
        break;
      case "event": {
        if (S.wsSeq > 0 && f.seq > S.wsSeq + 1) {  // a gap: resume from what we have
          ws.close(1000, "resync");
          return;
        }
        if (f.seq <= S.wsSeq) return;
        S.wsSeq = f.seq;
        if (d.clock) setClock(d.clock);
        trackMoves(d.type, d.data || {});
        S.seqTypes.set(f.seq, d.type);
        refetchSoon();
        renderNow();
        break;
      }
      case "ack": {
        const rec = S.pending.get(f.id);
        if (rec) succeed(rec, Math.max(...((d.seqs && d.seqs.length) ? d.seqs : [f.seq])));
        break;
      }
      case "error": {
        const rec = f.id ? S.pending.get(f.id) : null;
        if (rec) fail(rec, d.code || "error", d.reason || "refused");
        else if (d.code !== "forbidden") pushAlert("The server refused a message", d.reason || "", d.code || "error", "frame");
        else pushAlert("Connection refused", d.reason || "", "unauthorized", "connection");
        break;
      }
      case "ping":
        ws.send('{"t":"pong"}');
        if (typeof d.server_ms === "number") S.offset = d.server_ms - Date.now();
        break;
      default:
        break;
    }
  }

  function tokenRefused(reason) {
    const ws = S.ws;
    S.ws = null;
    if (ws) ws.close(1000);
    clearTimeout(S.reconnectTimer);
    sessionStorage.removeItem(TOKEN_KEY);
    S.token = null;
    setConn("refused", "token refused");
    pushAlert("Token refused", reason, "unauthorized", "connection");
    showLogin();
  }

  // ------------------------------------------------------------------ rendering

  /** Bring a region up to date with new HTML in place: the nodes that stay keep what was
   * typed, the focus, an open <details> and a finger on a button; only what changed changes. */
  function patch(id, html) {
    const el = $(id);
    if (!el || S.html.get(id) === html) return;
    S.html.set(id, html);
    const before = new Map();
    for (const input of el.querySelectorAll("input[id], select[id], textarea[id], details[id]")) {
      before.set(input.id, { node: input, value: input.value, checked: input.checked, open: input.open });
    }
    const focused = document.activeElement && el.contains(document.activeElement) ? document.activeElement : null;
    const template = document.createElement("template");
    template.innerHTML = html;
    morphChildren(el, template.content);
    // A node that had to be replaced gets back what the old one held.
    for (const [nodeId, was] of before) {
      const now = $(nodeId);
      if (!now || now === was.node || now.dataset.fresh !== undefined) continue;
      if (now.tagName === "DETAILS") now.open = was.open;
      else if (now.type === "radio" || now.type === "checkbox") now.checked = was.checked;
      else if (now.tagName !== "SELECT" || [...now.options].some((o) => o.value === was.value)) now.value = was.value;
    }
    if (focused && !focused.isConnected && focused.id && $(focused.id)) $(focused.id).focus();
  }

  function sameNode(a, b) {
    if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName) return false;
    if (a.nodeType !== 1) return true;
    return (a.id || "") === (b.id || "") && a.getAttribute("data-testid") === b.getAttribute("data-testid");
  }

  function morphChildren(live, next) {
    const old = Array.from(live.childNodes);
    const fresh = Array.from(next.childNodes);
    fresh.forEach((node, i) => {
      const have = old[i];
      if (!have) live.appendChild(node);
      else if (!sameNode(have, node)) live.replaceChild(node, have);
      else if (have.nodeType === 1) morphElement(have, node);
      else if (have.nodeValue !== node.nodeValue) have.nodeValue = node.nodeValue;
    });
    for (let i = fresh.length; i < old.length; i++) live.removeChild(old[i]);
  }

  function morphElement(live, next) {
    const keepOpen = live.tagName === "DETAILS";  // opened or closed by the arbiter: theirs
    for (const { name: attrName } of Array.from(live.attributes)) {
      if (!next.hasAttribute(attrName) && !(keepOpen && attrName === "open")) live.removeAttribute(attrName);
    }
    for (const { name: attrName, value } of Array.from(next.attributes)) {
      if (keepOpen && attrName === "open") continue;
      if (live.getAttribute(attrName) !== value) live.setAttribute(attrName, value);
    }
    morphChildren(live, next);
  }

  function render() {
    if (!S.view) return;
    renderHeader();
    renderNow();
    renderPlan();
    renderDraws();
    renderOverrides();
    renderChanges();
    renderPlacings();
    renderCommands();
  }

  function renderHeader() {
    const v = S.view;
    $("title").textContent = v.name || "Arbiter console";
    const kind = v.kind === "extra-boards" ? "extra boards" : "play-off";
    $("subtitle").textContent = `${kind} · ${v.regulation || ""} · seq ${v.seq}`;
    const n = S.pending.size;
    const pc = $("pending-count");
    pc.hidden = n === 0;
    pc.textContent = n ? `${n} pending…` : "";
  }

  // --- current games

  function renderNow() {
    const v = S.view;
    if (!v) return;
    let html = "";
    if (v.kind === "extra-boards") {
      html = extraBoardsCard(v);
    } else {
      if (v.champion) {
        html += `<div class="champion card" data-testid="champion"><span class="trophy" aria-hidden="true"></span>Champion: <strong>${esc(name(v.champion))}</strong></div>`;
      }
      html += `<div class="clock-toggle"><label class="check">
          <input type="checkbox" id="acts-as-clock" data-testid="acts-as-clock" ${S.actsAsClock ? "checked" : ""}>
          This console is the clock (press buttons)</label></div>`;
      for (const m of v.matches || []) {
        if (m.bye) continue;
        html += matchCard(m);
      }
    }
    patch("now", html);
    tick();
  }

  function roundName(matchId) {
    const plan = S.view.schedule;
    const g = plan && plan.games && plan.games.find((x) => x.match === matchId);
    return (g && g.round_name) || `Match ${matchId}`;
  }

  function lastDraw(kind, matchId) {
    const draws = (S.view.draws || []).filter((d) => d.kind === kind && d.match === matchId);
    return draws.length ? draws[draws.length - 1] : null;
  }

  function matchScore(m) {
    const [a, b] = m.players;
    const pts = { [a]: 0, [b]: 0 };
    for (const g of m.games) {
      if (g.kind !== "regular" || !g.result) continue;
      const r = g.result;
      const w = r === "1-0" || r === "+/-" ? 1 : r === "1/2-1/2" ? 0.5 : 0;
      const bl = r === "0-1" || r === "-/+" ? 1 : r === "1/2-1/2" ? 0.5 : 0;
      pts[g.white] = (pts[g.white] || 0) + w;
      pts[g.black] = (pts[g.black] || 0) + bl;
    }
    const f = (x) => String(x).replace(".5", "½").replace(/^0½$/, "½");
    return `${f(pts[a] || 0)}–${f(pts[b] || 0)}`;
  }

  function matchCard(m) {
    const [a, b] = m.players;
    const known = a !== null && b !== null;
    const title = `${esc(roundName(m.id))} · ${known ? `${esc(name(a))} v ${esc(name(b))}` : "players not known yet"}`;
    let body = "";
    if (!known) {
      body = `<p class="muted">Waiting for the earlier match: its winner plays here.</p>`;
    } else {
      body += gamesTable(m);
      if (m.decision) {
        body += decisionBox(m);
      } else {
        body += nextSteps(m);
      }
    }
    return `
      <article class="card match" data-testid="match-${m.id}" data-status="${attr(m.status)}">
        <header class="match-head">
          <h2>${title}</h2>
          <span class="pill" data-testid="match-status-${m.id}">${esc(m.status)}</span>
          ${known ? `<span class="score" data-testid="score-${m.id}" title="${esc(name(a))} – ${esc(name(b))}">${matchScore(m)}</span>` : ""}
        </header>
        <p class="muted small">Time control ${esc(m.time_control || "")}${m.decider ? ` · Armageddon ${esc(m.decider)}` : ""}</p>
        ${body}
      </article>`;
  }

  function gamesTable(m) {
    const rows = m.games.map((g) => {
      const state = g.result ? "played" : g.started_at ? "running" : "to play";
      return `<tr data-testid="game-row-${m.id}-${g.number}">
          <td>${g.number}${g.kind === "armageddon" ? " <span class=\"tag\">Armageddon</span>" : ""}</td>
          <td>${g.white ? esc(name(g.white)) : "—"}</td>
          <td>${g.black ? esc(name(g.black)) : "—"}</td>
          <td class="result" data-testid="game-${m.id}-${g.number}-result">${esc(g.result ? pretty(g.result) : "")}</td>
          <td class="muted small">${state}</td>
        </tr>`;
    }).join("");
    return `<table class="games"><thead><tr><th>Game</th><th>White</th><th>Black</th><th>Result</th><th></th></tr></thead>
      <tbody>${rows}</tbody></table>`;
  }

  function pretty(result) {
    const hit = RESULTS.find((r) => r[0] === result);
    return hit ? hit[1] : result;
  }

  function decisionBox(m) {
    const d = m.decision;
    const arm = m.games.find((g) => g.kind === "armageddon");
    let how = "";
    if (d.method === "armageddon-draw" && arm) {
      how = `Black (${esc(name(arm.black))}) advances: a drawn Armageddon counts as a win for Black.`;
    }
    return `<div class="decision" data-testid="decision-${m.id}">
        <strong data-testid="winner-${m.id}">${esc(name(d.winner))} advances</strong>
        ${how ? `<p>${how}</p>` : ""}
        <p class="muted">${esc(d.text || "")}</p>
      </div>`;
  }

  function nextSteps(m) {
    const [a, b] = m.players;
    const g1 = m.games.find((g) => g.number === 1);
    if (!g1 || !g1.white) return lotsPanel(m, a, b);
    const inPlay = m.games.filter((g) => g.started_at && !g.result);
    const todo = inPlay.length ? inPlay : m.games.filter((g) => !g.result).slice(0, 1);
    let html = "";
    for (const g of todo) {
      if (g.kind === "armageddon" && !g.white) {
        const toss = lastDraw("coin-toss", m.id);
        html += toss ? coloursPanel(m, toss) : tossPanel(m, a, b);
      } else {
        html += gamePanel(m, g);
      }
    }
    return html || `<p class="muted">Nothing to play now.</p>`;
  }

  function btn(action, label, opts) {
    const o = opts || {};
    const key = o.key || null;
    const isBusy = busy(key);
    const data = Object.entries(o.data || {}).map(([k, v]) => ` data-${k}="${attr(v)}"`).join("");
    return `<button type="${o.submit ? "submit" : "button"}" class="btn ${o.cls || ""}${isBusy ? " is-pending" : ""}"
        ${action ? `data-action="${attr(action)}"` : ""}${data} ${key ? `data-key="${attr(key)}"` : ""}
        data-testid="${attr(o.testid || action)}" ${o.disabled || isBusy ? "disabled" : ""}
        aria-busy="${isBusy ? "true" : "false"}">${label}${isBusy ? ' <span class="spinner" aria-hidden="true"></span><span class="sr">(pending)</span>' : ""}</button>`;
  }

  function playerOptions(ids, selected) {
    return ids.map((p) => `<option value="${attr(p)}" ${p === selected ? "selected" : ""}>${esc(name(p))}</option>`).join("");
  }

  function lotsPanel(m, a, b) {
    const key = `lots:${m.id}`;
    return `<div class="step" data-testid="lots-panel-${m.id}">
        <h3>Lots for White in game 1</h3>
        <div class="row">
          ${btn("lots", "Draw lots (service, commit-reveal)", { cls: "btn-primary", key, data: { m: m.id }, testid: `lots-service-${m.id}` })}
        </div>
        <form class="row" data-form="lots-physical" data-m="${m.id}">
          <label class="field inline"><span>Physical draw: White is</span>
            <select id="lots-white-${m.id}" name="white" data-testid="lots-white-${m.id}">${playerOptions([a, b])}</select></label>
          ${btn(null, "Record physical draw", { submit: true, key, testid: `lots-physical-${m.id}` })}
        </form>
      </div>`;
  }

  function tossPanel(m, a, b) {
    const key = `toss:${m.id}`;
    return `<div class="step" data-testid="toss-panel-${m.id}">
        <h3>Armageddon coin toss</h3>
        <p class="muted small">The winner of the toss chooses the colour (GCT 2015 reg. 10 c).</p>
        <form data-form="toss" data-m="${m.id}" class="stack">
          <label class="field"><span>Who calls</span>
            <select id="toss-caller-${m.id}" name="caller" data-testid="toss-caller-${m.id}">${playerOptions([a, b])}</select></label>
          <fieldset class="segmented"><legend>The call</legend>
            <label class="seg"><input type="radio" id="toss-heads-${m.id}" name="call" value="heads" checked data-testid="toss-call-heads-${m.id}"><span>Heads</span></label>
            <label class="seg"><input type="radio" id="toss-tails-${m.id}" name="call" value="tails" data-testid="toss-call-tails-${m.id}"><span>Tails</span></label>
          </fieldset>
          ${btn(null, "Toss the coin (service, commit-reveal)", { submit: true, cls: "btn-primary", key, testid: `toss-${m.id}` })}
        </form>
        <form data-form="toss-physical" data-m="${m.id}" class="row">
          <label class="field inline"><span>Physical toss: won by</span>
            <select id="toss-winner-${m.id}" name="winner" data-testid="toss-physical-winner-${m.id}">${playerOptions([a, b])}</select></label>
          ${btn(null, "Record physical toss", { submit: true, key, testid: `toss-physical-${m.id}` })}
        </form>
      </div>`;
  }

  function coloursPanel(m, toss) {
    const winner = toss.winner;
    const loser = m.players.find((p) => p !== winner);
    const outcome = (toss.draw && toss.draw.outcome) || {};
    const key = `colours:${m.id}`;
    const how = outcome.face
      ? `${esc(name(outcome.caller))} called ${esc(outcome.call)}; the coin showed ${esc(outcome.face)}.`
      : "Physical toss.";
    return `<div class="step" data-testid="colours-panel-${m.id}">
        <h3>Armageddon colours</h3>
        <p>${how} <strong data-testid="toss-winner-${m.id}" data-player="${attr(winner)}">${esc(name(winner))}</strong> won the toss and chooses.</p>
        <p class="muted small">White has more time (${esc(m.decider || "")}); a draw means Black wins.</p>
        <div class="row">
          ${btn("colours", `${esc(name(winner))} takes Black (draw odds)`, { cls: "btn-primary", key, data: { m: m.id, white: loser, black: winner }, testid: `colours-winner-black-${m.id}` })}
          ${btn("colours", `${esc(name(winner))} takes White (more time)`, { key, data: { m: m.id, white: winner, black: loser }, testid: `colours-winner-white-${m.id}` })}
        </div>
      </div>`;
  }

  function gamePanel(m, g) {
    const key = gameKey(m.id, g.number);
    const clock = S.clocks.get(key);
    const moves = S.moves.get(key) || { white: 0, black: 0 };
    const started = Boolean(g.started_at);
    const arm = g.armageddon;
    const tc = arm ? `${arm.time_control}; a draw means Black wins` : m.time_control;
    const status = clock ? clock.status : started ? "running" : "not started";
    const pressKey = `press:${key}`;
    const sides = ["white", "black"].map((side) => {
      const player = side === "white" ? g.white : g.black;
      const runs = clock && clock.running === side;
      const label = `<span class="face-side">${side === "white" ? "White" : "Black"}</span>
          <span class="face-name">${esc(name(player))}</span>
          <span class="face-time" data-clock="${key}:${side}" data-start="${startMs(m, g, side) ?? ""}" data-testid="time-${side}">—</span>
          <span class="face-moves" data-testid="moves-${side}">moves ${moves[side]}${runs ? ` · press after move ${moves[side] + 1}` : ""}</span>`;
      if (!S.actsAsClock) {
        return `<div class="face ${side}${runs ? " runs" : ""}" data-testid="clock-${side}">${label}</div>`;
      }
      const isBusy = busy(pressKey);
      return `<button type="button" class="face press ${side}${runs ? " runs" : ""}${isBusy && runs ? " is-pending" : ""}"
          data-press="${side}" data-m="${m.id}" data-g="${g.number}" data-key="${pressKey}"
          data-testid="press-${side}" aria-label="${side} pressed the clock after move ${moves[side] + 1}"
          aria-busy="${isBusy ? "true" : "false"}" ${runs && !isBusy ? "" : "disabled"}>${label}</button>`;
    }).join("");
    const ctl = `clock:${key}`;
    const controls = [];
    if (!started) {
      controls.push(btn("start", "Start clock", { cls: "btn-primary btn-big", key: ctl, data: { m: m.id, g: g.number }, testid: "start" }));
    } else if (clock && clock.status === "running") {
      controls.push(btn("pause", "Pause", { key: ctl, data: { m: m.id, g: g.number }, testid: "pause" }));
    } else if (clock && clock.status === "paused") {
      controls.push(btn("resume", "Resume", { cls: "btn-primary", key: ctl, data: { m: m.id, g: g.number }, testid: "resume" }));
    }
    const resKey = `result:${key}`;
    const results = RESULTS.map(([value, shown, words, testid]) =>
      btn("result", `<span class="big">${shown}</span><span class="small">${words}</span>`, {
        cls: value.includes("/") && value !== "1/2-1/2" ? "btn-result forfeit" : "btn-result",
        key: resKey, data: { m: m.id, g: g.number, result: value }, testid,
      })).join("");
    const adjust = started ? `
        <details class="adjust" id="adjust-details-${key}" data-testid="adjust">
          <summary class="btn btn-quiet">Give or take time</summary>
          <form data-form="adjust" data-m="${m.id}" data-g="${g.number}" class="stack">
            <div class="row">
              <label class="field inline"><span>Side</span>
                <select id="adjust-side-${key}" name="side" data-testid="adjust-side">
                  <option value="white">White · ${esc(name(g.white))}</option>
                  <option value="black">Black · ${esc(name(g.black))}</option></select></label>
              <label class="field inline"><span>Seconds</span>
                <input id="adjust-seconds-${key}" name="seconds" type="number" min="1" max="36000" step="1" value="60" required inputmode="numeric" data-testid="adjust-seconds"></label>
            </div>
            <label class="field"><span>Reason (required)</span>
              <input id="adjust-reason-${key}" name="reason" minlength="3" maxlength="300" required data-testid="adjust-reason" placeholder="e.g. illegal move: 2 minutes to the opponent"></label>
            <div class="row">
              ${btn(null, "Give time", { submit: true, key: `adjust:${key}`, data: { sign: "1" }, testid: "adjust-give" })}
              ${btn(null, "Take time", { submit: true, key: `adjust:${key}`, data: { sign: "-1" }, testid: "adjust-take" })}
            </div>
          </form>
        </details>` : "";
    return `<div class="step game-panel" data-testid="game-panel-${m.id}-${g.number}">
        <h3>Game ${g.number}${arm ? " · Armageddon" : ""} <span class="pill" data-testid="clock-status">${esc(status)}</span></h3>
        <p class="muted small">${esc(tc || "")}</p>
        <div class="faces">${sides}</div>
        <div class="row">${controls.join("")}</div>
        <h4>Result</h4>
        <div class="results">${results}</div>
        ${adjust}
      </div>`;
  }

  /** A clock's time before its start: the Armageddon's, or a plain "G/N+i" time control's. */
  function startMs(m, g, side) {
    if (g.armageddon) return side === "white" ? g.armageddon.white_ms : g.armageddon.black_ms;
    const plain = /^G\/(\d+)(?:\+\d+)?$/.exec(m.time_control || "");
    return plain ? Number(plain[1]) * 60000 : null;
  }

  function tick() {
    for (const el of document.querySelectorAll("[data-clock]")) {
      const [m, g, side] = el.dataset.clock.split(":");
      const c = S.clocks.get(gameKey(m, g));
      const text = c ? clockText(clockRemaining(c, side)) : el.dataset.start ? clockText(Number(el.dataset.start)) : "—";
      if (el.textContent !== text) el.textContent = text;
    }
  }

  // --- extra boards

  function extraBoardsCard(v) {
    const eb = v.extra_boards || {};
    const stanzas = eb.stanzas || [];
    const current = stanzas.find((s) => s.stanza === eb.current_stanza);
    const total = eb.running_total || [0, 0];
    const tables = stanzas.map((s) => `
      <table class="boards" data-testid="stanza-${s.stanza}">
        <caption>Stanza ${s.stanza} (set ${s.set}) · IMPs ${s.imps[0]}–${s.imps[1]}${s.partners_change_after ? " · partners change after it" : ""}</caption>
        <thead><tr><th>Board</th><th>Table 1 (NS)</th><th>Table 2 (NS)</th><th>IMPs (home)</th></tr></thead>
        <tbody>${s.boards.map((b) => `<tr><td>${b.board}</td><td>${b.table_1 ?? "—"}</td><td>${b.table_2 ?? "—"}</td><td>${b.imps ?? ""}</td></tr>`).join("")}</tbody>
      </table>`).join("");
    const key = "board-score";
    const form = eb.winner || !current ? "" : `
      <form data-form="board-score" class="stack" data-testid="board-form">
        <h3>Enter a score · stanza ${current.stanza}</h3>
        <input type="hidden" id="board-stanza" name="stanza" value="${current.stanza}" data-fresh>
        <div class="row">
          <label class="field inline"><span>Board</span>
            <select id="board-board" name="board" data-testid="board-board">${current.boards.map((b) => `<option value="${b.board}">${b.board}</option>`).join("")}</select></label>
          <fieldset class="segmented"><legend>Table</legend>
            <label class="seg"><input type="radio" id="board-table-1" name="table" value="1" checked data-testid="board-table-1"><span>1</span></label>
            <label class="seg"><input type="radio" id="board-table-2" name="table" value="2" data-testid="board-table-2"><span>2</span></label>
          </fieldset>
          <label class="field inline"><span>North-South score</span>
            <input id="board-ns" name="ns_score" type="number" step="10" required inputmode="numeric" data-testid="board-ns"></label>
        </div>
        ${btn(null, "Record score", { submit: true, cls: "btn-primary", key, testid: "board-submit" })}
      </form>`;
    return `<article class="card match" data-testid="extra-boards">
        <header class="match-head"><h2>${esc(name(eb.home))} v ${esc(name(eb.away))}</h2>
          <span class="score" data-testid="running-total">${total[0]}–${total[1]}</span></header>
        ${eb.winner ? `<div class="decision" data-testid="extra-winner"><strong>${esc(name(eb.winner))} win the match</strong></div>` : `<p>Stanza ${eb.current_stanza} in play.</p>`}
        ${form}
        ${tables}
      </article>`;
  }

  // --- schedule

  function renderPlan() {
    const plan = S.view.schedule;
    if (!plan) { patch("plan", `<p class="muted">No schedule.</p>`); return; }
    if (plan.error) {
      patch("plan", `<p class="warning" data-testid="plan-error">The schedule cannot be planned: ${esc(plan.error)}</p>`);
      return;
    }
    const moved = S.reflow ? S.reflow.moved : new Map();
    const deadline = parseTime(plan.deadline);
    let html = `<p class="plan-summary" data-testid="plan-summary">Start ${hhmm(parseTime(plan.start))} · finish ${hhmm(parseTime(plan.finish))}`;
    if (deadline) {
      html += ` · deadline ${hhmm(deadline)} · `;
      html += plan.fits === false
        ? `<strong class="bad" data-testid="fits">does not fit: over by ${minutesText(isoDurationMs(plan.overrun))}</strong>`
        : `<span class="good" data-testid="fits">fits</span>`;
    }
    html += "</p>";
    if (plan.fits === false && plan.proposal) {
      const p = plan.proposal;
      html += `<div class="proposal" data-testid="proposal"><strong>Proposal:</strong> ${esc(p.text)}
        ${p.found && p.time_control ? btn("use-proposal", `Use ${esc(p.time_control)}`, { data: { tc: p.time_control }, testid: "use-proposal" }) : ""}</div>`;
    }
    if (plan.warnings && plan.warnings.length) {
      html += `<ul class="warnings" data-testid="warnings">${plan.warnings.map((w) => `<li>${esc(w)}</li>`).join("")}</ul>`;
    }
    if (S.reflow) {
      const items = [...S.reflow.moved].map(([k, v]) => {
        const [m, g] = k.split(":");
        return `${esc(roundName(Number(m)))} game ${g} ${signedMinutes(v.delta)} (now ${hhmm(v.to)})`;
      });
      html += `<p class="reflow" data-testid="reflow">↻ Re-planned at ${hhmmss(S.reflow.at)} after ${esc(S.reflow.cause)}: ${items.join("; ")}</p>`;
    }
    html += timeline(plan, moved);
    html += `<ol class="plan-list" data-testid="plan-list">${plan.games.map((g) => planRow(g, moved)).join("")}</ol>`;
    patch("plan", html);
  }

  function planRow(g, moved) {
    const k = gameKey(g.match, g.game);
    const mv = moved.get(k);
    const what = g.kind === "stanza" ? `Stanza ${g.game}` : `Game ${g.game}${g.kind === "armageddon" ? " (Armageddon)" : ""}`;
    const badges = [
      `<span class="tag st-${attr(g.status)}">${esc(g.status)}</span>`,
      g.fixed ? `<span class="tag">fixed</span>` : "",
      g.tentative ? `<span class="tag tentative">tentative</span>` : "",
      mv ? `<span class="tag moved" data-testid="moved-${g.match}-${g.game}">moved ${signedMinutes(mv.delta)}</span>` : "",
    ].join(" ");
    const players = (g.players || []).map(name).join(" v ");
    return `<li class="plan-item${g.tentative ? " tentative" : ""}${mv ? " moved" : ""}" data-testid="plan-${g.match}-${g.game}">
        <div><strong>${hhmm(parseTime(g.start))}–${hhmm(parseTime(g.end))}</strong> ${esc(g.round_name || `Match ${g.match}`)} · ${what} ${badges}</div>
        <div class="small">${esc(players)}${g.time_control ? ` · ${esc(g.time_control)}` : ""}${g.interval ? ` · after a ${minutesText(isoDurationMs(g.interval))} interval` : ""}</div>
        <div class="small muted">${esc(g.reason || "")}</div>
      </li>`;
  }

  function timeline(plan, moved) {
    const games = plan.games || [];
    const breaks = plan.breaks || [];
    const now = Math.floor(Date.now() / 15000) * 15000;
    const deadline = parseTime(plan.deadline);
    const times = [now];
    for (const g of games) times.push(parseTime(g.start), parseTime(g.end));
    for (const b of breaks) times.push(parseTime(b.start), parseTime(b.end));
    for (const v of moved.values()) times.push(v.from, v.fromEnd);
    if (deadline) times.push(deadline);
    const valid = times.filter((t) => t !== null && !Number.isNaN(t));
    let t0 = Math.min(...valid);
    let t1 = Math.max(...valid);
    if (t1 - t0 < 30 * 60000) t1 = t0 + 30 * 60000;
    const pad = (t1 - t0) * 0.04;
    t0 -= pad;
    t1 += pad;
    const matches = [...new Set(games.map((g) => g.match))].sort((x, y) => x - y);
    const laneOf = new Map(matches.map((m, i) => [m, i]));
    // Drawn at the container's own width, so the text keeps its size on any screen.
    const W = Math.max(560, Math.round($("plan").clientWidth || 800));
    const left = 84;
    const laneH = 46;
    const top = 24;
    const lanesEnd = top + Math.max(1, matches.length) * laneH;
    const H = lanesEnd + 22;
    const x = (t) => left + ((t - t0) / (t1 - t0)) * (W - left - 10);
    const parts = [];
    // axis
    const steps = [5, 10, 15, 30, 60, 120, 180, 240, 360].map((m) => m * 60000);
    const step = steps.find((s) => (t1 - t0) / s <= 8) || steps[steps.length - 1];
    for (let t = Math.ceil(t0 / step) * step; t <= t1; t += step) {
      parts.push(`<line class="tick" x1="${x(t)}" x2="${x(t)}" y1="${top - 4}" y2="${lanesEnd}"/>`);
      parts.push(`<text class="tick-label" x="${x(t)}" y="14" text-anchor="middle">${hhmm(t)}</text>`);
    }
    matches.forEach((m, i) => {
      const y = top + i * laneH;
      parts.push(`<rect class="lane${i % 2 ? " odd" : ""}" x="0" y="${y}" width="${W}" height="${laneH}"/>`);
      parts.push(`<text class="lane-label" x="6" y="${y + laneH / 2 + 5}">${esc(roundName(m).slice(0, 10))}</text>`);
    });
    if (deadline && plan.fits === false) {  // behind the games: the time past the deadline
      const fin = parseTime(plan.finish);
      parts.push(`<rect class="overrun" x="${x(deadline)}" y="${top}" width="${Math.max(0, x(fin) - x(deadline))}" height="${lanesEnd - top}"><title>over the deadline</title></rect>`);
    }
    const laneForBreak = (b) => {
      for (const g of games) {
        if ((g.players || []).some((p) => (b.who || []).includes(p))) return laneOf.get(g.match);
      }
      return 0;
    };
    for (const b of breaks) {
      const y = top + laneForBreak(b) * laneH;
      const bx = x(parseTime(b.start));
      const bw = Math.max(2, x(parseTime(b.end)) - bx);
      parts.push(`<rect class="break ${attr(b.kind)}" x="${bx}" y="${y + 14}" width="${bw}" height="${laneH - 28}" data-testid="timeline-break"><title>${esc(b.reason)}</title></rect>`);
    }
    for (const [k, v] of moved) {
      const [m] = k.split(":").map(Number);
      if (!laneOf.has(m)) continue;
      const y = top + laneOf.get(m) * laneH;
      parts.push(`<rect class="ghost" x="${x(v.from)}" y="${y + 6}" width="${Math.max(3, x(v.fromEnd) - x(v.from))}" height="${laneH - 12}"><title>before the re-plan</title></rect>`);
    }
    for (const g of games) {
      const y = top + laneOf.get(g.match) * laneH;
      const gx = x(parseTime(g.start));
      const gw = Math.max(3, x(parseTime(g.end)) - gx);
      const k = gameKey(g.match, g.game);
      const cls = ["game", `st-${g.status}`, g.tentative ? "tentative" : "", g.fixed ? "fixed" : "",
        moved.has(k) ? "moved" : "", g.kind === "armageddon" ? "armageddon" : ""].join(" ");
      const label = g.kind === "stanza" ? `S${g.game}` : g.kind === "armageddon" ? "A" : `G${g.game}`;
      parts.push(`<g class="${cls}" data-testid="timeline-game-${g.match}-${g.game}" data-tentative="${g.tentative}" data-moved="${moved.has(k)}">
          <rect x="${gx}" y="${y + 6}" width="${gw}" height="${laneH - 12}" rx="4"><title>${esc(g.reason)}</title></rect>
          ${gw > 20 ? `<text x="${gx + gw / 2}" y="${y + laneH / 2 + 5}" text-anchor="middle">${label}${moved.has(k) ? " ↻" : ""}</text>` : ""}
        </g>`);
    }
    if (deadline) {
      parts.push(`<line class="deadline" x1="${x(deadline)}" x2="${x(deadline)}" y1="${top - 4}" y2="${H - 4}" data-testid="timeline-deadline"/>`);
      parts.push(`<text class="deadline-label" x="${x(deadline) - 4}" y="${H - 6}" text-anchor="end">deadline ${hhmm(deadline)}</text>`);
    }
    parts.push(`<line class="now" x1="${x(now)}" x2="${x(now)}" y1="${top - 4}" y2="${H - 4}"/>`);
    parts.push(`<text class="now-label" x="${x(now) + 4}" y="${H - 6}">now</text>`);
    return `<div class="timeline-wrap"><svg class="timeline" data-testid="timeline" viewBox="0 0 ${W} ${H}" role="img"
        aria-label="Schedule timeline: ${games.length} games${deadline ? ", deadline " + hhmm(deadline) : ""}">${parts.join("")}</svg></div>
      <p class="legend small"><span class="key k-planned"></span>planned <span class="key k-tentative"></span>tentative
        <span class="key k-running"></span>running <span class="key k-played"></span>played <span class="key k-break"></span>break
        <span class="key k-moved"></span>moved <span class="key k-deadline"></span>deadline <span class="key k-now"></span>now</p>`;
  }

  // --- draws (commit-reveal)

  function renderDraws() {
    const draws = S.view.draws || [];
    if (S.view.kind === "extra-boards") { patch("draws", ""); $("draws").hidden = true; return; }
    $("draws").hidden = false;
    const items = draws.map((d) => {
      const dr = d.draw || {};
      const what = d.kind === "coin-toss"
        ? `Coin toss, match ${d.match}: ${dr.outcome ? `${esc(name(dr.outcome.caller))} called ${esc(dr.outcome.call)}, the coin showed ${esc(dr.outcome.face)}; ` : ""}won by <strong>${esc(name(d.winner))}</strong>`
        : `Lots, match ${d.match}: <strong>${esc(name(d.white))}</strong> has White in game 1`;
      let proof;
      if (dr.method === "commit-reveal") {
        const v = S.verified.get(dr.commitment);
        const check = v === "verified" ? `<span class="good" data-testid="draw-verified">✓ checked in this browser: the seed gives this commitment and this outcome</span>`
          : v === "mismatch" ? `<span class="bad" data-testid="draw-mismatch">✗ the seed does not match: report this to the chief arbiter</span>`
          : v === "commitment" ? `<span class="good">✓ the seed gives this commitment</span>`
          : v === "unavailable" ? `<span class="muted">(this browser cannot check hashes here: use https or localhost)</span>`
          : `<span class="muted">checking…</span>`;
        proof = `<dl class="proof">
            <dt>Commitment (SHA-256, published before the reveal)</dt><dd class="hash" data-testid="commitment">${esc(dr.commitment)}</dd>
            <dt>Revealed seed</dt><dd class="hash" data-testid="seed">${esc(dr.seed || "not revealed yet")}</dd>
          </dl>${check}`;
      } else {
        proof = `<p class="small muted">Physical draw, conducted by ${esc(dr.conducted_by || "the arbiter")}.</p>`;
      }
      return `<li class="draw" data-testid="draw-${attr(d.kind)}-${d.match}">${what}${proof}</li>`;
    });
    patch("draws", `<h2>Lots and coin tosses</h2>${items.length ? `<ul class="plain">${items.join("")}</ul>` : `<p class="muted">None drawn yet.</p>`}`);
  }

  const enc = new TextEncoder();

  function hexBytes(hex) {
    const out = new Uint8Array(hex.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
    return out;
  }

  function concat(...arrays) {
    const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0));
    let at = 0;
    for (const a of arrays) { out.set(a, at); at += a.length; }
    return out;
  }

  /** JSON exactly as Python writes it with sort_keys, compact separators, ensure_ascii. */
  function pyJson(value) {
    if (typeof value === "string") {
      return JSON.stringify(value).replace(/[^\x20-\x7e]/g,
        (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
    }
    if (Array.isArray(value)) return `[${value.map(pyJson).join(",")}]`;
    if (value && typeof value === "object") {
      return `{${Object.keys(value).sort().map((k) => `${pyJson(k)}:${pyJson(value[k])}`).join(",")}}`;
    }
    return JSON.stringify(value);
  }

  function verifyLater(draw) {
    if (!draw || draw.method !== "commit-reveal" || !draw.seed || S.verified.has(draw.commitment)) return;
    S.verified.set(draw.commitment, "checking");
    verifyDraw(draw).then((v) => { S.verified.set(draw.commitment, v); renderDraws(); },
      () => { S.verified.set(draw.commitment, "unavailable"); renderDraws(); });
  }

  /** docs: playoff_formats/lots.py. Commitment = SHA-256(prefix + seed); outcome from HMAC blocks. */
  async function verifyDraw(draw) {
    if (!(window.crypto && crypto.subtle)) return "unavailable";
    const seed = hexBytes(draw.seed);
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256",
      concat(enc.encode("playoff-lots/v1/commit\u0000"), seed)));
    const hex = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
    if (hex !== draw.commitment) return "mismatch";
    const description = enc.encode(pyJson({
      candidates: draw.candidates, contributions: draw.contributions || [],
      kind: draw.kind, purpose: draw.purpose,
    }));
    const key = await crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const words = [];
    let block = 0;
    const next = async () => {
      if (!words.length) {
        const n = new Uint8Array([block >>> 24, (block >>> 16) & 255, (block >>> 8) & 255, block & 255]);
        block += 1;
        const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key,
          concat(enc.encode("playoff-lots/v1/draw\u0000"), description, n)));
        for (let o = 0; o < 32; o += 8) {
          let w = 0n;
          for (let i = 0; i < 8; i++) w = (w << 8n) | BigInt(mac[o + i]);
          words.push(w);
        }
      }
      return words.shift();
    };
    const uniform = async (n) => {
      const N = BigInt(n);
      const W = 1n << 64n;
      const limit = W - (W % N);
      for (;;) {
        const w = await next();
        if (w < limit) return Number(w % N);
      }
    };
    const out = draw.outcome || {};
    if (draw.kind === "game-one-colours") {
      const i = await uniform(2);
      return draw.candidates[i] === out.white && draw.candidates[1 - i] === out.black ? "verified" : "mismatch";
    }
    if (draw.kind === "coin-toss") {
      const face = (await uniform(2)) === 0 ? "heads" : "tails";
      const winner = face === draw.call ? draw.candidates[0] : draw.candidates[1];
      return face === out.face && winner === out.winner ? "verified" : "mismatch";
    }
    return "commitment";
  }

  // --- overrides (each with a required reason)

  function renderOverrides() {
    const v = S.view;
    const plan = v.schedule && v.schedule.games ? v.schedule.games : [];
    const unstarted = plan.filter((g) => g.status === "planned");
    const gameOpts = unstarted.map((g) => `<option value="${g.match}:${g.game}">${esc(g.round_name || `Match ${g.match}`)} · ${g.kind === "stanza" ? "stanza" : "game"} ${g.game} (${hhmm(parseTime(g.start))})</option>`).join("");
    const played = [];
    for (const m of v.matches || []) for (const g of m.games) if (g.result) played.push([m, g]);
    const matchOpts = (v.matches || []).filter((m) => !m.bye).map((m) => `<option value="${m.id}">${esc(roundName(m.id))} (match ${m.id})</option>`).join("");
    const resultOpts = RESULTS.map(([value, shown, words]) => `<option value="${attr(value)}">${shown} ${words}</option>`).join("");
    let html = `<h2>Arbiter overrides</h2><p class="muted small">Each needs a reason; it is logged with your token.</p>`;
    if (unstarted.length) {
      html += `
        <details class="override" id="ov-move-start" data-testid="move-start">
          <summary class="btn btn-quiet">Move a start</summary>
          <form data-form="move-start" class="stack">
            <label class="field"><span>Game</span><select id="ms-game" name="game" data-testid="ms-game">${gameOpts}</select></label>
            <label class="field"><span>New start</span><input id="ms-at" name="at" type="datetime-local" required data-testid="ms-at"></label>
            <label class="field"><span>Reason (required)</span><input id="ms-reason" name="reason" minlength="3" required data-testid="ms-reason"></label>
            ${btn(null, "Move the start", { submit: true, key: "move-start", testid: "ms-submit" })}
          </form>
          <form data-form="postpone" class="stack">
            <label class="field"><span>Or postpone</span><select id="pp-game" name="game" data-testid="pp-game">${gameOpts}</select></label>
            <label class="field"><span>By minutes</span><input id="pp-minutes" name="minutes" type="number" min="1" max="1440" value="15" required data-testid="pp-minutes"></label>
            <label class="field"><span>Reason (required)</span><input id="pp-reason" name="reason" minlength="3" required data-testid="pp-reason"></label>
            ${btn(null, "Postpone", { submit: true, key: "postpone", testid: "pp-submit" })}
          </form>
        </details>`;
    }
    if (v.kind !== "extra-boards") {
      html += `
        <details class="override" id="ov-time-control" data-testid="time-control" ${v.schedule && v.schedule.fits === false ? "open" : ""}>
          <summary class="btn btn-quiet">Shorten the time control</summary>
          <form data-form="time-control" class="stack">
            <label class="field"><span>New time control</span><input id="tc-value" name="time_control" required placeholder="e.g. G/15+5" data-testid="tc-value" autocapitalize="off" spellcheck="false"></label>
            <label class="field"><span>Which matches</span><select id="tc-match" name="match" data-testid="tc-match"><option value="">Every match not begun</option>${matchOpts}</select></label>
            <label class="field"><span>Reason (required)</span><input id="tc-reason" name="reason" minlength="3" required data-testid="tc-reason"></label>
            ${btn(null, "Shorten", { submit: true, key: "time-control", testid: "tc-submit" })}
          </form>
        </details>`;
    }
    html += `
      <details class="override" id="ov-deadline" data-testid="deadline">
        <summary class="btn btn-quiet">Deadline</summary>
        <form data-form="deadline" class="stack">
          <label class="field"><span>Deadline (empty: none)</span><input id="dl-at" name="at" type="datetime-local" data-testid="dl-at"></label>
          <label class="field"><span>Reason (required)</span><input id="dl-reason" name="reason" minlength="3" required data-testid="dl-reason"></label>
          ${btn(null, "Set the deadline", { submit: true, key: "deadline", testid: "dl-submit" })}
        </form>
      </details>`;
    if (played.length) {
      html += `
        <details class="override" id="ov-correct" data-testid="correct">
          <summary class="btn btn-quiet">Correct a result</summary>
          <form data-form="correct" class="stack">
            <label class="field"><span>Game</span><select id="cr-game" name="game" data-testid="cr-game">${played.map(([m, g]) => `<option value="${m.id}:${g.number}">${esc(roundName(m.id))} game ${g.number} (now ${pretty(g.result)})</option>`).join("")}</select></label>
            <label class="field"><span>Correct result</span><select id="cr-result" name="result" data-testid="cr-result">${resultOpts}</select></label>
            <label class="field"><span>Reason (required)</span><input id="cr-reason" name="reason" minlength="3" required data-testid="cr-reason"></label>
            ${btn(null, "Correct", { submit: true, key: "correct", testid: "cr-submit" })}
          </form>
        </details>`;
    }
    patch("overrides", html);
  }

  function renderChanges() {
    const changes = S.view.changes || [];
    const line = (c) => {
      const where = c.match ? ` match ${c.match}${c.game ? `, game ${c.game}` : ""}` : "";
      let what = c.type;
      if (c.type === "time-control-shortened") what = `time control → ${esc(c.time_control)}${c.match ? "" : " (every match not begun)"}`;
      else if (c.type === "start-moved") what = `start moved to ${hhmm(parseTime(c.at))}`;
      else if (c.type === "postponed") what = `postponed ${c.minutes} min (to ${hhmm(parseTime(c.at))})`;
      else if (c.type === "deadline-set") what = c.deadline ? `deadline ${hhmm(parseTime(c.deadline))}` : "deadline cleared";
      else if (c.type === "result-corrected") what = `result corrected to ${esc(pretty(c.result))}`;
      else if (c.type === "clock-adjusted") what = `${c.delta_ms >= 0 ? "gave" : "took"} ${Math.abs(c.delta_ms) / 1000} s ${c.delta_ms >= 0 ? "to" : "from"} ${esc(c.side)}`;
      return `<li data-testid="change-${attr(c.type)}"><span class="muted">#${c.seq}</span> ${what}${where}${c.reason ? ` — <em>${esc(c.reason)}</em>` : ""}</li>`;
    };
    patch("changes", `<h2>Changes by arbiters</h2>${changes.length ? `<ul class="plain">${changes.slice().reverse().map(line).join("")}</ul>` : `<p class="muted">None.</p>`}`);
  }

  function renderPlacings() {
    const el = $("placings");
    const p = S.placings;
    if (!p || !S.view.champion) { el.hidden = true; return; }
    el.hidden = false;
    const rows = (p.players || []).map((r) => `<tr><td>${esc(r.place)}</td><td>${esc(r.name || name(r.id))}</td><td>${esc(r.score)}</td><td>${esc(r.money || "")}</td><td>${esc(r.points || "")}</td></tr>`).join("");
    patch("placings", `<h2>Final placings</h2><table class="games"><thead><tr><th>Place</th><th>Player</th><th>Score</th><th>Prize</th><th>Points</th></tr></thead><tbody>${rows}</tbody></table>`);
  }

  function renderCommands() {
    const items = S.log.slice(0, 12).map((r) => {
      const state = r.status === "pending" ? (Date.now() - r.sentAt > SLOW_MS ? "pending — no answer yet, still waiting" : "pending…")
        : r.status === "ok" ? "✓ done" : `✗ refused: ${esc(r.reason)}`;
      return `<li class="cmd cmd-${r.status}" data-testid="cmd" data-status="${r.status}" data-type="${attr(r.cmd.type)}">
          <span>${esc(r.label)}</span> <span class="small muted">${esc(r.via || "")} · ${hhmmss(r.sentAt)}</span>
          <span class="cmd-state">${state}</span></li>`;
    });
    patch("commands", `<h2>Commands from this console</h2>${items.length ? `<ul class="plain">${items.join("")}</ul>` : `<p class="muted">None yet.</p>`}`);
  }

  // ------------------------------------------------------------------ input

  function findGame(m, g) {
    const match = (S.view.matches || []).find((x) => x.id === m);
    return match ? match.games.find((x) => x.number === g) : null;
  }

  function onAction(el) {
    const a = el.dataset.action;
    const m = Number(el.dataset.m);
    const g = Number(el.dataset.g);
    const k = gameKey(m, g);
    switch (a) {
      case "dismiss":
        S.alerts = S.alerts.filter((x) => x.id !== el.dataset.id);
        renderAlerts();
        return;
      case "lots":
        send({ type: "lots", match: m }, `Draw lots, match ${m}`, `lots:${m}`);
        return;
      case "colours":
        send({ type: "armageddon-colours", match: m, white: el.dataset.white, black: el.dataset.black },
          `Armageddon colours: ${name(el.dataset.white)} White, ${name(el.dataset.black)} Black`, `colours:${m}`);
        return;
      case "start":
        send({ type: "start-clock", match: m, game: g }, `Start game ${g}, match ${m}`, `clock:${k}`);
        return;
      case "pause":
        send({ type: "pause", match: m, game: g }, `Pause game ${g}`, `clock:${k}`);
        return;
      case "resume":
        send({ type: "resume", match: m, game: g }, `Resume game ${g}`, `clock:${k}`);
        return;
      case "result":
        send({ type: "result", match: m, game: g, result: el.dataset.result },
          `Result ${pretty(el.dataset.result)} in game ${g}, match ${m}`, `result:${k}`);
        return;
      case "use-proposal": {
        const details = document.querySelector('[data-testid="time-control"]');
        if (details) details.open = true;
        const input = $("tc-value");
        if (input) { input.value = el.dataset.tc; $("tc-reason").focus(); }
        return;
      }
      default:
    }
  }

  function press(el) {
    const side = el.dataset.press;
    const m = Number(el.dataset.m);
    const g = Number(el.dataset.g);
    const k = gameKey(m, g);
    const clock = S.clocks.get(k);
    if (!clock || clock.running !== side || busy(`press:${k}`)) return;
    const move = ((S.moves.get(k) || {})[side] || 0) + 1;
    send({ type: "press", match: m, game: g, side, move },
      `${side === "white" ? "White" : "Black"} pressed after move ${move} (game ${g})`, `press:${k}`);
  }

  function localToIso(value) {
    const t = new Date(value);
    return Number.isNaN(t.getTime()) ? null : t.toISOString();
  }

  function onSubmit(form, submitter) {
    const kind = form.dataset.form;
    const f = new FormData(form);
    const get = (n) => String(f.get(n) ?? "").trim();
    const ids = (names) => names.map((n) => form.elements[n] && form.elements[n].id).filter(Boolean);
    const m = Number(form.dataset.m);
    const splitGame = (v) => v.split(":").map(Number);
    switch (kind) {
      case "lots-physical":
        send({ type: "lots-physical", match: m, white: get("white") },
          `Physical lots: ${name(get("white"))} White, match ${m}`, `lots:${m}`);
        return;
      case "toss":
        send({ type: "coin-toss", match: m, caller: get("caller"), call: get("call") },
          `Coin toss: ${name(get("caller"))} calls ${get("call")}`, `toss:${m}`);
        return;
      case "toss-physical":
        send({ type: "coin-toss-physical", match: m, winner: get("winner") },
          `Physical coin toss won by ${name(get("winner"))}`, `toss:${m}`);
        return;
      case "adjust": {
        const g = Number(form.dataset.g);
        const sign = Number((submitter && submitter.dataset.sign) || 1);
        const seconds = Math.round(Number(get("seconds")));
        const side = get("side");
        send({ type: "adjust", match: m, game: g, side, delta_ms: sign * seconds * 1000, reason: get("reason") },
          `${sign > 0 ? "Give" : "Take"} ${seconds} s ${sign > 0 ? "to" : "from"} ${side} (game ${g})`,
          `adjust:${gameKey(m, g)}`, ids(["reason"]));
        return;
      }
      case "board-score": {
        const table = Number(get("table"));
        send({ type: "board-score", stanza: Number(get("stanza")), board: Number(get("board")), table,
          ns_score: Math.round(Number(get("ns_score"))) },
        `Board ${get("board")}, table ${table}: NS ${get("ns_score")}`, "board-score", ids(["ns_score"]));
        return;
      }
      case "move-start": {
        const [mm, g] = splitGame(get("game"));
        const at = localToIso(get("at"));
        send({ type: "move-start", match: mm, game: g, at, reason: get("reason") },
          `Move the start of game ${g} to ${hhmm(parseTime(at))}`, "move-start", ids(["reason"]));
        return;
      }
      case "postpone": {
        const [mm, g] = splitGame(get("game"));
        send({ type: "postpone", match: mm, game: g, minutes: Number(get("minutes")), reason: get("reason") },
          `Postpone game ${g} by ${get("minutes")} min`, "postpone", ids(["reason"]));
        return;
      }
      case "time-control": {
        const which = get("match");
        send({ type: "time-control", time_control: get("time_control"), match: which ? Number(which) : null,
          reason: get("reason") }, `Shorten the time control to ${get("time_control")}`, "time-control",
        ids(["reason", "time_control"]));
        return;
      }
      case "deadline": {
        const at = get("at") ? localToIso(get("at")) : null;
        send({ type: "deadline", deadline: at, reason: get("reason") },
          at ? `Set the deadline to ${hhmm(parseTime(at))}` : "Clear the deadline", "deadline", ids(["reason"]));
        return;
      }
      case "correct": {
        const [mm, g] = splitGame(get("game"));
        send({ type: "correct", match: mm, game: g, result: get("result"), reason: get("reason") },
          `Correct game ${g} to ${pretty(get("result"))}`, "correct", ids(["reason"]));
        return;
      }
      default:
    }
  }

  document.addEventListener("pointerdown", (e) => {
    const el = e.target.closest("[data-press]");
    if (!el || el.disabled) return;
    e.preventDefault();  // a clock press acts on touch-down, not on release
    press(el);
  });

  document.addEventListener("click", (e) => {
    const pressEl = e.target.closest("[data-press]");
    if (pressEl) {
      if (e.detail === 0 && !pressEl.disabled) press(pressEl);  // keyboard activation
      return;
    }
    const el = e.target.closest("[data-action]");
    if (el && !el.disabled) onAction(el);
  });

  document.addEventListener("change", (e) => {
    if (e.target.id === "acts-as-clock") {
      S.actsAsClock = e.target.checked;
      localStorage.setItem(CLOCK_KEY, S.actsAsClock ? "on" : "off");
      renderNow();
    }
  });

  document.addEventListener("submit", (e) => {
    const form = e.target;
    if (form.id === "token-form") {
      e.preventDefault();
      const token = $("token-input").value.trim();
      if (!token) return;
      $("token-input").value = "";
      sessionStorage.setItem(TOKEN_KEY, token);
      S.token = token;
      S.alerts = S.alerts.filter((a) => a.key !== "connection");
      renderAlerts();
      start();
      return;
    }
    if (form.dataset.form) {
      e.preventDefault();
      onSubmit(form, e.submitter);
    }
  });

  // ------------------------------------------------------------------ start

  function showLogin() {
    $("login").hidden = false;
    $("app").hidden = true;
    $("sign-out").hidden = true;
    $("token-input").focus();
  }

  async function start() {
    $("login").hidden = true;
    $("sign-out").hidden = false;
    setConn("connecting", "connecting…");
    try {
      const view = await api("GET", API);
      $("app").hidden = false;
      applyView(view);
      connect();
    } catch (err) {
      if (err.code === "unauthorized" || err.code === "forbidden") {
        tokenRefused(err.reason);
      } else {
        pushAlert("Could not load the play-off", err.reason, err.code, "connection");
        setConn("off", "offline");
        S.reconnectTimer = setTimeout(start, 3000);
      }
    }
  }

  $("sign-out").addEventListener("click", () => {
    sessionStorage.removeItem(TOKEN_KEY);
    S.token = null;
    const ws = S.ws;
    S.ws = null;
    if (ws) ws.close(1000);
    clearTimeout(S.reconnectTimer);
    setConn("off", "not connected");
    showLogin();
  });

  window.addEventListener("resize", () => { if (S.view) renderPlan(); });
  setInterval(tick, 100);
  setInterval(() => {
    // The server pings every heartbeat; silence for three means the link is dead.
    if (S.ws && S.conn === "live" && Date.now() - S.lastFrameAt > 3 * S.heartbeatMs) S.ws.close(4000, "silent");
    if ([...S.pending.values()].some((r) => Date.now() - r.sentAt > SLOW_MS)) renderCommands();
    // Acknowledged, but the state shown does not have it yet (a lost re-fetch): read again.
    if (S.view && S.log.some((r) => r.status === "ok" && r.waitView && S.view.seq < r.seq
        && Date.now() - r.sentAt > 2000)) refetchSoon();
    // The plan moves with the time: redraw the "now" line.
    if (S.view) renderPlan();
  }, 1000);

  S.token = sessionStorage.getItem(TOKEN_KEY);
  if (S.token) start(); else showLogin();
})();
