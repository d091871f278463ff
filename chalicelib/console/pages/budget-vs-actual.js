// issue 44: console-reports. Budget against actual for a month and the year to date: a budget of
// the year (the API's choice when none is named) and optionally one cost centre; each account's
// budget, actual, variance (actual - budget) and percentage as the API answers them, the variance
// coloured by whether it favours the result (more income, less cost or expense).
import { api } from "../api.js";
import { h } from "../dom.js";
import { money } from "../format.js";
import { locale, t } from "../i18n.js";
import { section } from "../ui.js";
import { monthName } from "./budgets.js";
import { loadDimensions, valueOptions } from "./dimension-filters.js";
import { reportPage } from "./reports.js";

const FIGURES = ["budget", "actual", "variance", "percentage"];
const YEAR_TO_DATE = ["yearToDateBudget", "yearToDateActual", "yearToDateVariance", "yearToDatePercentage"];

// favourable: an income above its budget, a cost or expense below it
function varianceClass(type, variance) {
  const value = Number(variance);
  if (!value || !["income", "cost", "expense"].includes(type)) return "";
  return (type === "income") === (value > 0) ? "difference favourable" : "difference unfavourable";
}

function cell(row, field, type) {
  const value = row[field];
  if (field.endsWith("ercentage")) {
    return h("td", { class: "num", "data-field": field }, value === null || value === undefined ? t("common.none")
      : `${new Intl.NumberFormat(locale(), { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Number(value))} %`);
  }
  const coloured = field.endsWith("ariance") ? varianceClass(type, value) : "";
  return h("td", { class: `num ${coloured}`.trim(), "data-field": field }, money(value));
}

function comparisonTable(r) {
  const month = monthName(Number(r.month), "long");
  const heads = (fields) => fields.map((field) => h("th", { scope: "col", class: "num" }, t(`mend.bva.${field.replace("yearToDate", "").toLowerCase()}`)));
  return h("div", { class: "table-scroll" }, h("table", { class: "grid report budget-report", id: "budget-vs-actual" },
    h("thead", {},
      h("tr", {}, h("th", { scope: "col", rowspan: 2 }, t("rep.account")),
        h("th", { scope: "colgroup", colspan: 4, class: "group" }, `${month} ${r.year}`),
        h("th", { scope: "colgroup", colspan: 4, class: "group" }, t("mend.bva.yearToDate"))),
      h("tr", {}, heads(FIGURES), heads(YEAR_TO_DATE))),
    h("tbody", {}, r.rows.length ? r.rows.map((row) => h("tr", { "data-account": row.code },
      h("td", { class: "budget-account" }, h("a", { href: `#/accounting/ledger?chartOfAccountId=${row.chartOfAccountId}` },
        row.code), ` · ${row.name}`), [...FIGURES, ...YEAR_TO_DATE].map((field) => cell(row, field, row.type))))
      : h("tr", {}, h("td", { class: "empty", colspan: 9 }, t("mend.bva.noRows")))),
    h("tfoot", {}, h("tr", { "data-totals": "" }, h("td", {}, t("rep.totals")),
      [...FIGURES, ...YEAR_TO_DATE].map((field) => cell(r.totals, field, null))))));
}

function budgetVsActual(ctx) {
  const valueId = ctx.query.dimensionValueId || "";
  return {
    path: "/reports/budget-vs-actual", route: "/reports/budget-vs-actual", title: "mend.bva.title",
    fields: [],
    async load() {
      const [budgets, dimensions] = await Promise.all([
        api.get("/budgets", { limit: 100 }).then((a) => a.budgets || a.data || []).catch(() => []), loadDimensions()]);
      const values = valueOptions(dimensions);
      return { values, fields: [
        { name: "year", label: t("mend.bud.year"), type: "number", step: "1", min: "1900", required: true },
        { name: "month", label: t("rep.month"), type: "select", required: true,
          options: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((m) => ({ value: m, label: monthName(m, "long") })) },
        { name: "budgetId", label: t("mend.bva.budget"), type: "select",
          options: budgets.map((b) => ({ value: b.id, label: `${b.name} (${b.year})` })) },
        values.length ? { name: "dimensionValueId", label: t("mend.dim.value"), type: "select", options: values } : null,
      ].filter(Boolean) };
    },
    defaults: () => ({ year: String(new Date().getFullYear()), month: String(new Date().getMonth() + 1) }),
    query: (r) => ({ year: r.year, month: r.month, budgetId: r.budgetId, dimensionValueId: valueId }),
    file: (r) => `presupuesto-vs-real-${r.year}-${String(r.month).padStart(2, "0")}`,
    draw(r, loaded) {
      const centre = valueId && loaded.values.find((option) => String(option.value) === String(valueId));
      return section([r.budgetName || t("mend.bva.noBudget"), centre ? ` · ${centre.label}` : ""], comparisonTable(r));
    },
  };
}

export const render = (ctx) => reportPage(ctx, budgetVsActual(ctx));
