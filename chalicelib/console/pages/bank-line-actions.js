// issue 42: console. What a person does with one bank statement line: accept a suggestion (each kind
// answered as the API takes it: a bank transaction or pending payment by its transactionId, open
// documents by their amounts, a rule's action created with its ruleId), pick other documents
// ("Buscar": their amounts must add up to the line), create a bank transaction ("Crear", with "Crear
// regla" from the line's description), match a transfer between own accounts, or ignore it.
import { api, listAll } from "../api.js";
import { h, replace } from "../dom.js";
import { date, documentName, documentTypeName, money, percent } from "../format.js";
import { t } from "../i18n.js";
import { button, errorBox, formDialog, openDialog, toast } from "../ui.js";
import { countryRates, ruleDialog } from "./bank-rules.js";

const accountLabel = (a) => `${a.code} · ${a.name}`;
export const cents = (value) => Math.round(Number(value || 0) * 100);

// A retried click must not match twice: each action carries its own Idempotency-Key.
function idempotencyKey() {
  return globalThis.crypto?.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(16).slice(2)}`;
}

export function lineCall(accountId, lineId, action, body = {}) {
  return api.post(`/bank-accounts/${accountId}/statement-lines/${lineId}/${action}`, body,
    { headers: { "Idempotency-Key": idempotencyKey() } });
}

// The records a page of suggestions names, each asked for once.
export function namesFor(account) {
  const cache = new Map();
  const once = (key, load) => {
    if (!cache.has(key)) cache.set(key, load().catch(() => null));
    return cache.get(key);
  };
  return {
    document: (id) => once(`document-${id}`, () => api.get(`/documents/${id}`)),
    partner: (id) => once(`partner-${id}`, () => api.get(`/business-partners/${id}`)),
    rule: (id) => once(`rule-${id}`, () => api.get(`/bank-rules/${id}`)),
    ledger: (id) => once(`ledger-${id}`, () => api.get(`/chart-of-accounts/${id}`)),
    bankAccounts: () => once("bank-accounts", () => listAll("/bank-accounts", "bankAccounts")),
    // newest first: the suggested ones are among the latest, so pages are read only until all are found
    transaction: (id) => once(`transaction-${id}`, async () => {
      for (let page = 1; page <= 50; page += 1) {
        const answer = await api.get(`/bank-accounts/${account.id}/transactions`, { page, limit: 100 });
        const found = answer.transactions.find((x) => x.id === id);
        if (found) return found;
        if (answer.transactions.length < 100) return null;
      }
      return null;
    }),
  };
}

// A document as one line of a suggestion: its type and number (a link), its partner, what the line pays of it.
async function documentItem(names, documentId, amount, currency) {
  const document = await names.document(documentId);
  const partner = document ? await names.partner(document.businessPartnerId) : null;
  return h("li", { "data-document": documentId },
    h("a", { href: `#/documents/${documentId}`, class: "doc-number" },
      document ? `${documentTypeName(document)} ${documentName(document)}` : `#${documentId}`),
    partner ? h("span", { class: "rec-partner" }, ` · ${partner.name}`) : null,
    h("span", { class: "rec-amount" }, ` · ${money(amount, currency)}`));
}

export async function ruleActionText(names, action, currency) {
  const ledger = action.chartOfAccountId ? await names.ledger(action.chartOfAccountId) : null;
  const partner = action.businessPartnerId ? await names.partner(action.businessPartnerId) : null;
  return [ledger ? accountLabel(ledger) : `#${action.chartOfAccountId}`, action.description,
    partner ? partner.name : null,
    action.taxRate !== null && action.taxRate !== undefined ? t("stmt.rule.taxRate", { rate: percent(action.taxRate) }) : null,
  ].filter(Boolean).join(" · ");
}

// What a suggestion is, in words a person checks before pressing OK.
export async function describeSuggestion(names, suggestion, account) {
  const currency = account.currency;
  const kind = h("span", { class: "rec-kind" }, t(`stmt.kind.${suggestion.kind}`));
  if (suggestion.kind === "document") {
    const items = await Promise.all((suggestion.documents || []).map((d) => documentItem(names, d.documentId, d.amount, currency)));
    return [kind, h("ul", { class: "rec-documents" }, items)];
  }
  if (suggestion.kind === "transaction" || suggestion.kind === "payment") {
    const x = await names.transaction(suggestion.transactionId);
    if (!x) return [kind, ` #${suggestion.transactionId}`];
    const signed = x.direction === "debit" ? -Number(x.amount) : Number(x.amount);
    return [kind, h("div", { class: "rec-what" }, [date(x.transactionDate), t(`bank.type.${x.type}`), x.reference,
      x.documentId ? documentName({ id: x.documentId, number: x.documentNumber,
        dte: x.documentNumeroControl ? { numeroControl: x.documentNumeroControl } : null }) : null,
      money(signed, currency)].filter(Boolean).join(" · "))];
  }
  const rule = await names.rule(suggestion.ruleId);
  if (!rule) return [kind, ` #${suggestion.ruleId}`];
  return [kind, h("div", { class: "rec-what" }, h("strong", {}, rule.name), " · ", await ruleActionText(names, rule.action, currency))];
}

// The match body for a suggestion, as the contract has each kind accepted.
export async function acceptBody(names, suggestion, line) {
  if (suggestion.kind === "transaction" || suggestion.kind === "payment") return { transactionId: suggestion.transactionId };
  if (suggestion.kind === "document") {
    return { documents: suggestion.documents.map((d) => ({ documentId: d.documentId, amount: d.amount })) };
  }
  const rule = await names.rule(suggestion.ruleId);
  const action = rule ? rule.action : {};
  const create = { chartOfAccountId: action.chartOfAccountId, description: action.description || line.description };
  if (action.businessPartnerId) create.businessPartnerId = action.businessPartnerId;
  if (action.taxRate !== null && action.taxRate !== undefined) create.taxRate = action.taxRate;
  return { create, ruleId: suggestion.ruleId };
}

export function reasonChips(reasons) {
  return h("span", { class: "rec-reasons" }, (reasons || []).map((reason) =>
    h("span", { class: `chip chip-${reason}`, "data-reason": reason }, t(`stmt.reason.${reason}`))));
}

// --- Buscar: other documents -------------------------------------------------------------------------

// Open documents found by number or partner (GET /documents?q=), several chosen with what the line pays
// of each; the remaining difference must be 0 before it is sent.
export function searchDialog(account, line, names, preset, done) {
  const currency = account.currency;
  const target = Math.abs(cents(line.amount));
  const chosen = new Map();  // documentId -> {document, amount}
  const results = h("div", { id: "rec-search-results", class: "table-scroll" });
  const picked = h("div", { id: "rec-picked" });
  const remaining = h("strong", { id: "rec-remaining" });
  const problem = h("div", { class: "form-error" });
  const query = h("input", { type: "search", id: "rec-search", placeholder: t("stmt.search.placeholder"), autocomplete: "off" });
  const submit = h("button", { type: "button", class: "primary", id: "rec-search-match", disabled: true }, t("stmt.search.match"));
  // the payments' method: none chosen, the API takes the account's own active one
  const method = h("select", { id: "rec-payment-method" }, h("option", { value: "" }, t("stmt.search.methodDefault")));
  listAll("/payments/methods", "paymentMethods").then((methods) => method.append(...methods
    .filter((m) => m.isActive !== false && (!m.bankAccountId || m.bankAccountId === account.id))
    .map((m) => h("option", { value: m.id }, m.name)))).catch(() => {});
  const settle = () => {
    const sum = [...chosen.values()].reduce((total, item) => total + cents(item.amount), 0);
    const difference = target - sum;
    remaining.textContent = money(difference / 100, currency);
    remaining.className = difference === 0 ? "difference-zero" : "difference negative";
    submit.disabled = difference !== 0 || !chosen.size;
    replace(picked, chosen.size ? h("ul", { class: "rec-documents" }, [...chosen.values()].map(({ document, amount }) =>
      h("li", {}, `${documentTypeName(document)} ${documentName(document)} · ${money(amount, currency)}`))) : null);
  };
  const row = (document) => {
    const amount = h("input", { type: "number", step: "0.01", min: "0.01", class: "rec-pay", "aria-label": t("stmt.search.pay"),
      value: chosen.get(document.id)?.amount ?? document.pending,
      oninput: () => { if (chosen.has(document.id)) { chosen.get(document.id).amount = amount.value; settle(); } } });
    const tick = h("input", { type: "checkbox", class: "rec-pick", "data-document": document.id, checked: chosen.has(document.id),
      "aria-label": documentName(document),
      onchange: () => { if (tick.checked) chosen.set(document.id, { document, amount: amount.value }); else chosen.delete(document.id); settle(); } });
    return h("tr", {}, h("td", {}, tick),
      h("td", { "data-label": t("stmt.document") }, h("span", { class: "doc-number" }, `${documentTypeName(document)} ${documentName(document)}`),
        h("span", { class: "cell-note rec-partner-cell" }), h("span", { class: "cell-note" }, date(document.date)),
        // a phone has no room for the pending column: it reads under the document
        h("span", { class: "cell-note rec-pending-note" }, `${t("stmt.pending")}: ${money(document.pending, document.currency || currency)}`)),
      h("td", { "data-label": t("stmt.pending"), class: "num rec-pending-col" }, money(document.pending, document.currency || currency)),
      h("td", { "data-label": t("stmt.search.pay"), class: "num" }, amount));
  };
  const show = (documents) => {
    if (!documents.length) { replace(results, h("p", { class: "empty" }, t("stmt.search.none"))); return; }
    const rows = documents.map(row);
    replace(results, h("table", { class: "grid" },
      h("thead", {}, h("tr", {}, ["✓", t("stmt.document"), t("stmt.pending"), t("stmt.search.pay")]
        .map((label, index) => h("th", { class: ["", "", "num rec-pending-col", "num"][index] || undefined }, label)))),
      h("tbody", {}, rows)));
    documents.forEach((document, index) => names.partner(document.businessPartnerId).then((partner) => {
      if (partner) rows[index].querySelector(".rec-partner-cell").textContent = partner.name;
    }));
  };
  let pending;
  const search = async () => {
    const text = query.value.trim();
    if (!text) { show([...chosen.values()].map((item) => item.document)); return; }
    const found = await api.get("/documents", { q: text, limit: 50 }).catch(() => ({ documents: [] }));
    if (query.value.trim() !== text) return;
    show(found.documents.filter((d) => Number(d.pending) > 0 && !["draft", "cancelled"].includes(d.status)));
  };
  query.addEventListener("input", () => { clearTimeout(pending); pending = setTimeout(search, 250); });
  submit.addEventListener("click", async () => {
    submit.disabled = true;
    try {
      const body = { documents: [...chosen.values()].map(({ document, amount }) => ({ documentId: document.id, amount: Number(amount) })) };
      if (method.value) body.paymentMethodId = Number(method.value);
      const answer = await lineCall(account.id, line.id, "match", body);
      close();
      toast(t("stmt.matched"));
      await done(answer);
    } catch (error) {
      replace(problem, errorBox(error));
      settle();
    }
  });
  const { dialog, close } = openDialog(t("stmt.search.title"),
    h("p", { class: "rec-dialog-line" }, `${date(line.date)} · ${line.description} · ${money(line.amount, currency)}`),
    h("div", { class: "field" }, h("label", { for: "rec-search" }, t("stmt.search.label")), query),
    results,
    h("div", { class: "rec-total" }, h("span", {}, t("stmt.search.remaining")), " ", remaining),
    picked, h("div", { class: "field" }, h("label", { for: "rec-payment-method" }, t("stmt.search.method")), method),
    problem, h("div", { class: "form-actions" }, submit));
  dialog.classList.add("dialog-wide");
  // the suggestion's documents start chosen
  Promise.all((preset || []).map(async (item) => {
    const document = await names.document(item.documentId);
    if (document) chosen.set(document.id, { document, amount: String(item.amount) });
  })).then(() => { show([...chosen.values()].map((item) => item.document)); settle(); });
  settle();
}

// --- Crear: a new bank transaction for the line ------------------------------------------------------

export function createDialog(account, line, done) {
  let ruleId = null;
  const rates = countryRates();
  const form = formDialog(t("stmt.create.title"), {
    fields: [
      // no account chosen at first: the chart's first one would be a guess
      { name: "chartOfAccountId", label: t("stmt.account"), type: "select", emptyAs: undefined,
        source: { path: "/chart-of-accounts", field: "accounts", query: { isActive: true }, label: accountLabel } },
      { name: "description", label: t("stmt.description"), required: true, value: line.description },
      { name: "businessPartnerId", label: t("stmt.partner"), type: "lookup", emptyAs: undefined,
        source: { path: "/business-partners", field: "businessPartners", label: (p) => (p.taxId ? `${p.name} (${p.taxId})` : p.name) } },
      { name: "taxRate", label: t("stmt.taxRate"), type: "select", emptyAs: undefined,
        options: rates.map((rate) => ({ value: rate, label: percent(rate) })) },
    ],
    submitLabel: t("stmt.create.submit"),
    onSubmit: (data) => {
      const create = { chartOfAccountId: data.chartOfAccountId, description: data.description };
      if (data.businessPartnerId) create.businessPartnerId = data.businessPartnerId;
      if (data.taxRate !== undefined) create.taxRate = Number(data.taxRate);
      return lineCall(account.id, line.id, "match", ruleId ? { create, ruleId } : { create });
    },
  }, async (answer) => { toast(t("stmt.created")); await done(answer); });
  form.id = "rec-create-form";
  const value = (name) => form.elements.namedItem(name)?.value || "";
  const makeRule = button(t("stmt.create.rule"), () => ruleDialog(ruleFromLine(line, {
    chartOfAccountId: Number(value("chartOfAccountId")) || null, description: value("description") || line.description,
    businessPartnerId: Number(value("businessPartnerId")) || null, taxRate: value("taxRate") || null,
  }), (rule) => { ruleId = rule.id; toast(t("stmt.rule.saved")); }));
  makeRule.id = "rec-create-rule";
  form.querySelector(".form-actions").prepend(makeRule);
}

// A rule a line's description suggests: its leading words (a bank's charge names the month after them), the
// line's direction, the action as the create form has it.
export function ruleFromLine(line, action) {
  const words = String(line.description || "").replace(/[0-9/.:#-]+/g, " ").trim().split(/\s+/).slice(0, 3).join(" ");
  return {
    name: words || line.description,
    match: "all",
    conditions: [{ field: "description", operator: "contains", value: words || line.description },
      { field: "direction", operator: "equals", value: Number(line.amount) < 0 ? "out" : "in" }],
    action, autoCreate: false, isActive: true, bankAccountId: line.bankAccountId,
  };
}

// --- Transferencia: the other own account ------------------------------------------------------------

export function transferDialog(account, line, done) {
  formDialog(t("stmt.transfer.title"), {
    fields: [{ name: "transferToAccountId", label: t("stmt.transfer.account"), type: "select", required: true,
      source: { path: "/bank-accounts", field: "bankAccounts", label: (b) => `${b.name} (${b.currency})`,
        query: {} } }],
    submitLabel: t("stmt.transfer.submit"),
    onSubmit: (data) => lineCall(account.id, line.id, "match", data),
  }, async (answer) => { toast(t("stmt.matched")); await done(answer); });
  // the account itself is no other side
  const select = document.getElementById("f-transferToAccountId");
  const prune = () => select.querySelector(`option[value="${account.id}"]`)?.remove();
  new MutationObserver(prune).observe(select, { childList: true });
  prune();
}
