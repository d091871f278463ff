// One document: its facts (fiscal number, CAI), its El Salvador DTE (status, control number,
// generation code, the authority's seal, contingency, invalidation), lines, totals, payments,
// journal entry, the actions the API allows it (allowedActions: nothing decided here by type or
// status), and its PDF (preview, download, e-mail). A document in a currency
// other than the company's shows its rate and its total and pending in the company's currency; its
// payments, the rate each moved at and what it was worth in the company's currency.
import { api, listAll } from "../api.js";
import { append, h, replace } from "../dom.js";
import { companyCurrency, date, dateTime, exchangeRate, isForeign, money, percent, today } from "../format.js";
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

    "doc.applyAdvances": "Aplicar anticipo", "doc.applyAdvances.ok": "Anticipo aplicado.",
    "doc.applyAdvances.help": "Del anticipo que el documento de origen {source} tiene disponible ({available}) se aplica "
      + "al saldo lo que indique; vacío: todo lo disponible hasta el pendiente.",
    "doc.applyAdvances.amount": "Monto a aplicar", "doc.applyAdvances.all": "Vacío: todo lo disponible",
    "doc.send": "Enviar por correo", "doc.send.ok": "Documento enviado a {email}.", "doc.send.email": "Correo del destinatario",
    "doc.send.subject": "Asunto", "doc.send.message": "Mensaje", "doc.send.subjectDefault": "Vacío: el tipo y número del documento",
    "dte.title": "Documento tributario electrónico (DTE)", "dte.status": "Estado ante Hacienda", "dte.tipo": "Tipo de DTE",
    "dte.numeroControl": "Número de control", "dte.codigoGeneracion": "Código de generación",
    "dte.sello": "Sello de recepción", "dte.processedAt": "Fecha de procesamiento", "dte.attempts": "Envíos",
    "dte.observations": "Observaciones de Hacienda", "dte.lastError": "Último envío sin respuesta",
    "dte.pending": "Hacienda aún no ha respondido: el DTE se reenvía automáticamente cada hora.",
    "dte.contingency": "En contingencia", "dte.contingency.declared": "Hacienda no recibió este DTE a tiempo: se reportó en el "
      + "evento de contingencia {codigo} del {date}.",
    "dte.contingency.waiting": "El evento aún no ha sido recibido por Hacienda; el DTE se enviará cuando lo reciba.",
    "dte.contingency.received": "Hacienda recibió el evento (sello {seal}); el DTE se envía bajo el modelo diferido.",
    "dte.invalidation": "Invalidación", "dte.invalidation.codigo": "Código de generación del evento",
    "dte.invalidation.sello": "Sello de la invalidación", "dte.invalidation.at": "Invalidado el",
    "dte.invalidation.type": "Tipo de invalidación", "dte.invalidation.reason": "Motivo",
    "dte.invalidation.replacement": "Documento que lo reemplaza",
    "dte.invalidate": "Invalidar DTE", "dte.invalidated": "Hacienda aceptó la invalidación: el documento quedó anulado.",
    "dte.invalidate.help": "La invalidación se envía a Hacienda; solo si la acepta se anula el documento y se revierten "
      + "su partida, existencias y saldo del cliente.",
    "dte.invalidate.type": "Tipo de invalidación", "dte.invalidate.type.1": "1 · Error en la información: lo reemplaza otro DTE",
    "dte.invalidate.type.2": "2 · Rescindir la operación", "dte.invalidate.type.3": "3 · Otro motivo",
    "dte.invalidate.reason": "Motivo (5 a 250 caracteres; obligatorio en el tipo 3)",
    "dte.invalidate.replacement": "DTE que lo reemplaza (del mismo cliente, aceptado por Hacienda)",
    "dte.invalidate.responsible": "Responsable de la invalidación (por el emisor)",
    "dte.invalidate.requester": "Solicitante de la invalidación",
    "dte.person.name": "Nombre", "dte.person.documentType": "Tipo de documento", "dte.person.documentNumber": "Número de documento",
    "dte.idType.36": "NIT", "dte.idType.13": "DUI", "dte.idType.02": "Carné de residente", "dte.idType.03": "Pasaporte",
    "dte.idType.37": "Otro", "dte.invalidate.date": "Fecha de la reversión (por defecto hoy)",
    "status.invalidated": "Invalidado",
    "dte.tipo.01": "Factura", "dte.tipo.03": "Comprobante de crédito fiscal", "dte.tipo.05": "Nota de crédito",
    "dte.tipo.06": "Nota de débito", "dte.tipo.07": "Comprobante de retención", "dte.tipo.14": "Factura de sujeto excluido",
    "doc.taxRate.SV": "IVA",
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

    "doc.applyAdvances": "Apply advance", "doc.applyAdvances.ok": "Advance applied.",
    "doc.applyAdvances.help": "Of the advance the source document {source} has available ({available}), the amount given "
      + "is applied to the balance; empty: all that is available, up to what is pending.",
    "doc.applyAdvances.amount": "Amount to apply", "doc.applyAdvances.all": "Empty: all that is available",
    "doc.send": "E-mail", "doc.send.ok": "Document sent to {email}.", "doc.send.email": "Recipient's e-mail",
    "doc.send.subject": "Subject", "doc.send.message": "Message", "doc.send.subjectDefault": "Empty: the document's type and number",
    "dte.title": "Electronic tax document (DTE)", "dte.status": "Status at the tax authority", "dte.tipo": "DTE type",
    "dte.numeroControl": "Control number", "dte.codigoGeneracion": "Generation code",
    "dte.sello": "Reception seal", "dte.processedAt": "Processing date", "dte.attempts": "Transmissions",
    "dte.observations": "The tax authority's observations", "dte.lastError": "Last transmission got no answer",
    "dte.pending": "The tax authority has not answered yet: the DTE is sent again every hour.",
    "dte.contingency": "In contingency", "dte.contingency.declared": "The tax authority did not receive this DTE in time: it "
      + "was reported in the contingency event {codigo} of {date}.",
    "dte.contingency.waiting": "The tax authority has not received the event yet; the DTE is sent once it has.",
    "dte.contingency.received": "The tax authority received the event (seal {seal}); the DTE is sent under the deferred model.",
    "dte.invalidation": "Invalidation", "dte.invalidation.codigo": "The event's generation code",
    "dte.invalidation.sello": "The invalidation's seal", "dte.invalidation.at": "Invalidated on",
    "dte.invalidation.type": "Invalidation type", "dte.invalidation.reason": "Reason",
    "dte.invalidation.replacement": "Replaced by",
    "dte.invalidate": "Invalidate DTE", "dte.invalidated": "The tax authority accepted the invalidation: the document is cancelled.",
    "dte.invalidate.help": "The invalidation is sent to the tax authority; only once it accepts is the document cancelled and "
      + "its entry, stock and customer balance reversed.",
    "dte.invalidate.type": "Invalidation type", "dte.invalidate.type.1": "1 · Wrong information: another DTE replaces it",
    "dte.invalidate.type.2": "2 · The operation was rescinded", "dte.invalidate.type.3": "3 · Another reason",
    "dte.invalidate.reason": "Reason (5 to 250 characters; required for type 3)",
    "dte.invalidate.replacement": "The DTE that replaces it (same customer, accepted by the authority)",
    "dte.invalidate.responsible": "Responsible for the invalidation (for the issuer)",
    "dte.invalidate.requester": "Who asks for the invalidation",
    "dte.person.name": "Name", "dte.person.documentType": "Document type", "dte.person.documentNumber": "Document number",
    "dte.idType.36": "NIT", "dte.idType.13": "DUI", "dte.idType.02": "Residence card", "dte.idType.03": "Passport",
    "dte.idType.37": "Other", "dte.invalidate.date": "Date of the reversal (default today)",
    "status.invalidated": "Invalidated",
    "dte.tipo.01": "Invoice (factura)", "dte.tipo.03": "Tax credit invoice (crédito fiscal)", "dte.tipo.05": "Credit note",
    "dte.tipo.06": "Debit note", "dte.tipo.07": "Withholding certificate", "dte.tipo.14": "Excluded-subject invoice",
    "doc.taxRate.SV": "VAT",
  },
});

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
  const { cai, dte } = doc;
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
    dte ? [t("doc.dteStatus"), badge(dte.status)] : null,  // the rest of the DTE: dteSection
    doc.cancelReason ? [t("doc.cancelReason"), doc.cancelReason] : null,
    doc.notes ? [t("doc.notes"), doc.notes] : null,
    doc.warnings && doc.warnings.length ? [t("doc.warnings"), doc.warnings.join(" · ")] : null,
  ]);
}

function linesTable(doc, country) {
  const cur = doc.currency;
  return tableView({ rows: doc.lines, columns: [
    { label: t("doc.description"), value: (l) => l.description || (l.productId ? `#${l.productId}` : "") },
    { label: t("doc.quantity"), class: "num", value: (l) => String(l.quantity) },
    { label: t("doc.unitPrice"), class: "num", value: (l) => money(l.unitPrice, cur) },
    { label: t("doc.discount"), class: "num", value: (l) => money(l.discount, cur) },
    { label: country === "SV" ? t("doc.taxRate.SV") : t("doc.taxRate"), class: "num", value: (l) => percent(l.taxRate) },
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

// El Salvador: the document as the tax authority knows it. Each figure is the API's, as it answered.
function dteSection(dte, doc) {
  const code = (value, id) => h("code", { id }, value);
  const contingency = dte.contingency;
  const invalidation = dte.invalidation;
  const notes = [
    dte.status === "pending" && !contingency ? h("p", { class: "notice notice-warning", id: "dte-pending-note" }, t("dte.pending")) : null,
    contingency ? h("div", { class: "notice notice-warning", id: "dte-contingency", role: "status",
      "data-event": contingency.eventCodigo, "data-received": contingency.eventSeal ? "true" : "false" },
    h("strong", {}, t("dte.contingency")), " ",
    t("dte.contingency.declared", { codigo: contingency.eventCodigo, date: date(contingency.eventDate) }), " ",
    contingency.eventSeal ? t("dte.contingency.received", { seal: contingency.eventSeal }) : t("dte.contingency.waiting"))
      : null,
  ];
  const facts = definitionList([
    [t("dte.status"), h("span", { id: "dte-status", "data-status": dte.status }, badge(dte.status))],
    dte.tipoDte ? [t("dte.tipo"), h("span", { id: "dte-tipo", "data-tipo": dte.tipoDte },
      `${dte.tipoDte} · ${t(`dte.tipo.${dte.tipoDte}`)}`)] : null,
    [t("dte.numeroControl"), code(dte.numeroControl || t("common.none"), "dte-numero-control")],
    [t("dte.codigoGeneracion"), code(dte.codigoGeneracion || doc.codigoGeneracion, "dte-codigo-generacion")],
    dte.selloRecepcion ? [t("dte.sello"), code(dte.selloRecepcion, "dte-sello")] : null,
    dte.acceptedAt || dte.transmittedAt ? [t("dte.processedAt"),
      h("span", { id: "dte-processed-at", "data-at": dte.acceptedAt || dte.transmittedAt }, dateTime(dte.acceptedAt || dte.transmittedAt))]
      : null,
    dte.attempts ? [t("dte.attempts"), String(dte.attempts)] : null,
    // when the last transmission got no answer (the service's words, in English, on hover)
    dte.lastError ? [t("dte.lastError"), h("span", { id: "dte-last-error", title: dte.lastError },
      dte.lastAttemptAt ? dateTime(dte.lastAttemptAt) : t("common.none"))] : null,
    dte.observations && dte.observations.length ? [t("dte.observations"),
      h("ul", { id: "dte-observations" }, dte.observations.map((text) => h("li", {}, text)))] : null,
  ]);
  const invalidated = invalidation ? [h("h3", {}, t("dte.invalidation")), definitionList([
    [t("dte.invalidation.type"), t(`dte.invalidate.type.${invalidation.type}`)],
    invalidation.reason ? [t("dte.invalidation.reason"), invalidation.reason] : null,
    invalidation.replacementDocumentId ? [t("dte.invalidation.replacement"), h("a",
      { href: `#/documents/${invalidation.replacementDocumentId}` }, `#${invalidation.replacementDocumentId}`)] : null,
    [t("dte.invalidation.codigo"), code(invalidation.codigoGeneracion, "dte-invalidation-codigo")],
    invalidation.selloRecepcion ? [t("dte.invalidation.sello"), code(invalidation.selloRecepcion, "dte-invalidation-sello")]
      : null,
    invalidation.acceptedAt ? [t("dte.invalidation.at"), dateTime(invalidation.acceptedAt)] : null,
  ])] : null;
  const element = section(t("dte.title"), notes, facts, invalidated);
  element.id = "dte";
  return element;
}

const ID_TYPES = ["36", "13", "02", "03", "37"];

// A person the invalidation names (CAT-022): name, document type and number; `prefix` is the
// API's field (responsible, requester), so its errors land beside these inputs.
function personFields(prefix, person) {
  return [
    { name: `${prefix}.name`, label: `${t(`dte.invalidate.${prefix}`)}: ${t("dte.person.name")}`, required: true,
      value: person?.name },
    { name: `${prefix}.documentType`, label: t("dte.person.documentType"), type: "select", required: true,
      value: person?.documentType || "13", options: ID_TYPES.map((code) => ({ value: code, label: t(`dte.idType.${code}`) })) },
    { name: `${prefix}.documentNumber`, label: t("dte.person.documentNumber"), required: true, value: person?.documentNumber },
  ];
}

// "responsible.name": "x" -> {responsible: {name: "x"}}
function nested(data) {
  const body = {};
  for (const [name, value] of Object.entries(data)) {
    const [outer, inner] = name.split(".");
    if (inner) (body[outer] ||= {})[inner] = value;
    else body[outer] = value;
  }
  return body;
}

// The invalidation (anulación) the API sends to the authority: its type, a reason, the DTE that
// replaces it (type 1: a confirmed document of the same customer and type), who answers for it
// and who asks for it. The API's refusal (or the authority's) stays in the dialog.
async function invalidateDialog(ctx, doc, company) {
  const listed = await api.get("/documents", { businessPartnerId: doc.businessPartnerId, type: doc.type,
    status: "confirmed", limit: 50 }).catch(() => ({ documents: [] }));
  const replacements = listed.documents.filter((d) => d.id !== doc.id);
  const form = formDialog(t("dte.invalidate"), {
    fields: [
      { name: "invalidationType", label: t("dte.invalidate.type"), type: "select", required: true, numeric: true, value: "2",
        options: [1, 2, 3].map((code) => ({ value: String(code), label: t(`dte.invalidate.type.${code}`) })) },
      { name: "reason", label: t("dte.invalidate.reason"), type: "textarea" },
      { name: "replacementDocumentId", label: t("dte.invalidate.replacement"), type: "select", numeric: true,
        options: replacements.map((d) => ({ value: d.id, label: `${d.number || `#${d.id}`} · ${date(d.date)} · ${money(d.total, d.currency)}` })) },
      ...personFields("responsible", company?.dteIssuer?.responsible),
      ...personFields("requester", null),
      { name: "date", label: t("dte.invalidate.date"), type: "date" },
    ],
    extra: h("p", { class: "help" }, t("dte.invalidate.help")),
    submitLabel: t("dte.invalidate"),
    onSubmit: (data) => api.post(`/documents/${doc.id}/invalidate`, nested(data)),
  }, () => { toast(t("dte.invalidated")); return ctx.refresh(); });
  form.id = "invalidate-form";
  // the replacement is asked for only by type 1
  const type = form.querySelector("#f-invalidationType");
  const replacement = form.querySelector('[name="replacementDocumentId"]').closest(".field");
  const follow = () => { replacement.hidden = type.value !== "1"; };
  type.addEventListener("change", follow);
  follow();
}

// Advances a quote or order (the document's source) holds, onto what the document owes.
function applyAdvancesDialog(ctx, doc, availability) {
  formDialog(t("doc.applyAdvances"), {
    fields: [
      { name: "amount", label: t("doc.applyAdvances.amount"), type: "number", min: "0",
        placeholder: t("doc.applyAdvances.all") },
      { name: "paymentDate", label: t("doc.paymentDate"), type: "date", value: today() },
      { name: "reference", label: t("doc.reference") },
    ],
    extra: h("p", { class: "help" }, t("doc.applyAdvances.help", { source: `#${doc.sourceDocumentId}`,
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
  const [partner, payments, methodList, entry, templates, bankList, availability] = await Promise.all([
    api.get(`/business-partners/${doc.businessPartnerId}`).catch(() => null),
    listAll(`/payments/documents/${doc.id}/payments`, "payments"),
    listAll("/payments/methods", "paymentMethods"),
    doc.journalEntryId ? api.get(`/journal-entries/${doc.journalEntryId}`).catch(() => null) : null,
    api.get("/report-templates").then((answer) => answer.reportTemplates),
    listAll("/bank-accounts", "bankAccounts").catch(() => []),
    // what its source holds to apply (the route's default source): offered when there is some
    allowed("applyAdvances") && doc.sourceDocumentId
      ? api.get(`/payments/source-documents/${doc.sourceDocumentId}/advance-availability`).catch(() => null) : null,
  ]);
  const methods = new Map(methodList.map((m) => [m.id, m]));
  const banks = new Map(bankList.map((b) => [b.id, b]));
  const pdf = pdfSection(doc, templates);
  const path = `/documents/${doc.id}`;
  const { type, status } = doc;

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
    allowed("refund")
      ? button(t("doc.refund"), () => payDialog(ctx, doc, methods, banks, { title: t("doc.refund"), done: t("doc.refund.ok"),
        help: t(`doc.refund.help.${type}`) }), "primary pay-button refund-button") : null,
    allowed("advance")
      ? button(t("doc.advance"), () => payDialog(ctx, doc, methods, banks, { title: t("doc.advance"), amount: advanceRoom(doc),
        done: t("doc.advance.ok"), help: t("doc.advance.help") }), "primary pay-button advance-button") : null,
    availability && Number(availability.available) > 0
      ? button(t("doc.applyAdvances"), () => applyAdvancesDialog(ctx, doc, availability), "apply-advances-button") : null,
    allowed("print") ? button(t("doc.preview"), pdf.preview, "pdf-preview-button") : null,
    allowed("print") ? button(t("doc.download"), pdf.download, "pdf-download-button") : null,
    allowed("send") ? button(t("doc.send"), () => sendDialog(doc, partner, templates), "send-button") : null,
  ];

  const reversals = doc.reversalEntryIds && doc.reversalEntryIds.length
    ? h("p", {}, `${t("doc.reversals")}: `, doc.reversalEntryIds.map((id, i) => [i ? ", " : "",
      h("a", { href: `#/accounting/entries/${id}` }, `#${id}`)])) : null;

  append(ctx.root, [
    pageHeader(`${t(`doctype.${type}`)} ${doc.number || `#${doc.id}`}`, ...actions),
    h("div", { class: "columns" }, section(null, facts(doc, partner)), section(t("doc.totals"), totals(doc, allowed))),
    doc.dte ? dteSection(doc.dte, doc) : null,
    section(t("doc.lines"), linesTable(doc, ctx.session.company?.country)),
    section(t("doc.payments"), paymentsTable(ctx, doc, payments, methods)),
    entry ? await entrySection(entry) : null,
    reversals,
    allowed("print") ? pdf.element : null]);
}
