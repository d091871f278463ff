// Labels in Spanish (es-HN) by default, English on request: one file per language
// (locales/es.js, locales/en.js), the same keys in both.
import en from "./locales/en.js";
import es from "./locales/es.js";

const LANGUAGES = ["es", "en"];
const strings = { es, en };
let current = localStorage.getItem("console.language") || "es";
if (!LANGUAGES.includes(current)) current = "es";
let country = "HN";

export function language() { return current; }

export function setLanguage(value) {
  current = LANGUAGES.includes(value) ? value : "es";
  localStorage.setItem("console.language", current);  // a preference, nothing secret
  document.documentElement.lang = current;
}

export function setCountry(value) { country = value || "HN"; }

// The locale numbers and dates are shown in: the language, in the company's country.
export function locale() { return current === "en" ? `en-${country}` : `es-${country}`; }

// t("key", {name: "x"}) -> the label in the current language; unknown keys fall back to English,
// then to a readable form of the key itself (a field name such as "creditDays").
export function t(key, values) {
  let text = strings[current][key] ?? strings.en[key] ?? humanize(key);
  for (const [name, value] of Object.entries(values || {})) text = text.replaceAll(`{${name}}`, value);
  return text;
}

export function humanize(key) {
  const words = String(key).replace(/^.*\./, "").replace(/_/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export const DOCUMENT_TYPES = ["01", "06", "07", "100", "101", "112", "113", "103", "104", "105", "106", "102", "11", "05"];
// the currencies a document, bank account or exchange rate may be in
export const CURRENCIES = ["HNL", "USD"];
export const ROLES = ["owner", "admin", "accountant", "seller", "viewer"];
// the roles with the accounting permission (chalicelib/domain/roles.py): the books' own actions
export const ACCOUNTING_ROLES = ["owner", "admin", "accountant"];
// the roles with the write permission: records (documents, entries, their papers), not the books' own actions
export const WRITE_ROLES = ["owner", "admin", "accountant", "seller"];

