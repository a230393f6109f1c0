/* Hall display of one play-off (websocket protocol v1, docs/protocol.md).
 *
 * Page: /display/{playoff}?key=<display key>. The key goes in the first websocket
 * frame (hello) and in the Authorization header of the two reads the page makes
 * (the state after an event that changes it, and the final placings), never in a
 * websocket URL.
 *
 * Clocks: the server is the authority. Each clock message gives the remaining
 * times at server_ms and the side that runs; the page counts that side down
 * locally (requestAnimationFrame) from server_ms, using its offset to the server
 * (server_ms of welcome/ping/pong/clock frames minus the local time of receipt:
 * the largest recent sample). A clock runs only while the last message says so and
 * the connection is up and caught up: on a disconnect every clock freezes until the
 * page has resynced.
 *
 * Plain browser JavaScript, no libraries, no network beyond the service.
 */
(function () {
  "use strict";

  var LOW_MS = 60000;          // under a minute: red, pulsing
  var TENTHS_MS = 10000;       // under ten seconds: tenths
  var BACKOFF_FIRST_MS = 500;  // reconnection delay, doubling...
  var BACKOFF_MAX_MS = 5000;   // ...up to this, jittered to 50-100 %
  var STABLE_MS = 5000;        // a connection up this long resets the backoff
  var CLIENT_PING_MS = 5000;   // our own pings: offset samples and liveness
  var SILENT_MS = 12000;       // no frame for this long: the connection is dead
  var WELCOME_TIMEOUT_MS = 8000;
  var REFRESH_EVERY_MS = 30000; // the schedule moves with time: re-read it now and then
  var OFFSET_SAMPLES = 6;
  // Events that change nothing but a clock: no need to re-read the state.
  var CLOCK_ONLY = {
    "clock-pressed": 1, "clock-paused": 1, "clock-resumed": 1, "clock-adjusted": 1
  };

  // ------------------------------------------------------------------ where we are

  var match = /^(.*)\/display\/([^/]+)\/?$/.exec(location.pathname);
  var prefix = match ? match[1] : "";
  var playoffId = match ? decodeURIComponent(match[2]) : "";
  var key = new URLSearchParams(location.search).get("key") || "";

  function localNow() {
    // Monotonic local milliseconds on the epoch scale: immune to wall-clock steps.
    return performance.timeOrigin + performance.now();
  }

  // ------------------------------------------------------------------ state

  var ds = {
    playoffId: playoffId,
    lastSeq: null,          // seq of the last event or snapshot applied
    connected: false,       // a welcomed connection is up
    synced: false,          // ...and caught up: clocks may run
    connection: "connecting",
    offsetMs: 0,
    clocks: {},             // "m:g" -> clock as shown now (ms), running side as shown
    shownAt: 0,             // performance.now() of that computation
    frames: 0,
    events: 0,
    clockMessages: 0,
    snapshots: 0,
    welcomes: 0,
    refreshes: 0,
    kind: null,
    champion: null,
    error: null
  };
  window.displayState = ds;

  var view = null;         // GET /api/playoffs/{id} (from the snapshot or a re-read)
  var viewSeq = -1;
  var clocks = {};         // "m:g" -> last clock object received
  var frozenAt = null;     // server ms at which shown clocks froze (disconnected)
  var offsets = [];
  var placings = null;
  var placingsSeq = -1;
  var placingsLoading = false;

  function serverNow() {
    return localNow() + ds.offsetMs;
  }

  function sample(serverMs, receivedAt) {
    if (typeof serverMs !== "number" || !isFinite(serverMs)) return;
    offsets.push(serverMs - receivedAt);
    if (offsets.length > OFFSET_SAMPLES) offsets.shift();
    // Each sample falls short of the true offset by the frame's transit time.
    ds.offsetMs = Math.max.apply(null, offsets);
  }

  // ------------------------------------------------------------------ connection

  var ws = null;
  var attempt = 0;
  var reconnectTimer = null;
  var welcomeSeq = null;
  var lastFrameAt = 0;
  var openedAt = 0;
  var welcomed = false;

  function wsUrl() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    return scheme + location.host + prefix + "/ws/playoffs/" + encodeURIComponent(playoffId);
  }

  function connect() {
    reconnectTimer = null;
    var sock;
    try {
      sock = new WebSocket(wsUrl());
    } catch (e) {
      lost(null, 1006, "cannot open");
      return;
    }
    ws = sock;
    welcomed = false;
    openedAt = localNow();
    lastFrameAt = openedAt;
    sock.onopen = function () {
      if (sock !== ws) return;
      sock.send(JSON.stringify({
        t: "hello",
        d: { token: key, last_seq: ds.lastSeq, client: "hall-display" }
      }));
    };
    sock.onmessage = function (ev) {
      if (sock === ws) onFrame(ev.data);
    };
    sock.onclose = function (ev) {
      if (sock === ws) lost(sock, ev.code, ev.reason);
    };
    sock.onerror = function () { /* onclose follows */ };
  }

  function send(frame) {
    if (ws && ws.readyState === 1) {
      try { ws.send(JSON.stringify(frame)); } catch (e) { /* closing */ }
    }
  }

  function freeze() {
    if (frozenAt === null) frozenAt = serverNow();
  }

  /** The connection is gone (or we gave it up): freeze the clocks, come back later. */
  function lost(sock, code, reason) {
    if (sock && sock !== ws) return;
    ws = null;
    if (sock) {
      sock.onopen = sock.onmessage = sock.onclose = null;
      try { sock.close(); } catch (e) { /* already closed */ }
    }
    freeze();
    var wasUp = welcomed && localNow() - openedAt >= STABLE_MS;
    welcomed = false;
    ds.connected = false;
    ds.synced = false;
    if (wasUp) attempt = 0;
    var delay;
    if (code === 4401 || code === 4404) {
      ds.error = code === 4401 ? "This display key was refused." : "No such play-off.";
      setConnection("error");
      delay = 30000;
    } else {
      setConnection(ds.lastSeq === null && ds.welcomes === 0 ? "connecting" : "reconnecting");
      delay = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * Math.pow(2, attempt));
      delay = delay * (0.5 + Math.random() * 0.5);
      attempt += 1;
    }
    markDirty();
    if (reconnectTimer === null) reconnectTimer = setTimeout(connect, delay);
  }

  /** Drop this connection now and resume from the last seq at once (a gap...). */
  function resume() {
    var sock = ws;
    attempt = 0;
    lost(sock, 1000, "resume");
    if (reconnectTimer !== null) {
      clearTimeout(reconnectTimer);
      reconnectTimer = setTimeout(connect, 50);
    }
  }

  setInterval(function () {
    if (!ws) return;
    var now = localNow();
    if (!welcomed && now - openedAt > WELCOME_TIMEOUT_MS) {
      lost(ws, 4408, "no welcome");
    } else if (welcomed && now - lastFrameAt > SILENT_MS) {
      lost(ws, 4408, "silent");
    }
  }, 1000);

  setInterval(function () {
    if (welcomed) send({ t: "ping" });
  }, CLIENT_PING_MS);

  setInterval(function () {
    if (ds.synced) scheduleRefresh(0);
  }, REFRESH_EVERY_MS);

  function setConnection(stateName) {
    ds.connection = stateName;
    var el = document.getElementById("conn");
    if (!el) return;
    el.setAttribute("data-state", stateName);
    el.textContent = {
      live: "live",
      connecting: "connecting\u2026",
      reconnecting: "reconnecting\u2026",
      error: ds.error || "error"
    }[stateName] || stateName;
  }

  // ------------------------------------------------------------------ frames

  function onFrame(raw) {
    var receivedAt = localNow();
    lastFrameAt = receivedAt;
    ds.frames += 1;
    var msg;
    try {
      msg = JSON.parse(raw);
    } catch (e) {
      return;
    }
    if (!msg || typeof msg !== "object") return;
    var d = msg.d && typeof msg.d === "object" ? msg.d : {};
    switch (msg.t) {
      case "welcome": onWelcome(msg, d, receivedAt); break;
      case "snapshot": onSnapshot(msg, d, receivedAt); break;
      case "event": onEvent(msg, d); break;
      case "ping":
        sample(d.server_ms, receivedAt);
        send({ t: "pong" });
        break;
      case "pong": sample(d.server_ms, receivedAt); break;
      case "error":
        if (d.code === "forbidden") ds.error = d.reason || "refused";
        break;
      default: break;
    }
  }

  function onWelcome(msg, d, receivedAt) {
    welcomed = true;
    ds.welcomes += 1;
    ds.error = null;
    offsets = [];  // perhaps another server process: measure afresh
    sample(d.server_ms, receivedAt);
    ds.connected = true;
    welcomeSeq = typeof msg.seq === "number" ? msg.seq : null;
    if (ds.lastSeq !== null && welcomeSeq !== null && ds.lastSeq === welcomeSeq) {
      synced();  // nothing missed: the clocks we hold are the server's
    }
    if (ds.lastSeq !== null) scheduleRefresh(0);  // the schedule moved meanwhile
    send({ t: "ping" });
  }

  function onSnapshot(msg, d, receivedAt) {
    if (d.state && typeof d.state === "object") {
      view = d.state;
      viewSeq = typeof msg.seq === "number" ? msg.seq : -1;
    }
    clocks = {};
    var list = Array.isArray(d.clocks) ? d.clocks : [];
    for (var i = 0; i < list.length; i++) {
      setClock(list[i]);
      sample(list[i].server_ms, receivedAt);
    }
    if (typeof msg.seq === "number") ds.lastSeq = msg.seq;
    ds.snapshots += 1;
    synced();
  }

  function onEvent(msg, d) {
    var seq = msg.seq;
    if (typeof seq !== "number") return;
    if (ds.lastSeq !== null && seq <= ds.lastSeq) return;  // already seen
    if (ds.lastSeq === null || seq !== ds.lastSeq + 1) {
      resume();  // a gap: the server sends exactly what we missed
      return;
    }
    ds.lastSeq = seq;
    ds.events += 1;
    var clock = d.clock || (d.data && d.data.clock);
    if (clock && typeof clock === "object") {
      setClock(clock);
      ds.clockMessages += 1;
    }
    try {
      patch(d.type, d.data || {}, d.at);
    } catch (e) { /* the re-read below puts it right */ }
    if (!CLOCK_ONLY[d.type]) scheduleRefresh(60);
    if (!ds.synced && welcomeSeq !== null && seq >= welcomeSeq) synced();
    markDirty();
  }

  function synced() {
    ds.synced = true;
    frozenAt = null;
    setConnection("live");
    markDirty();
  }

  function setClock(c) {
    if (!c || typeof c.match !== "number" || typeof c.game !== "number") return;
    clocks[c.match + ":" + c.game] = {
      match: c.match,
      game: c.game,
      white_ms: Number(c.white_ms) || 0,
      black_ms: Number(c.black_ms) || 0,
      running: c.running === "white" || c.running === "black" ? c.running : null,
      status: c.status || null,
      server_ms: Number(c.server_ms) || 0
    };
  }

  /** What an event changes, applied at once; the re-read of the state confirms it. */
  function patch(type, data, at) {
    if (!view) return;
    if (view.kind === "extra-boards") {
      if (type === "board-scored" && view.extra_boards) {
        var st = (view.extra_boards.stanzas || []).filter(function (s) {
          return s.stanza === data.stanza;
        })[0];
        var bd = st && (st.boards || []).filter(function (b) { return b.board === data.board; })[0];
        if (bd) bd["table_" + data.table] = data.ns_score;
      }
      return;
    }
    var m = findMatch(data.match);
    if (!m) return;
    var g = (m.games || []).filter(function (x) { return x.number === data.game; })[0];
    if (type === "armageddon-colours-chosen") {
      g = (m.games || []).filter(function (x) { return x.kind === "armageddon"; })[0];
      if (g) {
        g.white = data.white;
        g.black = data.black;
        if (data.armageddon) g.armageddon = data.armageddon;
      }
    } else if (type === "game-started" && g) {
      g.started_at = at || new Date().toISOString();
      if (data.armageddon) g.armageddon = data.armageddon;
    } else if ((type === "result-recorded" || type === "result-corrected") && g) {
      g.result = data.result;
      g.ended_at = at || null;
    }
  }

  // ------------------------------------------------------------------ reads (REST)

  var refreshTimer = null;
  var refreshing = false;
  var refreshAgain = false;
  var refreshFailures = 0;

  function authHeaders() {
    return { Authorization: "Bearer " + key };
  }

  function scheduleRefresh(delay) {
    if (refreshTimer !== null) return;
    refreshTimer = setTimeout(refresh, delay);
  }

  function refresh() {
    refreshTimer = null;
    if (refreshing) {
      refreshAgain = true;
      return;
    }
    refreshing = true;
    var url = prefix + "/api/playoffs/" + encodeURIComponent(playoffId);
    fetch(url, { headers: authHeaders(), cache: "no-store" })
      .then(function (res) {
        if (!res.ok) throw new Error("HTTP " + res.status);
        return res.json();
      })
      .then(function (fresh) {
        ds.refreshes += 1;
        refreshFailures = 0;
        if (fresh && typeof fresh === "object" && (typeof fresh.seq !== "number" || fresh.seq >= viewSeq)) {
          view = fresh;
          viewSeq = typeof fresh.seq === "number" ? fresh.seq : viewSeq;
          markDirty();
        }
      })
      .catch(function () {
        refreshFailures += 1;
        var wait = Math.min(30000, 1000 * Math.pow(2, refreshFailures));
        setTimeout(function () { if (ds.connected) scheduleRefresh(0); }, wait);
      })
      .then(function () {
        refreshing = false;
        if (refreshAgain) {
          refreshAgain = false;
          scheduleRefresh(0);
        }
      });
  }

  function loadPlacings() {
    if (placingsLoading || placingsSeq === viewSeq) return;
    placingsLoading = true;
    var seq = viewSeq;
    var url = prefix + "/api/playoffs/" + encodeURIComponent(playoffId) + "/placings";
    fetch(url, { headers: authHeaders(), cache: "no-store" })
      .then(function (res) {
        if (!res.ok) throw new Error("HTTP " + res.status);
        return res.json();
      })
      .then(function (body) {
        placings = body;
        placingsSeq = seq;
        markDirty();
      })
      .catch(function () {
        placingsSeq = seq;  // show the champion alone; try again on the next change
      })
      .then(function () { placingsLoading = false; });
  }

  // ------------------------------------------------------------------ helpers

  function esc(text) {
    return String(text === null || text === undefined ? "" : text)
      .replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;").replace(/'/g, "&#39;");
  }

  function pad2(n) {
    return n < 10 ? "0" + n : String(n);
  }

  /** A chess clock reading: 25:00, 5:59, 0:42, then tenths under 10 s: 9.4. */
  function formatClock(ms) {
    ms = Math.max(0, Math.floor(ms));
    if (ms < TENTHS_MS) {
      var tenths = Math.floor(ms / 100);
      return Math.floor(tenths / 10) + "." + (tenths % 10);
    }
    var s = Math.ceil(ms / 1000);
    var h = Math.floor(s / 3600);
    var m = Math.floor((s % 3600) / 60);
    var sec = s % 60;
    return h > 0 ? h + ":" + pad2(m) + ":" + pad2(sec) : m + ":" + pad2(sec);
  }
  ds.formatClock = formatClock;

  /** A countdown to a planned time: 1:05:09, 9:45, 0:07. */
  function formatCountdown(ms) {
    var s = Math.max(0, Math.ceil(ms / 1000));
    var h = Math.floor(s / 3600);
    var m = Math.floor((s % 3600) / 60);
    var sec = s % 60;
    return h > 0 ? h + ":" + pad2(m) + ":" + pad2(sec) : m + ":" + pad2(sec);
  }

  function parseTime(text) {
    if (!text) return NaN;
    // Python gives microseconds: keep milliseconds for every browser's parser.
    return Date.parse(String(text).replace(/(\.\d{3})\d+/, "$1"));
  }

  function clockTime(ms) {
    var d = new Date(ms);
    return pad2(d.getHours()) + ":" + pad2(d.getMinutes());
  }

  function minutes(ms) {
    var total = Math.round(ms / 1000);
    var m = Math.floor(total / 60);
    var s = total % 60;
    return s ? m + "\u2032" + pad2(s) + "\u2033" : m + "\u2032";
  }

  function nameOf(id) {
    if (id === null || id === undefined) return "";
    var names = (view && view.names) || {};
    if (names[id]) return names[id];
    var w = /^winner of match (\d+)$/.exec(String(id));
    return w ? "Winner of match " + w[1] : String(id);
  }

  function seedOf(id) {
    var parts = (view && view.participants) || [];
    for (var i = 0; i < parts.length; i++) if (parts[i].id === id) return parts[i].seed;
    return null;
  }

  function findMatch(id) {
    var ms = (view && view.matches) || [];
    for (var i = 0; i < ms.length; i++) if (ms[i].id === id) return ms[i];
    return null;
  }

  function roundName(matchObj) {
    var games = (view && view.schedule && view.schedule.games) || [];
    for (var i = 0; i < games.length; i++) {
      if (games[i].match === matchObj.id && games[i].round_name) {
        return games[i].round_name.replace(/\s*\((reg\.|GCT)[^)]*\)\s*$/, "");
      }
    }
    var last = 0;
    ((view && view.matches) || []).forEach(function (x) { last = Math.max(last, x.round); });
    return matchObj.round === last ? "Final" : "Round " + matchObj.round;
  }

  function points(result, colour) {
    var table = {
      "1-0": [1, 0], "0-1": [0, 1], "1/2-1/2": [0.5, 0.5],
      "+/-": [1, 0], "-/+": [0, 1], "-/-": [0, 0]
    };
    var p = table[result];
    if (!p) return null;
    return colour === "white" ? p[0] : p[1];
  }

  function fmtPoints(p) {
    if (p === null || p === undefined) return "";
    var whole = Math.floor(p);
    var half = p - whole >= 0.5;
    if (half) return (whole ? String(whole) : "") + "\u00bd";
    return String(whole);
  }

  function resultText(result) {
    return { "1/2-1/2": "\u00bd-\u00bd" }[result] || result;
  }

  // ------------------------------------------------------------------ what is on

  function liveClocks() {
    var list = [];
    Object.keys(clocks).forEach(function (k) {
      var c = clocks[k];
      if (c.status === "running" || c.status === "paused" || c.status === "not-started") {
        list.push(c);
      }
    });
    list.sort(function (a, b) { return a.match - b.match || a.game - b.game; });
    return list;
  }

  function gameOf(matchId, number) {
    var m = findMatch(matchId);
    if (!m) return null;
    return (m.games || []).filter(function (g) { return g.number === number; })[0] || null;
  }

  /** The Armageddon being played, or the next one to be played. */
  function armageddon() {
    if (!view || view.kind !== "knock-out" || view.champion) return null;
    var ms = view.matches || [];
    var found = null;
    for (var i = 0; i < ms.length; i++) {
      var m = ms[i];
      if (m.decision) continue;
      var games = m.games || [];
      for (var j = 0; j < games.length; j++) {
        var g = games[j];
        if (g.kind !== "armageddon" || g.result) continue;
        var clock = clocks[m.id + ":" + g.number];
        var on = !!g.started_at || !!(clock && clock.status !== "not-started");
        var cand = { match: m, game: g, on: on };
        if (on) return cand;
        if (!found) found = cand;
      }
    }
    return found;
  }

  function nextPlanned(now) {
    var sched = view && view.schedule;
    var games = (sched && sched.games) || [];
    for (var i = 0; i < games.length; i++) {
      var g = games[i];
      if (g.status !== "planned") continue;
      if (view.kind === "knock-out") {
        var m = findMatch(g.match);
        if (m && m.decision) continue;
        var known = gameOf(g.match, g.game);
        if (known && (known.started_at || known.result)) continue;
      }
      return g;
    }
    return null;
  }

  function currentBreak(now) {
    var sched = view && view.schedule;
    var breaks = (sched && sched.breaks) || [];
    for (var i = 0; i < breaks.length; i++) {
      var b = breaks[i];
      var start = parseTime(b.start);
      var end = parseTime(b.end);
      if (start <= now && now < end) return { brk: b, end: end };
    }
    return null;
  }

  // ------------------------------------------------------------------ rendering

  var dirty = true;

  function markDirty() {
    dirty = true;
  }

  function render() {
    dirty = false;
    var app = document.getElementById("app");
    var kind = view ? view.kind : null;
    ds.kind = kind;
    ds.champion = view ? view.champion || null : null;
    app.setAttribute("data-kind", kind || "none");
    document.getElementById("title").textContent = view ? view.name || "Play-off" : "Play-off";
    document.title = (view && view.name ? view.name + " \u2014 " : "") + "Play-off display";
    var sub = document.getElementById("subtitle");
    sub.textContent = view ? (view.regulation || "") : (playoffId ? "Play-off " + playoffId : "");

    var banner = document.getElementById("banner");
    var arm = armageddon();
    if (arm) {
      banner.hidden = false;
      banner.setAttribute("data-state", arm.on ? "on" : "next");
      banner.innerHTML = bannerHtml(arm);
    } else {
      banner.hidden = true;
      banner.removeAttribute("data-state");
      banner.innerHTML = "";
    }
    app.setAttribute("data-banner", arm ? "yes" : "no");

    var stage = document.getElementById("stage");
    var side = document.getElementById("side");
    var live = view && kind === "knock-out" ? liveClocks() : [];
    var mode;
    if (!view) mode = ds.error ? "error" : "waiting";
    else if (kind === "extra-boards") mode = "scoreboard";
    else if (view.champion) mode = "champion";
    else if (live.length) mode = "games";
    else mode = "idle";
    app.setAttribute("data-mode", mode);
    ds.mode = mode;

    var html;
    if (mode === "waiting") html = '<div class="waiting">Waiting for the play-off\u2026</div>';
    else if (mode === "error") html = '<div class="waiting error">' + esc(ds.error) + "</div>";
    else if (mode === "scoreboard") html = scoreboardHtml();
    else if (mode === "champion") {
      loadPlacings();
      html = championHtml();
    } else if (mode === "games") html = gamesHtml(live);
    else html = idleHtml();
    stage.innerHTML = html;

    var aside = "";
    if (view && kind === "knock-out") aside += bracketHtml();
    if (view) aside += scheduleHtml(kind);
    side.innerHTML = aside;
    tick();
  }

  function bannerHtml(arm) {
    var m = arm.match;
    var g = arm.game;
    var a = g.armageddon;
    var whiteMs = a ? a.white_ms : 360000;
    var blackMs = a ? a.black_ms : 300000;
    var incr = a && a.increment ? a.increment : "+3 s from move 61";
    var white = a ? a.white : g.white;
    var black = a ? a.black : g.black;
    var colours;
    if (white && black) {
      colours =
        '<span class="arm-side"><span class="swatch white"></span>White <b data-testid="arm-white">' +
        esc(nameOf(white)) + "</b> " + minutes(whiteMs) + "</span>" +
        '<span class="arm-v">v</span>' +
        '<span class="arm-side"><span class="swatch black"></span>Black <b data-testid="arm-black">' +
        esc(nameOf(black)) + "</b> " + minutes(blackMs) + "</span>";
    } else {
      var toss = ((view && view.draws) || []).filter(function (d) {
        return d.kind === "coin-toss" && d.match === m.id;
      }).pop();
      colours = toss && toss.winner
        ? '<span class="arm-side">Coin toss won by <b>' + esc(nameOf(toss.winner)) +
          "</b>: chooses the colours</span>"
        : '<span class="arm-side">Colours by coin toss; the winner chooses</span>';
    }
    return (
      '<div class="arm-title"><span class="arm-word">Armageddon</span>' +
      '<span class="arm-when">' + (arm.on ? "now playing" : "next") + " \u00b7 " +
      esc(roundName(m)) + " \u00b7 game " + g.number + "</span></div>" +
      '<div class="arm-colours">' + colours + "</div>" +
      '<div class="arm-rules" data-testid="arm-rules">' +
      "<span>" + minutes(whiteMs) + " v " + minutes(blackMs) + "</span>" +
      "<span>" + esc(incr) + "</span>" +
      '<span class="arm-draw">draw = Black wins</span></div>'
    );
  }

  function gamesHtml(live) {
    var html = '<div class="games" style="--games:' + live.length + '" data-count="' +
      live.length + '">';
    live.forEach(function (c) {
      var m = findMatch(c.match);
      var g = gameOf(c.match, c.game);
      var isArm = g && g.kind === "armageddon";
      var white = g && g.white;
      var black = g && g.black;
      var control = !isArm && m ? m.time_control : null;  // the banner has the Armageddon's
      var title = (m ? esc(roundName(m)) + " \u00b7 " : "") + "Game " + c.game +
        (isArm ? ' \u00b7 <span class="tag-arm">Armageddon</span>' : "") +
        (control ? ' \u00b7 <span class="control">' + esc(control) + "</span>" : "");
      var k = c.match + ":" + c.game;
      html +=
        '<article class="game' + (isArm ? " is-arm" : "") + '" data-testid="game" data-key="' + k +
        '" data-match="' + c.match + '" data-game="' + c.game + '">' +
        '<div class="game-title">' + title + "</div>" +
        '<div class="clocks">' +
        clockSideHtml(k, "white", white) + clockSideHtml(k, "black", black) +
        "</div>" +
        '<div class="game-status" data-role="status"></div>' +
        "</article>";
    });
    return html + "</div>";
  }

  function clockSideHtml(k, colour, player) {
    return (
      '<div class="clock-side ' + colour + '" data-side="' + colour + '">' +
      '<div class="player"><span class="swatch ' + colour + '"></span><span class="pname">' +
      esc(player ? nameOf(player) : colour === "white" ? "White" : "Black") + "</span>" +
      (player && seedOf(player) ? '<span class="seed">' + seedOf(player) + "</span>" : "") +
      "</div>" +
      '<div class="time" data-testid="clock-' + colour + '" data-clock="' + k + '" data-side="' +
      colour + '" data-running="false"></div>' +
      "</div>"
    );
  }

  function idleHtml() {
    return (
      '<div class="idle">' +
      '<div class="idle-label" data-role="idle-label">Next game</div>' +
      '<div class="idle-what" data-role="idle-what"></div>' +
      '<div class="idle-count" data-role="idle-count"></div>' +
      '<div class="idle-note" data-role="idle-note"></div>' +
      "</div>"
    );
  }

  function bracketHtml() {
    var ms = (view.matches || []).slice();
    var rounds = {};
    ms.forEach(function (m) { (rounds[m.round] = rounds[m.round] || []).push(m); });
    var keys = Object.keys(rounds).map(Number).sort(function (a, b) { return a - b; });
    // Up to four matches in one column; more (five to eight players): the first
    // round on the left, the later rounds on the right.
    var columns = ms.length >= 5 && keys.length > 1 ? [keys.slice(0, 1), keys.slice(1)] : [keys];
    var html = '<section class="bracket" data-testid="bracket" data-columns="' + columns.length +
      '" style="--m:' + ms.length + '"><h2>Bracket</h2><div class="rounds">';
    columns.forEach(function (col) {
      html += '<div class="bcol">';
      col.forEach(function (r) {
        html += '<div class="round"><div class="round-name">' + esc(roundName(rounds[r][0])) +
          "</div>";
        rounds[r].forEach(function (m) { html += matchHtml(m, columns.length > 1); });
        html += "</div>";
      });
      html += "</div>";
    });
    return html + "</div></section>";
  }

  function matchHtml(m, compact) {
    var players = m.players || [];
    var feeds = (m.feeds || []).slice();
    var games = m.games || [];
    var decision = m.decision;
    var html = '<div class="match status-' + esc(m.status) + '" data-testid="match" data-match="' +
      m.id + '" data-status="' + esc(m.status) + '">';
    for (var i = 0; i < 2; i++) {
      var p = players[i];
      if ((p === undefined || p === null) && m.bye && i === 1) {
        html += '<div class="prow bye"><span class="seed"></span><span class="pname">bye</span></div>';
        continue;
      }
      var cls = "prow";
      if (decision && p) cls += decision.winner === p ? " advances" : " out";
      var marks = "";
      var total = 0;
      var counted = false;
      games.forEach(function (g) {
        if (!p || !g.result || (g.white !== p && g.black !== p)) {
          if (p && !g.result && g.kind !== "armageddon") marks += '<span class="gm empty">\u00a0</span>';
          return;
        }
        var pts = points(g.result, g.white === p ? "white" : "black");
        if (g.kind === "armageddon") {
          marks += '<span class="gm arm" title="Armageddon">' + fmtPoints(pts) + "</span>";
        } else {
          total += pts;
          counted = true;
          marks += '<span class="gm">' + fmtPoints(pts) + "</span>";
        }
      });
      var seed = p ? seedOf(p) : null;
      var label = p ? nameOf(p)
        : feeds.length ? (compact ? "Winner M" : "Winner of match ") + feeds.shift() : "\u2014";
      html += '<div class="' + cls + '" data-testid="bracket-player"' +
        (p ? ' data-player="' + esc(p) + '"' : "") + (seed ? ' data-seed="' + seed + '"' : "") + ">" +
        '<span class="seed">' + (seed || "") + "</span>" +
        '<span class="pname' + (p ? "" : " tbd") + '">' + esc(label) + "</span>" +
        '<span class="marks">' + marks + "</span>" +
        '<span class="total">' + (counted ? fmtPoints(total) || "0" : "") + "</span>" +
        '<span class="adv">' + (cls.indexOf("advances") >= 0 ? "\u25b6" : "") + "</span>" +
        "</div>";
    }
    if (decision) {
      html += '<div class="decision" data-testid="decision">' + esc(decisionText(decision)) + "</div>";
    }
    return html + "</div>";
  }

  function decisionText(d) {
    var who = nameOf(d.winner);
    switch (d.method) {
      case "bye": return who + ": bye";
      case "regular-games":
        return who + " advances" + (d.score ? " " + fmtPoints(d.score[0]) + "\u2013" +
          fmtPoints(d.score[1]) : "");
      case "armageddon-win": return who + " advances: won the Armageddon";
      case "armageddon-draw": return who + " advances: Armageddon drawn, Black wins";
      default: return who + " advances";
    }
  }

  function scheduleHtml(kind) {
    return (
      '<section class="schedule" data-testid="schedule"><h2>Schedule</h2>' +
      '<div class="next" data-testid="next-game" data-role="next"></div>' +
      '<div class="next-count" data-testid="next-countdown" data-role="next-count"></div>' +
      '<div class="break" data-testid="break" data-role="break" hidden>' +
      '<div class="break-head"><span class="break-label">Break</span>' +
      '<span class="break-count" data-testid="break-countdown" data-role="break-count"></span></div>' +
      '<div class="break-reason" data-testid="break-reason" data-role="break-reason"></div></div>' +
      (kind === "extra-boards" ? stanzaListHtml() : "") +
      "</section>"
    );
  }

  /** Bridge: every stanza of the plan, played, being played or when it starts. */
  function stanzaListHtml() {
    var games = (view.schedule && view.schedule.games) || [];
    var stanzas = (view.extra_boards && view.extra_boards.stanzas) || [];
    var winner = view.extra_boards && view.extra_boards.winner;
    var html = '<ul class="stanza-list" data-testid="stanza-list">';
    games.forEach(function (g) {
      if (g.kind !== "stanza") return;
      var known = stanzas.filter(function (s) { return s.stanza === g.game; })[0];
      var when = g.status === "played" ? "played" : g.status === "running" ? "playing"
        : clockTime(parseTime(g.start));
      html += '<li data-status="' + esc(g.status) + '"><span>Stanza ' + g.game +
        (g.boards ? " \u00b7 " + g.boards + " boards" : "") +
        (known && known.partners_change_after && !(winner && g.status === "played")
          ? '<span class="swap">then partners change</span>' : "") +
        '</span><span class="when">' + esc(when) + "</span></li>";
    });
    return html + "</ul>";
  }

  function plannedLabel(g) {
    if (g.kind === "stanza") {
      return "Stanza " + g.game + (g.boards ? " \u00b7 " + g.boards + " boards" : "");
    }
    var m = findMatch(g.match);
    var players = (g.players || []).map(nameOf);
    var known = gameOf(g.match, g.game);
    if (known && known.white && known.black) players = [nameOf(known.white), nameOf(known.black)];
    var what = (m ? roundName(m) + " \u00b7 " : "") + "Game " + g.game +
      (g.kind === "armageddon" ? " \u00b7 Armageddon" : "") + (g.tentative ? " (if needed)" : "");
    return what + "\n" + players.join(" v ");
  }

  function scoreboardHtml() {
    var eb = view.extra_boards || {};
    var home = eb.home;
    var away = eb.away;
    var total = eb.running_total || [0, 0];
    var current = eb.current_stanza;
    var stanzas = eb.stanzas || [];
    var cur = stanzas.filter(function (s) { return s.stanza === current; })[0] ||
      stanzas[stanzas.length - 1];
    var set = cur ? cur.set : 1;
    var shown = stanzas.filter(function (s) { return s.set === set; });
    var plan = eb.plan || {};
    var perSet = (plan.stanzas || []).length || 1;
    var winner = eb.winner;
    var html = '<div class="scoreboard" data-testid="scoreboard">';
    html += '<div class="sb-total" data-testid="running-total">' +
      '<span class="team home' + (winner === home ? " won" : "") + '">' + esc(nameOf(home)) + "</span>" +
      '<span class="imps">' + total[0] + "</span><span class=\"dash\">\u2013</span>" +
      '<span class="imps">' + total[1] + "</span>" +
      '<span class="team away' + (winner === away ? " won" : "") + '">' + esc(nameOf(away)) + "</span></div>" +
      '<div class="sb-caption">IMPs' + (set > 1 ? ", set " + set : "") + ", running total</div>";
    html += '<div class="sb-meta">';
    if (winner) {
      html += '<span class="sb-winner" data-testid="extra-winner">' + esc(nameOf(winner)) +
        " win the extra boards</span>";
    } else if (cur) {
      var inSet = (cur.stanza - 1) % perSet + 1;
      html += '<span class="sb-stanza" data-testid="stanza-number">Stanza ' + cur.stanza +
        (perSet > 1 ? " (" + inSet + " of " + perSet + (set > 1 ? ", set " + set : "") + ")" : "") +
        "</span>";
      if (cur.partners_change_after) {
        html += '<span class="sb-partners" data-testid="partner-change">Partners change after this stanza</span>';
      }
    }
    html += "</div>";
    html += '<table class="sb-table"><thead><tr><th>Stanza</th><th>Board</th><th>Table 1</th>' +
      "<th>Table 2</th><th>" + esc(nameOf(home)) + "</th><th>" + esc(nameOf(away)) +
      "</th></tr></thead><tbody>";
    shown.forEach(function (s) {
      (s.boards || []).forEach(function (b, i) {
        var imps = b.imps;
        html += '<tr data-testid="stanza-board" data-stanza="' + s.stanza + '" data-board="' +
          b.board + '" class="' + (s.stanza === current && !winner ? "current" : "") +
          (i === 0 ? " first" : "") + '">' +
          "<td>" + (i === 0 ? s.stanza : "") + "</td><td>" + b.board + "</td>" +
          '<td class="num">' + score(b.table_1) + '</td><td class="num">' + score(b.table_2) + "</td>" +
          '<td class="num imp">' + (imps !== null && imps !== undefined && imps > 0 ? imps : "") +
          '</td><td class="num imp">' + (imps !== null && imps !== undefined && imps < 0 ? -imps : "") +
          "</td></tr>";
      });
      if (s.partners_change_after && s.stanza !== current) {
        html += '<tr class="partners-row"><td colspan="6">partners changed after stanza ' +
          s.stanza + "</td></tr>";
      }
    });
    html += "</tbody></table>";
    if (plan.note) html += '<div class="sb-note">' + esc(plan.note) + "</div>";
    return html + "</div>";
  }

  function score(v) {
    if (v === null || v === undefined) return '<span class="pending">\u2014</span>';
    return v > 0 ? "+" + v : String(v);
  }

  function championHtml() {
    var champ = view.champion;
    var html = '<div class="champion-panel"><div class="champion-label">Play-off winner</div>' +
      '<div class="champion" data-testid="champion">' + esc(nameOf(champ)) + "</div>";
    var rows = [];
    if (placings && Array.isArray(placings.players)) {
      rows = placings.players.filter(function (p) { return p.place !== null && p.place !== undefined; })
        .sort(function (a, b) { return a.place - b.place; });
      var n = Math.max(3, ((view.participants || []).length));
      rows = rows.slice(0, Math.min(8, n));
    }
    if (rows.length) {
      html += '<table class="placings" data-testid="placings"><thead><tr><th>Place</th><th>Player</th>' +
        "<th>Prize</th><th>Points</th></tr></thead><tbody>";
      rows.forEach(function (p) {
        html += '<tr class="' + (p.id === champ ? "first" : "") + '"><td>' + p.place + "</td><td>" +
          esc(p.name || nameOf(p.id)) + '</td><td class="num">' + money(p.money) +
          '</td><td class="num">' + (p.points === null || p.points === undefined ? "" : fmtPoints(p.points)) +
          "</td></tr>";
      });
      html += "</tbody></table>";
    }
    return html + "</div>";
  }

  function money(v) {
    if (v === null || v === undefined || v === "") return "";
    var n = Number(v);
    return isFinite(n) ? n.toLocaleString("en-GB", { maximumFractionDigits: 2 }) : esc(v);
  }

  // ------------------------------------------------------------------ every frame

  function setText(el, text) {
    if (el && el.textContent !== text) el.textContent = text;
  }

  function setAttr(el, name, value) {
    if (el && el.getAttribute(name) !== value) el.setAttribute(name, value);
  }

  function shownClock(c) {
    var runs = ds.synced && frozenAt === null && c.status === "running" && c.running !== null;
    var at = frozenAt !== null ? frozenAt : serverNow();
    var white = c.white_ms;
    var black = c.black_ms;
    if (c.running === "white") white -= Math.max(0, at - c.server_ms);
    if (c.running === "black") black -= Math.max(0, at - c.server_ms);
    return {
      match: c.match,
      game: c.game,
      white_ms: Math.max(0, Math.round(white)),
      black_ms: Math.max(0, Math.round(black)),
      running: runs ? c.running : null,
      status: c.status,
      frozen: frozenAt !== null
    };
  }

  function tick() {
    var now = serverNow();
    var shown = {};
    Object.keys(clocks).forEach(function (k) {
      var s = shownClock(clocks[k]);
      s.white_text = formatClock(s.white_ms);
      s.black_text = formatClock(s.black_ms);
      shown[k] = s;
    });
    ds.clocks = shown;
    ds.shownAt = performance.now();  // when these values were computed (and drawn)

    var els = document.querySelectorAll(".time[data-clock]");
    for (var i = 0; i < els.length; i++) {
      var el = els[i];
      var s2 = shown[el.getAttribute("data-clock")];
      if (!s2) continue;
      var side = el.getAttribute("data-side");
      var ms = s2[side + "_ms"];
      var text = s2[side + "_text"];
      var running = s2.running === side;
      setText(el, text);
      setAttr(el, "data-ms", String(ms));
      setAttr(el, "data-running", running ? "true" : "false");
      setAttr(el, "data-low", ms < TENTHS_MS ? "critical" : ms < LOW_MS ? "low" : "no");
      setAttr(el, "data-long", text.length > 5 ? "true" : "false");
      var box = el.parentNode;
      if (box) setAttr(box, "data-running", running ? "true" : "false");
      var card = el.closest ? el.closest(".game") : null;
      if (card && side === "white") {
        var st = card.querySelector('[data-role="status"]');
        var label = s2.frozen ? "clocks frozen: reconnecting"
          : s2.status === "paused" ? "paused" : s2.status === "not-started" ? "not started" : "";
        setText(st, label);
        setAttr(card, "data-status", s2.status || "");
      }
    }

    var hhmm = document.getElementById("wallclock");
    setText(hhmm, view ? clockTime(now) : "");

    if (view) tickSchedule(now);
  }

  function tickSchedule(now) {
    var next = nextPlanned(now);
    var nextEl = document.querySelector('[data-role="next"]');
    var countEl = document.querySelector('[data-role="next-count"]');
    var text = "";
    var count = "";
    if (next) {
      var start = parseTime(next.start);
      text = "Next: " + plannedLabel(next).replace("\n", " \u00b7 ");
      count = start > now
        ? clockTime(start) + " \u00b7 in " + formatCountdown(start - now)
        : "starting now";
    } else if (view.champion || (view.extra_boards && view.extra_boards.winner)) {
      text = "The play-off is over.";
    } else {
      text = "No game planned.";
    }
    setText(nextEl, text);
    setText(countEl, count);

    var cb = currentBreak(now);
    var brEl = document.querySelector('[data-role="break"]');
    if (brEl) {
      if (cb) {
        brEl.hidden = false;
        setAttr(brEl, "data-kind", cb.brk.kind || "");
        setText(document.querySelector('[data-role="break-reason"]'), cb.brk.reason || "");
        setText(document.querySelector('[data-role="break-count"]'),
          "ends in " + formatCountdown(cb.end - now));
      } else {
        brEl.hidden = true;
      }
    }

    var idle = document.querySelector(".idle");
    if (idle) {
      var label = idle.querySelector('[data-role="idle-label"]');
      var what = idle.querySelector('[data-role="idle-what"]');
      var cnt = idle.querySelector('[data-role="idle-count"]');
      var note = idle.querySelector('[data-role="idle-note"]');
      if (cb) {
        setText(label, cb.brk.kind === "main-event" ? "Break after the main event" : "Interval");
        setText(cnt, formatCountdown(cb.end - now));
        setText(note, cb.brk.reason || "");
      } else {
        setText(label, next ? "Next game" : "");
        setText(cnt, next && parseTime(next.start) > now
          ? formatCountdown(parseTime(next.start) - now) : next ? "starting now" : "");
        setText(note, next ? "planned start " + clockTime(parseTime(next.start)) : "");
      }
      setText(what, next ? plannedLabel(next) : "");
    }
  }

  function frame() {
    if (dirty) render();
    else tick();
    window.requestAnimationFrame(frame);
  }

  // A hidden tab gets no animation frames: keep the state exposed regardless.
  setInterval(function () {
    if (document.hidden) {
      if (dirty) render();
      else tick();
    }
  }, 500);

  // ------------------------------------------------------------------ start

  document.addEventListener("DOMContentLoaded", function () {
    setConnection("connecting");
    if (!playoffId || !key) {
      ds.error = !playoffId ? "No play-off in the address." : "No display key: open /display/{playoff}?key=\u2026";
      setConnection("error");
      render();
      return;
    }
    connect();
    window.requestAnimationFrame(frame);
  });
})();
