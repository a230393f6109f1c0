/* The hall view as HTML. Everything shown comes from the view as the server
 * worded it; this module only lays it out. Clocks and countdowns are drawn by
 * tick.js into the elements made here (data-clock, data-until). */

import { clockTime } from "../common/time.js";
import { esc, setAttr, setText } from "../common/html.js";

const byId = (id) => document.getElementById(id);

/** Replace a region's HTML only when it changed (a view resent as time passes
 * usually changes nothing). */
function fill(el, html) {
  if (el && el.dataset.html !== html) {
    el.innerHTML = html;
    el.dataset.html = html;
  }
}

/**
 * Draw `view` (null before the first one arrives). `page.error` is the
 * connection's refusal or a broken address, shown instead of a view.
 */
export function render(view, page) {
  const app = byId("app");
  if (!view) {
    setAttr(app, "data-kind", "none");
    setAttr(app, "data-mode", page.error ? "error" : "waiting");
    setAttr(app, "data-banner", "no");
    setText(byId("subtitle"), page.playoffId ? `Play-off ${page.playoffId}` : "");
    byId("banner").hidden = true;
    fill(byId("stage"), page.error
      ? `<div class="waiting error">${esc(page.error)}</div>`
      : '<div class="waiting">Waiting for the play-off…</div>');
    fill(byId("side"), "");
    return;
  }
  setAttr(app, "data-kind", view.kind);
  setAttr(app, "data-mode", view.mode);
  setText(byId("title"), view.title);
  setText(byId("subtitle"), view.subtitle);
  document.title = `${view.title} — Play-off display`;

  const banner = byId("banner");
  const arm = view.armageddon;
  banner.hidden = !arm;
  setAttr(app, "data-banner", arm ? "yes" : "no");
  if (arm) {
    setAttr(banner, "data-state", arm.state);
    fill(banner, bannerHtml(arm));
  } else {
    banner.removeAttribute("data-state");
    fill(banner, "");
  }

  fill(byId("stage"), stageHtml(view));
  fill(byId("side"), (view.kind === "knock-out" ? bracketHtml(view.bracket) : "") +
    scheduleHtml(view));
}

function stageHtml(view) {
  switch (view.mode) {
    case "games": return gamesHtml(view.live);
    case "idle": return idleHtml(view.idle);
    case "champion": return championHtml(view);
    case "scoreboard": return scoreboardHtml(view.scoreboard);
    default:
      return `<div class="waiting">${esc(view.schedule_note || "Waiting for the play-off…")}</div>`;
  }
}

/** The attributes that make an element a countdown for tick.js; none once the
 * server says the instant has come (the element then shows its words). */
function untilAttrs(until, format, doneText) {
  if (doneText || until === null || until === undefined) return "";
  return ` data-until="${Number(until)}" data-format="${format}"`;
}

// ------------------------------------------------------------------ Armageddon

function bannerHtml(arm) {
  const colours = arm.white && arm.black
    ? `<span class="arm-side"><span class="swatch white"></span>White <b data-testid="arm-white">${
      esc(arm.white.name)}</b> ${esc(arm.white_time)}</span>` +
      '<span class="arm-v">v</span>' +
      `<span class="arm-side"><span class="swatch black"></span>Black <b data-testid="arm-black">${
        esc(arm.black.name)}</b> ${esc(arm.black_time)}</span>`
    : `<span class="arm-side">${esc(arm.colours)}</span>`;
  return `<div class="arm-title"><span class="arm-word">Armageddon</span>` +
    `<span class="arm-when">${esc(arm.when)}</span></div>` +
    `<div class="arm-colours">${colours}</div>` +
    '<div class="arm-rules" data-testid="arm-rules">' +
    `<span>${esc(arm.times)}</span><span>${esc(arm.increment)}</span>` +
    `<span class="arm-draw">${esc(arm.draw_rule)}</span></div>`;
}

// ------------------------------------------------------------------ games on the board

function gamesHtml(live) {
  const cards = live.map((game) => {
    const title = esc(game.title) +
      (game.tag ? ` · <span class="tag-arm">${esc(game.tag)}</span>` : "") +
      (game.time_control ? ` · <span class="control">${esc(game.time_control)}</span>` : "");
    return `<article class="game${game.armageddon ? " is-arm" : ""}" data-testid="game" ` +
      `data-key="${esc(game.clock)}" data-match="${game.match}" data-game="${game.game}">` +
      `<div class="game-title">${title}</div>` +
      `<div class="clocks">${clockSideHtml(game.clock, "white", game.white)}` +
      `${clockSideHtml(game.clock, "black", game.black)}</div>` +
      '<div class="game-status" data-role="status"></div></article>';
  });
  return `<div class="games" style="--games:${live.length}" data-count="${live.length}">` +
    `${cards.join("")}</div>`;
}

function clockSideHtml(key, side, player) {
  return `<div class="clock-side ${side}" data-side="${side}">` +
    `<div class="player"><span class="swatch ${side}"></span>` +
    `<span class="pname">${esc(player.name)}</span>` +
    (player.seed ? `<span class="seed">${player.seed}</span>` : "") + "</div>" +
    `<div class="time" data-testid="clock-${side}" data-clock="${esc(key)}" ` +
    `data-side="${side}" data-running="false"></div></div>`;
}

// ------------------------------------------------------------------ between games

function idleHtml(idle) {
  if (!idle) return '<div class="idle"></div>';
  const start = idle.until_ms !== null && !idle.due_text
    ? `<div class="idle-note">planned start ${esc(clockTime(idle.until_ms))}</div>` : "";
  return '<div class="idle" data-testid="idle">' +
    `<div class="idle-label">${esc(idle.label)}</div>` +
    `<div class="idle-what">${esc(idle.what)}</div>` +
    `<div class="idle-count" data-testid="idle-countdown"${
      untilAttrs(idle.until_ms, "plain", idle.due_text)}>${esc(idle.due_text || "")}</div>` +
    start +
    (idle.note ? `<div class="idle-note">${esc(idle.note)}</div>` : "") +
    "</div>";
}

// ------------------------------------------------------------------ the bracket

function bracketHtml(rounds) {
  const count = rounds.reduce((n, r) => n + r.matches.length, 0);
  // Up to four matches in one column; more (five to eight players): the first
  // round on the left, the later rounds on the right.
  const columns = count >= 5 && rounds.length > 1 ? [rounds.slice(0, 1), rounds.slice(1)]
    : [rounds];
  const html = columns.map((column) => '<div class="bcol">' + column.map((r) =>
    `<div class="round"><div class="round-name">${esc(r.name)}</div>` +
    r.matches.map(matchHtml).join("") + "</div>").join("") + "</div>");
  return `<section class="bracket" data-testid="bracket" data-columns="${columns.length}" ` +
    `style="--m:${count}"><h2>Bracket</h2><div class="rounds">${html.join("")}</div></section>`;
}

function matchHtml(match) {
  const rows = match.players.map((row) => {
    if (row.bye) {
      return '<div class="prow bye"><span class="seed"></span><span class="pname">' +
        `${esc(row.player.name)}</span></div>`;
    }
    const p = row.player;
    const marks = row.marks.map((m) => m.armageddon
      ? `<span class="gm arm" title="Armageddon">${esc(m.text)}</span>`
      : `<span class="gm${m.played ? "" : " empty"}">${m.played ? esc(m.text) : "&nbsp;"}</span>`);
    return `<div class="prow${row.outcome ? ` ${row.outcome === "advances" ? "advances" : "out"}`
      : ""}" data-testid="bracket-player"` +
      (p.id ? ` data-player="${esc(p.id)}"` : "") + (p.seed ? ` data-seed="${p.seed}"` : "") + ">" +
      `<span class="seed">${p.seed || ""}</span>` +
      `<span class="pname${row.known ? "" : " tbd"}">${esc(p.name)}</span>` +
      `<span class="marks">${marks.join("")}</span>` +
      `<span class="total">${esc(row.total)}</span>` +
      `<span class="adv">${row.outcome === "advances" ? "▶" : ""}</span></div>`;
  });
  return `<div class="match status-${esc(match.status)}" data-testid="match" ` +
    `data-match="${match.id}" data-status="${esc(match.status)}">${rows.join("")}` +
    (match.decision ? `<div class="decision" data-testid="decision">${esc(match.decision)}</div>`
      : "") + "</div>";
}

// ------------------------------------------------------------------ the schedule

function scheduleHtml(view) {
  const next = view.next;
  const nextText = next ? `Next: ${next.label} · ${next.vs}` : view.schedule_note || "";
  const nextCount = next
    ? `<div class="next-count" data-testid="next-countdown"${
      untilAttrs(next.due_ms, "in", next.due_text)}>${esc(next.due_text || "")}</div>`
    : '<div class="next-count" data-testid="next-countdown"></div>';
  const pause = view.break;
  const pauseHtml = pause
    ? `<div class="break" data-testid="break" data-kind="${esc(pause.kind)}">` +
      `<div class="break-head"><span class="break-label">${esc(pause.label)}</span>` +
      `<span class="break-count" data-testid="break-countdown"${
        untilAttrs(pause.end_ms, "ends")}></span></div>` +
      `<div class="break-reason" data-testid="break-reason">${esc(pause.reason)}</div></div>`
    : "";
  return '<section class="schedule" data-testid="schedule"><h2>Schedule</h2>' +
    `<div class="next" data-testid="next-game"${next ? ` data-match="${next.match}" ` +
      `data-game="${next.game}"` : ""}>${esc(nextText)}</div>` +
    nextCount + pauseHtml +
    (view.kind === "extra-boards" ? stanzaListHtml(view.stanzas) : "") +
    "</section>";
}

/** Bridge: every stanza of the schedule, played, being played, or when it starts. */
function stanzaListHtml(stanzas) {
  const items = stanzas.map((s) =>
    `<li data-status="${esc(s.status)}"><span>${esc(s.label)}` +
    (s.partners_note ? `<span class="swap">${esc(s.partners_note)}</span>` : "") +
    `</span><span class="when">${esc(s.when || clockTime(s.start_ms))}</span></li>`);
  return `<ul class="stanza-list" data-testid="stanza-list">${items.join("")}</ul>`;
}

// ------------------------------------------------------------------ bridge extra boards

function scoreboardHtml(board) {
  const { home, away } = board;
  const meta = board.winner
    ? `<span class="sb-winner" data-testid="extra-winner">${esc(board.winner)}</span>`
    : (board.stanza_text
      ? `<span class="sb-stanza" data-testid="stanza-number">${esc(board.stanza_text)}</span>` : "") +
      (board.partner_change
        ? `<span class="sb-partners" data-testid="partner-change">${esc(board.partner_change)}</span>`
        : "");
  const rows = board.stanzas.map((s) => s.boards.map((b) =>
    `<tr data-testid="stanza-board" data-stanza="${b.stanza}" data-board="${b.board}" ` +
    `class="${s.current ? "current" : ""}${b.first_of_stanza ? " first" : ""}">` +
    `<td>${b.first_of_stanza ? b.stanza : ""}</td><td>${b.board}</td>` +
    `<td class="num">${score(b.table_1)}</td><td class="num">${score(b.table_2)}</td>` +
    `<td class="num imp">${esc(b.home_imps)}</td><td class="num imp">${esc(b.away_imps)}</td></tr>`,
  ).join("") + (s.partners_note
    ? `<tr class="partners-row"><td colspan="6">${esc(s.partners_note)}</td></tr>` : ""));
  return '<div class="scoreboard" data-testid="scoreboard">' +
    '<div class="sb-total" data-testid="running-total">' +
    `<span class="team home${home.won ? " won" : ""}">${esc(home.name)}</span>` +
    `<span class="imps">${esc(board.total[0])}</span><span class="dash">–</span>` +
    `<span class="imps">${esc(board.total[1])}</span>` +
    `<span class="team away${away.won ? " won" : ""}">${esc(away.name)}</span></div>` +
    `<div class="sb-caption">${esc(board.caption)}</div>` +
    `<div class="sb-meta">${meta}</div>` +
    '<table class="sb-table"><thead><tr><th>Stanza</th><th>Board</th><th>Table 1</th>' +
    `<th>Table 2</th><th>${esc(home.name)}</th><th>${esc(away.name)}</th></tr></thead>` +
    `<tbody>${rows.join("")}</tbody></table>` +
    (board.note ? `<div class="sb-note">${esc(board.note)}</div>` : "") + "</div>";
}

function score(text) {
  return text === null || text === undefined ? '<span class="pending">—</span>' : esc(text);
}

// ------------------------------------------------------------------ the end

function championHtml(view) {
  const champ = view.champion;
  const rows = view.placings.map((p) =>
    `<tr class="${p.champion ? "first" : ""}"><td>${p.place}</td><td>${esc(p.name)}</td>` +
    `<td class="num">${esc(p.prize)}</td><td class="num">${esc(p.points)}</td></tr>`);
  return '<div class="champion-panel"><div class="champion-label">Play-off winner</div>' +
    `<div class="champion" data-testid="champion">${esc(champ ? champ.name : "")}</div>` +
    (rows.length
      ? '<table class="placings" data-testid="placings"><thead><tr><th>Place</th>' +
        `<th>Player</th><th>Prize</th><th>Points</th></tr></thead><tbody>${rows.join("")}` +
        "</tbody></table>"
      : "") + "</div>";
}
