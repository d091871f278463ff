// Products and services (a crud page; a row opens the product with its stock per warehouse; the
// average cost, stock and its value are the API's, read-only; `cost` is a reference cost) and the
// stock: quantities per product and warehouse, with the latest stock movements.
import { api, listAll } from "../api.js";
import { crudPage } from "../crud.js";
import { append, h } from "../dom.js";
import { date, linkedDocumentName, money, number, percent, unitCost } from "../format.js";
import { t } from "../i18n.js";
import { badge, definitionList, describeError, formView, openDialog, pageHeader, pagerView, section, tableView, toast } from "../ui.js";

const TAX_RATES = ["0", "0.15", "0.18"];

function productFields() {
  return [
    { name: "code", label: t("product.code"), required: true },
    { name: "name", label: t("product.name"), required: true },
    { name: "type", label: t("product.type"), type: "select", required: true, value: "product",
      options: ["product", "service"].map((type) => ({ value: type, label: t(`productType.${type}`) })) },
    { name: "description", label: t("product.description"), type: "textarea", emptyAs: null },
    { name: "unitPrice", label: t("product.unitPrice"), type: "number", min: "0", value: "0" },
    { name: "cost", label: t("product.cost"), type: "number", min: "0", value: "0", help: t("product.costHelp") },
    { name: "taxRate", label: t("product.taxRate"), type: "select", required: true, numeric: true, value: "0.15",
      options: TAX_RATES.map((rate) => ({ value: rate, label: percent(rate) })) },
    { name: "trackInventory", label: t("product.trackInventory"), type: "checkbox", value: true },
    { name: "isActive", label: t("product.isActive"), type: "checkbox", value: true },
  ];
}

// The API finds products by the words of their code or name (`q`, as partners are found).
export async function list(ctx) {
  const search = (ctx.query.q || "").trim();
  const searchForm = formView({ className: "inline", submitLabel: t("common.search"),
    fields: [{ name: "q", label: t("product.search"), type: "search" }], values: { q: search },
    onSubmit: (data) => ctx.navigate(data.q ? `/products?${new URLSearchParams({ q: data.q })}` : "/products") });
  const page = crudPage({
    title: t("product.title"), path: "/products", field: "products", createLabel: t("product.new"),
    intro: h("div", {}, h("p", { class: "help" }, t("product.intro")), searchForm),
    query: () => ({ q: search || undefined }),
    fields: productFields(), editFields: productFields(),
    // a service has no stock to track, whatever the box says
    prepare: (data) => (data.type === "service" ? { ...data, trackInventory: false } : data),
    columns: [
      { label: t("product.code"), value: (p) => p.code },
      { label: t("product.name"), value: (p) => p.name },
      { label: t("product.type"), value: (p) => t(`productType.${p.type}`) },
      { label: t("product.unitPrice"), class: "num", value: (p) => money(p.unitPrice) },
      // the reference cost is in the product's dialog and form: the list shows what the books carry
      { label: t("product.averageCost"), class: "num", value: (p) => (stocked(p) ? unitCost(p.averageCost) : "") },
      { label: t("product.stockQuantity"), class: "num", value: (p) => (stocked(p) ? number(p.stockQuantity, 4) : "") },
      { label: t("product.value"), class: "num", value: (p) => (stocked(p) ? money(p.stockValue) : "") },
      { label: t("product.taxRate"), class: "num", value: (p) => percent(p.taxRate) },
      { label: t("common.status"), value: (p) => badge(p.isActive ? "active" : "inactive") },
    ],
    onRowClick: (p) => productDialog(p),
  });
  await page(ctx);
}

// A stocked product: goods that track inventory (a service keeps no stock).
const stocked = (p) => p.type === "product" && p.trackInventory;

// One product: its fields, and for goods the read-only cost and stock with the stock per warehouse.
async function productDialog(product) {
  try {
    const [warehouses, levels] = stocked(product) ? await Promise.all([listAll("/warehouses", "warehouses"),
      listAll("/inventory/stock", "stock", { productId: product.id })]) : [[], []];
    const names = new Map(warehouses.map((w) => [w.id, w.name]));
    openDialog(t("product.detail", { code: product.code }), definitionList([
      [t("product.name"), product.name],
      [t("product.type"), t(`productType.${product.type}`)],
      product.description ? [t("product.description"), product.description] : null,
      [t("product.unitPrice"), money(product.unitPrice)],
      [t("product.cost"), money(product.cost)],
      [t("product.taxRate"), percent(product.taxRate)],
      [t("product.trackInventory"), t(product.trackInventory ? "common.yes" : "common.no")],
      ...(stocked(product) ? [
        [t("product.averageCost"), h("strong", { id: "product-average-cost" }, unitCost(product.averageCost))],
        [t("product.stockQuantity"), h("strong", { id: "product-stock-quantity" }, number(product.stockQuantity, 4))],
        [t("product.stockValue"), h("strong", { id: "product-stock-value" }, money(product.stockValue))]] : []),
      [t("common.status"), badge(product.isActive ? "active" : "inactive")],
    ]), stocked(product) ? [h("p", { class: "help" }, t("product.readOnly")),
      h("h3", {}, t("product.stockByWarehouse")),
      tableView({ rows: levels.filter((s) => Number(s.quantity) !== 0), columns: [
        { label: t("stock.warehouse"), value: (s) => names.get(s.warehouseId) || `#${s.warehouseId}` },
        { label: t("stock.quantity"), class: "num", value: (s) => number(s.quantity, 4) },
      ] })] : null);
  } catch (error) {
    toast(describeError(error), "error");
  }
}

// The newest movements (up to `endDate`, when given): the API lists them oldest first, so the
// last page is read.
async function recentMovements(limit, endDate) {
  const range = endDate ? { endDate } : {};
  const first = await api.get("/inventory/movements", { page: 1, limit: 1, ...range });
  if (!first.total) return [];
  const lastPage = Math.max(1, Math.ceil(first.total / limit));
  const pages = await Promise.all([lastPage, lastPage - 1].filter((p) => p >= 1)
    .map((p) => api.get("/inventory/movements", { page: p, limit, ...range })));
  return pages.flatMap((answer) => answer.movements).reverse().slice(0, limit);
}

export async function stock(ctx) {
  const limit = 20;
  const page = Math.max(1, Number(ctx.query.page) || 1);
  const warehouseId = ctx.query.warehouseId || "";
  const asOf = ctx.query.date || "";  // the stock at the end of that day; empty: now
  const [warehouses, levels, movements] = await Promise.all([
    listAll("/warehouses", "warehouses"),
    api.get("/inventory/stock", { warehouseId, page, limit, ...(asOf ? { date: asOf } : {}) }),
    recentMovements(limit, asOf),
  ]);
  // the products this page names (at most 40), not every product
  const ids = [...new Set([...levels.stock, ...movements].map((row) => row.productId))];
  const products = (await Promise.all(ids.map((id) => api.get(`/products/${id}`).catch(() => null)))).filter(Boolean);
  const product = new Map(products.map((p) => [p.id, p]));
  const warehouse = new Map(warehouses.map((w) => [w.id, w]));
  const productCell = (id) => (product.get(id) ? `${product.get(id).code} · ${product.get(id).name}` : `#${id}`);
  const warehouseCell = (id) => warehouse.get(id)?.name || `#${id}`;
  const go = (query) => ctx.navigate(`/stock?${new URLSearchParams(Object.entries(query).filter(([, v]) => v))}`);

  const filter = formView({ className: "inline", submitLabel: t("stock.filter"),
    fields: [{ name: "warehouseId", label: t("stock.warehouse"), type: "select",
      options: warehouses.map((w) => ({ value: w.id, label: w.name })) },
    { name: "date", label: t("stock.asOf"), type: "date" }],
    values: { warehouseId, date: asOf }, onSubmit: (data) => go({ warehouseId: data.warehouseId, date: data.date }) });
  const shown = warehouseId ? movements.filter((m) => String(m.warehouseId) === String(warehouseId)) : movements;
  append(ctx.root, [
    pageHeader(t("stock.title")),
    section(null, filter, h("p", { class: "help", id: "stock-as-of" },
      asOf ? t("stock.asOfNote", { date: date(asOf) }) : t("stock.nowNote"))),
    section(null, tableView({ rows: levels.stock, columns: [
      { label: t("stock.product"), value: (s) => productCell(s.productId) },
      { label: t("stock.warehouse"), value: (s) => warehouseCell(s.warehouseId) },
      { label: t("stock.quantity"), class: "num", value: (s) => number(s.quantity, 4) },
    ] }), pagerView({ page, limit, total: levels.total, onPage: (next) => go({ warehouseId, date: asOf, page: next }) })),
    section(t("stock.movements"), h("p", { class: "help" }, asOf ? t("stock.movementsUntil", { date: date(asOf) })
      : t("stock.movementsNote")), tableView({ rows: shown, columns: [
      { label: t("common.date"), value: (m) => date(m.date) },
      { label: t("stock.product"), value: (m) => productCell(m.productId) },
      { label: t("stock.warehouse"), value: (m) => warehouseCell(m.warehouseId) },
      { label: t("stock.kind"), value: (m) => t(`stock.kind.${m.kind}`) },
      // what moved it: a document, an adjustment or a transfer
      { label: t("stock.document"), value: (m) => (m.adjustmentId
        ? h("a", { href: `#/inventory/adjustments/${m.adjustmentId}` }, t("stock.adjustment", { id: m.adjustmentId }))
        : m.transferId ? h("a", { href: `#/inventory/transfers/${m.transferId}` }, t("stock.transfer", { id: m.transferId }))
          : h("a", { href: `#/documents/${m.documentId}` },
            m.documentNumber || m.documentNumeroControl ? linkedDocumentName(m.documentId, m.documentNumber, m.documentNumeroControl)
              : `${t(`doctype.${m.documentType}`)} #${m.documentId}`)) },
      { label: t("stock.quantity"), class: "num", value: (m) => number(m.quantity, 4) },
    ] }))]);
}
