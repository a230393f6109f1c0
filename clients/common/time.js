/* Time on the page: a monotonic local clock, and how times are written.
 *
 * The server sends instants in its own milliseconds (server_ms); a page converts
 * with the offset its connection measured. Clocks and countdowns are the server's
 * values counted down locally between frames, never recomputed from rules.
 */

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

/** A chess clock reading: 1:05:09, 25:00, 5:59, 0:42, then tenths under 10 s: 9.4. */
export function formatClock(ms) {
  ms = Math.max(0, Math.floor(ms));
  if (ms < 10000) {
    const tenths = Math.floor(ms / 100);
    return `${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const s = Math.ceil(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}:${pad2(m)}:${pad2(s % 60)}` : `${m}:${pad2(s % 60)}`;
}

/** A countdown to an instant: 1:05:09, 9:45, 0:07. */
export function formatCountdown(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}:${pad2(m)}:${pad2(s % 60)}` : `${m}:${pad2(s % 60)}`;
}

/** HH:MM of an instant (ms since the epoch), in the hall's local time. */
export function clockTime(ms) {
  if (ms === null || ms === undefined || Number.isNaN(ms)) return "—";
  const d = new Date(ms);
  return `${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

/** HH:MM:SS of an instant. */
export function clockTimeSeconds(ms) {
  const d = new Date(ms);
  return `${clockTime(ms)}:${pad2(d.getSeconds())}`;
}

/** An ISO 8601 instant from the server, as ms since the epoch (NaN if none). */
export function parseTime(text) {
  if (!text) return NaN;
  // Python gives microseconds: keep milliseconds for every browser's parser.
  return Date.parse(String(text).replace(/(\.\d{3})\d+/, "$1"));
}
