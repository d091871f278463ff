// Settings, payments: payment methods and payment conditions on one page (the payment gateways:
// settings-gateways.js).
import { listAll } from "../api.js";
import { crudSection } from "../crud.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { badge, pageHeader } from "../ui.js";

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
