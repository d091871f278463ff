// Exchange rates: what one unit of a foreign currency is worth in the company's currency from a
// date on. The form records one (POST /exchange-rates: a second rate of the same currency and
// date replaces the first); the table lists them, newest first, by currency and dates. Documents
// and payments in that currency take the newest rate on or before their date unless they name
// their own.
import { api } from "../api.js";
import { append, h } from "../dom.js";
import { companyCurrency, date, dateTime, exchangeRate, today } from "../format.js";
import { ACCOUNTING_ROLES, CURRENCIES, t } from "../i18n.js";
import { formView, pageHeader, section, tableView, toast, withQuery } from "../ui.js";

const PATH = "/accounting/exchange-rates";
// who may record a rate (the API's ACCOUNTING permission)

export const foreignCurrencies = () => CURRENCIES.filter((code) => code !== companyCurrency());
export const equivalence = (code, rate, own = companyCurrency()) => `1 ${code} = ${exchangeRate(rate)} ${own}`;

// The rate recorded a moment ago, told once on the page that lists it.
let justRecorded = null;

export async function render(ctx) {
  const own = companyCurrency();
  const foreign = foreignCurrencies();
  const filters = { currency: foreign.includes(ctx.query.currency) ? ctx.query.currency : "",
    startDate: ctx.query.startDate || "", endDate: ctx.query.endDate || "" };
  const answer = await api.get("/exchange-rates", filters);
  const recorded = justRecorded;
  justRecorded = null;

  const canRecord = ACCOUNTING_ROLES.includes(ctx.session.me?.role);
  const form = canRecord && foreign.length ? formView({
    className: "inline",
    fields: [
      { name: "currency", label: t("fx.currency"), type: "select", required: true,
        options: foreign.map((code) => ({ value: code, label: t(`currency.${code}`) })) },
      { name: "date", label: t("fx.date"), type: "date", required: true },
      { name: "rate", label: t("fx.rate", { own }), type: "number", step: "0.000001", min: "0", required: true,
        placeholder: "24.5000" },
    ],
    values: { currency: filters.currency || foreign[0], date: today() },
    submitLabel: t("fx.record"),
    onSubmit: async (data) => {
      const saved = await api.post("/exchange-rates", data);
      justRecorded = saved;
      toast(message(saved));
      ctx.navigate(withQuery(PATH, filters));
    },
  }) : null;
  if (form) form.id = "exchange-rate-form";

  const filterForm = formView({
    className: "inline", submitLabel: t("fx.show"),
    fields: [
      { name: "currency", label: t("fx.currency"), type: "select",
        options: foreign.map((code) => ({ value: code, label: t(`currency.${code}`) })) },
      { name: "startDate", label: t("fx.startDate"), type: "date" },
      { name: "endDate", label: t("fx.endDate"), type: "date" },
    ],
    values: filters,
    onSubmit: (data) => ctx.navigate(withQuery(PATH, data)),
  });
  filterForm.id = "exchange-rate-filter";

  const isRecorded = (r) => recorded && r.currency === recorded.currency && r.date === recorded.date;
  const table = tableView({ rows: answer.exchangeRates, empty: t("fx.empty"), columns: [
    { label: t("fx.date"), value: (r) => date(r.date) },
    { label: t("fx.currency"), value: (r) => r.currency },
    { label: t("fx.equivalence"), class: "num",
      value: (r) => h("span", { "data-rate": String(r.rate) }, equivalence(r.currency, r.rate, r.companyCurrency)) },
    { label: t("fx.updatedAt"), value: (r) => dateTime(r.updatedAt) },
  ] });
  table.id = "exchange-rates";
  table.querySelectorAll("tbody tr").forEach((tr, i) => {
    if (isRecorded(answer.exchangeRates[i])) tr.classList.add("highlight");
  });

  append(ctx.root, [
    pageHeader(t("fx.title")),
    h("p", { class: "help" }, t("fx.intro", { own })),
    recorded ? h("p", { class: "notice", id: "exchange-rate-recorded", role: "status" }, message(recorded)) : null,
    section(t("fx.record"), form ? [h("p", { class: "help" }, t("fx.rateHelp")), form]
      : h("p", { class: "help" }, foreign.length ? t("fx.readOnly") : t("fx.noForeign", { own }))),
    section(t("fx.list"), filterForm, table,
      h("p", { class: "help", id: "exchange-rate-count" }, t("fx.total", { total: answer.total })))]);
}

function message(saved) {
  const values = { currency: saved.currency, rate: exchangeRate(saved.rate), own: saved.companyCurrency,
    date: date(saved.date) };
  return t(saved.createdAt === saved.updatedAt ? "fx.recorded" : "fx.replaced", values);
}
