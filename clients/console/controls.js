/* The view's controls as HTML, and the payloads they send.
 *
 * A control (a button) sends its `command` as it is. A control that follows a clock
 * (`clock`) applies while the clock as it now stands shows the values in `requires`,
 * and takes the payload fields named in `fill` from that clock: clock frames change
 * clocks between views. A form sends the fixed part of its action's payload with
 * the fields the arbiter completed: a chosen option sets the payload fields it
 * names; a typed value goes into its field (times the action's `scale`); a
 * checkbox sends true or false. A field with `shown_when` is shown (and enforced)
 * only while the fields it names hold one of the values given, and an option's
 * `caution` is shown while it is chosen. A control with `confirm` is sent only
 * after the arbiter confirms it (see `confirmHtml`), and so is a form action with
 * `confirm`, whose words quote what was chosen in the form (see `formChoices`). A
 * control refused until an instant (`wait`) says so with the time left, counting
 * down (see `waitText`). A form with a `role` is drawn only for a console of that
 * role.
 *
 * Nothing here knows what a command means: the view says it all.
 */

import { formatCountdown, hallTime } from "../common/time.js";
import { esc } from "../common/html.js";
import { t } from "../common/words.js";

/** The spinner of a pending command (its words for screen readers). */
function spinner() {
  return ` <span class="spinner" aria-hidden="true"></span><span class="sr">${esc(t("(pending)"))}</span>`;
}

/** The controls drawn by the last render, by the key their element carries. */
export class ControlRegistry {
  constructor() {
    this.items = new Map();
  }

  clear() {
    this.items.clear();
  }

  add(kind, item) {
    const key = `${item.id}|${item.name}`;
    this.items.set(key, { kind, item });
    return key;
  }

  get(key) {
    return this.items.get(key) || null;
  }
}

/** The key a control's element carries (also the key of its confirmation). */
export function controlKey(control) {
  return `${control.id}|${control.name}`;
}

/** A label with `{field}` replaced by the payload's field of that name. */
export function fillLabel(label, payload) {
  return String(label).replace(/\{(\w+)\}/g, (whole, field) =>
    (payload && payload[field] !== undefined && payload[field] !== null ? String(payload[field]) : whole));
}

/** A refusal that holds until an instant (the view's `wait`), with the time left at
 * `nowMs` (server ms) where its words say `{left}`. */
export function waitText(wait, nowMs) {
  return String(wait.text).replace("{left}", formatCountdown(Number(wait.until_ms) - nowMs));
}

/** The attributes by which the page counts a control's `wait` down (see `tick`). */
function waitAttrs(wait) {
  return ` data-wait-until="${esc(wait.until_ms)}" data-wait-text="${esc(wait.text)}"`;
}

/** Whether the clock a control follows shows what the control requires. */
export function requirementsHold(control, clock) {
  return Object.entries(control.requires || {}).every(([field, value]) => String(clock[field]) === value);
}

/** A control's state now: for a control that follows a clock, from the clock as it stands. */
export function controlState(control, clocks) {
  const clock = control.clock ? clocks[control.clock] : null;
  if (!clock) return { enabled: control.enabled, refusal: control.refusal };
  const enabled = requirementsHold(control, clock);
  return { enabled, refusal: enabled ? null : control.refusal };
}

/** The payload a control sends now. */
export function controlPayload(control, clocks) {
  const payload = { ...control.command };
  const clock = control.clock ? clocks[control.clock] : null;
  if (clock) {
    for (const [field, from] of Object.entries(control.fill || {})) payload[field] = clock[from];
  }
  return payload;
}

/**
 * A button for a control.
 * @param ui {{registry: ControlRegistry, busy: (id: string) => boolean, clocks: object,
 *             armed: string|null}}
 */
export function button(ui, control, { cls = "", html = null, testid = null, hideWhenOff = false, attrs = "" } = {}) {
  const key = ui.registry.add("control", control);
  const busy = ui.busy(control.id);
  const { enabled, refusal } = controlState(control, ui.clocks);
  if (hideWhenOff && !enabled && !busy) return "";
  const armed = ui.armed === key;
  const label = html !== null ? html : esc(fillLabel(control.label, controlPayload(control, ui.clocks)));
  const detail = control.detail ? `<span class="small">${esc(control.detail)}</span>` : "";
  const classes = ["btn", control.primary ? "btn-primary" : "", cls, busy ? "is-pending" : "",
    armed ? "is-armed" : ""].filter(Boolean).join(" ");
  const waits = Boolean(control.wait) && !enabled && !busy;
  const tip = waits ? waitText(control.wait, ui.now) : refusal && !busy ? refusal : null;
  const title = tip ? ` title="${esc(tip)}"${waits ? waitAttrs(control.wait) : ""}` : "";
  const asks = control.confirm ? ` aria-haspopup="dialog" aria-expanded="${armed}"` : "";
  return `<button type="button" class="${classes}" data-control="${esc(key)}"${attrs}${asks}
      data-testid="${esc(testid || control.name)}"${title} aria-busy="${busy}"
      ${enabled && !busy ? "" : "disabled"}>${label}${detail}${busy ? spinner() : ""}</button>`;
}

/**
 * The confirmation of whichever of `controls` the arbiter tapped and must confirm:
 * what it does, in the server's words, and the buttons that send it or not.
 */
export function confirmHtml(ui, controls) {
  const control = controls.find((c) => c && c.confirm && ui.armed === controlKey(c));
  if (!control) return "";
  const key = controlKey(control);
  const label = fillLabel(control.label, controlPayload(control, ui.clocks));
  return `<div class="confirm" role="alertdialog" aria-label="${esc(t("Confirm {command}", { command: label }))}" data-testid="confirm">
      <p data-testid="confirm-text">${esc(control.confirm)}</p>
      <div class="row">
        <button type="button" class="btn btn-primary" data-confirm="${esc(key)}" data-testid="confirm-yes">${esc(t("Confirm: {command}", { command: label }))}</button>
        <button type="button" class="btn btn-quiet" data-cancel="1" data-testid="confirm-no">${esc(t("Cancel"))}</button>
      </div>
    </div>`;
}

/** Why a control or form cannot be used now, shown under it (`now`: server ms, for a
 * refusal that holds until an instant). */
export function refusalNote(item, clocks, now = 0) {
  const state = item.requires ? controlState(item, clocks) : item;
  if (state.enabled || !state.refusal) return "";
  if (item.wait) {
    return `<p class="refusal small" data-testid="refusal"${waitAttrs(item.wait)}>${esc(waitText(item.wait, now))}</p>`;
  }
  return `<p class="refusal small" data-testid="refusal">${esc(state.refusal)}</p>`;
}

/**
 * What the arbiter chose or typed in each field of a drawn form, as the form shows it
 * (a player's name, not the id it sends): the words a form action's `confirm` quotes.
 */
export function formChoices(form, element) {
  const shown = {};
  for (const field of form.fields) {
    const name = CSS.escape(field.name);
    if (field.input === "select") {
      const select = element.querySelector(`select[name="${name}"]`);
      const option = select && select.selectedOptions[0];
      shown[field.name] = option && option.value ? option.textContent.trim() : "";
    } else if (field.input === "radio") {
      const checked = element.querySelector(`input[name="${name}"]:checked`);
      shown[field.name] = checked ? checked.closest("label").textContent.trim() : "";
    } else if (field.input !== "checkbox") {
      const input = element.querySelector(`[name="${name}"]`);
      shown[field.name] = input ? String(input.value).trim() : "";
    }
  }
  return shown;
}

/** The confirmation of a form's action the arbiter submitted (`ui.confirming`). */
function formConfirmHtml(ui, key) {
  const armed = ui.confirming;
  if (!armed || armed.key !== key) return "";
  return `<div class="confirm" role="alertdialog" aria-label="${esc(t("Confirm {command}", { command: armed.label }))}" data-testid="confirm">
      <p data-testid="confirm-text">${esc(armed.text)}</p>
      <div class="row">
        <button type="button" class="btn btn-primary" data-confirm="${esc(key)}" data-testid="confirm-yes">${esc(t("Confirm: {command}", { command: armed.label }))}</button>
        <button type="button" class="btn btn-quiet" data-cancel="1" data-testid="confirm-no">${esc(t("Cancel"))}</button>
      </div>
    </div>`;
}

/** A stable DOM id for a form's field. */
export function fieldId(form, field) {
  return `f-${form.id}-${form.name}-${field.name}`.replace(/[^A-Za-z0-9_-]/g, "-");
}

function optionLabel(option, offset) {
  const at = option.at ? ` (${hallTime(option.at, offset)})` : "";
  return esc(option.label) + at;
}

/** What an option entails, shown while it is chosen (see `refreshForm`). */
function cautionsHtml(form, field, chosen) {
  return field.options.filter((o) => o.caution).map((o) => `
      <div class="caution" data-caution="${esc(fieldId(form, field))}" data-value="${esc(o.value)}"
           data-testid="${esc(field.test_id)}-caution"${o.value === chosen ? "" : " hidden"}>
        <strong>${esc(o.caution.text)}</strong>
        ${o.caution.items.length ? `<ul>${o.caution.items.map((i) => `<li>${esc(i)}</li>`).join("")}</ul>` : ""}
      </div>`).join("");
}

function fieldHtml(form, field, offset) {
  const id = fieldId(form, field);
  const required = field.required ? " required" : "";
  const attr = (name, value) => (value === null || value === undefined ? "" : ` ${name}="${esc(value)}"`);
  switch (field.input) {
    case "select": {
      // An empty value can be a choice ("every match"): only a placeholder makes the
      // arbiter choose.
      const placeholder = field.placeholder
        ? `<option value="" disabled${field.value ? "" : " selected"}>${esc(field.placeholder)}</option>` : "";
      const chosen = field.placeholder ? field.value : field.value ?? (field.options[0] && field.options[0].value);
      const options = field.options.map((o) =>
        `<option value="${esc(o.value)}"${o.value === chosen ? " selected" : ""}>${optionLabel(o, offset)}</option>`).join("");
      return `<label class="field"><span>${esc(field.label)}</span>
          <select id="${id}" name="${esc(field.name)}"${field.placeholder ? " required" : ""}
                  data-testid="${esc(field.test_id)}">${placeholder}${options}</select></label>
        ${cautionsHtml(form, field, chosen)}`;
    }
    case "checkbox":
      return `<label class="check field-check"><input type="checkbox" id="${id}" name="${esc(field.name)}"${required}
          data-testid="${esc(field.test_id)}"><span>${esc(field.label)}</span></label>`;
    case "radio": {
      const chosen = field.value ?? (field.options[0] && field.options[0].value);
      const options = field.options.map((o, i) => `<label class="seg"><input type="radio"
          id="${id}-${i}" name="${esc(field.name)}" value="${esc(o.value)}"${o.value === chosen ? " checked" : ""}
          data-testid="${esc(o.name || `${field.test_id}-${o.value}`)}"><span>${optionLabel(o, offset)}</span></label>`).join("");
      return `<fieldset class="segmented" data-testid="${esc(field.test_id)}"><legend>${esc(field.label)}</legend>${options}</fieldset>`;
    }
    case "number":
      return `<label class="field"><span>${esc(field.label)}</span>
          <input id="${id}" name="${esc(field.name)}" type="number" inputmode="numeric"${attr("min", field.min)}${attr("max", field.max)}${attr("step", field.step)}${attr("value", field.value)}${attr("placeholder", field.placeholder)}${required} data-testid="${esc(field.test_id)}"></label>`;
    case "datetime":
      return `<label class="field"><span>${esc(field.label)}</span>
          <input id="${id}" name="${esc(field.name)}" type="datetime-local"${required} data-testid="${esc(field.test_id)}"></label>`;
    default:
      return `<label class="field"><span>${esc(field.label)}</span>
          <input id="${id}" name="${esc(field.name)}"${attr("minlength", field.min_length)}${attr("maxlength", field.max_length)}${attr("placeholder", field.placeholder)}${attr("value", field.value)}${required}
          autocomplete="off" autocapitalize="off" spellcheck="false" data-testid="${esc(field.test_id)}"></label>`;
  }
}

/** A field, wrapped to be shown only while the fields it depends on hold its values. */
function shownFieldHtml(form, field, offset) {
  const html = fieldHtml(form, field, offset);
  const when = Object.keys(field.shown_when || {});
  if (!when.length) return html;
  const shown = initialValuesHold(form, field);
  return `<div class="depends" data-shown-when="${esc(JSON.stringify(field.shown_when))}"${shown ? "" : " hidden"}>${html}</div>`;
}

function initialValue(field) {
  if (field.input === "select" && field.placeholder) return field.value ?? "";
  return field.value ?? (field.options[0] && field.options[0].value) ?? "";
}

function initialValuesHold(form, field) {
  return Object.entries(field.shown_when || {}).every(([name, values]) => {
    const other = form.fields.find((f) => f.name === name);
    return other && values.includes(initialValue(other));
  });
}

/** A form: its fields, and a submit button per action (none for another role's form). */
export function formHtml(ui, form, { cls = "stack", title = false } = {}) {
  if (form.role && form.role !== ui.role) return "";
  const key = ui.registry.add("form", form);
  const busy = ui.busy(form.id);
  const actions = form.actions.map((action) => {
    const classes = ["btn", action.primary ? "btn-primary" : "", busy ? "is-pending" : ""].filter(Boolean).join(" ");
    return `<button type="submit" class="${classes}" data-action="${esc(action.name)}" data-testid="${esc(action.name)}"
        aria-busy="${busy}" ${form.enabled && !busy ? "" : "disabled"}>${esc(action.label)}${busy ? spinner() : ""}</button>`;
  }).join("");
  return `<form class="${cls}" data-form="${esc(key)}">
      ${title ? `<h3>${esc(form.title)}</h3>` : ""}
      ${form.hint ? `<p class="muted small">${esc(form.hint)}</p>` : ""}
      ${form.fields.map((field) => shownFieldHtml(form, field, ui.offset)).join("")}
      <div class="row">${actions}</div>
      ${formConfirmHtml(ui, key)}
      ${refusalNote(form, ui.clocks, ui.now)}
    </form>`;
}

/** A local `datetime-local` value as an ISO 8601 instant. */
function localToIso(value) {
  const t = new Date(value);
  return Number.isNaN(t.getTime()) ? null : t.toISOString();
}

/** The payload a form sends with one of its actions, from what the arbiter entered. */
export function formPayload(form, element, actionName) {
  const action = form.actions.find((a) => a.name === actionName) || form.actions[0];
  const payload = { ...action.command };
  const data = new FormData(element);
  for (const field of form.fields) {
    const raw = String(data.get(field.name) ?? "").trim();
    if (field.input === "select" || field.input === "radio") {
      const option = field.options.find((o) => o.value === raw);
      if (option) Object.assign(payload, option.sets);
    } else if (field.input === "checkbox") {
      payload[field.name] = raw === "on";  // a hidden checkbox is disabled: not in the data
    } else if (field.input === "number") {
      const scale = (action.scale || {})[field.name] ?? 1;
      payload[field.name] = raw === "" ? null : Math.round(Number(raw) * scale);
    } else if (field.input === "datetime") {
      payload[field.name] = raw ? localToIso(raw) : null;
    } else {
      payload[field.name] = raw === "" && !field.required ? null : raw;
    }
  }
  return { action, payload };
}

/** The ids of the fields to empty once a form's command is accepted: those the view
 * says (reasons, scores), the confirmations, and the choices the arbiter had to make. */
export function fieldsToClear(form) {
  return form.fields
    .filter((f) => f.clear_after || f.input === "checkbox" || (f.input === "select" && f.placeholder))
    .map((f) => fieldId(form, f));
}

/**
 * Show the fields of a drawn form that apply to what is chosen now (`shown_when`),
 * enforcing only those, and the caution of each chosen option.
 */
export function refreshForm(element) {
  const data = new FormData(element);
  for (const box of element.querySelectorAll("[data-shown-when]")) {
    let when = {};
    try { when = JSON.parse(box.dataset.shownWhen); } catch (err) { when = {}; }
    const shown = Object.entries(when).every(([name, values]) => values.includes(String(data.get(name) ?? "")));
    box.hidden = !shown;
    for (const input of box.querySelectorAll("input, select")) {
      input.disabled = !shown;
      if (!shown && input.type === "checkbox") input.checked = false;
    }
  }
  for (const note of element.querySelectorAll("[data-caution]")) {
    const select = document.getElementById(note.dataset.caution);
    note.hidden = !select || select.value !== note.dataset.value;
  }
}
