// Settings, Webhooks: subscriptions (the signing secret shown once at creation), the test send,
// and one subscription's delivery history with its attempts and redelivery.
import { api } from "../api.js";
import { h, replace } from "../dom.js";
import { dateTime } from "../format.js";
import { t } from "../i18n.js";
import {
  act, badge, button, definitionList, formDialog, loadInto, openDialog, pageHeader, secretOnce, section, tableView,
} from "../ui.js";

// The event kinds a subscription may ask for (chalicelib/models/webhooks.py EventKind); webhook.test
// comes from the test button only.
const EVENTS = ["document.created", "document.confirmed", "document.dte_accepted", "document.dte_invalidated",
  "document.cancelled",
  "product.created", "product.updated", "business_partner.created", "business_partner.updated",
  "payment.created", "payment.confirmed", "inventory_adjustment.created", "inventory_transfer.created",
  "statement.imported", "statement_line.matched"];

// The event picker: one checkbox per kind; its errors land beside it (data-field "events").
function eventPicker(selected) {
  return h("div", { class: "field", "data-field": "events" },
    h("label", {}, t("wh.events")),
    EVENTS.map((kind) => h("label", { class: "field-check" },
      h("input", { type: "checkbox", name: "events", value: kind, checked: selected.includes(kind) || undefined }), kind)),
    h("small", { class: "help" }, t("wh.testHelp")));
}
const pickedEvents = (form) => [...form.querySelectorAll("input[name=events]:checked")].map((input) => input.value);

const fields = () => [
  { name: "name", label: t("wh.name"), required: true },
  { name: "url", label: t("wh.url"), type: "url", required: true, help: t("wh.urlHelp"), placeholder: "https:" },
  { name: "isActive", label: t("wh.isActive"), type: "checkbox", value: true },
];

function editDialog(webhook, done) {
  formDialog(t("wh.edit"), {
    fields: fields(), values: webhook, extra: eventPicker(webhook.events),
    onSubmit: (data, form) => api.put(`/settings/webhooks/${webhook.id}`, { ...data, events: pickedEvents(form) },
      { headers: { "If-Match": String(webhook.version) } }),
  }, done);
}

const sendTest = (id, refresh) => act(null, () => api.post(`/settings/webhooks/${id}/test`), refresh, t("wh.tested"));

export async function list(ctx) {
  const fresh = h("div", { id: "new-webhook" });
  const body = h("div", {});
  const refresh = () => loadInto(body, async () => {
    const answer = await api.get("/settings/webhooks", { limit: 100 });
    return tableView({ rows: answer.webhooks, onRowClick: (w) => ctx.navigate(`/settings/webhooks/${w.id}`), columns: [
      { label: t("wh.name"), value: (w) => h("a", { href: `#/settings/webhooks/${w.id}` }, w.name) },
      { label: t("wh.url"), value: (w) => h("code", {}, w.url) },
      { label: t("wh.events"), value: (w) => w.events.join(", ") },
      { label: t("common.status"), value: (w) => badge(w.isActive ? "active" : "inactive") },
      { label: t("common.actions"), class: "actions", value: (w) => [
        button(t("wh.test"), () => sendTest(w.id, null)),
        button(t("common.edit"), () => editDialog(w, refresh)),
        button(t("common.delete"), () => act(t("wh.deleteConfirm", { name: w.name }),
          () => api.del(`/settings/webhooks/${w.id}`), refresh, t("common.deleted")), "danger"),
      ] },
    ] });
  });
  const create = () => formDialog(t("wh.new"), {
    fields: fields(), extra: eventPicker([]), submitLabel: t("common.create"),
    onSubmit: (data, form) => api.post("/settings/webhooks", { ...data, events: pickedEvents(form) }),
  }, async (created) => {
    replace(fresh, section(t("wh.created", { name: created.name }),
      secretOnce(t("wh.secret"), created.secret ?? created.signingSecret),
      h("p", { class: "help" }, t("wh.secretHelp")),
      h("div", { class: "form-actions" }, button(t("wh.dismiss"), () => replace(fresh), "primary"))));
    await refresh();
  });
  ctx.root.append(pageHeader(t("wh.title"), button(t("wh.new"), create, "primary")),
    h("p", { class: "help" }, t("wh.intro")), fresh, section(null, body));
  await refresh();
}

// --- one subscription and its deliveries ---------------------------------------------------------

const lastCode = (d) => {
  const last = d.attempts[d.attempts.length - 1];
  return last && last.statusCode ? String(last.statusCode) : (last ? t("wh.none") : "");
};

function deliveryDialog(delivery) {
  openDialog(t("wh.delivery", { id: delivery.id }),
    definitionList([[t("wh.event"), delivery.event], [t("common.status"), badge(delivery.status)],
      [t("wh.occurredAt"), dateTime(delivery.occurredAt)]]),
    h("h3", {}, t("wh.attempts")),
    tableView({ rows: delivery.attempts, columns: [
      { label: t("wh.attempt"), class: "num", value: (a) => String(a.attempt) },
      { label: t("wh.at"), value: (a) => dateTime(a.at) },
      { label: t("wh.code"), value: (a) => (a.statusCode ? String(a.statusCode) : t("wh.none")) },
      { label: t("wh.duration"), class: "num", value: (a) => String(a.durationMs) },
      { label: t("wh.error"), value: (a) => a.error || "" },
      { label: t("wh.response"), value: (a) => (a.responseExcerpt ? h("code", {}, a.responseExcerpt) : "") },
    ] }),
    h("h3", {}, t("wh.payload")),
    h("pre", {}, JSON.stringify(delivery.payload, null, 2)));
}

export async function detail(ctx) {
  const id = ctx.params.id;
  const webhook = await api.get(`/settings/webhooks/${id}`);
  const cursors = [null];  // the cursor of each page seen: back and forth without the hash
  let index = 0;
  const body = h("div", { id: "deliveries" });
  const refresh = () => loadInto(body, async () => {
    const answer = await api.get(`/settings/webhooks/${id}/deliveries`, { limit: 20, cursor: cursors[index] || undefined });
    cursors[index + 1] = answer.nextCursor;
    return [tableView({ rows: answer.deliveries, onRowClick: deliveryDialog, columns: [
      { label: t("common.status"), value: (d) => badge(d.status) },
      { label: t("wh.event"), value: (d) => d.event },
      { label: t("wh.attempts"), class: "num", value: (d) => String(d.attemptCount) },
      { label: t("wh.lastCode"), value: (d) => h("span", { class: "last-code" }, lastCode(d)) },
      { label: t("wh.occurredAt"), value: (d) => dateTime(d.occurredAt) },
      { label: t("wh.lastAttemptAt"), value: (d) => dateTime(d.lastAttemptAt) },
      { label: t("common.actions"), class: "actions", value: (d) => [
        button(t("common.details"), () => deliveryDialog(d)),
        ["delivered", "failed", "skipped"].includes(d.status)
          ? button(t("wh.redeliver"), () => act(null, () => api.post(`/settings/webhooks/${id}/deliveries/${d.id}/redeliver`),
            refresh, t("wh.redelivered"))) : null,
      ] },
    ] }),
    h("nav", { class: "pager" },
      h("button", { type: "button", disabled: index === 0 || undefined, onclick: () => { index -= 1; refresh(); } },
        t("common.previous")),
      h("button", { type: "button", disabled: !answer.nextCursor || undefined,
        onclick: () => { index += 1; refresh(); } }, t("common.next")))];
  });
  ctx.root.append(
    pageHeader(webhook.name,
      button(t("wh.test"), () => sendTest(id, refresh), "primary"),
      h("button", { type: "button", id: "refresh-deliveries", onclick: () => refresh() }, t("wh.refresh")),
      button(t("common.edit"), () => editDialog(webhook, ctx.refresh))),
    section(null, definitionList([
      [t("wh.url"), h("code", {}, webhook.url)],
      [t("wh.events"), webhook.events.join(", ")],
      [t("common.status"), badge(webhook.isActive ? "active" : "inactive")],
      [t("wh.createdAt"), dateTime(webhook.createdAt)],
    ])),
    section(t("wh.deliveries"), body),
    h("p", {}, h("a", { href: "#/settings/webhooks" }, t("common.back"))));
  await refresh();
}
