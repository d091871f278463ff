// issue 44: console-reports. The company's cost centres (dimensions and their values) as report
// filters: a value to keep only the postings carrying it, a dimension to show a column per value
// (the API's `dimensionColumns` and `…ByDimension` figures, shown as they come).
import { api } from "../api.js";
import { h } from "../dom.js";
import { money } from "../format.js";
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

// A report by a dimension: a heading per column of `dimensionColumns` (the last, valueId null, the
// postings carrying none of its values), then the whole.
export function dimensionHeadings(columns) {
  return [...columns.map((column) => (column.valueId === null || column.valueId === undefined
    ? t("mend.dim.unassigned") : valueLabel(column))), t("mend.dim.total")];
}

// What a report by cost centre was asked, under its title ("· Solo movimientos de Tegucigalpa").
export function dimensionSubtitle(report) {
  return [report.dimensionValueName ? ` · ${t("mend.dim.filtered", { value: report.dimensionValueName })}` : "",
    report.groupByDimensionName ? ` · ${t("mend.dim.groupedBy", { dimension: report.groupByDimensionName })}` : ""].join("");
}

// The trial balance by a dimension: each account's debits and credits per column, then the whole.
export function trialBalanceByDimension(answer) {
  const headings = dimensionHeadings(answer.dimensionColumns);
  const pairs = (debits, credits) => debits.map((debit, i) => [debit, credits[i]]);
  const cells = (list) => list.flatMap(([debit, credit]) => [h("td", { class: "num" }, money(debit)),
    h("td", { class: "num" }, money(credit))]);
  return h("div", { class: "table-scroll" }, h("table", { class: "grid report by-dimension", id: "trial-balance" },
    h("thead", {},
      h("tr", {}, h("th", { scope: "col", rowspan: 2 }, t("acc.code")), h("th", { scope: "col", rowspan: 2 }, t("acc.name")),
        headings.map((heading) => h("th", { scope: "colgroup", colspan: 2, class: "group" }, heading))),
      h("tr", {}, headings.map(() => [h("th", { scope: "col", class: "num" }, t("mend.dim.debit")),
        h("th", { scope: "col", class: "num" }, t("mend.dim.credit"))]))),
    h("tbody", {}, answer.accounts.map((row) => h("tr", { "data-account": row.code },
      h("td", {}, h("a", { href: `#/accounting/ledger?chartOfAccountId=${row.chartOfAccountId}&endDate=${answer.date}` }, row.code)),
      h("td", {}, row.name),
      cells([...pairs(row.debitByDimension, row.creditByDimension), [row.debit, row.credit]])))),
    h("tfoot", {}, h("tr", { "data-totals": "" }, h("td"), h("td", {}, t("acc.totals")),
      cells([...pairs(answer.totalDebitByDimension, answer.totalCreditByDimension), [answer.totalDebit, answer.totalCredit]])))));
}
