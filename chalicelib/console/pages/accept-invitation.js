// Accepting an invitation: choose a password (or confirm one's own, for an existing login);
// the API logs the user in.
import { api } from "../api.js";
import { h } from "../dom.js";
import { addStrings, t } from "../i18n.js";
import { formView } from "../ui.js";

addStrings({
  es: { "invite.title": "Aceptar invitación", "invite.intro": "Elija su contraseña para entrar a la empresa que lo invitó. "
          + "Si ya tiene una cuenta, escriba su contraseña actual.",
        "invite.name": "Su nombre", "invite.password": "Contraseña (mínimo 8 caracteres)", "invite.submit": "Aceptar y entrar",
        "invite.missing": "El enlace no trae el código de invitación." },
  en: { "invite.title": "Accept invitation", "invite.intro": "Choose your password to join the company that invited you. "
          + "If you already have an account, type your current password.",
        "invite.name": "Your name", "invite.password": "Password (at least 8 characters)", "invite.submit": "Accept and log in",
        "invite.missing": "The link carries no invitation code." },
});

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
