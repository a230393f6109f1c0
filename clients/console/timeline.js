/* The schedule as an SVG timeline: a lane per match, its games and breaks in time,
 * where the last re-plan moved them from (ghosts), the deadline and now.
 * Everything placed comes from the view; this module only scales it to the width.
 * Lane labels are never cut: they wrap onto lines, and the lanes start after the
 * longest line.
 */

import { esc } from "../common/html.js";
import { hallTime, parseTime } from "../common/time.js";
import { t } from "../common/words.js";

const MINUTE = 60000;
const STEPS = [5, 10, 15, 30, 60, 120, 180, 240, 360].map((m) => m * MINUTE);
const LABEL_CHARS = 14;     // a lane label wraps at about this many characters a line
const CHAR_PX = 8;          // the width of a character of the labels' bold 13 px font, at most
const LINE_PX = 15;

/** A label's words on lines of about `LABEL_CHARS` characters (a longer word keeps its line). */
export function wrapLabel(label) {
  const lines = [];
  for (const word of String(label).split(/\s+/).filter(Boolean)) {
    const last = lines[lines.length - 1];
    if (last !== undefined && (last + " " + word).length <= LABEL_CHARS) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines.length ? lines : [""];
}

/** The timeline of a view's schedule, drawn `width` pixels wide, with the time now;
 * times of day in the hall's zone (`offset`: hallZone(view), a zone's name or minutes). */
export function timeline(schedule, width, nowMs, offset = 0) {
  const clockTime = (t) => hallTime(t, offset);
  const games = schedule.games || [];
  const breaks = schedule.breaks || [];
  const lanes = schedule.lanes || [];
  const now = Math.floor(nowMs / 15000) * 15000;  // a steady "now" line: redrawn every 15 s
  const deadline = parseTime(schedule.deadline);
  const times = [now];
  for (const g of games) {
    times.push(parseTime(g.start), parseTime(g.end));
    if (g.moved) times.push(parseTime(g.moved.from_start), parseTime(g.moved.from_end));
  }
  // Breaks do not stretch the time axis (the break after a main event that ended
  // yesterday would squeeze today's games): they are drawn where they meet it.
  if (!Number.isNaN(deadline)) times.push(deadline);
  const valid = times.filter((t) => !Number.isNaN(t));
  let t0 = Math.min(...valid);
  let t1 = Math.max(...valid);
  if (t1 - t0 < 30 * MINUTE) t1 = t0 + 30 * MINUTE;
  const pad = (t1 - t0) * 0.04;
  t0 -= pad;
  t1 += pad;
  const laneOf = new Map(lanes.map((lane, i) => [lane.match, i]));
  const W = Math.max(560, Math.round(width || 800));
  const wrapped = lanes.map((lane) => wrapLabel(lane.label));
  const longest = Math.max(0, ...wrapped.flat().map((line) => line.length));
  const left = Math.max(84, longest * CHAR_PX + 12);
  const laneH = Math.max(46, Math.max(1, ...wrapped.map((l) => l.length)) * LINE_PX + 16);
  const top = 24;
  const lanesEnd = top + Math.max(1, lanes.length) * laneH;
  const H = lanesEnd + 22;
  const x = (t) => left + ((t - t0) / (t1 - t0)) * (W - left - 10);
  const y = (lane) => top + (laneOf.get(lane) ?? 0) * laneH;
  const parts = [];
  const step = STEPS.find((s) => (t1 - t0) / s <= 8) || STEPS[STEPS.length - 1];
  for (let t = Math.ceil(t0 / step) * step; t <= t1; t += step) {
    parts.push(`<line class="tick" x1="${x(t)}" x2="${x(t)}" y1="${top - 4}" y2="${lanesEnd}"/>`);
    parts.push(`<text class="tick-label" x="${x(t)}" y="14" text-anchor="middle">${clockTime(t)}</text>`);
  }
  lanes.forEach((lane, i) => {
    const ly = top + i * laneH;
    const lines = wrapped[i];
    const first = ly + laneH / 2 + 5 - ((lines.length - 1) * LINE_PX) / 2;
    const spans = lines.map((line, n) => `<tspan x="6" y="${first + n * LINE_PX}">${esc(line)}</tspan>`).join("");
    parts.push(`<rect class="lane${i % 2 ? " odd" : ""}" x="0" y="${ly}" width="${W}" height="${laneH}"/>`);
    parts.push(`<text class="lane-label" data-testid="lane-label"><title>${esc(lane.label)}</title>${spans}</text>`);
  });
  if (!Number.isNaN(deadline) && schedule.fits === false) {  // behind the games: past the deadline
    const finish = parseTime(schedule.finish);
    parts.push(`<rect class="overrun" x="${x(deadline)}" y="${top}" width="${Math.max(0, x(finish) - x(deadline))}"
        height="${lanesEnd - top}"><title>${esc(t("over the deadline"))}</title></rect>`);
  }
  for (const b of breaks) {
    const from = Math.max(t0, parseTime(b.start));
    const to = Math.min(t1, parseTime(b.end));
    if (!(to > from)) continue;
    const bx = x(from);
    const bw = Math.max(2, x(to) - bx);
    parts.push(`<rect class="break ${esc(b.kind)}" x="${bx}" y="${y(b.lane) + 14}" width="${bw}" height="${laneH - 28}"
        data-testid="timeline-break"><title>${esc(b.reason)}</title></rect>`);
  }
  for (const g of games) {
    if (!g.moved) continue;
    const from = parseTime(g.moved.from_start);
    parts.push(`<rect class="ghost" x="${x(from)}" y="${y(g.lane) + 6}"
        width="${Math.max(3, x(parseTime(g.moved.from_end)) - x(from))}" height="${laneH - 12}"><title>${esc(t("before the re-plan"))}</title></rect>`);
  }
  for (const g of games) {
    const gx = x(parseTime(g.start));
    const gw = Math.max(3, x(parseTime(g.end)) - gx);
    const gy = y(g.lane);
    const classes = ["game", `st-${g.status}`, g.tentative ? "tentative" : "", g.fixed ? "fixed" : "",
      g.moved ? "moved" : "", g.kind].filter(Boolean).join(" ");
    parts.push(`<g class="${esc(classes)}" data-testid="timeline-game-${g.match}-${g.game}"
        data-tentative="${g.tentative}" data-moved="${Boolean(g.moved)}">
        <rect x="${gx}" y="${gy + 6}" width="${gw}" height="${laneH - 12}" rx="4"><title>${esc(t("{game}: {reason}", { game: g.title, reason: g.reason }))}</title></rect>
        ${gw > 20 ? `<text x="${gx + gw / 2}" y="${gy + laneH / 2 + 5}" text-anchor="middle">${esc(g.label)}${g.moved ? " ↻" : ""}</text>` : ""}
      </g>`);
  }
  if (!Number.isNaN(deadline)) {
    parts.push(`<line class="deadline" x1="${x(deadline)}" x2="${x(deadline)}" y1="${top - 4}" y2="${H - 4}" data-testid="timeline-deadline"/>`);
    parts.push(`<text class="deadline-label" x="${x(deadline) - 4}" y="${H - 6}" text-anchor="end">${esc(t("deadline {deadline}", { deadline: clockTime(deadline) }))}</text>`);
  }
  parts.push(`<line class="now" x1="${x(now)}" x2="${x(now)}" y1="${top - 4}" y2="${H - 4}"/>`);
  parts.push(`<text class="now-label" x="${x(now) + 4}" y="${H - 6}">${esc(t("now"))}</text>`);
  return `<div class="timeline-wrap"><svg class="timeline" data-testid="timeline" data-lanes-x="${left}" viewBox="0 0 ${W} ${H}" role="img"
      aria-label="${esc(timelineLabel(games.length, Number.isNaN(deadline) ? null : clockTime(deadline)))}">${parts.join("")}</svg></div>
    <p class="legend small">${legend()}</p>`;
}

/** What the timeline shows, for a screen reader. */
function timelineLabel(count, deadline) {
  return deadline === null ? t("Schedule timeline: {count} games", { count })
    : t("Schedule timeline: {count} games, deadline {deadline}", { count, deadline });
}

/** The key to the timeline's colours. */
function legend() {
  const keys = [["planned", t("planned")], ["tentative", t("tentative")], ["running", t("running")],
    ["played", t("played")], ["break", t("break")], ["moved", t("moved")], ["deadline", t("deadline")],
    ["now", t("now")]];
  return keys.map(([kind, words]) => `<span class="key k-${kind}"></span>${esc(words)}`).join(" ");
}
