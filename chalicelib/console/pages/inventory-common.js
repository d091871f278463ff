// What the inventory pages (adjustments, count sheet, transfers, valuation) share: their labels,
// the warehouses and products they name, a lines editor whose inputs are named as the API names
// the lines' fields (lines[0].quantity, ...) so that showErrors() finds them (each line's product
// found by typing, GET /products?q=), and the stock on hand.
import { api, listAll } from "../api.js";
import { h } from "../dom.js";
import { number } from "../format.js";
import { t } from "../i18n.js";
import { button, typeAhead } from "../ui.js";

export const REASONS = ["opening", "count", "damage", "other"];

// A product keeps stock when it is goods (not a service) and tracks inventory.
export const isStocked = (product) => product.type === "product" && product.trackInventory;

// Quantities plainly (up to the API's four decimals); a change with its sign.
export const quantity = (value) => number(value, 4);
export const change = (value) => (Number(value) > 0 ? `+${number(value, 4)}` : number(value, 4));

// The warehouses a page names and its products: `products` "all" (the count sheet lists every
// stocked product), else the ids its lines name (read one by one: a page names few).
export async function catalog({ products: wanted = [] } = {}) {
  const read = (ids) => Promise.all([...new Set(ids.map(Number))].map((id) => api.get(`/products/${id}`).catch(() => null)))
    .then((found) => found.filter(Boolean));
  const [warehouses, products] = await Promise.all([listAll("/warehouses", "warehouses"),
    wanted === "all" ? listAll("/products", "products") : read(wanted)]);
  const warehouseById = new Map(warehouses.map((w) => [w.id, w]));
  const productById = new Map(products.map((p) => [p.id, p]));
  return {
    warehouses, products, productById,
    warehouseName: (id) => warehouseById.get(id)?.name || `#${id}`,
    productName: (id) => (productById.get(id) ? `${productById.get(id).code} · ${productById.get(id).name}` : `#${id}`),
  };
}

// Stock on hand of every product and warehouse, now or at the end of `date` (movements dated
// later left out): (productId, warehouseId) -> quantity.
export async function stockLevels(warehouseId, date) {
  const query = Object.fromEntries(Object.entries({ warehouseId, date }).filter(([, value]) => value));
  const levels = await listAll("/inventory/stock", "stock", query);
  const held = new Map(levels.map((s) => [`${s.productId}:${s.warehouseId}`, Number(s.quantity)]));
  return (productId, warehouse) => held.get(`${productId}:${warehouse}`) ?? 0;
}

export function entryLink(id) {
  return id ? h("a", { href: `#/accounting/entries/${id}`, class: "entry-link" }, `${t("inv.entry")} #${id}`) : t("inv.noEntry");
}

const STOCKED = { path: "/products", field: "products", accept: (p) => isStocked(p) && p.isActive,
                  label: (p) => `${p.code} · ${p.name}` };

// Lines that can be added and removed, each a small inline form: a product (a type-ahead over the
// active stocked products) and the inputs `fields` describe ({name, label, input() -> element});
// `hint(values, product)` writes a line's note (what is on hand, say) under it; onAdd(row)
// prepares a new line. value() -> each line's raw values by field name.
export function linesEditor({ fields, hint, onAdd }) {
  const rows = [];
  const list = h("div", { class: "lines-list" });
  const chosen = new Map();  // product id -> the product as the type-ahead found it
  const all = [{ name: "productId", label: t("inv.product") }, ...fields];

  const renumber = () => rows.forEach((row, index) => {
    row.title.textContent = t("inv.line", { n: index + 1 });
    row.product.rename(`lines[${index}].productId`, `f-lines-${index}-productId`);
    row.labels.productId.htmlFor = row.product.search.id;
    for (const field of fields) {
      const input = row.inputs[field.name];
      input.name = `lines[${index}].${field.name}`;
      input.id = `f-lines-${index}-${field.name}`;
      input.dataset.field = input.name;
      row.labels[field.name].htmlFor = input.id;
    }
  });
  const refresh = () => rows.forEach((row) => {
    const values = row.read();
    row.hint.textContent = hint ? hint(values, chosen.get(values.productId)) || "" : "";
  });

  const add = (values = {}) => {
    const product = typeAhead({ source: STOCKED, name: "productId", id: "f-productId", placeholder: t("inv.pickProduct"),
      onChoose: (found) => { chosen.set(String(found.id), found); refresh(); } });
    const inputs = { productId: product.input, ...Object.fromEntries(fields.map((field) => [field.name, field.input()])) };
    const labels = Object.fromEntries(all.map((field) => [field.name, h("label", {}, field.label)]));
    for (const [name, value] of Object.entries(values)) if (inputs[name]) inputs[name].value = value;
    const row = { inputs, labels, product, title: h("strong"), hint: h("small", { class: "help line-hint" }),
      read: () => Object.fromEntries(all.map((field) => [field.name, inputs[field.name].value.trim()])) };
    const remove = button(t("inv.removeLine"), () => {
      if (rows.length === 1) return;
      rows.splice(rows.indexOf(row), 1);
      row.element.remove();
      renumber();
    }, "danger remove-line");
    row.element = h("div", { class: "card line" },
      h("div", { class: "toolbar" }, row.title),
      h("div", { class: "form inline" }, all.map((field) => h("div", { class: "field" }, labels[field.name],
        field.name === "productId" ? product.element : inputs[field.name])),
        h("div", { class: "field" }, remove)),
      row.hint);
    row.element.addEventListener("input", refresh);
    row.element.addEventListener("change", refresh);
    rows.push(row);
    list.append(row.element);
    if (onAdd) onAdd(row);
    renumber();
    refresh();
    return row;
  };

  add();
  const element = h("section", { class: "lines inventory-lines" }, h("h2", {}, t("inv.lines")), list,
    h("div", { class: "toolbar" }, button(t("inv.addLine"), () => add(), "add-line")));
  return { element, add, refresh, rows, value: () => rows.map((row) => row.read()) };
}
