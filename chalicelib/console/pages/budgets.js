// issue 44: console-reports. Budgets: the list (open, delete) and the editor, a grid of accounts
// (each optionally for one cost centre) by the 12 months of the year, saved whole (POST, or PUT
// with the version in If-Match). A refused amount is marked in its cell.
import { api, listAll } from "../api.js";
import { h, replace } from "../dom.js";
import { dateTime } from "../format.js";
import { ACCOUNTING_ROLES, locale, t } from "../i18n.js";
import { act, button, loadInto, pageHeader, pagerView, section, showErrors, tableView, toast } from "../ui.js";
import { loadDimensions, valueOptions } from "./dimension-filters.js";

const MONTHS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
export const monthName = (month, style = "short") => new Intl.DateTimeFormat(locale(), { month: style, timeZone: "UTC" })
  .format(new Date(Date.UTC(2026, month - 1, 15)));
const accountLabel = (a) => `${a.code} · ${a.name}`;

export async function list(ctx) {
  const canAct = ACCOUNTING_ROLES.includes(ctx.session.me?.role);
  const body = h("div", { id: "budgets" });
  const limit = 50;
  let page = 1;
  const refresh = () => loadInto(body, async () => {
    const answer = await api.get("/budgets", { page, limit });
    return [h("div", { class: "table-scroll" }, tableView({ rows: answer.budgets || answer.data || [], empty: t("mend.bud.none"),
      onRowClick: (b) => ctx.navigate(`/budgets/${b.id}`), columns: [
        { label: t("mend.bud.name"), value: (b) => h("a", { href: `#/budgets/${b.id}` }, b.name) },
        { label: t("mend.bud.year"), value: (b) => String(b.year) },
        { label: t("mend.bud.lines"), class: "num", value: (b) => String(b.lineCount ?? "") },
        { label: t("mend.bud.updatedAt"), value: (b) => dateTime(b.updatedAt) },
        { label: t("common.actions"), class: "actions", value: (b) => [
          h("a", { href: `#/reports/budget-vs-actual?year=${b.year}&month=12&budgetId=${b.id}` }, t("mend.bud.compare")), " ",
          canAct ? button(t("common.delete"), () => act(t("mend.bud.deleteConfirm", { name: b.name }),
            () => api.del(`/budgets/${b.id}`), refresh, t("common.deleted")), "danger") : null] },
      ] })),
    // past one page, as every list (crud.js)
    answer.total > limit ? pagerView({ page, limit, total: answer.total, onPage: (next) => { page = next; refresh(); } }) : null];
  });
  ctx.root.append(pageHeader(t("mend.bud.title"),
    canAct ? button(t("mend.bud.new"), () => ctx.navigate("/budgets/new"), "primary") : null),
  h("p", { class: "help" }, t("mend.bud.help")), section(null, body));
  await refresh();
}

// A row of the grid: an account, optionally one cost centre, and its amount per month (as typed).
const rowKey = (row) => `${row.chartOfAccountId}:${row.valueId || ""}`;

function rowsOf(budget) {
  const rows = new Map();
  for (const line of budget.lines || []) {
    const valueId = line.dimensions && line.dimensions.length ? line.dimensions[0].valueId : null;
    const dimensionId = valueId ? line.dimensions[0].dimensionId : null;
    const row = { chartOfAccountId: line.chartOfAccountId, valueId, dimensionId, amounts: {} };
    if (!rows.has(rowKey(row))) rows.set(rowKey(row), row);
    rows.get(rowKey(row)).amounts[line.month] = String(line.amount);
  }
  return [...rows.values()];
}

export async function editor(ctx) {
  const creating = ctx.params.id === "new";
  const [budget, accounts, dimensions] = await Promise.all([
    creating ? Promise.resolve({ name: "", year: new Date().getFullYear(), lines: [] }) : api.get(`/budgets/${ctx.params.id}`),
    listAll("/chart-of-accounts", "accounts"), loadDimensions()]);
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const values = valueOptions(dimensions);
  // an inactive value stays on the rows that hold it (marked), never offered for a new row
  const inactive = new Set(dimensions.flatMap((d) => (d.values || [])
    .filter((v) => v.isActive === false || d.isActive === false).map((v) => String(v.id))));
  const valueNames = new Map(values.map((option) => [String(option.value),
    inactive.has(String(option.value)) ? t("fix.dim.inactive", { name: option.label }) : option.label]));
  const dimensionOf = new Map(dimensions.flatMap((d) => (d.values || []).map((v) => [String(v.id), d.id])));
  const rows = rowsOf(budget);

  const name = h("input", { id: "f-name", name: "name", "data-field": "name", required: true, value: budget.name });
  const year = h("input", { id: "f-year", name: "year", "data-field": "year", type: "number", min: "1900", max: "2999",
    step: "1", required: true, value: String(budget.year) });
  const grid = h("div", { class: "table-scroll budget-grid-box" });
  const accountPick = h("select", { id: "f-add-account", "aria-label": t("mend.bud.account") },
    h("option", { value: "" }, t("mend.bud.pickAccount")),
    [...accounts].sort((a, b) => a.code.localeCompare(b.code)).map((a) => h("option", { value: a.id }, accountLabel(a))));
  const valuePick = values.length ? h("select", { id: "f-add-value", "aria-label": t("mend.bud.costCentre") },
    h("option", { value: "" }, t("mend.bud.noCostCentre")), values.filter((o) => !inactive.has(String(o.value))).map((o) => h("option", { value: o.value }, o.label))) : null;

  // what is typed stays in `rows` as it is typed: adding or removing a row redraws without losing it
  const draw = () => replace(grid, rows.length ? h("table", { class: "grid report budget-grid", id: "budget-grid" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("mend.bud.account")),
      MONTHS.map((month) => h("th", { scope: "col", class: "num" }, monthName(month))))),
    h("tbody", {}, rows.map((row, index) => h("tr", { "data-account": byId.get(row.chartOfAccountId)?.code,
      "data-value": row.valueId || undefined },
    h("th", { scope: "row", class: "budget-account" }, accountLabel(byId.get(row.chartOfAccountId) || { code: "?", name: "" }),
      row.valueId ? h("small", { class: "cell-note" }, valueNames.get(String(row.valueId))) : null,
      h("span", { class: "row-actions" },
        button(t("mend.bud.repeat"), () => { MONTHS.forEach((m) => { row.amounts[m] = row.amounts[1] ?? ""; }); draw(); }, "small"),
        button(t("mend.bud.remove"), () => { rows.splice(index, 1); draw(); }, "small danger"))),
    MONTHS.map((month) => h("td", { class: "field budget-cell" }, h("input", { type: "number", step: "0.01", min: "0",
      class: "budget-amount", id: `budget-${index}-${month}`, "data-month": month, value: row.amounts[month] ?? "",
      "aria-label": `${byId.get(row.chartOfAccountId)?.code} ${monthName(month, "long")}`,
      oninput: (event) => { row.amounts[month] = event.target.value; } })))))))
    : h("p", { class: "empty" }, t("mend.bud.noRows")));

  const add = () => {
    const chartOfAccountId = Number(accountPick.value);
    if (!chartOfAccountId) { toast(t("mend.bud.pickAccount"), "error"); return; }
    const valueId = valuePick && valuePick.value ? Number(valuePick.value) : null;
    const row = { chartOfAccountId, valueId, dimensionId: valueId ? dimensionOf.get(String(valueId)) : null, amounts: {} };
    if (rows.some((other) => rowKey(other) === rowKey(row))) { toast(t("mend.bud.already"), "error"); return; }
    rows.push(row);
    draw();
  };

  const form = h("form", { class: "form budget-form", id: "budget-form", novalidate: true },
    h("div", { class: "budget-head" },
      h("div", { class: "field" }, h("label", { for: "f-name" }, t("mend.bud.name")), name),
      h("div", { class: "field" }, h("label", { for: "f-year" }, t("mend.bud.year")), year)),
    h("div", { class: "field", "data-field": "lines" }, h("span", { class: "label" }, t("mend.bud.grid")), grid),
    h("div", { class: "toolbar budget-add" }, accountPick, valuePick, button(t("mend.bud.addAccount"), add)),
    h("div", { class: "form-error" }),
    h("div", { class: "form-actions" }, h("button", { type: "submit", class: "primary", id: "budget-save" }, t("common.save"))));

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    // each amount sent is a line: its cell answers to the line's place in the request (lines[3].amount)
    grid.querySelectorAll(".budget-amount").forEach((input) => input.removeAttribute("data-field"));
    const lines = [];
    rows.forEach((row, index) => MONTHS.forEach((month) => {
      const typed = String(row.amounts[month] ?? "").trim();
      if (typed === "") return;
      grid.querySelector(`#budget-${index}-${month}`)?.setAttribute("data-field", `lines[${lines.length}].amount`);
      lines.push({ chartOfAccountId: row.chartOfAccountId, month, amount: Number(typed),
        ...(row.valueId ? { dimensions: [{ dimensionId: row.dimensionId, valueId: row.valueId }] } : {}) });
    }));
    const body = { name: name.value.trim(), year: Number(year.value), lines };
    try {
      const saved = creating ? await api.post("/budgets", body)
        : await api.put(`/budgets/${budget.id}`, body, { headers: { "If-Match": String(budget.version) } });
      toast(t("mend.bud.saved", { name: saved.name }));
      ctx.navigate(`/budgets/${saved.id}`);
    } catch (error) {
      showErrors(form, error);
    }
  });
  ctx.root.append(pageHeader(creating ? t("mend.bud.new") : t("mend.bud.edit", { name: budget.name, year: budget.year }),
    h("a", { href: "#/budgets" }, t("mend.bud.back")),
    creating ? null : h("a", { href: `#/reports/budget-vs-actual?year=${budget.year}&month=12&budgetId=${budget.id}` },
      t("mend.bud.compare"))),
  h("p", { class: "help" }, t("mend.bud.gridHelp")), section(null, form));
  draw();
}
