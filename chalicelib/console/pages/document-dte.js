// An El Salvador document as the tax authority knows it (the DTE section of the document page)
// and its invalidation (anulación) dialog.
import { api } from "../api.js";
import { h } from "../dom.js";
import { date, dateTime, documentName, linkedDocumentName, money } from "../format.js";
import { t } from "../i18n.js";
import { badge, definitionList, downloadButton, formDialog, section, toast } from "../ui.js";

// The authority's short names of its formats ("FE v2", "CCF v4"): the version tells the edition a DTE
// was issued in, which it keeps for good.
const FORMAT_NAMES = { "01": "FE", "03": "CCF", "05": "NC", "06": "ND", "07": "CR", "11": "FEX", "14": "FSE", "18": "RET" };
const formatName = (dte) => `${FORMAT_NAMES[dte.tipoDte] || dte.tipoDte} v${dte.version}`;

// El Salvador: the document as the tax authority knows it. Each figure is the API's, as it answered.
export function dteSection(dte, doc) {
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
    dte.tipoDte && dte.version ? [t("dte.version"), h("span", { id: "dte-version", "data-version": dte.version },
      formatName(dte))] : null,
    [t("dte.numeroControl"), code(dte.numeroControl || t("common.none"), "dte-numero-control")],
    [t("dte.codigoGeneracion"), code(dte.codigoGeneracion || doc.codigoGeneracion, "dte-codigo-generacion")],
    dte.selloRecepcion ? [t("dte.sello"), code(dte.selloRecepcion, "dte-sello")] : null,
    dte.acceptedAt || dte.transmittedAt ? [t("dte.processedAt"),
      h("span", { id: "dte-processed-at", "data-at": dte.acceptedAt || dte.transmittedAt }, dateTime(dte.acceptedAt || dte.transmittedAt))]
      : null,
    dte.attempts ? [t("dte.attempts"), String(dte.attempts)] : null,
    // when the last transmission got no answer, and why (in the reader's language: the API renders it)
    dte.lastError ? [t("dte.lastError"), h("span", { id: "dte-last-error" },
      dte.lastAttemptAt ? `${dateTime(dte.lastAttemptAt)}: ${dte.lastError}` : dte.lastError)] : null,
    dte.observations && dte.observations.length ? [t("dte.observations"),
      h("ul", { id: "dte-observations" }, dte.observations.map((text) => h("li", {}, text)))] : null,
  ]);
  const invalidated = invalidation ? [h("h3", {}, t("dte.invalidation")), definitionList([
    [t("dte.invalidation.type"), t(`dte.invalidate.type.${invalidation.type}`)],
    invalidation.reason ? [t("dte.invalidation.reason"), invalidation.reason] : null,
    invalidation.replacementDocumentId ? [t("dte.invalidation.replacement"), h("a",
      { href: `#/documents/${invalidation.replacementDocumentId}`, id: "dte-invalidation-replacement" },
      linkedDocumentName(invalidation.replacementDocumentId, invalidation.replacementDocumentNumber,
        invalidation.replacementNumeroControl))] : null,
    [t("dte.invalidation.codigo"), code(invalidation.codigoGeneracion, "dte-invalidation-codigo")],
    invalidation.selloRecepcion ? [t("dte.invalidation.sello"), code(invalidation.selloRecepcion, "dte-invalidation-sello")]
      : null,
    invalidation.acceptedAt ? [t("dte.invalidation.at"), dateTime(invalidation.acceptedAt)] : null,
  ])] : null;
  // once the authority answered: the DTE as it received it, with its seal (the file handed to the buyer)
  const download = dte.status !== "pending" ? h("p", { class: "actions" },
    downloadButton(t("dte.downloadJson"), `/documents/${doc.id}/dte`, {}, `${dte.codigoGeneracion}.json`,
      "dte-download-json")) : null;
  const element = section(t("dte.title"), notes, facts, download, invalidated);
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
export async function invalidateDialog(ctx, doc, company) {
  const listed = await api.get("/documents", { businessPartnerId: doc.businessPartnerId, type: doc.type,
    status: "confirmed", limit: 50 }).catch(() => ({ documents: [] }));
  const replacements = listed.documents.filter((d) => d.id !== doc.id);
  const form = formDialog(t("dte.invalidate"), {
    fields: [
      { name: "invalidationType", label: t("dte.invalidate.type"), type: "select", required: true, numeric: true, value: "2",
        options: [1, 2, 3].map((code) => ({ value: String(code), label: t(`dte.invalidate.type.${code}`) })) },
      { name: "reason", label: t("dte.invalidate.reason"), type: "textarea" },
      { name: "replacementDocumentId", label: t("dte.invalidate.replacement"), type: "select", numeric: true,
        options: replacements.map((d) => ({ value: d.id, label: `${documentName(d)} · ${date(d.date)} · ${money(d.total, d.currency)}` })) },
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
