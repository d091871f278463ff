// issue 42: console. The company's bank rules (GET/POST/PUT/DELETE /bank-rules), in the order they
// are tried (priority, lower first): each a set of conditions on a statement line (description or
// reference contains or equals a text, the amount equals or lies between two figures, the money goes
// in or out), all or any of them, and what to create for the line (ledger account, partner, tax
// rate, description), proposed or, with autoCreate, created on import without asking.
import { api, listAll } from "../api.js";
import { h, replace } from "../dom.js";
import { money, percent } from "../format.js";
import { locale, t } from "../i18n.js";
import { act, badge, button, formDialog, loadInto, pageHeader, section, tableView } from "../ui.js";

// the rates a bank charge may carry in the company's country, the usual one first
export const TAX_RATES = { HN: ["0.15", "0.18"], SV: ["0.13"] };
const FIELDS = ["description", "reference", "amount", "direction"];
const OPERATORS = { description: ["contains", "equals"], reference: ["contains", "equals"], amount: ["equals", "between"],
  direction: ["equals"] };
const accountLabel = (a) => `${a.code} · ${a.name}`;
// the company's country is the one its locale names (es-HN, en-SV)
export const countryRates = () => TAX_RATES[locale().split("-")[1]] || TAX_RATES.HN;

export function conditionText(condition) {
  const value = Array.isArray(condition.value)
    ? condition.value.map((v) => money(v)).join(` ${t("stmt.rule.and")} `)
    : condition.field === "direction" ? t(`stmt.direction.${condition.value}`)
      : condition.field === "amount" ? money(condition.value) : `«${condition.value}»`;
  return `${t(`stmt.rule.field.${condition.field}`)} ${t(`stmt.rule.operator.${condition.operator}`)} ${value}`;
}

// One condition's row: field, operator, and one value (two for "between"; in or out for the direction).
function conditionRow(condition, remove) {
  const field = h("select", { class: "rule-field", "aria-label": t("stmt.rule.field") },
    FIELDS.map((name) => h("option", { value: name, selected: name === condition.field || undefined }, t(`stmt.rule.field.${name}`))));
  const operator = h("select", { class: "rule-operator", "aria-label": t("stmt.rule.operator") });
  const values = h("span", { class: "rule-values" });
  const row = h("div", { class: "rule-condition" }, field, operator, values,
    h("button", { type: "button", class: "icon danger rule-remove", "aria-label": t("stmt.rule.removeCondition"),
      onclick: () => remove(row) }, "×"));
  const drawValues = (current) => {
    const name = field.value;
    if (name === "direction") {
      replace(values, h("select", { class: "rule-value", "aria-label": t("stmt.rule.value") },
        ["in", "out"].map((v) => h("option", { value: v, selected: v === current || undefined }, t(`stmt.direction.${v}`)))));
    } else if (operator.value === "between") {
      const [low, high] = Array.isArray(current) ? current : ["", ""];
      replace(values, h("input", { type: "number", step: "0.01", class: "rule-value", value: low, "aria-label": t("stmt.rule.from") }),
        h("input", { type: "number", step: "0.01", class: "rule-value", value: high, "aria-label": t("stmt.rule.to") }));
    } else {
      replace(values, h("input", { type: name === "amount" ? "number" : "text", step: name === "amount" ? "0.01" : undefined,
        class: "rule-value", value: Array.isArray(current) ? "" : current ?? "", "aria-label": t("stmt.rule.value") }));
    }
  };
  const drawOperators = () => {
    const allowed = OPERATORS[field.value];
    const keep = allowed.includes(operator.value) ? operator.value : allowed.includes(condition.operator) ? condition.operator : allowed[0];
    replace(operator, allowed.map((name) => h("option", { value: name, selected: name === keep || undefined }, t(`stmt.rule.operator.${name}`))));
  };
  field.addEventListener("change", () => { drawOperators(); drawValues(""); });
  operator.addEventListener("change", () => drawValues(""));
  drawOperators();
  drawValues(condition.value);
  row.read = () => {
    const inputs = [...values.querySelectorAll(".rule-value")].map((input) => input.value.trim());
    const amount = field.value === "amount";
    const value = operator.value === "between" ? inputs.map(Number) : amount ? Number(inputs[0]) : inputs[0];
    return { field: field.value, operator: operator.value, value };
  };
  return row;
}

function conditionsBuilder(conditions) {
  const rows = h("div", { class: "rule-conditions", id: "rule-conditions" });
  const remove = (row) => row.remove();
  const add = (condition) => rows.append(conditionRow(condition, remove));
  (conditions.length ? conditions : [{ field: "description", operator: "contains", value: "" }]).forEach(add);
  const holder = h("div", { class: "field", "data-field": "conditions" },
    h("span", { class: "field-label" }, t("stmt.rule.conditions")), rows,
    h("div", {}, button(t("stmt.rule.addCondition"), () => add({ field: "description", operator: "contains", value: "" }), "rule-add")));
  holder.read = () => [...rows.children].map((row) => row.read());
  return holder;
}

// Create (no id) or edit a rule; `done(rule)` after the API accepted it.
export function ruleDialog(rule, done) {
  const rates = countryRates();
  const action = rule.action || {};
  const builder = conditionsBuilder(rule.conditions || []);
  const form = formDialog(rule.id ? t("stmt.rule.edit") : t("stmt.rule.new"), {
    values: {
      name: rule.name, priority: rule.priority, bankAccountId: rule.bankAccountId, match: rule.match || "all",
      actionChartOfAccountId: action.chartOfAccountId, actionDescription: action.description,
      actionBusinessPartnerId: action.businessPartnerId, actionTaxRate: action.taxRate ?? "",
      autoCreate: rule.autoCreate ?? false, isActive: rule.isActive ?? true,
    },
    fields: [
      { name: "name", label: t("stmt.rule.name"), required: true },
      { name: "priority", label: t("stmt.rule.priority"), type: "number", step: "1", min: "0", emptyAs: undefined,
        help: t("stmt.rule.priority.help") },
      { name: "bankAccountId", label: t("stmt.rule.bankAccount"), type: "select", emptyAs: null,
        source: { path: "/bank-accounts", field: "bankAccounts", label: (b) => `${b.name} (${b.currency})` },
        help: t("stmt.rule.bankAccount.help") },
      { name: "match", label: t("stmt.rule.match"), type: "select", required: true,
        options: ["all", "any"].map((value) => ({ value, label: t(`stmt.rule.match.${value}`) })) },
      { name: "actionChartOfAccountId", label: t("stmt.account"), type: "select", emptyAs: undefined,
        source: { path: "/chart-of-accounts", field: "accounts", query: { isActive: true }, label: accountLabel } },
      { name: "actionDescription", label: t("stmt.description"), emptyAs: null },
      { name: "actionBusinessPartnerId", label: t("stmt.partner"), type: "lookup", emptyAs: null,
        source: { path: "/business-partners", field: "businessPartners", label: (p) => (p.taxId ? `${p.name} (${p.taxId})` : p.name) } },
      { name: "actionTaxRate", label: t("stmt.taxRate"), type: "select", emptyAs: null,
        options: rates.map((rate) => ({ value: rate, label: percent(rate) })) },
      { name: "autoCreate", label: t("stmt.rule.autoCreate"), type: "checkbox" },
      { name: "isActive", label: t("stmt.rule.isActive"), type: "checkbox" },
    ],
    extra: builder,
    submitLabel: t("common.save"),
    onSubmit: (data) => {
      const body = {
        name: data.name, match: data.match, bankAccountId: data.bankAccountId ?? null, conditions: builder.read(),
        action: { chartOfAccountId: data.actionChartOfAccountId, description: data.actionDescription ?? null,
          businessPartnerId: data.actionBusinessPartnerId ?? null,
          taxRate: data.actionTaxRate === null || data.actionTaxRate === undefined ? null : Number(data.actionTaxRate) },
        autoCreate: data.autoCreate, isActive: data.isActive,
      };
      if (data.priority !== undefined) body.priority = data.priority;
      return rule.id
        ? api.put(`/bank-rules/${rule.id}`, body, { headers: rule.version !== undefined ? { "If-Match": String(rule.version) } : {} })
        : api.post("/bank-rules", body);
    },
  }, done);
  form.id = "rule-form";
  form.classList.add("rule-form");
  // the conditions sit after the rule's name, priority and scope: what it looks at, then what it does
  form.querySelector("[data-field=match]").closest(".field").after(builder);
  return form;
}

export async function render(ctx) {
  const body = h("div", { id: "bank-rules" });
  const ledgers = new Map();
  const refresh = () => loadInto(body, async () => {
    const [rules, accounts] = await Promise.all([listAll("/bank-rules", "bankRules"),
      ledgers.size ? null : listAll("/chart-of-accounts", "accounts")]);
    (accounts || []).forEach((a) => ledgers.set(a.id, a));
    rules.sort((a, b) => a.priority - b.priority);
    return h("div", { class: "table-scroll" }, tableView({ rows: rules, empty: t("stmt.rule.empty"), columns: [
      { label: t("stmt.rule.priority"), class: "num", value: (r) => String(r.priority) },
      { label: t("stmt.rule.name"), value: (r) => h("strong", { class: "rule-name" }, r.name) },
      { label: t("stmt.rule.conditions"), value: (r) => h("ul", { class: "rule-summary" },
        r.conditions.map((c, index) => h("li", {}, index ? `${t(`stmt.rule.join.${r.match}`)} ` : "", conditionText(c)))) },
      { label: t("stmt.rule.action"), value: (r) => [ledgers.get(r.action.chartOfAccountId)
        ? accountLabel(ledgers.get(r.action.chartOfAccountId)) : `#${r.action.chartOfAccountId}`,
      r.action.description ? h("span", { class: "cell-note" }, r.action.description) : null,
      r.action.taxRate !== null && r.action.taxRate !== undefined
        ? h("span", { class: "cell-note" }, t("stmt.rule.taxRate", { rate: percent(r.action.taxRate) })) : null] },
      { label: t("stmt.rule.autoCreate"), value: (r) => (r.autoCreate ? t("common.yes") : t("common.no")) },
      { label: t("common.status"), value: (r) => badge(r.isActive ? "active" : "inactive") },
      { label: t("common.actions"), class: "actions", value: (r) => [
        button(t("common.edit"), () => ruleDialog(r, refresh)),
        button(t("common.delete"), () => act(t("stmt.rule.deleteConfirm", { name: r.name }),
          () => api.del(`/bank-rules/${r.id}`), refresh, t("common.deleted")), "danger"),
      ] },
    ] }));
  });
  ctx.root.append(pageHeader(t("stmt.rule.title"), button(t("stmt.rule.new"), () => ruleDialog({}, refresh), "primary")),
    h("p", { class: "help" }, t("stmt.rule.intro")),
    section(null, body),
    h("p", {}, h("a", { href: "#/banking" }, t("common.back"))));
  await refresh();
}
