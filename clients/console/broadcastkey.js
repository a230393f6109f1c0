/* The chief arbiter's "Broadcast feed" panel: makes a broadcast key and gives the
 * feed's address (the key in its query) for a broadcast platform to poll.
 *
 * The view says everything (`broadcast_key`): the words, the request that makes the
 * key; the server's answer gives the feed of each play-off of the event, and this
 * panel shows this play-off's, in this tab alone.
 */

import { esc } from "../common/html.js";
import { t } from "../common/words.js";
import { mintKey } from "./hallkey.js";
import { patch } from "./patch.js";

const S = { link: null, error: null, busy: false };

/** Draw the panel into #broadcast-key for `role`, from `view.broadcast_key`. */
export function renderBroadcastKey(view, role) {
  const panel = document.getElementById("broadcast-key");
  if (!panel) return;
  const key = view && view.broadcast_key;
  const shown = Boolean(key && role && key.role === role);
  panel.hidden = !shown;
  if (!shown) {
    patch("broadcast-key", "");
    return;
  }
  const made = S.link ? `<p class="small">${esc(key.made)}</p>
      <input type="text" class="hall-key-link" data-testid="broadcast-link" readonly value="${esc(S.link)}">` : "";
  const error = S.error ? `<p class="error" role="alert" data-testid="broadcast-key-error">${esc(S.error)}</p>` : "";
  patch("broadcast-key", `<h2>${esc(key.title)}</h2>
      <p class="muted small">${esc(key.words)}</p>
      <button type="button" class="btn" data-testid="broadcast-key-make" data-broadcast-key${S.busy ? " disabled" : ""}>${esc(key.label)}</button>
      ${error}${made}`);
}

/** Listen for the panel's button; `current` gives the view, the play-off and the token. */
export function listenBroadcastKey(current, rerender) {
  document.addEventListener("click", async (e) => {
    if (!e.target.closest("[data-broadcast-key]") || S.busy) return;
    const { view, token, playoffId } = current();
    const key = view && view.broadcast_key;
    if (!key || !token) return;
    S.busy = true;
    S.error = null;
    rerender();
    try {
      const { answer, error } = await mintKey(key.request, token);
      if (error) {
        S.error = error;
      } else {
        const feed = (answer.feeds || []).find((f) => f.playoff === playoffId);
        S.link = feed ? `${location.origin}${feed.link}` : null;
      }
    } catch (err) {
      S.error = t("The server did not answer: check the network, then try again.");
    } finally {
      S.busy = false;
      rerender();
    }
  });
}
