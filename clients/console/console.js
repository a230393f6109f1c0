/* Arbiter console: /arbiter/{playoff}.
 *
 * The server decides and words everything: its arbiter view (websocket protocol v1,
 * docs/protocol.md) says what each match shows, which controls apply now with the
 * exact command each sends, or why not. This page renders that view, sends the
 * payloads it offers (over the websocket, or as a REST command when the link is
 * down), shows each command as pending until the server acknowledges it, and shows
 * the server's reason when it refuses one, in an alert that sits where no clock
 * face is and goes after a few seconds unless it asks for something (a token). A
 * press the server had counted already (another console pressed the same clock at
 * the same moment: the refusal's kind says so) is said plainly, not as a refusal.
 * Clocks count down locally between frames from what the server sent, and stop
 * while the server cannot be reached (the page then says the clocks shown may be
 * behind). A control or form action the view marks `confirm` is sent only after
 * the arbiter confirms it; the space bar presses the running clock.
 *
 * The token is typed into the page and kept in sessionStorage for this tab only;
 * it travels in the websocket hello and in Authorization headers, never in a URL.
 */

import { PlayoffConnection } from "../common/connection.js";
import { setAttr, setText } from "../common/html.js";
import { formatClock, formatCountdown, hallTime, hallZone, localNow, remainingMs } from "../common/time.js";
import {
  ControlRegistry, controlKey, controlPayload, controlState, fieldsToClear, fillLabel, formChoices,
  formPayload, refreshForm, waitText,
} from "./controls.js";
import { language, t, useLanguage } from "../common/words.js";
import { patch } from "./patch.js";
import {
  alertsHtml, changesHtml, commandsHtml, drawsHtml, nowHtml, overridesHtml, placingsHtml,
  planHtml,
} from "./render.js";
import { verifyDraw } from "./verify.js";
import { listenHallKey, renderHallKey } from "./hallkey.js";
import { listenBroadcastKey, renderBroadcastKey } from "./broadcastkey.js";
import { listenBoards, noteOutage, renderBoards } from "./boards.js";
import { listenEboards } from "./eboards.js";
import { listenPrintMenu, renderPrintMenu } from "./printmenu.js";
import { LANGUAGE_KEY, chosenLanguage } from "./languages.js";

const PLAYOFF = decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").pop() || "");
const TOKEN_KEY = `arbiter-console:token:${PLAYOFF}`;
const CLOCK_KEY = `arbiter-console:acts-as-clock:${PLAYOFF}`;
const SLOW_MS = 8000;            // a command unanswered this long says so
const RESEND_MAX_AGE_MS = 30000; // a command older than this is not sent again on reconnection
const CONFIRM_MS = 15000;        // a confirmation not given within this is withdrawn
const ALERT_MS = 8000;           // an alert that asks for nothing goes after this

const $ = (id) => document.getElementById(id);

/** Who this console is logged in as, by its key's role. */
function roleWords(role) {
  return ({ chief: t("Logged in: chief arbiter"), arbiter: t("Logged in: arbiter") })[role] || null;
}

const S = {
  token: sessionStorage.getItem(TOKEN_KEY),
  log: [],                // commands sent from this console, newest first
  pending: new Map(),     // command id -> its record, until answered
  alerts: [],
  checked: new Map(),     // commitment -> result of the check in this browser
  actsAsClock: localStorage.getItem(CLOCK_KEY) !== "off",
  registry: new ControlRegistry(),
  counter: 0,
  armed: null,            // the key of the control or form awaiting its confirmation
  armedAt: 0,
  confirming: null,       // a form's command awaiting its confirmation: its words and request
  wasLive: false,         // the link was up once: losing it now means offline
};

const conn = new PlayoffConnection({
  playoffId: PLAYOFF, token: () => S.token || "", client: "arbiter-console", view: "arbiter",
  language: () => language(),
});

// ------------------------------------------------------------------ alerts

function adviceFor(code) {
  switch (code) {
    case "conflict":
      return t("Nothing was changed. Check what the console shows now, and send the command again only if it still applies.");
    case "bad-command":
      return t("Nothing was changed. Correct the value named above and send it again.");
    case "unauthorized":
      return t("Type a valid arbiter token (or the chief arbiter's) into “Arbiter or chief arbiter token” below, then press Connect.");
    case "display-key":
      return t("A display key is read-only: use it for the hall display. Here, type an arbiter or chief arbiter token below, then press Connect.");
    case "forbidden":
    case "read-only":
      return t("This token may not do that (is it a display key, or another event's token?). Connect with an arbiter or chief arbiter token.");
    case "rate-limited":
      return t("Too many commands at once: wait a second and send it again.");
    case "unavailable":
      return t("The server cannot record anything for a moment (its database is restarting). Wait a few seconds and send the command again: it is recorded once.");
    case "network":
      return t("The server did not answer, so the command may not have arrived. Check the network and what the console shows before sending it again.");
    case "not-found":
      return t("The token is good: check the address of this page against the play-off named above.");
    case "already-pressed":
      return t("Nothing to do: the clock counted the press once.");
    default:
      return t("Check the state shown, then try again; if it persists, tell the chief arbiter.");
  }
}

function codeOfStatus(status) {
  return ({ 401: "unauthorized", 403: "forbidden", 404: "not-found", 409: "conflict",
    422: "bad-command", 429: "rate-limited", 503: "unavailable" })[status] || (status ? "error" : "network");
}

/**
 * An alert: `tone` "error" (a refusal) or "info" (nothing went wrong). One about the
 * connection asks for something (a token typed below) and stays until it is given
 * or dismissed; any other goes after `ALERT_MS`.
 */
function pushAlert(title, reason, code, key, tone = "error") {
  S.counter += 1;
  S.alerts = S.alerts.filter((a) => !(key && a.key === key));
  S.alerts.unshift({
    id: `alert-${S.counter}`, title, reason, advice: adviceFor(code), code, key, tone,
    answer: key === "connection", until: localNow() + ALERT_MS,
  });
  S.alerts = S.alerts.slice(0, 4);
  showAlerts();
}

function dropAlerts(key) {
  const before = S.alerts.length;
  S.alerts = S.alerts.filter((a) => a.key !== key);
  if (S.alerts.length !== before) showAlerts();
}

function showAlerts() {
  patch("alerts", alertsHtml(S.alerts));
  placeAlerts();
}

function expireAlerts() {
  const now = localNow();
  const kept = S.alerts.filter((a) => a.answer || a.until > now);
  if (kept.length !== S.alerts.length) {
    S.alerts = kept;
    showAlerts();
  }
}

/**
 * Alerts never cover a clock face. Beside the console (two columns), they float over
 * the schedule's column; on one column, in the tallest stretch of the window that
 * shows no clock face, at its foot. On the login form they stay under the header.
 */
function placeAlerts() {
  const box = $("alerts");
  const floating = !$("app").hidden && S.alerts.length > 0;
  box.classList.toggle("floating", floating);
  if (!floating) {
    box.removeAttribute("style");
    return;
  }
  const margin = 8;
  let top = document.querySelector(".top").getBoundingClientRect().bottom;
  const banner = $("offline");
  if (!banner.hidden) top = Math.max(top, banner.getBoundingClientRect().bottom);
  top += margin;
  const bottom = document.documentElement.clientHeight - margin;
  const plan = document.querySelector(".area-plan").getBoundingClientRect();
  const now = $("now").getBoundingClientRect();
  let band = [top, bottom];
  let column = plan;
  if (plan.right > now.left) {  // one column: keep to where no face is
    column = now;
    let free = [[top, bottom]];
    for (const face of document.querySelectorAll(".faces")) {
      const r = face.getBoundingClientRect();
      if (!r.height) continue;
      const over = r.top - margin;
      const under = r.bottom + margin;
      free = free.flatMap(([a, b]) => (under <= a || over >= b ? [[a, b]]
        : [[a, Math.min(b, over)], [Math.max(a, under), b]].filter(([x, y]) => y > x)));
    }
    band = free.reduce((best, b) => (b[1] - b[0] > best[1] - best[0] ? b : best), [top, top]);
  }
  Object.assign(box.style, {
    left: `${Math.round(column.left)}px`,
    width: `${Math.round(column.width)}px`,
    bottom: `${Math.round(document.documentElement.clientHeight - band[1])}px`,
    maxHeight: `${Math.max(0, Math.round(band[1] - band[0]))}px`,
  });
}

// ------------------------------------------------------------------ commands

/** A command of this decision is pending, or done but not yet in the view shown. */
function busy(key) {
  return S.log.some((rec) => rec.key === key && (rec.status === "pending"
    || (rec.status === "ok" && rec.awaitsView && conn.viewSeq < rec.seq)));
}

/**
 * Send a payload the view offers.
 * @param key       the decision it belongs to (controls sharing it wait together)
 * @param awaitsView false for commands that change only a clock: no new view follows them
 */
function send(key, label, payload, { awaitsView = true, clear = [], closes = null, answered = null } = {}) {
  if (busy(key)) return;
  const rec = {
    id: null, key, label, payload, status: "pending", via: "websocket", reason: null,
    sentAt: localNow(), sentServerMs: conn.serverNow(), seq: 0, awaitsView, clear, closes, answered,
  };
  S.log.unshift(rec);
  S.log = S.log.slice(0, 40);
  rec.id = conn.command(payload);
  if (rec.id !== null) {
    S.pending.set(rec.id, rec);
  } else {
    rec.via = "REST";
    rec.id = conn.newId();
    S.pending.set(rec.id, rec);
    conn.rest(payload, rec.id).then(
      (body) => succeed(rec, (body && body.seq) || 0, body),
      (err) => fail(rec, codeOfStatus(err.status), err.message, err.kind),
    );
  }
  render();
}

function succeed(rec, seq, answer = null) {
  if (rec.status !== "pending") return;
  rec.status = "ok";
  rec.seq = seq;
  if (rec.answered) rec.answered(answer);
  S.pending.delete(rec.id);
  dropAlerts(rec.key);
  for (const id of rec.clear) {
    const el = $(id);
    if (el && el.type === "checkbox") el.checked = false;
    else if (el) el.value = "";
  }
  const done = rec.closes && $(rec.closes);
  if (done) done.open = false;
  render();
}

function fail(rec, code, reason, kind = null) {
  if (rec.status !== "pending") return;
  rec.reason = reason;
  S.pending.delete(rec.id);
  if (kind === "already-pressed") {
    // Pressed from another console at the same moment: counted once, nothing is wrong.
    rec.status = "already";
    pushAlert(t("{command}: already pressed", { command: rec.label }), reason, kind, rec.key, "info");
  } else {
    rec.status = "error";
    pushAlert(t("{command}: refused", { command: rec.label }), reason, code, rec.key);
  }
  render();
}

/** Back on line: commands sent on the lost link go again with the same id (the server
 * applies an id once and answers a copy with the same ack). */
function resendPending() {
  for (const rec of S.pending.values()) {
    if (rec.via !== "websocket") continue;
    if (localNow() - rec.sentAt > RESEND_MAX_AGE_MS) {
      fail(rec, "network", t("not confirmed before the connection dropped"));
      continue;
    }
    conn.command(rec.payload, rec.id);
  }
}

// ------------------------------------------------------------------ rendering

function offset() {
  return hallZone(conn.view);
}

function ui() {
  const view = conn.view;
  return {
    registry: S.registry, busy, clocks: (view && view.clocks) || {},
    actsAsClock: S.actsAsClock, role: conn.role, armed: S.armed,
    confirming: S.confirming && S.confirming.key === S.armed ? S.confirming : null,
    statusWords: (view && view.status_words) || {}, offset: offset(), now: conn.serverNow(),
  };
}

function render() {
  const view = conn.view;
  renderHeader();
  patch("commands", commandsHtml(S.log, SLOW_MS, localNow(), offset()));
  if (!view || view.view !== "arbiter") return;
  $("app").hidden = false;
  document.title = t("Arbiter · {title}", { title: view.title });
  S.registry.clear();
  const parts = ui();
  patch("now", nowHtml(view, parts));
  renderPlan();
  const chess = !view.extra_boards;
  $("draws").hidden = !chess;
  patch("draws", chess ? drawsHtml(view.draws, S.checked) : "");
  patch("overrides", overridesHtml(view.overrides, parts));
  patch("changes", changesHtml(view.changes));
  $("placings").hidden = !view.placings;
  patch("placings", view.placings ? placingsHtml(view.placings) : "");
  renderHallKey(view, conn.role);
  renderBroadcastKey(view, conn.role);
  renderPrintMenu("print", view.printing);
  renderBoards(view, conn.role, offset());
  for (const form of document.querySelectorAll("form[data-form]")) refreshForm(form);
  tick();
}

function renderPlan() {
  const view = conn.view;
  if (!view || view.view !== "arbiter") return;
  const width = $("plan").clientWidth || 800;
  patch("plan", planHtml(view.schedule, ui(), width, conn.serverNow()));
}

function renderHeader() {
  const view = conn.view;
  if (view && view.view === "arbiter") {
    setText($("title"), view.title);
    setText($("subtitle"), view.subtitle);
  } else {
    setText($("title"), t("Arbiter console"));
  }
  const who = $("who");
  const role = S.token && conn.role ? roleWords(conn.role) : null;
  who.hidden = !role;
  setText(who, role || "");
  who.dataset.role = role ? conn.role : "";
  const n = S.pending.size;
  const count = $("pending-count");
  count.hidden = n === 0;
  setText(count, n ? t("{count} pending…", { count: n }) : "");
}

/** The clocks as they stand now, counted down locally from the server's values (frozen
 * while offline), the countdowns to the end of the rests, and the refusals that hold
 * until an instant (a disabled start's tooltip) with the time left. */
function tick() {
  const clocks = (conn.view && conn.view.clocks) || {};
  const at = conn.serverNow();
  if (S.armed && localNow() - S.armedAt > CONFIRM_MS) disarm();
  if (S.alerts.length) {
    expireAlerts();
    placeAlerts();
  }
  for (const el of document.querySelectorAll("[data-until]")) {
    const left = Number(el.dataset.until) - at;
    setText(el, left > 0 ? t("in {time}", { time: formatCountdown(left) }) : "");
  }
  for (const el of document.querySelectorAll("[data-wait-until]")) {
    const text = waitText({ until_ms: el.dataset.waitUntil, text: el.dataset.waitText }, at);
    if (el.tagName === "BUTTON") setAttr(el, "title", text);
    else setText(el, text);
  }
  for (const el of document.querySelectorAll("[data-clock]")) {
    const clock = clocks[el.dataset.clock];
    const start = el.dataset.start;
    const text = clock ? formatClock(remainingMs(clock, el.dataset.side, at))
      : start ? formatClock(Number(start)) : "—";
    setText(el, text);
  }
}

function checkDraws(view) {
  for (const draw of view.draws || []) {
    const record = draw.record || {};
    if (draw.method !== "commit-reveal" || !record.seed || S.checked.has(record.commitment)) continue;
    S.checked.set(record.commitment, "checking");
    verifyDraw(record).then(
      (outcome) => { S.checked.set(record.commitment, outcome); render(); },
      () => { S.checked.set(record.commitment, "unavailable"); render(); },
    );
  }
}

function showStatus(state) {
  const pill = $("connection");
  const shown = { live: ["live", t("live")], reconnecting: ["off", t("offline · reconnecting…")],
    refused: ["refused", t("refused")], connecting: ["connecting", t("connecting…")] }[state]
    || ["off", t("not connected")];
  pill.dataset.state = S.token ? shown[0] : "off";
  pill.className = `pill pill-${shown[0] === "live" ? "live" : shown[0] === "refused" ? "bad" : "off"}`;
  setText(pill, S.token ? shown[1] : t("not connected"));
  if (state === "live") S.wasLive = true;
  const offline = Boolean(S.token) && S.wasLive && state !== "live" && conn.frozenAt !== null;
  document.body.classList.toggle("is-offline", offline);
  const banner = $("offline");
  banner.hidden = !offline;
  setText(banner, offline
    ? t("Connection lost: clocks shown may be behind. The server has not answered since {time}; the clocks show what they showed then and run on when the link is back. A command sent meanwhile goes over HTTP if the server can be reached, and stays pending until it answers.",
      { time: hallTime(conn.frozenAt, offset(), true) })
    : "");
}

// ------------------------------------------------------------------ the connection

conn.on("view", (view) => {
  checkDraws(view);
  render();
});

conn.on("clock", () => render());

conn.on("status", (state) => {
  if (conn.role === "display" && S.token) {
    forget();
    pushAlert(t("This is a display key, not an arbiter token"),
      t("A display key only shows the hall display: it cannot run the arbiter console."),
      "display-key", "connection");
    return;
  }
  showStatus(state);
  if (!S.token) return;  // signed out meanwhile: what the closed link says does not matter
  if (state === "live") {
    dropAlerts("connection");
    resendPending();
  }
  render();
});

conn.on("ack", (id, d, seq) => {
  const rec = S.pending.get(id);
  if (!rec) return;
  const seqs = d && Array.isArray(d.seqs) && d.seqs.length ? d.seqs : [seq || 0];
  succeed(rec, Math.max(...seqs), d);
});

conn.on("event", (d) => {
  if (d && d.type === "board-outage") {
    noteOutage(conn.view, d);
    render();
  }
});

conn.on("error", (id, d) => {
  const rec = id ? S.pending.get(id) : null;
  if (rec) fail(rec, d.code || "error", d.reason || t("refused"), d.kind || null);
  else if (d.code !== "forbidden") pushAlert(t("The server refused a message"), d.reason || "", d.code || "error", "frame");
});

conn.on("refused", (code, reason) => {
  if (code === 4401) {
    forget();
    pushAlert(t("Token refused"), reason, "unauthorized", "connection");
  } else if (code === 4429) {
    forget();
    pushAlert(t("Too many wrong tokens from this network"), reason, "rate-limited", "connection");
  } else {
    pushAlert(t("Not this token's play-off"), reason, "not-found", "connection");
  }
});

// ------------------------------------------------------------------ input

function disarm() {
  if (S.armed === null) return;
  S.armed = null;
  S.confirming = null;
  render();
}

/** A control's command, sent at once, or, for one the view asks to confirm, once confirmed. */
function onControl(el, confirmed = false) {
  const key = el.dataset.control || el.dataset.confirm;
  const found = S.registry.get(key);
  if (!found || found.kind !== "control") return;
  const control = found.item;
  const clocks = (conn.view && conn.view.clocks) || {};
  if (!controlState(control, clocks).enabled) return;
  if (control.confirm && !confirmed) {
    S.armed = controlKey(control);
    S.armedAt = localNow();
    render();
    const yes = document.querySelector(`[data-confirm="${CSS.escape(S.armed)}"]`);
    if (yes) yes.focus();
    return;
  }
  S.armed = null;
  S.confirming = null;
  const payload = controlPayload(control, clocks);
  send(control.id, fillLabel(control.summary, payload), payload, { awaitsView: !control.clock });
}

/** The space bar presses the clock of the side to move, when exactly one may be pressed. */
function onSpace(e) {
  if (e.code !== "Space" && e.key !== " ") return;
  const focus = document.activeElement;
  if (focus && focus.closest("input, select, textarea, [contenteditable], summary")) return;
  if (!S.actsAsClock || !conn.view || conn.view.over) return;
  const presses = [...document.querySelectorAll("[data-press]")].filter((b) => !b.disabled);
  if (!presses.length) return;
  e.preventDefault();
  if (e.repeat) return;
  if (presses.length > 1) {
    pushAlert(t("Space bar: several clocks run"), t("Tap the clock to press: the space bar presses only while one clock runs."),
      "keyboard", "keyboard");
    return;
  }
  onControl(presses[0]);
}

/** A form's command, sent at once, or, for an action the view asks to confirm, once
 * confirmed: the confirmation quotes what was chosen, and sends what it quotes. */
function onSubmit(formEl, submitter) {
  const found = S.registry.get(formEl.dataset.form);
  if (!found || found.kind !== "form" || !found.item.enabled) return;
  const form = found.item;
  const { action, payload } = formPayload(form, formEl, submitter && submitter.dataset.action);
  const folded = formEl.closest("details.correct");
  const request = {
    key: form.id, label: fillLabel(action.summary, payload), payload,
    options: { awaitsView: !form.clock, clear: fieldsToClear(form), closes: folded ? folded.id : null },
  };
  if (action.confirm) {
    S.armed = formEl.dataset.form;
    S.armedAt = localNow();
    S.confirming = {
      key: S.armed, label: action.label, text: fillLabel(action.confirm, formChoices(form, formEl)),
      request,
    };
    render();
    const yes = document.querySelector(`[data-confirm="${CSS.escape(S.armed)}"]`);
    if (yes) yes.focus();
    return;
  }
  send(request.key, request.label, request.payload, request.options);
}

function onConfirmForm() {
  const request = S.confirming.request;
  S.armed = null;
  S.confirming = null;
  send(request.key, request.label, request.payload, request.options);
}

/** A proposal fills its form in: the arbiter adds the reason and sends it. */
function onFill() {
  const view = conn.view;
  const fill = view && view.schedule.proposal && view.schedule.proposal.fill;
  if (!fill) return;
  const details = document.querySelector(`details[data-testid="${CSS.escape(fill.form)}"]`);
  if (!details) return;
  details.open = true;
  const form = details.querySelector("form");
  for (const [name, value] of Object.entries(fill.values)) {
    const input = form.elements[name];
    if (input) input.value = value;
  }
  const empty = [...form.querySelectorAll("input[required]")].find((input) => !input.value);
  if (empty) empty.focus();
}

document.addEventListener("pointerdown", (e) => {
  const el = e.target.closest("[data-press]");
  if (!el || el.disabled) return;
  e.preventDefault();  // a clock press acts on touch-down, not on release
  onControl(el);
});

document.addEventListener("click", (e) => {
  const press = e.target.closest("[data-press]");
  if (press) {
    if (e.detail === 0 && !press.disabled) onControl(press);  // keyboard activation
    return;
  }
  const yes = e.target.closest("[data-confirm]");
  if (yes) {
    if (S.confirming && S.confirming.key === yes.dataset.confirm) onConfirmForm();
    else onControl(yes, true);
    return;
  }
  if (e.target.closest("[data-cancel]")) {
    disarm();
    return;
  }
  const dismiss = e.target.closest("[data-dismiss]");
  if (dismiss) {
    S.alerts = S.alerts.filter((a) => a.id !== dismiss.dataset.dismiss);
    showAlerts();
    return;
  }
  if (e.target.closest("[data-fill]")) {
    onFill();
    return;
  }
  const el = e.target.closest("[data-control]");
  if (el && !el.disabled) onControl(el);
});

document.addEventListener("change", (e) => {
  if (e.target.id === "acts-as-clock") {
    S.actsAsClock = e.target.checked;
    localStorage.setItem(CLOCK_KEY, S.actsAsClock ? "on" : "off");
    render();
    return;
  }
  const form = e.target.closest("form[data-form]");
  if (!form) return;
  refreshForm(form);
  // A confirmation quotes what was chosen: another choice withdraws it.
  if (S.confirming && S.confirming.key === form.dataset.form) disarm();
});

document.addEventListener("keydown", onSpace);

document.addEventListener("submit", (e) => {
  const form = e.target;
  e.preventDefault();
  if (form.id === "token-form") {
    const token = $("token-input").value.trim();
    if (!token) return;
    $("token-input").value = "";
    sessionStorage.setItem(TOKEN_KEY, token);
    S.token = token;
    dropAlerts("connection");
    start();
    return;
  }
  if (form.dataset.form) onSubmit(form, e.submitter);
});

// ------------------------------------------------------------------ language

let languages = null;  // the languages the service speaks, once told
let asking = null;     // the question, once asked

/** The switch: the languages the service speaks (only the one spoken, until they are
 * asked for), the one spoken chosen. */
function showLanguages() {
  const spoken = language();
  const listed = languages || [{ code: spoken, name: spoken === "en" ? "English" : spoken }];
  $("language").replaceChildren(...listed.map(
    ({ code, name }) => new Option(name, code, code === spoken, code === spoken)));
}

/** Ask the service which languages it speaks, once: when the arbiter reaches for the
 * switch, so that a console left in the browser's language reads nothing but its view. */
function loadLanguages() {
  if (asking) return;
  asking = fetch("/api/languages")
    .then((res) => (res.ok ? res.json() : Promise.reject(new Error(String(res.status)))))
    .then((data) => { languages = data.languages; showLanguages(); })
    .catch(() => { asking = null; });  // asked again when the switch is reached for again
}

/** Speak `code` at once, here and on every console opened in this browser: the page's
 * own words now, the view's once the server has worded it again for a new hello. */
async function switchLanguage(code) {
  localStorage.setItem(LANGUAGE_KEY, code);
  await useLanguage(code);
  showLanguages();
  showStatus(conn.state);
  showAlerts();
  render();
  if (S.token) {
    conn.close();
    start();
  }
}

// ------------------------------------------------------------------ start

function showLogin() {
  $("login").hidden = false;
  $("app").hidden = true;
  $("sign-out").hidden = true;
  $("token-input").focus();
}

/** Forget the token: this tab asks for one again. */
function forget() {
  sessionStorage.removeItem(TOKEN_KEY);
  S.token = null;
  conn.close();
  conn.role = null;
  renderHeader();
  showStatus("off");
  showLogin();
}

function start() {
  S.wasLive = false;
  $("login").hidden = true;
  $("sign-out").hidden = false;
  showStatus("connecting");
  conn.connect();
}

$("sign-out").addEventListener("click", forget);
listenHallKey(() => ({ view: conn.view, token: S.token }), () => renderHallKey(conn.view, conn.role));
listenBroadcastKey(() => ({ view: conn.view, token: S.token, playoffId: PLAYOFF }),
  () => renderBroadcastKey(conn.view, conn.role));
listenPrintMenu(() => ({ menu: conn.view && conn.view.printing, token: S.token }),
  () => renderPrintMenu("print", conn.view && conn.view.printing));
listenBoards(send, render, () => ({ view: conn.view, token: S.token }));
listenEboards(send);
window.addEventListener("resize", renderPlan);
window.addEventListener("resize", placeAlerts);
window.addEventListener("scroll", placeAlerts, { passive: true });
setInterval(tick, 100);
setInterval(() => {
  if (S.log.some((r) => r.status === "pending" && localNow() - r.sentAt > SLOW_MS)) {
    patch("commands", commandsHtml(S.log, SLOW_MS, localNow(), offset()));
  }
  renderPlan();  // the "now" line moves with the time
}, 1000);

const switcher = $("language");
switcher.addEventListener("focus", loadLanguages);
switcher.addEventListener("pointerenter", loadLanguages);
switcher.addEventListener("change", () => switchLanguage(switcher.value));

useLanguage(chosenLanguage()).then(() => {
  showLanguages();
  if (language() !== "en") loadLanguages();  // words were fetched already: the list too
  renderHeader();
  showStatus(conn.state);
  if (S.token) start();
  else showLogin();
});
