// The inventory valuation at a date: quantity, average cost and value per product and warehouse,
// the inventory accounts' balances and the difference (zero unless someone posted to them by
// hand), and the same report as CSV, XLSX or PDF. The route answers those when the first Accept
// value asks for them, so a download is a fetch with that header whose blob is then saved.
import { request } from "../api.js";
import { append, h } from "../dom.js";
import { date, money, today, unitCost } from "../format.js";
import { t } from "../i18n.js";
import { exportButtons, formView, pageHeader, section, tableView, withQuery } from "../ui.js";
import { quantity } from "./inventory-common.js";

const figure = (label, amount, id, kind) => h("div", { class: `figure ${kind || ""}`, id },
  h("span", { class: "figure-label" }, label), h("strong", { "data-amount": String(amount) }, money(amount)));

export async function render(ctx) {
  const at = ctx.query.date || today();
  const report = await request("GET", "/inventory/valuation", { query: { date: at } });
  const filters = formView({ className: "inline", submitLabel: t("val.show"), values: { date: at },
    fields: [{ name: "date", label: t("val.date"), type: "date", required: true }],
    onSubmit: async (data) => ctx.navigate(withQuery("/inventory/valuation", data)) });
  const downloads = h("div", { class: "page-actions downloads" }, h("span", { class: "help" }, `${t("val.download")}:`),
    exportButtons("/inventory/valuation", { date: report.date }, `valuacion-inventario-${report.date}`,
      (extension) => `val.${extension}`));

  const differs = Number(report.difference) !== 0;
  const items = tableView({ rows: report.items, empty: t("val.empty"), columns: [
    { label: t("inv.code"), value: (i) => i.code },
    { label: t("inv.product"), value: (i) => i.name },
    { label: t("inv.warehouse"), value: (i) => (i.warehouseId ? i.warehouseName || `#${i.warehouseId}` : t("val.noWarehouse")) },
    { label: t("inv.quantity"), class: "num", value: (i) => quantity(i.quantity) },
    { label: t("val.averageCost"), class: "num", value: (i) => unitCost(i.averageCost) },
    { label: t("inv.value"), class: "num", value: (i) => money(i.value) },
  ] });
  if (items.tagName === "TABLE") {
    items.id = "valuation-items";
    items.append(h("tfoot", {}, h("tr", {}, h("td", { colspan: 3 }, t("val.total")),
      h("td", { class: "num", id: "valuation-quantity" }, quantity(report.totalQuantity)), h("td"),
      h("td", { class: "num", id: "valuation-total" }, money(report.totalValue)))));
  }
  const accounts = tableView({ rows: report.inventoryAccounts, empty: t("val.noAccounts"), columns: [
    { label: t("inv.code"), value: (a) => h("a",
      { href: `#/accounting/ledger?chartOfAccountId=${a.chartOfAccountId}&endDate=${report.date}` }, a.code) },
    { label: t("val.account"), value: (a) => a.name },
    { label: t("val.balance"), class: "num", value: (a) => money(a.balance) },
  ] });
  if (accounts.tagName === "TABLE") {
    accounts.id = "valuation-accounts";
    accounts.append(h("tfoot", {}, h("tr", {}, h("td", { colspan: 2 }, t("val.total")),
      h("td", { class: "num", id: "valuation-accounts-balance" }, money(report.accountsBalance)))));
  }

  append(ctx.root, [
    pageHeader(t("val.title"), downloads),
    section(null, filters),
    h("div", { class: "figures" },
      figure(t("val.totalValue"), report.totalValue, "valuation-value"),
      figure(t("val.accountsBalance"), report.accountsBalance, "valuation-balance"),
      figure(t("val.difference"), report.difference, "valuation-difference", differs ? "figure-bad" : "figure-ok")),
    h("p", { class: differs ? "error-box" : "help", id: "valuation-status", role: differs ? "alert" : undefined },
      t(differs ? "val.differs" : "val.matches")),
    section(t("val.subtitle", { date: date(report.date) }), h("div", { class: "table-scroll" }, items)),
    section(t("val.accounts"), accounts),
  ]);
}
