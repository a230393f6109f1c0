/* The chief arbiter's "Hall display key" panel: makes a display key for this
 * play-off's hall screens, in the language chosen for them (the console's unless
 * another is chosen), and gives the address to open on a screen.
 *
 * The view says everything (orchestrator/views/arbiter/, `hall_key`): the words,
 * the request that makes the key (POST /api/events/{event}/tokens with
 * {"role": "display"}) and the display's address the new key follows. The panel
 * is shown to the role the view names (the chief arbiter); the key is made only
 * when the chief arbiter asks, and shown in this tab alone.
 */

import { detailText } from "../common/connection.js";
import { esc } from "../common/html.js";
import { language, t } from "../common/words.js";
import { keyLanguageHtml } from "./languages.js";
import { patch } from "./patch.js";

const S = { link: null, error: null, busy: false, language: null };

/** The language the screens open in: the one chosen here, else the console's. */
function screensLanguage() {
  return S.language || language();
}

/** Draw the panel into #hall-key for `role`, from `view.hall_key`. */
export function renderHallKey(view, role) {
  const panel = document.getElementById("hall-key");
  const hallKey = view && view.hall_key;
  const shown = Boolean(hallKey && role && hallKey.role === role);
  panel.hidden = !shown;
  if (!shown) {
    patch("hall-key", "");
    return;
  }
  const made = S.link ? `<p class="small">${esc(hallKey.made)}</p>
      <input type="text" id="hall-key-link" class="hall-key-link" data-testid="hall-key-link"
             readonly value="${esc(S.link)}">` : "";
  const error = S.error ? `<p class="error" role="alert" data-testid="hall-key-error">${esc(S.error)}</p>` : "";
  patch("hall-key", `<h2>${esc(hallKey.title)}</h2>
      <p class="muted small">${esc(hallKey.words)}</p>
      ${keyLanguageHtml(t("Language of the screens"), screensLanguage(),
    'data-hall-key-language data-testid="hall-key-language" id="hall-key-language"')}
      <button type="button" class="btn" data-testid="hall-key-make" data-hall-key${S.busy ? " disabled" : ""}>${esc(hallKey.label)}</button>
      ${error}${made}`);
}

/**
 * Send the request a key panel names (POST /api/events/{event}/tokens) with the
 * token in its header: `{answer}` once made, `{error}` in the server's words if
 * refused. A failure to reach the server throws.
 */
export async function mintKey({ method, path, body }, token) {
  const response = await fetch(path, {
    method, body: JSON.stringify(body), cache: "no-store", credentials: "omit",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
  });
  let answer = null;
  try { answer = await response.json(); } catch (err) { answer = null; }
  if (!response.ok) {
    return { error: detailText(answer && answer.detail) || t("refused ({status})", { status: response.status }) };
  }
  return { answer };
}

/**
 * Listen for the panel's button. `current` gives the view, the role and the token
 * now; `rerender` draws the panel again once the key is made (or refused).
 */
export function listenHallKey(current, rerender) {
  document.addEventListener("change", (e) => {
    if (e.target.closest("[data-hall-key-language]")) S.language = e.target.value;
  });
  document.addEventListener("click", async (e) => {
    if (!e.target.closest("[data-hall-key]") || S.busy) return;
    const { view, token } = current();
    const hallKey = view && view.hall_key;
    if (!hallKey || !token) return;
    const { method, path, body } = hallKey.request;
    S.busy = true;
    S.error = null;
    rerender();
    try {
      const { answer, error } = await mintKey(
        { method, path, body: { ...body, language: screensLanguage() } }, token);
      if (error) S.error = error;
      else S.link = `${location.origin}${hallKey.page}${encodeURIComponent(answer.token)}`;
    } catch (err) {
      S.error = t("The server did not answer: check the network, then try again.");
    } finally {
      S.busy = false;
      rerender();
    }
  });
}
