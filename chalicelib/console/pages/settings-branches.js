// Settings, branches: the establishments and, below, their CAI ranges (the fiscal numbers SAR
// authorizes); and the warehouses.
import { listAll } from "../api.js";
import { crudPage, crudSection } from "../crud.js";
import { h } from "../dom.js";
import { date, number } from "../format.js";
import { DOCUMENT_TYPES, t } from "../i18n.js";
import { badge, pageHeader } from "../ui.js";

const active = (row) => badge(row.isActive ? "active" : "inactive");
const branchLabel = (b) => `${b.code} · ${b.name}`;

export async function branches(ctx) {
  const all = await listAll("/branch", "branches");
  const byId = new Map(all.map((b) => [b.id, b]));
  const branchOptions = all.map((b) => ({ value: b.id, label: branchLabel(b) }));
  ctx.root.append(pageHeader(t("branch.title")));
  await crudSection(ctx, {
    title: t("branch.branches"), path: "/branch", field: "branches", createLabel: t("branch.new"),
    intro: h("p", { class: "help" }, t("branch.intro")),
    fields: [
      { name: "name", label: t("branch.name"), required: true },
      { name: "code", label: t("branch.code"), required: true, placeholder: "001", help: t("branch.codeHelp") },
      { name: "address", label: t("branch.address"), type: "textarea" },
    ],
    editFields: [
      { name: "name", label: t("branch.name"), required: true },
      { name: "address", label: t("branch.address"), type: "textarea", emptyAs: null },
      { name: "isActive", label: t("branch.isActive"), type: "checkbox" },
    ],
    afterCreate: () => ctx.refresh(),  // the CAI form's branch list too
    columns: [
      { label: t("branch.code"), value: (b) => h("code", {}, b.code) },
      { label: t("branch.name"), value: (b) => b.name },
      { label: t("branch.address"), value: (b) => b.address || "" },
      { label: t("common.status"), value: active },
    ],
  });
  await crudSection(ctx, {
    title: t("cai.title"), path: "/cai", field: "caiRanges", createLabel: t("cai.new"),
    intro: h("p", { class: "help" }, t("cai.intro")),
    fields: [
      { name: "cai", label: t("cai.cai"), required: true, help: t("cai.caiHelp") },
      { name: "branchId", label: t("cai.branch"), type: "select", numeric: true, required: true, options: branchOptions },
      { name: "emissionPoint", label: t("cai.emissionPoint"), required: true, placeholder: "001", help: t("cai.pointHelp") },
      { name: "documentType", label: t("cai.documentType"), type: "select", required: true,
        options: DOCUMENT_TYPES.map((type) => ({ value: type, label: `${type} · ${t(`doctype.${type}`)}` })) },
      { name: "rangeStart", label: t("cai.rangeStart"), type: "number", step: "1", min: "1", required: true },
      { name: "rangeEnd", label: t("cai.rangeEnd"), type: "number", step: "1", min: "1", required: true },
      { name: "deadline", label: t("cai.deadline"), type: "date", required: true },
      { name: "isActive", label: t("cai.isActive"), type: "checkbox", value: true },
    ],
    editFields: [
      { name: "cai", label: t("cai.cai"), required: true, help: t("cai.caiHelp") },
      { name: "rangeEnd", label: t("cai.rangeEnd"), type: "number", step: "1", min: "1", required: true },
      { name: "deadline", label: t("cai.deadline"), type: "date", required: true },
      { name: "isActive", label: t("cai.isActive"), type: "checkbox" },
    ],
    columns: [
      { label: t("cai.cai"), value: (r) => h("code", {}, r.cai) },
      { label: t("cai.branch"), value: (r) => (byId.has(r.branchId) ? branchLabel(byId.get(r.branchId)) : `#${r.branchId}`) },
      { label: t("cai.emissionPoint"), value: (r) => r.emissionPoint },
      { label: t("cai.documentType"), value: (r) => t(`doctype.${r.documentType}`) },
      { label: t("cai.range"), class: "num", value: (r) => `${number(r.rangeStart, 0)} – ${number(r.rangeEnd, 0)}` },
      { label: t("cai.nextNumber"), class: "num", value: (r) => number(r.nextNumber, 0) },
      { label: t("cai.remaining"), class: "num", value: (r) => number(r.remaining, 0) },
      { label: t("cai.deadline"), value: (r) => date(r.deadline) },
      { label: t("common.status"), value: active },
    ],
  });
}

export async function warehouses(ctx) {
  const all = await listAll("/branch", "branches");
  const byId = new Map(all.map((b) => [b.id, b]));
  const fields = [
    { name: "name", label: t("wh2.name"), required: true },
    { name: "branchId", label: t("wh2.branch"), type: "select", numeric: true, emptyAs: null,
      options: all.map((b) => ({ value: b.id, label: branchLabel(b) })) },
    { name: "isActive", label: t("wh2.isActive"), type: "checkbox", value: true },
  ];
  await crudPage({
    title: t("wh2.title"), path: "/warehouses", field: "warehouses", createLabel: t("wh2.new"),
    intro: h("p", { class: "help" }, t("wh2.intro")), fields, editFields: fields,
    columns: [
      { label: t("wh2.name"), value: (w) => w.name },
      { label: t("wh2.branch"), value: (w) => (byId.has(w.branchId) ? branchLabel(byId.get(w.branchId)) : t("common.none")) },
      { label: t("common.status"), value: active },
    ],
  })(ctx);
}
