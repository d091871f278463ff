// Settings, API keys: the company's keys (never their secrets), a new key whose secret is shown
// this once, and revoking a key.
import { API_BASE, api } from "../api.js";
import { h, replace } from "../dom.js";
import { dateTime } from "../format.js";
import { t } from "../i18n.js";
import { act, badge, button, definitionList, formDialog, loadInto, pageHeader, secretOnce, section, tableView } from "../ui.js";

export async function render(ctx) {
  const fresh = h("div", { id: "new-key" });
  const body = h("div", {});
  const refresh = () => loadInto(body, async () => {
    const answer = await api.get("/settings/api-keys");
    return tableView({ rows: answer.apiKeys, columns: [
      { label: t("keys.name"), value: (k) => k.name },
      { label: t("keys.id"), value: (k) => h("code", {}, k.id) },
      { label: t("keys.lastFour"), value: (k) => h("code", { class: "last-four" }, `…${k.lastFour}`) },
      { label: t("common.status"), value: (k) => badge(k.status) },
      { label: t("keys.createdAt"), value: (k) => dateTime(k.createdAt) },
      { label: t("keys.expiresAt"), value: (k) => (k.expiresAt ? dateTime(k.expiresAt) : t("keys.never")) },
      { label: t("common.actions"), class: "actions", value: (k) => (k.status === "active"
        ? button(t("keys.revoke"), () => act(t("keys.revokeConfirm", { name: k.name }),
          () => api.post(`/settings/api-keys/${encodeURIComponent(k.id)}/revoke`), refresh, t("keys.revoked")), "danger")
        : null) },
    ] });
  });
  // The secret lives only in this box: dismissing it (or leaving the page) drops it for good.
  const show = (created) => {
    const box = section(t("keys.created", { name: created.name }),
      definitionList([
        [t("keys.id"), h("code", { id: "new-key-id" }, created.id)],
        [t("keys.baseUrl"), h("code", { id: "api-base-url" }, API_BASE.href)],
      ]),
      secretOnce(t("keys.secret"), created.secret),
      secretOnce(t("keys.full"), created.key),
      h("p", { class: "help" }, t("keys.usage")),
      h("div", { class: "form-actions" }, button(t("keys.dismiss"), () => replace(fresh), "primary")));
    replace(fresh, box);
  };
  const create = () => formDialog(t("keys.new"), {
    fields: [
      { name: "name", label: t("keys.name"), required: true },
      { name: "expiresAt", label: t("keys.expiresAt"), type: "date", help: t("keys.expiresHelp") },
    ],
    submitLabel: t("common.create"),
    onSubmit: (data) => api.post("/settings/api-keys", data),
  }, async (created) => { show(created); await refresh(); });
  ctx.root.append(pageHeader(t("keys.title"), button(t("keys.new"), create, "primary")),
    h("p", { class: "help" }, t("keys.intro")), fresh, section(null, body));
  await refresh();
}
