// Settings, scheduled invoices: recurring sales invoices (customer, lines, frequency) with their
// next run, the last invoice made and the last failed run. The customer and each line's product are
// found by typing (GET /business-partners?q=, GET /products?q=), not chosen from every record.
import { api, listAll } from "../api.js";
import { h, replace } from "../dom.js";
import { date, dateTime, linkedDocumentName, money, percent, today } from "../format.js";
import { t } from "../i18n.js";
import { badge, button, loadInto, openDialog, pageHeader, pagerView, section, showErrors, tableView, toast, typeAhead } from "../ui.js";

const FREQUENCIES = ["daily", "weekly", "monthly"];
const RATES = ["0", "0.15", "0.18"];
const LIMIT = 20;
let uid = 0;

function field(name, label, input, help) {
  input.id = `f-${name}-${++uid}`;
  input.setAttribute("data-field", name);
  return h("div", { class: "field" }, h("label", { for: input.id }, label), input, help ? h("small", { class: "help" }, help) : null);
}
// a type-ahead in a .field, its label on the search input
function lookupField(name, label, picker) {
  return h("div", { class: "field" }, h("label", { for: picker.search.id }, label), picker.element);
}
const CUSTOMERS = { path: "/business-partners", field: "businessPartners", accept: (p) => p.type !== "supplier",
                    label: (p) => (p.taxId ? `${p.name} (${p.taxId})` : p.name) };
const PRODUCTS = { path: "/products", field: "products", accept: (p) => p.isActive, label: (p) => `${p.code} · ${p.name}` };

const select = (options, current, empty) => h("select", {},
  empty ? h("option", { value: "" }, empty) : null,
  options.map(([value, label]) => h("option", { value, selected: String(value) === String(current ?? "") || undefined }, label)));

function scheduleDialog(refs, current, done) {
  const values = current || { frequency: "monthly", interval: 1, startDate: today(), isActive: true, lines: [{ quantity: 1 }] };
  const partner = typeAhead({ source: CUSTOMERS, name: "businessPartnerId", id: `f-businessPartnerId-${++uid}`,
                              value: values.businessPartnerId });
  const inputs = {
    businessPartnerId: partner.input,
    paymentConditionId: select(refs.conditions.map((c) => [c.id, c.name]), values.paymentConditionId, t("common.none")),
    frequency: select(FREQUENCIES.map((f) => [f, t(`sched.freq.${f}`)]), values.frequency),
    interval: h("input", { type: "number", step: "1", min: "1", value: values.interval }),
    startDate: h("input", { type: "date", value: values.startDate }),
    endDate: h("input", { type: "date", value: values.endDate || "" }),
  };
  const isActive = h("input", { type: "checkbox", id: `f-isActive-${++uid}`, "data-field": "isActive", checked: values.isActive });
  const lines = h("div", { class: "field", "data-field": "lines" });
  const renumber = () => [...lines.querySelectorAll(".schedule-line")].forEach((row, index) => {
    replace(row.querySelector(".line-number"), t("sched.line", { n: index + 1 }));
    row.setAttribute("data-field", `lines[${index}]`);
    row.querySelectorAll("[data-name]").forEach((input) => input.setAttribute("data-field", `lines[${index}].${input.dataset.name}`));
  });
  const addLine = (line = {}) => {
    // a product fills the description and price when they are empty
    const product = typeAhead({ source: PRODUCTS, name: "productId", id: `f-line-productId-${++uid}`, value: line.productId,
      onChoose: (chosen) => {
        const description = row.querySelector("[data-name=description]");
        const price = row.querySelector("[data-name=unitPrice]");
        if (!description.value) description.value = chosen.name;
        if (!price.value) price.value = chosen.unitPrice;
      } });
    product.input.dataset.name = "productId";
    const cells = [
      ["description", t("sched.description"), h("input", { type: "text", value: line.description || "" })],
      ["quantity", t("sched.quantity"), h("input", { type: "number", step: "0.0001", min: "0", value: line.quantity ?? "" })],
      ["unitPrice", t("sched.unitPrice"), h("input", { type: "number", step: "0.01", min: "0", value: line.unitPrice ?? "" })],
      ["taxRate", t("sched.taxRate"), select(RATES.map((r) => [r, percent(r)]),
        line.taxRate === null || line.taxRate === undefined ? "" : Number(line.taxRate), t("sched.productRate"))],
    ];
    const row = h("div", { class: "field schedule-line card" }, h("strong", { class: "line-number" }), h("div", { class: "form inline" },
      lookupField("line-productId", t("sched.product"), product),
      cells.map(([name, label, input]) => { input.dataset.name = name; return field(`line-${name}`, label, input); }),
      h("div", { class: "field" }, button(t("sched.removeLine"), () => { row.remove(); renumber(); }, "danger"))));
    lines.append(row);
    renumber();
  };
  (values.lines || []).forEach(addLine);
  const submit = h("button", { type: "submit", class: "primary" }, t("common.save"));
  const form = h("form", { class: "form", novalidate: true },
    lookupField("businessPartnerId", t("sched.partner"), partner),
    h("div", { class: "form inline" },
      field("frequency", t("sched.frequency"), inputs.frequency),
      field("interval", t("sched.interval"), inputs.interval),
      field("paymentConditionId", t("sched.condition"), inputs.paymentConditionId)),
    h("div", { class: "form inline" }, field("startDate", t("sched.startDate"), inputs.startDate),
      field("endDate", t("sched.endDate"), inputs.endDate)),
    h("div", { class: "field field-check" }, isActive, h("label", { for: isActive.id }, t("sched.isActive"))),
    h("h3", {}, t("sched.lines")), lines, h("div", {}, button(t("sched.addLine"), () => addLine({ quantity: 1 }))),
    h("div", { class: "form-error" }), h("div", { class: "form-actions" }, submit));
  const { close } = openDialog(current ? t("sched.edit") : t("sched.new"), form);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const raw = (input) => input.value.trim();
    const id = (input) => (raw(input) ? Number(raw(input)) : null);
    const body = {
      businessPartnerId: id(inputs.businessPartnerId) ?? undefined, paymentConditionId: id(inputs.paymentConditionId),
      frequency: inputs.frequency.value, interval: raw(inputs.interval) ? Number(raw(inputs.interval)) : undefined,
      startDate: raw(inputs.startDate) || undefined, endDate: raw(inputs.endDate) || null, isActive: isActive.checked,
      lines: [...lines.querySelectorAll(".schedule-line")].map((row) => {
        const cell = (name) => raw(row.querySelector(`[data-name=${name}]`));
        return { productId: cell("productId") ? Number(cell("productId")) : undefined, description: cell("description") || undefined,
          quantity: cell("quantity") ? Number(cell("quantity")) : undefined,
          unitPrice: cell("unitPrice") ? Number(cell("unitPrice")) : undefined,
          taxRate: cell("taxRate") ? Number(cell("taxRate")) : undefined };
      }),
    };
    submit.disabled = true;
    try {
      if (current) await api.put(`/scheduled-invoices/${current.id}`, body, { headers: { "If-Match": String(current.version) } });
      else await api.post("/scheduled-invoices", body);
      close();
      toast(t("sched.saved"));
      await done();
    } catch (error) { showErrors(form, error); } finally { submit.disabled = false; }
  });
}

export async function render(ctx) {
  const conditions = await listAll("/payment-conditions", "paymentConditions");
  const refs = { conditions: conditions.filter((c) => c.isActive) };
  const partnerName = new Map();  // the names of the customers a page shows, read as they appear
  let page = 1;
  const body = h("div", {});
  const refresh = () => loadInto(body, async () => {
    const answer = await api.get("/scheduled-invoices", { page, limit: LIMIT });
    const missing = [...new Set(answer.scheduledInvoices.map((s) => s.businessPartnerId))].filter((id) => !partnerName.has(id));
    (await Promise.all(missing.map((id) => api.get(`/business-partners/${id}`).catch(() => null))))
      .filter(Boolean).forEach((p) => partnerName.set(p.id, p.name));
    return [tableView({ rows: answer.scheduledInvoices, columns: [
      { label: t("sched.partner"), value: (s) => h("a", { href: `#/partners/${s.businessPartnerId}` },
        partnerName.get(s.businessPartnerId) || `#${s.businessPartnerId}`) },
      { label: t("sched.frequency"), value: (s) => (s.interval === 1 ? t(`sched.freq.${s.frequency}`)
        : t(`sched.every.${s.frequency}`, { n: s.interval })) },
      { label: t("sched.total"), class: "num", value: (s) => money(s.lines.reduce((sum, l) => sum + Number(l.quantity) * Number(l.unitPrice), 0)) },
      { label: t("sched.startDate"), value: (s) => [date(s.startDate), s.endDate ? ` – ${date(s.endDate)}` : ""] },
      { label: t("sched.nextRunDate"), value: (s) => date(s.nextRunDate) },
      { label: t("sched.lastDocument"), value: (s) => (s.lastDocumentId
        ? h("a", { href: `#/documents/${s.lastDocumentId}`, class: "doc-number" },
          linkedDocumentName(s.lastDocumentId, s.lastDocumentNumber, s.lastDocumentNumeroControl)) : t("common.none")) },
      { label: t("sched.lastError"), value: (s) => (s.lastError
        ? h("span", { class: "field-error", title: `${dateTime(s.lastError.at)} · ${s.lastError.code}` }, s.lastError.message) : "") },
      { label: t("common.status"), value: (s) => badge(s.isActive ? "active" : "inactive") },
      { label: t("common.actions"), class: "actions", value: (s) => button(t("common.edit"), () => scheduleDialog(refs, s, refresh)) },
    ] }), pagerView({ page, limit: LIMIT, total: answer.total, onPage: (next) => { page = next; refresh(); } })];
  });
  ctx.root.append(pageHeader(t("sched.title"), button(t("sched.new"), () => scheduleDialog(refs, null, refresh), "primary")),
    h("p", { class: "help" }, t("sched.intro")), section(null, body));
  await refresh();
}
