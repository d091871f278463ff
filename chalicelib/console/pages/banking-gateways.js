// issue 43: console. A bank account that is a card gateway's clearing account holds money the
// provider has collected and not yet paid out: the banking pages say so ("Fondos en pasarela", the
// gateway's name) and record the provider's payout (POST /payments/gateways/{id}/payouts), a
// transfer of the clearing balance, or part of it, to the company's bank.
import { api, listAll } from "../api.js";
import { h } from "../dom.js";
import { money, today } from "../format.js";
import { t } from "../i18n.js";
import { button, formDialog, toast } from "../ui.js";

// bank account id -> the gateways whose clearing account it is (none when gateways may not be read)
export async function gatewaysByClearingAccount() {
  const gateways = await listAll("/payments/gateways", "paymentGateways").catch(() => []);
  const found = new Map();
  for (const gateway of gateways) {
    if (!gateway.clearingBankAccountId) continue;
    found.set(gateway.clearingBankAccountId, [...(found.get(gateway.clearingBankAccountId) || []), gateway]);
  }
  return found;
}

export function clearingBadge(gateways) {
  if (!gateways || !gateways.length) return null;
  return h("span", { class: "badge badge-clearing", title: t("gw.clearingHelp") },
    t("gw.clearingBadge", { name: gateways.map((g) => g.name).join(", ") }));
}

// The payout: to which bank account (another one, in the same currency), how much (the clearing
// balance unless the provider paid out less), when, with the provider's reference.
export function payoutDialog(gateway, clearing, done) {
  formDialog(t("gw.payout.title", { name: gateway.name }), {
    fields: [
      { name: "bankAccountId", label: t("gw.payout.bank"), type: "select", required: true,
        source: { path: "/bank-accounts", field: "bankAccounts",
          label: (b) => `${b.name} (${b.currency})` } },
      { name: "amount", label: t("gw.payout.amount"), type: "number", required: true, min: "0.01",
        value: String(Number(clearing.balance) > 0 ? clearing.balance : ""), help: t("gw.payout.amountHelp",
          { balance: money(clearing.balance, clearing.currency) }) },
      { name: "payoutDate", label: t("gw.payout.date"), type: "date", required: true, value: today() },
      { name: "reference", label: t("gw.payout.reference"), emptyAs: undefined },
    ],
    extra: h("p", { class: "help" }, t("gw.payout.help")),
    submitLabel: t("gw.payout.submit"),
    onSubmit: (data) => api.post(`/payments/gateways/${gateway.id}/payouts`, data),
  }, async (payout) => {
    toast(t("gw.payout.done", { amount: money(payout.amount, clearing.currency) }));
    await done(payout);
  });
  // the clearing account itself is no destination
  const select = document.querySelector("dialog[open] #f-bankAccountId");
  new MutationObserver(() => select.querySelector(`option[value="${clearing.id}"]`)?.remove())
    .observe(select, { childList: true });
}

export function payoutButtons(gateways, clearing, done) {
  return (gateways || []).map((gateway) => button(gateways.length > 1 ? t("gw.payout.of", { name: gateway.name })
    : t("gw.payout"), () => payoutDialog(gateway, clearing, done), "payout-button"));
}

// One account's page: what the gateway holds there, and the payout.
export function clearingCard(gateways, account, done) {
  if (!gateways || !gateways.length) return null;
  return h("section", { class: "card clearing-card", id: "clearing-card" },
    h("h2", {}, t("gw.clearingTitle")),
    h("p", {}, clearingBadge(gateways), " ", h("strong", { id: "clearing-balance" }, money(account.balance, account.currency))),
    h("p", { class: "help" }, t("gw.clearingHelp")),
    h("div", { class: "form-actions" }, payoutButtons(gateways, account, done)));
}
