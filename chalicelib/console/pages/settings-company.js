// Settings, Company: the current company's data (PUT with its version) and a new company of
// one's own, which the company switcher then offers. An El Salvador company also keeps here what
// it signs and sends its DTEs with: the signing key (a PEM file or pasted) and the tax authority's
// API password, both write-only (the API answers the key's fingerprint and the user, never them).
import { ApiError, api } from "../api.js";
import { h, replace } from "../dom.js";
import { dateTime, setCurrency } from "../format.js";
import { setCountry, t } from "../i18n.js";
import { button, definitionList, formDialog, formView, pageHeader, section, toast } from "../ui.js";

const countries = () => ["HN", "SV"].map((c) => ({ value: c, label: t(`company.country.${c}`) }));

// What the API keeps of a write-only secret: its answer, or null when none was stored yet (404).
const stored = (path) => api.get(path).catch((error) => {
  if (error instanceof ApiError && error.status === 404) return null;
  throw error;
});

// El Salvador: the issuer's data as the API holds them, the signing key and the authority's
// password. Each form sends its secret once and is cleared; what is shown is the API's answer.
async function dteSettings(company) {
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
    ]) : h("p", { class: "notice notice-warning" }, t("dte.issuer.missing")),
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
    ...(company.country === "SV" ? [await dteSettings(company)] : []));
}
