/* The words a page writes itself (its labels and buttons), in the page's language.
 *
 * Everything else a page shows comes worded by the server in the language of its key
 * (or of `?lang=`); these few are fetched once, from /api/languages/{code}, which
 * gives them from the same catalogs. A message names its parameters ({name}), so
 * each language orders its own words; a message missing from the catalog reads as
 * written (English). Elements with `data-t` are written in HTML in English and
 * translated by translatePage().
 */

let words = {};
let code = "en";

/** The language asked for in the page's address (`?lang=es`), or null. */
export function askedLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  return asked ? asked.trim() : null;
}

/** Take the page words the server gave (in a websocket's welcome). */
export function setWords(lang, given) {
  if (!lang) return;
  words = given || {};
  code = lang;
  document.documentElement.lang = code;
  translatePage();
}

/** Fetch the page words of `lang` (a tag of ours, or another: then English). */
export async function useLanguage(lang, prefix = "") {
  if (!lang || lang === code) return code;
  try {
    const res = await fetch(`${prefix}/api/languages/${encodeURIComponent(lang)}`);
    if (!res.ok) return code;
    const data = await res.json();
    words = data.words || {};
    code = data.code || "en";
  } catch (err) {
    return code;  // the words stay as they were: English at worst
  }
  document.documentElement.lang = code;
  translatePage();
  return code;
}

/** The language the page speaks now. */
export function language() {
  return code;
}

/** `message` in the page's language, its {parameters} filled in. */
export function t(message, params = {}) {
  const text = Object.prototype.hasOwnProperty.call(words, message) ? words[message] : message;
  return text.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

/** Write every `data-t` element of the page (its English text kept in data-t). */
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-t]")) {
    if (!el.dataset.t) el.dataset.t = el.textContent.trim();
    el.textContent = t(el.dataset.t);
  }
  for (const el of root.querySelectorAll("[data-t-title]")) {
    el.title = t(el.dataset.tTitle);
  }
  for (const el of root.querySelectorAll("[data-t-label]")) {
    el.setAttribute("aria-label", t(el.dataset.tLabel));
  }
}
