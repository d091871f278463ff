// Accepting an invitation: choose a password (or confirm one's own, for an existing login);
// the API logs the user in.
import { api } from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { formView } from "../ui.js";

export async function render(ctx) {
  const token = ctx.query.token || "";
  const form = formView({
    fields: [
      { name: "name", label: t("invite.name"), autocomplete: "name" },
      { name: "password", label: t("invite.password"), type: "password", required: true, autocomplete: "new-password" },
    ],
    submitLabel: t("invite.submit"),
    onSubmit: async (data) => {
      await api.post("/auth/accept-invitation", { token, password: data.password || "", ...(data.name ? { name: data.name } : {}) });
      ctx.session.me = null;
      ctx.navigate("/");
    },
  });
  ctx.root.append(h("div", { class: "login card" }, h("h1", {}, t("invite.title")), h("p", {}, t("invite.intro")),
    token ? form : h("p", { class: "error-box" }, t("invite.missing"))));
}
