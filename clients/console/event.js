/* Arbiter console of a main event before its play-off: /arbiter/events/{event}.
 *
 * The play-off watch: while the last games are played, the server's event view
 * (GET /api/events/{id}/view, docs/protocol.md) lists the pending games with the
 * exact request each result sends, and words the foresight: the outcomes that
 * need a play-off for first, how likely under the named model, who can be first
 * alone or in the play-off, and the conditions. This page renders that view and
 * sends the requests it offers, each result after a confirmation; it computes
 * nothing. It asks for the view again as soon as the event changes (the server
 * holds the request until then), so a result recorded anywhere shows here.
 *
 * The token is typed into the page and kept in sessionStorage for this tab only;
 * it travels in Authorization headers, never in a URL.
 *
 * It speaks the language of the arbiter console in this browser (the one chosen on
 * it, else the browser's): its own words, and the view the server words in it.
 */

import { esc, setText } from "../common/html.js";
import { language, t, useLanguage } from "../common/words.js";
import { chosenLanguage } from "./languages.js";
import { patch } from "./patch.js";
import { listenPrintMenu, renderPrintMenu } from "./printmenu.js";

const EVENT = decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").pop() || "");
const TOKEN_KEY = `arbiter-console:event-token:${EVENT}`;
const MODEL_KEY = `arbiter-console:event-model:${EVENT}`;
const WAIT_S = 20;

const $ = (id) => document.getElementById(id);

/** Who this console is logged in as, by its key's role. */
function roleWords(role) {
  return ({ chief: t("Logged in: chief arbiter"), arbiter: t("Logged in: arbiter") })[role] || null;
}

const S = {
  token: sessionStorage.getItem(TOKEN_KEY),
  timeControl: sessionStorage.getItem(MODEL_KEY) || "classical",
  view: null,
  role: null,
  armed: null,          // the result control awaiting its confirmation
  sending: new Set(),   // keys of requests sent and not yet answered
  alerts: [],
  counter: 0,
  generation: 0,        // a new connection ends the previous polling loop
  state: "connecting",
};

// ------------------------------------------------------------------ requests

function headers(extra = {}) {
  return { Authorization: `Bearer ${S.token}`, ...extra };
}

function reasonOf(body, status) {
  const detail = body && body.detail;
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail) && detail.length) {
    return detail.map((p) => `${(p.loc || []).join(".")}: ${p.msg}`).join("; ");
  }
  return t("the server answered {status}", { status });
}

async function call(method, path, body, key) {
  const response = await fetch(path, {
    method,
    headers: headers(body === undefined ? {} : {
      "Content-Type": "application/json", "Idempotency-Key": key,
    }),
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
  });
  let answer = null;
  try { answer = await response.json(); } catch (err) { answer = null; }
  if (!response.ok) {
    const error = new Error(reasonOf(answer, response.status));
    error.status = response.status;
    throw error;
  }
  return answer;
}

async function poll(generation) {
  let failures = 0;
  while (generation === S.generation && S.token) {
    const after = S.view ? S.view.seq : -1;
    const wait = S.view ? WAIT_S : 0;
    try {
      // The view in the console's language (English goes without saying).
      const lang = language() === "en" ? "" : `&lang=${encodeURIComponent(language())}`;
      const model = `time_control=${encodeURIComponent(S.timeControl)}${lang}`;
      const view = await call(
        "GET", `/api/events/${encodeURIComponent(EVENT)}/view?after=${after}&wait=${wait}&${model}`);
      if (generation !== S.generation) return;
      failures = 0;
      S.view = view;
      S.role = view.role;
      showStatus("live");
      render();
    } catch (err) {
      if (generation !== S.generation) return;
      if (err.status === 401 || err.status === 403) {
        const display = err.status === 403;
        forget();
        pushAlert(display ? t("This token cannot open the console") : t("Token refused"), err.message,
          display ? t("A display key only shows the hall display: type an arbiter or chief arbiter token.")
            : t("Type a valid arbiter token (or the chief arbiter's) below, then press Connect."));
        return;
      }
      if (err.status === 404) {
        showStatus("refused");
        pushAlert(t("Not this token's event"), err.message,
          t("The token is good: check the address of this page against the event named above."));
        return;
      }
      failures += 1;
      showStatus("reconnecting");
      await new Promise((done) => setTimeout(done, Math.min(5000, 500 * 2 ** failures)));
    }
  }
}

async function send(key, label, request) {
  if (S.sending.has(key)) return;
  S.sending.add(key);
  render();
  S.counter += 1;
  const idempotency = `event-console-${Date.now().toString(36)}-${S.counter}`;
  try {
    await call(request.method, request.path, request.body, idempotency);
    dropAlerts();
  } catch (err) {
    pushAlert(t("{command}: refused", { command: label }), err.message,
      err.status ? t("Nothing was changed. Check what the console shows now.")
        : t("The server did not answer: check the network and what the console shows before sending it again."));
  } finally {
    S.sending.delete(key);
    render();
  }
}

// ------------------------------------------------------------------ alerts

function pushAlert(title, reason, advice) {
  S.counter += 1;
  S.alerts.unshift({ id: `alert-${S.counter}`, title, reason, advice });
  S.alerts = S.alerts.slice(0, 3);
  renderAlerts();
}

function dropAlerts() {
  S.alerts = [];
  renderAlerts();
}

function renderAlerts() {
  patch("alerts", S.alerts.map((a) => `
      <div class="alert" role="alert" data-testid="alert-error">
        <div class="alert-text">
          <strong>${esc(a.title)}</strong>
          <p class="alert-reason" data-testid="alert-reason">${esc(a.reason)}</p>
          <p class="alert-advice">${esc(a.advice)}</p>
        </div>
        <button type="button" class="btn btn-quiet" data-dismiss="${esc(a.id)}">${esc(t("Dismiss"))}</button>
      </div>`).join(""));
}

// ------------------------------------------------------------------ rendering

function pendingHtml(view) {
  if (!view.pending.length) {
    return `<h2>${esc(t("Pending games"))}</h2><p data-testid="no-pending">${esc(t("Every game has its result."))}</p>`;
  }
  const games = view.pending.map((game, i) => {
    const buttons = game.results.map((control, j) => {
      const key = `${i}:${j}`;
      const busy = S.sending.has(`result:${game.label}`);
      return `<button type="button" class="btn" data-result="${key}"
        data-testid="result-${esc(control.label)}" ${busy ? "disabled" : ""}>${esc(control.label)}</button>`;
    }).join("");
    const armed = S.armed && S.armed.label === game.label ? S.armed.control : null;
    const confirm = armed ? `
        <div class="confirm-box" data-testid="confirm">
          <p>${esc(armed.confirm)}</p>
          <div class="row">
            <button type="button" class="btn btn-primary" data-confirm="yes" data-testid="confirm-yes">${esc(t("Record it"))}</button>
            <button type="button" class="btn btn-quiet" data-confirm="no" data-testid="confirm-no">${esc(t("Cancel"))}</button>
          </div>
        </div>` : "";
    return `
      <div class="game" data-testid="pending-game">
        <div class="game-label" data-testid="pending-label">${esc(game.label)}</div>
        <div class="row">${buttons}</div>${confirm}
      </div>`;
  }).join("");
  return `<h2>${esc(t("Pending games"))}</h2>${games}`;
}

function watchHtml(view) {
  const watch = view.watch;
  if (!watch) {
    return `<h2>${esc(t("Play-off watch"))}</h2><p class="bad" data-testid="watch-error">${esc(view.watch_error || "")}</p>`;
  }
  const rows = watch.players.map((p) => `
      <tr data-testid="watch-player">
        <td>${esc(p.name)}</td>
        <td data-testid="first-alone">${esc(p.first_alone_text)}</td>
        <td data-testid="in-playoff">${esc(p.in_playoff_text)}</td>
      </tr>`).join("");
  const conditions = watch.conditions.map((c) => `<li>${esc(c)}</li>`).join("");
  const options = watch.choices.map((c) => `
      <option value="${esc(c.value)}" ${c.value === watch.time_control ? "selected" : ""}>${esc(c.label)}</option>`).join("");
  return `
    <h2>${esc(t("Play-off watch"))}</h2>
    <p class="headline" data-testid="headline">${esc(watch.headline)}</p>
    <div class="chance">
      <span class="chance-figure" data-testid="probability">${esc(watch.probability_text)}</span>
      <span class="model" data-testid="model">${esc(t("likely, under the {model}", { model: watch.model }))}</span>
    </div>
    ${watch.note ? `<p class="note" data-testid="note">${esc(watch.note)}</p>` : ""}
    ${rows ? `<table class="players" data-testid="players">
      <thead><tr><th>${esc(t("Player"))}</th><th>${esc(t("First alone"))}</th><th>${esc(t("In the play-off for first"))}</th></tr></thead>
      <tbody>${rows}</tbody></table>
      <p class="model">${esc(t("Counts over the {count} outcomes; percentages under the model above.",
    { count: watch.outcomes.toLocaleString(language()) }))}</p>` : ""}
    <h3>${esc(t("When a play-off is needed"))}</h3>
    <ul class="conditions" data-testid="conditions">${conditions}</ul>
    <label class="field">
      <span>${esc(t("Model: the draw rate of the event's time control"))}</span>
      <select id="time-control" data-testid="time-control">${options}</select>
    </label>`;
}

function nextHtml(view) {
  const links = view.playoffs.map((p) => `
      <p><a class="btn btn-primary" href="${esc(p.url)}" data-testid="playoff-link">${esc(t("Open the play-off console"))}</a></p>`).join("");
  let build = "";
  if (view.build) {
    const armed = S.armed && S.armed.label === "build";
    build = armed ? `
      <div class="confirm-box" data-testid="confirm">
        <p>${esc(view.build.confirm)}</p>
        <div class="row">
          <button type="button" class="btn btn-primary" data-confirm="yes" data-testid="confirm-yes">${esc(t("Build it"))}</button>
          <button type="button" class="btn btn-quiet" data-confirm="no" data-testid="confirm-no">${esc(t("Cancel"))}</button>
        </div>
      </div>` : `
      <button type="button" class="btn btn-primary" data-build="1" data-testid="build"
        ${S.sending.has("result:build") ? "disabled" : ""}>${esc(view.build.label)}</button>`;
  }
  return `<h2>${esc(t("Next"))}</h2><p data-testid="next-step">${esc(view.next_step)}</p>${build}${links}`;
}

function hallHtml(view) {
  const hall = view.hall;
  const busy = S.sending.has("hall");
  const control = hall.request ? `
      <button type="button" class="btn" data-hall="1" data-testid="hall-switch" ${busy ? "disabled" : ""}>
        ${esc(hall.on ? t("Hide it in the hall") : t("Show it in the hall"))}</button>`
    : `<p class="muted" data-testid="hall-refusal">${esc(hall.refusal || "")}</p>`;
  return `<h2>${esc(t("Hall display"))}</h2><p data-testid="hall-state">${esc(hall.words)}</p>${control}`;
}

function render() {
  renderHeader();
  const view = S.view;
  if (!view || view.view !== "event") return;
  // A confirmation outlives its game only until the view says the game is no longer pending.
  const armable = view.pending.some((g) => g.label === S.armed?.label)
    || (S.armed?.label === "build" && view.build);
  if (S.armed && !armable) S.armed = null;
  $("app").hidden = false;
  document.title = t("Arbiter · {title}", { title: view.title });
  patch("pending", pendingHtml(view));
  patch("watch", watchHtml(view));
  patch("next", nextHtml(view));
  patch("hall", hallHtml(view));
  renderPrintMenu("print", view.printing);
}

function renderHeader() {
  const view = S.view;
  if (view) {
    setText($("title"), view.title);
    setText($("subtitle"), t("{subtitle} · play-off watch", { subtitle: view.subtitle }));
  }
  const who = $("who");
  const role = S.token && S.view ? roleWords(S.role) : null;
  who.hidden = !role;
  setText(who, role || "");
  const n = S.sending.size;
  const count = $("pending-count");
  count.hidden = n === 0;
  setText(count, n ? t("{count} sending…", { count: n }) : "");
}

function showStatus(state) {
  S.state = state;
  const pill = $("connection");
  const shown = { live: ["live", t("live")], reconnecting: ["off", t("offline · reconnecting…")],
    refused: ["bad", t("refused")], connecting: ["off", t("connecting…")] }[state] || ["off", t("not connected")];
  pill.dataset.state = S.token ? state : "off";
  pill.className = `pill pill-${shown[0]}`;
  setText(pill, S.token ? shown[1] : t("not connected"));
}

// ------------------------------------------------------------------ input

document.addEventListener("click", (e) => {
  const view = S.view;
  const dismiss = e.target.closest("[data-dismiss]");
  if (dismiss) {
    S.alerts = S.alerts.filter((a) => a.id !== dismiss.dataset.dismiss);
    renderAlerts();
    return;
  }
  if (!view) return;
  const result = e.target.closest("[data-result]");
  if (result && !result.disabled) {
    const [i, j] = result.dataset.result.split(":").map(Number);
    const game = view.pending[i];
    // The request itself is kept: a new view may reorder the games before the confirmation.
    if (game && game.results[j]) S.armed = { label: game.label, control: game.results[j] };
    render();
    const yes = document.querySelector("[data-confirm=yes]");
    if (yes) yes.focus();
    return;
  }
  const build = e.target.closest("[data-build]");
  if (build && !build.disabled && view.build) {
    S.armed = { label: "build", control: view.build };
    render();
    return;
  }
  const confirm = e.target.closest("[data-confirm]");
  if (confirm) {
    const armed = S.armed;
    S.armed = null;
    if (confirm.dataset.confirm === "yes" && armed) {
      send(`result:${armed.label}`, t("{result} in {game}", { result: armed.control.label, game: armed.label }),
        armed.control.request);
    }
    render();
    return;
  }
  const hall = e.target.closest("[data-hall]");
  if (hall && !hall.disabled && view.hall.request) {
    send("hall", t("The hall display switch"), view.hall.request);
  }
});

document.addEventListener("change", (e) => {
  if (e.target.id !== "time-control") return;
  S.timeControl = e.target.value;
  sessionStorage.setItem(MODEL_KEY, S.timeControl);
  // The watch under the other model at once: a new request, not the one waiting.
  S.view = null;
  S.generation += 1;
  poll(S.generation);
});

document.addEventListener("submit", (e) => {
  e.preventDefault();
  if (e.target.id !== "token-form") return;
  const token = $("token-input").value.trim();
  if (!token) return;
  $("token-input").value = "";
  sessionStorage.setItem(TOKEN_KEY, token);
  S.token = token;
  dropAlerts();
  start();
});

// ------------------------------------------------------------------ start

function showLogin() {
  $("login").hidden = false;
  $("app").hidden = true;
  $("sign-out").hidden = true;
  $("token-input").focus();
}

function forget() {
  sessionStorage.removeItem(TOKEN_KEY);
  S.token = null;
  S.view = null;
  S.generation += 1;
  showStatus("off");
  renderHeader();
  showLogin();
}

function start() {
  $("login").hidden = true;
  $("sign-out").hidden = false;
  showStatus("connecting");
  S.generation += 1;
  poll(S.generation);
}

$("sign-out").addEventListener("click", forget);
listenPrintMenu(() => ({ menu: S.view && S.view.printing, token: S.token }),
  () => renderPrintMenu("print", S.view && S.view.printing));

useLanguage(chosenLanguage()).then(() => {
  // The header's words that the page writes until a view names the event.
  setText($("title"), t("Arbiter console"));
  setText($("connection"), t("not connected"));
  if (S.token) start();
  else showLogin();
});
