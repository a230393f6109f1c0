/* The e-boards (DGT, read through LiveChess by `playoff-arbiter dgt`) on the arbiter
 * console: which match each plays (set here), whether its forwarder reports it and
 * its battery, a position no legal move reaches, and a DGT clock that differs from
 * the service's.
 *
 * The view says everything (the arbiter view's `eboards`, docs/protocol.md): this
 * module renders it and sends `map-eboard`; the server refuses what is not allowed.
 */

import { esc } from "../common/html.js";
import { hallTime } from "../common/time.js";
import { t } from "../common/words.js";

/** The e-boards section of the board clocks card ("" when there are none). */
export function eboardsHtml(view, offset) {
  const eboards = (view && view.eboards) || [];
  if (!eboards.length) return "";
  const matches = (view.matches || []).map((m) => ({ id: m.id, title: m.title }));
  const rows = eboards.map((e) => {
    const options = [`<option value=""${e.match === null ? " selected" : ""}>${esc(t("On no match"))}</option>`]
      .concat(matches.map((m) => `<option value="${m.id}"${e.match === m.id ? " selected" : ""}>${esc(m.title)}</option>`));
    const heard = e.last_heard_ms ? t("last heard {time}", { time: hallTime(e.last_heard_ms, offset, true) })
      : t("not reported yet");
    const power = e.battery ? t("battery {percent}", { percent: e.battery }) : "";
    const alerts = [e.unread, e.clock_gap].filter(Boolean).map((text) =>
      `<p class="eboard-alert" role="alert" data-testid="eboard-alert-${esc(e.serial)}">${esc(text)}</p>`).join("");
    return `<div class="eboard" data-testid="eboard-${esc(e.serial)}">
        <p class="small"><strong>${esc(t("E-board {serial}", { serial: e.serial }))}</strong>
          <span class="pill ${e.heard ? "pill-live" : "pill-off"}">${esc(e.heard ? e.state || t("reported") : t("not heard"))}</span>
          <span>${esc(heard)}</span> ${power ? `<span data-testid="eboard-battery-${esc(e.serial)}">${esc(power)}</span>` : ""}</p>
        <label class="field inline small">${esc(t("Plays"))}
          <select data-eboard-map="${esc(e.serial)}" data-testid="eboard-map-${esc(e.serial)}">${options.join("")}</select></label>
        ${alerts}</div>`;
  }).join("");
  return `<h3>${esc(t("E-boards (DGT)"))}</h3>${rows}`;
}

/** Listen for the map controls; `send` is the console's own. */
export function listenEboards(send) {
  document.addEventListener("change", (e) => {
    const select = e.target.closest("[data-eboard-map]");
    if (!select) return;
    const serial = select.dataset.eboardMap;
    const match = select.value ? Number(select.value) : null;
    send(`eboard-${serial}`, match === null ? t("E-board {serial} off its match", { serial })
      : t("E-board {serial} on match {match}", { serial, match }),
      { type: "map-eboard", serial, match });
  });
}
