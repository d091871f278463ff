// One document: its facts (fiscal number, CAI, DTE), lines, totals, payments, journal entry, the
// actions its type and status allow, and its PDF (preview and download). A document in a currency
// other than the company's shows its rate and its total and pending in the company's currency; its
// payments, the rate each moved at and what it was worth in the company's currency.
import { api, listAll } from "../api.js";
import { append, h, replace } from "../dom.js";
import { companyCurrency, date, exchangeRate, isForeign, money, percent, today } from "../format.js";
import { addStrings, t } from "../i18n.js";
import { act, badge, button, definitionList, describeError, formDialog, pageHeader, section, tableView, toast } from "../ui.js";

addStrings({
  es: {
    "doc.number": "Número", "doc.type": "Tipo", "doc.partner": "Cliente o proveedor", "doc.pending": "Pendiente",
    "doc.date": "Fecha", "doc.dueDate": "Vencimiento", "doc.currency": "Moneda", "doc.reference": "Referencia",
    "doc.notes": "Notas", "doc.source": "Documento de origen", "doc.cai": "CAI", "doc.caiRange": "Rango autorizado",
    "doc.caiDeadline": "Fecha límite de emisión", "doc.codigoGeneracion": "Código de generación",
    "doc.dteStatus": "Estado DTE", "doc.dteControl": "Número de control", "doc.dteStamp": "Sello de recepción",
    "doc.cancelReason": "Motivo de anulación", "doc.warnings": "Advertencias", "doc.lines": "Líneas",
    "doc.description": "Descripción", "doc.quantity": "Cantidad", "doc.unitPrice": "Precio", "doc.discount": "Descuento",
    "doc.taxRate": "ISV", "doc.subtotal": "Subtotal", "doc.tax": "Impuesto", "doc.total": "Total", "doc.paid": "Pagado",
    "doc.totals": "Totales", "doc.payments": "Pagos", "doc.payment.method": "Método", "doc.payment.kind": "Forma",
    "doc.payment.amount": "Monto", "doc.noPayments": "Sin pagos registrados.", "doc.entry": "Partida contable",
    "doc.entry.open": "Ver partida", "doc.account": "Cuenta", "doc.debit": "Débito", "doc.credit": "Crédito",
    "doc.reversals": "Partidas de reversión", "doc.confirm": "Confirmar", "doc.confirmAsk": "¿Confirmar el documento? Se le asigna número y partida.",
    "doc.confirmed": "Documento confirmado.", "doc.unconfirm": "Revertir a borrador", "doc.unconfirmed": "El documento volvió a borrador.",
    "doc.cancel": "Anular", "doc.cancelled": "Documento anulado.", "doc.reason": "Motivo",
    "doc.reverseDate": "Fecha de la reversión (por defecto hoy)", "doc.delete": "Eliminar",
    "doc.deleteAsk": "¿Eliminar este borrador para siempre? No se puede deshacer.", "doc.deleted": "Borrador eliminado.",
    "doc.draftCancel": "Cancelar", "doc.draftCancel.title": "Cancelar borrador",
    "doc.draftCancel.help": "El borrador queda anulado: no se confirma ni se edita más y no se contabiliza nada.",
    "doc.draftCancelled": "Borrador cancelado.", "doc.pay": "Registrar pago",
    "doc.paymentMethodId": "Método de pago", "doc.amount": "Monto", "doc.paymentDate": "Fecha de pago",
    "doc.paymentNotes": "Notas", "doc.paid.ok": "Pago registrado.", "doc.payment.confirm": "Confirmar pago",
    "doc.payment.confirmed": "Pago confirmado.", "doc.payment.cancel": "Anular pago", "doc.payment.cancelled": "Pago anulado.",
    "doc.preview": "Vista previa PDF", "doc.download": "Descargar PDF", "doc.template": "Plantilla", "doc.pdf": "PDF",
    "doc.kind.method": "Método de pago", "doc.kind.credit_note": "Nota de crédito", "doc.kind.withholding": "Retención",
    "doc.kind.advance": "Anticipo", "doc.kind.refund": "Reembolso",
    "doc.refund": "Reembolsar", "doc.refund.ok": "Reembolso registrado.",
    "doc.refund.help.06": "Se devuelve al cliente, por el método de pago elegido, el saldo que la nota de crédito le deja a favor.",
    "doc.refund.help.105": "El proveedor devuelve, por el método de pago elegido, el saldo que la nota de crédito deja a nuestro favor.",
    "doc.advance": "Registrar anticipo", "doc.advance.ok": "Anticipo registrado.",
    "doc.advance.help": "El dinero queda como anticipo hasta que una factura lo aplique.",
    "doc.advances": "Anticipos recibidos", "doc.advancesApplied": "Anticipos aplicados",
    "doc.exchangeRate": "Tipo de cambio", "doc.inBase": "{amount} al tipo de cambio {rate}",
    "doc.payment.base": "En {own}", "doc.payment.rate": "al tipo de cambio {rate}",
    "doc.payment.settled": "aplicado al saldo: {amount}",
    "doc.payments.fxHelp": "La diferencia entre el monto en {own} de un pago y lo que aplica al saldo (al tipo de cambio "
      + "del documento, {rate}) se contabiliza como diferencial cambiario en la partida del pago.",
    "doc.amountIn": "Monto ({currency})", "doc.paymentRate": "Tipo de cambio del pago ({own} por 1 {currency})",
    "doc.paymentRatePlaceholder": "Vacío: el tipo de cambio registrado para la fecha del pago",
    "doc.paymentRateHelp": "El documento se registró a {rate}. Si el pago entra a otro tipo de cambio, la diferencia "
      + "se contabiliza como ganancia o pérdida cambiaria. Solo métodos en efectivo o con cuenta bancaria en {currency}.",
  },
  en: {
    "doc.number": "Number", "doc.type": "Type", "doc.partner": "Customer or supplier", "doc.pending": "Pending",
    "doc.date": "Date", "doc.dueDate": "Due date", "doc.currency": "Currency", "doc.reference": "Reference",
    "doc.notes": "Notes", "doc.source": "Source document", "doc.cai": "CAI", "doc.caiRange": "Authorised range",
    "doc.caiDeadline": "Issue deadline", "doc.codigoGeneracion": "Generation code", "doc.dteStatus": "DTE status",
    "doc.dteControl": "Control number", "doc.dteStamp": "Reception stamp", "doc.cancelReason": "Cancellation reason",
    "doc.warnings": "Warnings", "doc.lines": "Lines", "doc.description": "Description", "doc.quantity": "Quantity",
    "doc.unitPrice": "Price", "doc.discount": "Discount", "doc.taxRate": "Tax rate", "doc.subtotal": "Subtotal",
    "doc.tax": "Tax", "doc.total": "Total", "doc.paid": "Paid", "doc.totals": "Totals", "doc.payments": "Payments",
    "doc.payment.method": "Method", "doc.payment.kind": "Kind", "doc.payment.amount": "Amount",
    "doc.noPayments": "No payments yet.", "doc.entry": "Journal entry", "doc.entry.open": "Open entry",
    "doc.account": "Account", "doc.debit": "Debit", "doc.credit": "Credit", "doc.reversals": "Reversal entries",
    "doc.confirm": "Confirm", "doc.confirmAsk": "Confirm the document? It gets its number and entry.",
    "doc.confirmed": "Document confirmed.", "doc.unconfirm": "Return to draft", "doc.unconfirmed": "The document is a draft again.",
    "doc.cancel": "Cancel document", "doc.cancelled": "Document cancelled.", "doc.reason": "Reason",
    "doc.reverseDate": "Date of the reversal (default today)", "doc.delete": "Delete",
    "doc.deleteAsk": "Delete this draft for good? This cannot be undone.", "doc.deleted": "Draft deleted.",
    "doc.draftCancel": "Cancel", "doc.draftCancel.title": "Cancel draft",
    "doc.draftCancel.help": "The draft is cancelled: it is not confirmed or edited again and nothing is posted.",
    "doc.draftCancelled": "Draft cancelled.", "doc.pay": "Record payment",
    "doc.paymentMethodId": "Payment method", "doc.amount": "Amount", "doc.paymentDate": "Payment date",
    "doc.paymentNotes": "Notes", "doc.paid.ok": "Payment recorded.", "doc.payment.confirm": "Confirm payment",
    "doc.payment.confirmed": "Payment confirmed.", "doc.payment.cancel": "Cancel payment", "doc.payment.cancelled": "Payment cancelled.",
    "doc.preview": "Preview PDF", "doc.download": "Download PDF", "doc.template": "Template", "doc.pdf": "PDF",
    "doc.kind.method": "Payment method", "doc.kind.credit_note": "Credit note", "doc.kind.withholding": "Withholding",
    "doc.kind.advance": "Advance", "doc.kind.refund": "Refund",
    "doc.refund": "Refund", "doc.refund.ok": "Refund recorded.",
    "doc.refund.help.06": "What the credit note leaves in the customer's favour goes back to them by the payment method chosen.",
    "doc.refund.help.105": "The supplier pays back, by the payment method chosen, what the credit note leaves in our favour.",
    "doc.advance": "Record advance", "doc.advance.ok": "Advance recorded.",
    "doc.advance.help": "The money is held as an advance until an invoice applies it.",
    "doc.advances": "Advances received", "doc.advancesApplied": "Advances applied",
    "doc.exchangeRate": "Exchange rate", "doc.inBase": "{amount} at the exchange rate {rate}",
    "doc.payment.base": "In {own}", "doc.payment.rate": "at the exchange rate {rate}",
    "doc.payment.settled": "applied to the balance: {amount}",
    "doc.payments.fxHelp": "The difference between a payment's amount in {own} and what it applies to the balance (at "
      + "the document's rate, {rate}) is posted as an exchange difference in the payment's entry.",
    "doc.amountIn": "Amount ({currency})", "doc.paymentRate": "Payment exchange rate ({own} per 1 {currency})",
    "doc.paymentRatePlaceholder": "Empty: the rate recorded for the payment date",
    "doc.paymentRateHelp": "The document was recorded at {rate}. If the payment comes in at another rate, the "
      + "difference is posted as an exchange gain or loss. Only cash methods or bank accounts in {currency}.",
  },
});

// Confirm, unconfirm, cancel, delete and pay follow the document's allowedActions. Still decided
// here by type (not yet in allowedActions): a credit note's refund of its rest, and the advances
// that quotes, orders and deliveries take (until cancelled, up to their total).
const REFUNDABLE = ["06", "105"];
const TAKES_ADVANCES = ["100", "101", "102", "112"];
const FILE_PREFIX = { "01": "factura", "113": "factura", "06": "nota-credito", "07": "nota-debito", "100": "cotizacion",
  "101": "pedido", "102": "orden-compra", "103": "factura-compra", "105": "nota-credito-compra", "106": "nota-debito-compra",
  "112": "entrega" };

const cents = (value) => Math.round((Number(value) + Number.EPSILON) * 100) / 100;
// what a quote, order or delivery may still take in advances
const advanceRoom = (doc) => cents(Number(doc.total) - Number(doc.advancesTotal || 0));

const fileName = (doc) => `${FILE_PREFIX[doc.type] || "documento"}-${doc.number || doc.id}.pdf`;

async function accountsOf(entry) {
  const ids = [...new Set(entry.lines.map((line) => line.chartOfAccountId))];
  const accounts = await Promise.all(ids.map((id) => api.get(`/chart-of-accounts/${id}`).catch(() => null)));
  return new Map(accounts.filter(Boolean).map((account) => [account.id, account]));
}

function facts(doc, partner) {
  const cai = doc.cai;
  const dte = doc.dte;
  return definitionList([
    [t("doc.number"), h("strong", { id: "doc-number" }, doc.number || `#${doc.id}`)],
    [t("doc.type"), t(`doctype.${doc.type}`)],
    [t("common.status"), badge(doc.status)],
    [t("doc.partner"), h("a", { href: `#/partners/${doc.businessPartnerId}`, id: "doc-partner" },
      partner ? partner.name : `#${doc.businessPartnerId}`)],
    [t("doc.date"), date(doc.date)],
    [t("doc.dueDate"), date(doc.dueDate)],
    doc.currency ? [t("doc.currency"), doc.currency] : null,
    isForeign(doc.currency) ? [t("doc.exchangeRate"), h("span", { id: "doc-exchange-rate", "data-rate": String(doc.exchangeRate) },
      `1 ${doc.currency} = ${exchangeRate(doc.exchangeRate)} ${companyCurrency()}`)] : null,
    doc.reference ? [t("doc.reference"), doc.reference] : null,
    doc.sourceDocumentId ? [t("doc.source"), h("a", { href: `#/documents/${doc.sourceDocumentId}` }, `#${doc.sourceDocumentId}`)] : null,
    cai ? [t("doc.cai"), h("code", { id: "doc-cai" }, cai.cai)] : null,
    cai ? [t("doc.caiRange"), `${cai.rangeStart} – ${cai.rangeEnd}`] : null,
    cai ? [t("doc.caiDeadline"), date(cai.deadline)] : null,
    doc.codigoGeneracion ? [t("doc.codigoGeneracion"), h("code", {}, doc.codigoGeneracion)] : null,
    dte ? [t("doc.dteStatus"), badge(dte.status)] : null,
    dte && dte.numeroControl ? [t("doc.dteControl"), dte.numeroControl] : null,
    dte && dte.selloRecepcion ? [t("doc.dteStamp"), dte.selloRecepcion] : null,
    doc.cancelReason ? [t("doc.cancelReason"), doc.cancelReason] : null,
    doc.notes ? [t("doc.notes"), doc.notes] : null,
    doc.warnings && doc.warnings.length ? [t("doc.warnings"), doc.warnings.join(" · ")] : null,
  ]);
}

function linesTable(doc) {
  const cur = doc.currency;
  return tableView({ rows: doc.lines, columns: [
    { label: t("doc.description"), value: (l) => l.description || (l.productId ? `#${l.productId}` : "") },
    { label: t("doc.quantity"), class: "num", value: (l) => String(l.quantity) },
    { label: t("doc.unitPrice"), class: "num", value: (l) => money(l.unitPrice, cur) },
    { label: t("doc.discount"), class: "num", value: (l) => money(l.discount, cur) },
    { label: t("doc.taxRate"), class: "num", value: (l) => percent(l.taxRate) },
    { label: t("doc.subtotal"), class: "num", value: (l) => money(l.subtotal, cur) },
    { label: t("doc.tax"), class: "num", value: (l) => money(l.tax, cur) },
    { label: t("doc.total"), class: "num", value: (l) => money(l.total, cur) },
  ] });
}

// What a foreign document's total and pending are in the company's currency (the API's baseTotal
// and basePending; a document from before currencies has neither: its amounts at its rate).
function inBase(doc, amount, base, id) {
  if (!isForeign(doc.currency)) return null;
  const value = base ?? Math.round(Number(amount) * Number(doc.exchangeRate) * 100) / 100;
  return h("small", { class: "figure-base", id, "data-amount": String(value) },
    `(${t("doc.inBase", { amount: money(value), rate: exchangeRate(doc.exchangeRate) })})`);
}

function totals(doc) {
  const figure = (label, amount, id, base) => h("div", { class: "figure" }, h("span", { class: "figure-label" }, label),
    h("strong", { id, "data-amount": String(amount) }, money(amount, doc.currency)), base || null);
  const settled = TAKES_ADVANCES.includes(doc.type)
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

function paymentsTable(ctx, doc, payments, methods) {
  const path = (p) => `/payments/documents/${doc.id}/payments/${p.id}`;
  const cancel = (p) => formDialog(t("doc.payment.cancel"), {
    fields: [{ name: "reason", label: t("doc.reason"), required: true, emptyAs: "" },
      { name: "date", label: t("doc.reverseDate"), type: "date" }],
    submitLabel: t("doc.payment.cancel"),
    onSubmit: (data) => api.post(`${path(p)}/cancel`, data),
  }, () => { toast(t("doc.payment.cancelled")); return ctx.refresh(); });
  const own = companyCurrency();
  const foreign = isForeign(doc.currency);
  const table = tableView({ rows: payments, empty: t("doc.noPayments"), columns: [
    { label: t("doc.paymentDate"), value: (p) => date(p.paymentDate) },
    { label: t("doc.payment.kind"), value: (p) => t(`doc.kind.${p.kind}`) },
    { label: t("doc.payment.method"), value: (p) => (p.paymentMethodId ? methods.get(p.paymentMethodId)?.name || `#${p.paymentMethodId}` : "") },
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

export async function render(ctx) {
  const doc = await api.get(`/documents/${ctx.params.id}`);
  const [partner, payments, methodList, entry, templates, bankList] = await Promise.all([
    api.get(`/business-partners/${doc.businessPartnerId}`).catch(() => null),
    listAll(`/payments/documents/${doc.id}/payments`, "payments"),
    listAll("/payments/methods", "paymentMethods"),
    doc.journalEntryId ? api.get(`/journal-entries/${doc.journalEntryId}`).catch(() => null) : null,
    api.get("/report-templates").then((answer) => answer.reportTemplates),
    listAll("/bank-accounts", "bankAccounts").catch(() => []),
  ]);
  const methods = new Map(methodList.map((m) => [m.id, m]));
  const banks = new Map(bankList.map((b) => [b.id, b]));
  const pdf = pdfSection(doc, templates);
  const path = `/documents/${doc.id}`;
  const { type, status } = doc;

  // what the document can do next comes from the API (allowedActions), not from rules copied here
  const allowed = (action) => (doc.allowedActions || []).includes(action);
  const actions = [
    allowed("confirm") ? button(t("doc.confirm"), () => act(t("doc.confirmAsk"), () => api.post(`${path}/confirm`),
      ctx.refresh, t("doc.confirmed")), "primary") : null,
    allowed("unconfirm") ? button(t("doc.unconfirm"),
      () => reverseDialog(ctx, doc, "unconfirm", t("doc.unconfirm"), false, t("doc.unconfirmed"))) : null,
    allowed("cancel") && status === "confirmed" ? button(t("doc.cancel"),
      () => reverseDialog(ctx, doc, "cancel", t("doc.cancel"), true, t("doc.cancelled")), "danger") : null,
    allowed("cancel") && status === "draft" ? button(t("doc.draftCancel"), () => draftCancelDialog(ctx, doc), "danger draft-cancel-button") : null,
    allowed("delete") ? button(t("doc.delete"), () => act(t("doc.deleteAsk"), async () => {
      await api.del(path);
      ctx.navigate("/documents");
    }, null, t("doc.deleted")), "danger delete-button") : null,
    allowed("pay")
      ? button(t("doc.pay"), () => payDialog(ctx, doc, methods, banks), "primary pay-button") : null,
    REFUNDABLE.includes(type) && status === "confirmed" && Number(doc.pending) > 0
      ? button(t("doc.refund"), () => payDialog(ctx, doc, methods, banks, { title: t("doc.refund"), done: t("doc.refund.ok"),
        help: t(`doc.refund.help.${type}`) }), "primary pay-button refund-button") : null,
    TAKES_ADVANCES.includes(type) && status !== "cancelled" && advanceRoom(doc) > 0
      ? button(t("doc.advance"), () => payDialog(ctx, doc, methods, banks, { title: t("doc.advance"), amount: advanceRoom(doc),
        done: t("doc.advance.ok"), help: t("doc.advance.help") }), "primary pay-button advance-button") : null,
    button(t("doc.preview"), pdf.preview, "pdf-preview-button"),
    button(t("doc.download"), pdf.download, "pdf-download-button"),
  ];

  const reversals = doc.reversalEntryIds && doc.reversalEntryIds.length
    ? h("p", {}, `${t("doc.reversals")}: `, doc.reversalEntryIds.map((id, i) => [i ? ", " : "",
      h("a", { href: `#/accounting/entries/${id}` }, `#${id}`)])) : null;

  append(ctx.root, [
    pageHeader(`${t(`doctype.${type}`)} ${doc.number || `#${doc.id}`}`, ...actions),
    h("div", { class: "columns" }, section(null, facts(doc, partner)), section(t("doc.totals"), totals(doc))),
    section(t("doc.lines"), linesTable(doc)),
    section(t("doc.payments"), paymentsTable(ctx, doc, payments, methods)),
    entry ? await entrySection(entry) : null,
    reversals,
    pdf.element]);
}
