// Journal entries: the filtered list with a manual-entry form (lines with their own field
// errors), and one entry with its lines, post / reverse and its printed PDF.
import { api, listAll } from "../api.js";
import { h, replace } from "../dom.js";
import { date, dateTime, documentTitle, money, today } from "../format.js";
import { t } from "../i18n.js";
import {
  act, badge, button, definitionList, errorBox, formDialog, formView, openDialog, pageHeader, pagerView,
  section, showErrors, tableView, toast, withQuery,
} from "../ui.js";
import { attachmentsPanel } from "./attachments.js";
import { dimensionPickers, dimensionsColumn, loadDimensions } from "./line-dimensions.js";

const STATUSES = ["draft", "posted", "reversed"];
const TYPES = ["automatic", "manual", "reversal"];
const LIMIT = 50;
const accountLabel = (a) => (a ? `${a.code} · ${a.name}` : "");
const entryLink = (id) => h("a", { href: `#/accounting/entries/${id}` }, `#${id}`);

export async function list(ctx) {
  const page = Math.max(1, Number(ctx.query.page) || 1);
  const filters = { startDate: ctx.query.startDate, endDate: ctx.query.endDate, status: ctx.query.status,
                    entryType: ctx.query.entryType };
  const answer = await api.get("/journal-entries", { ...filters, page, limit: LIMIT });
  const go = (query) => ctx.navigate(withQuery("/accounting/entries", query));
  const filterForm = formView({ className: "inline", submitLabel: t("je.filter"), values: filters, fields: [
    { name: "startDate", label: t("je.startDate"), type: "date" },
    { name: "endDate", label: t("je.endDate"), type: "date" },
    { name: "status", label: t("je.status"), type: "select", options: STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) })) },
    { name: "entryType", label: t("je.entryType"), type: "select", options: TYPES.map((s) => ({ value: s, label: t(`je.type.${s}`) })) },
  ], onSubmit: async (data) => go(data) });
  filterForm.querySelectorAll("select option[value='']").forEach((option) => { option.textContent = t("common.all"); });
  const create = async () => entryDialog(await listAll("/chart-of-accounts", "accounts", { isActive: true }),
    await loadDimensions(), (created) => { toast(t("je.created", { id: created.id })); ctx.navigate(`/accounting/entries/${created.id}`); });
  ctx.root.append(pageHeader(t("je.title"), button(t("je.new"), create, "primary")), section(null, filterForm),
    tableView({ rows: answer.journalEntries, onRowClick: (e) => ctx.navigate(`/accounting/entries/${e.id}`), columns: [
      { label: t("je.number"), value: (e) => entryLink(e.id) },
      { label: t("je.date"), value: (e) => date(e.date) },
      { label: t("je.description"), value: (e) => e.description || "" },
      { label: t("je.reference"), value: (e) => e.reference || "" },
      { label: t("je.entryType"), value: (e) => t(`je.type.${e.entryType}`) },
      { label: t("je.status"), value: (e) => badge(e.status) },
      { label: t("je.totalDebit"), class: "num", value: (e) => money(e.totalDebit) },
    ] }),
    pagerView({ page, limit: LIMIT, total: answer.total, onPage: (next) => go({ ...filters, page: next }) }));
}

// --- the manual entry form ------------------------------------------------------------------------

let uid = 0;
function field(name, label, input) {
  input.id = `f-${name}-${++uid}`;
  input.setAttribute("data-field", name);
  if (!input.name) input.name = name;
  return h("div", { class: "field" }, h("label", { for: input.id }, label), input);
}

// Each line: account, debit, credit, description and, under them, one select per active cost-centre
// dimension (pages/line-dimensions.js).
function entryDialog(accounts, dimensions, done) {
  const pickers = new Map();  // a line's element -> its dimension pickers
  const options = [h("option", { value: "" }, t("common.none")),
    ...accounts.map((a) => h("option", { value: a.id }, accountLabel(a)))];
  const lines = h("div", { class: "field", "data-field": "lines" });
  const totals = h("p", { class: "help", id: "entry-totals" });
  const amount = (name) => h("input", { type: "number", step: "0.01", min: "0", "data-name": name, placeholder: "0.00" });
  const renumber = () => {
    [...lines.querySelectorAll(".entry-line")].forEach((row, index) => {
      row.setAttribute("data-field", `lines[${index}]`);
      replace(row.querySelector(".line-number"), t("je.lineNumber", { n: index + 1 }));
      row.querySelectorAll("[data-name]").forEach((input) => input.setAttribute("data-field", `lines[${index}].${input.dataset.name}`));
      pickers.get(row).name(`lines[${index}]`);
    });
    let debit = 0; let credit = 0;
    lines.querySelectorAll("[data-name=debit]").forEach((input) => { debit += Number(input.value) || 0; });
    lines.querySelectorAll("[data-name=credit]").forEach((input) => { credit += Number(input.value) || 0; });
    replace(totals, `${t("je.totalDebit")}: ${money(debit)} · ${t("je.totalCredit")}: ${money(credit)} · `
      + `${t("je.difference")}: ${money(Math.round((debit - credit) * 100) / 100)}`);
  };
  const addLine = () => {
    const inputs = [h("select", { "data-name": "chartOfAccountId" }, options.map((o) => o.cloneNode(true))),
      amount("debit"), amount("credit"), h("input", { type: "text", "data-name": "lineDescription" })];
    const labels = [t("je.account"), t("je.debit"), t("je.credit"), t("je.lineDescription")];
    const dims = dimensionPickers(dimensions);
    const row = h("div", { class: "field entry-line card" }, h("strong", { class: "line-number" }), h("div", { class: "form inline" },
      inputs.map((input, i) => field(`line-${input.dataset.name}`, labels[i], input)),
      h("div", { class: "field" }, button(t("je.removeLine"), () => { row.remove(); pickers.delete(row); renumber(); }, "danger"))),
      dims.element);
    pickers.set(row, dims);
    row.querySelectorAll("[data-name]").forEach((input) => input.removeAttribute("name"));
    lines.append(row);
    renumber();
  };
  const status = h("select", {}, h("option", { value: "draft" }, t("je.statusDraft")),
    h("option", { value: "posted" }, t("je.statusPosted")));
  const submit = h("button", { type: "submit", class: "primary" }, t("je.saveDraft"));
  const form = h("form", { class: "form entry-form", novalidate: true },
    h("div", { class: "form inline" }, field("date", t("je.date"), h("input", { type: "date", value: today() })),
      field("reference", t("je.reference"), h("input", { type: "text" })), field("status", t("je.status"), status)),
    field("description", t("je.description"), h("textarea", { rows: 2 })),
    h("h3", {}, t("je.lines")), lines, totals,
    h("div", {}, button(t("je.addLine"), addLine)),
    h("div", { class: "form-error" }), h("div", { class: "form-actions" }, submit));
  form.addEventListener("input", renumber);
  addLine(); addLine();
  const { close } = openDialog(t("je.new"), form);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const value = (name) => form.elements.namedItem(name).value.trim() || undefined;
    const body = { date: value("date"), description: value("description"), reference: value("reference"),
      status: status.value, lines: [...lines.querySelectorAll(".entry-line")].map((row, index) => {
        const read = (name) => row.querySelector(`[data-name=${name}]`).value.trim();
        const dims = pickers.get(row);
        dims.name(`lines[${index}]`);
        const chosen = dims.value();
        return { chartOfAccountId: read("chartOfAccountId") ? Number(read("chartOfAccountId")) : undefined,
          debit: read("debit") ? Number(read("debit")) : 0, credit: read("credit") ? Number(read("credit")) : 0,
          lineDescription: read("lineDescription") || undefined, dimensions: chosen.length ? chosen : undefined };
      }) };
    submit.disabled = true;
    try {
      const created = await api.post("/journal-entries", body);
      close();
      done(created);
    } catch (error) {
      showErrors(form, error);
    } finally { submit.disabled = false; }
  });
  return form;
}

// --- one entry ----------------------------------------------------------------------------------

export async function detail(ctx) {
  const id = ctx.params.id;
  const [entry, accounts, dimensions] = await Promise.all([api.get(`/journal-entries/${id}`),
    listAll("/chart-of-accounts", "accounts"), loadDimensions()]);
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const printArea = h("div", { id: "print-area" });
  const print = async () => {
    replace(printArea, h("p", { class: "loading" }, t("common.loading")));
    try {
      const blob = await api.blob("POST", `/journal-entries/${id}/print`, {}, "application/pdf");
      const url = URL.createObjectURL(blob);
      replace(printArea, section(t("je.pdf"), h("p", {}, h("a", { href: url, download: `partida-${id}.pdf`, id: "pdf-download" }, t("je.download"))),
        h("iframe", { class: "pdf-preview", src: url, title: t("je.pdf") })));
    } catch (error) { replace(printArea, errorBox(error)); }
  };
  const reverse = () => formDialog(t("je.reverse"), {
    fields: [{ name: "date", label: t("je.date"), type: "date", help: t("je.reverseHelp") },
             { name: "description", label: t("je.description"), type: "textarea" }],
    submitLabel: t("je.reverse"),
    onSubmit: (data) => api.post(`/journal-entries/${id}/reverse`, data),
  }, (reversal) => { toast(t("je.reversed")); ctx.navigate(`/accounting/entries/${reversal.id}`); });
  const actions = [
    entry.status === "draft" ? button(t("je.post"), () => act(t("je.postConfirm", { id }),
      () => api.post(`/journal-entries/${id}/post`), ctx.refresh, t("je.posted")), "primary") : null,
    entry.status === "posted" && !entry.reversedBy && entry.entryType !== "reversal" ? button(t("je.reverse"), reverse, "danger") : null,
    button(t("je.print"), print),
  ].filter(Boolean);
  const source = entry.source;
  // the document behind the entry, named by its number
  const sourceDocument = source?.type === "document" ? await api.get(`/documents/${source.id}`).catch(() => null) : null;
  const lines = tableView({ rows: entry.lines, columns: [
    { label: t("je.account"), value: (l) => h("a", { href: `#/accounting/ledger?chartOfAccountId=${l.chartOfAccountId}` },
      byId.get(l.chartOfAccountId)?.code || `#${l.chartOfAccountId}`) },
    { label: t("je.accountName"), value: (l) => byId.get(l.chartOfAccountId)?.name || "" },
    { label: t("je.lineDescription"), value: (l) => l.lineDescription || "" },
    { label: t("je.debit"), class: "num", value: (l) => (Number(l.debit) ? money(l.debit) : "") },
    { label: t("je.credit"), class: "num", value: (l) => (Number(l.credit) ? money(l.credit) : "") },
    dimensionsColumn(dimensions, entry.lines),
  ].filter(Boolean) });
  const tagged = entry.lines.some((l) => l.dimensions && l.dimensions.length);
  if (lines.tagName === "TABLE") {
    lines.append(h("tfoot", {}, h("tr", {}, h("td", {}, t("common.total")), h("td", {}), h("td", {}),
      h("td", { class: "num" }, money(entry.totalDebit)), h("td", { class: "num" }, money(entry.totalCredit)), tagged ? h("td", {}) : null)));
  }
  // the receipt behind a manual entry: deleted only while the entry is a draft
  const attachments = attachmentsPanel({ recordType: "journalEntry", recordId: entry.id, editable: entry.status === "draft" });
  ctx.root.append(pageHeader(t("je.entry", { id }), ...actions),
    section(null, definitionList([
      [t("je.date"), date(entry.date)],
      [t("je.status"), badge(entry.status)],
      [t("je.entryType"), t(`je.type.${entry.entryType}`)],
      entry.description ? [t("je.description"), entry.description] : null,
      entry.reference ? [t("je.reference"), entry.reference] : null,
      source ? [t("je.source"), source.type === "document"
        ? h("a", { href: `#/documents/${source.id}`, id: "je-source-document" }, sourceDocument
          ? documentTitle(sourceDocument) : t("je.source.document", { id: source.id }))
        : source.type === "inventory_adjustment"
          ? h("a", { href: `#/inventory/adjustments/${source.id}` }, t("je.source.adjustment", { id: source.id }))
          : source.type === "year_close"
            ? h("a", { href: "#/accounting/periods" }, t("je.source.yearClose", { id: source.id }))
            : `${source.type} #${source.id}`] : null,
      entry.reversalOf ? [t("je.reversalOf"), entryLink(entry.reversalOf)] : null,
      entry.reversedBy ? [t("je.reversedBy"), entryLink(entry.reversedBy)] : null,
      entry.postedAt ? [t("je.postedAt"), dateTime(entry.postedAt)] : null,
    ])),
    section(t("je.lines"), lines), attachments.element, printArea,
    h("p", {}, h("a", { href: "#/accounting/entries" }, t("common.back"))));
  await attachments.refresh();
}
