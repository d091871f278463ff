// Settings, API keys: the company's keys (never their secrets), a new key whose secret is shown
// this once, and revoking a key.
import { API_BASE, api } from "../api.js";
import { h, replace } from "../dom.js";
import { dateTime } from "../format.js";
import { addStrings, t } from "../i18n.js";
import { act, badge, button, definitionList, formDialog, loadInto, pageHeader, secretOnce, section, tableView } from "../ui.js";

addStrings({
  es: {
    "keys.title": "Claves API", "keys.new": "Nueva clave API", "keys.name": "Nombre", "keys.id": "Key ID",
    "keys.lastFour": "Termina en", "keys.createdAt": "Creada", "keys.expiresAt": "Vence", "keys.never": "Nunca",
    "keys.expiresHelp": "Opcional: la clave deja de funcionar al final de ese día (UTC).",
    "keys.revoke": "Revocar", "keys.revokeConfirm": "¿Revocar la clave «{name}»? Toda integración que la use dejará de funcionar.",
    "keys.revoked": "Clave revocada.", "keys.created": "Clave «{name}» creada", "keys.secret": "Secreto",
    "keys.full": "Clave completa (KEY_ID:SECRET)", "keys.baseUrl": "URL base de la API",
    "keys.usage": "Envíela en la cabecera Authorization: Bearer KEY_ID:SECRET (o X-API-Key).",
    "keys.dismiss": "Ya la guardé", "keys.intro": "Las claves permiten a sus sistemas usar la API. El secreto solo se muestra al crearla.",
  },
  en: {
    "keys.title": "API keys", "keys.new": "New API key", "keys.name": "Name", "keys.id": "Key ID",
    "keys.lastFour": "Ends in", "keys.createdAt": "Created", "keys.expiresAt": "Expires", "keys.never": "Never",
    "keys.expiresHelp": "Optional: the key stops working at the end of that day (UTC).",
    "keys.revoke": "Revoke", "keys.revokeConfirm": "Revoke key “{name}”? Every integration using it will stop working.",
    "keys.revoked": "Key revoked.", "keys.created": "Key “{name}” created", "keys.secret": "Secret",
    "keys.full": "Full key (KEY_ID:SECRET)", "keys.baseUrl": "API base URL",
    "keys.usage": "Send it in the header Authorization: Bearer KEY_ID:SECRET (or X-API-Key).",
    "keys.dismiss": "I have stored it", "keys.intro": "Keys let your systems use the API. The secret is shown only when a key is created.",
  },
});

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
