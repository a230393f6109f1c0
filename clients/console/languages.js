/* The consoles' languages: the one an arbiter reads the console in (chosen on its
 * switch and remembered in this browser, else the browser's own), and the choice of
 * the language a key opens its screen or tablet in.
 *
 * The languages a key may be made in are the service's (orchestrator/languages.py
 * LANGUAGES, the values `POST /api/events/{event}/tokens` takes as "language"), each
 * named in itself: written here so that a console in English asks the service for
 * nothing.
 */

import { esc } from "../common/html.js";

export const LANGUAGE_KEY = "arbiter-console:language";  // the language chosen on a console

export const KEY_LANGUAGES = [
  { code: "en", name: "English" },
  { code: "es", name: "Español" },
  { code: "fr", name: "Français" },
  { code: "de", name: "Deutsch" },
  { code: "ru", name: "Русский" },
  { code: "en-XA", name: "[Þšéûðö]" },
];

/** The language a console asks for: the one chosen on it, else the browser's. A
 * browser in English asks for nothing: the page is written in it. */
export function chosenLanguage() {
  const asked = localStorage.getItem(LANGUAGE_KEY) || navigator.language || "en";
  return /^en(?:$|[-_](?!xa$))/i.test(asked) ? "en" : asked;
}

/** The browser itself reads English (its requests ask for it, or for nothing of ours). */
export function browserReadsEnglish() {
  return /^en(?:$|[-_](?!xa$))/i.test(navigator.language || "en");
}

/** A <select> of the languages a key may be made in, `chosen` selected, under `label`
 * (already in the console's language); `attrs` marks it for the panel that reads it. */
export function keyLanguageHtml(label, chosen, attrs) {
  const options = KEY_LANGUAGES.map(({ code, name }) =>
    `<option value="${esc(code)}" lang="${esc(code)}"${code === chosen ? " selected" : ""}>${esc(name)}</option>`).join("");
  return `<label class="field inline small">${esc(label)}
      <select ${attrs}>${options}</select></label>`;
}
