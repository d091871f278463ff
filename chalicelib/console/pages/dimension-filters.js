// issue 44: console-reports. The company's cost centres (dimensions and their values) as report
// filters: a value to keep only the postings carrying it, a dimension to show a column per value.
import { api } from "../api.js";
import { t } from "../i18n.js";

// The dimensions with their values; none when the company has none (or may not read them).
export async function loadDimensions() {
  try {
    const answer = await api.get("/dimensions", { limit: 100 });
    return answer.dimensions || answer.data || [];
  } catch {
    return [];
  }
}

export const valueLabel = (value) => (value.code ? `${value.code} · ${value.name}` : value.name);

// Every value, named with its dimension ("Sucursal: SPS · San Pedro Sula").
export function valueOptions(dimensions) {
  return dimensions.flatMap((dimension) => (dimension.values || []).map((value) => ({
    value: value.id, label: `${dimension.name}: ${valueLabel(value)}` })));
}

// The filter fields of a report that takes them; none without dimensions. `group`: also "group by".
export function dimensionFields(dimensions, group = true) {
  if (!dimensions.length) return [];
  return [
    { name: "dimensionValueId", label: t("mend.dim.value"), type: "select", options: valueOptions(dimensions) },
    group ? { name: "groupByDimensionId", label: t("mend.dim.groupBy"), type: "select",
      options: dimensions.map((dimension) => ({ value: dimension.id, label: dimension.name })) } : null,
  ].filter(Boolean);
}
