// Documents: the list with its filters (a search by number or partner, type, status, dates,
// partner) kept in the hash query so a reload keeps them, one page of 20 at a time, each row
// opening the document.
import { api } from "../api.js";
import { append, h } from "../dom.js";
import { date, documentName, documentTypeName, money } from "../format.js";
import { DOCUMENT_TYPES, t } from "../i18n.js";
import { PAYMENT_STATUSES, statusBadges } from "../payment-status.js";
import { button, formView, pageHeader, pagerView, section, tableView } from "../ui.js";

const LIMIT = 20;
const FILTERS = ["q", "type", "status", "paymentStatus", "startDate", "endDate", "businessPartnerId"];
const STATUSES = ["draft", "confirmed", "cancelled"];

// "/documents?type=01&page=2": the list's address with only the filters that have a value.
function listPath(query) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== "") search.set(name, value);
  }
  const text = search.toString();
  return text ? `/documents?${text}` : "/documents";
}

// Partner names for the ids of a page: one list call, then one GET for each still missing.
export async function partnerNames(ids) {
  const first = await api.get("/business-partners", { limit: 100 });
  const names = new Map(first.businessPartners.map((p) => [p.id, p.name]));
  const missing = [...new Set(ids)].filter((id) => !names.has(id));
  const found = await Promise.all(missing.map((id) => api.get(`/business-partners/${id}`).catch(() => null)));
  found.filter(Boolean).forEach((partner) => names.set(partner.id, partner.name));
  return names;
}

export async function list(ctx) {
  const filters = Object.fromEntries(FILTERS.map((name) => [name, ctx.query[name] || ""]));
  const page = Math.max(1, Number(ctx.query.page) || 1);
  const answer = await api.get("/documents", { ...filters, page, limit: LIMIT });
  const names = await partnerNames(answer.documents.map((d) => d.businessPartnerId));

  const filterForm = formView({
    className: "inline",
    fields: [
      // GET /documents?q=: the number (its last digits will do) or the partner's name, RTN/NIT, e-mail
      { name: "q", label: t("docs.search"), type: "search" },
      { name: "type", label: t("docs.type"), type: "select",
        options: DOCUMENT_TYPES.map((code) => ({ value: code, label: t(`doctype.${code}`) })) },
      { name: "status", label: t("docs.status"), type: "select",
        options: STATUSES.map((status) => ({ value: status, label: t(`status.${status}`) })) },
      // computed by the API as of the company's today (paged by page, like a search)
      { name: "paymentStatus", label: t("paystatus.filter"), type: "select",
        options: PAYMENT_STATUSES.map((status) => ({ value: status, label: t(`status.${status}`) })) },
      { name: "startDate", label: t("docs.startDate"), type: "date" },
      { name: "endDate", label: t("docs.endDate"), type: "date" },
      // a type-ahead (GET /business-partners?q=), not a select of every partner
      { name: "businessPartnerId", label: t("docs.partner"), type: "lookup",
        source: { path: "/business-partners", field: "businessPartners",
                  label: (p) => (p.taxId ? `${p.name} (${p.taxId})` : p.name) } },
    ],
    values: filters,
    submitLabel: t("docs.filter"),
    onSubmit: (data) => ctx.navigate(listPath({ ...data })),
  });
  filterForm.querySelector(".form-actions").prepend(
    button(t("docs.clear"), () => ctx.navigate("/documents")));

  const open = (d) => ctx.navigate(`/documents/${d.id}`);
  const table = tableView({
    rows: answer.documents, onRowClick: open, empty: t("docs.empty"),
    columns: [
      { label: t("docs.number"), value: (d) => h("a", { href: `#/documents/${d.id}`, class: "doc-number" },
        documentName(d)) },
      { label: t("docs.type"), value: (d) => documentTypeName(d) },
      { label: t("docs.partner"), value: (d) => names.get(d.businessPartnerId) || `#${d.businessPartnerId}` },
      { label: t("docs.date"), value: (d) => date(d.date) },
      { label: t("docs.status"), value: (d) => statusBadges(d) },
      { label: t("docs.total"), class: "num", value: (d) => money(d.total, d.currency) },
      { label: t("docs.pending"), class: "num", value: (d) => money(d.pending, d.currency) },
    ],
  });
  const pager = pagerView({ page, limit: LIMIT, total: answer.total,
    onPage: (next) => ctx.navigate(listPath({ ...filters, page: next })) });

  append(ctx.root, [
    pageHeader(t("docs.title"), button(t("docs.new"), () => ctx.navigate("/documents/new"), "primary")),
    section(null, filterForm),
    section(null, table, pager)]);
}
