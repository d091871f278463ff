// Home: what the company is owed and owes (its receivable and payable control accounts), the
// bank balances and the latest documents.
import { api } from "../api.js";
import { h } from "../dom.js";
import { date, money, today } from "../format.js";
import { addStrings, t } from "../i18n.js";
import { badge, pageHeader, section, tableView } from "../ui.js";

addStrings({
  es: { "home.title": "Inicio", "home.receivables": "Cuentas por cobrar", "home.payables": "Cuentas por pagar",
        "home.banks": "Saldos bancarios", "home.latest": "Últimos documentos", "home.noRule": "Sin cuenta configurada",
        "home.account": "Cuenta", "home.bank": "Banco", "home.balance": "Saldo",
        "doc.number": "Número", "doc.type": "Tipo", "doc.partner": "Cliente o proveedor", "doc.pending": "Pendiente" },
  en: { "home.title": "Home", "home.receivables": "Receivables", "home.payables": "Payables", "home.banks": "Bank balances",
        "home.account": "Account", "home.bank": "Bank", "home.balance": "Balance",
        "home.latest": "Latest documents", "home.noRule": "No account set up",
        "doc.number": "Number", "doc.type": "Type", "doc.partner": "Customer or supplier", "doc.pending": "Pending" },
});

// The control account's balance on the trial balance: the receivable (or payable) rule without
// a document type is the company's general one.
function controlBalance(rules, trial, operation) {
  const rule = rules.find((r) => r.operationType === operation && !r.documentType);
  if (!rule) return null;
  const row = trial.accounts.find((a) => a.chartOfAccountId === rule.chartOfAccountId);
  if (!row) return 0;
  return operation === "receivable" ? Number(row.debit) - Number(row.credit) : Number(row.credit) - Number(row.debit);
}

export async function render(ctx) {
  const [rules, trial, banks, latest] = await Promise.all([
    api.get("/account-determination-rules", { limit: 100 }),
    api.get("/journal-entries/trial-balance", { date: today() }),
    api.get("/bank-accounts", { limit: 100 }),
    api.get("/documents", { limit: 10 }),
  ]);
  const figure = (label, amount, id) => h("div", { class: "figure", id },
    h("span", { class: "figure-label" }, label),
    h("strong", {}, amount === null ? t("home.noRule") : money(amount)));
  ctx.root.append(pageHeader(t("home.title")),
    h("div", { class: "figures" },
      figure(t("home.receivables"), controlBalance(rules.rules, trial, "receivable"), "receivables"),
      figure(t("home.payables"), controlBalance(rules.rules, trial, "payable"), "payables")),
    section(t("home.banks"), tableView({ rows: banks.bankAccounts, columns: [
      { label: t("home.account"), value: (b) => h("a", { href: `#/banking/${b.id}` }, b.name) },
      { label: t("home.bank"), value: (b) => b.bankName || "" },
      { label: t("home.balance"), class: "num", value: (b) => money(b.balance, b.currency) }] })),
    section(t("home.latest"), tableView({ rows: latest.documents, onRowClick: (d) => ctx.navigate(`/documents/${d.id}`),
      columns: [
        { label: t("doc.number"), value: (d) => h("a", { href: `#/documents/${d.id}` }, d.number || `#${d.id}`) },
        { label: t("doc.type"), value: (d) => t(`doctype.${d.type}`) },
        { label: t("common.date"), value: (d) => date(d.date) },
        { label: t("common.status"), value: (d) => badge(d.status) },
        { label: t("common.total"), class: "num", value: (d) => money(d.total, d.currency) },
        { label: t("doc.pending"), class: "num", value: (d) => money(d.pending, d.currency) }] })));
}
