/* The board clocks on the arbiter console: per match, the key a board's tablet opens
 * (made here, in the language chosen for the tablets, shown as a link and a QR code
 * to scan), which colour sits on the
 * board's left, the board's clock as the board shows it and its connection (online,
 * last heard, battery), the penalty for an illegal move (FIDE Laws, rapid and blitz),
 * and, at the top of the console until an arbiter resumes, a board's call for the
 * arbiter.
 *
 * The view says everything (the arbiter view's `boards`, docs/protocol.md): this
 * module renders it and sends the commands the contract names; the server refuses
 * what is not allowed, in its own words.
 */

import { esc } from "../common/html.js";
import { hallTime, hallZone } from "../common/time.js";
import { language, t } from "../common/words.js";
import { eboardsHtml } from "./eboards.js";
import { mintKey } from "./hallkey.js";
import { keyLanguageHtml } from "./languages.js";
import { patch } from "./patch.js";

const S = {
  keys: new Map(),      // match -> the board key's answer: link, qr_svg (this tab only)
  keyErrors: new Map(), // match -> why its board key was not made
  minting: new Set(),   // matches whose board key is being made over HTTP
  language: null,       // the tablets' language chosen here (else the console's)
  outages: [],          // board-outage events not yet dismissed
  penalty: null,        // the penalty awaiting its confirmation: {match, game, offender, reason}
};

const OTHER = { white: "black", black: "white" };

/** A side of the board in words. */
function colour(side) {
  return side === "black" ? t("Black") : t("White");
}

/** The language the tablets open in: the one chosen here, else the console's. */
function tabletsLanguage() {
  return S.language || language();
}

function boardOf(view, match) {
  return ((view && view.boards) || []).find((b) => b.match === match) || null;
}

function battery(b) {
  if (typeof b.battery !== "number") return "";
  const percent = `${Math.round(b.battery * 100)} %`;
  return b.charging ? t("battery {percent}, charging", { percent }) : t("battery {percent}", { percent });
}

function connectionHtml(b, offset) {
  const heard = b.last_heard_ms ? t("last heard {time}", { time: hallTime(b.last_heard_ms, offset, true) })
    : t("not heard yet");
  const power = battery(b);
  return `<p class="board-conn small" data-testid="board-conn-${b.match}" data-online="${b.online ? "true" : "false"}">
      <span class="pill ${b.online ? "pill-live" : "pill-off"}">${esc(b.online ? t("online") : t("offline"))}</span>
      <span data-testid="board-heard-${b.match}">${esc(heard)}</span>
      ${power ? `<span data-testid="board-battery-${b.match}">${esc(power)}</span>` : ""}</p>`;
}

function facesHtml(b) {
  const clock = b.clock;
  if (!clock) return `<p class="muted small">${esc(t("No game on the clock."))}</p>`;
  const left = b.left || "white";
  const key = `${clock.match}:${clock.game}`;
  const face = (side, place) => `<div class="board-face ${side}${clock.running === side ? " runs" : ""}"
        data-testid="board-face-${b.match}-${place}">
      <span class="face-side">${esc(colour(side))}</span>
      <span class="face-time" data-clock="${esc(key)}" data-side="${side}">—</span></div>`;
  return `<div class="board-faces">${face(left, "left")}${face(OTHER[left], "right")}</div>`;
}

function keyHtml(match, role) {
  const made = S.keys.get(match);
  const link = made ? `${location.origin}${made.link}` : "";
  const qr = made && made.qr_svg
    ? `<img class="board-qr" data-testid="board-qr-${match}" alt="${esc(t("QR code of the board's link"))}"
           src="data:image/svg+xml;charset=utf-8,${encodeURIComponent(made.qr_svg)}">` : "";
  const shown = made ? `<p class="small">${esc(t("Open this on the board's tablet (scan the code):"))}</p>
      <input type="text" class="hall-key-link" id="board-link-${match}" data-testid="board-link-${match}" readonly value="${esc(link)}">
      ${qr}` : "";
  const button = mayMakeKeys(role)
    ? `<button type="button" class="btn" data-board-key="${match}" data-testid="board-key-${match}"${S.minting.has(match) ? " disabled" : ""}>${esc(made ? t("Make another board key") : t("Make a board key"))}</button>`
    : "";
  const refused = S.keyErrors.get(match);
  const error = refused ? `<p class="error" role="alert" data-testid="board-key-error-${match}">${esc(refused)}</p>` : "";
  return `${button}${error}${shown}`;
}

function mayMakeKeys(role) {
  return role === "chief" || role === "arbiter";
}

function sidesHtml(b) {
  const left = b.left || "white";
  return `<label class="field inline small">${esc(t("Left half of the board clock"))}
      <select data-board-sides="${b.match}" data-testid="board-left-${b.match}" id="board-left-${b.match}">
        <option value="white"${left === "white" ? " selected" : ""}>${esc(t("White"))}</option>
        <option value="black"${left === "black" ? " selected" : ""}>${esc(t("Black"))}</option>
      </select></label>`;
}

function penaltyHtml(b) {
  const clock = b.clock;
  if (!clock || clock.status === "over" || clock.status === "finished") return "";
  const armed = S.penalty && S.penalty.match === b.match ? S.penalty : null;
  const confirm = armed ? `<div class="confirm" data-testid="penalty-confirm-${b.match}">
      <p>${esc(illegalMove(armed))}</p>
      <button type="button" class="btn btn-primary" data-penalty-yes="${b.match}" data-testid="penalty-yes-${b.match}">${esc(t("Confirm the penalty"))}</button>
      <button type="button" class="btn btn-quiet" data-penalty-no="${b.match}" data-testid="penalty-no-${b.match}">${esc(t("Cancel"))}</button></div>` : "";
  return `<details class="adjust" id="penalty-details-${b.match}" data-testid="penalty-${b.match}">
      <summary class="btn btn-quiet">${esc(t("Penalty: illegal move"))}</summary>
      <form class="stack" data-penalty="${b.match}" data-game="${clock.game}">
        <label class="field small">${esc(t("Who completed the illegal move"))}
          <select name="offender" id="penalty-offender-${b.match}" data-testid="penalty-offender-${b.match}">
            <option value="white">${esc(t("White"))}</option><option value="black">${esc(t("Black"))}</option></select></label>
        <label class="field small">${esc(t("Reason (logged)"))}
          <input type="text" name="reason" id="penalty-reason-${b.match}" data-testid="penalty-reason-${b.match}" required></label>
        <button type="submit" class="btn" data-testid="penalty-submit-${b.match}">${esc(t("Give the penalty"))}</button>
      </form>${confirm}</details>`;
}

/** What the penalty armed does, said whole for each offender. */
function illegalMove(armed) {
  return armed.offender === "black"
    ? t("Black completed an illegal move: White gains the time the Laws give. Reason: {reason}", { reason: armed.reason })
    : t("White completed an illegal move: Black gains the time the Laws give. Reason: {reason}", { reason: armed.reason });
}

/** The choice of the tablets' language, for those who make board keys. */
function tabletsHtml(role) {
  if (!mayMakeKeys(role)) return "";
  return `<div class="board-language">${keyLanguageHtml(t("Language of the board tablets"), tabletsLanguage(),
    'data-board-language data-testid="board-language" id="board-language"')}</div>`;
}

/** Draw the board clocks card (#boards) and the calls for the arbiter (#board-calls). */
export function renderBoards(view, role, offset) {
  const card = document.getElementById("boards");
  if (!card) return;
  const chess = view && !view.extra_boards && Array.isArray(view.matches);
  card.hidden = !chess;
  if (!chess) {
    patch("boards", "");
    patch("board-calls", "");
    return;
  }
  const rows = view.matches.map((m) => {
    const b = boardOf(view, m.id);
    return `<div class="board" data-testid="board-${m.id}">
        <h3>${esc(m.title)}</h3>
        ${b ? connectionHtml(b, offset) + facesHtml(b) + sidesHtml(b) + penaltyHtml(b) : ""}
        ${keyHtml(m.id, role)}
      </div>`;
  }).join("");
  patch("boards", `<h2>${esc(t("Board clocks"))}</h2>${tabletsHtml(role)}${rows}${eboardsHtml(view, offset)}`);
  patch("board-calls", callsHtml(view, offset));
}

function callsHtml(view, offset) {
  const calls = ((view && view.boards) || []).filter((b) => b.called);
  const items = calls.map((b) => {
    const m = view.matches.find((x) => x.id === b.match);
    const players = m && m.panels && m.panels[0]
      ? m.panels[0].faces.map((f) => f.player).filter(Boolean).join(" – ") : "";
    const game = b.clock ? b.clock.game : (b.called.game || null);
    const resume = game ? `<button type="button" class="btn btn-primary" data-board-resume="${b.match}" data-game="${game}"
        data-testid="call-resume-${b.match}">${esc(t("Resume the clocks"))}</button>` : "";
    return `<div class="board-call" role="alert" data-testid="call-${b.match}">
        <strong>${esc(t("Arbiter called at the board: {board}", { board: m ? m.title : t("match {match}", { match: b.match }) }))}</strong>
        ${players && !(m && m.title.includes(players)) ? `<span>${esc(players)}</span>` : ""}
        <span>${esc(t("at {time}", { time: hallTime(b.called.at_ms, offset, true) }))}</span>${resume}</div>`;
  });
  for (const o of S.outages) {
    items.push(`<div class="board-call outage" role="alert" data-testid="outage-${o.match}">
        <strong>${esc(o.title)}</strong><span>${esc(o.text)}</span>
        <button type="button" class="btn btn-quiet" data-outage-dismiss="${o.id}">${esc(t("Dismiss"))}</button></div>`);
  }
  return items.join("");
}

/** A board that was off line too long: its presses were not taken; the arbiter sets the clocks. */
export function noteOutage(view, d) {
  const data = (d && d.data) || {};
  const m = view && view.matches ? view.matches.find((x) => x.id === data.match) : null;
  const held = typeof data.presses === "number" ? data.presses
    : Array.isArray(data.presses) ? data.presses.length : null;
  const since = data.since_ms ? hallTime(data.since_ms, hallZone(view), true) : null;
  S.outages.push({
    id: `${data.match}-${S.outages.length}-${Date.now()}`, match: data.match,
    title: t("Board off line too long: {board}", { board: m ? m.title : t("match {match}", { match: data.match }) }),
    text: presses(held, since),
  });
}

/** The presses a board held through its outage, said whole for what is known of them. */
function presses(count, time) {
  if (count !== null && time !== null) {
    return t("{count} press(es) held since {time} were not counted: set the clocks.", { count, time });
  }
  if (count !== null) return t("{count} press(es) held were not counted: set the clocks.", { count });
  if (time !== null) return t("Presses held since {time} were not counted: set the clocks.", { time });
  return t("Presses held were not counted: set the clocks.");
}

/** A board key made over HTTP, in the tablets' language (the websocket's command makes
 * one without a language: the tablet then reads English). */
async function mintInLanguage(match, current, rerender) {
  const { view, token } = current();
  const control = ((view && view.board_keys) || []).find((k) => k.match === match);
  if (!control || !token || S.minting.has(match)) return;
  const { method, path, body } = control.request;
  S.minting.add(match);
  S.keyErrors.delete(match);
  rerender();
  try {
    const { answer, error } = await mintKey(
      { method, path, body: { ...body, language: tabletsLanguage() } }, token);
    if (error) S.keyErrors.set(match, error);
    else S.keys.set(match, { link: answer.link, qr_svg: answer.qr_svg || null });
  } catch (err) {
    S.keyErrors.set(match, t("The server did not answer: check the network, then try again."));
  } finally {
    S.minting.delete(match);
    rerender();
  }
}

/**
 * Listen for the card's controls. `send(key, label, payload, options)` is the
 * console's own (pending, acknowledged or refused, logged in its commands);
 * `current` gives the view and the token now (a key made in a language goes over HTTP).
 */
export function listenBoards(send, rerender, current) {
  document.addEventListener("click", (e) => {
    const mint = e.target.closest("[data-board-key]");
    if (mint) {
      const match = Number(mint.dataset.boardKey);
      if (tabletsLanguage() !== "en") {
        mintInLanguage(match, current, rerender);
        return;
      }
      S.keyErrors.delete(match);
      send(`board-key-${match}`, t("Board key for match {match}", { match }), { type: "issue-board-key", match }, {
        awaitsView: false,
        answered: (d) => {
          if (d && d.link) S.keys.set(match, { link: d.link, qr_svg: d.qr_svg || null });
          rerender();
        },
      });
      return;
    }
    const resume = e.target.closest("[data-board-resume]");
    if (resume) {
      const match = Number(resume.dataset.boardResume);
      const game = Number(resume.dataset.game);
      send(`resume-${match}-${game}`, t("Resume the clocks of match {match}", { match }), { type: "resume", match, game });
      return;
    }
    const yes = e.target.closest("[data-penalty-yes]");
    if (yes && S.penalty) {
      const p = S.penalty;
      S.penalty = null;
      const label = p.offender === "black" ? t("Penalty: Black's illegal move (match {match})", { match: p.match })
        : t("Penalty: White's illegal move (match {match})", { match: p.match });
      send(`penalty-${p.match}`, label, {
        type: "penalty", match: p.match, game: p.game, offender: p.offender, kind: "illegal-move",
        reason: p.reason,
      }, { clear: [`penalty-reason-${p.match}`], closes: `penalty-details-${p.match}` });
      return;
    }
    if (e.target.closest("[data-penalty-no]")) {
      S.penalty = null;
      rerender();
      return;
    }
    const dismiss = e.target.closest("[data-outage-dismiss]");
    if (dismiss) {
      S.outages = S.outages.filter((o) => o.id !== dismiss.dataset.outageDismiss);
      rerender();
    }
  });
  document.addEventListener("change", (e) => {
    if (e.target.closest("[data-board-language]")) {
      S.language = e.target.value;
      return;
    }
    const select = e.target.closest("[data-board-sides]");
    if (!select) return;
    const match = Number(select.dataset.boardSides);
    const label = select.value === "black" ? t("Left half of board {board}: Black", { board: match })
      : t("Left half of board {board}: White", { board: match });
    send(`board-sides-${match}`, label, { type: "board-sides", match, left: select.value });
  });
  document.addEventListener("submit", (e) => {
    const form = e.target.closest("form[data-penalty]");
    if (!form) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    const reason = form.elements.reason.value.trim();
    if (!reason) return;
    S.penalty = {
      match: Number(form.dataset.penalty), game: Number(form.dataset.game),
      offender: form.elements.offender.value, reason,
    };
    rerender();
  }, true);
}
