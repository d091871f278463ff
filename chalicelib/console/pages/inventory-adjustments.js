// Inventory adjustments: the list (newest first), one adjustment with its lines and journal entry,
// and the form that records one (an opening stock, a count, damage, another correction). The API
// values every line (at the cost given, else the average cost) and posts the entry.
import { api } from "../api.js";
import { append, h } from "../dom.js";
import { date, dateTime, money, today, unitCost } from "../format.js";
import { t } from "../i18n.js";
import { button, definitionList, formView, pageHeader, pagerView, section, tableView, toast, withQuery } from "../ui.js";
import { REASONS, catalog, change, entryLink, linesEditor, quantity, stockLevels } from "./inventory-common.js";

const LIMIT = 20;

export async function list(ctx) {
  const page = Math.max(1, Number(ctx.query.page) || 1);
  const [answer, names] = await Promise.all([api.get("/inventory/adjustments", { page, limit: LIMIT }), catalog()]);
  const open = (a) => ctx.navigate(`/inventory/adjustments/${a.id}`);
  append(ctx.root, [
    pageHeader(t("adj.title"), button(t("adj.count"), () => ctx.navigate("/inventory/count")),
      button(t("adj.new"), () => ctx.navigate("/inventory/adjustments/new"), "primary")),
    h("p", { class: "help" }, t("adj.intro")),
    section(null, tableView({ rows: answer.adjustments, onRowClick: open, empty: t("adj.empty"), columns: [
      { label: t("inv.number"), value: (a) => h("a", { href: `#/inventory/adjustments/${a.id}` }, `#${a.id}`) },
      { label: t("inv.date"), value: (a) => date(a.date) },
      { label: t("inv.reason"), value: (a) => t(`reason.${a.reason}`) },
      { label: t("inv.warehouse"), value: (a) => names.warehouseName(a.warehouseId) },
      { label: t("inv.reference"), value: (a) => a.reference || "" },
      { label: t("inv.lineCount"), class: "num", value: (a) => String(a.lines.length) },
      { label: t("inv.totalValue"), class: "num", value: (a) => money(a.totalValue) },
      { label: t("inv.entry"), value: (a) => (a.journalEntryId
        ? h("a", { href: `#/accounting/entries/${a.journalEntryId}` }, `#${a.journalEntryId}`) : t("inv.noEntry")) },
    ] }), pagerView({ page, limit: LIMIT, total: answer.total,
      onPage: (next) => ctx.navigate(withQuery("/inventory/adjustments", { page: next })) })),
  ]);
}

// An adjustment's lines: the stock before, what was counted, the change and its value.
export function adjustmentLines(adjustment, productName) {
  const table = tableView({ rows: adjustment.lines, columns: [
    { label: t("inv.product"), value: (l) => productName(l.productId) },
    { label: t("inv.previous"), class: "num", value: (l) => quantity(l.previousQuantity) },
    { label: t("inv.counted"), class: "num", value: (l) => (l.countedQuantity === null || l.countedQuantity === undefined
      ? t("common.none") : quantity(l.countedQuantity)) },
    { label: t("inv.change"), class: "num line-change", value: (l) => change(l.quantity) },
    { label: t("inv.unitCost"), class: "num", value: (l) => unitCost(l.unitCost) },
    { label: t("inv.value"), class: "num line-value", value: (l) => money(l.value) },
  ] });
  if (table.tagName === "TABLE") {
    table.append(h("tfoot", {}, h("tr", {}, h("td", { colspan: 5 }, t("inv.totalValue")),
      h("td", { class: "num adjustment-total" }, money(adjustment.totalValue)))));
  }
  return table;
}

export async function detail(ctx) {
  const adjustment = await api.get(`/inventory/adjustments/${ctx.params.id}`);
  const names = await catalog({ products: adjustment.lines.map((line) => line.productId) });
  append(ctx.root, [
    pageHeader(t("adj.one", { id: adjustment.id })),
    section(null, definitionList([
      [t("inv.date"), date(adjustment.date)],
      [t("inv.reason"), t(`reason.${adjustment.reason}`)],
      [t("inv.warehouse"), names.warehouseName(adjustment.warehouseId)],
      adjustment.reference ? [t("inv.reference"), adjustment.reference] : null,
      adjustment.notes ? [t("inv.notes"), adjustment.notes] : null,
      [t("inv.totalValue"), h("strong", { id: "adjustment-value" }, money(adjustment.totalValue))],
      [t("inv.entry"), entryLink(adjustment.journalEntryId)],
      [t("inv.createdAt"), dateTime(adjustment.createdAt)],
    ])),
    section(t("inv.lines"), adjustmentLines(adjustment, names.productName)),
    h("p", {}, h("a", { href: "#/inventory/adjustments" }, t("inv.back"))),
  ]);
}

// The API names a line's quantity `quantity` or `countedQuantity` (and a line that has neither
// `lines[i]`): the form has one input for both, named lines[i].quantity.
function onQuantityInput(error) {
  for (const detail of error.details || []) {
    const found = /^lines\[(\d+)\](?:\.(?:quantity|countedQuantity))?$/.exec(String(detail.field || ""));
    if (found) detail.field = `lines[${found[1]}].quantity`;
  }
  return error;
}

export async function create(ctx) {
  // the stock a line's note shows is that of the adjustment's date, as the API compares
  const [names, levels] = await Promise.all([catalog(), stockLevels(undefined, today())]);
  let onHand = levels;
  const warehouses = names.warehouses.filter((w) => w.isActive);
  const reason = REASONS.includes(ctx.query.reason) ? ctx.query.reason : "opening";
  const help = h("p", { class: "help", id: "adjustment-help" });
  let form = null;
  const current = (name) => form?.elements.namedItem(name)?.value;
  const chosenReason = () => current("reason") || reason;
  // a new line follows the reason: a count is written as counted quantities, the rest as changes
  const prepare = (row) => {
    row.inputs.mode.value = chosenReason() === "count" ? "countedQuantity" : "quantity";
    row.inputs.unitCost.placeholder = t(chosenReason() === "opening" ? "adj.unitCost.required" : "adj.unitCost.optional");
  };
  const lines = linesEditor({
    onAdd: prepare,
    fields: [
      { name: "mode", label: t("adj.mode"), input: () => h("select", {},
        ["quantity", "countedQuantity"].map((mode) => h("option", { value: mode }, t(`adj.mode.${mode}`)))) },
      { name: "quantity", label: t("adj.quantity"), input: () => h("input", { type: "number", step: "any" }) },
      { name: "unitCost", label: t("adj.unitCost"), input: () => h("input", { type: "number", step: "any", min: "0" }) },
    ],
    hint: (values, product) => {
      const warehouseId = Number(current("warehouseId"));
      if (!product || !warehouseId) return "";
      return `${t("inv.hint.onHand", { quantity: quantity(onHand(product.id, warehouseId)) })} · `
        + t("inv.hint.average", { cost: unitCost(product.averageCost) });
    },
  });
  const applyReason = () => {
    help.textContent = t(`adj.help.${chosenReason()}`);
    lines.rows.forEach(prepare);
    lines.refresh();
  };
  form = formView({
    fields: [
      { name: "warehouseId", label: t("inv.warehouse"), type: "select", required: true, numeric: true,
        options: warehouses.map((w) => ({ value: w.id, label: w.name })) },
      { name: "reason", label: t("inv.reason"), type: "select", required: true,
        options: REASONS.map((r) => ({ value: r, label: t(`reason.${r}`) })) },
      { name: "date", label: t("adj.date"), type: "date" },
      { name: "reference", label: t("inv.reference") },
      { name: "notes", label: t("inv.notes"), type: "textarea" },
    ],
    values: { reason, date: today(), warehouseId: ctx.query.warehouseId || warehouses[0]?.id },
    extra: h("div", {}, help, lines.element),
    submitLabel: t("adj.submit"),
    onSubmit: async (data) => {
      const body = { ...data, lines: lines.value().map((values) => {
        const line = { productId: values.productId ? Number(values.productId) : undefined };
        if (values.quantity !== "") line[values.mode] = Number(values.quantity);
        if (values.unitCost !== "") line.unitCost = Number(values.unitCost);
        return line;
      }) };
      try {
        const created = await api.post("/inventory/adjustments", body);
        toast(t("adj.created", { id: created.id }));
        ctx.navigate(`/inventory/adjustments/${created.id}`);
      } catch (error) {
        throw onQuantityInput(error);
      }
    },
  });
  form.id = "adjustment-form";
  form.elements.namedItem("reason").addEventListener("change", applyReason);
  form.elements.namedItem("warehouseId").addEventListener("change", () => lines.refresh());
  form.elements.namedItem("date").addEventListener("change", async (event) => {
    const wanted = event.target.value;
    if (!wanted) return;
    const held = await stockLevels(undefined, wanted);
    if (wanted !== event.target.value) return;  // changed again meanwhile
    onHand = held;
    lines.refresh();
  });
  applyReason();
  append(ctx.root, [pageHeader(t("adj.newTitle")), section(null, form)]);
}
