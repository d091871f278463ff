// Settings, Company: the current company's data (PUT with its version) and a new company of
// one's own, which the company switcher then offers. An El Salvador company also keeps here what
// it signs and sends its DTEs with: the signing key (a PEM file or pasted) and the tax authority's
// API password, both write-only (the API answers the key's fingerprint and the user, never them);
// and the issuer's data the 2026 formats ask (the date from which it issues in them, each
// establishment's type, the district of its address).
import { ApiError, api } from "../api.js";
import { h, replace } from "../dom.js";
import { date, dateTime, setCurrency } from "../format.js";
import { setCountry, t } from "../i18n.js";
import { linkPlaces, placeFields, placeName, placeSent } from "../sv-address.js";
import { button, definitionList, formDialog, formView, pageHeader, section, toast } from "../ui.js";
import { exportSection } from "./settings-company-export.js";

const countries = () => ["HN", "SV"].map((c) => ({ value: c, label: t(`company.country.${c}`) }));

// What the API keeps of a write-only secret: its answer, or null when none was stored yet (404).
const stored = (path) => api.get(path).catch((error) => {
  if (error instanceof ApiError && error.status === 404) return null;
  throw error;
});

// CAT-009: 01 branch, 02 head office, 04 warehouse, 07 yard, 20 other (no letter in a 2026 control number)
const ESTABLISHMENT_TYPES = ["02", "01", "04", "07", "20"];
const establishmentTypes = () => ESTABLISHMENT_TYPES.map((code) => ({ value: code, label: `${code} · ${t(`dte.establishmentType.${code}`)}` }));
const ISSUER = "dteIssuer.";

// The establishments (by the EEE of document numbers) whose type is not the company's: rows of code and type.
function establishmentsEditor(listed) {
  const rows = h("div", { class: "establishment-rows" });
  const add = (establishment = {}) => {
    const n = rows.children.length;
    const type = h("select", { id: `f-establishment-${n}-type`, class: "establishment-type" },
      establishmentTypes().map((option) => h("option", { value: option.value,
        selected: option.value === (establishment.type || "01") || undefined }, option.label)));
    const row = h("div", { class: "establishment-row" },
      h("div", { class: "field" }, h("label", { for: `f-establishment-${n}-code` }, t("dte.establishment.code")),
        h("input", { id: `f-establishment-${n}-code`, class: "establishment-code", value: establishment.code || "",
          placeholder: "001", inputmode: "numeric", maxlength: 3 })),
      h("div", { class: "field" }, h("label", { for: `f-establishment-${n}-type` }, t("dte.establishment.type")), type),
      button(t("dte.establishment.remove"), () => row.remove(), "establishment-remove"));
    rows.append(row);
  };
  (listed || []).forEach(add);
  const element = h("div", { class: "field establishments", id: "dte-establishments", "data-field": `${ISSUER}establishments` },
    h("label", {}, t("dte.establishments")), h("small", { class: "help" }, t("dte.establishments.help")), rows,
    h("div", {}, button(t("dte.establishment.add"), () => add(), "establishment-add")));
  // each row named as the API names its refusals (dteIssuer.establishments[0].code), by its place now
  const read = () => [...rows.querySelectorAll(".establishment-row")].map((row, index) => {
    const [code, type] = [row.querySelector(".establishment-code"), row.querySelector(".establishment-type")];
    code.dataset.field = `${ISSUER}establishments[${index}].code`;
    type.dataset.field = `${ISSUER}establishments[${index}].type`;
    return { code: code.value.trim(), type: type.value };
  });
  return { element, read };
}

// The issuer's data the 2026 formats ask, sent with the rest of the issuer as the API holds it
// (dteIssuer is replaced whole).
function issuerForm(ctx, company) {
  const issuer = company.dteIssuer;
  const establishments = establishmentsEditor(issuer.establishments);
  const form = formView({
    values: Object.fromEntries(Object.entries(issuer).map(([name, value]) => [`${ISSUER}${name}`, value])),
    fields: [
      { name: `${ISSUER}formats2026From`, label: t("dte.issuer.formats2026From"), type: "date", emptyAs: null,
        help: t("dte.issuer.formats2026From.help") },
      { name: `${ISSUER}establishmentType`, label: t("dte.issuer.establishmentType"), type: "select", required: true,
        options: establishmentTypes(), help: t("dte.issuer.establishmentType.help") },
      ...placeFields(ISSUER, issuer, { required: true, districtHelp: t("place.districtHelp") }),
    ],
    extra: establishments.element,
    submitLabel: t("dte.issuer.save"),
    onSubmit: async (data) => {
      const sent = placeSent(Object.fromEntries(Object.entries(data).map(([name, value]) => [name.slice(ISSUER.length),
        value])));
      const listed = establishments.read();
      // left out while none was ever set: a company's type then serves every establishment
      if (listed.length || issuer.establishments) sent.establishments = listed;
      const { municipality, district, ...kept } = issuer; // the place is the form's: one field names it
      const saved = await api.put(`/companies/${company.id}`, { dteIssuer: { ...kept, ...sent } },
        { headers: { "If-Match": String(company.version) } });
      ctx.session.company = saved;
      toast(t("dte.issuer.saved"));
      ctx.refresh();
    },
  });
  form.id = "dte-issuer-form";
  linkPlaces(form, ISSUER);
  return form;
}

// El Salvador: the issuer's data as the API holds them, the signing key and the authority's
// password. Each form sends its secret once and is cleared; what is shown is the API's answer.
async function dteSettings(ctx, company) {
  const base = `/companies/${company.id}`;
  const [key, credentials] = await Promise.all([stored(`${base}/dte-signing-key`), stored(`${base}/dte-authority-credentials`)]);
  const issuer = company.dteIssuer;
  const keyFacts = h("div", { id: "dte-key-facts" });
  const showKey = (info) => replace(keyFacts, info ? definitionList([
    [t("dte.key.fingerprint"), h("code", { id: "dte-key-fingerprint" }, info.fingerprint)],
    [t("dte.key.bits"), t("dte.key.bitsValue", { bits: info.bits })],
    [t("dte.key.updatedAt"), dateTime(info.updatedAt)],
  ]) : h("p", { class: "notice notice-warning", id: "dte-key-none" }, t("dte.key.none")));
  showKey(key);
  const keyForm = formView({
    fields: [
      { name: "privateKey", label: t("dte.key.paste"), type: "textarea", required: true, autocomplete: "off",
        placeholder: "-----BEGIN PRIVATE KEY-----" },
    ],
    submitLabel: t("dte.key.upload"),
    onSubmit: async (data, form) => {
      const saved = await api.put(`${base}/dte-signing-key`, { privateKey: data.privateKey });
      form.reset();  // the key is not kept on the page
      showKey(saved);
      toast(t("dte.key.saved"));
    },
  });
  keyForm.id = "dte-key-form";
  const pasted = keyForm.querySelector("#f-privateKey");
  const file = h("input", { type: "file", id: "f-privateKeyFile", accept: ".pem,.key,.txt,application/x-pem-file",
    onchange: async () => { if (file.files[0]) pasted.value = await file.files[0].text(); } });
  keyForm.prepend(h("div", { class: "field" }, h("label", { for: "f-privateKeyFile" }, t("dte.key.file")), file,
    h("small", { class: "help" }, t("dte.key.help"))));

  const passwordFacts = h("div", { id: "dte-password-facts" });
  const showPassword = (info) => replace(passwordFacts, info ? definitionList([
    [t("dte.password.user"), h("code", { id: "dte-password-user" }, info.user)],
    [t("dte.password.updatedAt"), h("span", { id: "dte-password-updated" }, dateTime(info.updatedAt))],
  ]) : h("p", { class: "notice notice-warning", id: "dte-password-none" }, t("dte.password.none")));
  showPassword(credentials);
  const passwordForm = formView({
    fields: [{ name: "password", label: t("dte.password.field"), type: "password", required: true,
      autocomplete: "new-password", help: t("dte.password.help") }],
    submitLabel: t("dte.password.save"),
    onSubmit: async (data, form) => {
      const saved = await api.put(`${base}/dte-authority-credentials`, { password: data.password });
      form.reset();
      showPassword(saved);
      toast(t("dte.password.saved"));
    },
  });
  passwordForm.id = "dte-password-form";

  const element = section(t("dte.settings"), h("p", { class: "help" }, t("dte.settings.help")),
    issuer ? definitionList([
      [t("dte.issuer.nrc"), issuer.nrc],
      [t("dte.issuer.activity"), `${issuer.economicActivityCode} · ${issuer.economicActivity}`],
      [t("dte.issuer.environment"), t(`dte.issuer.environment.${issuer.environment}`)],
      [t("dte.issuer.formats"), h("span", { id: "dte-formats", "data-from": issuer.formats2026From || "" },
        issuer.formats2026From ? t("dte.issuer.formats.2026", { date: date(issuer.formats2026From) }) : t("dte.issuer.formats.legacy"))],
      [t("place.title"), h("span", { id: "dte-issuer-place", "data-district": issuer.district || "" }, placeName(issuer))],
    ]) : h("p", { class: "notice notice-warning" }, t("dte.issuer.missing")),
    issuer ? h("div", {}, h("h3", {}, t("dte.issuer.title")), issuerForm(ctx, company)) : null,
    h("div", { class: "columns" },
      h("div", {}, h("h3", {}, t("dte.key.title")), keyFacts, keyForm),
      h("div", {}, h("h3", {}, t("dte.password.title")), passwordFacts, passwordForm)));
  element.classList.add("dte-settings");
  element.id = "dte-settings";
  return element;
}

export async function render(ctx) {
  const company = await api.get("/companies");
  const form = formView({
    values: company, submitLabel: t("common.save"),
    fields: [
      { name: "name", label: t("company.name"), required: true },
      { name: "taxId", label: t("company.taxId"), emptyAs: null },
      // fixed once the company posts (409 COMPANY_HAS_POSTINGS, shown under the field)
      { name: "country", label: t("company.country"), type: "select", required: true, options: countries(),
        help: t("company.fixedOncePosted") },
      { name: "currency", label: t("company.currency"), type: "select", required: true,
        options: ["HNL", "USD"].map((c) => ({ value: c, label: c })), help: t("company.fixedOncePosted") },
      { name: "address", label: t("company.address"), type: "textarea", emptyAs: null },
      { name: "email", label: t("company.email"), type: "email", emptyAs: null },
      { name: "phone", label: t("company.phone"), emptyAs: null },
      { name: "creditLimitPolicy", label: t("company.creditLimitPolicy"), type: "select", required: true,
        options: ["off", "warn", "block"].map((p) => ({ value: p, label: t(`company.policy.${p}`) })) },
      { name: "allowNegativeStock", label: t("company.allowNegativeStock"), type: "checkbox" },
      { name: "exchangeRateTolerancePercent", label: t("company.exchangeRateTolerancePercent"), type: "number",
        min: "0", required: true },
    ],
    onSubmit: async (data) => {
      const saved = await api.put(`/companies/${company.id}`, data, { headers: { "If-Match": String(company.version) } });
      ctx.session.company = saved;
      setCountry(saved.country);
      setCurrency(saved.currency);
      toast(t("company.saved"));
      ctx.refresh();
    },
  });
  const create = () => formDialog(t("company.new"), {
    fields: [
      { name: "name", label: t("company.name"), required: true },
      { name: "country", label: t("company.country"), type: "select", required: true, options: countries() },
      { name: "taxId", label: t("company.taxId") },
    ],
    submitLabel: t("common.create"),
    extra: h("p", { class: "help" }, t("company.newHelp")),
    onSubmit: (data) => api.post("/companies", data),
  }, (created) => {
    toast(t("company.created", { name: created.name }));
    ctx.session.me = null;  // the switcher lists the companies of GET /auth/me: load it again
    ctx.navigate("/");
  });
  ctx.root.append(pageHeader(t("company.title"), button(t("company.new"), create)),
    section(company.name, definitionList([
      [t("company.id"), String(company.id)],
      [t("company.version"), String(company.version)],
      [t("company.updatedAt"), dateTime(company.updatedAt)],
    ])),
    section(null, form),
    ...(company.country === "SV" ? [await dteSettings(ctx, company)] : []),
    exportSection());
}
