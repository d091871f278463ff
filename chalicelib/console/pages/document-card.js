// issue 43: console. A sales invoice paid by card: "Cobrar con tarjeta" makes a payment link through
// one of the company's active gateways (POST /payments/generate-link) for what is pending or a part
// of it, and shows the provider's address to send the customer, copyable, and its QR to scan; the
// document's links (GET /payments/documents/{id}/links), newest first, each shown again on request.
import { api } from "../api.js";
import { h, replace } from "../dom.js";
import { dateTime, money } from "../format.js";
import { t } from "../i18n.js";
import { badge, button, formView, loadInto, openDialog, section, tableView, toast } from "../ui.js";

// the sales documents that leave a customer owing: the ones a card may pay
const CARD_TYPES = ["01", "113", "07"];
export const isCardSale = (doc) => CARD_TYPES.includes(doc.type);

export function cardPayable(doc, allowed) {
  return isCardSale(doc) && allowed("pay") && Number(doc.pending) > 0;
}

async function copy(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    toast(t("common.copied"));
  } catch {
    input.select();
  }
}

// One link as the customer gets it: the address (copy), the QR, what it asks, until when, its status.
// A link no longer to pay (paid, expired) keeps its facts, not the means to share it.
export function linkView(link) {
  const open = link.status === "active";
  const address = h("input", { type: "text", readonly: true, value: link.url, id: "link-url", "aria-label": t("card.url") });
  return h("div", { class: "payment-link", "data-link": link.linkId, "data-status": link.status },
    open && link.qrCode ? h("div", { class: "link-qr" },
      h("img", { src: link.qrCode, alt: t("card.qrAlt", { amount: money(link.amount, link.currency) }), id: "link-qr", width: "220", height: "220" }))
      : null,
    h("div", { class: "link-facts" },
      open ? h("div", { class: "field" }, h("label", { for: "link-url" }, t("card.url")),
        h("div", { class: "copy-row" }, address, button(t("common.copy"), () => copy(link.url, address), "copy-link"))) : null,
      h("dl", { class: "facts" },
        h("dt", {}, t("card.amount")), h("dd", { id: "link-amount" }, money(link.amount, link.currency)),
        h("dt", {}, t("card.expiresAt")), h("dd", { id: "link-expires" }, dateTime(link.expiresAt)),
        h("dt", {}, t("common.status")), h("dd", { id: "link-status" }, badge(link.status))),
      h("p", { class: "help" }, open ? t("card.linkHelp") : t(`card.linkClosed.${link.status === "paid" ? "paid" : "other"}`))));
}

function showLink(link) {
  openDialog(t("card.linkTitle"), linkView(link));
}

// The dialog: an active gateway, an amount (empty: all that is pending), then the link itself.
export function cardDialog(doc, gateways, refresh) {
  const holder = h("div", { id: "card-dialog" });
  const usable = gateways.filter((g) => g.isActive);
  openDialog(t("card.title"), holder);
  replace(holder, formView({
    fields: [
      { name: "gatewayId", label: t("card.gateway"), type: "select", numeric: true, required: true,
        value: usable[0]?.id, options: usable.map((g) => ({ value: g.id,
          label: `${g.name} · ${t(`gw.provider.${g.provider}`)}${g.mode === "test" ? ` (${t("gw.mode.test")})` : ""}` })) },
      { name: "amount", label: t("card.amountField"), type: "number", min: "0.01",
        placeholder: money(doc.pending, doc.currency), help: t("card.amountHelp", { pending: money(doc.pending, doc.currency) }) },
    ],
    submitLabel: t("card.generate"),
    onSubmit: async (data) => {
      const link = await api.post("/payments/generate-link", { documentId: doc.id, ...data });
      replace(holder, linkView(link));
      await refresh();
    },
  }));
}

// The document's links, each shown again (address and QR) from its row.
export function linksSection(doc, gateways) {
  const body = h("div", { id: "doc-links" });
  const names = new Map(gateways.map((g) => [g.id, g.name]));
  const refresh = () => loadInto(body, async () => {
    const answer = await api.get(`/payments/documents/${doc.id}/links`);
    const links = answer.links || answer.paymentLinks || [];
    return h("div", { class: "table-scroll" }, tableView({ rows: links, empty: t("card.noLinks"), columns: [
      { label: t("card.createdAt"), value: (l) => dateTime(l.createdAt) },
      { label: t("card.gateway"), value: (l) => names.get(l.gatewayId) || t(`gw.provider.${l.provider}`) },
      { label: t("card.amount"), class: "num", value: (l) => money(l.amount, l.currency) },
      { label: t("card.expiresAt"), value: (l) => dateTime(l.expiresAt) },
      { label: t("common.status"), value: (l) => badge(l.status) },
      { label: t("common.actions"), class: "actions", value: (l) => button(t("card.show"), () => showLink(l), "show-link") },
    ] }));
  });
  return { element: section(t("card.links"), body), refresh };
}

// A card payment's line in the document's payments: the fee the gateway kept, and how a cancelled
// one was refunded (PixelPay through its API, Wompi in its panel).
export function cardNote(payment, currency) {
  if (!payment.gatewayId) return null;
  const fee = Number(payment.gatewayFee || 0) || Number(payment.gatewayFeeTax || 0)
    ? h("small", { class: "cell-note card-fee" }, t("card.feeNote", { fee: money(payment.gatewayFee || 0, currency),
      tax: money(payment.gatewayFeeTax || 0, currency) })) : null;
  const refunded = payment.refundedThrough
    ? h("small", { class: "cell-note card-refunded" }, t(`card.refunded.${payment.refundedThrough}`)) : null;
  return [fee, refunded];
}

// Cancelling a card payment gives the money back: what happens at the provider.
export function cardRefundHelp(payment, gateways) {
  const gateway = payment.gatewayId ? (gateways || []).find((g) => g.id === payment.gatewayId) : null;
  return gateway ? h("p", { class: "help card-refund-help" }, t(`card.refundHelp.${gateway.provider}`)) : null;
}
