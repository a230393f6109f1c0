/* Time on the page: a monotonic local clock, and how times are written.
 *
 * The server sends instants in its own milliseconds (server_ms); a page converts
 * with the offset its connection measured. Clocks and countdowns are the server's
 * values counted down locally between frames, never recomputed from rules.
 *
 * Every screen writes a chess clock with formatClock, so the hall and the arbiter
 * console always show the same reading of the same clock.
 */

/** Under this a clock shows tenths of a second (9.4). */
export const TENTHS_BELOW_MS = 10000;

/** Under this a clock is short of time (shown red). */
export const LOW_TIME_BELOW_MS = 60000;

/** Monotonic local milliseconds on the epoch scale: immune to wall-clock steps. */
export function localNow() {
  return performance.timeOrigin + performance.now();
}

const pad2 = (n) => (n < 10 ? "0" : "") + n;

/** The remaining time a clock object shows for `side` at server time `atMs`.
 * Only the side the server says runs counts down, from the clock's server_ms. */
export function remainingMs(clock, side, atMs) {
  let ms = Number(clock[`${side}_ms`]) || 0;
  if (clock.running === side) ms -= Math.max(0, atMs - (Number(clock.server_ms) || 0));
  return Math.max(0, Math.round(ms));
}

/**
 * A chess clock reading: 1:05:09, 25:00, 5:59, 0:42, then tenths under ten
 * seconds: 9.4, 0.0. One rounding throughout: the time is cut, never rounded up,
 * so a clock never shows more time than its side has left, and 0.0 only once it
 * has none.
 */
export function formatClock(ms) {
  ms = Math.max(0, Math.floor(Number(ms) || 0));
  if (ms < TENTHS_BELOW_MS) {
    const tenths = Math.floor(ms / 100);
    return `${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}:${pad2(m)}:${pad2(s % 60)}` : `${m}:${pad2(s % 60)}`;
}

/** How short of time a clock is: "critical" (tenths shown), "low" (red), or "no". */
export function clockUrgency(ms) {
  return ms < TENTHS_BELOW_MS ? "critical" : ms < LOW_TIME_BELOW_MS ? "low" : "no";
}

/** A countdown to an instant: 1:05:09, 9:45, 0:07 (it reads 0:00 when the instant comes). */
export function formatCountdown(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}:${pad2(m)}:${pad2(s % 60)}` : `${m}:${pad2(s % 60)}`;
}

/** HH:MM of an instant (ms since the epoch): at `offsetMinutes` from UTC when given
 * (the hall's time, as the server sends it), else in this machine's local time. */
export function clockTime(ms, offsetMinutes) {
  if (ms === null || ms === undefined || Number.isNaN(ms)) return "—";
  if (typeof offsetMinutes === "number" && Number.isFinite(offsetMinutes)) {
    const d = new Date(ms + offsetMinutes * 60000);
    return `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}`;
  }
  const d = new Date(ms);
  return `${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

/** HH:MM:SS of an instant. */
export function clockTimeSeconds(ms, offsetMinutes) {
  const seconds = typeof offsetMinutes === "number" && Number.isFinite(offsetMinutes)
    ? new Date(ms + offsetMinutes * 60000).getUTCSeconds()
    : new Date(ms).getSeconds();
  return `${clockTime(ms, offsetMinutes)}:${pad2(seconds)}`;
}

/** HH:MM (or HH:MM:SS) of an instant, ms since the epoch or ISO 8601, at the hall's
 * offset from UTC (a view's `utc_offset_minutes`): both screens say the same time for
 * the same instant, whatever the zone of the browser. */
export function hallTime(when, offsetMinutes = 0, seconds = false) {
  const ms = typeof when === "number" ? when : parseTime(when);
  if (ms === null || ms === undefined || Number.isNaN(ms)) return "—";
  return seconds ? clockTimeSeconds(ms, offsetMinutes) : clockTime(ms, offsetMinutes);
}

/** An ISO 8601 instant from the server, as ms since the epoch (NaN if none). */
export function parseTime(text) {
  if (!text) return NaN;
  // Python gives microseconds: keep milliseconds for every browser's parser.
  return Date.parse(String(text).replace(/(\.\d{3})\d+/, "$1"));
}
