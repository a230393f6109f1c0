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

/* Times of day are written in the event's time zone, which a view names
 * (`time_zone`, an IANA name such as "Asia/Tashkent"): the browser's own zone data
 * gives each instant the offset in force at that instant, so a play-off that crosses
 * a change of daylight-saving time reads right on both sides of it. A view that
 * names no zone (a play-off logged before zones) gives its fixed offset from UTC
 * (`utc_offset_minutes`). The machine the page runs on never decides. */

const formats = new Map();

/** Intl's formatter of HH:MM:SS in `name`, or null if this browser has no such zone. */
function zoneFormat(name) {
  if (!formats.has(name)) {
    let format = null;
    try {
      format = new Intl.DateTimeFormat("en-GB", {
        timeZone: name, hourCycle: "h23", hour: "2-digit", minute: "2-digit", second: "2-digit",
      });
    } catch (e) {
      format = null;  // RangeError: a zone this browser does not know
    }
    formats.set(name, format);
  }
  return formats.get(name);
}

/** The zone a view's times of day are written in: its zone's name where this
 * browser knows it, else its offset from UTC in minutes (0 when it gives neither). */
export function hallZone(view) {
  if (!view) return 0;
  if (typeof view.time_zone === "string" && view.time_zone && zoneFormat(view.time_zone)) {
    return view.time_zone;
  }
  const minutes = Number(view.utc_offset_minutes);
  return Number.isFinite(minutes) ? minutes : 0;
}

/** Hours, minutes and seconds of an instant in `zone`: an IANA name, an offset in
 * minutes, or anything else for this machine's own zone (the viewer's). */
function partsOf(ms, zone) {
  const format = typeof zone === "string" ? zoneFormat(zone) : null;
  if (format) {
    const parts = {};
    for (const p of format.formatToParts(new Date(ms))) parts[p.type] = Number(p.value);
    return [parts.hour % 24, parts.minute, parts.second];
  }
  if (typeof zone === "number" && Number.isFinite(zone)) {
    const d = new Date(ms + zone * 60000);
    return [d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()];
  }
  const d = new Date(ms);
  return [d.getHours(), d.getMinutes(), d.getSeconds()];
}

/** HH:MM of an instant (ms since the epoch) in `zone` (hallZone(view): the hall's
 * time, as the server names it); with no zone, in this machine's local time. */
export function clockTime(ms, zone) {
  if (ms === null || ms === undefined || Number.isNaN(ms)) return "—";
  const [h, m] = partsOf(ms, zone);
  return `${pad2(h)}:${pad2(m)}`;
}

/** HH:MM:SS of an instant. */
export function clockTimeSeconds(ms, zone) {
  if (ms === null || ms === undefined || Number.isNaN(ms)) return "—";
  const [h, m, s] = partsOf(ms, zone);
  return `${pad2(h)}:${pad2(m)}:${pad2(s)}`;
}

/** HH:MM (or HH:MM:SS) of an instant, ms since the epoch or ISO 8601, in the hall's
 * zone (hallZone(view)): both screens say the same time for the same instant,
 * whatever the zone of the browser. */
export function hallTime(when, zone = 0, seconds = false) {
  const ms = typeof when === "number" ? when : parseTime(when);
  if (ms === null || ms === undefined || Number.isNaN(ms)) return "—";
  return seconds ? clockTimeSeconds(ms, zone) : clockTime(ms, zone);
}

/** HH:MM of an instant in the viewer's own zone (this browser's), for a broadcast
 * followed from abroad. */
export function viewerTime(ms) {
  return clockTime(ms, null);
}

/** An ISO 8601 instant from the server, as ms since the epoch (NaN if none). */
export function parseTime(text) {
  if (!text) return NaN;
  // Python gives microseconds: keep milliseconds for every browser's parser.
  return Date.parse(String(text).replace(/(\.\d{3})\d+/, "$1"));
}
