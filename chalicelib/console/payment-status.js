// A document's two statuses as people read them: where it is in its life (draft, confirmed,
// cancelled) and, when it carries a balance, what is left to pay (the API's paymentStatus:
// unpaid, partially paid, paid, overdue, judged by the company's today).
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { badge } from "./ui.js";

export const PAYMENT_STATUSES = ["unpaid", "partially_paid", "paid", "overdue"];

export function paymentBadge(doc) {
  return doc && doc.paymentStatus ? badge(doc.paymentStatus) : null;
}

// "Confirmado · Pagada": the lifecycle badge, then the payment badge when there is one.
export function statusBadges(doc) {
  const paid = paymentBadge(doc);
  return h("span", { class: "status-badges", "data-payment-status": doc.paymentStatus || "" },
    badge(doc.status), paid ? [" ", paid] : null);
}

// "12 días": how long an overdue document has waited (the API's daysOverdue).
// "1 día" / "2 días": the locale's plural of a count of days.
export const daysCount = (days) => t(days === 1 ? "paystatus.daysOverdue.one" : "paystatus.daysOverdue",
  { days: String(days) });
export const daysOverdue = (doc) => daysCount(doc.daysOverdue ?? 0);
