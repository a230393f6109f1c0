/* The board clocks on the arbiter console: per match, the key a board's tablet opens
 * (made here, shown as a link and a QR code to scan), which colour sits on the
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
import { eboardsHtml } from "./eboards.js";
import { patch } from "./patch.js";

const S = {
  keys: new Map(),      // match -> the board key's answer: link, qr_svg (this tab only)
  outages: [],          // board-outage events not yet dismissed
  penalty: null,        // the penalty awaiting its confirmation: {match, game, offender, reason}
};

const COLOUR = { white: "White", black: "Black" };
const OTHER = { white: "black", black: "white" };

function boardOf(view, match) {
  return ((view && view.boards) || []).find((b) => b.match === match) || null;
}

function battery(b) {
  if (typeof b.battery !== "number") return "";
  const pct = `${Math.round(b.battery * 100)} %`;
  return b.charging ? `battery ${pct}, charging` : `battery ${pct}`;
}

function connectionHtml(b, offset) {
  const heard = b.last_heard_ms ? `last heard ${hallTime(b.last_heard_ms, offset, true)}` : "not heard yet";
  const power = battery(b);
  return `<p class="board-conn small" data-testid="board-conn-${b.match}" data-online="${b.online ? "true" : "false"}">
      <span class="pill ${b.online ? "pill-live" : "pill-off"}">${b.online ? "online" : "offline"}</span>
      <span data-testid="board-heard-${b.match}">${esc(heard)}</span>
      ${power ? `<span data-testid="board-battery-${b.match}">${esc(power)}</span>` : ""}</p>`;
}

function facesHtml(b) {
  const clock = b.clock;
  if (!clock) return `<p class="muted small">No game on the clock.</p>`;
  const left = b.left || "white";
  const key = `${clock.match}:${clock.game}`;
  const face = (side, place) => `<div class="board-face ${side}${clock.running === side ? " runs" : ""}"
        data-testid="board-face-${b.match}-${place}">
      <span class="face-side">${COLOUR[side]}</span>
      <span class="face-time" data-clock="${esc(key)}" data-side="${side}">—</span></div>`;
  return `<div class="board-faces">${face(left, "left")}${face(OTHER[left], "right")}</div>`;
}

function keyHtml(match, role) {
  const made = S.keys.get(match);
  const link = made ? `${location.origin}${made.link}` : "";
  const qr = made && made.qr_svg
    ? `<img class="board-qr" data-testid="board-qr-${match}" alt="QR code of the board's link"
           src="data:image/svg+xml;charset=utf-8,${encodeURIComponent(made.qr_svg)}">` : "";
  const shown = made ? `<p class="small">Open this on the board's tablet (scan the code):</p>
      <input type="text" class="hall-key-link" id="board-link-${match}" data-testid="board-link-${match}" readonly value="${esc(link)}">
      ${qr}` : "";
  const button = role === "chief" || role === "arbiter"
    ? `<button type="button" class="btn" data-board-key="${match}" data-testid="board-key-${match}">${made ? "Make another board key" : "Make a board key"}</button>`
    : "";
  return `${button}${shown}`;
}

function sidesHtml(b) {
  const left = b.left || "white";
  return `<label class="field inline small">Left half of the board clock
      <select data-board-sides="${b.match}" data-testid="board-left-${b.match}" id="board-left-${b.match}">
        <option value="white"${left === "white" ? " selected" : ""}>White</option>
        <option value="black"${left === "black" ? " selected" : ""}>Black</option>
      </select></label>`;
}

function penaltyHtml(b) {
  const clock = b.clock;
  if (!clock || clock.status === "over" || clock.status === "finished") return "";
  const armed = S.penalty && S.penalty.match === b.match ? S.penalty : null;
  const confirm = armed ? `<div class="confirm" data-testid="penalty-confirm-${b.match}">
      <p>${esc(COLOUR[armed.offender])} completed an illegal move: ${esc(COLOUR[OTHER[armed.offender]])}
        gains the time the Laws give. Reason: ${esc(armed.reason)}</p>
      <button type="button" class="btn btn-primary" data-penalty-yes="${b.match}" data-testid="penalty-yes-${b.match}">Confirm the penalty</button>
      <button type="button" class="btn btn-quiet" data-penalty-no="${b.match}" data-testid="penalty-no-${b.match}">Cancel</button></div>` : "";
  return `<details class="adjust" id="penalty-details-${b.match}" data-testid="penalty-${b.match}">
      <summary class="btn btn-quiet">Penalty: illegal move</summary>
      <form class="stack" data-penalty="${b.match}" data-game="${clock.game}">
        <label class="field small">Who completed the illegal move
          <select name="offender" id="penalty-offender-${b.match}" data-testid="penalty-offender-${b.match}">
            <option value="white">White</option><option value="black">Black</option></select></label>
        <label class="field small">Reason (logged)
          <input type="text" name="reason" id="penalty-reason-${b.match}" data-testid="penalty-reason-${b.match}" required></label>
        <button type="submit" class="btn" data-testid="penalty-submit-${b.match}">Give the penalty</button>
      </form>${confirm}</details>`;
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
  patch("boards", `<h2>Board clocks</h2>${rows}${eboardsHtml(view, offset)}`);
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
        data-testid="call-resume-${b.match}">Resume the clocks</button>` : "";
    return `<div class="board-call" role="alert" data-testid="call-${b.match}">
        <strong>Arbiter called at the board: ${esc(m ? m.title : `match ${b.match}`)}</strong>
        ${players && !(m && m.title.includes(players)) ? `<span>${esc(players)}</span>` : ""}
        <span>at ${esc(hallTime(b.called.at_ms, offset, true))}</span>${resume}</div>`;
  });
  for (const o of S.outages) {
    items.push(`<div class="board-call outage" role="alert" data-testid="outage-${o.match}">
        <strong>${esc(o.title)}</strong><span>${esc(o.text)}</span>
        <button type="button" class="btn btn-quiet" data-outage-dismiss="${o.id}">Dismiss</button></div>`);
  }
  return items.join("");
}

/** A board that was off line too long: its presses were not taken; the arbiter sets the clocks. */
export function noteOutage(view, d) {
  const data = (d && d.data) || {};
  const m = view && view.matches ? view.matches.find((x) => x.id === data.match) : null;
  const held = typeof data.presses === "number" ? data.presses
    : Array.isArray(data.presses) ? data.presses.length : null;
  const since = data.since_ms ? ` since ${hallTime(data.since_ms, hallZone(view), true)}` : "";
  S.outages.push({
    id: `${data.match}-${S.outages.length}-${Date.now()}`, match: data.match,
    title: `Board off line too long: ${m ? m.title : `match ${data.match}`}`,
    text: `${held !== null ? `${held} press(es) held` : "Presses held"}${since} were not counted: set the clocks.`,
  });
}

/**
 * Listen for the card's controls. `send(key, label, payload, options)` is the
 * console's own (pending, acknowledged or refused, logged in its commands).
 */
export function listenBoards(send, rerender) {
  document.addEventListener("click", (e) => {
    const mint = e.target.closest("[data-board-key]");
    if (mint) {
      const match = Number(mint.dataset.boardKey);
      send(`board-key-${match}`, `Board key for match ${match}`, { type: "issue-board-key", match }, {
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
      send(`resume-${match}-${game}`, `Resume the clocks of match ${match}`, { type: "resume", match, game });
      return;
    }
    const yes = e.target.closest("[data-penalty-yes]");
    if (yes && S.penalty) {
      const p = S.penalty;
      S.penalty = null;
      send(`penalty-${p.match}`, `Penalty: ${COLOUR[p.offender]}'s illegal move (match ${p.match})`, {
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
    const select = e.target.closest("[data-board-sides]");
    if (!select) return;
    const match = Number(select.dataset.boardSides);
    send(`board-sides-${match}`, `Left half of board ${match}: ${COLOUR[select.value]}`,
      { type: "board-sides", match, left: select.value });
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
