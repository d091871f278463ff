// Amounts in the company's currency and locale, dates as the locale writes them. The API sends
// amounts as JSON numbers with two decimals; they are shown, never computed with, here.
import { locale, t } from "./i18n.js";

let currency = "HNL";
export function setCurrency(value) { currency = value || "HNL"; }
export function companyCurrency() { return currency; }

export function money(amount, code) {
  if (amount === null || amount === undefined || amount === "") return t("common.none");
  return new Intl.NumberFormat(locale(), { style: "currency", currency: code || currency }).format(Number(amount));
}

// A unit cost: the API answers average costs with four decimals, shown as they are.
export function unitCost(amount, code) {
  if (amount === null || amount === undefined || amount === "") return t("common.none");
  return new Intl.NumberFormat(locale(), { style: "currency", currency: code || currency, minimumFractionDigits: 4,
    maximumFractionDigits: 4 }).format(Number(amount));
}

// An exchange rate (the company's currency per unit of another, up to 6 decimals): 24.50, 24.5123.
export function exchangeRate(value) {
  if (value === null || value === undefined || value === "") return t("common.none");
  return new Intl.NumberFormat(locale(), { minimumFractionDigits: 2, maximumFractionDigits: 6 }).format(Number(value));
}

// A document, payment or movement in a currency other than the company's.
export function isForeign(code) { return Boolean(code) && code !== currency; }

// A document's type as a person names it: an El Salvador DTE by the authority's name of its type
// (a 03 is a comprobante de crédito fiscal, not an invoice), else the API's type.
export function documentTypeName(document) {
  const tipo = document && document.dte && document.dte.tipoDte;
  return tipo ? t(`dte.tipo.${tipo}`) : t(`doctype.${document.type}`);
}

export function number(value, digits = 2) {
  if (value === null || value === undefined || value === "") return t("common.none");
  return new Intl.NumberFormat(locale(), { minimumFractionDigits: 0, maximumFractionDigits: digits }).format(Number(value));
}

// "2026-11-24" is a calendar date: shown as such, without a time zone shift.
export function date(value) {
  if (!value) return t("common.none");
  const [year, month, day] = String(value).slice(0, 10).split("-").map(Number);
  return new Intl.DateTimeFormat(locale(), { dateStyle: "medium", timeZone: "UTC" })
    .format(new Date(Date.UTC(year, month - 1, day)));
}

export function dateTime(value) {
  if (!value) return t("common.none");
  return new Intl.DateTimeFormat(locale(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(value));
}

export function percent(rate) {
  return new Intl.NumberFormat(locale(), { style: "percent", maximumFractionDigits: 2 }).format(Number(rate || 0));
}

export function today() {
  const now = new Date();
  const pad = (n) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

// A document as a person names it: El Salvador's número de control once it has a DTE, else its fiscal number.
export function documentName(document) {
  if (!document) return "";
  return (document.dte && document.dte.numeroControl) || document.number || `#${document.id}`;
}

// A document's type and name together, as a title or a link reads: "Comprobante de crédito fiscal DTE-03-…".
export function documentTitle(document) {
  return `${documentTypeName(document)} ${documentName(document)}`;
}

// issue 38: names2. A document another record points at (a bank movement, a gateway's notification,
// a schedule's last run): named from the number fields the API answers beside its id.
export function linkedDocumentName(id, number, numeroControl) {
  return documentName({ id, number, dte: numeroControl ? { numeroControl } : null });
}
