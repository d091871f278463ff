// issue 44: console-reports. The cash-flow statement (indirect method, NIIF para PYMES section 7):
// the operating, investing and financing activities with their lines and totals, the net flow,
// the effect of exchange-rate changes on cash (the month-end revaluations of foreign banks: shown
// when there is one), the opening and closing cash and the check that opening + net flow + effect =
// closing; a comparison period as a second column; the downloads as the other reports. Figures are
// the API's.
import { h } from "../dom.js";
import { date, money, today } from "../format.js";
import { t } from "../i18n.js";
import { section } from "../ui.js";
import { dateField, reportPage } from "./reports.js";

const ACTIVITIES = ["operatingActivities", "investingActivities", "financingActivities"];

// A row: its label and its amount(s), with the attributes a reader (or a test) finds it by.
function row(attributes, label, amounts, className) {
  return h("tr", { class: className, ...attributes }, h("td", {}, label),
    amounts.map((amount) => h("td", { class: "num" }, money(amount))));
}

// the lines that are no account, in the console's language (the API names them in Spanish): the
// net result and the adjustment for the unrealised exchange difference on cash
const NAMED_LINES = ["netResult", "adjustment"];

const hasExchangeEffect = (r) => Number(r.exchangeRateEffect) !== 0
  || (r.compareExchangeRateEffect != null && Number(r.compareExchangeRateEffect) !== 0);

function lineLabel(line) {
  const account = line.code ? h("a", { href: `#/accounting/ledger?chartOfAccountId=${line.chartOfAccountId}` }, line.code) : null;
  const label = !line.chartOfAccountId && NAMED_LINES.includes(line.key) ? t(`mend.cf.line.${line.key}`) : line.label;
  return [account, account ? " · " : null, label];
}

function cashFlowTable(r) {
  const compared = Boolean(r.compareStartDate);
  const pair = (value, compareValue) => (compared ? [value, compareValue] : [value]);
  const column = (from, to) => t("rep.periodColumn", { from: date(from), to: date(to) });
  const rows = [];
  for (const name of ACTIVITIES) {
    const activity = r[name];
    rows.push(h("tr", { class: "statement-heading" }, h("th", { scope: "rowgroup", colspan: compared ? 3 : 2 },
      t(`mend.cf.${name}`))));
    for (const line of activity.lines) {
      rows.push(row({ "data-line": line.key, "data-section": name }, lineLabel(line), pair(line.amount, line.compareAmount)));
    }
    if (!activity.lines.length) {
      rows.push(h("tr", {}, h("td", { class: "empty", colspan: compared ? 3 : 2 }, t("mend.cf.noMovements"))));
    }
    rows.push(row({ "data-figure": `${name}.total` }, t(`mend.cf.total.${name}`), pair(activity.total, activity.compareTotal),
      "statement-total"));
  }
  rows.push(row({ "data-figure": "netCashFlow" }, t("mend.cf.netCashFlow"), pair(r.netCashFlow, r.compareNetCashFlow),
    "statement-total strong"));
  if (hasExchangeEffect(r)) {
    rows.push(row({ "data-figure": "exchangeRateEffect" }, t("mend.cf.exchangeRateEffect"),
      pair(r.exchangeRateEffect, r.compareExchangeRateEffect)));
  }
  rows.push(row({ "data-figure": "openingCash" }, t("mend.cf.openingCash"), pair(r.openingCash, r.compareOpeningCash)));
  rows.push(row({ "data-figure": "closingCash" }, t("mend.cf.closingCash"), pair(r.closingCash, r.compareClosingCash),
    "statement-total strong"));
  return h("div", { class: "table-scroll" }, h("table", { class: "grid report statement", id: "cash-flow" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("mend.cf.concept")),
      h("th", { scope: "col", class: "num" }, column(r.startDate, r.endDate)),
      compared ? h("th", { scope: "col", class: "num" }, column(r.compareStartDate, r.compareEndDate)) : null)),
    h("tbody", {}, rows)));
}

const CASH_FLOW = {
  path: "/reports/cash-flow", route: "/reports/cash-flow", title: "mend.cf.title",
  get fields() {
    return [dateField("startDate", true), dateField("endDate", true), dateField("compareStartDate"), dateField("compareEndDate")];
  },
  defaults: () => ({ startDate: `${today().slice(0, 7)}-01`, endDate: today() }),
  query: (r) => ({ startDate: r.startDate, endDate: r.endDate, compareStartDate: r.compareStartDate,
                   compareEndDate: r.compareEndDate }),
  file: (r) => `flujo-de-efectivo-${r.startDate}-${r.endDate}${r.compareStartDate
    ? `-vs-${r.compareStartDate}-${r.compareEndDate}` : ""}`,
  draw(r) {
    const subtitle = r.compareStartDate
      ? t("rep.periodCompared", { from: date(r.startDate), to: date(r.endDate), cfrom: date(r.compareStartDate),
                                  cto: date(r.compareEndDate) })
      : t("rep.period", { from: date(r.startDate), to: date(r.endDate) });
    return [
      h("p", { id: "report-status" }, h("span", { class: `badge badge-${r.balanced ? "completed" : "failed"}` },
        t(r.balanced ? "mend.cf.balanced" : "mend.cf.unbalanced")),
      " ", h("span", { class: "help" }, t(hasExchangeEffect(r) ? "mend.cf.checkWithEffect" : "mend.cf.check", {
        opening: money(r.openingCash), flow: money(r.netCashFlow), effect: money(r.exchangeRateEffect),
        closing: money(r.closingCash) }))),
      section(subtitle, h("p", { class: "help" }, t("mend.cf.method"), " ",
        h("strong", { id: "cash-flow-net-result" }, money(r.netResult))), cashFlowTable(r)),
    ];
  },
};

export const cashFlow = (ctx) => reportPage(ctx, CASH_FLOW);
