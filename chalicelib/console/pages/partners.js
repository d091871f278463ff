// Customers and suppliers: a searchable list with create and edit dialogs, and each partner's
// page with its balances, credit summary, open opening balances (documents 900 and 901, recorded
// here) and statement between two dates. A document in a currency other than the company's shows
// its own amounts beside the company-currency ones (pending at the document's rate; a statement
// movement in the document's currency and rate).
import { api } from "../api.js";
import { append, h } from "../dom.js";
import { companyCurrency, date, documentName, documentTitle, documentTypeName, exchangeRate, isForeign, money } from "../format.js";
import { ACCOUNTING_ROLES, locale, t } from "../i18n.js";
import { linkPlaces, placeFields, placeName, placeSent } from "../sv-address.js";
import { badge, button, definitionList, formDialog, formView, pageHeader, pagerView, section, tableView, toast } from "../ui.js";

const LIMIT = 20;
const TYPES = ["customer", "supplier", "both"];
const PERSON_TYPES = ["natural", "legal"];
// who may record an opening balance (the API's ACCOUNTING permission)
// the opening balance's document type on each side
const OPENING_TYPES = { receivable: "900", payable: "901" };

// El Salvador's taxpayer fields (the DTE's receiver): plain inputs, their codes checked by the API
// (its refusal shows beside each one); its address (department, municipio, district) from the lists
// of sv-address.js.
const svFields = () => [
  { name: "nrc", label: t("partner.nrc"), placeholder: "123456-7" },
  { name: "economicActivityCode", label: t("partner.economicActivityCode"), placeholder: "62010" },
  { name: "economicActivity", label: t("partner.economicActivity") },
];

// A country's name in the console's language beside its ISO code ("US · Estados Unidos").
function countryName(code) {
  if (!code) return t("common.none");
  try {
    return `${code} · ${new Intl.DisplayNames([locale()], { type: "region" }).of(code)}`;
  } catch { return code; }
}

// The fields of both dialogs; an emptied optional field is sent as null so that an edit clears it.
// The tax id's name where the company is: Honduras' RTN, El Salvador's NIT (or a person's DUI).
const taxIdLabel = (country) => t(country === "SV" ? "partner.taxId.SV" : "partner.taxId");

// `country` is the company's: an El Salvador company's partners also take the SV fields.
function partnerFields(country, partner = {}) {
  return [
    { name: "name", label: t("partner.name"), required: true },
    { name: "type", label: t("partner.type"), type: "select", required: true, value: "customer",
      options: TYPES.map((type) => ({ value: type, label: t(`partnerType.${type}`) })) },
    { name: "taxId", label: taxIdLabel(country), emptyAs: null },
    { name: "country", label: t("partner.country"), emptyAs: null, placeholder: country || "HN",
      help: t("partner.countryHelp", { country: country || "HN" }) },
    { name: "personType", label: t("partner.personType"), type: "select", emptyAs: null,
      options: PERSON_TYPES.map((type) => ({ value: type, label: t(`partner.personType.${type}`) })) },
    ...(country === "SV" ? [...svFields().map((field) => ({ ...field, emptyAs: null })),
      ...placeFields("", partner, { districtHelp: t("place.districtHelp") })] : []),
    { name: "email", label: t("partner.email"), type: "email", emptyAs: null },
    { name: "phone", label: t("partner.phone"), emptyAs: null },
    { name: "address", label: t("partner.address"), type: "textarea", emptyAs: null },
    { name: "paymentConditionId", label: t("partner.condition"), type: "select", emptyAs: null,
      source: { path: "/payment-conditions", field: "paymentConditions", label: (c) => c.name } },
    { name: "credit_limit", label: t("partner.creditLimit"), type: "number", min: "0", emptyAs: null },
    { name: "credit_block_days", label: t("partner.blockDays"), type: "number", step: "1", min: "0", emptyAs: null },
    { name: "isActive", label: t("partner.isActive"), type: "checkbox", value: true },
  ];
}

// What the dialog sends: ISO codes upper case ("us" typed is "US"), the place named by one field (placeSent)
const asSent = (values) => {
  const data = placeSent(values);
  return data.country ? { ...data, country: data.country.toUpperCase() } : data;
};

const withPlaces = (country, form) => {
  if (country === "SV") linkPlaces(form);
  return form;
};

export function createPartner(country, done) {
  return withPlaces(country, formDialog(t("partner.new"), { fields: partnerFields(country),
    submitLabel: t("common.create"), onSubmit: (data) => api.post("/business-partners", asSent(data)) }, done));
}

function editPartner(country, partner, done) {
  return withPlaces(country, formDialog(t("partner.edit"), { fields: partnerFields(country, partner), values: partner,
    onSubmit: (data) => api.put(`/business-partners/${partner.id}`, asSent(data),
      { headers: { "If-Match": String(partner.version) } }),
  }, done));
}

// The API finds partners by the words of their name, RTN/NIT or e-mail (`q`: an index, not a read of them all).
function findPartners(search, page) {
  return api.get("/business-partners", { q: search || undefined, page, limit: LIMIT });
}

export async function list(ctx) {
  const country = ctx.session.company?.country;
  const search = (ctx.query.q || "").trim();
  const page = Math.max(1, Number(ctx.query.page) || 1);
  const go = (q, next) => {
    const query = new URLSearchParams();
    if (q) query.set("q", q);
    if (next > 1) query.set("page", next);
    ctx.navigate(query.toString() ? `/partners?${query}` : "/partners");
  };
  const answer = await findPartners(search, page);
  const searchForm = formView({ className: "inline", submitLabel: t("common.search"),
    fields: [{ name: "q", label: t("partner.search"), type: "search" }], values: { q: search },
    onSubmit: (data) => go(data.q || "", 1) });
  const table = tableView({ rows: answer.businessPartners, onRowClick: (p) => ctx.navigate(`/partners/${p.id}`), columns: [
    { label: t("partner.name"), value: (p) => h("a", { href: `#/partners/${p.id}` }, p.name) },
    { label: t("partner.type"), value: (p) => t(`partnerType.${p.type}`) },
    { label: taxIdLabel(country), value: (p) => p.taxId || "" },
    { label: t("partner.email"), value: (p) => p.email || "" },
    { label: t("partner.receivable"), class: "num", value: (p) => money(p.receivableBalance) },
    { label: t("partner.payable"), class: "num", value: (p) => money(p.payableBalance) },
    { label: t("common.status"), value: (p) => badge(p.isActive ? "active" : "inactive") },
    { label: t("common.actions"), class: "actions", value: (p) => button(t("common.edit"), () => editPartner(country, p, ctx.refresh)) },
  ] });
  append(ctx.root, [
    pageHeader(t("partner.title"), button(t("partner.new"), () => createPartner(country, async () => {
      toast(t("partner.created"));
      await ctx.refresh();
    }), "primary")),
    section(null, searchForm),
    section(null, table, pagerView({ page, limit: LIMIT, total: answer.total, onPage: (next) => go(search, next) }))]);
}

// A foreign amount with its rate: "USD 130.00 · TC 24.50".
const withRate = (amount, code, rate) => `${money(amount, code)} · ${t("partner.atRate", { rate: exchangeRate(rate) })}`;

function summaryCard(side, summary) {
  const own = companyCurrency();
  const foreign = summary.pendingDocuments.some((d) => isForeign(d.currency));
  const pendingDocuments = tableView({ rows: summary.pendingDocuments, columns: [
    { label: t("partner.document"), value: (d) => h("a", { href: `#/documents/${d.id}`, class: "doc-number" }, documentName(d)) },
    { label: t("partner.type"), value: (d) => documentTypeName(d) },
    { label: t("common.date"), value: (d) => date(d.date) },
    { label: t("partner.dueDate"), value: (d) => date(d.dueDate) },
    { label: t("partner.overdue"), class: "num", value: (d) => String(d.overdueDays) },
    foreign ? { label: t("partner.currency"), value: (d) => (isForeign(d.currency)
      ? `${d.currency} · ${t("partner.atRate", { rate: exchangeRate(d.exchangeRate) })}` : d.currency || own) } : null,
    { label: t("partner.total"), class: "num", value: (d) => money(d.total, d.currency) },
    { label: t("partner.pending"), class: "num", value: (d) => money(d.pending, d.currency) },
    foreign ? { label: t("partner.pendingBase", { own }), class: "num pending-base",
      value: (d) => money(isForeign(d.currency) ? d.basePending : d.pending) } : null,
  ].filter(Boolean) });
  return { card: section(t(`partner.summary.${side}`), definitionList([
    [t("partner.pendingBalance"), h("strong", { id: `credit-${side}-pending` }, money(summary.pendingBalance))],
    [t("partner.creditLimit"), summary.credit_limit === null || summary.credit_limit === undefined
      ? t("partner.unlimited") : money(summary.credit_limit)],
    summary.available !== null && summary.available !== undefined ? [t("partner.available"), money(summary.available)] : null,
    summary.credit_block_days !== null && summary.credit_block_days !== undefined
      ? [t("partner.blockDays"), String(summary.credit_block_days)] : null,
    [t("partner.overdueDays"), String(summary.overdueDays)],
    [t("partner.oldestDue"), date(summary.oldestDueDate)],
    [t("partner.pendingCount"), String(summary.pendingDocumentCount)],
  ])), pending: summary.pendingDocuments.length
    ? section(`${t("partner.pendingCount")} · ${t(`partner.summary.${side}`)}`,
      h("div", { class: "table-scroll" }, pendingDocuments)) : null };
}

async function statementCard(ctx, partner, sides) {
  const side = sides.includes(ctx.query.side) ? ctx.query.side : sides[0];
  const first = await api.get(`/credits/${side}/${partner.id}/statement`,
    { startDate: ctx.query.startDate, endDate: ctx.query.endDate });
  const filter = formView({ className: "inline", submitLabel: t("partner.show"),
    fields: [
      sides.length > 1 ? { name: "side", label: t("partner.side"), type: "select", required: true,
        options: sides.map((s) => ({ value: s, label: t(`partner.summary.${s}`) })) } : null,
      { name: "startDate", label: t("partner.startDate"), type: "date" },
      { name: "endDate", label: t("partner.endDate"), type: "date" },
    ].filter(Boolean),
    values: { side, startDate: first.startDate, endDate: first.endDate },
    onSubmit: (data) => ctx.navigate(`/partners/${partner.id}?${new URLSearchParams(
      Object.entries(data).filter(([, value]) => value))}`) });
  const columns = [
    { label: t("common.date"), value: (m) => date(m.date) },
    { label: t("partner.document"), value: (m) => (m.documentId
      ? h("a", { href: `#/documents/${m.documentId}`, class: "doc-number" }, documentName({ id: m.documentId, number: m.number })) : "") },
    { label: t("partner.concept"), value: (m) => m.description || "" },
    { label: t("partner.charge"), class: "num", value: (m) => (Number(m.charge) ? money(m.charge) : "") },
    { label: t("partner.creditMove"), class: "num", value: (m) => (Number(m.credit) ? money(m.credit) : "") },
    { label: t("partner.balance"), class: "num", value: (m) => money(m.balance) },
  ];
  // charges and credits are in the company's currency; a foreign document's movement also in its own
  const foreign = first.movements.some((m) => m.amountInCurrency !== null && m.amountInCurrency !== undefined);
  if (foreign) {
    columns.splice(5, 0, { label: t("partner.inCurrency"), class: "num in-currency",
      value: (m) => (m.amountInCurrency === null || m.amountInCurrency === undefined ? ""
        : withRate(Math.abs(Number(m.amountInCurrency)), m.currency, m.exchangeRate)) });
  }
  // a movement opens its document (the invoice, or the one a payment settled)
  const open = (m) => (m.documentId ? ctx.navigate(`/documents/${m.documentId}`) : null);
  const table = tableView({ rows: first.movements, columns, onRowClick: open });
  const tbody = table.querySelector("tbody");
  if (tbody) {
    const opening = { date: first.startDate, description: t("partner.opening"), charge: 0, credit: 0, balance: first.openingBalance };
    tbody.prepend(tableView({ rows: [opening], columns }).querySelector("tbody tr"));
    table.append(h("tfoot", {}, h("tr", {}, h("td", {}, t("partner.closing")), h("td"), h("td"),
      h("td", { class: "num" }, money(first.totalCharges)), h("td", { class: "num" }, money(first.totalCredits)),
      foreign ? h("td") : null,
      h("td", { class: "num", id: "statement-closing" }, money(first.closingBalance)))));
  }
  // Movements beyond the first page of the statement come by cursor.
  let cursor = first.nextCursor;
  const more = cursor ? button(t("partner.more"), async () => {
    const next = await api.get(`/credits/${side}/${partner.id}/movements`,
      { startDate: first.startDate, endDate: first.endDate, cursor });
    const rows = tableView({ rows: next.movements, columns, onRowClick: open }).querySelectorAll("tbody tr");
    tbody.append(...rows);
    cursor = next.nextCursor;
    if (!cursor) more.remove();
  }) : null;
  // a phone's width: the statement scrolls inside its card, the page does not
  return section(t("partner.statement"), filter, h("div", { class: "table-scroll" }, table), more);
}

// The partner's opening balances still open (900 for a customer, 901 for a supplier: the credit
// summaries list the oldest open documents first) and, for the roles the API lets, the dialog that
// records one; the page then shows it here, in the balances and in the open documents above.
let justRecorded = null;
function openingCard(ctx, partner, summaries) {
  const sides = partner.type === "both" ? ["receivable", "payable"] : partner.type === "supplier" ? ["payable"] : ["receivable"];
  const rows = summaries.flatMap((summary) => summary.pendingDocuments)
    .filter((d) => Object.values(OPENING_TYPES).includes(d.type));
  const recorded = justRecorded && justRecorded.businessPartnerId === partner.id ? justRecorded : null;
  justRecorded = null;
  const canRecord = ACCOUNTING_ROLES.includes(ctx.session.me?.role);
  if (!rows.length && !canRecord) return null;
  const record = () => formDialog(t("ob.record"), {
    submitLabel: t("ob.record"),
    fields: [
      sides.length > 1 ? { name: "side", label: t("ob.side"), type: "select", required: true, value: "receivable",
        options: sides.map((side) => ({ value: side, label: t(`ob.side.${side}`) })) } : null,
      { name: "date", label: t("ob.date"), type: "date", required: true, help: t("ob.dateHelp") },
      { name: "amount", label: t("ob.amount"), type: "number", min: "0.01", required: true },
      { name: "dueDate", label: t("ob.dueDate"), type: "date", help: t("ob.dueDateHelp") },
      { name: "reference", label: t("ob.reference"), help: t("ob.referenceHelp") },
      { name: "notes", label: t("ob.notes"), type: "textarea" },
    ].filter(Boolean),
    onSubmit: (data) => api.post(`/business-partners/${partner.id}/opening-balance`, data),
  }, async (created) => {
    justRecorded = created;
    toast(t("ob.recorded", { name: documentTitle(created),
      amount: money(created.total) }));
    await ctx.refresh();
  });
  const table = tableView({ rows, empty: t("ob.none"), columns: [
    { label: t("partner.document"), value: (d) => h("a", { href: `#/documents/${d.id}` }, documentName(d)) },
    { label: t("partner.type"), value: (d) => documentTypeName(d) },
    { label: t("common.date"), value: (d) => date(d.date) },
    { label: t("partner.dueDate"), value: (d) => date(d.dueDate) },
    { label: t("partner.total"), class: "num", value: (d) => money(d.total, d.currency) },
    { label: t("partner.pending"), class: "num", value: (d) => money(d.pending, d.currency) },
  ] });
  return h("section", { class: "card", id: "opening-balances" },
    h("header", { class: "page-header" }, h("h2", {}, t("ob.title")),
      h("div", { class: "page-actions" }, canRecord ? button(t("ob.record"), record, "primary") : null)),
    h("p", { class: "help" }, t("ob.intro")),
    recorded ? h("p", { class: "notice", id: "opening-recorded", role: "status" },
      t("ob.recorded", { name: documentTitle(recorded),
        amount: money(recorded.total) }), " ", h("a", { href: `#/documents/${recorded.id}` }, t("ob.open"))) : null,
    table);
}

export async function detail(ctx) {
  const country = ctx.session.company?.country;
  const partner = await api.get(`/business-partners/${ctx.params.id}`);
  const sides = partner.type === "both" ? ["client", "supplier"] : partner.type === "supplier" ? ["supplier"] : ["client"];
  const summaries = await Promise.all(sides.map((side) => api.get(`/credits/${side}/${partner.id}/summary`)));
  const cards = sides.map((side, i) => summaryCard(side, summaries[i]));
  const figure = (label, amount, id) => h("div", { class: "figure" }, h("span", { class: "figure-label" }, label),
    h("strong", { id }, money(amount)));
  append(ctx.root, [
    pageHeader(partner.name,
      button(t("partner.documents"), () => ctx.navigate(`/documents?businessPartnerId=${partner.id}`)),
      partner.type !== "supplier" ? button(t("partner.newInvoice"),
        () => ctx.navigate(`/documents/new?businessPartnerId=${partner.id}`), "primary") : null,
      partner.type !== "customer" ? button(t("partner.newPurchase"),
        () => ctx.navigate(`/documents/new?type=103&businessPartnerId=${partner.id}`)) : null,
      button(t("common.edit"), () => editPartner(country, partner, ctx.refresh))),
    h("div", { class: "figures" },
      figure(t("partner.receivable"), partner.receivableBalance, "partner-receivable"),
      figure(t("partner.payable"), partner.payableBalance, "partner-payable")),
    h("div", { class: "columns" }, section(null, definitionList([
      [t("partner.type"), t(`partnerType.${partner.type}`)],
      [taxIdLabel(country), partner.taxId || t("common.none")],
      [t("partner.country"), h("span", { id: "partner-country" }, countryName(partner.country))],
      [t("partner.personType"), partner.personType ? t(`partner.personType.${partner.personType}`) : t("common.none")],
      // the SV fields where they matter (an SV company) or wherever a partner holds them
      ...svFields().filter((field) => country === "SV" || partner[field.name])
        .map((field) => [field.label, h("span", { id: `partner-${field.name}` }, partner[field.name] || t("common.none"))]),
      country === "SV" || partner.department ? [t("place.title"), h("span", { id: "partner-place",
        "data-district": partner.district || "" }, placeName(partner))] : null,
      [t("partner.email"), partner.email || t("common.none")],
      [t("partner.phone"), partner.phone || t("common.none")],
      [t("partner.address"), partner.address || t("common.none")],
      [t("common.status"), badge(partner.isActive ? "active" : "inactive")],
    ])), cards.map((card) => card.card)),
    cards.map((card) => card.pending),
    openingCard(ctx, partner, summaries),
    await statementCard(ctx, partner, sides)]);
}
