// Banking: the bank accounts with their balances (create, edit, delete, transfer), and one
// account with its transactions, manual deposits and withdrawals and its reconciliations.
import { api, listAll } from "../api.js";
import { crudPage } from "../crud.js";
import { append, h, replace } from "../dom.js";
import { date, dateTime, linkedDocumentName, money, today } from "../format.js";
import { t } from "../i18n.js";
import {
  act, badge, button, definitionList, describeError, errorBox, formDialog, formView, loadInto, openDialog, pageHeader, pagerView,
  section, tableView, toast,
} from "../ui.js";
import { clearingBadge, clearingCard, gatewaysByClearingAccount, payoutButtons } from "./banking-gateways.js";

const opened = new Set();  // the reconciliations opened from their address (?reconciliation=)
const accountLabel = (a) => `${a.code} · ${a.name}`;
const bankSource = { path: "/bank-accounts", field: "bankAccounts", label: (b) => `${b.name} (${b.currency})` };

function accountFields() {
  return [
    { name: "name", label: t("bank.name"), required: true },
    { name: "bankName", label: t("bank.bankName"), emptyAs: null },
    { name: "accountNumber", label: t("bank.accountNumber"), emptyAs: null },
    { name: "currency", label: t("bank.currency"), type: "select", required: true,
      options: ["HNL", "USD"].map((c) => ({ value: c, label: c })) },
    { name: "openingBalance", label: t("bank.openingBalance"), type: "number", value: "0.00" },
    { name: "openingBalanceDate", label: t("bank.openingBalanceDate"), type: "date", required: true, value: today() },
    { name: "chartOfAccountId", label: t("bank.ledgerAccount"), type: "select", required: true,
      source: { path: "/chart-of-accounts", field: "accounts", query: { type: "asset", isActive: true }, label: accountLabel } },
    { name: "isActive", label: t("bank.isActive"), type: "checkbox", value: true },
  ];
}

function transferDialog(done) {
  formDialog(t("bank.transfer"), {
    fields: [
      { name: "fromAccountId", label: t("bank.fromAccount"), type: "select", required: true, source: bankSource },
      { name: "toAccountId", label: t("bank.toAccount"), type: "select", required: true, source: bankSource },
      { name: "amount", label: t("bank.amount"), type: "number", required: true, min: "0.01" },
      { name: "transactionDate", label: t("bank.date"), type: "date", required: true, value: today() },
      { name: "reference", label: t("bank.reference") },
    ],
    submitLabel: t("bank.transfer"),
    onSubmit: (data) => api.post("/bank-transactions/transfer", data),
  }, (result) => { toast(t("bank.transferDone", { id: result.journalEntryId })); done(); });
}

export async function list(ctx) {
  const clearing = await gatewaysByClearingAccount();
  await crudPage({
    title: t("bank.title"), path: "/bank-accounts", field: "bankAccounts", createLabel: t("bank.new"),
    intro: h("p", { class: "help" }, t("bank.intro")),
    fields: accountFields(), editFields: accountFields(), canDelete: true,
    onRowClick: (b) => ctx.navigate(`/banking/${b.id}`),
    columns: [
      { label: t("bank.name"), value: (b) => [h("a", { href: `#/banking/${b.id}` }, b.name),
        clearing.has(b.id) ? [" ", clearingBadge(clearing.get(b.id))] : null] },
      { label: t("bank.bankName"), value: (b) => b.bankName || "" },
      { label: t("bank.accountNumber"), value: (b) => b.accountNumber || "" },
      { label: t("bank.currency"), value: (b) => b.currency },
      { label: t("bank.balance"), class: "num", value: (b) => money(b.balance, b.currency) },
      { label: t("common.status"), value: (b) => badge(b.isActive ? "active" : "inactive") },
    ],
    rowActions: (b, refresh) => payoutButtons(clearing.get(b.id), b, refresh),
  })(ctx);
  ctx.root.querySelector(".page-actions").append(button(t("bank.transfer"), () => transferDialog(ctx.refresh)));
}

// --- one account ------------------------------------------------------------------------------------

export async function detail(ctx) {
  const id = ctx.params.id;
  const page = Math.max(1, Number(ctx.query.page) || 1);
  const [account, clearing] = await Promise.all([api.get(`/bank-accounts/${id}`), gatewaysByClearingAccount()]);
  const ledger = await api.get(`/chart-of-accounts/${account.chartOfAccountId}`).catch(() => null);
  const cur = account.currency;
  const manual = () => formDialog(t("bank.manual"), {
    fields: [
      { name: "type", label: t("bank.type"), type: "select", required: true,
        options: ["deposit", "withdrawal"].map((v) => ({ value: v, label: t(`bank.type.${v}`) })) },
      { name: "amount", label: t("bank.amount"), type: "number", required: true, min: "0.01" },
      { name: "transactionDate", label: t("bank.date"), type: "date", required: true, value: today() },
      { name: "reference", label: t("bank.reference") },
      { name: "chartOfAccountId", label: t("bank.counterAccount"), type: "select", required: true,
        source: { path: "/chart-of-accounts", field: "accounts", query: { isActive: true }, label: accountLabel } },
    ],
    submitLabel: t("common.save"),
    onSubmit: (data) => api.post(`/bank-accounts/${id}/transactions`, data),
  }, () => { toast(t("bank.recorded")); ctx.refresh(); });
  const transactions = h("div", {});
  const reconciliations = h("div", {});
  // dom.js's append leaves out what is absent (no clearing card without a gateway); the DOM's writes "null"
  append(ctx.root, [
    pageHeader(account.name, h("a", { href: `#/banking/${id}/statements`, class: "button-like", id: "open-statements" },
      t("stmt.open")), button(t("bank.manual"), manual, "primary"),
      button(t("bank.newReconciliation"), () => reconciliationDialog(account, null, ctx.refresh))),
    h("div", { class: "figures" },
      h("div", { class: "figure", id: "bank-balance" }, h("span", { class: "figure-label" }, t("bank.balance")), h("strong", {}, money(account.balance, cur))),
      h("div", { class: "figure" }, h("span", { class: "figure-label" }, t("bank.reconciledBalance")),
        h("strong", {}, money(account.reconciledBalance, cur)))),
    clearingCard(clearing.get(account.id), account, ctx.refresh),
    section(null, definitionList([
      [t("bank.bankName"), account.bankName || t("common.none")],
      [t("bank.accountNumber"), account.accountNumber || t("common.none")],
      [t("bank.currency"), cur],
      [t("bank.openingBalance"), `${money(account.openingBalance, cur)} · ${date(account.openingBalanceDate)}`],
      [t("bank.ledgerAccount"), h("a", { href: `#/accounting/ledger?chartOfAccountId=${account.chartOfAccountId}` }, ledger ? accountLabel(ledger) : `#${account.chartOfAccountId}`)],
      [t("bank.lastReconciliation"), date(account.lastReconciliationDate)],
      [t("common.status"), badge(account.isActive ? "active" : "inactive")],
    ])),
    section(t("bank.transactions"), transactions),
    section(t("bank.reconciliations"), reconciliations),
    h("p", {}, h("a", { href: "#/banking" }, t("common.back")))]);
  // a reconciliation just started from a statement (bank-statements.js) opens at once, once: closing
  // the dialog refreshes the page at the same address
  if (ctx.query.reconciliation && !opened.has(ctx.query.reconciliation)) {
    opened.add(ctx.query.reconciliation);
    api.get(`/bank-accounts/${id}/reconciliations/${ctx.query.reconciliation}`)
      .then((found) => reconciliationDialog(account, found, ctx.refresh)).catch((error) => toast(describeError(error), "error"));
  }
  await Promise.all([
    loadInto(transactions, async () => {
      const answer = await api.get(`/bank-accounts/${id}/transactions`, { page, limit: 20 });
      return [transactionTable(answer.transactions, cur),
        pagerView({ page, limit: 20, total: answer.total, onPage: (next) => ctx.navigate(`/banking/${id}?page=${next}`) })];
    }),
    loadInto(reconciliations, async () => {
      const answer = await api.get(`/bank-accounts/${id}/reconciliations`, { limit: 100 });
      return tableView({ rows: answer.reconciliations, columns: [
        { label: t("bank.statementDate"), value: (r) => date(r.statementDate) },
        { label: t("bank.statementBalance"), class: "num", value: (r) => money(r.statementBalance, cur) },
        { label: t("bank.clearedBalance"), class: "num", value: (r) => money(r.clearedBalance, cur) },
        { label: t("bank.difference"), class: "num", value: (r) => money(r.difference, cur) },
        { label: t("common.status"), value: (r) => badge(r.status) },
        { label: t("common.actions"), class: "actions", value: (r) => (r.status !== "draft" ? dateTime(r.completedAt) : [
          button(t("common.edit"), () => reconciliationDialog(account, r, ctx.refresh)),
          button(t("bank.complete"), () => act(t("bank.completeConfirm", { difference: money(r.difference, cur) }),
            () => api.post(`/bank-accounts/${id}/reconciliations/${r.id}/complete`, {}, { headers: { "If-Match": String(r.version) } }),
            ctx.refresh, t("bank.completed")), "primary"),
          button(t("common.delete"), () => act(t("bank.deleteDraft"),
            () => api.del(`/bank-accounts/${id}/reconciliations/${r.id}`), ctx.refresh, t("common.deleted")), "danger"),
        ]) },
      ] });
    }),
  ]);
}

function transactionTable(rows, cur, picker) {
  return tableView({ rows, columns: [
    picker ? { label: "✓", value: (x) => picker(x) } : null,
    { label: t("bank.date"), value: (x) => date(x.transactionDate) },
    { label: t("bank.type"), value: (x) => t(`bank.type.${x.type}`) },
    { label: t("bank.direction"), value: (x) => t(`bank.direction.${x.direction}`) },
    { label: t("bank.amount"), class: "num", value: (x) => money(x.direction === "debit" ? -Number(x.amount) : x.amount, cur) },
    { label: t("bank.reference"), value: (x) => x.reference || "" },
    picker ? null : { label: t("bank.entry"), value: (x) => (x.journalEntryId
      ? h("a", { href: `#/accounting/entries/${x.journalEntryId}` }, `#${x.journalEntryId}`) : "") },
    picker ? null : { label: t("bank.document"), value: (x) => (x.documentId ? h("a", { href: `#/documents/${x.documentId}`, class: "doc-number" },
      linkedDocumentName(x.documentId, x.documentNumber, x.documentNumeroControl)) : "") },
    picker ? null : { label: t("bank.reconciled"), value: (x) => badge(x.reconciled ? "true" : "false") },
  ].filter(Boolean) });
}

// Create (POST) or update (PATCH) a draft: statement date and balance, and the ticked transactions;
// after saving it shows the difference and offers to complete it.
async function reconciliationDialog(account, current, refresh) {
  const id = account.id;
  const cur = account.currency;
  const open = (await listAll(`/bank-accounts/${id}/transactions`, "transactions")).filter((x) => !x.reconciled);
  const ticked = new Set(current ? current.clearedTransactionIds : []);
  let draft = current;
  const result = h("div", { id: "reconciliation-result" });
  const picker = (x) => h("input", { type: "checkbox", name: "clearedTransactionIds", value: x.id, checked: ticked.has(x.id) || undefined,
    "aria-label": `${x.transactionDate} ${x.amount}` });
  const list = h("div", { class: "field", "data-field": "clearedTransactionIds" }, h("p", {}, t("bank.pickTransactions")),
    open.length ? transactionTable(open, cur, picker) : h("p", { class: "empty" }, t("bank.noOpen")));
  const showDraft = () => replace(result, draft ? [definitionList([
    [t("bank.openingReconciled"), money(draft.openingBalance, cur)],
    [t("bank.clearedBalance"), money(draft.clearedBalance, cur)],
    [t("bank.statementBalance"), money(draft.statementBalance, cur)],
    [t("bank.difference"), h("strong", { id: "reconciliation-difference" }, money(draft.difference, cur))],
  ]), h("div", { class: "form-actions" }, button(t("bank.complete"), complete, "primary"))] : null);
  const complete = async () => {
    try {
      await api.post(`/bank-accounts/${id}/reconciliations/${draft.id}/complete`, {}, { headers: { "If-Match": String(draft.version) } });
      toast(t("bank.completed"));
      close();  // closing refreshes the page
    } catch (error) { result.append(errorBox(error)); }
  };
  const form = formView({
    values: draft || { statementDate: today() }, submitLabel: t("bank.saveDraft"), extra: list,
    fields: [
      { name: "statementDate", label: t("bank.statementDate"), type: "date", required: true },
      { name: "statementBalance", label: t("bank.statementBalance"), type: "number", required: true },
    ],
    onSubmit: async (data) => {
      const body = { ...data, clearedTransactionIds: [...form.querySelectorAll("input[name=clearedTransactionIds]:checked")]
        .map((input) => Number(input.value)) };
      draft = draft
        ? await api.patch(`/bank-accounts/${id}/reconciliations/${draft.id}`, body, { headers: { "If-Match": String(draft.version) } })
        : await api.post(`/bank-accounts/${id}/reconciliations`, body);
      form.querySelector(".form-error").replaceChildren();
      toast(t("bank.draftSaved", { difference: money(draft.difference, cur) }));
      showDraft();
    },
  });
  const { close } = openDialog(current ? t("bank.editReconciliation", { id: current.id }) : t("bank.newReconciliation"), form, result);
  form.closest("dialog").addEventListener("close", () => refresh());
  showDraft();
}
