/* The arbiter view as HTML, region by region. Every word and every decision comes
 * from the view; this module lays them out. `ui` carries what the page adds: the
 * control registry, which commands are pending, the clocks as they now stand,
 * whether this console acts as the clock, the role it is logged in with, the
 * control awaiting its confirmation, and the draws checked in this browser.
 * Times of day are written as the hall reads them (in the zone the view names).
 */

import { hallTime } from "../common/time.js";
import { esc } from "../common/html.js";
import { t } from "../common/words.js";
import { button, confirmHtml, formHtml, refusalNote } from "./controls.js";
import { timeline } from "./timeline.js";

// ------------------------------------------------------------------ words

/** A match's status (the view's identifier) in words. */
function matchStatus(status) {
  return ({ locked: t("locked"), waiting: t("waiting"), ready: t("ready"), running: t("running"),
    completed: t("completed") })[status] || status;
}

/** Where a game of a match stands (the view's identifier) in words. */
function gameState(state) {
  return ({ played: t("played"), "in play": t("in play"), "to play": t("to play") })[state] || state;
}

/** Where a planned game stands (the view's identifier) in words. */
function planStatus(status) {
  return ({ played: t("played"), running: t("running"), planned: t("planned") })[status] || status;
}

// ------------------------------------------------------------------ current games

export function nowHtml(view, ui) {
  if (view.extra_boards) return extraBoardsHtml(view.extra_boards, ui);
  let html = "";
  if (view.champion) {
    html += `<div class="champion card" data-testid="champion"><span class="trophy" aria-hidden="true"></span>${esc(view.champion.text)}</div>`;
  }
  if (!view.over) {
    html += `<div class="clock-toggle" data-testid="clock-toggle"><label class="check">
        <input type="checkbox" id="acts-as-clock" data-testid="acts-as-clock" ${ui.actsAsClock ? "checked" : ""}>
        ${esc(t("This console is the clock (press buttons)"))}</label>
        <p class="muted small" data-testid="keyboard-help">${keyboardHelp()}</p></div>`;
  }
  for (const match of view.matches) html += matchHtml(match, ui);
  return html;
}

/** The space bar's use, the key's name marked as a key. */
function keyboardHelp() {
  return esc(t("{key} presses the clock for the side to move, when this console is the clock, one clock runs and no field has the focus."))
    .replace("{key}", `<kbd>${esc(t("Space"))}</kbd>`);
}

function matchHtml(m, ui) {
  const body = [];
  if (m.note) body.push(`<p class="muted">${esc(m.note)}</p>`);
  if (m.flag) body.push(flagHtml(m, ui));
  if (m.games.length) body.push(gamesList(m, ui));
  if (m.decision) body.push(decisionHtml(m));
  if (m.lots) body.push(lotsHtml(m, ui));
  if (m.toss) body.push(tossHtml(m, ui));
  if (m.colours) body.push(coloursHtml(m, ui));
  for (const panel of m.panels) body.push(gamePanelHtml(panel, ui));
  return `<article class="card match" data-testid="match-${m.id}" data-status="${esc(m.status)}">
      <header class="match-head">
        <h2>${esc(m.title)}</h2>
        <span class="pill" data-testid="match-status-${m.id}">${esc(matchStatus(m.status))}</span>
        ${m.score !== null ? `<span class="score" data-testid="score-${m.id}" title="${esc(m.score_title)}">${esc(m.score)}</span>` : ""}
      </header>
      <p class="muted small">${esc(m.time_control)}</p>
      ${body.join("")}
    </article>`;
}

/** Each game as its own card: players, result, state, and the correction of its result. */
function gamesList(m, ui) {
  const cards = m.games.map((g) => {
    const correct = g.correct ? `
        <details class="correct" id="correct-details-${m.id}-${g.number}" data-testid="correct-${m.id}-${g.number}">
          <summary class="btn btn-quiet">${esc(g.correct.title)}</summary>
          ${formHtml(ui, g.correct)}
        </details>` : "";
    return `<li class="game-card" data-testid="game-row-${m.id}-${g.number}">
        <div class="game-line">
          <span class="game-no">${esc(t("Game {number}", { number: g.number }))}${g.label ? ` <span class="tag">${esc(g.label)}</span>` : ""}</span>
          <span class="game-players" data-testid="game-${m.id}-${g.number}-players">${esc(g.players)}</span>
          <span class="result" data-testid="game-${m.id}-${g.number}-result">${esc(g.result)}</span>
          <span class="muted small" data-testid="game-${m.id}-${g.number}-state">${esc(gameState(g.state))}</span>
        </div>
        ${g.result_text ? `<p class="small muted" data-testid="game-${m.id}-${g.number}-words">${esc(g.result_text)}</p>` : ""}
        ${correct}
      </li>`;
  }).join("");
  return `<ul class="games plain">${cards}</ul>`;
}

function flagHtml(m, ui) {
  const f = m.flag;
  const correct = f.correct ? `<div data-testid="flag-correct">${formHtml(ui, f.correct, { title: true })}</div>` : "";
  return `<div class="flag" role="alert" data-testid="flag-${m.id}">
      <strong class="flag-text" data-testid="flag-text">${esc(f.text)}</strong>
      <p>${esc(f.detail)}</p>
      <p class="flag-rule" data-testid="flag-rule">${esc(f.rule)}</p>
      ${correct}
    </div>`;
}

function decisionHtml(m) {
  const d = m.decision;
  return `<div class="decision" data-testid="decision-${m.id}">
      <strong data-testid="winner-${m.id}">${esc(d.headline)}</strong>
      ${d.details.map((line) => `<p>${esc(line)}</p>`).join("")}
    </div>`;
}

function lotsHtml(m, ui) {
  const lots = m.lots;
  return `<div class="step" data-testid="lots-panel-${m.id}">
      <h3>${esc(lots.title)}</h3>
      <div class="row">${button(ui, lots.service)}</div>
      ${confirmHtml(ui, [lots.service])}
      ${refusalNote(lots.service, ui.clocks, ui.now)}
      ${formHtml(ui, lots.physical, { cls: "row" })}
    </div>`;
}

function tossHtml(m, ui) {
  const toss = m.toss;
  return `<div class="step" data-testid="toss-panel-${m.id}">
      <h3>${esc(toss.title)}</h3>
      <p class="muted small">${esc(toss.hint)}</p>
      ${formHtml(ui, toss.service)}
      ${formHtml(ui, toss.physical, { cls: "row" })}
    </div>`;
}

function coloursHtml(m, ui) {
  const c = m.colours;
  return `<div class="step" data-testid="colours-panel-${m.id}">
      <h3>${esc(c.title)}</h3>
      <p>${esc(c.toss)} <strong data-testid="toss-winner-${m.id}" data-player="${esc(c.winner.id)}">${esc(c.winner.name)}</strong> ${esc(t("won the toss and chooses."))}</p>
      <p class="muted small">${esc(c.hint)}</p>
      <div class="row">${c.choices.map((choice) => button(ui, choice)).join("")}</div>
    </div>`;
}

function rest(r, ui) {
  return `<li class="rest${r.binding ? " binding" : ""}" data-testid="rest" data-kind="${esc(r.kind)}">
      <strong>${esc(r.binding ? t("Not before {time}", { time: r.until_text })
    : t("Preferably not before {time}", { time: r.until_text }))}</strong>
      <span class="countdown" data-until="${r.until_ms}" data-testid="rest-countdown"></span>
      <span class="small">${esc(r.text)}</span></li>`;
}

function gamePanelHtml(p, ui) {
  const clock = ui.clocks[p.clock] || null;
  const words = ui.statusWords || {};
  let status = clock ? (words[clock.status] || clock.status) : p.status;
  if (clock && clock.status === "running" && p.since) status = t("{status} since {time}", { status, time: p.since });
  const faces = p.faces.map((face) => faceHtml(p, face, clock, ui)).join("");
  const controls = [
    p.start ? button(ui, p.start, { cls: "btn-big" }) : "",
    p.pause ? button(ui, p.pause, { hideWhenOff: true }) : "",
    p.resume ? button(ui, p.resume, { hideWhenOff: true }) : "",
  ].join("");
  const rests = p.rests.length ? `<ul class="rests plain" data-testid="rests">${p.rests.map((r) => rest(r, ui)).join("")}</ul>` : "";
  const anyway = p.start_anyway ? formHtml(ui, p.start_anyway) : "";
  const results = p.results.map((r) => button(ui, r, {
    cls: `btn-result${["+/-", "-/+", "-/-"].includes(r.command.result) ? " forfeit" : ""}`,
    html: `<span class="big">${esc(r.label)}</span>`,
  })).join("");
  const adjust = p.adjust ? `
      <details class="adjust" id="adjust-details-${p.match}-${p.game}" data-testid="adjust">
        <summary class="btn btn-quiet">${esc(p.adjust.title)}</summary>
        ${formHtml(ui, p.adjust)}
      </details>` : "";
  return `<div class="step game-panel" data-testid="game-panel-${p.match}-${p.game}">
      <h3>${esc(p.title)} <span class="pill" data-testid="clock-status">${esc(status)}</span></h3>
      <p class="muted small">${esc(p.time_control)}</p>
      <div class="faces">${faces}</div>
      <div class="row">${controls}</div>
      ${confirmHtml(ui, [p.start])}
      ${p.start && !p.rests.some((r) => r.binding) ? refusalNote(p.start, ui.clocks, ui.now) : ""}
      ${rests}
      ${anyway ? `<div class="start-anyway" data-testid="start-anyway">${anyway}</div>` : ""}
      ${results ? `<h4>${esc(p.start ? t("Result without play (forfeit)") : t("Result"))}</h4><div class="results">${results}</div>` : ""}
      ${confirmHtml(ui, p.results)}
      ${adjust}
    </div>`;
}

function faceHtml(panel, face, clock, ui) {
  const side = face.side;
  const runs = Boolean(clock && clock.running === side);
  const moves = clock ? clock.moves[side] : 0;
  const next = runs ? t(" · press after move {move}", { move: clock.next_move }) : "";
  const inner = `<span class="face-side">${esc(face.side_label)}</span>
      <span class="face-name">${esc(face.player)}</span>
      <span class="face-time" data-clock="${esc(panel.clock)}" data-side="${side}"
            data-start="${face.start_ms ?? ""}" data-testid="time-${side}">—</span>
      <span class="face-moves" data-testid="moves-${side}">${esc(t("moves {count}", { count: moves }))}${esc(next)}</span>
      <span class="face-frozen">${esc(t("connection lost: may be behind"))}</span>`;
  if (!ui.actsAsClock) {
    return `<div class="face ${side}${runs ? " runs" : ""}" data-testid="clock-${side}">${inner}</div>`;
  }
  if (!face.press) {
    return `<button type="button" class="btn face press ${side}" data-testid="press-${side}" disabled>${inner}</button>`;
  }
  return button(ui, face.press, {
    cls: `face press ${side}${runs ? " runs" : ""}`,
    html: inner,
    attrs: ` data-press="1" aria-label="${esc(face.press.label)}"`,
  });
}

// ------------------------------------------------------------------ extra boards

function extraBoardsHtml(eb, ui) {
  const tables = eb.stanzas.slice().reverse().map((s) => `
      <table class="boards" data-testid="stanza-${s.stanza}" data-set="${s.set}">
        <caption>${esc(s.caption)}</caption>
        <thead><tr><th>${esc(t("Board"))}</th><th>${esc(eb.tables[0])}</th><th>${esc(eb.tables[1])}</th><th>${esc(t("IMPs (home)"))}</th></tr></thead>
        <tbody>${s.boards.map((b) => `<tr data-testid="board-${s.stanza}-${b.board}"><td>${b.board}</td><td>${esc(b.table_1)}</td><td>${esc(b.table_2)}</td><td data-testid="imps">${esc(b.imps)}</td></tr>`).join("")}</tbody>
      </table>`).join("");
  const status = eb.winner
    ? `<div class="decision" data-testid="extra-winner"><strong>${esc(eb.winner_text)}</strong></div>`
    : `<p data-testid="extra-status">${esc(eb.status)}</p>`;
  const entry = eb.entry
    ? `<div data-testid="${esc(eb.entry.name)}">${formHtml(ui, eb.entry, { title: true })}</div>` : "";
  // The chief arbiter's correction of a score entered (drawn for the chief's console only).
  const correct = eb.correct && (!eb.correct.role || eb.correct.role === ui.role)
    ? `<details class="correct" id="board-correct-details" data-testid="board-correct">
        <summary class="btn btn-quiet">${esc(eb.correct.title)}</summary>
        ${formHtml(ui, eb.correct)}</details>` : "";
  return `<article class="card match" data-testid="extra-boards">
      <header class="match-head"><h2>${esc(eb.title)}</h2>
        <span class="small muted" data-testid="running-total-label">${esc(eb.running_total_label)}</span>
        <span class="score" data-testid="running-total">${esc(eb.running_total)}</span></header>
      ${status}
      ${entry}
      ${correct}
      ${tables}
    </article>`;
}

// ------------------------------------------------------------------ schedule

export function planHtml(schedule, ui, width, nowMs) {
  if (schedule.error) {
    return `<p class="warning" data-testid="plan-error">${esc(t("The schedule cannot be planned: {reason}", { reason: schedule.error }))}</p>`;
  }
  const at = (when) => hallTime(when, ui.offset);
  let html = `<p class="plan-summary" data-testid="plan-summary">${esc(t("Start {start}", { start: at(schedule.start) }))}
      · ${esc(t("finish {finish}", { finish: at(schedule.finish) }))}`;
  if (schedule.deadline) {
    html += ` · ${esc(t("deadline {deadline}", { deadline: at(schedule.deadline) }))} · `;
    html += `<strong class="${schedule.fits === false ? "bad" : "good"}" data-testid="fits">${esc(schedule.fits_text)}</strong>`;
  }
  html += "</p>";
  const proposal = schedule.proposal;
  if (proposal) {
    const fill = proposal.fill
      ? `<button type="button" class="btn" data-fill="1" data-testid="use-proposal">${esc(proposal.fill.label)}</button>` : "";
    html += `<div class="proposal" data-testid="proposal"><strong>${esc(t("Proposal:"))}</strong> ${esc(proposal.text)} ${fill}</div>`;
  }
  if (schedule.warnings.length) {
    html += `<ul class="warnings" data-testid="warnings">${schedule.warnings.map((w) => `<li>${esc(w)}</li>`).join("")}</ul>`;
  }
  const replan = schedule.replan;
  if (replan) {
    const items = replan.items.map((i) => esc(t("{game} {delta} (now {time})", { game: i.label, delta: i.delta, time: at(i.to) })));
    html += `<p class="reflow" data-testid="reflow">↻ ${esc(replan.text)}: ${items.join("; ")}</p>`;
  }
  html += timeline(schedule, width, nowMs, ui.offset);
  html += `<ol class="plan-list" data-testid="plan-list">${schedule.games.map((g) => planRow(g, at)).join("")}</ol>`;
  return html;
}

function planRow(g, at) {
  const badges = [
    `<span class="tag st-${esc(g.status)}">${esc(planStatus(g.status))}</span>`,
    g.fixed ? `<span class="tag">${esc(t("fixed"))}</span>` : "",
    g.tentative ? `<span class="tag tentative">${esc(t("tentative"))}</span>` : "",
    g.moved ? `<span class="tag moved" data-testid="moved-${g.match}-${g.game}">${esc(t("moved {delta}", { delta: g.moved.delta }))}</span>` : "",
  ].join(" ");
  const about = [g.players, g.time_control, g.interval].filter(Boolean).map(esc).join(" · ");
  return `<li class="plan-item${g.tentative ? " tentative" : ""}${g.moved ? " moved" : ""}" data-testid="plan-${g.match}-${g.game}">
      <div><strong>${at(g.start)}–${at(g.end)}</strong> ${esc(g.title)} ${badges}</div>
      <div class="small">${about}</div>
      <div class="small muted">${esc(g.reason)}</div>
    </li>`;
}

// ------------------------------------------------------------------ records

/** What the check of a draw's record in this browser found, by its outcome. */
function checkHtml(outcome) {
  switch (outcome) {
    case "verified":
      return `<span class="good" data-testid="draw-verified">${esc(t("✓ checked in this browser: the seed gives this commitment and this outcome"))}</span>`;
    case "mismatch":
      return `<span class="bad" data-testid="draw-mismatch">${esc(t("✗ the seed does not match: report this to the chief arbiter"))}</span>`;
    case "commitment":
      return `<span class="good">${esc(t("✓ the seed gives this commitment"))}</span>`;
    case "unavailable":
      return `<span class="muted">${esc(t("(this browser cannot check hashes here: use https or localhost)"))}</span>`;
    default:
      return `<span class="muted">${esc(t("checking…"))}</span>`;
  }
}

export function drawsHtml(draws, checked) {
  const items = draws.map((d) => {
    const record = d.record || {};
    let proof;
    if (d.method === "commit-reveal") {
      proof = `<dl class="proof">
          <dt>${esc(t("Commitment (SHA-256, published before the reveal)"))}</dt><dd class="hash" data-testid="commitment">${esc(record.commitment)}</dd>
          <dt>${esc(t("Revealed seed"))}</dt><dd class="hash" data-testid="seed">${esc(record.seed || t("not revealed yet"))}</dd>
        </dl>${checkHtml(checked.get(record.commitment))}`;
    } else {
      proof = `<p class="small muted">${esc(d.conducted_by
        ? t("Physical draw, conducted by {arbiter}.", { arbiter: d.conducted_by })
        : t("Physical draw, conducted by the arbiter."))}</p>`;
    }
    return `<li class="draw" data-testid="draw-${esc(d.kind)}-${d.match}">${esc(d.text)}${proof}</li>`;
  });
  return `<h2>${esc(t("Lots and coin tosses"))}</h2>${items.length ? `<ul class="plain">${items.join("")}</ul>` : `<p class="muted">${esc(t("None drawn yet."))}</p>`}`;
}

export function overridesHtml(overrides, ui) {
  const forms = [overrides.move_start, overrides.postpone, overrides.time_control,
    overrides.restore_time_control, overrides.deadline]
    .filter((form) => form && (!form.role || form.role === ui.role));
  const sections = forms.map((form) => `
      <details class="override" id="ov-${esc(form.name)}" data-testid="${esc(form.name)}"${form.open ? " open" : ""}>
        <summary class="btn btn-quiet">${esc(form.title)}</summary>
        ${formHtml(ui, form)}
      </details>`).join("");
  return `<h2>${esc(t("Arbiter overrides"))}</h2><p class="muted small">${esc(t("Each needs a reason; it is logged with your token. To correct a result, open “Correct the result” under the game, in its match."))}</p>${sections}`;
}

export function changesHtml(changes) {
  const line = (c) => `<li data-testid="change-${esc(c.type)}"><span class="muted">${esc(c.when)} · ${esc(c.by)}</span>
      ${esc(c.text)}${c.reason ? ` — <em>${esc(c.reason)}</em>` : ""}
      ${c.voided.length ? `<div class="voided" data-testid="change-voided">${esc(t("Voided:"))}<ul>${c.voided.map((v) => `<li>${esc(v)}</li>`).join("")}</ul></div>` : ""}</li>`;
  return `<h2>${esc(t("Changes by arbiters"))}</h2>${changes.length ? `<ul class="plain">${changes.slice().reverse().map(line).join("")}</ul>` : `<p class="muted">${esc(t("None."))}</p>`}`;
}

export function placingsHtml(placings) {
  const rows = placings.map((r) => `<tr><td>${esc(r.place)}</td><td>${esc(r.player)}${r.basis ? `<br><span class="muted small" data-testid="place-basis">${esc(r.basis)}</span>` : ""}</td><td>${esc(r.score)}</td><td>${esc(r.money)}</td><td>${esc(r.points)}</td></tr>`).join("");
  const head = [t("Place"), t("Player"), t("Score"), t("Prize"), t("Points")].map((h) => `<th>${esc(h)}</th>`).join("");
  return `<h2>${esc(t("Final placings"))}</h2><table class="games"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
}

export function commandsHtml(log, slowMs, now, offset) {
  const items = log.slice(0, 12).map((r) => {
    const state = esc(r.status === "pending"
      ? (now - r.sentAt > slowMs ? t("pending — no answer yet, still waiting") : t("pending…"))
      : r.status === "ok" ? t("✓ done")
        : r.status === "already" ? t("already pressed: counted once") : t("✗ refused: {reason}", { reason: r.reason }));
    const time = hallTime(r.sentServerMs, offset, true);
    const via = r.via === "REST" ? t("sent while the live link was down at {time}", { time })
      : t("sent at {time}", { time });
    return `<li class="cmd cmd-${r.status}" data-testid="cmd" data-status="${r.status}" data-type="${esc(r.payload.type)}">
        <span>${esc(r.label)}</span> <span class="small muted">${esc(via)}</span>
        <span class="cmd-state">${state}</span></li>`;
  });
  return `<h2>${esc(t("Commands from this console"))}</h2>${items.length ? `<ul class="plain">${items.join("")}</ul>` : `<p class="muted">${esc(t("None yet."))}</p>`}`;
}

/** Alerts: a refusal ("error"), or a note that nothing went wrong ("info", not red). */
export function alertsHtml(alerts) {
  return alerts.map((a) => `
      <div class="alert alert-${a.tone === "info" ? "info" : "error"}" role="${a.tone === "info" ? "status" : "alert"}"
           data-testid="alert-${a.tone === "info" ? "info" : "error"}" data-code="${esc(a.code)}" data-answer="${a.answer ? "true" : "false"}">
        <div class="alert-text">
          <strong>${esc(a.title)}</strong>
          <p class="alert-reason" data-testid="alert-reason">${esc(a.reason)}</p>
          <p class="alert-advice" data-testid="alert-advice">${esc(a.advice)}</p>
        </div>
        <button type="button" class="btn btn-quiet" data-dismiss="${esc(a.id)}" data-testid="alert-dismiss">${esc(t("Dismiss"))}</button>
      </div>`).join("");
}
