// The count sheet: one warehouse's stocked products with what the books hold on the count's date
// (movements dated later left out, as the API compares), an input for what was counted on each, and one "count" adjustment for the rows filled in (the API works out each
// change from the stock). An adjustment takes at most CHANGED_PER_ADJUSTMENT lines that change
// the stock (400 DOCUMENT_TOO_LARGE beyond: one transaction), so a longer count goes in several.
import { ApiError, api } from "../api.js";
import { append, h, replace } from "../dom.js";
import { date, money, today } from "../format.js";
import { t } from "../i18n.js";
import { describeError, formView, pageHeader, section, tableView, toast, withQuery } from "../ui.js";
import { adjustmentLines } from "./inventory-adjustments.js";
import { catalog, change, entryLink, isStocked, quantity, stockLevels } from "./inventory-common.js";

export const CHANGED_PER_ADJUSTMENT = 25;
const LINES_PER_ADJUSTMENT = 300;  // the API's limit of lines; a line equal to the stock writes nothing

// The rows to send, in adjustments: at most CHANGED_PER_ADJUSTMENT that differ from the stock shown
// in each, the rows that match it added where there is room.
export function chunks(filled) {
  const changed = filled.filter((row) => row.counted !== row.onHand);
  const parts = [];
  for (let i = 0; i < changed.length; i += CHANGED_PER_ADJUSTMENT) parts.push(changed.slice(i, i + CHANGED_PER_ADJUSTMENT));
  for (const row of filled.filter((r) => r.counted === r.onHand)) {
    let part = parts.find((p) => p.length < LINES_PER_ADJUSTMENT);
    if (!part) { part = []; parts.push(part); }
    part.push(row);
  }
  return parts;
}

export async function render(ctx) {
  const names = await catalog({ products: "all" });  // the sheet lists every stocked product
  const warehouses = names.warehouses.filter((w) => w.isActive);
  const warehouseId = Number(ctx.query.warehouseId) || warehouses[0]?.id;
  const picker = formView({ className: "inline", submitLabel: t("count.show"), values: { warehouseId },
    fields: [{ name: "warehouseId", label: t("inv.warehouse"), type: "select", required: true,
      options: warehouses.map((w) => ({ value: w.id, label: w.name })) }],
    // another warehouse, counted on the same day
    onSubmit: (data) => ctx.navigate(withQuery("/inventory/count",
      { ...data, date: ctx.root.querySelector("#count-form [name=date]")?.value })) });
  picker.id = "count-warehouse";
  append(ctx.root, [pageHeader(t("count.title")), h("p", { class: "help" }, t("count.intro")), section(null, picker)]);
  if (!warehouseId) return;

  const countDate = ctx.query.date || today();
  const onHand = await stockLevels(warehouseId, countDate);
  const results = h("div", { id: "count-results" });
  const sheet = h("div", {});
  ctx.root.append(results, sheet);
  await drawSheet(ctx, names, warehouseId, onHand, sheet, results, countDate);
}

async function drawSheet(ctx, names, warehouseId, onHand, sheet, results, countDate) {
  // active stocked products, and any other that still holds stock here
  const products = names.products.filter((p) => (isStocked(p) && p.isActive) || onHand(p.id, warehouseId) !== 0)
    .sort((a, b) => String(a.code).localeCompare(String(b.code)));
  const rows = products.map((product) => {
    const input = h("input", { type: "number", step: "any", min: "0", class: "count-input", "data-product": product.id,
      "aria-label": `${t("count.counted")}: ${product.code} · ${product.name}` });
    const held = onHand(product.id, warehouseId);
    return { product, input, onHand: held, held: h("span", {}, quantity(held)), difference: h("span", { class: "difference" }) };
  });
  const summary = h("p", { class: "help", id: "count-summary" });
  const filledRows = () => rows.filter((row) => row.input.value.trim() !== "")
    .map((row) => ({ ...row, counted: Number(row.input.value) }));
  const update = () => {
    for (const row of rows) {
      const raw = row.input.value.trim();
      const difference = raw === "" ? 0 : Number(raw) - row.onHand;
      row.difference.textContent = raw === "" || !difference ? "" : change(Math.round(difference * 10000) / 10000);
      row.difference.className = `difference ${difference < 0 ? "negative" : difference > 0 ? "positive" : ""}`;
    }
    const filled = filledRows();
    const changed = filled.filter((row) => row.counted !== row.onHand).length;
    const parts = chunks(filled).length;
    replace(summary, t("count.summary", { filled: filled.length, changed }),
      changed > CHANGED_PER_ADJUSTMENT ? h("strong", { class: "count-split" }, ` · ${t("count.split",
        { max: CHANGED_PER_ADJUSTMENT, parts })}`) : null);
  };
  const filter = h("input", { type: "search", id: "count-filter", placeholder: t("count.filter"), "aria-label": t("count.filter") });
  const table = tableView({ rows, empty: t("count.empty"), columns: [
    { label: t("inv.code"), value: (r) => r.product.code },
    { label: t("inv.product"), value: (r) => r.product.name },
    { label: t("count.onHandOn"), class: "num on-hand", value: (r) => r.held },
    { label: t("count.counted"), class: "num", value: (r) => h("div", { class: "field count-field" }, r.input) },
    { label: t("count.difference"), class: "num", value: (r) => r.difference },
  ] });
  rows.forEach((row, index) => { row.tr = table.tagName === "TABLE" ? table.tBodies[0].rows[index] : null; });
  filter.addEventListener("input", () => {
    const wanted = filter.value.trim().toLowerCase();
    rows.forEach((row) => {
      if (row.tr) row.tr.hidden = Boolean(wanted) && !`${row.product.code} ${row.product.name}`.toLowerCase().includes(wanted);
    });
  });

  const form = formView({
    className: "inline count-sheet",
    fields: [{ name: "date", label: t("count.date"), type: "date" },
      { name: "reference", label: t("inv.reference") }, { name: "notes", label: t("inv.notes") }],
    values: { date: countDate },
    extra: h("div", {}, h("div", { class: "toolbar" }, h("div", { class: "field" }, filter)),
      h("div", { class: "table-scroll" }, table), summary),
    submitLabel: t("count.submit"),
    onSubmit: async (data) => {
      const filled = filledRows();
      if (!filled.length) throw new ApiError(400, { message: t("count.nothing"), code: "NOTHING_COUNTED" });
      const parts = chunks(filled);
      const done = [];
      try {
        for (const part of parts) {
          // this part's inputs answer to its lines' names, so a refusal lands beside them
          rows.forEach((row) => row.input.removeAttribute("data-field"));
          part.forEach((row, index) => row.input.setAttribute("data-field", `lines[${index}].countedQuantity`));
          done.push(await api.post("/inventory/adjustments", { ...data, warehouseId, reason: "count",
            lines: part.map((row) => ({ productId: row.product.id, countedQuantity: row.counted })) }));
        }
      } catch (error) {
        if (done.length) showResults(results, names, done, t("count.partial", { done: done.length, parts: parts.length }));
        throw error;
      }
      toast(done.length > 1 ? t("count.doneMany", { parts: done.length }) : t("count.done", { id: done[0].id }));
      // the sheet again, with the stock the count left; the outcome above it
      const fresh = await stockLevels(warehouseId, data.date);
      showResults(results, names, done, parts.length > 1
        ? t("count.splitDone", { max: CHANGED_PER_ADJUSTMENT, parts: parts.length }) : t("count.done", { id: done[0].id }));
      replace(sheet);
      await drawSheet(ctx, names, warehouseId, fresh, sheet, results, data.date || countDate);
      results.scrollIntoView({ block: "start" });
    },
  });
  form.id = "count-form";
  form.addEventListener("input", update);
  // another date: the stock the count compares with is that day's (data-stock-date: the day shown)
  form.dataset.stockDate = countDate;
  const dateInput = form.querySelector("[name=date]");
  dateInput.addEventListener("change", async () => {
    if (!dateInput.value) return;
    try {
      const wanted = dateInput.value;
      const held = await stockLevels(warehouseId, wanted);
      if (wanted !== dateInput.value) return;  // changed again meanwhile
      for (const row of rows) {
        row.onHand = held(row.product.id, warehouseId);
        row.held.textContent = quantity(row.onHand);
      }
      update();
      form.dataset.stockDate = wanted;
    } catch (error) {
      toast(describeError(error), "error");
    }
  });
  // Enter in the search box or on a count moves on (to the next row shown) instead of submitting
  form.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || !(event.target === filter || event.target.classList.contains("count-input"))) return;
    event.preventDefault();
    const shown = rows.filter((row) => !row.tr?.hidden).map((row) => row.input);
    const next = event.target === filter ? shown[0] : shown[shown.indexOf(event.target) + 1];
    if (next) next.focus();
  });
  update();
  sheet.append(section(`${t("count.title")} · ${names.warehouseName(warehouseId)}`, form));
}

function showResults(results, names, adjustments, message) {
  replace(results, section(t("count.result"),
    h("p", { class: "count-outcome", role: "status" }, message),
    adjustments.map((adjustment) => h("div", { class: "count-adjustment", "data-adjustment": adjustment.id },
      h("h3", {}, h("a", { href: `#/inventory/adjustments/${adjustment.id}` }, t("count.adjustment", { id: adjustment.id })),
        ` · ${date(adjustment.date)} · ${t("inv.totalValue")}: ${money(adjustment.totalValue)} · `,
        entryLink(adjustment.journalEntryId)),
      adjustmentLines(adjustment, names.productName)))));
}
