// A new document: header fields, lines that can be added and removed (a product, found by typing
// its code or name through GET /products?q=, fills the description, price and tax rate), a live preview of the totals (display only: the API
// computes the real ones) and the API's refusals beside each field, lines[i].field included.
// Each line says how it is taxed (taxTreatment); a Honduran sale may carry the buyer's exoneration
// registers and an El Salvador sales invoice the export's terms (DTE 11), each group sent only
// when something in it is filled, or else the DTE chosen (factura or crédito fiscal).
// A document in a currency other than the company's may name its exchange rate; left empty, the
// API takes the company's rate for the document date (the form says which, or that there is none).
import { api, listAll } from "../api.js";
import { append, h, replace } from "../dom.js";
import { companyCurrency, date, documentName, exchangeRate, isForeign, money, percent, today } from "../format.js";
import { CURRENCIES, DOCUMENT_TYPES, t } from "../i18n.js";
import { button, formView, pageHeader, section, toast, typeAhead } from "../ui.js";
import { sourceField, startingPoint } from "./document-source.js";
import { dimensionPickers, loadDimensions } from "./line-dimensions.js";

// the rates a line may take in the company's country (Honduras' ISV, El Salvador's IVA), the usual one first
const TAX_RATES = { HN: ["0.15", "0", "0.18"], SV: ["0.13", "0"] };
// the treatments each country's books tell apart (chalicelib/domain/taxes.py); all but taxed carry rate 0
const TAXED = "taxed";
const TREATMENTS = { HN: [TAXED, "exempt", "exonerated"], SV: [TAXED, "exempt", "nonSubject", "export"] };
const LINE_FIELDS = ["productId", "description", "quantity", "unitPrice", "discount", "taxTreatment", "taxRate"];
// the documents that carry an exoneration (Honduran sales, not opening balances) or export terms
// (El Salvador's sales invoices, the DTE types)
const EXONERATION_TYPES = ["01", "113", "06", "07", "100", "101", "112"];
const EXPORT_TYPES = ["01", "113"];
// the fields of the API's `exoneration` and `export` (the document page shows them too)
export const EXONERATION_FIELDS = ["purchaseOrderNumber", "registryNumber", "sagNumber"];
export const EXPORT_FIELDS = ["countryCode", "countryName", "fiscalPrecinct", "regime", "incoterms", "incotermsDescription"];
// examples of the authority's codes: CAT-020 (9450 United States), CAT-027, CAT-028, CAT-031
const EXPORT_EXAMPLES = { countryCode: "9450", countryName: "Estados Unidos", fiscalPrecinct: "02",
  regime: "EX-1.1000.000", incoterms: "01", incotermsDescription: "EXW - En fábrica" };

const cents = (value) => Math.round((value + Number.EPSILON) * 100) / 100;

// One line's amounts as the API computes them: quantity x price rounded to cents, less the
// discount; the tax rounded on the line.
function lineAmounts(values) {
  const quantity = Number(values.quantity) || 0;
  const price = Number(values.unitPrice) || 0;
  const subtotal = cents(cents(quantity * price) - cents(Number(values.discount) || 0));
  const tax = cents(subtotal * (Number(values.taxRate) || 0));
  return { subtotal, tax, total: cents(subtotal + tax) };
}

// A line's input with its label, in a .field so that showErrors() puts its error beside it.
function lineField(input, key) {
  const label = h("label", {}, t(key));
  return { label, element: h("div", { class: "field" }, label, input) };
}

const PRODUCTS = { path: "/products", field: "products", accept: (p) => p.isActive, label: (p) => `${p.code} · ${p.name}` };

const amountInput = (value) => h("input", { type: "number", step: "any", min: "0", value });

// Each line is a small inline form of its own (it wraps on narrow screens): product, description,
// quantity, price, discount, tax rate, the line's total and a button to remove it. `money` shows
// in the document's currency; `rate()` is the rate that will apply (typed or the date's), for the
// company-currency figure of a foreign document. Under the line, one compact select per active
// cost-centre dimension of the company (`dimensions`, pages/line-dimensions.js).
function linesEditor(country, { currency, rate, initial = [], dimensions = [] }) {
  const rows = [];
  const list = h("div", { class: "lines-list" });
  const totals = h("div", { class: "figures", id: "docform-totals" });
  const rates = TAX_RATES[country] || TAX_RATES.HN;
  const treatments = TREATMENTS[country] || TREATMENTS.HN;
  let exonerated = false;  // the document carries an exoneration: no line is taxed

  // A line's treatment and rate agree as the API wants them: a zero treatment takes rate 0 (the
  // select then locked), a taxed line a rate above 0 (rate 0 typed is an exempt line); under an
  // exoneration a taxed line is exonerated, as the API makes it, and taxed is not offered.
  const settle = (row, changed) => {
    const { taxTreatment: treatment, taxRate: rateSelect } = row.inputs;
    if (Number(rateSelect.value)) row.lastRate = rateSelect.value;
    if (changed === "taxRate" && treatment.value === TAXED && !Number(rateSelect.value)) treatment.value = "exempt";
    if (exonerated && treatment.value === TAXED) {
      treatment.value = "exonerated";
      row.byExoneration = true;
    }
    if (!exonerated && row.byExoneration && treatment.value === "exonerated") treatment.value = TAXED;
    if (!exonerated || treatment.value !== "exonerated") row.byExoneration = false;
    const zero = treatment.value !== TAXED;
    if (zero) rateSelect.value = "0";
    else if (!Number(rateSelect.value)) rateSelect.value = row.lastRate || rates[0];
    rateSelect.disabled = zero;
    for (const option of treatment.options) option.disabled = exonerated && option.value === TAXED;
  };

  const refreshTotals = () => {
    const sums = rows.reduce((acc, row) => {
      const amounts = lineAmounts(row.read());
      row.total.textContent = money(amounts.total, currency());
      return { subtotal: acc.subtotal + amounts.subtotal, tax: acc.tax + amounts.tax };
    }, { subtotal: 0, tax: 0 });
    const figure = (label, amount, id, code = currency()) => h("div", { class: "figure", id },
      h("span", { class: "figure-label" }, label), h("strong", {}, money(cents(amount), code)));
    const total = cents(sums.subtotal + sums.tax);
    const applied = isForeign(currency()) ? rate() : null;
    replace(totals, figure(t("docform.subtotal"), sums.subtotal, "docform-subtotal"),
      figure(t("docform.tax"), sums.tax, "docform-tax"),
      figure(t("docform.total"), total, "docform-total"),
      applied ? figure(t("docform.totalBase", { own: companyCurrency() }), total * applied, "docform-total-base",
        companyCurrency()) : null);
  };

  // Names, ids and data-field follow the line's position: lines[0].quantity, lines[1].quantity, ...
  const renumber = () => rows.forEach((row, index) => {
    row.title.textContent = t("docform.line", { n: index + 1 });
    row.product.rename(`lines[${index}].productId`, `f-lines-${index}-productId`);
    row.labels.productId.htmlFor = row.product.search.id;
    row.dims.name(`lines[${index}]`);
    for (const name of LINE_FIELDS.filter((field) => field !== "productId")) {
      const input = row.inputs[name];
      input.name = `lines[${index}].${name}`;
      input.id = `f-lines-${index}-${name}`;
      input.dataset.field = `lines[${index}].${name}`;
      row.labels[name].htmlFor = input.id;
    }
  });

  // `given`: a line's values to start from (a note's or duplicate's source line), as inputs hold them
  const add = (given) => {
    // a product is found by what is typed (GET /products?q=); choosing it fills the line
    const product = typeAhead({ source: PRODUCTS, name: "productId", id: "f-productId", value: given?.productId || undefined,
      placeholder: t("docform.productSearch"), onChoose: (chosen) => {
        inputs.description.value = chosen.name;
        inputs.unitPrice.value = String(chosen.unitPrice);
        inputs.taxRate.value = rates.find((rate) => Number(rate) === Number(chosen.taxRate)) || rates[0];
        // the product's rate says taxed or exempt; a treatment of the sale (export...) stays
        if (inputs.taxTreatment.value === "exempt" && Number(inputs.taxRate.value)) inputs.taxTreatment.value = TAXED;
        settle(row, "taxRate");
        refreshTotals();
      } });
    const inputs = {
      productId: product.input,
      description: h("input", { type: "text", maxlength: 300 }),
      quantity: amountInput("1"),
      unitPrice: amountInput("0"),
      discount: amountInput("0"),
      taxTreatment: h("select", {}, treatments.map((treatment) => h("option", { value: treatment },
        t(`treatment.${treatment}`)))),
      taxRate: h("select", {}, rates.map((rate) => h("option", { value: rate }, percent(rate)))),
    };
    const taxLabel = country === "SV" ? "docform.taxRate.SV" : "docform.taxRate";
    const fields = Object.fromEntries(LINE_FIELDS.map((name) => [name, name === "productId"
      ? lineField(product.element, "docform.productId") : lineField(inputs[name], name === "taxRate" ? taxLabel : `docform.${name}`)]));
    for (const name of LINE_FIELDS.filter((field) => given && field !== "productId")) inputs[name].value = given[name];
    inputs.taxTreatment.addEventListener("change", () => settle(row, "taxTreatment"));
    inputs.taxRate.addEventListener("change", () => settle(row, "taxRate"));
    const dims = dimensionPickers(dimensions, given?.dimensions);
    const row = { inputs, product, dims, labels: Object.fromEntries(LINE_FIELDS.map((name) => [name, fields[name].label])),
      total: h("strong", { class: "line-total" }), title: h("strong"), element: null,
      read: () => Object.fromEntries(LINE_FIELDS.map((name) => [name, inputs[name].value.trim()])) };
    const remove = button(t("docform.removeLine"), () => {
      if (rows.length === 1) return;
      rows.splice(rows.indexOf(row), 1);
      row.element.remove();
      renumber();
      refreshTotals();
    }, "danger remove-line");
    row.element = h("div", { class: "card line" },
      h("div", { class: "toolbar" }, row.title),
      h("div", { class: "form inline" }, LINE_FIELDS.map((name) => fields[name].element),
        h("div", { class: "field" }, h("span", { class: "help" }, t("docform.lineTotal")), row.total),
        h("div", { class: "field" }, remove)),
      dims.element);
    row.element.addEventListener("input", refreshTotals);
    row.element.addEventListener("change", refreshTotals);
    rows.push(row);
    list.append(row.element);
    settle(row);
    renumber();
    refreshTotals();
  };

  // The lines as the API reads them: numbers as numbers, empty optional fields left out.
  const value = () => rows.map((row, index) => {
    row.dims.name(`lines[${index}]`);
    const values = row.read();
    const line = {
      quantity: values.quantity === "" ? null : Number(values.quantity),
      unitPrice: values.unitPrice === "" ? null : Number(values.unitPrice),
      discount: values.discount === "" ? 0 : Number(values.discount),
      taxTreatment: values.taxTreatment,
      taxRate: values.taxTreatment === TAXED ? Number(values.taxRate) : 0,
    };
    if (values.productId) line.productId = Number(values.productId);
    if (values.description) line.description = values.description;
    const chosen = row.dims.value();
    if (chosen.length) line.dimensions = chosen;
    return line;
  });

  (initial.length ? initial : [undefined]).forEach(add);
  const element = h("section", { class: "lines" },
    h("h2", {}, t("docform.lines")), list,
    h("div", { class: "toolbar" }, button(t("docform.addLine"), () => add(), "add-line")),
    totals, h("p", { class: "help" }, t("docform.preview")));
  const exonerate = (on) => {
    if (on === exonerated) return;
    exonerated = on;
    rows.forEach((row) => settle(row));
    refreshTotals();
  };
  return { element, value, refresh: refreshTotals, exonerate };
}

// A group of optional fields the API takes as one object (`exoneration`, `export`): its inputs
// named prefix.field so that the API's refusals land beside them; value() is null when nothing
// is filled (or the group does not apply to the document's type), else the filled fields.
function fieldGroup(prefix, names, examples, onInput) {
  const inputs = names.map((name) => {
    const input = h("input", { type: "text", name: `${prefix}.${name}`, id: `f-${prefix}-${name}`,
      "data-field": `${prefix}.${name}`, placeholder: examples[name] });
    input.addEventListener("input", onInput);
    return { name, input, element: h("div", { class: "field" },
      h("label", { for: input.id }, t(`${prefix}.${name}`)), input) };
  });
  const element = h("section", { class: "card fiscal-group", id: `docform-${prefix}` },
    h("h2", {}, t(`${prefix}.title`)), h("p", { class: "help" }, t(`${prefix}.help`)),
    h("div", { class: "form inline" }, inputs.map((field) => field.element)));
  const value = () => {
    if (element.hidden) return null;
    const filled = inputs.filter((field) => field.input.value.trim() !== "");
    return filled.length ? Object.fromEntries(filled.map((field) => [field.name, field.input.value.trim()])) : null;
  };
  return { element, value };
}

// The exchange rate field of a foreign-currency document: shown only then, with a line that tells
// which recorded rate an empty field means (GET /exchange-rates up to the document date) or that
// there is none; the preview's company-currency total follows the rate that will apply.
function rateControls(form, onRate) {
  const own = companyCurrency();
  const currencyInput = form.querySelector("#f-currency");
  const dateInput = form.querySelector("#f-date");
  const rateInput = form.querySelector("#f-exchangeRate");
  const field = rateInput.closest(".field");
  const label = field.querySelector("label");
  const hint = h("small", { class: "help", id: "docform-rate-hint" });
  field.append(hint);
  let recorded = null;  // the date's recorded rate, when there is one
  let ticket = 0;
  const typed = () => (rateInput.value.trim() !== "" && Number(rateInput.value) > 0 ? Number(rateInput.value) : null);
  const update = async () => {
    const code = currencyInput.value;
    const foreign = isForeign(code);
    field.hidden = !foreign;
    label.textContent = t("docform.exchangeRate", { own, currency: foreign ? code : t("docform.unit") });
    // an earlier refusal of the rate spoke of the previous currency or date
    field.querySelectorAll(".field-error").forEach((node) => node.remove());
    rateInput.removeAttribute("aria-invalid");
    const mine = ++ticket;
    recorded = null;
    replace(hint);
    delete hint.dataset.rate;  // the hint says no rate until this date's answer arrives
    onRate();
    if (!foreign) return;
    const day = dateInput.value || today();
    try {
      const answer = await api.get("/exchange-rates", { currency: code, endDate: day });
      if (mine !== ticket) return;
      const found = answer.exchangeRates[0];
      recorded = found ? Number(found.rate) : null;
      replace(hint, found
        ? t("docform.rateOfDate", { date: date(found.date), currency: code, rate: exchangeRate(found.rate), own })
        : [t("docform.noRate", { currency: code, date: date(day) }),
          h("a", { href: "#/accounting/exchange-rates" }, t("docform.ratesPage")), "."]);
      hint.dataset.rate = found ? String(found.rate) : "";
    } catch { /* the hint is a help: without it the API still says what is missing */ }
    onRate();
  };
  currencyInput.addEventListener("change", update);
  dateInput.addEventListener("change", update);
  rateInput.addEventListener("input", onRate);
  update();
  return { rate: () => typed() ?? recorded };
}

// El Salvador: the DTE a sales invoice is issued as, the seller's choice (`dteType`): a factura (01)
// or a comprobante de crédito fiscal (03). It follows the customer until the user picks one (a
// customer with an NRC: 03), so the choice is always seen, never made silently.
const DTE_TYPES = ["01", "03"];
function dteTypeChoice() {
  const select = h("select", { name: "dteType", id: "f-dteType", "data-field": "dteType" },
    DTE_TYPES.map((code) => h("option", { value: code }, `${code} · ${t(`dte.tipo.${code}`)}`)));
  let picked = false;
  select.addEventListener("change", () => { picked = true; });
  const element = h("section", { class: "card fiscal-group", id: "docform-dteType" },
    h("div", { class: "field" }, h("label", { for: select.id }, t("docform.dteType")), select,
      h("small", { class: "help" }, t("docform.dteType.help"))));
  const follow = (partner) => { if (!picked) select.value = partner.nrc ? "03" : "01"; };
  // a form opened for a customer (?businessPartnerId=) follows it once it is read
  const followId = async (partnerId) => {
    try {
      follow(await api.get(`/business-partners/${partnerId}`));
    } catch { /* the default stays; the API still decides and refuses what does not fit */ }
  };
  return { element, follow, followId, value: () => (element.hidden ? null : select.value) };
}

export async function render(ctx) {
  const [conditions, start, dimensions] = await Promise.all([listAll("/payment-conditions", "paymentConditions"),
    startingPoint(ctx.query), loadDimensions()]);
  const own = companyCurrency();
  const country = ctx.session.company?.country || "HN";
  let controls = null;
  let form = null;
  const lines = linesEditor(country, {
    currency: () => (form ? form.querySelector("#f-currency").value : own),
    rate: () => (controls ? controls.rate() : null),
    initial: start?.lines,
    dimensions,
  });
  // the exoneration makes the lines exonerated as soon as a register is typed (the preview's ISV 0)
  const exoneration = fieldGroup("exoneration", EXONERATION_FIELDS, {},
    () => lines.exonerate(exoneration.value() !== null));
  const exportTerms = fieldGroup("export", EXPORT_FIELDS, EXPORT_EXAMPLES, () => {});
  const dteType = dteTypeChoice();
  form = formView({
    fields: [
      { name: "type", label: t("docform.type"), type: "select", required: true,
        options: DOCUMENT_TYPES.map((code) => ({ value: code, label: t(`doctype.${code}`) })) },
      { name: "businessPartnerId", label: t("docform.partner"), type: "lookup", onChoose: dteType.follow,
        source: { path: "/business-partners", field: "businessPartners", accept: (p) => p.isActive,
                  label: (p) => (p.taxId ? `${p.name} (${p.taxId})` : p.name) } },
      { name: "date", label: t("docform.date"), type: "date" },
      { name: "currency", label: t("docform.currency"), type: "select", required: true,
        options: CURRENCIES.map((code) => ({ value: code, label: t(`currency.${code}`) })) },
      { name: "exchangeRate", label: t("docform.exchangeRate", { own, currency: t("docform.unit") }), type: "number",
        step: "any", min: "0",
        placeholder: t("docform.exchangeRatePlaceholder") },
      { name: "dueDate", label: t("docform.dueDate"), type: "date" },
      { name: "paymentConditionId", label: t("docform.condition"), type: "select", numeric: true,
        options: conditions.filter((c) => c.isActive).map((c) => ({ value: c.id, label: c.name })) },
      { name: "reference", label: t("docform.reference") },
      { name: "notes", label: t("docform.notes"), type: "textarea" },
      { name: "draft", label: t("docform.draft"), type: "checkbox", value: false },
    ],
    values: { type: ctx.query.type || "01", date: today(), businessPartnerId: ctx.query.businessPartnerId, currency: own,
      ...start },
    extra: h("div", { class: "document-extra" }, dteType.element, exoneration.element, exportTerms.element,
      lines.element),
    submitLabel: t("docform.submit"),
    onSubmit: async (data) => {
      const { draft, ...body } = data;
      if (draft) body.status = "draft";
      if (!isForeign(body.currency)) delete body.exchangeRate;  // the company's own currency: always 1
      if (exoneration.value()) body.exoneration = exoneration.value();
      if (exportTerms.value()) body.export = exportTerms.value();
      else if (dteType.value()) body.dteType = dteType.value();  // an export is a DTE 11 of its own
      if (source.value() !== undefined) body.sourceDocumentId = source.value();
      const created = await api.post("/documents", { ...body, lines: lines.value() });
      (created.warnings || []).forEach((warning) => toast(warning, "error"));
      toast(t("docform.created"));
      ctx.navigate(`/documents/${created.id}`);
    },
  });
  form.id = "document-form";
  const source = sourceField(form, { value: start?.sourceDocumentId });
  controls = rateControls(form, lines.refresh);
  // each group shows for the types (and country) that carry it
  const typeInput = form.querySelector("#f-type");
  const followType = () => {
    exoneration.element.hidden = country !== "HN" || !EXONERATION_TYPES.includes(typeInput.value);
    exportTerms.element.hidden = country !== "SV" || !EXPORT_TYPES.includes(typeInput.value);
    dteType.element.hidden = exportTerms.element.hidden;
    lines.exonerate(exoneration.value() !== null);
  };
  typeInput.addEventListener("change", followType);
  followType();
  const partnerId = ctx.query.businessPartnerId || start?.businessPartnerId;
  if (country === "SV" && partnerId) dteType.followId(partnerId);
  const title = start ? t(start.copy ? "docform.title.copy" : `docform.title.${start.type}`, { name: documentName(start.origin) })
    : t("docform.title");
  append(ctx.root, [pageHeader(title), section(null, form)]);
}
