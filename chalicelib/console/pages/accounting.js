// Accounting: the chart of accounts as a tree, an account's ledger, the trial balance at a date,
// the accounting periods (close and reopen) and, on the same page, the month-end revaluation
// (pages/revaluations.js) and the fiscal years (the closing
// entry on December 31, and its reversal when a year is reopened).
import { ApiError, api, listAll } from "../api.js";
import { crudPage } from "../crud.js";
import { h, replace } from "../dom.js";
import { date, dateTime, money, today } from "../format.js";
import { ACCOUNTING_ROLES, t } from "../i18n.js";
import {
  act, badge, button, confirmAction, definitionList, describeError, formDialog, formView, loadInto, pageHeader, section,
  showErrors, tableView, toast, withQuery,
} from "../ui.js";
import { dimensionFields, dimensionSubtitle, loadDimensions, trialBalanceByDimension } from "./dimension-filters.js";
import { revaluations } from "./revaluations.js";

const TYPES = ["asset", "liability", "equity", "income", "cost", "expense"];

const accountLabel = (a) => `${a.code} · ${a.name}`;
// A table's totals line (tableView has no footer of its own).
function withFooter(table, cells) {
  if (table.tagName === "TABLE") table.append(h("tfoot", {}, h("tr", {}, cells.map(([text, cls]) => h("td", { class: cls }, text)))));
  return table;
}

// Accounts in tree order (each parent followed by its children, by code) with their depth.
function treeOrder(accounts) {
  const children = new Map();
  const known = new Set(accounts.map((a) => a.id));
  for (const account of accounts) {
    const parent = known.has(account.parentId) ? account.parentId : null;
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent).push(account);
  }
  const ordered = [];
  const visit = (parent, depth) => {
    for (const account of (children.get(parent) || []).sort((a, b) => a.code.localeCompare(b.code))) {
      ordered.push({ account, depth, hasChildren: children.has(account.id) });
      visit(account.id, depth + 1);
    }
  };
  visit(null, 0);
  return ordered;
}

// Where the income statement places an income, cost or expense account (none: by its type or parent).
const STATEMENT_SECTIONS = ["revenue", "cost_of_sales", "operating_expenses", "other_income", "other_expenses",
  "financial_income", "financial_costs", "income_tax"];

function accountFields(accounts, exceptId) {
  return [
    { name: "code", label: t("acc.code"), required: true },
    { name: "name", label: t("acc.name"), required: true },
    { name: "type", label: t("acc.type"), type: "select", required: true,
      options: TYPES.map((type) => ({ value: type, label: t(`acc.type.${type}`) })) },
    { name: "parentId", label: t("acc.parent"), type: "select", numeric: true, emptyAs: null,
      options: accounts.filter((a) => a.id !== exceptId).map((a) => ({ value: a.id, label: accountLabel(a) })) },
    { name: "description", label: t("acc.description"), type: "textarea", emptyAs: null },
    { name: "statementSection", label: t("acc.statementSection"), type: "select", emptyAs: null,
      help: t("acc.statementSectionHint"),
      options: STATEMENT_SECTIONS.map((place) => ({ value: place, label: t(`acc.section.${place}`) })) },
    { name: "isActive", label: t("acc.isActive"), type: "checkbox", value: true },
  ];
}

export async function chart(ctx) {
  const accounts = await listAll("/chart-of-accounts", "accounts");
  const rerender = () => ctx.refresh();
  const create = () => formDialog(t("acc.newAccount"), { fields: accountFields(accounts), submitLabel: t("common.create"),
    onSubmit: (data) => api.post("/chart-of-accounts", data) }, rerender);
  const edit = (account) => formDialog(t("acc.editAccount"), { fields: accountFields(accounts, account.id), values: account,
    onSubmit: (data) => api.put(`/chart-of-accounts/${account.id}`, data, { headers: { "If-Match": String(account.version) } }),
  }, rerender);
  ctx.root.append(pageHeader(t("acc.chart"), button(t("acc.newAccount"), create, "primary")));
  if (!accounts.length) {
    ctx.root.append(section(null, h("p", { class: "empty" }, t("acc.emptyChart")),
      button(t("acc.import"), async () => {
        try {
          const result = await api.post("/chart-of-accounts/import-default");
          toast(t("acc.imported", { accounts: result.accountsCreated, rules: result.rulesCreated }));
          rerender();
        } catch (error) { toast(describeError(error), "error"); }
      }, "primary")));
    return;
  }
  const search = h("input", { type: "search", id: "f-search", value: ctx.query.q || "", "aria-label": t("acc.filter"),
                              placeholder: t("acc.filter") });
  const body = h("div", {});
  const draw = () => {
    const needle = search.value.trim().toLowerCase();
    const rows = treeOrder(accounts).filter(({ account }) => !needle
      || account.code.toLowerCase().startsWith(needle) || account.name.toLowerCase().includes(needle));
    replace(body, tableView({ rows, columns: [
      { label: t("acc.code"), value: ({ account }) => h("a", { href: `#/accounting/ledger?chartOfAccountId=${account.id}`,
        title: t("acc.ledgerLink") }, account.code) },
      { label: t("acc.name"), value: ({ account, depth, hasChildren }) =>
        ["\u2003".repeat(depth), hasChildren ? h("strong", {}, account.name) : account.name] },
      { label: t("acc.type"), value: ({ account }) => t(`acc.type.${account.type}`) },
      { label: t("acc.normal"), value: ({ account }) => t(`acc.normal.${account.normalBalance}`) },
      { label: t("common.status"), value: ({ account }) => badge(account.isActive ? "active" : "inactive") },
      { label: t("common.actions"), class: "actions", value: ({ account }) => [
        h("a", { href: `#/accounting/ledger?chartOfAccountId=${account.id}` }, t("acc.ledgerLink")),
        button(t("common.edit"), () => edit(account)),
        account.hasPostings ? null : button(t("common.delete"), () => act(
          t("acc.deleteConfirm", { code: account.code, name: account.name }),
          () => api.del(`/chart-of-accounts/${account.id}`), rerender, t("common.deleted")), "danger"),
      ] },
    ] }));
  };
  search.addEventListener("input", draw);
  ctx.root.append(h("div", { class: "toolbar" }, h("div", { class: "field" }, search)), section(null, body));
  draw();
}

export async function ledger(ctx) {
  const accounts = await listAll("/chart-of-accounts", "accounts");
  const query = { chartOfAccountId: ctx.query.chartOfAccountId || "", startDate: ctx.query.startDate || "",
                  endDate: ctx.query.endDate || "" };
  const filters = formView({ className: "inline", submitLabel: t("acc.show"), values: query, fields: [
    { name: "chartOfAccountId", label: t("acc.account"), type: "select", required: true,
      options: [{ value: "", label: t("common.none") }, ...accounts.map((a) => ({ value: a.id, label: accountLabel(a) }))] },
    { name: "startDate", label: t("acc.startDate"), type: "date" },
    { name: "endDate", label: t("acc.endDate"), type: "date" },
  ], onSubmit: async (data) => ctx.navigate(withQuery("/accounting/ledger", data)) });
  ctx.root.append(pageHeader(t("acc.ledger")), section(null, filters));
  if (!query.chartOfAccountId) { ctx.root.append(h("p", { class: "empty" }, t("acc.pickAccount"))); return; }
  const load = (cursor) => api.get("/journal-entries/ledger", { ...query, cursor });
  const first = await load();
  filters.elements.startDate.value = first.startDate;
  filters.elements.endDate.value = first.endDate;
  const postings = [...first.postings];
  const body = h("div", {});
  let next = first.nextCursor;
  const draw = () => {
    const table = tableView({ rows: postings, columns: [
      { label: t("common.date"), value: (p) => date(p.date) },
      { label: t("acc.entry"), value: (p) => h("a", { href: `#/accounting/entries/${p.journalEntryId}` }, `#${p.journalEntryId}`) },
      { label: t("acc.description"), value: (p) => [p.description || "", p.lineDescription ? ` · ${p.lineDescription}` : ""] },
      { label: t("acc.debit"), class: "num", value: (p) => (Number(p.debit) ? money(p.debit) : "") },
      { label: t("acc.credit"), class: "num", value: (p) => (Number(p.credit) ? money(p.credit) : "") },
      { label: t("acc.balance"), class: "num", value: (p) => money(p.balance) },
    ] });
    replace(body, next ? table : withFooter(table, [[t("acc.totals")], [""], [""], [money(first.totalDebit), "num"],
      [money(first.totalCredit), "num"], [money(first.closingBalance), "num"]]),
    next ? button(t("acc.more"), async () => {
      const page = await load(next);
      postings.push(...page.postings);
      next = page.nextCursor;
      draw();
    }) : null);
  };
  const account = first.account;
  ctx.root.append(
    h("div", { class: "figures" },
      h("div", { class: "figure", id: "opening-balance" }, h("span", { class: "figure-label" }, t("acc.opening")), h("strong", {}, money(first.openingBalance))),
      h("div", { class: "figure", id: "closing-balance" }, h("span", { class: "figure-label" }, t("acc.closing")), h("strong", {}, money(first.closingBalance)))),
    section(accountLabel(account), definitionList([
      [t("acc.type"), t(`acc.type.${account.type}`)],
      [t("acc.period"), `${date(first.startDate)} – ${date(first.endDate)}`],
      [t("acc.totalDebit"), money(first.totalDebit)], [t("acc.totalCredit"), money(first.totalCredit)],
    ]), body));
  draw();
}

export async function trialBalance(ctx) {
  const at = ctx.query.date || today();
  // issue 44: one cost centre's postings, or a column per value of a dimension
  const asked = { date: at, dimensionValueId: ctx.query.dimensionValueId, groupByDimensionId: ctx.query.groupByDimensionId };
  const [answer, dimensions] = await Promise.all([api.get("/journal-entries/trial-balance", asked), loadDimensions()]);
  const filters = formView({ className: "inline report-filters", submitLabel: t("acc.show"), values: asked,
    fields: [{ name: "date", label: t("acc.atDate"), type: "date", required: true }, ...dimensionFields(dimensions)],
    onSubmit: async (data) => ctx.navigate(withQuery("/accounting/trial-balance", data)) });
  if (answer.dimensionColumns) {
    ctx.root.append(pageHeader(t("acc.trial")), section(null, filters),
      section([`${t("acc.atDate")} ${date(answer.date)}`, dimensionSubtitle(answer)], trialBalanceByDimension(answer)));
    return;
  }
  const table = tableView({ rows: answer.accounts, columns: [
    { label: t("acc.code"), value: (r) => h("a", { href: `#/accounting/ledger?chartOfAccountId=${r.chartOfAccountId}&endDate=${answer.date}` }, r.code) },
    { label: t("acc.name"), value: (r) => r.name },
    { label: t("acc.debit"), class: "num", value: (r) => money(r.debit) },
    { label: t("acc.credit"), class: "num", value: (r) => money(r.credit) },
    { label: t("acc.balance"), class: "num", value: (r) => money(r.balance) },
  ] });
  const balanced = Number(answer.totalDebit) === Number(answer.totalCredit);
  ctx.root.append(pageHeader(t("acc.trial")), section(null, filters),
    section([`${t("acc.atDate")} ${date(answer.date)}`, dimensionSubtitle(answer)],
      withFooter(table, [[t("acc.totals")], [""], [money(answer.totalDebit), "num"], [money(answer.totalCredit), "num"], [""]]),
      h("p", { id: "trial-status" }, h("span", { class: `badge badge-${balanced ? "completed" : "failed"}` },
        t(balanced ? "acc.balanced" : "acc.unbalanced")),
      ` ${t("acc.debitBalances")}: ${money(answer.totalDebitBalance)} · ${t("acc.creditBalances")}: ${money(answer.totalCreditBalance)}`)));
}

export async function periods(ctx) {
  await periodList(ctx);
  await revaluations(ctx);
  await fiscalYears(ctx);
}

const periodList = (ctx) => crudPage({
  title: t("acc.periods"), path: "/accounting-periods", field: "accountingPeriods", createLabel: t("acc.newPeriod"),
  intro: h("p", { class: "help" }, t("acc.periodsHelp")),
  fields: [
    { name: "name", label: t("acc.name"), required: true },
    { name: "startDate", label: t("acc.startDate"), type: "date", required: true },
    { name: "endDate", label: t("acc.endDate"), type: "date", required: true },
  ],
  columns: [
    { label: t("acc.name"), value: (p) => p.name },
    { label: t("acc.startDate"), value: (p) => date(p.startDate) },
    { label: t("acc.endDate"), value: (p) => date(p.endDate) },
    { label: t("common.status"), value: (p) => badge(p.status) },
    { label: t("acc.closedAt"), value: (p) => (p.status === "closed" ? dateTime(p.closedAt) : "") },
  ],
  rowActions: (p, refresh) => [p.status === "open"
    ? button(t("acc.closePeriod"), () => act(t("acc.closeConfirm", { name: p.name }),
      () => api.post(`/accounting-periods/${p.id}/close`), refresh, t("acc.periodClosed")), "danger")
    : button(t("acc.reopenPeriod"), () => act(t("acc.reopenConfirm", { name: p.name }),
      () => api.post(`/accounting-periods/${p.id}/reopen`), refresh, t("acc.periodReopened")))],
})(ctx);

// --- fiscal years ---------------------------------------------------------------------------------

// who may close and reopen a year (the API's ACCOUNTING permission)
// The year's closing entries, each marked once a reopening reversed it (its page links the reversal).
const closingLinks = (year) => year.closingEntryIds.map((id, i) => [i ? ", " : "",
  h("a", { href: `#/accounting/entries/${id}` }, `#${id}`),
  year.reopeningEntryIds.includes(id) ? h("small", { class: "help" }, ` (${t("fy.reversed")})`) : null]);

// The refusals the API may give each action, said in this page's words; its own message otherwise
// (FISCAL_YEAR_ORDER: the API names the years still open, or the later year still closed).
const EXPLAINED = { close: ["FISCAL_YEAR_STATUS", "FISCAL_YEAR_NOT_ENDED", "ACCOUNT_RULE_MISSING"],
                    reopen: ["FISCAL_YEAR_STATUS"] };
function explained(error, action, year) {
  if (error instanceof ApiError && EXPLAINED[action].includes(error.code)) {
    error.message = t(`fy.error.${action}.${error.code}`, { year, next: year + 1 });
  }
  return error;
}

function clearErrors(form) {
  form.querySelectorAll(".field-error").forEach((node) => node.remove());
  form.querySelectorAll("[aria-invalid]").forEach((node) => node.removeAttribute("aria-invalid"));
  replace(form.querySelector(".form-error"));
}

async function fiscalYears(ctx) {
  const canAct = ACCOUNTING_ROLES.includes(ctx.session.me?.role);
  const body = h("div", { id: "fiscal-years" });
  const yearInput = h("input", { type: "number", id: "f-year", name: "year", "data-field": "year", min: "1900",
    max: "2999", step: "1", required: true, value: String(new Date().getFullYear() - 1) });
  const form = h("form", { class: "toolbar", id: "fiscal-year-form", novalidate: true },
    h("div", { class: "field" }, h("label", { for: "f-year" }, t("fy.year")), yearInput),
    button(t("fy.close"), () => run("close", yearInput.value), "danger"),
    button(t("fy.reopen"), () => run("reopen", yearInput.value)),
    h("div", { class: "form-error" }));
  form.addEventListener("submit", (event) => event.preventDefault());
  const refresh = () => loadInto(body, async () => {
    const answer = await api.get("/fiscal-years");
    return tableView({ rows: answer.fiscalYears, empty: t("fy.empty"), columns: [
      { label: t("fy.year"), value: (y) => h("strong", {}, String(y.year)) },
      { label: t("common.status"), value: (y) => badge(y.status) },
      { label: t("fy.closingDate"), value: (y) => date(y.closingDate) },
      { label: t("fy.closingEntries"), value: closingLinks },
      { label: t("fy.closedAt"), value: (y) => (y.closedAt ? dateTime(y.closedAt) : "") },
      { label: t("fy.reopenedAt"), value: (y) => (y.reopenedAt ? dateTime(y.reopenedAt) : "") },
      canAct ? { label: t("common.actions"), class: "actions", value: (y) => (["open", "closing"].includes(y.status)
        ? button(t("fy.closeShort"), () => run("close", y.year), "danger")
        : button(t("fy.reopenShort"), () => run("reopen", y.year))) } : null,
    ].filter(Boolean) });
  });
  // A year asked for (in the form or on its row): confirmed, sent, the list shown again.
  async function run(action, value) {
    const year = Number(String(value).trim());
    yearInput.value = String(value).trim();
    clearErrors(form);
    if (!Number.isInteger(year) || year < 1900 || year > 2999) {
      const message = t("fy.badYear");
      showErrors(form, new ApiError(400, { message, code: "VALIDATION_ERROR", details: [{ field: "year", message }] }));
      return;
    }
    if (!(await confirmAction(t(`fy.${action}Confirm`, { year })))) return;
    try {
      await api.post(`/fiscal-years/${year}/${action}`);
      toast(t(action === "close" ? "fy.closed" : "fy.reopened", { year }));
      await refresh();
    } catch (error) {
      showErrors(form, explained(error, action, year));
    }
  }
  ctx.root.append(h("section", { class: "card", id: "fiscal-years-card" }, h("h2", {}, t("fy.title")),
    h("p", { class: "help" }, t("fy.help")), canAct ? form : null, body));
  await refresh();
}
