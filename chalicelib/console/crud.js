// One page shape for the many small records of the service (methods, conditions, branches,
// warehouses, gateways, ...): a paged list, a create dialog, an edit dialog (PUT with the
// record's version in If-Match) and, where the API allows it to the web app, a delete.
import { api } from "./api.js";
import { append, h } from "./dom.js";
import { t } from "./i18n.js";
import { act, button, formDialog, loadInto, pageHeader, pagerView, tableView } from "./ui.js";

// config: {title, path, field, columns, fields (create), editFields?, canDelete?, rowActions?(row, refresh),
//          onRowClick?(row), limit?, createLabel?, prepare?(data) -> body, canCreate?, query?(),
//          section? (one card of a larger page, under an h2, instead of the whole page)}
export function crudPage(config) {
  return async function render(ctx) {
    const limit = config.limit || 20;
    let page = 1;
    const body = h("div", { class: "crud" });
    const refresh = () => loadInto(body, async () => {
      const answer = await api.get(config.path, { page, limit, ...(config.query ? config.query() : {}) });
      const rows = answer[config.field] || [];
      const columns = [...config.columns];
      const hasActions = config.editFields || config.canDelete || config.rowActions;
      if (hasActions) {
        columns.push({ label: t("common.actions"), class: "actions", value: (row) => [
          config.editFields ? button(t("common.edit"), () => edit(row)) : null,
          ...(config.rowActions ? config.rowActions(row, refresh) : []),
          config.canDelete ? button(t("common.delete"), () => act(t("common.confirm"),
            () => api.del(`${config.path}/${row.id}`), refresh, t("common.deleted")), "danger") : null,
        ] });
      }
      // a wide table scrolls inside its box, never the page
      return [h("div", { class: "table-scroll" }, tableView({ columns, rows, onRowClick: config.onRowClick })),
              answer.total !== undefined && answer.limit !== undefined
                ? pagerView({ page, limit, total: answer.total, onPage: (next) => { page = next; refresh(); } }) : null];
    });
    const prepare = config.prepare || ((data) => data);
    const create = () => formDialog(config.createLabel || t("common.new"), {
      fields: config.fields, submitLabel: t("common.create"),
      onSubmit: (data) => api.post(config.path, prepare(data)),
    }, (created) => (config.afterCreate ? config.afterCreate(created, refresh) : refresh()));
    const edit = (row) => formDialog(t("common.edit"), {
      fields: config.editFields, values: row,
      onSubmit: (data) => api.put(`${config.path}/${row.id}`, prepare(data),
        { headers: row.version !== undefined ? { "If-Match": String(row.version) } : {} }),
    }, refresh);
    const actions = config.canCreate === false ? [] : [button(config.createLabel || t("common.new"), create, "primary")];
    let target = ctx.root;
    let header = pageHeader(config.title, ...actions);
    if (config.section) {
      target = h("section", { class: "card" });
      ctx.root.append(target);
      header = h("header", { class: "page-header" }, h("h2", {}, config.title), h("div", { class: "page-actions" }, actions));
    }
    append(target, [header, config.intro, body]);
    await refresh();
  };
}

// The same, as one card of a page that holds several (methods and conditions, say).
export function crudSection(ctx, config) {
  return crudPage({ ...config, section: true })(ctx);
}
