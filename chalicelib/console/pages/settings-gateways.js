// issue 43: console. Settings, payment gateways: each company's card gateways per provider (PixelPay
// in Honduras, Wompi in El Salvador), their mode (test or production), the payment method whose bank
// account is the gateway's clearing account, the provider's fee, and the credentials: the key id is
// read back, the secret never (only whether one is set and its fingerprint). Each gateway's decided
// notifications, a pending one verified again with the provider on request.
import { api, listAll } from "../api.js";
import { crudPage } from "../crud.js";
import { h, replace } from "../dom.js";
import { dateTime, linkedDocumentName, money, percent } from "../format.js";
import { t } from "../i18n.js";
import { act, badge, button, errorBox, formView, loadInto, openDialog, tableView } from "../ui.js";
import { countryRates } from "./bank-rules.js";

export const PROVIDERS = ["pixelpay", "wompi"];
const accountLabel = (a) => `${a.code} · ${a.name}`;
const active = (row) => badge(row.isActive ? "active" : "inactive");

// "3.5 % + L 5.00 · ISV 15 %": what the provider keeps of each payment
export function feeText(gateway, currency) {
  const parts = [];
  if (Number(gateway.feePercent)) parts.push(percent(Number(gateway.feePercent) / 100));  // 3.5 means 3.5 %
  if (Number(gateway.feeFixed)) parts.push(money(gateway.feeFixed, currency));
  if (!parts.length) return t("gw.noFee");
  const tax = Number(gateway.feeTaxRate) ? ` · ${t("gw.feeTaxShort", { rate: percent(gateway.feeTaxRate) })}` : "";
  return parts.join(" + ") + tax;
}

// The form's fields for one provider: its own names for the credentials, its own extras (PixelPay's
// user e-mail for voids and merchant endpoint). Editing, the secret is empty: left so, it is kept.
function gatewayFields(provider, { editing, gateway, methods, banks }) {
  const bankOf = (m) => banks.get(m.bankAccountId);
  const methodLabel = (m) => (bankOf(m) ? `${m.name} → ${bankOf(m).name} (${bankOf(m).currency})` : m.name);
  const secretHelp = editing
    ? (gateway.hasSecret ? t("gw.secretKeep", { fingerprint: gateway.secretFingerprint || "" }) : t("gw.secretMissing"))
    : t("gw.secretOnce");
  return [
    { name: "name", label: t("gw.name"), required: true },
    editing ? null : { name: "provider", label: t("gw.provider"), type: "select", required: true,
      options: PROVIDERS.map((p) => ({ value: p, label: t(`gw.provider.${p}`) })), help: t(`gw.providerHelp.${provider}`) },
    { name: "mode", label: t("gw.mode"), type: "select", required: true, value: "test",
      options: ["test", "production"].map((m) => ({ value: m, label: t(`gw.mode.${m}`) })), help: t(`gw.modeHelp.${provider}`) },
    { name: "keyId", label: t(`gw.keyId.${provider}`), required: !editing, help: t(`gw.keyIdHelp.${provider}`),
      autocomplete: "off" },
    { name: "secret", label: t(`gw.secret.${provider}`), type: "password", required: !editing, help: secretHelp,
      autocomplete: "new-password" },
    provider === "pixelpay" ? { name: "userEmail", label: t("gw.userEmail"), type: "email", help: t("gw.userEmailHelp") } : null,
    provider === "pixelpay" ? { name: "endpoint", label: t("gw.endpoint"), type: "url", help: t("gw.endpointHelp") } : null,
    { name: "paymentMethodId", label: t("gw.paymentMethod"), type: "select", numeric: true, required: true,
      options: methods.filter((m) => m.isActive && m.bankAccountId).map((m) => ({ value: m.id, label: methodLabel(m) })),
      help: t("gw.paymentMethodHelp") },
    { name: "feePercent", label: t("gw.feePercent"), type: "number", min: "0", step: "0.01", value: "0", help: t("gw.feePercentHelp") },
    { name: "feeFixed", label: t("gw.feeFixed"), type: "number", min: "0", value: "0" },
    { name: "feeTaxRate", label: t("gw.feeTaxRate"), type: "select", numeric: true, value: "0", help: t("gw.feeTaxRateHelp"),
      options: ["0", ...countryRates()].map((rate) => ({ value: rate, label: percent(rate) })), required: true },
    { name: "feeAccountId", label: t("gw.feeAccount"), type: "select", emptyAs: undefined, help: t("gw.feeAccountHelp"),
      source: { path: "/chart-of-accounts", field: "accounts", query: { type: "expense", isActive: true }, label: accountLabel } },
    { name: "isActive", label: t("gw.isActive"), type: "checkbox", value: true },
  ].filter(Boolean);
}

// The create or edit dialog; choosing another provider redraws the form with its own labels, keeping
// what was typed.
export function gatewayDialog({ gateway, methods, banks, done }) {
  const editing = Boolean(gateway);
  const holder = h("div", { class: "gateway-form" });
  const { dialog, close } = openDialog(editing ? t("gw.edit", { name: gateway.name }) : t("gw.new"), holder);
  dialog.classList.add("dialog-wide");
  const draw = (provider, values) => {
    const fields = gatewayFields(provider, { editing, gateway, methods, banks });
    const form = formView({ fields, values: { ...values, secret: "" }, submitLabel: editing ? t("common.save") : t("common.create"),
      className: `gateway-fields gateway-form-${provider}`,
      onSubmit: async (data) => {
        const body = editing ? data : { ...data, provider };
        const saved = editing
          ? await api.put(`/payments/gateways/${gateway.id}`, body, { headers: { "If-Match": String(gateway.version) } })
          : await api.post("/payments/gateways", body);
        close();
        await done(saved);
      } });
    form.querySelector("#f-provider")?.addEventListener("change", (event) => {
      const typed = {};
      for (const field of fields) {
        const element = form.elements.namedItem(field.name);
        if (element) typed[field.name] = field.type === "checkbox" ? element.checked : element.value;
      }
      draw(event.target.value, { ...typed, provider: event.target.value });
    });
    replace(holder, form);
  };
  draw(editing ? gateway.provider : "pixelpay", editing ? gateway : { provider: "pixelpay" });
}

function notificationsDialog(gateway) {
  const body = h("div", { id: "gateway-notifications" });
  openDialog(t("pay.notificationsOf", { name: gateway.name }), body).dialog.classList.add("dialog-wide");
  const load = () => loadInto(body, async () => {
    const answer = await api.get(`/payments/gateways/${gateway.id}/notifications`, { limit: 100 });
    const recheck = (n) => button(t("gw.recheck"), () => act(null,
      () => api.post(`/payments/gateways/${gateway.id}/notifications/${encodeURIComponent(n.transactionId)}/recheck`),
      load, t("gw.rechecked")), "recheck-button");
    const waiting = answer.notifications.some((n) => n.status === "pending");
    return [waiting ? h("p", { class: "help" }, t("gw.notificationsHelp")) : null, h("div", { class: "table-scroll" }, tableView({
      rows: answer.notifications, columns: [
        { label: t("pay.receivedAt"), value: (n) => dateTime(n.receivedAt) },
        { label: t("common.status"), value: (n) => badge(n.status) },
        { label: t("pay.amount"), class: "num", value: (n) => money(n.amount, n.currency) },
        { label: t("pay.document"), value: (n) => [h("a", { href: `#/documents/${n.documentId}`, class: "doc-number" },
          linkedDocumentName(n.documentId, n.documentNumber, n.documentNumeroControl)),
        h("small", { class: "cell-note" }, t("gw.transaction"), " ", h("code", {}, n.transactionId))] },
        { label: t("pay.reason"), value: (n) => [n.code || "", n.reason ? ` ${n.reason}` : ""] },
        { label: t("common.actions"), class: "actions", value: (n) => (n.status === "pending" ? recheck(n) : "") },
      ] }))];
  });
  load().catch((error) => body.append(errorBox(error)));
}

export async function gateways(ctx) {
  const [methods, bankList] = await Promise.all([listAll("/payments/methods", "paymentMethods"),
    listAll("/bank-accounts", "bankAccounts")]);
  const banks = new Map(bankList.map((b) => [b.id, b]));
  const create = () => gatewayDialog({ methods, banks, done: () => ctx.refresh() });
  await crudPage({
    title: t("pay.gateways"), path: "/payments/gateways", field: "paymentGateways", canCreate: false,
    intro: h("p", { class: "help" }, t("gw.intro")), canDelete: true,
    rowActions: (g, refresh) => [
      button(t("common.edit"), () => gatewayDialog({ gateway: g, methods, banks, done: refresh }), "edit-gateway"),
      button(t("pay.notifications"), () => notificationsDialog(g), "gateway-notifications")],
    columns: [
      { label: t("gw.name"), value: (g) => [h("strong", {}, g.name), h("small", { class: "cell-note" },
        t(`gw.provider.${g.provider}`), " · ", h("span", { class: `mode mode-${g.mode}` }, t(`gw.mode.${g.mode}`)))] },
      { label: t("gw.clearing"), value: (g) => {
        const bank = banks.get(g.clearingBankAccountId);
        return g.clearingBankAccountId ? [h("a", { href: `#/banking/${g.clearingBankAccountId}` }, bank ? bank.name : `#${g.clearingBankAccountId}`),
          h("small", { class: "cell-note clearing-balance" }, money(g.clearingBalance, bank?.currency))] : t("common.none");
      } },
      { label: t("gw.fee"), value: (g) => feeText(g, banks.get(g.clearingBankAccountId)?.currency) },
      { label: t("gw.credentials"), value: (g) => [g.keyId ? h("code", {}, g.keyId) : null,
        h("small", { class: "cell-note" }, g.hasSecret ? t("gw.fingerprint", { fingerprint: g.secretFingerprint || "" }) : t("gw.secretMissing"))] },
      { label: t("common.status"), value: active },
    ],
  })(ctx);
  ctx.root.querySelector(".page-actions").append(button(t("gw.new"), create, "primary new-gateway"));
}
