// issue 44: Settings, cost centres. The company's dimensions (branch, project, department...: at
// most 5, the API refuses a sixth) each a card with its values: a dimension is created, renamed,
// deactivated or activated again (there is no delete: lines keep naming it), and so is a value,
// which may carry a code. An inactive one is no longer offered on new lines.
import { api } from "../api.js";
import { append, h } from "../dom.js";
import { ACCOUNTING_ROLES, t } from "../i18n.js";
import { act, badge, button, formDialog, pageHeader, section, tableView, toast } from "../ui.js";
import { loadDimensions } from "./line-dimensions.js";

export const MAX_DIMENSIONS = 5;

// the record's version, where the API answers one (If-Match: a stale edit is refused, not lost)
const versioned = (record) => ({ headers: record.version !== undefined ? { "If-Match": String(record.version) } : {} });

function dimensionDialog(ctx, dimension) {
  formDialog(dimension ? t("records.dim.rename") : t("records.dim.new"), {
    fields: [{ name: "name", label: t("records.dim.name"), required: true, placeholder: t("records.dim.namePlaceholder") }],
    values: dimension || {},
    submitLabel: dimension ? t("common.save") : t("common.create"),
    onSubmit: (data) => (dimension ? api.put(`/dimensions/${dimension.id}`, data, versioned(dimension))
      : api.post("/dimensions", data)),
  }, () => { toast(dimension ? t("common.saved") : t("records.dim.created")); return ctx.refresh(); });
}

function valueDialog(ctx, dimension, value) {
  formDialog(value ? t("records.dim.editValue") : t("records.dim.newValue", { dimension: dimension.name }), {
    fields: [
      { name: "name", label: t("records.dim.valueName"), required: true },
      { name: "code", label: t("records.dim.valueCode"), help: t("records.dim.valueCodeHelp"), emptyAs: value ? null : undefined },
    ],
    values: value || {},
    submitLabel: value ? t("common.save") : t("common.create"),
    onSubmit: (data) => (value ? api.put(`/dimensions/${dimension.id}/values/${value.id}`, data, versioned(value))
      : api.post(`/dimensions/${dimension.id}/values`, data)),
  }, () => { toast(value ? t("common.saved") : t("records.dim.valueCreated")); return ctx.refresh(); });
}

// Deactivating (or activating again) is a PUT of isActive.
function toggle(ctx, path, record, name) {
  const deactivating = record.isActive !== false;
  return act(deactivating ? t("records.dim.deactivateAsk", { name }) : null,
    () => api.put(path, { isActive: !deactivating }, versioned(record)), ctx.refresh,
    deactivating ? t("records.dim.deactivated") : t("records.dim.activated"));
}

const status = (record) => badge(record.isActive !== false ? "active" : "inactive");

// `canWrite`: the user's role keeps the books (the API refuses the others: 403)
function dimensionCard(ctx, dimension, canWrite) {
  const path = `/dimensions/${dimension.id}`;
  const values = tableView({ rows: dimension.values || [], empty: t("records.dim.noValues"), columns: [
    { label: t("records.dim.valueCode"), value: (v) => (v.code ? h("code", {}, v.code) : "") },
    { label: t("records.dim.valueName"), value: (v) => v.name },
    { label: t("common.status"), value: status },
    canWrite ? { label: t("common.actions"), class: "actions", value: (v) => [
      button(t("common.edit"), () => valueDialog(ctx, dimension, v), "edit-value"),
      button(v.isActive !== false ? t("records.dim.deactivate") : t("records.dim.activate"),
        () => toggle(ctx, `${path}/values/${v.id}`, v, v.name), v.isActive !== false ? "danger toggle-value" : "toggle-value"),
    ] } : null,
  ].filter(Boolean) });
  const active = dimension.isActive !== false;
  return h("section", { class: "card dimension-card", "data-dimension": dimension.id },
    h("header", { class: "page-header" }, h("h2", {}, dimension.name, " ", status(dimension)),
      canWrite ? h("div", { class: "page-actions" },
        active ? button(t("records.dim.addValue"), () => valueDialog(ctx, dimension), "primary add-value") : null,
        button(t("records.dim.rename"), () => dimensionDialog(ctx, dimension), "rename-dimension"),
        button(active ? t("records.dim.deactivate") : t("records.dim.activate"),
          () => toggle(ctx, path, dimension, dimension.name), active ? "danger toggle-dimension" : "toggle-dimension")) : null),
    h("div", { class: "table-scroll" }, values));
}

export async function render(ctx) {
  const dimensions = await loadDimensions();
  const canWrite = ACCOUNTING_ROLES.includes(ctx.session.me?.role);
  const full = dimensions.length >= MAX_DIMENSIONS;
  const create = button(t("records.dim.new"), () => dimensionDialog(ctx), "primary new-dimension");
  create.disabled = full;
  append(ctx.root, [pageHeader(t("records.dim.title"), canWrite ? create : null),
    h("p", { class: "help", id: "dimensions-intro" }, full ? t("records.dim.full", { max: MAX_DIMENSIONS })
      : t("records.dim.intro", { max: MAX_DIMENSIONS, count: dimensions.length })),
    dimensions.length ? dimensions.map((dimension) => dimensionCard(ctx, dimension, canWrite))
      : section(null, h("p", { class: "empty" }, t("records.dim.none")))]);
}
