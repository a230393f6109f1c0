/* Bringing a region of the page up to date with new HTML, in place.
 *
 * Nodes that stay keep what the arbiter typed, the focus, an open <details> and a
 * finger on a button; only what changed changes. A node that had to be replaced
 * gets back the value its predecessor held (same id).
 */

const rendered = new Map();  // region id -> the HTML it shows

/** Put `html` into the element `id`, changing only what differs from what it shows. */
export function patch(id, html) {
  const el = document.getElementById(id);
  if (!el || rendered.get(id) === html) return;
  rendered.set(id, html);
  const before = new Map();
  for (const input of el.querySelectorAll("input[id], select[id], textarea[id], details[id]")) {
    before.set(input.id, { node: input, value: input.value, checked: input.checked, open: input.open });
  }
  const active = document.activeElement;
  const focused = active && el.contains(active) ? active : null;
  const template = document.createElement("template");
  template.innerHTML = html;
  morphChildren(el, template.content);
  for (const [nodeId, was] of before) {
    const now = document.getElementById(nodeId);
    if (!now || now === was.node) continue;
    if (now.tagName === "DETAILS") now.open = was.open;
    else if (now.type === "radio" || now.type === "checkbox") now.checked = was.checked;
    else if (now.tagName !== "SELECT" || [...now.options].some((o) => o.value === was.value)) {
      now.value = was.value;
    }
  }
  if (focused && !focused.isConnected && focused.id) {
    const again = document.getElementById(focused.id);
    if (again) again.focus();
  }
}

function sameNode(a, b) {
  if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName) return false;
  if (a.nodeType !== Node.ELEMENT_NODE) return true;
  return (a.id || "") === (b.id || "")
    && a.getAttribute("data-testid") === b.getAttribute("data-testid");
}

function morphChildren(live, next) {
  const old = Array.from(live.childNodes);
  const fresh = Array.from(next.childNodes);
  fresh.forEach((node, i) => {
    const have = old[i];
    if (!have) live.appendChild(node);
    else if (!sameNode(have, node)) live.replaceChild(node, have);
    else if (have.nodeType === Node.ELEMENT_NODE) morphElement(have, node);
    else if (have.nodeValue !== node.nodeValue) have.nodeValue = node.nodeValue;
  });
  for (let i = fresh.length; i < old.length; i++) live.removeChild(old[i]);
}

function morphElement(live, next) {
  // Opened or closed by the arbiter: theirs, whatever the new HTML says.
  const keepOpen = live.tagName === "DETAILS";
  for (const { name } of Array.from(live.attributes)) {
    if (keepOpen && name === "open") continue;
    if (!next.hasAttribute(name)) live.removeAttribute(name);
  }
  for (const { name, value } of Array.from(next.attributes)) {
    if (keepOpen && name === "open") continue;
    if (live.getAttribute(name) !== value) live.setAttribute(name, value);
  }
  if (live.tagName === "SELECT") {
    // Options come and go with the view; the choice stays while it is offered.
    const chosen = live.value;
    morphChildren(live, next);
    if ([...live.options].some((o) => o.value === chosen)) live.value = chosen;
    return;
  }
  morphChildren(live, next);
}
