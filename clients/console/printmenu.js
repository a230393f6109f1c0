/* The "Print" menu of the consoles: the PDFs the view offers (`printing`: the result
 * slips, one game's slip, the board cards, the standings, the bracket and schedule,
 * the placings and prizes; on the event console, its standings), each on A4 or US
 * Letter, worded in the console's language (its address says `lang=`, unless the
 * console and the browser both read English: the service then reads the browser's).
 *
 * A link cannot carry the token, which travels in a header and never in an address:
 * the PDF is fetched with the token in its Authorization header, then opened as a
 * blob URL in a tab opened at the click (so that no popup blocker stops it), and
 * offered as a file to save as well. What cannot be printed yet says why, in the
 * service's words (the view's, or the refusal the service answers).
 */

import { detailText } from "../common/connection.js";
import { esc } from "../common/html.js";
import { language, t } from "../common/words.js";
import { browserReadsEnglish } from "./languages.js";
import { patch } from "./patch.js";

const PAPER_KEY = "console:print-paper";

const S = {
  paper: sessionStorage.getItem(PAPER_KEY) || "a4",
  busy: null,     // the label of the PDF being made
  error: null,
  made: null,     // { label, href, name }: the last PDF, to open or save again
};

function entryHtml(entry, index, group) {
  const busy = S.busy !== null;
  const refused = entry.refusal
    ? `<span class="print-refusal small muted" data-testid="print-refusal-${esc(entry.what)}">${esc(entry.refusal)}</span>`
    : "";
  return `<li><button type="button" class="btn" data-print="${group}:${index}"
      data-testid="print-${esc(entry.what)}" ${entry.refusal || busy ? "disabled" : ""}
      title="${esc(entry.refusal || "")}">${esc(entry.label)}</button>${refused}</li>`;
}

/** Draw the menu into the element `id` from `menu` (a view's `printing`), or hide it. */
export function renderPrintMenu(id, menu) {
  const panel = document.getElementById(id);
  if (!panel) return;
  panel.hidden = !menu;
  if (!menu) {
    patch(id, "");
    return;
  }
  if (!menu.papers.some((p) => p.value === S.paper)) S.paper = menu.papers[0].value;
  const papers = menu.papers.map((p) => `<label class="print-paper">
      <input type="radio" name="print-paper" value="${esc(p.value)}" data-print-paper
        data-testid="print-paper-${esc(p.value)}" ${p.value === S.paper ? "checked" : ""}>
      ${esc(p.label)}</label>`).join("");
  const entries = menu.entries.map((e, i) => entryHtml(e, i, "entries")).join("");
  const games = menu.games.length ? `<div class="print-game">
      <label class="field"><span>${esc(t("One game's result slip"))}</span>
        <select data-print-game data-testid="print-game">${menu.games.map((g) =>
          `<option value="${esc(g.path)}">${esc(g.label)}</option>`).join("")}</select>
      </label>
      <button type="button" class="btn" data-print-one data-testid="print-one-slip"
        ${S.busy !== null ? "disabled" : ""}>${esc(t("Print its slip"))}</button></div>` : "";
  const busy = S.busy !== null
    ? `<p class="small" role="status" data-testid="print-busy">${esc(t("Making the PDF: {what}…", { what: S.busy }))}</p>` : "";
  const error = S.error
    ? `<p class="error" role="alert" data-testid="print-error">${esc(S.error)}</p>` : "";
  const made = S.made ? `<p class="small">${madeHtml(S.made)}</p>` : "";
  patch(id, `<h2>${esc(menu.title)}</h2>
      <p class="muted small">${esc(menu.words)}</p>
      <fieldset class="print-papers"><legend class="small muted">${esc(t("Paper"))}</legend>${papers}</fieldset>
      <ul class="print-list">${entries}</ul>${games}${busy}${error}${made}`);
}

/** The PDF last made: its name, a link to open it and one to save it. */
function madeHtml(made) {
  const parts = {
    what: esc(made.label),
    open: `<a href="${esc(made.href)}" target="_blank" rel="noopener" data-testid="print-open">${esc(t("open"))}</a>`,
    save: `<a href="${esc(made.href)}" download="${esc(made.name)}" data-testid="print-save">${esc(t("save {file}", { file: made.name }))}</a>`,
  };
  return esc(t("{what}: {open} · {save}")).replace(/\{(\w+)\}/g, (whole, key) => parts[key] ?? whole);
}

/** The PDF's address: its paper, and the console's language unless English goes
 * without saying (the browser reads it too). */
function printAddress(path, paper) {
  const lang = language() === "en" && browserReadsEnglish() ? "" : `&lang=${encodeURIComponent(language())}`;
  return `${path}${path.includes("?") ? "&" : "?"}paper=${encodeURIComponent(paper)}${lang}`;
}

async function printOne(entry, token, rerender) {
  const paper = S.paper;
  const url = printAddress(entry.path, paper);
  // Opened now, at the click: a tab opened once the PDF has come would be a popup.
  const tab = window.open("", "_blank");
  if (tab) {
    tab.document.title = t("Making the PDF…");
    tab.document.body.textContent = t("Making the PDF: {what}…", { what: entry.label });
  }
  S.busy = entry.label;
  S.error = null;
  rerender();
  try {
    const response = await fetch(url, {
      cache: "no-store", credentials: "omit", headers: { Authorization: `Bearer ${token}` },
    });
    if (!response.ok) {
      let answer = null;
      try { answer = await response.json(); } catch (err) { answer = null; }
      S.error = t("{what}: {reason}", {
        what: entry.label,
        reason: detailText(answer && answer.detail) || t("refused ({status})", { status: response.status }),
      });
      if (tab) tab.close();
      return;
    }
    const blob = await response.blob();
    if (S.made) URL.revokeObjectURL(S.made.href);
    const what = entry.path.split("/").pop().split(".")[0];
    S.made = { label: entry.label, href: URL.createObjectURL(blob), name: `${what}-${paper}.pdf` };
    if (tab) tab.location.href = S.made.href;
  } catch (err) {
    S.error = t("The server did not answer: check the network, then try again.");
    if (tab) tab.close();
  } finally {
    S.busy = null;
    rerender();
  }
}

/**
 * Listen for the menu's controls. `current` gives the menu and the token now;
 * `rerender` draws the menu again (busy, made, refused).
 */
export function listenPrintMenu(current, rerender) {
  document.addEventListener("change", (e) => {
    if (!e.target.closest("[data-print-paper]")) return;
    S.paper = e.target.value;
    sessionStorage.setItem(PAPER_KEY, S.paper);
  });
  document.addEventListener("click", (e) => {
    const { menu, token } = current();
    if (!menu || !token || S.busy !== null) return;
    const button = e.target.closest("[data-print]");
    if (button && !button.disabled) {
      const [group, index] = button.dataset.print.split(":");
      const entry = (menu[group] || [])[Number(index)];
      if (entry && !entry.refusal) printOne(entry, token, rerender);
      return;
    }
    if (e.target.closest("[data-print-one]")) {
      const select = document.querySelector("[data-print-game]");
      const entry = select ? menu.games.find((g) => g.path === select.value) : null;
      if (entry) printOne(entry, token, rerender);
    }
  });
}
