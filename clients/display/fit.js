/* Names that fit their place: a name is never broken inside a word and never cut.
 *
 * An element marked data-fit shows data-full; where that does not fit on one
 * line it shows data-short (the family name the view gives), and where that
 * still does not fit, a smaller type, down to the hall's smallest (--t-min, the
 * size read from ten metres). Only then may it wrap, between words, and where
 * even that does not fit it is marked data-shown="overflow" for the layout to
 * give it more room. This is layout alone: the words are the server's.
 */

const STEP = 0.92;

function overflows(el) {
  return el.scrollWidth > el.clientWidth + 1;
}

function smallestPx() {
  const probe = document.getElementById("probe-min");
  return probe ? parseFloat(getComputedStyle(probe).fontSize) || 0 : 0;
}

function fitOne(el, min) {
  el.style.fontSize = "";
  el.style.whiteSpace = "";
  const full = el.dataset.full ?? el.textContent;
  const short = el.dataset.short || full;
  if (el.textContent !== full) el.textContent = full;
  el.dataset.shown = "full";
  if (!overflows(el)) return;
  if (short !== full) {
    el.textContent = short;
    el.dataset.shown = "short";
    if (!overflows(el)) return;
  }
  let size = parseFloat(getComputedStyle(el).fontSize);
  while (overflows(el) && size > min) {
    size = Math.max(min, size * STEP);
    el.style.fontSize = `${size}px`;
  }
  if (overflows(el)) {
    el.style.whiteSpace = "normal";
    el.dataset.shown = "wrapped";
  }
  // Still too long for its place: the page's layout gives it a line of its own.
  if (overflows(el)) el.dataset.shown = "overflow";
}

/** Fit every marked name under `root` (the whole page by default). */
export function fitNames(root = document) {
  const min = smallestPx();
  for (const el of root.querySelectorAll("[data-fit]")) fitOne(el, min);
}
