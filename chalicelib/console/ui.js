// The console's building blocks: forms that show the API's field errors beside their fields,
// tables, pagers, dialogs, notices and the one-time secret box.
import { ApiError, api, request } from "./api.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";

// --- notices -------------------------------------------------------------------------------------

export function toast(message, kind = "ok") {
  const box = document.getElementById("toasts");
  const note = h("div", { class: `toast toast-${kind}`, role: kind === "error" ? "alert" : "status" }, message);
  box.append(note);
  setTimeout(() => note.remove(), kind === "error" ? 8000 : 4000);
}

// A plain-words line for an error from the API (its message is written for people, but names a
// field's program name where it quotes a detail, "<field>: <problem>": the problem says it alone).
export function describeError(error) {
  if (error instanceof ApiError) return error.message || t("error.generic");
  if (error instanceof TypeError) return t("error.network");
  return t("error.generic");
}

export function errorBox(error) {
  const box = h("div", { class: "error-box", role: "alert" }, describeError(error));
  if (error instanceof ApiError && error.code) box.dataset.code = error.code;
  return box;
}

// --- forms ---------------------------------------------------------------------------------------

// field: {name, label?, type: text|email|password|number|date|select|lookup|checkbox|textarea, required?,
//         options?: [{value, label}], source?: {path, field, label(row), query?, accept?(row)}, step?, min?,
//         placeholder?, help?, value?, readonly?, onChoose?(row) (a lookup)}
// A lookup is a type-ahead over `source.path?q=` (the API's search index) instead of a select of
// every record: what is typed finds up to 20, and choosing one of them sets the field's id.
function lookup(field, value) {
  return typeAhead({ source: field.source, name: field.name, id: `f-${field.name}`, value, required: field.required,
                     placeholder: field.placeholder, onChoose: field.onChoose }).element;
}

// A type-ahead on its own (a document line's product, say): a search input with a datalist of what
// `source.path?q=` finds and a hidden input `name`/`id` holding the chosen record's id; `onChoose(row)`
// runs when a record is chosen. `rename(name, id)` follows a line's new position.
export function typeAhead({ source, name, id, value, required, placeholder, onChoose }) {
  const hidden = h("input", { type: "hidden", name, id, value: value ?? "" });
  const list = h("datalist", { id: `${id}-list` });
  const chosen = new Map();  // label -> row
  let pending;
  const typed = h("input", { type: "search", id: `${id}-search`, list: `${id}-list`, "data-field": name,
    required: required || undefined, autocomplete: "off", placeholder: placeholder || t("common.typeToSearch") });
  const settle = () => {
    const row = chosen.get(typed.value);
    const before = hidden.value;
    hidden.value = row ? String(row.id) : "";
    if (row && onChoose && hidden.value !== before) onChoose(row);
  };
  typed.addEventListener("input", () => {
    settle();
    clearTimeout(pending);
    pending = setTimeout(async () => {
      const text = typed.value.trim();
      if (!text) return;
      const found = await api.get(source.path, { ...(source.query || {}), q: text, limit: 20 }).catch(() => null);
      if (!found || typed.value.trim() !== text) return;  // typed on meanwhile: its own search answers
      const rows = found[source.field].filter((row) => !source.accept || source.accept(row));
      for (const row of rows) chosen.set(source.label(row), row);
      replace(list, rows.map((row) => h("option", { value: source.label(row) })));
      settle();
    }, 200);
  });
  if (value) {
    api.get(`${source.path}/${value}`).then((row) => {
      chosen.set(source.label(row), row);
      if (!typed.value) typed.value = source.label(row);
    }).catch(() => {});
  }
  const rename = (newName, newId) => {
    hidden.name = newName;
    hidden.id = newId;
    typed.id = `${newId}-search`;
    typed.dataset.field = newName;
    list.id = `${newId}-list`;
    typed.setAttribute("list", list.id);
  };
  return { element: h("span", { class: "lookup" }, typed, list, hidden), input: hidden, search: typed, rename };
}

function control(field, value) {
  if (field.type === "lookup") return lookup(field, value);
  const common = { name: field.name, id: `f-${field.name}`, required: field.required || undefined,
                   placeholder: field.placeholder, "data-field": field.name, readonly: field.readonly || undefined,
                   autocomplete: field.autocomplete };
  if (field.type === "checkbox") {
    return h("input", { ...common, type: "checkbox", checked: value === undefined ? field.value : value });
  }
  if (field.type === "textarea") return h("textarea", { ...common, rows: 3 }, value ?? field.value ?? "");
  if (field.type === "select") {
    const select = h("select", common);
    const fill = (options) => {
      const current = value ?? field.value;
      replace(select, field.required ? null : h("option", { value: "" }, t("common.none")),
        options.map((option) => h("option", { value: option.value, selected: String(option.value) === String(current) || undefined },
          option.label)));
    };
    if (field.source) {
      fill([]);
      import("./api.js").then(({ listAll }) => listAll(field.source.path, field.source.field, field.source.query))
        .then((rows) => fill(rows.map((row) => ({ value: row.id, label: field.source.label(row) }))))
        .catch(() => fill([]));
    } else fill(field.options || []);
    return select;
  }
  const type = field.type || "text";
  return h("input", { ...common, type, step: field.step ?? (type === "number" ? "0.01" : undefined), min: field.min,
                      value: value ?? field.value ?? "" });
}

export function readField(form, field) {
  const element = form.elements.namedItem(field.name);
  if (!element) return undefined;
  if (field.type === "checkbox") return element.checked;
  const raw = element.value.trim();
  if (raw === "") return field.emptyAs;
  if (field.type === "number" || field.numeric || field.type === "lookup" || (field.type === "select" && field.source)) {
    return Number(raw);
  }
  return raw;
}

// Puts each `details` entry beside its field (by name, the API's details[].field), under the label
// the form gives it, and what has no input of its own in the form's box, in words only: no program
// name of a field reaches the person. The box says the refusal's message unless it only restates
// the first detail ("<field>: <problem>"): then it points to the fields, so each problem shows once.
export function showErrors(form, error) {
  form.querySelectorAll(".field-error").forEach((node) => node.remove());
  form.querySelectorAll("[aria-invalid]").forEach((node) => node.removeAttribute("aria-invalid"));
  // a success notice still showing (an earlier save) must not read as the outcome of this one
  document.querySelectorAll("#toasts .toast-ok").forEach((note) => note.remove());
  const general = form.querySelector(".form-error");
  replace(general);
  const details = (error instanceof ApiError && error.details) || [];
  const unplaced = [];
  for (const detail of details) {
    const name = String(detail.field || "");
    const input = form.querySelector(`[data-field="${CSS.escape(name)}"]`);
    if (input) {
      input.setAttribute("aria-invalid", "true");
      input.closest(".field").append(h("div", { class: "field-error", "data-error-for": name }, detail.message));
    } else unplaced.push(detail);
  }
  // the API's "<field as a person knows it>: <problem>" of its first detail says again what its
  // field now shows; a refusal that ends quoting it ("The tax authority's format refuses this
  // document: <field>: <problem>") keeps its own words, the quote left to the field or the list
  const tail = details.length ? `: ${details[0].message}` : null;
  const quoted = tail !== null && error.message.endsWith(tail) ? error.message.slice(0, -tail.length) : null;
  const cut = quoted === null ? -1 : quoted.lastIndexOf(": ");
  const restated = quoted !== null && cut < 0;
  // an unplaced first detail of a restated message reads with its field's name, as the API wrote it
  const listed = (detail) => h("li", {}, restated && detail === details[0] ? error.message : detail.message);
  const list = unplaced.length ? h("ul", { class: "error-list" }, unplaced.map(listed)) : null;
  if (!restated) {
    const head = cut > 0 ? quoted.slice(0, cut) : null;
    // replace(), not the element's own append(): that would write a missing list as the text "null"
    replace(general, head ? h("div", { class: "error-box", role: "alert", "data-code": error.code }, head) : errorBox(error), list);
    return;
  }
  general.append(h("div", { class: "error-box", role: "alert", "data-code": error.code },
    unplaced.length < details.length ? t("form.fieldsRefused") : null, list));
}

export function formView({ fields, values = {}, submitLabel, onSubmit, extra, className }) {
  const form = h("form", { class: `form ${className || ""}`, novalidate: true });
  for (const field of fields) {
    const input = control(field, values[field.name]);
    const label = h("label", { for: field.type === "lookup" ? `f-${field.name}-search` : `f-${field.name}` },
      field.label || t(field.name));
    form.append(field.type === "checkbox"
      ? h("div", { class: "field field-check" }, input, label)
      : h("div", { class: "field" }, label, input, field.help ? h("small", { class: "help" }, field.help) : null));
  }
  if (extra) form.append(extra);
  const button = h("button", { type: "submit", class: "primary" }, submitLabel || t("common.save"));
  form.append(h("div", { class: "form-error" }), h("div", { class: "form-actions" }, button));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = {};
    for (const field of fields) {
      const value = readField(form, field);
      if (value !== undefined) data[field.name] = value;
    }
    button.disabled = true;
    try {
      await onSubmit(data, form);
    } catch (error) {
      showErrors(form, error);
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

// --- tables and pages ----------------------------------------------------------------------------

// column: {label, value(row) -> node|text, class?}
export function tableView({ columns, rows, onRowClick, empty }) {
  if (!rows.length) return h("p", { class: "empty" }, empty || t("common.empty"));
  return h("table", { class: "grid" },
    h("thead", {}, h("tr", {}, columns.map((column) => h("th", { class: column.class }, column.label)))),
    h("tbody", {}, rows.map((row) => {
      const tr = h("tr", { class: onRowClick ? "clickable" : undefined },
        columns.map((column) => h("td", { class: column.class, "data-label": column.label }, column.value(row))));
      if (onRowClick) tr.addEventListener("click", (event) => { if (!event.target.closest("button,a")) onRowClick(row); });
      return tr;
    })));
}

export function pagerView({ page, limit, total, onPage }) {
  const pages = Math.max(1, Math.ceil((total || 0) / limit));
  return h("nav", { class: "pager", "aria-label": "pages" },
    h("button", { type: "button", disabled: page <= 1 || undefined, onclick: () => onPage(page - 1) }, t("common.previous")),
    h("span", {}, t("common.page", { page, pages, total: total || 0 })),
    h("button", { type: "button", disabled: page >= pages || undefined, onclick: () => onPage(page + 1) }, t("common.next")));
}

// A console route with its query (empty values left out), e.g. for filters kept in the address.
export function withQuery(path, query) {
  const search = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined && v !== null && v !== "")).toString();
  return search ? `${path}?${search}` : path;
}

export function pageHeader(title, ...actions) {
  return h("header", { class: "page-header" }, h("h1", {}, title), h("div", { class: "page-actions" }, actions));
}

export function section(title, ...children) {
  return h("section", { class: "card" }, title ? h("h2", {}, title) : null, children);
}

export function button(label, onclick, kind = "") {
  return h("button", { type: "button", class: kind, onclick }, label);
}

export function badge(status) {
  return h("span", { class: `badge badge-${String(status).replace(/[^a-z_]/gi, "")}` }, t(`status.${status}`));
}

export function definitionList(pairs) {
  return h("dl", { class: "facts" }, pairs.filter(Boolean).map(([term, value]) => [h("dt", {}, term), h("dd", {}, value)]));
}

// Runs `load` for a page body; a refusal or failure is shown in plain words instead.
export async function loadInto(root, load) {
  replace(root, h("p", { class: "loading" }, t("common.loading")));
  try {
    const content = await load();
    replace(root, content);
  } catch (error) {
    const message = error instanceof ApiError && error.status === 403 ? t("error.forbidden")
      : error instanceof ApiError && error.status === 404 ? t("error.notFound") : describeError(error);
    replace(root, h("div", { class: "error-box page-error", role: "alert", "data-code": error.code || "" }, message));
  }
}

// --- dialogs -------------------------------------------------------------------------------------

export function openDialog(title, ...content) {
  const dialog = h("dialog", { class: "dialog" },
    h("header", {}, h("h2", {}, title),
      h("button", { type: "button", class: "icon", "aria-label": t("common.close"), onclick: () => close() }, "×")),
    h("div", { class: "dialog-body" }, content));
  const close = () => { dialog.close(); dialog.remove(); };
  document.body.append(dialog);
  dialog.showModal();
  return { dialog, close };
}

export function confirmAction(message) {
  return new Promise((resolve) => {
    const { close } = openDialog(t("common.confirm"), h("p", {}, message),
      h("div", { class: "form-actions" },
        button(t("common.cancel"), () => { close(); resolve(false); }),
        button(t("common.yes"), () => { close(); resolve(true); }, "primary danger")));
  });
}

// A form in a dialog: closes and calls `done` when the API accepted it.
export function formDialog(title, options, done) {
  const holder = {};
  const form = formView({ ...options, onSubmit: async (data, element) => {
    const result = await options.onSubmit(data, element);
    holder.close();
    if (done) await done(result);
  } });
  holder.close = openDialog(title, form).close;
  return form;
}

// A secret the API shows only once: visible, copyable, with the warning.
export function secretOnce(label, secret) {
  const code = h("code", { class: "secret", "data-secret": "" }, secret);
  return h("div", { class: "secret-once", role: "alert" },
    h("p", { class: "warning" }, t("secret.once")),
    h("div", { class: "secret-row" }, h("span", {}, label), code,
      button(t("common.copy"), async () => {
        try { await navigator.clipboard.writeText(secret); toast(t("common.copied")); } catch { selectText(code); }
      })));
}

function selectText(node) {
  const range = document.createRange();
  range.selectNodeContents(node);
  const selection = window.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
}

// Asks, calls the API, tells the outcome, then refreshes.
export async function act(confirmMessage, run, refresh, doneMessage) {
  if (confirmMessage && !(await confirmAction(confirmMessage))) return;
  try {
    await run();
    toast(doneMessage || t("common.saved"));
    if (refresh) await refresh();
  } catch (error) {
    toast(describeError(error), "error");
  }
}

export { api };

// The formats a report route answers besides JSON (chalicelib/exports REPORT_TYPES), by extension.
export const EXPORT_FORMATS = [
  ["csv", "text/csv"],
  ["xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
  ["pdf", "application/pdf"],
];

// A button fetching `path` (`options` as request() takes them) and saving the answer, as it came,
// as `fileName`; a refusal becomes a toast.
export function downloadButton(label, path, options, fileName, kind = "") {
  const trigger = button(label, async () => {
    trigger.disabled = true;
    try {
      const blob = await request("GET", path, { ...options, raw: true });
      const url = URL.createObjectURL(blob);
      const anchor = h("a", { href: url, download: fileName });
      document.body.append(anchor);
      anchor.click();
      anchor.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (error) {
      toast(describeError(error), "error");
    } finally {
      trigger.disabled = false;
    }
  }, kind);
  return trigger;
}

// One button per format, each fetching `path` with that Accept and saving it as `<fileStem>.<ext>`.
// `labelKey(extension)` names each button.
export function exportButtons(path, query, fileStem, labelKey) {
  return EXPORT_FORMATS.map(([extension, mediaType]) => downloadButton(t(labelKey(extension)), path,
    { query, accept: mediaType }, `${fileStem}.${extension}`, `download-${extension}`));
}
