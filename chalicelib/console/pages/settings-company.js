// Settings, Company: the current company's data (PUT with its version) and a new company of
// one's own, which the company switcher then offers. An El Salvador company also keeps here what
// it signs and sends its DTEs with: the signing key (a PEM file or pasted) and the tax authority's
// API password, both write-only (the API answers the key's fingerprint and the user, never them).
import { ApiError, api } from "../api.js";
import { h, replace } from "../dom.js";
import { dateTime, setCurrency } from "../format.js";
import { addStrings, setCountry, t } from "../i18n.js";
import { button, definitionList, formDialog, formView, pageHeader, section, toast } from "../ui.js";

addStrings({
  es: {
    "company.title": "Empresa", "company.name": "Razón social", "company.taxId": "RTN / NIT", "company.country": "País",
    "company.currency": "Moneda", "company.address": "Dirección", "company.email": "Correo electrónico",
    "company.phone": "Teléfono", "company.creditLimitPolicy": "Límite de crédito de clientes",
    "company.policy.off": "No controlar", "company.policy.warn": "Advertir al emitir",
    "company.policy.block": "Bloquear la emisión", "company.allowNegativeStock": "Permitir existencias negativas",
    "company.country.HN": "Honduras", "company.country.SV": "El Salvador", "company.saved": "Datos de la empresa guardados.",
    "company.new": "Crear otra empresa", "company.newHelp": "Usted será su propietario; luego elíjala en el selector de empresa (arriba).",
    "company.created": "Empresa «{name}» creada. Elíjala en el selector de empresa.", "company.id": "Número de empresa",
    "company.version": "Versión", "company.updatedAt": "Actualizada",
    "dte.settings": "Facturación electrónica (DTE)",
    "dte.settings.help": "Con estos datos la empresa firma sus DTE y los envía a Hacienda. No se vuelven a mostrar: "
      + "para cambiarlos, cárguelos de nuevo.",
    "dte.issuer.nrc": "NRC", "dte.issuer.activity": "Actividad económica", "dte.issuer.environment": "Ambiente",
    "dte.issuer.environment.00": "Pruebas", "dte.issuer.environment.01": "Producción",
    "dte.issuer.missing": "Faltan los datos de emisor (NRC, actividad, departamento y municipio): se registran con "
      + "PUT /companies/{id} (dteIssuer).",
    "dte.key.title": "Llave de firma", "dte.key.none": "No se ha cargado ninguna llave.",
    "dte.key.fingerprint": "Huella (SHA-256 de la llave pública)", "dte.key.bits": "Tamaño", "dte.key.bitsValue": "{bits} bits",
    "dte.key.updatedAt": "Cargada", "dte.key.file": "Archivo PEM de la llave privada",
    "dte.key.paste": "…o pegue la llave privada (PEM)", "dte.key.upload": "Cargar llave",
    "dte.key.saved": "Llave de firma guardada.",
    "dte.key.help": "La llave privada del certificado que emitió Hacienda (RSA, al menos 2048 bits). Se guarda cifrada.",
    "dte.password.title": "Contraseña de la API de Hacienda", "dte.password.none": "No se ha registrado la contraseña.",
    "dte.password.user": "Usuario (NIT)", "dte.password.updatedAt": "Registrada", "dte.password.field": "Contraseña",
    "dte.password.save": "Guardar contraseña", "dte.password.saved": "Contraseña de Hacienda guardada.",
    "dte.password.help": "Se guarda cifrada y nunca se muestra.",
  },
  en: {
    "company.title": "Company", "company.name": "Legal name", "company.taxId": "Tax id (RTN / NIT)", "company.country": "Country",
    "company.currency": "Currency", "company.address": "Address", "company.email": "E-mail",
    "company.phone": "Phone", "company.creditLimitPolicy": "Customer credit limit",
    "company.policy.off": "Do not check", "company.policy.warn": "Warn when issuing",
    "company.policy.block": "Block issuing", "company.allowNegativeStock": "Allow negative stock",
    "company.country.HN": "Honduras", "company.country.SV": "El Salvador", "company.saved": "Company data saved.",
    "company.new": "Create another company", "company.newHelp": "You will be its owner; then pick it in the company switcher (top).",
    "company.created": "Company “{name}” created. Pick it in the company switcher.", "company.id": "Company number",
    "company.version": "Version", "company.updatedAt": "Updated",
    "dte.settings": "Electronic invoicing (DTE)",
    "dte.settings.help": "The company signs its DTEs and sends them to the tax authority with these. They are not shown "
      + "again: to change them, upload them again.",
    "dte.issuer.nrc": "NRC", "dte.issuer.activity": "Economic activity", "dte.issuer.environment": "Environment",
    "dte.issuer.environment.00": "Test", "dte.issuer.environment.01": "Production",
    "dte.issuer.missing": "The issuer's data (NRC, activity, department and municipality) are missing: they are set "
      + "with PUT /companies/{id} (dteIssuer).",
    "dte.key.title": "Signing key", "dte.key.none": "No key uploaded yet.",
    "dte.key.fingerprint": "Fingerprint (SHA-256 of the public key)", "dte.key.bits": "Size", "dte.key.bitsValue": "{bits} bits",
    "dte.key.updatedAt": "Uploaded", "dte.key.file": "The private key's PEM file",
    "dte.key.paste": "…or paste the private key (PEM)", "dte.key.upload": "Upload key",
    "dte.key.saved": "Signing key saved.",
    "dte.key.help": "The private key of the certificate the tax authority issued (RSA, 2048 bits or more). Kept encrypted.",
    "dte.password.title": "The tax authority's API password", "dte.password.none": "No password set yet.",
    "dte.password.user": "User (NIT)", "dte.password.updatedAt": "Set", "dte.password.field": "Password",
    "dte.password.save": "Save password", "dte.password.saved": "Tax authority password saved.",
    "dte.password.help": "Kept encrypted and never shown.",
  },
});

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
      { name: "country", label: t("company.country"), type: "select", required: true, options: countries() },
      { name: "currency", label: t("company.currency"), type: "select", required: true,
        options: ["HNL", "USD"].map((c) => ({ value: c, label: c })) },
      { name: "address", label: t("company.address"), type: "textarea", emptyAs: null },
      { name: "email", label: t("company.email"), type: "email", emptyAs: null },
      { name: "phone", label: t("company.phone"), emptyAs: null },
      { name: "creditLimitPolicy", label: t("company.creditLimitPolicy"), type: "select", required: true,
        options: ["off", "warn", "block"].map((p) => ({ value: p, label: t(`company.policy.${p}`) })) },
      { name: "allowNegativeStock", label: t("company.allowNegativeStock"), type: "checkbox" },
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
