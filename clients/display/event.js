/* The hall display of a main event before its play-off: /display/events/{event}#key=<display key>.
 *
 * It renders the event's hall view (its one REST read, kind=hall,
 * docs/protocol.md): the event's name, and the play-off watch line only while the
 * chief arbiter shows it (the server leaves it out otherwise). Once the play-off is
 * built, the view names it and the screen follows it to the play-off's display. The server holds
 * each request until the event changes, so a result or the switch shows at once.
 * The key stays in the address's fragment, which the browser never sends; it
 * travels in the Authorization header only.
 *
 * The screen speaks the language its address asks for (`?lang=es`, passed on to the
 * view), else its display key's: the view comes worded in it and its answer's
 * Content-Language names it, which the page's own words follow.
 */

import { setText } from "../common/html.js";
import { askedLanguage, t, useLanguage } from "../common/words.js";

const where = /\/display\/events\/([^/]+)\/?$/.exec(location.pathname);
const EVENT = where ? decodeURIComponent(where[1]) : "";
const KEY = new URLSearchParams(location.hash.slice(1)).get("key") || "";
const WAIT_S = 20;
// The language the address asks for, as the service names it ("es" for "es-ES"),
// passed on to the view; null for none, or one the service does not speak (the key's
// language then).
let asked = askedLanguage();
let rendered = false;  // a view is on the screen (its title replaces the placeholder)

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
    // The play-off is built: this screen follows it, with the same key and language.
    location.replace(`/display/${encodeURIComponent(view.playoff)}${location.search}`
      + `#key=${encodeURIComponent(KEY)}`);
    return;
  }
  rendered = true;
  setText($("title"), view.title);
  document.title = view.title;
  const line = $("line");
  line.hidden = !view.line;
  setText(line, view.line || "");
}

async function run() {
  let seq = -1;
  let failures = 0;
  if (asked) {
    const code = await useLanguage(asked);
    asked = code !== "en" || /^en\b/i.test(asked) ? code : null;
    placeholders();
  }
  for (;;) {
    try {
      // screen=hall: a hall screen takes a display key only (the server refuses
      // any token that can send commands, and says how to make a display key).
      const language = asked ? `&lang=${encodeURIComponent(asked)}` : "";
      const response = await fetch(
        `/api/events/${encodeURIComponent(EVENT)}/view?kind=hall&screen=hall&after=${seq}&wait=${seq < 0 ? 0 : WAIT_S}${language}`,
        { headers: { Authorization: `Bearer ${KEY}` }, cache: "no-store" });
      if (response.status === 422 && asked) {
        asked = null;  // a language the service does not speak: the key's, at once
        continue;
      }
      if (response.status === 401 || response.status === 403 || response.status === 404) {
        let detail = null;
        try { detail = (await response.json()).detail; } catch (err) { detail = null; }
        if (response.status === 403) forgetKey();
        show("refused", typeof detail === "string" ? detail
          : t("refused ({status})", { status: response.status }));
        return;
      }
      if (!response.ok) throw new Error(String(response.status));
      const view = await response.json();
      await useLanguage(response.headers.get("Content-Language"));
      seq = view.seq;
      failures = 0;
      render(view);
      show("live", t("live"));
    } catch (err) {
      failures += 1;
      show("reconnecting", t("offline · reconnecting…"));
      await new Promise((done) => setTimeout(done, Math.min(5000, 500 * 2 ** failures)));
    }
  }
}

/** The page's words before its first view, in the language asked for. */
function placeholders() {
  if (!rendered) {
    setText($("title"), t("Hall display"));
    document.title = t("Hall display");
  }
  if ($("status").dataset.state === "connecting") setText($("status"), t("connecting…"));
}

run();
