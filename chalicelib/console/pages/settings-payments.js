// Settings, payments: payment methods and payment conditions on one page, and the payment
// gateways (their secret is written, never read back) with their decided notifications.
import { api, listAll } from "../api.js";
import { crudPage, crudSection } from "../crud.js";
import { h } from "../dom.js";
import { dateTime, linkedDocumentName, money } from "../format.js";
import { t } from "../i18n.js";
import { badge, button, errorBox, loadInto, openDialog, pageHeader, tableView } from "../ui.js";

const yesNo = (value) => t(value ? "common.yes" : "common.no");
const active = (row) => badge(row.isActive ? "active" : "inactive");

export async function paymentSetup(ctx) {
  const banks = await listAll("/bank-accounts", "bankAccounts");
  const bankName = new Map(banks.map((b) => [b.id, b.name]));
  const methodFields = () => [
    { name: "name", label: t("pay.name"), required: true },
    { name: "bankAccountId", label: t("pay.bankAccount"), type: "select", numeric: true, emptyAs: null,
      options: banks.map((b) => ({ value: b.id, label: `${b.name} (${b.currency})` })) },
    { name: "isCashMethod", label: t("pay.isCashMethod"), type: "checkbox" },
    { name: "requiresConfirmation", label: t("pay.requiresConfirmation"), type: "checkbox" },
    { name: "isActive", label: t("pay.isActive"), type: "checkbox", value: true },
  ];
  const conditionFields = () => [
    { name: "name", label: t("pay.name"), required: true },
    { name: "type", label: t("pay.type"), type: "select", required: true,
      options: ["cash", "credit"].map((v) => ({ value: v, label: t(`pay.type.${v}`) })) },
    { name: "creditDays", label: t("pay.creditDays"), type: "number", step: "1", min: "0", emptyAs: null, help: t("pay.creditDaysHelp") },
    { name: "isActive", label: t("pay.isActive"), type: "checkbox", value: true },
  ];
  ctx.root.append(pageHeader(t("pay.setup")));
  await crudSection(ctx, {
    title: t("pay.methods"), path: "/payments/methods", field: "paymentMethods", createLabel: t("pay.newMethod"),
    intro: h("p", { class: "help" }, t("pay.methodsIntro")),
    fields: methodFields(), editFields: methodFields(), canDelete: true,
    columns: [
      { label: t("pay.name"), value: (m) => m.name },
      { label: t("pay.bankAccount"), value: (m) => (m.bankAccountId
        ? h("a", { href: `#/banking/${m.bankAccountId}` }, bankName.get(m.bankAccountId) || `#${m.bankAccountId}`) : t("common.none")) },
      { label: t("pay.isCashMethod"), value: (m) => yesNo(m.isCashMethod) },
      { label: t("pay.requiresConfirmation"), value: (m) => yesNo(m.requiresConfirmation) },
      { label: t("common.status"), value: active },
    ],
  });
  await crudSection(ctx, {
    title: t("pay.conditions"), path: "/payment-conditions", field: "paymentConditions", createLabel: t("pay.newCondition"),
    intro: h("p", { class: "help" }, t("pay.conditionsIntro")),
    fields: conditionFields(), editFields: conditionFields(), canDelete: true,
    // a cash condition has no credit days: the API refuses them there
    prepare: (data) => (data.type === "cash" && !data.creditDays ? { ...data, creditDays: undefined } : data),
    columns: [
      { label: t("pay.name"), value: (c) => c.name },
      { label: t("pay.type"), value: (c) => t(`pay.type.${c.type}`) },
      { label: t("pay.creditDays"), class: "num", value: (c) => String(c.creditDays) },
      { label: t("common.status"), value: active },
    ],
  });
}

function notificationsDialog(gateway) {
  const body = h("div", {});
  openDialog(t("pay.notificationsOf", { name: gateway.name }), body);
  loadInto(body, async () => {
    const answer = await api.get(`/payments/gateways/${gateway.id}/notifications`, { limit: 100 });
    return tableView({ rows: answer.notifications, columns: [
      { label: t("pay.receivedAt"), value: (n) => dateTime(n.receivedAt) },
      { label: t("common.status"), value: (n) => badge(n.status) },
      { label: t("pay.amount"), class: "num", value: (n) => money(n.amount, n.currency) },
      { label: t("pay.document"), value: (n) => h("a", { href: `#/documents/${n.documentId}`, class: "doc-number" },
        linkedDocumentName(n.documentId, n.documentNumber, n.documentNumeroControl)) },
      { label: t("pay.payment"), value: (n) => (n.paymentId ? `#${n.paymentId}` : "") },
      { label: t("pay.reason"), value: (n) => [n.code || "", n.reason ? ` ${n.reason}` : ""] },
    ] });
  }).catch((error) => body.append(errorBox(error)));
}

export async function gateways(ctx) {
  const methods = await listAll("/payments/methods", "paymentMethods");
  const methodName = new Map(methods.map((m) => [m.id, m.name]));
  const methodOptions = methods.filter((m) => m.isActive).map((m) => ({ value: m.id, label: m.name }));
  const common = (secretHelp, secretRequired) => [
    { name: "name", label: t("pay.name"), required: true },
    { name: "paymentMethodId", label: t("pay.paymentMethod"), type: "select", numeric: true, required: true, options: methodOptions },
    { name: "secret", label: t("pay.secret"), type: "password", required: secretRequired, help: secretHelp, autocomplete: "new-password" },
    { name: "isActive", label: t("pay.isActive"), type: "checkbox", value: true },
  ];
  const createFields = common(t("pay.secretHelp"), true);
  createFields.splice(1, 0, { name: "provider", label: t("pay.provider"), type: "select", required: true,
    options: ["gateway-a", "gateway-b"].map((p) => ({ value: p, label: p })) });
  await crudPage({
    title: t("pay.gateways"), path: "/payments/gateways", field: "paymentGateways", createLabel: t("pay.newGateway"),
    intro: h("p", { class: "help" }, t("pay.gatewaysIntro")),
    fields: createFields, editFields: common(t("pay.secretRotate"), false), canDelete: true,
    rowActions: (g) => [button(t("pay.notifications"), () => notificationsDialog(g))],
    columns: [
      { label: t("pay.name"), value: (g) => g.name },
      { label: t("pay.provider"), value: (g) => g.provider },
      { label: t("pay.paymentMethod"), value: (g) => methodName.get(g.paymentMethodId) || `#${g.paymentMethodId}` },
      { label: t("pay.hasSecret"), value: (g) => (g.hasSecret
        ? [t("pay.secretSet"), g.secretFingerprint ? h("code", {}, ` ${g.secretFingerprint}`) : null] : t("pay.secretMissing")) },
      { label: t("common.status"), value: active },
    ],
  })(ctx);
}
