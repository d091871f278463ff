// issue 44: cost centres on lines. The company's dimensions (GET /dimensions, at most 5), a line's
// pickers (one compact select per active dimension, "—" for none) and a line's dimensions in words
// ("Sucursal: Centro") where a document or an entry is shown. A line answers `dimensions`
// [{dimensionId, valueId}] (models/accounting.py LineDimension), the same shape it is sent in.
import { api } from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";

// every dimension of the company with its values; a role that may not read them sees none
export async function loadDimensions() {
  try {
    const answer = await api.get("/dimensions");
    return answer.dimensions || answer.data || [];
  } catch {
    return [];
  }
}

const valueLabel = (value) => (value.code ? `${value.code} · ${value.name}` : value.name);

// A line's pickers. `initial`: the line's dimensions (a draft's or budget's own, a copied document's).
// An inactive dimension or value is not offered unless the line already holds it; then it shows
// "(inactiva)" and the API takes it back on the record that carried it (never newly chosen).
export function dimensionPickers(dimensions, initial = []) {
  const held = new Map((initial || []).map((pair) => [Number(pair.dimensionId), Number(pair.valueId)]));
  const active = dimensions.filter((dimension) => dimension.isActive !== false || held.has(Number(dimension.id)));
  const inactiveLabel = (item, label) => (item.isActive === false ? t("fix.dim.inactive", { name: label }) : label);
  const selects = active.map((dimension) => {
    const current = held.get(Number(dimension.id));
    const values = (dimension.values || []).filter((value) => value.isActive !== false || Number(value.id) === current);
    return h("select", { "data-dimension": dimension.id, "aria-label": dimension.name, class: "dimension-select" },
      h("option", { value: "" }, t("records.dim.noValue")),
      values.map((value) => h("option", { value: value.id, selected: Number(value.id) === current || undefined,
        class: value.isActive === false ? "inactive-value" : undefined }, inactiveLabel(value, valueLabel(value)))));
  });
  const fields = active.map((dimension, index) => h("label", { class: "dimension-pick" },
    h("span", { class: "dimension-name" }, inactiveLabel(dimension, dimension.name)), selects[index]));
  const element = active.length
    ? h("div", { class: "field line-dims" }, h("span", { class: "help line-dims-title" }, t("records.dim.onLine")), fields)
    : null;
  // the lines' field names follow their position (`prefix` "lines[2]"): the API's refusal of a
  // value (lines[2].dimensions[0].valueId) lands beside its select, counted among those chosen
  // (a refusal of the whole list, lines[2].dimensions, beside the pickers)
  const name = (prefix) => {
    if (element) element.dataset.field = `${prefix}.dimensions`;
    let position = 0;
    for (const select of selects) {
      if (select.value) select.dataset.field = `${prefix}.dimensions[${position++}].valueId`;
      else delete select.dataset.field;
    }
  };
  const value = () => selects.filter((select) => select.value)
    .map((select) => ({ dimensionId: Number(select.dataset.dimension), valueId: Number(select.value) }));
  return { element, value, name, selects };
}

// "Sucursal: Centro · Proyecto: P-1", in the order of the company's dimensions.
export function dimensionsText(dimensions, lineDimensions) {
  if (!lineDimensions || !lineDimensions.length) return "";
  const byId = new Map(dimensions.map((dimension) => [Number(dimension.id), dimension]));
  return lineDimensions.map((pair) => {
    const dimension = byId.get(Number(pair.dimensionId));
    const value = (dimension?.values || []).find((item) => Number(item.id) === Number(pair.valueId));
    return `${dimension ? dimension.name : `#${pair.dimensionId}`}: ${value ? valueLabel(value) : `#${pair.valueId}`}`;
  }).join(" · ");
}

// The lines' column of cost centres, when some line carries one (tableView's column shape).
export function dimensionsColumn(dimensions, lines) {
  if (!lines.some((line) => line.dimensions && line.dimensions.length)) return null;
  return { label: t("records.dim.column"), class: "line-dimensions",
    value: (line) => dimensionsText(dimensions, line.dimensions) };
}
