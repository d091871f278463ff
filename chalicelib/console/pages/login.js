// Log in with e-mail and password; the API sets the HttpOnly session cookie.
import { api } from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { formView } from "../ui.js";

export async function render(ctx) {
  const form = formView({
    fields: [
      { name: "email", label: t("login.email"), type: "email", required: true, autocomplete: "username" },
      { name: "password", label: t("login.password"), type: "password", required: true, autocomplete: "current-password" },
    ],
    submitLabel: t("login.submit"),
    onSubmit: async (data) => {
      await api.post("/auth/login", { email: data.email || "", password: data.password || "" });
      ctx.session.me = null;
      ctx.navigate("/");
    },
  });
  ctx.root.append(h("div", { class: "login card" }, h("h1", {}, t("login.title")), form));
}
