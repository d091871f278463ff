// Tax settlements: the ISV (Honduras) or IVA (El Salvador) owed up to a period's end, settled in
// one automatic entry (POST /tax-settlements): the output tax debited, the input credit offsetting
// it, the rest (and, when asked, the withholdings made) paid from a bank account in the company's
// currency. The tax accounts are control accounts no manual entry moves: this is their way out.
// The form (accounting roles only) proposes last month; the list shows each settlement with its entry.
import { api, listAll } from "../api.js";
import { append, h } from "../dom.js";
import { companyCurrency, date, money, today } from "../format.js";
import { ACCOUNTING_ROLES, t } from "../i18n.js";
import { definitionList, formView, pageHeader, pagerView, section, tableView, toast, withQuery } from "../ui.js";

const PATH = "/accounting/tax-settlements";
// who may settle (the API's ACCOUNTING permission)

// The settlement recorded a moment ago, shown once on the page that lists it.
let justSettled = null;

// ("2026-11-28", 0) -> "2026-11-30"; ("2026-11-28", -1) -> "2026-10-31"
function monthEnd(day, shift = 0) {
  const [year, month] = day.split("-").map(Number);
  return new Date(Date.UTC(year, month + shift, 0)).toISOString().slice(0, 10);
}

// The period proposed: the one asked for (the ISV summary's link names its month's end), else the
// month before today's, the one a settlement usually closes; once that is settled (a period ends on
// or after the newest settlement's date), the month of that settlement's date. The payment is dated
// today, or on the period's end when that is still ahead.
function proposal(asked, newest) {
  const day = today();
  let periodEnd = asked || monthEnd(day, -1);
  if (!asked && newest && newest.date > periodEnd) periodEnd = monthEnd(newest.date);
  return { periodEnd, date: periodEnd > day ? periodEnd : day };
}

const entryLink = (id) => (id ? h("a", { href: `#/accounting/entries/${id}`, class: "entry-link" }, `#${id}`) : t("common.none"));

export async function render(ctx) {
  const page = Math.max(1, Number(ctx.query.page) || 1);
  const [answer, banks] = await Promise.all([api.get("/tax-settlements", { page, limit: 20 }),
    listAll("/bank-accounts", "bankAccounts")]);
  const bankName = (id) => banks.find((bank) => bank.id === id)?.name || (id ? `#${id}` : t("common.none"));
  const newest = page === 1 ? answer.taxSettlements[0]
    : (await api.get("/tax-settlements", { page: 1, limit: 1 })).taxSettlements[0];
  const proposed = proposal(/^\d{4}-\d{2}-\d{2}$/.test(ctx.query.periodEnd || "") ? ctx.query.periodEnd : null, newest);
  const tax = t(`tax.name.${ctx.session.company?.country || "HN"}`);
  const settled = justSettled;
  justSettled = null;

  const canSettle = ACCOUNTING_ROLES.includes(ctx.session.me?.role);
  // the payment is the books' own figure: only a bank account in the company's currency pays it
  const payers = banks.filter((bank) => bank.isActive && bank.currency === companyCurrency());
  const form = canSettle ? formView({
    className: "settle-form",
    fields: [
      { name: "periodEnd", label: t("tax.periodEnd"), type: "date", required: true },
      { name: "date", label: t("tax.date"), type: "date", required: true },
      { name: "bankAccountId", label: t("tax.bankAccount"), type: "select", numeric: true,
        options: payers.map((bank) => ({ value: bank.id, label: `${bank.name} (${bank.currency})` })) },
      { name: "includeWithholdings", label: t("tax.includeWithholdings"), type: "checkbox", value: false },
    ],
    values: { ...proposed, bankAccountId: payers[0]?.id },
    submitLabel: t("tax.settle"),
    onSubmit: async (data) => {
      const saved = await api.post("/tax-settlements", data);
      justSettled = saved;
      toast(t("tax.settled", { tax, amount: money(saved.amountPaid) }));
      ctx.navigate(PATH);
    },
  }) : null;
  if (form) form.id = "tax-settlement-form";

  const table = tableView({ rows: answer.taxSettlements, empty: t("tax.empty"), columns: [
    { label: t("tax.date"), class: "nowrap", value: (s) => date(s.date) },
    { label: t("tax.periodEnd"), class: "nowrap", value: (s) => date(s.periodEnd) },
    { label: t("tax.outputTax"), class: "num", value: (s) => money(s.outputTax) },
    { label: t("tax.offset"), class: "num", value: (s) => money(s.offset) },
    { label: t("tax.amountPaid"), class: "num", value: (s) => h("span", { "data-field": "amountPaid" }, money(s.amountPaid)) },
    { label: t("tax.bankAccount"), value: (s) => bankName(s.bankAccountId) },
    { label: t("tax.entry"), value: (s) => entryLink(s.journalEntryId) },
  ] });
  table.id = answer.taxSettlements.length ? "tax-settlements" : "tax-settlements-empty";
  table.querySelectorAll("tbody tr").forEach((tr, i) => {
    const row = answer.taxSettlements[i];
    tr.dataset.settlement = row.id;
    if (settled && row.id === settled.id) tr.classList.add("highlight");
  });

  append(ctx.root, [
    pageHeader(t("tax.title")),
    h("p", { class: "help" }, t("tax.intro", { tax })),
    settled ? outcome(settled, bankName) : null,
    section(t("tax.settleTitle", { tax }), form ? [form, h("p", { class: "help" }, t("tax.formHelp"))]
      : h("p", { class: "help", id: "tax-settlement-read-only" }, t("tax.readOnly"))),
    section(t("tax.list"), h("div", { class: "table-scroll" }, table),
      answer.total > 20 ? pagerView({ page, limit: 20, total: answer.total,
        onPage: (next) => ctx.navigate(withQuery(PATH, { page: next })) }) : null),
  ]);
}

// What the settlement just recorded did: its figures, the bank account that paid, its entry.
function outcome(settlement, bankName) {
  return h("section", { class: "card notice", id: "tax-settlement-done", role: "status" },
    h("h2", {}, t("tax.done", { periodEnd: date(settlement.periodEnd) })),
    definitionList([
      [t("tax.outputTax"), money(settlement.outputTax)],
      [t("tax.inputTax"), money(settlement.inputTax)],
      [t("tax.offset"), money(settlement.offset)],
      [t("tax.taxPaid"), money(settlement.taxPaid)],
      settlement.includeWithholdings ? [t("tax.withholdingsPaid"), money(settlement.withholdingsPaid)] : null,
      [t("tax.amountPaid"), h("strong", { id: "tax-settlement-paid" }, money(settlement.amountPaid))],
      [t("tax.creditCarriedForward"), money(settlement.creditCarriedForward)],
      [t("tax.bankAccount"), bankName(settlement.bankAccountId)],
      [t("tax.date"), date(settlement.date)],
      [t("tax.entry"), entryLink(settlement.journalEntryId)],
    ]));
}
