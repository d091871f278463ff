// Settings, Company: the current company's data (PUT with its version) and a new company of
// one's own, which the company switcher then offers.
import { api } from "../api.js";
import { h } from "../dom.js";
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
  },
});

const countries = () => ["HN", "SV"].map((c) => ({ value: c, label: t(`company.country.${c}`) }));

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
    section(null, form));
}
