// Home: what the company is owed and owes (its receivable and payable control accounts), charts of
// the last 12 months' sales and purchases, of the receivables by age and of the cash in each bank
// account (each with its figures as a table), the overdue invoices and the latest documents.
import { api } from "../api.js";
import { barList, chartCard, columnChart, figuresTable, legend } from "../charts.js";
import { h } from "../dom.js";
import { companyCurrency, date, documentName, documentTypeName, money, today } from "../format.js";
import { locale, t } from "../i18n.js";
import { daysOverdue, statusBadges } from "../payment-status.js";
import { loadInto, pageHeader, section, tableView, withQuery } from "../ui.js";
import { partnerNames } from "./documents.js";

// The control account's balance on the trial balance: the receivable (or payable) rule without
// a document type is the company's general one.
function controlBalance(rules, trial, operation) {
  const rule = rules.find((r) => r.operationType === operation && !r.documentType);
  if (!rule) return null;
  const row = trial.accounts.find((a) => a.chartOfAccountId === rule.chartOfAccountId);
  if (!row) return 0;
  return operation === "receivable" ? Number(row.debit) - Number(row.credit) : Number(row.credit) - Number(row.debit);
}

// --- sales and purchases by month ------------------------------------------------------------------

// The last 12 months ("YYYY-MM"), oldest first, ending with the month of `day`.
export function lastMonths(day, count = 12) {
  const [year, month] = day.split("-").map(Number);
  return Array.from({ length: count }, (_, i) => {
    const at = new Date(Date.UTC(year, month - 1 - (count - 1 - i), 1));
    return `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, "0")}`;
  });
}

const monthName = (month, style) => new Intl.DateTimeFormat(locale(), { ...style, timeZone: "UTC" })
  .format(new Date(`${month}-15T00:00:00Z`));

// Amounts summed in cents: the API's figures have two decimals, and so does their sum.
const cents = (value) => Math.round(Number(value) * 100);

// Honduras: each month's ISV summary carries the sales and purchase books' totals (12 small answers).
async function honduranMonths(months) {
  const summaries = await Promise.all(months.map((month) => api.get("/reports/isv-summary", { month })));
  return summaries.map((summary) => ({ sales: Number(summary.sales.total), purchases: Number(summary.purchases.total) }));
}

// El Salvador: the three IVA books over the 12 months (a book spans up to 366 days), their rows'
// totals summed by month: sales to consumers (a row a day) and to taxpayers, and purchases.
async function salvadoranMonths(months, endDate) {
  const period = { startDate: `${months[0]}-01`, endDate };
  const [consumers, taxpayers, purchases] = await Promise.all(["/reports/iva-sales-consumers",
    "/reports/iva-sales-taxpayers", "/reports/iva-purchases"].map((path) => api.get(path, period)));
  const byMonth = (books) => {
    const sums = new Map(months.map((month) => [month, 0]));
    for (const book of books) {
      for (const row of book.rows) sums.set(row.date.slice(0, 7), (sums.get(row.date.slice(0, 7)) || 0) + cents(row.total));
    }
    return months.map((month) => sums.get(month) / 100);
  };
  const sales = byMonth([consumers, taxpayers]);
  const bought = byMonth([purchases]);
  return months.map((_, i) => ({ sales: sales[i], purchases: bought[i] }));
}

async function monthlyCard(country) {
  const day = today();
  const months = lastMonths(day);
  const figures = country === "SV" ? await salvadoranMonths(months, day) : await honduranMonths(months);
  const series = [
    { label: t("home.sales"), values: figures.map((f) => f.sales), className: "series-sales" },
    { label: t("home.purchases"), values: figures.map((f) => f.purchases), className: "series-purchases" },
  ];
  const caption = t("home.monthlyCaption", { from: monthName(months[0], { month: "long", year: "numeric" }),
                                             to: monthName(months.at(-1), { month: "long", year: "numeric" }) });
  return chartCard({
    title: t("home.monthly"), id: "chart-monthly", note: t("home.monthlyNote"),
    chart: figures.some((f) => f.sales || f.purchases)
      ? [legend(series), columnChart({ labels: months.map((m) => monthName(m, { month: "short" })),
        sublabels: months.map((m, i) => (i === 0 || m.endsWith("-01") ? m.slice(0, 4) : null)), series, format: money })]
      : h("p", { class: "empty" }, t("home.noMonthly")),
    table: figuresTable({ caption, id: "monthly-figures", columns: [t("home.month"), t("home.sales"), t("home.purchases")],
      rows: months.map((month, i) => ({ attributes: { "data-month": month },
        cells: [monthName(month, { month: "long", year: "numeric" }), money(figures[i].sales), money(figures[i].purchases)] })) }),
  });
}

// --- receivables by age ----------------------------------------------------------------------------

const BUCKETS = ["current", "days1To30", "days31To60", "days61To90", "over90"];

async function agingCard() {
  const aged = await api.get("/reports/aged-receivables");
  const items = BUCKETS.map((bucket) => ({ label: t(`home.age.${bucket}`), value: Number(aged.totals[bucket]),
                                          className: `age-${bucket}` }));
  return chartCard({
    title: t("home.aging"), id: "chart-aging",
    chart: items.some((item) => item.value) ? barList({ items, format: money }) : h("p", { class: "empty" }, t("home.noAging")),
    table: figuresTable({ caption: t("home.agingCaption", { date: date(aged.date) }), id: "aging-figures",
      columns: [t("home.age"), t("home.balance")],
      rows: BUCKETS.map((bucket) => ({ attributes: { "data-bucket": bucket },
                                       cells: [t(`home.age.${bucket}`), money(aged.totals[bucket])] })),
      foot: { attributes: { "data-bucket": "total" }, cells: [t("common.total"), money(aged.totals.total)] } }),
  });
}

// --- cash by bank account --------------------------------------------------------------------------

async function cashCard() {
  const banks = (await api.get("/bank-accounts", { limit: 100 })).bankAccounts;
  const own = banks.filter((b) => b.currency === companyCurrency());
  const chart = own.length
    ? barList({ items: own.map((b) => ({ label: b.name, value: Number(b.balance), className: "series-cash" })), format: money })
    : h("p", { class: "empty" }, t("home.noBanks"));
  return chartCard({
    title: t("home.cash"), id: "chart-cash", chart,
    note: own.length < banks.length ? t("home.otherCurrency") : null,
    table: figuresTable({ caption: t("home.cashCaption"), id: "cash-figures",
      columns: [t("home.account"), { label: t("home.bank"), text: true }, { label: t("home.currency"), text: true },
        t("home.balance")],
      rows: banks.map((b) => ({ attributes: { "data-bank-account": b.id },
        cells: [h("a", { href: `#/banking/${b.id}` }, b.name), b.bankName || "", b.currency, money(b.balance, b.currency)] })) }),
  });
}

// --- overdue invoices ------------------------------------------------------------------------------

// The sales invoices (01 and 113) past their due date with something pending, as of the company's
// today (GET /documents?paymentStatus=overdue answers the longest overdue first); "see all" lists every
// overdue document, the purchases the company owes too.
const OVERDUE_TYPES = ["01", "113"];
const OVERDUE_SHOWN = 10;

async function overdueCard(ctx) {
  const answers = await Promise.all(OVERDUE_TYPES.map((type) =>
    api.get("/documents", { paymentStatus: "overdue", type, limit: OVERDUE_SHOWN })));
  const count = answers.reduce((sum, answer) => sum + answer.total, 0);
  const rows = answers.flatMap((answer) => answer.documents)
    .sort((a, b) => b.daysOverdue - a.daysOverdue || a.id - b.id).slice(0, OVERDUE_SHOWN);
  const names = rows.length ? await partnerNames(rows.map((d) => d.businessPartnerId)) : new Map();
  const more = count > rows.length
    ? h("p", { class: "more" }, h("a", { href: `#${withQuery("/documents", { paymentStatus: "overdue" })}` },
      t("paystatus.overdueAll")))
    : null;
  return h("div", { id: "overdue-invoices", class: "table-scroll" }, tableView({
    rows, empty: t("paystatus.noOverdue"), onRowClick: (d) => ctx.navigate(`/documents/${d.id}`),
    columns: [
      { label: t("doc.number"), value: (d) => h("a", { href: `#/documents/${d.id}`, class: "doc-number" }, documentName(d)) },
      { label: t("paystatus.customer"), value: (d) => names.get(d.businessPartnerId) || "" },
      { label: t("doc.dueDate"), value: (d) => date(d.dueDate) },
      { label: t("paystatus.daysOverdueColumn"), class: "num days-overdue", value: daysOverdue },
      { label: t("doc.pending"), class: "num", value: (d) => money(d.pending, d.currency) }] }), more);
}

// A card that loads on its own: one chart's refusal (a report this role or set-up cannot give)
// is said in that card, the others still show.
function loading(load, wide = false) {
  const holder = h("div", { class: `chart-holder${wide ? " wide" : ""}` });
  return { holder, done: loadInto(holder, load) };
}

export async function render(ctx) {
  const [rules, trial, latest] = await Promise.all([
    api.get("/account-determination-rules", { limit: 100 }),
    api.get("/journal-entries/trial-balance", { date: today() }),
    api.get("/documents", { limit: 10 }),
  ]);
  const figure = (label, amount, id) => h("div", { class: "figure", id },
    h("span", { class: "figure-label" }, label),
    h("strong", {}, amount === null ? t("home.noRule") : money(amount)));
  const monthly = loading(() => monthlyCard(ctx.session.company?.country), true);
  const aging = loading(agingCard);
  const cash = loading(cashCard);
  const overdue = h("div", {});
  const overdueDone = loadInto(overdue, () => overdueCard(ctx));
  ctx.root.append(pageHeader(t("home.title")),
    h("div", { class: "figures" },
      figure(t("home.receivables"), controlBalance(rules.rules, trial, "receivable"), "receivables"),
      figure(t("home.payables"), controlBalance(rules.rules, trial, "payable"), "payables")),
    h("div", { class: "charts" }, monthly.holder, aging.holder, cash.holder),
    section(t("paystatus.overdueTitle"), overdue),
    section(t("home.latest"), tableView({ rows: latest.documents, onRowClick: (d) => ctx.navigate(`/documents/${d.id}`),
      columns: [
        { label: t("doc.number"), value: (d) => h("a", { href: `#/documents/${d.id}` }, documentName(d)) },
        { label: t("doc.type"), value: (d) => documentTypeName(d) },
        { label: t("common.date"), value: (d) => date(d.date) },
        { label: t("common.status"), value: (d) => statusBadges(d) },
        { label: t("common.total"), class: "num", value: (d) => money(d.total, d.currency) },
        { label: t("doc.pending"), class: "num", value: (d) => money(d.pending, d.currency) }] })));
  await Promise.all([monthly.done, aging.done, cash.done, overdueDone]);
}
