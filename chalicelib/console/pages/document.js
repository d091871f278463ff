// One document: its facts (fiscal number, CAI), its El Salvador DTE (status, control number,
// generation code, the authority's seal, contingency, invalidation), lines, totals, payments,
// journal entry, the actions the API allows it (allowedActions: nothing decided here by type or
// status), and its PDF (preview, download, e-mail). A document in a currency
// other than the company's shows its rate and its total and pending in the company's currency; its
// payments, the rate each moved at and what it was worth in the company's currency.
import { api, listAll } from "../api.js";
import { append, h, replace } from "../dom.js";
import { companyCurrency, date, documentName, documentTitle, documentTypeName, exchangeRate, isForeign, money, percent, today } from "../format.js";
import { DOCUMENT_TYPES, t } from "../i18n.js";
import { daysOverdue, statusBadges } from "../payment-status.js";
import { act, badge, button, definitionList, describeError, formDialog, pageHeader, section, tableView, toast } from "../ui.js";
import { cardDialog, cardNote, cardPayable, cardRefundHelp, isCardSale, linksSection } from "./document-card.js";
import { dteSection, invalidateDialog } from "./document-dte.js";
import { EXONERATION_FIELDS, EXPORT_FIELDS } from "./document-form.js";
import { notesFor } from "./document-source.js";
import { attachmentsPanel } from "./attachments.js";
import { dimensionsColumn, loadDimensions } from "./line-dimensions.js";

const FILE_PREFIX = { "01": "factura", "113": "factura", "06": "nota-credito", "07": "nota-debito", "100": "cotizacion",
  "101": "pedido", "102": "orden-compra", "103": "factura-compra", "105": "nota-credito-compra", "106": "nota-debito-compra",
  "112": "entrega" };

const cents = (value) => Math.round((Number(value) + Number.EPSILON) * 100) / 100;
// what a quote, order or delivery may still take in advances
const advanceRoom = (doc) => cents(Number(doc.total) - Number(doc.advancesTotal || 0));

const fileName = (doc) => `${FILE_PREFIX[doc.type] || "documento"}-${documentName(doc).replace("#", "")}.pdf`;

async function accountsOf(entry) {
  const ids = [...new Set(entry.lines.map((line) => line.chartOfAccountId))];
  const accounts = await Promise.all(ids.map((id) => api.get(`/chart-of-accounts/${id}`).catch(() => null)));
  return new Map(accounts.filter(Boolean).map((account) => [account.id, account]));
}

// A Honduran sale's exoneration registers and an export's terms, as the document holds them.
function registers(doc) {
  const given = (group, prefix, names) => names.filter((name) => group?.[name])
    .map((name) => [t(`${prefix}.${name}`), h("span", { id: `doc-${prefix}-${name}` }, group[name])]);
  return [...given(doc.exoneration, "exoneration", EXONERATION_FIELDS), ...given(doc.export, "export", EXPORT_FIELDS)];
}

// a line stored before treatments were recorded is taxed or exempt by its rate
const treatmentOf = (line) => line.taxTreatment || (Number(line.taxRate) ? "taxed" : "exempt");

function facts(doc, partner, source) {
  const { cai, dte } = doc;
  return definitionList([
    [t("doc.number"), h("strong", { id: "doc-number" }, documentName(doc))],
    [t("doc.type"), documentTypeName(doc)],
    [t("common.status"), h("span", { id: "doc-status" }, statusBadges(doc))],
    doc.paymentStatus === "overdue" ? [t("paystatus.daysOverdueColumn"), h("span", { id: "doc-days-overdue" }, daysOverdue(doc))] : null,
    [t("doc.partner"), h("a", { href: `#/partners/${doc.businessPartnerId}`, id: "doc-partner" },
      partner ? partner.name : `#${doc.businessPartnerId}`)],
    [t("doc.date"), date(doc.date)],
    [t("doc.dueDate"), date(doc.dueDate)],
    doc.currency ? [t("doc.currency"), doc.currency] : null,
    isForeign(doc.currency) ? [t("doc.exchangeRate"), h("span", { id: "doc-exchange-rate", "data-rate": String(doc.exchangeRate) },
      `1 ${doc.currency} = ${exchangeRate(doc.exchangeRate)} ${companyCurrency()}`)] : null,
    doc.reference ? [t("doc.reference"), doc.reference] : null,
    doc.sourceDocumentId ? [t("doc.source"), h("a", { href: `#/documents/${doc.sourceDocumentId}`, id: "doc-source" },
      source ? documentTitle(source) : documentName({ id: doc.sourceDocumentId }))] : null,
    cai ? [t("doc.cai"), h("code", { id: "doc-cai" }, cai.cai)] : null,
    cai ? [t("doc.caiRange"), `${cai.rangeStart} – ${cai.rangeEnd}`] : null,
    cai ? [t("doc.caiDeadline"), date(cai.deadline)] : null,
    dte ? [t("doc.dteStatus"), badge(dte.status)] : null,  // the rest of the DTE: dteSection
    ...registers(doc),
    doc.cancelReason ? [t("doc.cancelReason"), doc.cancelReason] : null,
    doc.notes ? [t("doc.notes"), doc.notes] : null,
    doc.warnings && doc.warnings.length ? [t("doc.warnings"), doc.warnings.join(" · ")] : null,
  ]);
}

function linesTable(doc, country, dimensions) {
  const cur = doc.currency;
  const untaxed = doc.lines.some((l) => treatmentOf(l) !== "taxed");
  return tableView({ rows: doc.lines, columns: [
    { label: t("doc.description"), value: (l) => l.description || (l.productId ? `#${l.productId}` : "") },
    { label: t("doc.quantity"), class: "num", value: (l) => String(l.quantity) },
    { label: t("doc.unitPrice"), class: "num", value: (l) => money(l.unitPrice, cur) },
    { label: t("doc.discount"), class: "num", value: (l) => money(l.discount, cur) },
    { label: country === "SV" ? t("doc.taxRate.SV") : t("doc.taxRate"), class: "num", value: (l) => percent(l.taxRate) },
    untaxed ? { label: t("doc.taxTreatment"), class: "line-treatment",
      value: (l) => (treatmentOf(l) === "taxed" ? "" : t(`treatment.${treatmentOf(l)}`)) } : null,
    dimensionsColumn(dimensions, doc.lines),
    { label: t("doc.subtotal"), class: "num", value: (l) => money(l.subtotal, cur) },
    { label: t("doc.tax"), class: "num", value: (l) => money(l.tax, cur) },
    { label: t("doc.total"), class: "num", value: (l) => money(l.total, cur) },
  ].filter(Boolean) });
}

// What a foreign document's total and pending are in the company's currency (the API's baseTotal
// and basePending; a document from before currencies has neither: its amounts at its rate).
function inBase(doc, amount, base, id) {
  if (!isForeign(doc.currency)) return null;
  const value = base ?? Math.round(Number(amount) * Number(doc.exchangeRate) * 100) / 100;
  return h("small", { class: "figure-base", id, "data-amount": String(value) },
    `(${t("doc.inBase", { amount: money(value), rate: exchangeRate(doc.exchangeRate) })})`);
}

// A quote, order or delivery (it may take advances, or holds some) shows its advances; a document
// that is paid, its paid and pending.
function totals(doc, allowed) {
  const figure = (label, amount, id, base) => h("div", { class: "figure" }, h("span", { class: "figure-label" }, label),
    h("strong", { id, "data-amount": String(amount) }, money(amount, doc.currency)), base || null);
  const settled = allowed("advance") || Number(doc.advancesTotal || 0) > 0
    ? [figure(t("doc.advances"), doc.advancesTotal || 0, "doc-advances"),
      figure(t("doc.advancesApplied"), doc.advancesApplied || 0, "doc-advances-applied")]
    : [figure(t("doc.paid"), doc.paidTotal, "doc-paid"),
      figure(t("doc.pending"), doc.pending, "doc-pending", inBase(doc, doc.pending, doc.basePending, "doc-pending-base"))];
  return h("div", { class: "figures" },
    figure(t("doc.subtotal"), doc.subtotal, "doc-subtotal"), figure(t("doc.tax"), doc.taxTotal, "doc-tax"),
    figure(t("doc.total"), doc.total, "doc-total", inBase(doc, doc.total, doc.baseTotal, "doc-total-base")), settled);
}

// A foreign document's payment in the company's currency: what the money was worth at the rate it
// moved at, and what it took off the balance at the document's rate (the rest is the exchange
// difference its entry posts).
function inCompanyCurrency(p) {
  const given = (value) => value !== null && value !== undefined;
  if (!given(p.baseAmount) && !given(p.settledBase)) return "";
  return [
    given(p.baseAmount) ? h("span", { class: "payment-base-amount" }, money(p.baseAmount)) : null,
    given(p.exchangeRate) ? h("small", { class: "cell-note payment-rate", "data-rate": String(p.exchangeRate) },
      t("doc.payment.rate", { rate: exchangeRate(p.exchangeRate) })) : null,
    given(p.settledBase) ? h("small", { class: "cell-note payment-settled" },
      t("doc.payment.settled", { amount: money(p.settledBase) })) : null];
}

function paymentsTable(ctx, doc, payments, methods, gateways) {
  const path = (p) => `/payments/documents/${doc.id}/payments/${p.id}`;
  const cancel = (p) => formDialog(t("doc.payment.cancel"), {
    fields: [{ name: "reason", label: t("doc.reason"), required: true, emptyAs: "" },
      { name: "date", label: t("doc.reverseDate"), type: "date" }],
    extra: cardRefundHelp(p, gateways),
    submitLabel: t("doc.payment.cancel"),
    onSubmit: (data) => api.post(`${path(p)}/cancel`, data),
  }, () => { toast(t("doc.payment.cancelled")); return ctx.refresh(); });
  const own = companyCurrency();
  const foreign = isForeign(doc.currency);
  const table = tableView({ rows: payments, empty: t("doc.noPayments"), columns: [
    { label: t("doc.paymentDate"), value: (p) => date(p.paymentDate) },
    { label: t("doc.payment.kind"), value: (p) => t(`doc.kind.${p.kind}`) },
    { label: t("doc.payment.method"), value: (p) => [p.paymentMethodId ? methods.get(p.paymentMethodId)?.name || `#${p.paymentMethodId}` : "",
      cardNote(p, doc.currency)] },
    { label: t("doc.reference"), value: (p) => p.reference || "" },
    { label: t("doc.entry"), value: (p) => (p.journalEntryId
      ? h("a", { href: `#/accounting/entries/${p.journalEntryId}` }, `#${p.journalEntryId}`) : "") },
    { label: t("common.status"), value: (p) => badge(p.status) },
    { label: t("doc.payment.amount"), class: "num", value: (p) => money(p.amount, doc.currency) },
    foreign ? { label: t("doc.payment.base", { own }), class: "num payment-base", value: (p) => inCompanyCurrency(p) } : null,
    { label: t("common.actions"), class: "actions", value: (p) => [
      p.status === "pending" ? button(t("doc.payment.confirm"), () => act(null,
        () => api.post(`${path(p)}/confirm`), ctx.refresh, t("doc.payment.confirmed"))) : null,
      p.status !== "cancelled" ? button(t("doc.payment.cancel"), () => cancel(p), "danger") : null] },
  ].filter(Boolean) });
  return foreign && payments.length
    ? [table, h("p", { class: "help" }, t("doc.payments.fxHelp", { own, rate: exchangeRate(doc.exchangeRate) }))] : table;
}

async function entrySection(entry) {
  const accounts = await accountsOf(entry);
  const account = (id) => accounts.get(id);
  const table = tableView({ rows: entry.lines, columns: [
    { label: t("doc.account"), value: (l) => (account(l.chartOfAccountId) ? `${account(l.chartOfAccountId).code} · ${account(l.chartOfAccountId).name}` : `#${l.chartOfAccountId}`) },
    { label: t("doc.description"), value: (l) => l.lineDescription || "" },
    { label: t("doc.debit"), class: "num", value: (l) => (Number(l.debit) ? money(l.debit) : "") },
    { label: t("doc.credit"), class: "num", value: (l) => (Number(l.credit) ? money(l.credit) : "") },
  ] });
  table.append(h("tfoot", {}, h("tr", {}, h("td", {}, t("doc.total")), h("td"),
    h("td", { class: "num" }, money(entry.totalDebit)), h("td", { class: "num" }, money(entry.totalCredit)))));
  return section(t("doc.entry"),
    h("p", {}, h("a", { href: `#/accounting/entries/${entry.id}`, id: "doc-entry-link" }, `${t("doc.entry.open")} #${entry.id}`),
      ` · ${date(entry.date)} · `, badge(entry.status), entry.description ? ` · ${entry.description}` : ""),
    table);
}

// The PDF: a template of the document resource (the invoice by default), a preview in an iframe
// and a download link; a blob URL is released when another template's print replaces it.
function pdfSection(doc, templates) {
  const choices = templates.filter((tpl) => tpl.resource === "document");
  const select = h("select", { id: "doc-template", "aria-label": t("doc.template") },
    choices.map((tpl) => h("option", { value: tpl.id, selected: tpl.key === "invoice" || undefined }, tpl.name)));
  const holder = h("div", { class: "pdf-holder" });
  let printed = { templateId: null, url: null };  // one print per template, reused by preview and download
  select.addEventListener("change", () => replace(holder));
  const load = async () => {
    if (printed.templateId === select.value) return printed.url;
    const blob = await api.blob("POST", `/documents/${doc.id}/print`, { templateId: Number(select.value) }, "application/pdf");
    if (printed.url) URL.revokeObjectURL(printed.url);
    printed = { templateId: select.value, url: URL.createObjectURL(blob) };
    return printed.url;
  };
  const link = (href) => h("a", { href, download: fileName(doc), class: "pdf-download", id: "doc-pdf-link" }, t("doc.download"));
  const preview = async () => {
    try {
      const href = await load();
      replace(holder, h("p", {}, link(href)), h("iframe", { class: "pdf-preview", src: href, title: t("doc.pdf") }));
      holder.scrollIntoView({ block: "start" });
    } catch (error) { toast(describeError(error), "error"); }
  };
  const download = async () => {
    try {
      const anchor = link(await load());
      document.body.append(anchor);
      anchor.click();
      anchor.remove();
    } catch (error) { toast(describeError(error), "error"); }
  };
  return { preview, download, element: section(t("doc.pdf"),
    h("div", { class: "toolbar" }, h("div", { class: "field" }, h("label", { for: "doc-template" }, t("doc.template")), select)),
    holder) };
}

function reverseDialog(ctx, doc, action, title, reasonRequired, doneMessage) {
  formDialog(title, {
    fields: [{ name: "reason", label: t("doc.reason"), required: reasonRequired, emptyAs: reasonRequired ? "" : undefined },
      { name: "date", label: t("doc.reverseDate"), type: "date" }],
    submitLabel: title,
    onSubmit: (data) => api.post(`/documents/${doc.id}/${action}`, data),
  }, () => { toast(doneMessage); return ctx.refresh(); });
}

// A draft cancelled as it is: only a reason (nothing was posted, so no reversal date).
function draftCancelDialog(ctx, doc) {
  formDialog(t("doc.draftCancel.title"), {
    fields: [{ name: "reason", label: t("doc.reason") }],
    extra: h("p", { class: "help" }, t("doc.draftCancel.help")),
    submitLabel: t("doc.draftCancel.title"),
    onSubmit: (data) => api.post(`/documents/${doc.id}/cancel`, data),
  }, () => { toast(t("doc.draftCancelled")); return ctx.refresh(); });
}

// Money by a payment method on the payments route: a payment of what a document owes, a refund of
// what a credit note leaves, or an advance on a quote, order or delivery (the API tells them apart
// by the document's type). The amount defaults to what is left. Money moves through a bank account
// in the document's currency or a cash method without one (the API refuses the others); a foreign
// document's payment may name its rate, else the API takes the company's rate of the payment date.
function payDialog(ctx, doc, methods, banks, { title, amount, done, help } = {}) {
  const own = companyCurrency();
  const foreign = isForeign(doc.currency);
  const usable = (m) => m.isActive && !(doc.currency && m.bankAccountId && banks.has(m.bankAccountId)
    && banks.get(m.bankAccountId).currency !== doc.currency);
  formDialog(title || t("doc.pay"), {
    fields: [
      { name: "paymentMethodId", label: t("doc.paymentMethodId"), type: "select", required: true, numeric: true,
        options: [...methods.values()].filter(usable).map((m) => ({ value: m.id, label: m.name })) },
      { name: "amount", label: foreign ? t("doc.amountIn", { currency: doc.currency }) : t("doc.amount"), type: "number",
        required: true, value: String(amount ?? doc.pending), min: "0" },
      { name: "paymentDate", label: t("doc.paymentDate"), type: "date", value: today() },
      foreign ? { name: "exchangeRate", label: t("doc.paymentRate", { own, currency: doc.currency }), type: "number",
        step: "any", min: "0", placeholder: t("doc.paymentRatePlaceholder"),
        help: t("doc.paymentRateHelp", { rate: exchangeRate(doc.exchangeRate), currency: doc.currency }) } : null,
      { name: "reference", label: t("doc.reference") },
      { name: "notes", label: t("doc.paymentNotes"), type: "textarea" },
    ].filter(Boolean),
    extra: help ? h("p", { class: "help" }, help) : null,
    submitLabel: title || t("doc.pay"),
    onSubmit: (data) => api.post(`/payments/documents/${doc.id}/payments`, data),
  }, (payment) => {
    const message = done || t("doc.paid.ok");
    toast(payment.status === "pending" ? `${message} ${t("status.pending")}` : message);
    return ctx.refresh();
  });
}

// Advances a quote or order (the document's source) holds, onto what the document owes.
function applyAdvancesDialog(ctx, doc, availability, source) {
  formDialog(t("doc.applyAdvances"), {
    fields: [
      { name: "amount", label: t("doc.applyAdvances.amount"), type: "number", min: "0",
        placeholder: t("doc.applyAdvances.all") },
      { name: "paymentDate", label: t("doc.paymentDate"), type: "date", value: today() },
      { name: "reference", label: t("doc.reference") },
    ],
    extra: h("p", { class: "help" }, t("doc.applyAdvances.help", { source: documentName(source || { id: doc.sourceDocumentId }),
      available: money(availability.available) })),
    submitLabel: t("doc.applyAdvances"),
    onSubmit: (data) => api.post(`/payments/documents/${doc.id}/apply-advances-from-source`,
      { ...data, sourceDocumentId: doc.sourceDocumentId }),
  }, () => { toast(t("doc.applyAdvances.ok")); return ctx.refresh(); });
}

// The document's PDF by e-mail (POST /send-document), to the partner's address by default.
function sendDialog(doc, partner, templates) {
  const choices = templates.filter((tpl) => tpl.resource === "document");
  formDialog(t("doc.send"), {
    fields: [
      { name: "email", label: t("doc.send.email"), type: "email", required: true, value: partner?.email || "" },
      { name: "templateId", label: t("doc.template"), type: "select", required: true, numeric: true,
        value: choices.find((tpl) => tpl.key === "invoice")?.id,
        options: choices.map((tpl) => ({ value: tpl.id, label: tpl.name })) },
      { name: "subject", label: t("doc.send.subject"), placeholder: t("doc.send.subjectDefault") },
      { name: "message", label: t("doc.send.message"), type: "textarea" },
    ],
    submitLabel: t("doc.send"),
    onSubmit: (data) => api.post("/send-document", { ...data, documentId: doc.id, sendFrom: "email" }),
  }, (sending) => toast(t("doc.send.ok", { email: sending.email })));
}

export async function render(ctx) {
  const doc = await api.get(`/documents/${ctx.params.id}`);
  // what the document can do next comes from the API (allowedActions), not from rules copied here
  const allowed = (action) => (doc.allowedActions || []).includes(action);
  // the corrected or converted document, named by its number
  const sourceLoad = doc.sourceDocumentId ? api.get(`/documents/${doc.sourceDocumentId}`).catch(() => null) : null;
  const [partner, payments, methodList, entry, templates, bankList, availability, gatewayList, dimensions] = await Promise.all([
    api.get(`/business-partners/${doc.businessPartnerId}`).catch(() => null),
    listAll(`/payments/documents/${doc.id}/payments`, "payments"),
    listAll("/payments/methods", "paymentMethods"),
    doc.journalEntryId ? api.get(`/journal-entries/${doc.journalEntryId}`).catch(() => null) : null,
    api.get("/report-templates").then((answer) => answer.reportTemplates),
    listAll("/bank-accounts", "bankAccounts").catch(() => []),
    // what its source holds to apply (the route's default source): offered when there is some
    allowed("applyAdvances") && doc.sourceDocumentId
      ? api.get(`/payments/source-documents/${doc.sourceDocumentId}/advance-availability`).catch(() => null) : null,
    // the company's card gateways (a role that may not read them sees no card payment)
    isCardSale(doc) ? listAll("/payments/gateways", "paymentGateways").catch(() => []) : [],
    doc.lines.some((line) => line.dimensions && line.dimensions.length) ? loadDimensions() : [],
  ]);
  const source = await sourceLoad;
  const methods = new Map(methodList.map((m) => [m.id, m]));
  const banks = new Map(bankList.map((b) => [b.id, b]));
  const pdf = pdfSection(doc, templates);
  const path = `/documents/${doc.id}`;
  const { type, status } = doc;
  const links = gatewayList.length ? linksSection(doc, gatewayList) : null;
  const byCard = cardPayable(doc, allowed) && gatewayList.some((g) => g.isActive);
  // the supplier's scanned invoice, the receipt...: deleted only while the document is a draft
  const attachments = attachmentsPanel({ recordType: "document", recordId: doc.id, editable: status === "draft" });

  const actions = [
    allowed("confirm") ? button(t("doc.confirm"), () => act(t("doc.confirmAsk"), () => api.post(`${path}/confirm`),
      ctx.refresh, t("doc.confirmed")), "primary") : null,
    allowed("unconfirm") ? button(t("doc.unconfirm"),
      () => reverseDialog(ctx, doc, "unconfirm", t("doc.unconfirm"), false, t("doc.unconfirmed"))) : null,
    // a draft is cancelled as it is; a confirmed document with a reversal dated
    allowed("cancel") && status !== "draft" ? button(t("doc.cancel"),
      () => reverseDialog(ctx, doc, "cancel", t("doc.cancel"), true, t("doc.cancelled")), "danger") : null,
    allowed("cancel") && status === "draft" ? button(t("doc.draftCancel"), () => draftCancelDialog(ctx, doc), "danger draft-cancel-button") : null,
    allowed("invalidate") ? button(t("dte.invalidate"), () => invalidateDialog(ctx, doc, ctx.session.company),
      "danger invalidate-button") : null,
    allowed("delete") ? button(t("doc.delete"), () => act(t("doc.deleteAsk"), async () => {
      await api.del(path);
      ctx.navigate("/documents");
    }, null, t("doc.deleted")), "danger delete-button") : null,
    allowed("pay")
      ? button(t("doc.pay"), () => payDialog(ctx, doc, methods, banks), "primary pay-button") : null,
    byCard ? button(t("card.title"), () => cardDialog(doc, gatewayList, links.refresh), "card-button") : null,
    allowed("refund")
      ? button(t("doc.refund"), () => payDialog(ctx, doc, methods, banks, { title: t("doc.refund"), done: t("doc.refund.ok"),
        help: t(`doc.refund.help.${type}`) }), "primary pay-button refund-button") : null,
    allowed("advance")
      ? button(t("doc.advance"), () => payDialog(ctx, doc, methods, banks, { title: t("doc.advance"), amount: advanceRoom(doc),
        done: t("doc.advance.ok"), help: t("doc.advance.help") }), "primary pay-button advance-button") : null,
    availability && Number(availability.available) > 0
      ? button(t("doc.applyAdvances"), () => applyAdvancesDialog(ctx, doc, availability, source), "apply-advances-button") : null,
    allowed("print") ? button(t("doc.preview"), pdf.preview, "pdf-preview-button") : null,
    allowed("print") ? button(t("doc.download"), pdf.download, "pdf-download-button") : null,
    allowed("send") ? button(t("doc.send"), () => sendDialog(doc, partner, templates), "send-button") : null,
    // a note or a copy starts in the document form, filled from this document (pages/document-source.js)
    ...notesFor(doc).map((note) => button(t(`doc.note.${note}`),
      () => ctx.navigate(`/documents/new?from=${doc.id}&type=${note}`), `note-button note-${note}`)),
    DOCUMENT_TYPES.includes(type) ? button(t("doc.duplicate"), () => ctx.navigate(`/documents/new?copy=${doc.id}`),
      "duplicate-button") : null,
  ];

  const reversals = doc.reversalEntryIds && doc.reversalEntryIds.length
    ? h("p", {}, `${t("doc.reversals")}: `, doc.reversalEntryIds.map((id, i) => [i ? ", " : "",
      h("a", { href: `#/accounting/entries/${id}` }, `#${id}`)])) : null;

  append(ctx.root, [
    pageHeader(documentTitle(doc), ...actions),
    h("div", { class: "columns" }, section(null, facts(doc, partner, source)), section(t("doc.totals"), totals(doc, allowed))),
    doc.dte ? dteSection(doc.dte, doc) : null,
    section(t("doc.lines"), linesTable(doc, ctx.session.company?.country, dimensions)),
    section(t("doc.payments"), paymentsTable(ctx, doc, payments, methods, gatewayList)),
    links ? links.element : null,
    entry ? await entrySection(entry) : null,
    reversals,
    attachments.element,
    allowed("print") ? pdf.element : null]);
  await Promise.all([links ? links.refresh() : null, attachments.refresh()]);
}
