// issue 44: console-reports. The month-end revaluation, a card of the periods page: a date (a month
// end) and the foreign currencies; "Vista previa" asks the API for a dry run (nothing written) and
// shows its lines and totals, "Registrar" posts it (the entry on that day and its reversal on the
// next; a large company's in several parts, each an entry and its reversal); under them the
// revaluations made, each with its entries, and one left half-posted (`posting`) finished by
// posting its date again; "Anular" voids one (fix-reval2). Figures are the API's.
import { api } from "../api.js";
import { h, replace } from "../dom.js";
import { companyCurrency, date, dateTime, exchangeRate, money } from "../format.js";
import { ACCOUNTING_ROLES, CURRENCIES, t } from "../i18n.js";
import { badge, confirmAction, describeError, loadInto, showErrors, tableView, toast } from "../ui.js";

// the last day of the month before today's: the usual month end to revalue
function lastMonthEnd() {
  const now = new Date();
  return new Date(Date.UTC(now.getFullYear(), now.getMonth(), 0)).toISOString().slice(0, 10);
}

const entryLink = (id) => (id ? h("a", { href: `#/accounting/entries/${id}`, class: "entry-link" }, `#${id}`) : "");
// a revaluation's entries (one per part) or their reversals, older answers naming only the first
const entryLinks = (ids, first) => (ids && ids.length ? ids : [first]).filter(Boolean)
  .flatMap((id, index) => (index ? [", ", entryLink(id)] : [entryLink(id)]));

// Whose balance a line revalues: the partner (and its document) or the bank account.
function holderCell(line) {
  const holder = line.kind === "bank"
    ? h("a", { href: `#/banking/${line.bankAccountId}` }, line.bankAccountName || `#${line.bankAccountId}`)
    : h("a", { href: `#/partners/${line.partnerId}` }, line.partnerName || `#${line.partnerId}`);
  const document = line.documentId
    ? [" · ", h("a", { href: `#/documents/${line.documentId}`, class: "doc-number" }, line.documentNumber || `#${line.documentId}`)]
    : null;
  return [holder, h("small", { class: "cell-note" }, t(`mend.reval.kind.${line.kind}`), document)];
}

const signed = (amount) => h("span", { class: `difference ${Number(amount) < 0 ? "negative" : Number(amount) > 0 ? "positive" : ""}` },
  money(amount));

// The lines of a revaluation (a dry run's or a posted one's) and its totals.
export function revaluationLines(answer) {
  const lines = tableView({ rows: answer.lines, empty: t("mend.reval.nothing"), columns: [
    { label: t("mend.reval.holder"), value: holderCell },
    { label: t("mend.reval.foreignAmount"), class: "num", value: (l) => money(l.foreignAmount, l.currency) },
    { label: t("mend.reval.bookedAmount"), class: "num", value: (l) => money(l.bookedAmount) },
    { label: t("mend.reval.rate"), class: "num", value: (l) => exchangeRate(l.rate) },
    { label: t("mend.reval.revaluedAmount"), class: "num", value: (l) => money(l.revaluedAmount) },
    { label: t("mend.reval.difference"), class: "num", value: (l) => signed(l.difference) },
  ] });
  const figure = (id, label, value, node) => h("div", { class: "figure", id }, h("span", { class: "figure-label" }, label),
    h("strong", {}, node || money(value)));
  return [
    h("div", { class: "figures" },
      figure("reval-gain", t("mend.reval.totalGain"), answer.totalGain),
      figure("reval-loss", t("mend.reval.totalLoss"), answer.totalLoss),
      figure("reval-net", t("mend.reval.net"), null, signed(answer.netDifference))),
    h("div", { class: "table-scroll", id: "reval-lines" }, lines),
  ];
}

function checkbox(code) {
  return h("label", { class: "field-check reval-currency" },
    h("input", { type: "checkbox", name: "currencies", value: code, checked: true, "data-field": "currencies" }), ` ${code}`);
}

// The foreign currencies the company has recorded rates of: the only ones a revaluation can convert
// (another would be refused for want of a rate), in the console's order.
async function ratedCurrencies() {
  const answer = await api.get("/exchange-rates").catch(() => ({}));
  const rated = new Set((answer.exchangeRates || []).map((rate) => rate.currency));
  return [...CURRENCIES, ...rated].filter((code, at, all) => rated.has(code) && code !== companyCurrency()
    && all.indexOf(code) === at);
}

export async function revaluations(ctx) {
  const canAct = ACCOUNTING_ROLES.includes(ctx.session.me?.role);
  const foreign = await ratedCurrencies();
  const list = h("div", { id: "revaluations" });
  const result = h("div", { id: "revaluation-result" });
  const dateInput = h("input", { type: "date", id: "f-revaluation-date", name: "date", "data-field": "date", required: true,
    value: lastMonthEnd() });
  const form = h("form", { class: "form reval-form", id: "revaluation-form", novalidate: true },
    h("div", { class: "field" }, h("label", { for: "f-revaluation-date" }, t("mend.reval.date")), dateInput,
      h("small", { class: "help" }, t("mend.reval.dateHelp"))),
    h("fieldset", { class: "field reval-currencies" }, h("legend", {}, t("mend.reval.currencies")),
      foreign.length ? foreign.map(checkbox) : h("small", { class: "help", id: "reval-no-rates" }, t("fix.reval.noRates"))),
    h("div", { class: "form-error" }),
    h("div", { class: "form-actions" },
      h("button", { type: "button", id: "revaluation-preview", onclick: () => send(true) }, t("mend.reval.preview")),
      h("button", { type: "button", id: "revaluation-post", class: "primary", onclick: () => send(false) }, t("mend.reval.post"))));
  form.addEventListener("submit", (event) => { event.preventDefault(); send(true); });
  // every offered currency kept: none sent, so the API revalues every currency the company holds
  // (each needs its rate); fewer chosen: those only
  const body = () => {
    const chosen = [...form.querySelectorAll("input[name=currencies]:checked")].map((input) => input.value);
    return chosen.length === foreign.length ? { date: dateInput.value } : { date: dateInput.value, currencies: chosen };
  };

  async function send(dryRun) {
    const asked = body();
    form.querySelectorAll(".field-error").forEach((node) => node.remove());  // the last refusal's marks gone
    form.querySelectorAll("[aria-invalid]").forEach((node) => node.removeAttribute("aria-invalid"));
    replace(form.querySelector(".form-error"));
    if (!dryRun && !(await confirmAction(t("mend.reval.postConfirm", { date: date(asked.date) })))) return;
    form.querySelectorAll("button").forEach((node) => { node.disabled = true; });
    try {
      const answer = await api.post("/revaluations", { ...asked, dryRun });
      replace(result, h("h3", {}, dryRun ? t("mend.reval.previewOf", { date: date(answer.date) })
        : t("mend.reval.postedOf", { date: date(answer.date) })),
      dryRun ? h("p", { class: "help", id: "reval-dry-run" }, t("mend.reval.previewHelp"))
        : h("p", { id: "reval-entries" }, t("mend.reval.entries"), " ",
          entryLinks(answer.journalEntryIds, answer.journalEntryId), " · ", t("mend.reval.reversal"), " ",
          entryLinks(answer.reversalJournalEntryIds, answer.reversalJournalEntryId)),
      revaluationLines(answer));
      if (!dryRun) {
        toast(t("mend.reval.posted"));
        await refresh();
      }
    } catch (error) {
      // that month end is revalued already: said once, in the page's words (the list shows it)
      if (error.code === "REVALUATION_EXISTS") {
        error.message = t("mend.reval.exists", { date: date(asked.date) });
        error.details = [];
      }
      showErrors(form, error);
    } finally {
      form.querySelectorAll("button").forEach((node) => { node.disabled = false; });
    }
  }

  // a revaluation stopped half-way (its parts balance, the rest is not posted): posting its date
  // again finishes it on the plan it keeps
  // and any not voided can be voided (a payment dated on or before it registered later leaves it
  // out of date): its entries reversed on their own days, its date free to be revalued again
  function statusCell(r) {
    const status = r.status || "posted";
    const note = { posting: "mend.reval.unfinished", voiding: "mend.reval.unfinishedVoid" }[status];
    return [badge(status), note ? h("small", { class: "cell-note" }, t(note)) : null,
      canAct && status === "posting" ? h("button", { type: "button", class: "reval-finish", "data-date": r.date,
        onclick: () => { dateInput.value = r.date; send(false); } }, t("mend.reval.finish")) : null,
      canAct && status !== "voided" ? h("button", { type: "button", class: "reval-void danger", "data-id": r.id,
        onclick: (event) => voidOne(r, event.currentTarget) }, t("mend.reval.void")) : null];
  }

  async function voidOne(r, button) {
    if (!(await confirmAction(t("mend.reval.voidConfirm", { date: date(r.date) })))) return;
    button.disabled = true;
    try {
      await api.post(`/revaluations/${r.id}/void`, {});
      toast(t("mend.reval.voided"));
      await refresh();
    } catch (error) {
      button.disabled = false;
      toast(describeError(error), "error");   // a closed period: said in the API's words
    }
  }

  const refresh = () => loadInto(list, async () => {
    const answer = await api.get("/revaluations");
    return h("div", { class: "table-scroll" }, tableView({ rows: answer.revaluations || answer.data || [],
      empty: t("mend.reval.none"), columns: [
        { label: t("mend.reval.date"), class: "nowrap", value: (r) => date(r.date) },
        { label: t("mend.reval.currencies"), value: (r) => (r.currencies || []).join(", ") },
        { label: t("mend.reval.totalGain"), class: "num", value: (r) => money(r.totalGain) },
        { label: t("mend.reval.totalLoss"), class: "num", value: (r) => money(r.totalLoss) },
        { label: t("mend.reval.net"), class: "num", value: (r) => signed(r.netDifference) },
        { label: t("mend.reval.status"), value: statusCell },
        { label: t("mend.reval.entries"), value: (r) => [entryLinks(r.journalEntryIds, r.journalEntryId), " · ",
          h("small", { class: "help" }, `${t("mend.reval.reversal")} `),
          entryLinks(r.reversalJournalEntryIds, r.reversalJournalEntryId),
          h("small", { class: "cell-note" }, date(r.reversalDate))] },
        { label: t("mend.reval.createdAt"), value: (r) => dateTime(r.createdAt) },
      ] }));
  });
  ctx.root.append(h("section", { class: "card", id: "revaluations-card" }, h("h2", {}, t("mend.reval.title")),
    h("p", { class: "help" }, t("mend.reval.help")), canAct ? [form, result] : null, h("h3", {}, t("mend.reval.made")), list));
  await refresh();
}
