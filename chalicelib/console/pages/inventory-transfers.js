// Transfers between warehouses: the list (newest first), one transfer with its lines, and the form
// that moves goods from one warehouse to another (no entry: the goods keep their average cost).
import { api } from "../api.js";
import { append, h } from "../dom.js";
import { date, dateTime, today, unitCost } from "../format.js";
import { t } from "../i18n.js";
import { button, definitionList, formView, pageHeader, pagerView, section, tableView, toast, withQuery } from "../ui.js";
import { catalog, linesEditor, quantity, stockLevels } from "./inventory-common.js";

const LIMIT = 20;
const units = (transfer) => transfer.lines.reduce((sum, line) => sum + Number(line.quantity), 0);

export async function list(ctx) {
  const page = Math.max(1, Number(ctx.query.page) || 1);
  const [answer, names] = await Promise.all([api.get("/inventory/transfers", { page, limit: LIMIT }), catalog()]);
  append(ctx.root, [
    pageHeader(t("tr.title"), button(t("tr.new"), () => ctx.navigate("/inventory/transfers/new"), "primary")),
    h("p", { class: "help" }, t("tr.intro")),
    section(null, tableView({ rows: answer.transfers, empty: t("tr.empty"),
      onRowClick: (tr) => ctx.navigate(`/inventory/transfers/${tr.id}`), columns: [
        { label: t("inv.number"), value: (tr) => h("a", { href: `#/inventory/transfers/${tr.id}` }, `#${tr.id}`) },
        { label: t("inv.date"), value: (tr) => date(tr.date) },
        { label: t("tr.from"), value: (tr) => names.warehouseName(tr.fromWarehouseId) },
        { label: t("tr.to"), value: (tr) => names.warehouseName(tr.toWarehouseId) },
        { label: t("inv.reference"), value: (tr) => tr.reference || "" },
        { label: t("inv.lineCount"), class: "num", value: (tr) => String(tr.lines.length) },
        { label: t("tr.units"), class: "num", value: (tr) => quantity(units(tr)) },
      ] }), pagerView({ page, limit: LIMIT, total: answer.total,
      onPage: (next) => ctx.navigate(withQuery("/inventory/transfers", { page: next })) })),
  ]);
}

export async function detail(ctx) {
  const transfer = await api.get(`/inventory/transfers/${ctx.params.id}`);
  const names = await catalog({ products: transfer.lines.map((line) => line.productId) });
  append(ctx.root, [
    pageHeader(t("tr.one", { id: transfer.id })),
    section(null, definitionList([
      [t("inv.date"), date(transfer.date)],
      [t("tr.from"), names.warehouseName(transfer.fromWarehouseId)],
      [t("tr.to"), names.warehouseName(transfer.toWarehouseId)],
      transfer.reference ? [t("inv.reference"), transfer.reference] : null,
      transfer.notes ? [t("inv.notes"), transfer.notes] : null,
      [t("inv.createdAt"), dateTime(transfer.createdAt)],
    ])),
    section(t("inv.lines"), tableView({ rows: transfer.lines, columns: [
      { label: t("inv.product"), value: (l) => names.productName(l.productId) },
      { label: t("inv.quantity"), class: "num", value: (l) => quantity(l.quantity) },
      { label: t("tr.unitCostNote"), class: "num", value: (l) => unitCost(l.unitCost) },
    ] })),
    h("p", {}, h("a", { href: "#/inventory/transfers" }, t("inv.back"))),
  ]);
}

export async function create(ctx) {
  const [names, onHand] = await Promise.all([catalog(), stockLevels()]);
  const warehouses = names.warehouses.filter((w) => w.isActive);
  let form = null;
  const lines = linesEditor({
    fields: [{ name: "quantity", label: t("inv.quantity"), input: () => h("input", { type: "number", step: "any", min: "0" }) }],
    hint: (values) => {
      const from = Number(form?.elements.namedItem("fromWarehouseId").value);
      return values.productId && from ? t("tr.available", { quantity: quantity(onHand(Number(values.productId), from)) }) : "";
    },
  });
  const options = warehouses.map((w) => ({ value: w.id, label: w.name }));
  form = formView({
    fields: [
      { name: "fromWarehouseId", label: t("tr.from"), type: "select", required: true, numeric: true, options },
      { name: "toWarehouseId", label: t("tr.to"), type: "select", required: true, numeric: true, options },
      { name: "date", label: t("tr.date"), type: "date" },
      { name: "reference", label: t("inv.reference") },
      { name: "notes", label: t("inv.notes"), type: "textarea" },
    ],
    values: { fromWarehouseId: warehouses[0]?.id, toWarehouseId: warehouses[1]?.id, date: today() },
    extra: lines.element,
    submitLabel: t("tr.submit"),
    onSubmit: async (data) => {
      const created = await api.post("/inventory/transfers", { ...data, lines: lines.value().map((values) => ({
        productId: values.productId ? Number(values.productId) : undefined,
        quantity: values.quantity === "" ? undefined : Number(values.quantity) })) });
      toast(t("tr.created", { id: created.id }));
      ctx.navigate(`/inventory/transfers/${created.id}`);
    },
  });
  form.id = "transfer-form";
  form.elements.namedItem("fromWarehouseId").addEventListener("change", () => lines.refresh());
  append(ctx.root, [pageHeader(t("tr.newTitle")), h("p", { class: "help" }, t("tr.intro")),
    section(null, form)]);
}
