// A new document: header fields, lines that can be added and removed (a product, found by typing
// its code or name through GET /products?q=, fills the description, price and tax rate), a live preview of the totals (display only: the API
// computes the real ones) and the API's refusals beside each field, lines[i].field included.
// A document in a currency other than the company's may name its exchange rate; left empty, the
// API takes the company's rate for the document date (the form says which, or that there is none).
import { api, listAll } from "../api.js";
import { append, h, replace } from "../dom.js";
import { companyCurrency, date, exchangeRate, isForeign, money, percent, today } from "../format.js";
import { CURRENCIES, DOCUMENT_TYPES, t } from "../i18n.js";
import { button, formView, pageHeader, section, toast, typeAhead } from "../ui.js";

// the rates a line may take in the company's country (Honduras' ISV, El Salvador's IVA), the usual one first
const TAX_RATES = { HN: ["0.15", "0", "0.18"], SV: ["0.13", "0"] };
const LINE_FIELDS = ["productId", "description", "quantity", "unitPrice", "discount", "taxRate"];

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
// company-currency figure of a foreign document.
function linesEditor(country, { currency, rate }) {
  const rows = [];
  const list = h("div", { class: "lines-list" });
  const totals = h("div", { class: "figures", id: "docform-totals" });
  const rates = TAX_RATES[country] || TAX_RATES.HN;

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
    for (const name of LINE_FIELDS.filter((field) => field !== "productId")) {
      const input = row.inputs[name];
      input.name = `lines[${index}].${name}`;
      input.id = `f-lines-${index}-${name}`;
      input.dataset.field = `lines[${index}].${name}`;
      row.labels[name].htmlFor = input.id;
    }
  });

  const add = () => {
    // a product is found by what is typed (GET /products?q=); choosing it fills the line
    const product = typeAhead({ source: PRODUCTS, name: "productId", id: "f-productId",
      placeholder: t("docform.productSearch"), onChoose: (chosen) => {
        inputs.description.value = chosen.name;
        inputs.unitPrice.value = String(chosen.unitPrice);
        inputs.taxRate.value = rates.find((rate) => Number(rate) === Number(chosen.taxRate)) || rates[0];
        refreshTotals();
      } });
    const inputs = {
      productId: product.input,
      description: h("input", { type: "text", maxlength: 300 }),
      quantity: amountInput("1"),
      unitPrice: amountInput("0"),
      discount: amountInput("0"),
      taxRate: h("select", {}, rates.map((rate) => h("option", { value: rate }, percent(rate)))),
    };
    const taxLabel = country === "SV" ? "docform.taxRate.SV" : "docform.taxRate";
    const fields = Object.fromEntries(LINE_FIELDS.map((name) => [name, name === "productId"
      ? lineField(product.element, "docform.productId") : lineField(inputs[name], name === "taxRate" ? taxLabel : `docform.${name}`)]));
    const row = { inputs, product, labels: Object.fromEntries(LINE_FIELDS.map((name) => [name, fields[name].label])),
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
        h("div", { class: "field" }, remove)));
    row.element.addEventListener("input", refreshTotals);
    row.element.addEventListener("change", refreshTotals);
    rows.push(row);
    list.append(row.element);
    renumber();
    refreshTotals();
  };

  // The lines as the API reads them: numbers as numbers, empty optional fields left out.
  const value = () => rows.map((row) => {
    const values = row.read();
    const line = {
      quantity: values.quantity === "" ? null : Number(values.quantity),
      unitPrice: values.unitPrice === "" ? null : Number(values.unitPrice),
      discount: values.discount === "" ? 0 : Number(values.discount),
      taxRate: Number(values.taxRate),
    };
    if (values.productId) line.productId = Number(values.productId);
    if (values.description) line.description = values.description;
    return line;
  });

  add();
  const element = h("section", { class: "lines" },
    h("h2", {}, t("docform.lines")), list,
    h("div", { class: "toolbar" }, button(t("docform.addLine"), add, "add-line")),
    totals, h("p", { class: "help" }, t("docform.preview")));
  return { element, value, refresh: refreshTotals };
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

export async function render(ctx) {
  const conditions = await listAll("/payment-conditions", "paymentConditions");
  const own = companyCurrency();
  let controls = null;
  let form = null;
  const lines = linesEditor(ctx.session.company?.country, {
    currency: () => (form ? form.querySelector("#f-currency").value : own),
    rate: () => (controls ? controls.rate() : null),
  });
  form = formView({
    fields: [
      { name: "type", label: t("docform.type"), type: "select", required: true,
        options: DOCUMENT_TYPES.map((code) => ({ value: code, label: t(`doctype.${code}`) })) },
      { name: "businessPartnerId", label: t("docform.partner"), type: "lookup",
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
    values: { type: ctx.query.type || "01", date: today(), businessPartnerId: ctx.query.businessPartnerId, currency: own },
    extra: lines.element,
    submitLabel: t("docform.submit"),
    onSubmit: async (data) => {
      const { draft, ...body } = data;
      if (draft) body.status = "draft";
      if (!isForeign(body.currency)) delete body.exchangeRate;  // the company's own currency: always 1
      const created = await api.post("/documents", { ...body, lines: lines.value() });
      (created.warnings || []).forEach((warning) => toast(warning, "error"));
      toast(t("docform.created"));
      ctx.navigate(`/documents/${created.id}`);
    },
  });
  form.id = "document-form";
  controls = rateControls(form, lines.refresh);
  append(ctx.root, [pageHeader(t("docform.title")), section(null, form)]);
}
