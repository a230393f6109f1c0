/* The hall view as HTML. Everything shown comes from the view as the server
 * worded it; this module only lays it out. Clocks and the countdown are drawn by
 * tick.js into the elements made here (data-clock, data-until), names are fitted
 * to their place by fit.js (data-fit). */

import { esc, setAttr, setText } from "../common/html.js";
import { viewerTime } from "../common/time.js";
import { t } from "../common/words.js";

const byId = (id) => document.getElementById(id);

/** Replace a region's HTML only when it changed (a view resent as time passes
 * usually changes nothing). Says whether it did. */
function fill(el, html) {
  if (el && el.dataset.html !== html) {
    el.innerHTML = html;
    el.dataset.html = html;
    return true;
  }
  return false;
}

/** A person's (or team's) name, fitted to its place: the full name, else the
 * short one the view gives, else smaller type (fit.js). */
function nameHtml(player, cls = "pname") {
  const full = player ? player.name || "" : "";
  const short = player && player.short ? player.short : full;
  return `<span class="${cls}" data-fit data-full="${esc(full)}" data-short="${esc(short)}">` +
    `${esc(full)}</span>`;
}

/**
 * Draw `view` (null before the first one arrives). `page.error` is the
 * connection's refusal or a broken address, shown instead of a view. Returns
 * whether anything was redrawn (names then need fitting again).
 */
export function render(view, page) {
  const app = byId("app");
  if (!view) {
    setAttr(app, "data-kind", "none");
    setAttr(app, "data-mode", page.error ? "error" : "waiting");
    setAttr(app, "data-banner", "no");
    setText(byId("title"), t("Play-off"));
    setText(byId("subtitle"), "");
    byId("banner").hidden = true;
    const a = fill(byId("stage"), page.error
      ? `<div class="waiting error">${esc(page.error)}</div>`
      : `<div class="waiting">${esc(t("Waiting for the play-off…"))}</div>`);
    const b = fill(byId("side"), "");
    return a || b;
  }
  setAttr(app, "data-kind", view.kind);
  setAttr(app, "data-mode", view.mode);
  setText(byId("title"), view.title);
  setText(byId("subtitle"), view.subtitle);
  document.title = t("{title} — Play-off display", { title: view.title });

  const banner = byId("banner");
  const arm = view.armageddon;
  banner.hidden = !arm;
  setAttr(app, "data-banner", arm ? "yes" : "no");
  let changed = false;
  if (arm) {
    setAttr(banner, "data-state", arm.state);
    changed = fill(banner, bannerHtml(arm)) || changed;
  } else {
    banner.removeAttribute("data-state");
    changed = fill(banner, "") || changed;
  }
  changed = fill(byId("stage"), stageHtml(view, page)) || changed;
  changed = fill(byId("side"), sideHtml(view)) || changed;
  return changed;
}

function stageHtml(view, page) {
  switch (view.mode) {
    case "games": return flagHtml(view.flag) + gamesHtml(view.live);
    case "idle": return flagHtml(view.flag) + idleHtml(view, page);
    case "champion": return flagHtml(view.flag) + championHtml(view);
    case "scoreboard": return scoreboardHtml(view.scoreboard);
    default:
      return flagHtml(view.flag) +
        `<div class="waiting">${esc(view.schedule_note || t("Waiting for the play-off…"))}</div>`;
  }
}

// ------------------------------------------------------------------ a correction

/** The server keeps the notice until a game starts after the correction. */
function correctionHtml(c) {
  if (!c) return "";
  const items = c.items.map((i) => `<li>${esc(i)}</li>`).join("");
  return `<div class="correction" data-testid="correction" role="status">` +
    `<span class="correction-title">${esc(c.title)}</span>` +
    `<span class="correction-text">${esc(c.text)}</span>` +
    (items ? `<ul class="correction-items">${items}</ul>` : "") + "</div>";
}

function sideHtml(view) {
  // A correction beside what it changed: the bracket, or the bridge schedule.
  const correction = correctionHtml(view.correction);
  if (view.kind === "extra-boards") {
    return correction + scheduleHtml(view, true) + stanzaListHtml(view.stanzas);
  }
  // Between games the stage itself shows the next game and the countdown, and when
  // nothing is on it says why; the side adds the next game only to games in play.
  const schedule = view.mode === "games" ? scheduleHtml(view, false) : "";
  return correction + bracketHtml(view.bracket) + schedule;
}

/** The attributes that make an element the countdown for tick.js: none once the
 * server says the instant has come (the element then shows its words). */
function untilAttrs(countdown, format) {
  if (!countdown || countdown.due_text) return "";
  return ` data-until="${Number(countdown.until_ms)}" data-format="${format}"` +
    ` data-at="${esc(countdown.at)}"`;
}

// ------------------------------------------------------------------ Armageddon

function bannerHtml(arm) {
  const colours = arm.white && arm.black
    ? `<span class="arm-side"><span class="swatch white"></span>${esc(t("White"))} <b data-testid="arm-white">${
      esc(arm.white.short)}</b> ${esc(arm.white_time)}</span>` +
      `<span class="arm-v">${esc(t("v"))}</span>` +
      `<span class="arm-side"><span class="swatch black"></span>${esc(t("Black"))} <b data-testid="arm-black">${
        esc(arm.black.short)}</b> ${esc(arm.black_time)}</span>`
    : `<span class="arm-note">${esc(arm.colours)}</span>`;
  return `<div class="arm-title"><span class="arm-word">${esc(arm.name)}</span>` +
    `<span class="arm-when">${esc(arm.when)}</span></div>` +
    `<div class="arm-colours">${colours}</div>` +
    '<div class="arm-rules" data-testid="arm-rules">' +
    `<span>${esc(arm.times)}</span><span>${esc(arm.increment)}</span>` +
    `<span class="arm-draw">${esc(arm.draw_rule)}</span></div>`;
}

// ------------------------------------------------------------------ a flag that fell

function flagHtml(flag) {
  if (!flag) return "";
  return `<div class="flag" data-testid="flag" data-side="${esc(flag.side)}">` +
    `<span class="flag-title">${esc(flag.title)}</span>` +
    `<span class="flag-text">${esc(flag.text)}</span>` +
    (flag.detail ? `<span class="flag-detail">${esc(flag.detail)}</span>` : "") + "</div>";
}

// ------------------------------------------------------------------ games on the board

function gamesHtml(live) {
  const cards = live.map((game) => {
    const title = esc(game.title) +
      (game.tag ? ` · <span class="tag-arm">${esc(game.tag)}</span>` : "") +
      (game.stage ? ` · <span class="stage-name" data-testid="stage-name">${esc(game.stage)}</span>` : "") +
      (game.time_control ? `<span class="control"> · ${esc(game.time_control)}</span>` : "");
    const clocks = `<div class="clocks">${clockSideHtml(game.clock, "white", game.white)}` +
      `${clockSideHtml(game.clock, "black", game.black)}</div>`;
    const body = game.position
      ? `<div class="game-main">${diagramHtml(game.position)}${clocks}</div>` : clocks;
    return `<article class="game${game.armageddon ? " is-arm" : ""}` +
      `${game.position ? " has-board" : ""}" data-testid="game" ` +
      `data-key="${esc(game.clock)}" data-match="${game.match}" data-game="${game.game}">` +
      `<div class="game-title">${title}</div>${body}` +
      '<div class="game-status" data-role="status"></div></article>';
  });
  return `<div class="games" data-count="${live.length}">${cards.join("")}</div>`;
}

// The pieces as one glyph shape for both colours (the solid set), coloured by CSS:
// the same silhouette reads at 10 m whatever the colour.
const GLYPH = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F" };
const FILES = "abcdefgh";

/** The position the server sent (ranks 8 to 1, `.` an empty square), White at the
 * bottom, the last move's squares marked. */
function diagramHtml(position) {
  const marked = new Set(position.last_move || []);
  const squares = [];
  position.ranks.forEach((rank, row) => {
    [...rank].forEach((piece, col) => {
      const name = `${FILES[col]}${8 - row}`;
      const shade = (row + col) % 2 ? "dark" : "light";
      const glyph = piece === "." ? "" :
        `<span class="piece ${piece === piece.toUpperCase() ? "w" : "b"}">` +
        `${GLYPH[piece.toLowerCase()] || ""}</span>`;
      squares.push(`<div class="sq ${shade}${marked.has(name) ? " last" : ""}" ` +
        `data-square="${name}">${glyph}</div>`);
    });
  });
  const said = position.last_move_words
    ? `<div class="last-move" data-testid="last-move">${esc(position.last_move_words)}</div>` : "";
  return `<div class="board-wrap"><div class="diagram" data-testid="diagram" ` +
    `aria-label="${esc(position.last_move_words || t("the position"))}">${squares.join("")}</div>` +
    `${said}</div>`;
}

function clockSideHtml(key, side, player) {
  return `<div class="clock-side ${side}" data-side="${side}">` +
    `<div class="player"><span class="swatch ${side}"></span>${nameHtml(player)}` +
    (player.seed ? `<span class="seed">${player.seed}</span>` : "") + "</div>" +
    `<div class="time" data-testid="clock-${side}" data-clock="${esc(key)}" ` +
    `data-side="${side}" data-running="false"></div></div>`;
}

// ------------------------------------------------------------------ between games

/** The next game's players: White then Black with their colours once known, else
 * with a dash and the way the colours will be chosen. `short`: family names only. */
function playersHtml(next, cls, short = false) {
  const [first, second] = next.players;
  const known = next.colours_known;
  const side = (player, colour) => `<span class="${cls}-player">` +
    (known ? `<span class="swatch ${colour}"></span>` : "") +
    nameHtml(short ? { name: player.short, short: player.short } : player) + "</span>";
  return `<div class="${cls}" data-testid="${cls}">${side(first, "white")}` +
    `<span class="${cls}-sep">${known ? esc(t("v")) : "–"}</span>${side(second, "black")}</div>` +
    (next.colours ? `<div class="${cls}-colours">${esc(next.colours)}</div>` : "");
}

function idleHtml(view, page) {
  const idle = view.idle;
  const next = view.next;
  const count = view.countdown;
  if (!idle || !next) return '<div class="idle"></div>';
  return '<div class="idle" data-testid="idle">' +
    `<div class="idle-label" data-testid="idle-label">${esc(idle.label)}</div>` +
    `<div class="idle-title" data-testid="next-game" data-match="${next.match}" ` +
    `data-game="${next.game}">${esc(next.label)}</div>` +
    playersHtml(next, "idle-players") +
    (count
      ? `<div class="idle-count" data-testid="idle-countdown"${count.waits ? " data-waits" : ""}` +
        `${untilAttrs(count, "plain")}>` +
        `${esc(count.due_text || "")}</div>` +
        (count.due_text ? "" : `<div class="idle-at" data-testid="planned-start">${
          esc(t("planned start {time}", { time: count.at }))}${page.viewerZone
            ? esc(t(" · your time {time}", { time: viewerTime(Number(count.until_ms)) })) : ""}</div>`)
      : `<div class="idle-at">${esc(next.when)}</div>`) +
    (next.note ? `<div class="idle-change" data-testid="next-note">${esc(next.note)}</div>` : "") +
    (idle.note ? `<div class="idle-note" data-testid="break-reason">${esc(idle.note)}</div>` : "") +
    "</div>";
}

// ------------------------------------------------------------------ the bracket

function bracketHtml(rounds) {
  const count = rounds.reduce((n, r) => n + r.matches.length, 0);
  const size = count >= 5 ? "large" : count >= 3 ? "medium" : "small";
  const html = rounds.map((r) =>
    `<div class="round" data-status="${esc(r.status)}"><div class="round-name">${esc(r.name)}</div>` +
    r.matches.map(matchHtml).join("") + "</div>");
  return `<section class="bracket" data-testid="bracket" data-size="${size}" ` +
    `data-rounds="${rounds.length}"><div class="rounds">${html.join("")}</div></section>`;
}

function matchHtml(match) {
  const rows = match.players.map((row) => {
    if (row.bye) {
      return `<div class="prow bye"><span class="seed"></span><span class="pname">${
        esc(row.player.name)}</span></div>`;
    }
    const p = row.player;
    const marks = row.marks.map((m) => m.armageddon
      ? `<span class="gm arm">${esc(m.text)}</span>`
      : `<span class="gm${m.played ? "" : " empty"}">${m.played ? esc(m.text) : "&nbsp;"}</span>`);
    const outcome = row.outcome ? ` ${esc(row.outcome)}` : "";
    const mark = row.outcome === "champion" ? "★" : row.outcome === "advances" ? "▶" : "";
    return `<div class="prow${outcome}" data-testid="bracket-player"` +
      (p.id ? ` data-player="${esc(p.id)}"` : "") + (p.seed ? ` data-seed="${p.seed}"` : "") +
      (row.outcome ? ` data-outcome="${esc(row.outcome)}"` : "") + ">" +
      `<span class="seed">${p.seed || ""}</span>` +
      nameHtml({ name: p.short, short: p.short }, `pname${row.known ? "" : " tbd"}`) +
      `<span class="marks">${marks.join("")}</span>` +
      `<span class="total">${esc(row.total)}</span>` +
      `<span class="adv">${mark}</span></div>`;
  });
  return `<div class="match status-${esc(match.status)}" data-testid="match" ` +
    `data-match="${match.id}" data-status="${esc(match.status)}">${rows.join("")}` +
    (match.decision ? `<div class="decision" data-testid="decision">${esc(match.decision)}</div>`
      : "") + "</div>";
}

// ------------------------------------------------------------------ the schedule

function scheduleHtml(view, withPause) {
  const next = view.next;
  const count = view.countdown;
  const pause = withPause ? view.break : null;
  const pauseHtml = pause
    ? `<div class="break" data-testid="break" data-kind="${esc(pause.kind)}">` +
      `<div class="break-label">${esc(pause.label)}</div>` +
      `<div class="break-reason" data-testid="break-reason">${esc(pause.reason)}</div></div>`
    : "";
  if (!next) {
    return '<section class="schedule" data-testid="schedule">' + pauseHtml +
      `<div class="next-note" data-testid="next-game">${esc(view.schedule_note || "")}</div>` +
      "</section>";
  }
  const when = count
    ? `<span class="next-when" data-testid="next-countdown"${untilAttrs(count, "in")}>${
      esc(count.due_text || "")}</span>`
    : `<span class="next-when" data-testid="next-countdown">${esc(next.when)}</span>`;
  return '<section class="schedule" data-testid="schedule">' + pauseHtml +
    `<div class="next-head"><span class="next-word">${esc(t("Next"))}</span>${when}</div>` +
    `<div class="next" data-testid="next-game" data-match="${next.match}" ` +
    `data-game="${next.game}">${esc(next.label)}</div>` +
    (next.kind === "stanza" ? "" : playersHtml(next, "next-players", true)) +
    (next.note ? `<div class="next-change" data-testid="next-note">${esc(next.note)}</div>` : "") +
    "</section>";
}

/** Bridge: every stanza of the schedule, played, being played, or when it starts. */
function stanzaListHtml(stanzas) {
  const items = stanzas.map((s) =>
    `<li data-status="${esc(s.status)}"><span class="stanza-label">${esc(s.label)}</span>` +
    `<span class="when">${esc(s.when)}</span></li>`);
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
  const earlier = board.sets.filter((s) => !s.current).map((s) =>
    `<div class="sb-set" data-testid="earlier-set" data-set="${s.set}">${esc(s.text)}</div>`);
  const current = board.sets.filter((s) => s.current);
  const rows = current.flatMap((set) => set.stanzas.map((s) => s.boards.map((b) =>
    `<tr data-testid="stanza-board" data-stanza="${b.stanza}" data-board="${b.board}" ` +
    `data-state="${esc(b.state)}" class="${s.current ? "current" : ""}` +
    `${b.first_of_stanza ? " first" : ""}">` +
    `<td>${b.first_of_stanza ? b.stanza : ""}</td><td>${b.board}</td>` +
    `<td class="num">${score(b.table_1)}</td><td class="num">${score(b.table_2)}</td>` +
    `<td class="num imp">${score(b.home_imps)}</td><td class="num imp">${score(b.away_imps)}</td>` +
    "</tr>",
  ).join("") + (s.partners_note
    ? `<tr class="partners-row"><td colspan="6">${esc(s.partners_note)}</td></tr>` : "")));
  return '<div class="scoreboard" data-testid="scoreboard">' +
    '<div class="sb-total" data-testid="running-total">' +
    nameHtml(home, `team home${home.won ? " won" : ""}`) +
    `<span class="imps">${esc(board.total[0])}</span><span class="dash">–</span>` +
    `<span class="imps">${esc(board.total[1])}</span>` +
    nameHtml(away, `team away${away.won ? " won" : ""}`) + "</div>" +
    `<div class="sb-caption">${esc(board.caption)}</div>` +
    `<div class="sb-meta">${meta}</div>` + earlier.join("") +
    `<table class="sb-table"><thead><tr><th>${esc(t("Stanza"))}</th><th>${esc(t("Board"))}</th>` +
    `<th>${esc(t("Table 1"))}</th><th>${esc(t("Table 2"))}</th>` +
    `<th>${esc(home.name)}</th><th>${esc(away.name)}</th></tr></thead>` +
    `<tbody>${rows.join("")}</tbody></table></div>`;
}

function score(text) {
  return text === null || text === undefined ? '<span class="pending">—</span>' : esc(text);
}

// ------------------------------------------------------------------ the end

function championHtml(view) {
  const champ = view.champion;
  const rows = view.placings.map((p) =>
    `<tr class="${p.champion ? "first" : ""}"><td>${p.place}</td>` +
    `<td>${nameHtml(p)}</td>` +
    `<td class="num">${esc(p.prize)}</td><td class="num">${esc(p.points)}</td></tr>`);
  return `<div class="champion-panel"><div class="champion-label">${esc(t("Champion"))}</div>` +
    `<div class="champion" data-testid="champion">${nameHtml(champ, "champion-name")}</div>` +
    (rows.length
      ? '<table class="placings" data-testid="placings"><thead><tr>' +
        `<th>${esc(t("Place"))}</th><th>${esc(t("Player"))}</th><th>${esc(t("Prize"))}</th>` +
        `<th>${esc(t("Points"))}</th></tr></thead><tbody>${rows.join("")}` +
        "</tbody></table>" +
        (view.placings_note
          ? `<div class="placings-note" data-testid="placings-note">${esc(view.placings_note)}</div>`
          : "")
      : "") + "</div>";
}
