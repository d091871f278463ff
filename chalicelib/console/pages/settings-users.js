// Users and roles: invitations, role and access changes, removal; the audit log; one's own
// password.
import { api } from "../api.js";
import { h } from "../dom.js";
import { dateTime } from "../format.js";
import { ROLES, t } from "../i18n.js";
import { isManager } from "../main.js";
import { act, badge, button, formDialog, formView, loadInto, pageHeader, pagerView, section, tableView, toast } from "../ui.js";

const roleOptions = () => ROLES.map((role) => ({ value: role, label: t(`role.${role}`) }));
const ifMatch = (user) => ({ headers: { "If-Match": String(user.version) } });

export async function render(ctx) {
  const body = h("div");
  const refresh = () => loadInto(body, async () => {
    const answer = await api.get("/settings/users");
    return tableView({ rows: answer.users, columns: [
      { label: t("users.name"), value: (u) => u.name },
      { label: t("users.email"), value: (u) => u.email },
      { label: t("users.role"), value: (u) => t(`role.${u.role}`) },
      { label: t("users.status"), value: (u) => badge(u.status || (u.isActive ? "active" : "inactive")) },
      { label: t("users.lastLogin"), value: (u) => dateTime(u.lastLoginAt) },
      { label: t("users.invitedAt"), value: (u) => dateTime(u.invitedAt) },
      { label: t("common.actions"), class: "actions", value: (u) => actions(u, refresh) },
    ] });
  });
  const invite = () => formDialog(t("users.invite"), {
    fields: [
      { name: "email", label: t("users.email"), type: "email", required: true },
      { name: "name", label: t("users.name"), required: true },
      { name: "role", label: t("users.role"), type: "select", required: true, options: roleOptions(), value: "seller" },
    ],
    submitLabel: t("users.invite"),
    onSubmit: (data) => api.post("/settings/users", data),
  }, async (created) => {
    toast(created.invitationEmailSent === false ? t("users.notSent") : t("users.invited", { email: created.email }),
      created.invitationEmailSent === false ? "error" : "ok");
    await refresh();
  });
  ctx.root.append(pageHeader(t("users.title"), isManager() ? button(t("users.invite"), invite, "primary") : null),
    h("p", { class: "help" }, t("users.intro")), section(null, body));
  await refresh();
}

function actions(user, refresh) {
  const path = `/settings/users/${user.id}`;
  const changeRole = () => formDialog(t("users.changeRole"), {
    fields: [{ name: "role", label: t("users.role"), type: "select", required: true, options: roleOptions(), value: user.role }],
    onSubmit: (data) => api.put(path, data, ifMatch(user)),
  }, refresh);
  const active = user.isActive || user.status === "invited";
  return [
    user.status === "invited" ? button(t("users.resend"), () => act(null, () => api.post(`${path}/resend-invitation`),
      refresh, t("users.invited", { email: user.email }))) : null,
    button(t("users.changeRole"), changeRole),
    user.status === "invited" ? null : button(active ? t("users.deactivate") : t("users.activate"), () => act(
      active ? t("users.deactivateConfirm", { email: user.email }) : null,
      () => api.put(path, { isActive: !active }, ifMatch(user)), refresh)),
    button(t("users.remove"), () => act(t("users.removeConfirm", { email: user.email }), () => api.del(path), refresh,
      t("common.deleted")), "danger"),
  ];
}

export async function auditLog(ctx) {
  const body = h("div");
  const limit = 20;
  let page = Number(ctx.query.page || 1);
  const refresh = () => loadInto(body, async () => {
    const answer = await api.get("/settings/audit-log", { page, limit });
    return [tableView({ rows: answer.entries, columns: [
      { label: t("audit.when"), value: (e) => dateTime(e.occurredAt || e.createdAt) },
      { label: t("audit.who"), value: (e) => e.actorEmail || e.actor?.email || String(e.actorUserId ?? "") },
      { label: t("audit.action"), value: (e) => e.action },
      { label: t("audit.target"), value: (e) => e.targetEmail || e.target?.email || [e.targetType, e.targetId].filter(Boolean).join(" ") },
      { label: t("audit.changes"), value: (e) => describeChanges(e.changes) },
    ] }), pagerView({ page, limit, total: answer.total, onPage: (next) => { page = next; refresh(); } })];
  });
  ctx.root.append(pageHeader(t("audit.title")), section(null, body));
  await refresh();
}

export async function password(ctx) {
  const form = formView({
    fields: [
      { name: "currentPassword", label: t("password.current"), type: "password", required: true, autocomplete: "current-password" },
      { name: "newPassword", label: t("password.new"), type: "password", required: true, autocomplete: "new-password" },
    ],
    onSubmit: async (data, element) => {
      await api.post("/auth/password", { currentPassword: data.currentPassword || "", newPassword: data.newPassword || "" });
      element.reset();
      toast(t("password.done"));
    },
  });
  ctx.root.append(pageHeader(t("password.title")), section(null, form));
}

// {"isActive": {"from": true, "to": false}, "role": "admin"} -> one line per field, "from → to".
function describeChanges(changes) {
  const text = (value) => (value === null || value === undefined ? "—"
    : typeof value === "object" ? JSON.stringify(value) : String(value));
  return Object.entries(changes || {}).map(([field, change]) => h("div", {}, `${field}: `,
    change && typeof change === "object" && !Array.isArray(change) && "to" in change
      ? `${text(change.from)} → ${text(change.to)}` : text(change)));
}
