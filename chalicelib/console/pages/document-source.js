// The document a note corrects: which types correct which (the API's rule, domain/documents.py
// KINDS' `sources` of the types that require one; tests/test_document_notes.py keeps this copy equal),
// the form's "corrected document" field (a type-ahead over GET /documents?q= of the partner's confirmed
// documents of those types) and what a new document takes from the one it starts from: a note its
// source's partner, currency and lines; a duplicate the whole document as a draft.
import { api } from "../api.js";
import { h } from "../dom.js";
import { date, documentName, documentTypeName, money } from "../format.js";
import { t } from "../i18n.js";
import { typeAhead } from "../ui.js";

// note type -> the types it may correct
export const CORRECTS = {
  "06": ["01", "113"],
  "07": ["01", "113"],
  "105": ["103", "104"],
  "106": ["103", "104"],
};

// The note types a document may receive: a confirmed document of a type some note corrects.
export function notesFor(doc) {
  if (doc.status !== "confirmed") return [];
  return Object.keys(CORRECTS).filter((note) => CORRECTS[note].includes(doc.type));
}

const label = (doc) => `${documentName(doc)} · ${documentTypeName(doc)} · ${date(doc.date)} · ${money(doc.total, doc.currency)}`;

// The "corrected document" field, shown while the form's type is a note: its hidden input is the
// `sourceDocumentId` the API reads, and the API's refusal of it lands beside it (data-field).
export function sourceField(form, { value } = {}) {
  const typeInput = form.querySelector("#f-type");
  const partnerInput = form.querySelector("#f-businessPartnerId");
  const allowed = () => CORRECTS[typeInput.value] || [];
  const picker = typeAhead({
    id: "f-sourceDocumentId", name: "sourceDocumentId", value,
    placeholder: t("docform.sourceSearch"),
    source: {
      path: "/documents", field: "documents", label,
      accept: (doc) => allowed().includes(doc.type) && doc.status === "confirmed",
      // the partner chosen narrows the search: a note corrects its own partner's document
      get query() { return { businessPartnerId: partnerInput.value || undefined }; },
    },
  });
  const heading = h("label", { for: picker.search.id });
  const help = h("small", { class: "help", id: "docform-source-help" });
  const element = h("div", { class: "field", id: "docform-source" }, heading, picker.element, help);
  const follow = () => {
    const sources = allowed();
    element.hidden = !sources.length;
    heading.textContent = t(`docform.source.${typeInput.value}`);
    help.textContent = sources.length
      ? t("docform.sourceHelp", { types: sources.map((code) => t(`doctype.${code}`)).join(" / ") }) : "";
  };
  typeInput.addEventListener("change", follow);
  partnerInput.closest(".field").after(element);
  follow();
  return { element, value: () => (element.hidden || !picker.input.value ? undefined : Number(picker.input.value)) };
}

// A line of a document as the form's line editor takes it again.
const lineOf = (line) => ({ productId: line.productId ?? "", description: line.description || "",
  quantity: String(line.quantity), unitPrice: String(line.unitPrice), discount: String(line.discount || 0),
  taxTreatment: line.taxTreatment || (Number(line.taxRate) ? "taxed" : "exempt"), taxRate: String(line.taxRate),
  dimensions: line.dimensions || [] });

// What a new document starts from (the form's address says): `?from=<id>&type=06` a note of that
// document, `?copy=<id>` a duplicate of it, saved as a draft. Null when it starts empty.
export async function startingPoint(query) {
  const id = query.from || query.copy;
  if (!id) return null;
  const doc = await api.get(`/documents/${id}`);
  const common = { businessPartnerId: doc.businessPartnerId, currency: doc.currency, lines: doc.lines.map(lineOf) };
  if (query.from) return { ...common, type: query.type, sourceDocumentId: doc.id, origin: doc };
  return { ...common, type: doc.type, sourceDocumentId: doc.sourceDocumentId ?? undefined, reference: doc.reference,
    notes: doc.notes, exchangeRate: doc.exchangeRate, draft: true, origin: doc, copy: true };
}
