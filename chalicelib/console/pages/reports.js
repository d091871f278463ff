// Reports: the balance sheet and the income statement (each with an optional comparison column),
// the aged receivables and payables and, by the company's country, Honduras' sales and purchase
// books and ISV summary or El Salvador's three IVA books. Each page picks its period as its route
// takes it (dates, or a month), shows the API's answer as it is (figures are formatted, never
// computed here), and downloads the same report as CSV, XLSX or PDF: the route answers those when
// the first Accept value asks for them, so a download is a fetch with that header whose blob is
// saved under a name that says which report and which period.
import { request } from "../api.js";
import { append, h } from "../dom.js";
import { date, documentName, documentTypeName, money, today } from "../format.js";
import { daysCount } from "../payment-status.js";
import { locale, t } from "../i18n.js";
import { exportButtons, formView, pageHeader, section, showErrors, withQuery } from "../ui.js";
import { dimensionFields, dimensionHeadings, dimensionSubtitle, loadDimensions } from "./dimension-filters.js";

// --- periods ---------------------------------------------------------------------------------------

const thisMonth = () => today().slice(0, 7);
const firstDay = (month) => `${month}-01`;
function lastDay(month) {
  const [year, number] = month.split("-").map(Number);
  return new Date(Date.UTC(year, number, 0)).toISOString().slice(0, 10);
}

export const dateField = (name, required = false) => ({ name, label: t(`rep.${name}`), type: "date", required });

// --- the page every report shares ------------------------------------------------------------------

// One report's page: its filters (the address keeps them), the answer drawn, the downloads.
// report: {path, route, title, fields, defaults() -> query, query(answer) -> the query that gave
//          it, file(answer) -> file name without extension, draw(answer) -> nodes}
// report.load?() -> {fields?, ...}: what the page reads before its filters (more filters, choices)
//          and hands to draw(answer, loaded).
export async function reportPage(ctx, report) {
  const loaded = report.load ? await report.load() : {};
  const fields = [...report.fields, ...(loaded.fields || [])];
  const asked = Object.fromEntries(fields.map((field) => [field.name, ctx.query[field.name] || ""]));
  const query = Object.values(asked).some(Boolean) ? asked : { ...asked, ...report.defaults() };
  const filters = formView({ className: "inline report-filters", submitLabel: t("rep.show"), values: query,
    fields, onSubmit: async (data) => ctx.navigate(withQuery(report.route, data)) });
  const actions = h("div", { class: "page-actions downloads" });
  ctx.root.append(pageHeader(t(report.title), actions), section(null, filters));
  let answer;
  try {
    answer = await request("GET", report.path, { query });
  } catch (error) {
    showErrors(filters, error);  // a date the route refuses is named beside its field
    return;
  }
  for (const field of fields) {  // the dates the route chose when one was left out
    const value = report.query(answer)[field.name];
    if (value && filters.elements[field.name]) filters.elements[field.name].value = value;
  }
  append(actions, [h("span", { class: "help" }, `${t("rep.download")}:`),
    exportButtons(report.path, report.query(answer), report.file(answer), (extension) => `rep.${extension}`)]);
  append(ctx.root, [report.draw(answer, loaded)]);
}

// A table: columns [{label, value(row) -> node|text, amount?}], rows with their data attributes,
// a totals row.
export function grid({ id, columns, rows, attributes, foot, empty, className }) {
  if (!rows.length && empty) return h("p", { class: "empty", id }, empty);
  const cells = (row, tag) => columns.map((column) => h(tag, { class: column.amount ? "num" : column.class,
    "data-field": column.field }, column.value(row)));
  return h("div", { class: "table-scroll" }, h("table", { class: `grid report ${className || ""}`, id },
    h("thead", {}, h("tr", {}, columns.map((column) => h("th", { scope: "col", class: column.amount ? "num" : undefined },
      column.label)))),
    h("tbody", {}, rows.map((row) => h("tr", attributes ? attributes(row) : {}, cells(row, "td")))),
    foot ? h("tfoot", {}, h("tr", { "data-totals": "" }, foot.map((cell, i) => h("td", {
      class: columns[i].amount ? "num" : undefined, "data-field": columns[i].field }, cell)))) : null));
}

export const amountColumn = (field, label) => ({ field, label: t(label), amount: true, value: (row) => money(row[field]) });

// --- statements ------------------------------------------------------------------------------------

// The rows of a statement: headings, each account under its parent (indented), totals; each
// with its balance and, when compared, the comparison's.
// `grouped`: a column per cost centre (the API's `…ByDimension`) before the whole.
export function statementTable(id, headings, lines, grouped = false) {
  const compared = headings.length > 1;
  const values = (source, name) => (grouped ? [...source[`${name}ByDimension`], source[name]].map((value) => money(value)) : [money(source[name]),
    compared ? money(source[`compare${name[0].toUpperCase()}${name.slice(1)}`]) : null].filter((v) => v !== null));
  const rows = [];
  const accounts = (nodes, level) => {
    for (const node of nodes) {
      rows.push(h("tr", { "data-account": node.code },
        h("td", {}, node.code), h("td", {}, "\u2003".repeat(level), node.name),
        values(node, "balance").map((value) => h("td", { class: "num" }, value))));
      accounts(node.accounts, level + 1);
    }
  };
  for (const line of lines) {
    if (line.heading) {
      rows.push(h("tr", { class: "statement-heading" }, h("th", { scope: "rowgroup", colspan: 2 + headings.length }, line.heading)));
      accounts(line.accounts, 0);
      if (!line.accounts.length) rows.push(h("tr", {}, h("td"), h("td", { class: "empty", colspan: 1 + headings.length }, t("rep.noAccounts"))));
    } else {
      rows.push(h("tr", { class: `statement-total${line.strong ? " strong" : ""}`, "data-figure": line.figure },
        h("td"), h("td", {}, line.label), values(line.source, line.name).map((value) => h("td", { class: "num" }, value))));
    }
  }
  return h("div", { class: "table-scroll" }, h("table", { class: "grid report statement", id },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("rep.code")), h("th", { scope: "col" }, t("rep.account")),
      headings.map((heading) => h("th", { scope: "col", class: "num" }, heading)))),
    h("tbody", {}, rows)));
}

const BALANCE_SHEET = {
  path: "/reports/balance-sheet", route: "/reports/balance-sheet", title: "rep.balanceSheet",
  get fields() { return [dateField("date", true), dateField("compareDate")]; },
  defaults: () => ({ date: today() }),
  query: (r) => ({ date: r.date, compareDate: r.compareDate }),
  file: (r) => `balance-general-${r.date}${r.compareDate ? `-vs-${r.compareDate}` : ""}`,
  draw(r) {
    const headings = [t("rep.balanceAt", { date: date(r.date) }),
      ...(r.compareDate ? [t("rep.balanceAt", { date: date(r.compareDate) })] : [])];
    const subtitle = r.compareDate ? t("rep.atCompared", { date: date(r.date), compare: date(r.compareDate) })
      : t("rep.at", { date: date(r.date) });
    return [
      h("p", { id: "report-status" }, h("span", { class: `badge badge-${r.balanced ? "completed" : "failed"}` },
        t(r.balanced ? "rep.balanced" : "rep.unbalanced"))),
      section(subtitle, statementTable("balance-sheet", headings, [
        { heading: t("rep.assets"), accounts: r.assets.accounts },
        { label: t("rep.totalAssets"), source: r.assets, name: "total", figure: "assets.total", strong: true },
        { heading: t("rep.liabilities"), accounts: r.liabilities.accounts },
        { label: t("rep.totalLiabilities"), source: r.liabilities, name: "total", figure: "liabilities.total", strong: true },
        { heading: t("rep.equity"), accounts: r.equity.accounts },
        { label: t("rep.currentYearResult"), source: r.equity, name: "currentYearResult", figure: "equity.currentYearResult" },
        { label: t("rep.priorYearsResult"), source: r.equity, name: "priorYearsResult", figure: "equity.priorYearsResult" },
        { label: t("rep.totalEquity"), source: r.equity, name: "total", figure: "equity.total", strong: true },
        { label: t("rep.totalLiabilitiesAndEquity"), source: r, name: "totalLiabilitiesAndEquity",
          figure: "totalLiabilitiesAndEquity", strong: true },
      ])),
    ];
  },
};

const INCOME_STATEMENT = {
  path: "/reports/income-statement", route: "/reports/income-statement", title: "rep.incomeStatement",
  get fields() {
    return [dateField("startDate", true), dateField("endDate", true), dateField("compareStartDate"), dateField("compareEndDate")];
  },
  load: async () => ({ fields: dimensionFields(await loadDimensions()) }),  // issue 44: by cost centre
  defaults: () => ({ startDate: `${today().slice(0, 4)}-01-01`, endDate: today() }),
  query: (r) => ({ startDate: r.startDate, endDate: r.endDate, compareStartDate: r.compareStartDate,
                   compareEndDate: r.compareEndDate, dimensionValueId: r.dimensionValueId,
                   groupByDimensionId: r.groupByDimensionId }),
  file: (r) => `estado-de-resultados-${r.startDate}-${r.endDate}${r.compareStartDate
    ? `-vs-${r.compareStartDate}-${r.compareEndDate}` : ""}${r.dimensionValueId ? `-cc-${r.dimensionValueId}` : ""}${
    r.groupByDimensionId ? `-por-dimension-${r.groupByDimensionId}` : ""}`,
  draw(r) {
    const column = (from, to) => t("rep.periodColumn", { from: date(from), to: date(to) });
    const compared = Boolean(r.compareStartDate);
    const grouped = Boolean(r.dimensionColumns);
    const headings = grouped ? dimensionHeadings(r.dimensionColumns)
      : [column(r.startDate, r.endDate), ...(compared ? [column(r.compareStartDate, r.compareEndDate)] : [])];
    const subtitle = [compared
      ? t("rep.periodCompared", { from: date(r.startDate), to: date(r.endDate), cfrom: date(r.compareStartDate),
                                  cto: date(r.compareEndDate) })
      : t("rep.period", { from: date(r.startDate), to: date(r.endDate) }), dimensionSubtitle(r)];
    return section(subtitle, statementTable("income-statement", headings, [
      { heading: t("rep.revenue"), accounts: r.revenue.accounts },
      { label: t("rep.totalRevenue"), source: r.revenue, name: "total", figure: "revenue.total" },
      { heading: t("rep.costOfSales"), accounts: r.costOfSales.accounts },
      { label: t("rep.totalCostOfSales"), source: r.costOfSales, name: "total", figure: "costOfSales.total" },
      { label: t("rep.grossMargin"), source: r, name: "grossMargin", figure: "grossMargin", strong: true },
      { heading: t("rep.expenses"), accounts: r.expenses.accounts },
      { label: t("rep.totalExpenses"), source: r.expenses, name: "total", figure: "expenses.total" },
      { label: t("rep.operatingResult"), source: r, name: "operatingResult", figure: "operatingResult", strong: true },
      // below the operating result (NIIF para PYMES): other items, the financial ones, the income tax
      ...[["otherIncome", "OtherIncome"], ["otherExpenses", "OtherExpenses"], ["financialIncome", "FinancialIncome"],
        ["financialCosts", "FinancialCosts"]].flatMap(([name, label]) => [
        { heading: t(`rep.${name}`), accounts: r[name].accounts },
        { label: t(`rep.total${label}`), source: r[name], name: "total", figure: `${name}.total` },
      ]),
      { label: t("rep.financialResult"), source: r, name: "financialResult", figure: "financialResult" },
      { label: t("rep.resultBeforeTax"), source: r, name: "resultBeforeTax", figure: "resultBeforeTax", strong: true },
      { heading: t("rep.incomeTax"), accounts: r.incomeTax.accounts },
      { label: t("rep.totalIncomeTax"), source: r.incomeTax, name: "total", figure: "incomeTax.total" },
      { label: t("rep.netResult"), source: r, name: "netResult", figure: "netResult", strong: true },
    ], grouped));
  },
};

// --- aged balances ---------------------------------------------------------------------------------

const BUCKETS = ["current", "days1To30", "days31To60", "days61To90", "over90", "total"];

// A cell of two lines: the main text, and a smaller one under it.
const twoLines = (main, note) => [main, note ? h("small", { class: "cell-note" }, note) : null];

// Each partner's row, then a row for each of its open documents: its number opens the document.
function agedRows(partners) {
  return partners.flatMap((partner) => [{ partner }, ...partner.documents.map((document) => ({ partner, document }))]);
}

function agedDocumentCell(d) {
  return twoLines(h("a", { href: `#/documents/${d.documentId}`, class: "doc-number" }, documentName({ id: d.documentId, number: d.number })),
    [documentTypeName(d), " · ", t("paystatus.due", { date: date(d.dueDate) }),
      d.daysOverdue > 0 ? [" · ", daysCount(d.daysOverdue)] : null]);
}

function aged(which) {
  const receivables = which === "receivables";
  return {
    path: `/reports/aged-${which}`, route: `/reports/aged-${which}`,
    title: receivables ? "rep.agedReceivables" : "rep.agedPayables",
    get fields() { return [dateField("date", true)]; },
    defaults: () => ({ date: today() }),
    query: (r) => ({ date: r.date }),
    file: (r) => `antiguedad-cuentas-por-${receivables ? "cobrar" : "pagar"}-${r.date}`,
    draw(r) {
      const columns = [
        { field: "name", label: t(receivables ? "rep.customer" : "rep.supplier"), value: ({ partner: p, document: d }) => (d
          ? agedDocumentCell(d)
          : twoLines(h("a", { href: `#/partners/${p.businessPartnerId}` }, p.name), p.taxId ? `${t("rep.taxId")} ${p.taxId}` : null)) },
        { field: "documents", label: t("rep.documents"), amount: true, value: ({ partner: p, document: d }) => (d ? "" : String(p.documents.length)) },
        ...BUCKETS.map((bucket) => ({ field: bucket, label: t(`rep.${bucket}`), amount: true,
          value: ({ partner: p, document: d }) => (!d ? money(p[bucket])
            : bucket === "total" || bucket === d.bucket ? money(d.open) : "") })),
      ];
      return section(t("rep.at", { date: date(r.date) }), grid({ id: "aged", columns, rows: agedRows(r.partners),
        empty: t("rep.nobodyOwes"), attributes: ({ partner: p, document: d }) => (d
          ? { "data-document": d.documentId, class: "aged-document" } : { "data-partner": p.businessPartnerId, class: "aged-partner" }),
        foot: [t("rep.totals"), "", ...BUCKETS.map((bucket) => money(r.totals[bucket]))] }));
    },
  };
}

// --- the tax books' rows ---------------------------------------------------------------------------

// A document of a book: its number (a link), its type and CAI under it, and a badge unless it
// simply stands (cancelled within its month, or the reversal of an earlier month's document).
const documentCell = (row, cai) => [
  h("a", { href: `#/documents/${row.documentId}`, class: "doc-number" }, documentName({ id: row.documentId, number: row.number })),
  h("small", { class: "cell-note" }, t(`doctype.${row.type}`), row.status === "confirmed" ? null
    : [" ", h("span", { class: `badge badge-${row.status === "cancelled" ? "cancelled" : "reversed"}` },
      t(`rep.status.${row.status}`))]),
  cai ? h("small", { class: "cell-note cai" }, `${t("rep.cai")} ${cai}`) : null,
];
const bookPeriod = (title) => ({
  title,
  get fields() { return [dateField("startDate", true), dateField("endDate", true)]; },
  defaults: () => ({ startDate: firstDay(thisMonth()), endDate: lastDay(thisMonth()) }),
  query: (r) => ({ startDate: r.startDate, endDate: r.endDate }),
});
const periodOf = (r) => t("rep.period", { from: date(r.startDate), to: date(r.endDate) });

function bookTable(r, texts, amounts, attributes) {
  const columns = [...texts, ...amounts.map(([name, label]) => amountColumn(name, label))];
  return [grid({ id: "book", columns, rows: r.rows, attributes, className: "book",
    foot: [t("rep.totals"), ...texts.slice(1).map(() => ""), ...amounts.map(([name]) => money(r.totals[name]))] }),
  r.rows.length ? null : h("p", { class: "empty" }, t("rep.noRows"))];
}

const documentAttributes = (row) => ({ "data-document": row.documentId, "data-status": row.status });

// --- Honduras: the sales and purchase books, the ISV summary ---------------------------------------

const HN_AMOUNTS = ["exempt", "exonerated", "taxed15", "taxed18", "isv15", "isv18", "total"];

function taxBook(which) {
  const sales = which === "sales";
  return {
    ...bookPeriod(sales ? "rep.salesBook" : "rep.purchaseBook"),
    path: `/reports/${sales ? "sales" : "purchase"}-book`, route: `/reports/${sales ? "sales" : "purchase"}-book`,
    file: (r) => `libro-de-${sales ? "ventas" : "compras"}-${r.startDate}-${r.endDate}`,
    draw(r) {
      const texts = [
        { field: "date", label: t("common.date"), class: "nowrap", value: (row) => date(row.date) },
        { field: "number", label: t("rep.number"), value: (row) => documentCell(row, row.cai) },
        { field: "partnerName", label: t(sales ? "rep.customer" : "rep.supplier"), value: (row) => twoLines(row.partnerName,
          row.partnerTaxId ? `${t("rep.taxId")} ${row.partnerTaxId}` : null) },
      ];
      return section(periodOf(r), bookTable(r, texts, HN_AMOUNTS.map((name) => [name, `rep.${name}`]), documentAttributes));
    },
  };
}

const ISV_FIGURES = ["outputTax", "inputTax", "creditBroughtForward", "withholdingsReceived", "taxPayable",
  "withholdingsUnapplied", "creditCarriedForward", "withholdingsMade"];

const ISV_SUMMARY = {
  path: "/reports/isv-summary", route: "/reports/isv-summary", title: "rep.isvSummary",
  get fields() { return [{ name: "month", label: t("rep.month"), type: "month", required: true }]; },
  defaults: () => ({ month: thisMonth() }),
  query: (r) => ({ month: r.month }),
  file: (r) => `resumen-isv-${r.month}`,
  draw(r) {
    const monthName = new Intl.DateTimeFormat(locale(), { month: "long", year: "numeric", timeZone: "UTC" })
      .format(new Date(`${r.month}-15T00:00:00Z`));
    const totals = HN_AMOUNTS.map((name) => ({ name, sales: r.sales[name], purchases: r.purchases[name] }));
    return h("div", { class: "columns" },
      section(`${t("rep.bookTotals")} · ${monthName}`, grid({ id: "isv-books", rows: totals,
        attributes: (row) => ({ "data-figure": row.name, class: row.name === "total" ? "strong" : undefined }), columns: [
          { field: "concept", label: t("rep.concept"), value: (row) => t(`rep.${row.name}`) },
          amountColumn("sales", "rep.sales"), amountColumn("purchases", "rep.purchases")] })),
      section(`${t("rep.settlement")} · ${monthName}`, grid({ id: "isv-settlement", rows: ISV_FIGURES,
        attributes: (name) => ({ "data-figure": name, class: name === "taxPayable" ? "strong" : undefined }), columns: [
          { field: "concept", label: t("rep.concept"), value: (name) => t(`rep.${name}`) },
          { field: "amount", label: t("rep.amount"), amount: true, value: (name) => money(r[name]) }] }),
        // paying it is a tax settlement of the month (the tax accounts take no manual entry)
        h("p", { class: "settle-link" }, h("a", { id: "isv-settle", href: withQuery("#/accounting/tax-settlements",
          { periodEnd: lastDay(r.month) }) }, t("rep.settleMonth")))));
  },
};

// --- El Salvador: the IVA books --------------------------------------------------------------------

const IVA_BOOKS = {
  consumers: { path: "/reports/iva-sales-consumers", title: "rep.ivaConsumers", file: "libro-iva-consumidor-final",
    amounts: [["exempt", "rep.ivaExempt"], ["nonSubject", "rep.nonSubject"], ["taxed", "rep.taxedWithIva"],
      ["exports", "rep.exports"], ["iva", "rep.ivaIncluded"], ["total", "rep.total"]] },
  taxpayers: { path: "/reports/iva-sales-taxpayers", title: "rep.ivaTaxpayers", file: "libro-iva-contribuyentes",
    amounts: [["exempt", "rep.ivaExempt"], ["nonSubject", "rep.nonSubject"], ["taxed", "rep.taxedNet"],
      ["iva", "rep.debitIva"], ["total", "rep.total"]] },
  purchases: { path: "/reports/iva-purchases", title: "rep.ivaPurchases", file: "libro-iva-compras",
    amounts: [["exemptInternal", "rep.exemptInternal"], ["exemptImports", "rep.exemptImports"],
      ["taxedInternal", "rep.taxedInternal"], ["taxedImports", "rep.taxedImports"], ["iva", "rep.creditIva"],
      ["excludedSubject", "rep.excludedSubject"], ["total", "rep.total"]] },
};

function ivaBook(which) {
  const book = IVA_BOOKS[which];
  return {
    ...bookPeriod(book.title), path: book.path, route: book.path,
    file: (r) => `${book.file}-${r.startDate}-${r.endDate}`,
    draw(r) {
      const day = { field: "date", label: t("common.date"), class: "nowrap", value: (row) => date(row.date) };
      const texts = which === "consumers" ? [day,
        { field: "fromNumber", label: t("rep.numbers"), value: (row) => twoLines(
          h("span", { class: "doc-number" }, `${t("rep.fromNumber")} ${row.fromNumber || t("common.none")}`),
          `${t("rep.toNumber")} ${row.toNumber || t("common.none")}`) },
        { field: "documents", label: t("rep.documentCount"), amount: true, value: (row) => String(row.documents) }]
        : [day, { field: "number", label: t("rep.number"), value: (row) => documentCell(row) },
          { field: "partnerName", label: t(which === "purchases" ? "rep.supplier" : "rep.customer"), value: (row) => twoLines(
            row.partnerName, row.partnerNrc ? `${t("rep.nrc")} ${row.partnerNrc}` : null) }];
      return section(periodOf(r), bookTable(r, texts, book.amounts,
        which === "consumers" ? (row) => ({ "data-date": row.date }) : documentAttributes));
    },
  };
}

// --- the routes' views (main.js) -------------------------------------------------------------------

export const balanceSheet = (ctx) => reportPage(ctx, BALANCE_SHEET);
export const incomeStatement = (ctx) => reportPage(ctx, INCOME_STATEMENT);
export const agedReceivables = (ctx) => reportPage(ctx, aged("receivables"));
export const agedPayables = (ctx) => reportPage(ctx, aged("payables"));
export const salesBook = (ctx) => reportPage(ctx, taxBook("sales"));
export const purchaseBook = (ctx) => reportPage(ctx, taxBook("purchases"));
export const isvSummary = (ctx) => reportPage(ctx, ISV_SUMMARY);
export const ivaConsumers = (ctx) => reportPage(ctx, ivaBook("consumers"));
export const ivaTaxpayers = (ctx) => reportPage(ctx, ivaBook("taxpayers"));
export const ivaPurchases = (ctx) => reportPage(ctx, ivaBook("purchases"));
