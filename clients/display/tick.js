/* What changes on the hall display between frames from the server: the clocks and
 * the countdown, counted from the server's values on the server's time. */

import { clockUrgency, formatClock, formatCountdown, remainingMs, viewerTime } from "../common/time.js";
import { setAttr, setText } from "../common/html.js";
import { t } from "../common/words.js";

const SIDES = ["white", "black"];

/**
 * Draw every clock of the view as it stands at server time `now`.
 * Only the side the server says runs counts down, and only while the link is up
 * and caught up (`synced`); `frozen`: the link is down, the clocks stand still.
 * Returns the clocks as drawn, by "m:g".
 */
export function tickClocks(view, now, synced, frozen) {
  const clocks = (view && view.clocks) || {};
  const drawn = {};
  for (const [key, clock] of Object.entries(clocks)) {
    const runs = synced ? clock.running : null;
    const entry = {
      match: clock.match, game: clock.game, running: runs, status: clock.status, frozen,
    };
    for (const side of SIDES) {
      const ms = remainingMs(clock, side, now);
      entry[`${side}_ms`] = ms;
      entry[`${side}_text`] = formatClock(ms);
    }
    drawn[key] = entry;
  }
  for (const el of document.querySelectorAll(".time[data-clock]")) {
    const entry = drawn[el.dataset.clock];
    if (!entry) continue;
    const side = el.dataset.side;
    const ms = entry[`${side}_ms`];
    const text = entry[`${side}_text`];
    const running = entry.running === side ? "true" : "false";
    setText(el, text);
    setAttr(el, "data-ms", String(ms));
    setAttr(el, "data-running", running);
    setAttr(el, "data-low", clockUrgency(ms));
    setAttr(el, "data-long", text.length > 5 ? "true" : "false");
    setAttr(el.parentNode, "data-running", running);
  }
  const words = (view && view.clock_status_text) || {};
  for (const card of document.querySelectorAll(".game[data-key]")) {
    const entry = drawn[card.dataset.key];
    if (!entry) continue;
    const status = card.querySelector('[data-role="status"]');
    setText(status, frozen ? t("connection lost: may be behind") : words[entry.status] || "");
    setAttr(card, "data-status", entry.status || "");
  }
  return drawn;
}

/**
 * The countdown on the page (one at most: the view has one target): an element
 * with data-until (server ms) shows the time left to it, as data-format says:
 * "plain" (9:45) or "in" (in 9:45 · 14:30, the instant as the server wrote it, and
 * with `viewerZone` the viewer's own time of it: in 9:45 · 14:30 · your time 10:30).
 */
export function tickCountdowns(now, viewerZone = false) {
  for (const el of document.querySelectorAll("[data-until]")) {
    const until = Number(el.dataset.until);
    const left = formatCountdown(until - now);
    const yours = viewerZone ? t(" · your time {time}", { time: viewerTime(until) }) : "";
    setText(el, el.dataset.format === "in"
      ? t("in {left} · {at}", { left, at: el.dataset.at || "" }) + yours : left);
  }
}
