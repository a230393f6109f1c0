/* The hall display of a main event before its play-off: /display/events/{event}#key=<display key>.
 *
 * It renders the event's hall view (its one REST read, kind=hall,
 * docs/protocol.md): the event's name, and the play-off watch line only while the
 * chief arbiter shows it (the server leaves it out otherwise). Once the play-off is
 * built, the view names it and the screen follows it to the play-off's display. The server holds
 * each request until the event changes, so a result or the switch shows at once.
 * The key stays in the address's fragment, which the browser never sends; it
 * travels in the Authorization header only.
 */

import { setText } from "../common/html.js";

const where = /\/display\/events\/([^/]+)\/?$/.exec(location.pathname);
const EVENT = where ? decodeURIComponent(where[1]) : "";
const KEY = new URLSearchParams(location.hash.slice(1)).get("key") || "";
const WAIT_S = 20;

const $ = (id) => document.getElementById(id);

function show(state, words) {
  const status = $("status");
  status.dataset.state = state;
  setText(status, words);
}

/** Take the key out of the address: one that can send commands must not stay on a
 * public screen. */
function forgetKey() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  fragment.delete("key");
  const rest = fragment.toString();
  history.replaceState(history.state, "", location.pathname + location.search + (rest ? `#${rest}` : ""));
}

function render(view) {
  if (view.playoff) {
    // The play-off is built: this screen follows it, with the same key.
    location.replace(`/display/${encodeURIComponent(view.playoff)}#key=${encodeURIComponent(KEY)}`);
    return;
  }
  setText($("title"), view.title);
  document.title = view.title;
  const line = $("line");
  line.hidden = !view.line;
  setText(line, view.line || "");
}

async function run() {
  let seq = -1;
  let failures = 0;
  for (;;) {
    try {
      // screen=hall: a hall screen takes a display key only (the server refuses
      // any token that can send commands, and says how to make a display key).
      const response = await fetch(
        `/api/events/${encodeURIComponent(EVENT)}/view?kind=hall&screen=hall&after=${seq}&wait=${seq < 0 ? 0 : WAIT_S}`,
        { headers: { Authorization: `Bearer ${KEY}` }, cache: "no-store" });
      if (response.status === 401 || response.status === 403 || response.status === 404) {
        let detail = null;
        try { detail = (await response.json()).detail; } catch (err) { detail = null; }
        if (response.status === 403) forgetKey();
        show("refused", typeof detail === "string" ? detail : `refused (${response.status})`);
        return;
      }
      if (!response.ok) throw new Error(String(response.status));
      const view = await response.json();
      seq = view.seq;
      failures = 0;
      render(view);
      show("live", "live");
    } catch (err) {
      failures += 1;
      show("reconnecting", "offline · reconnecting…");
      await new Promise((done) => setTimeout(done, Math.min(5000, 500 * 2 ** failures)));
    }
  }
}

run();
