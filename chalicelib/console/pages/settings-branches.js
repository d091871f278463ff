// Settings, branches: the establishments and, below, their CAI ranges (the fiscal numbers SAR
// authorizes); and the warehouses.
import { listAll } from "../api.js";
import { crudPage, crudSection } from "../crud.js";
import { h } from "../dom.js";
import { date, number } from "../format.js";
import { DOCUMENT_TYPES, addStrings, t } from "../i18n.js";
import { badge, pageHeader } from "../ui.js";

addStrings({
  es: {
    "branch.title": "Sucursales y CAI", "branch.branches": "Sucursales", "branch.new": "Nueva sucursal",
    "branch.name": "Nombre", "branch.code": "Código de establecimiento", "branch.address": "Dirección", "branch.isActive": "Activa",
    "branch.codeHelp": "Tres dígitos: el EEE de los números fiscales.",
    "branch.intro": "Cada sucursal es un establecimiento; sus rangos CAI numeran los documentos fiscales.",
    "cai.title": "Rangos CAI", "cai.new": "Nuevo rango CAI", "cai.cai": "CAI", "cai.branch": "Sucursal",
    "cai.emissionPoint": "Punto de emisión", "cai.documentType": "Tipo de documento", "cai.rangeStart": "Desde el número",
    "cai.rangeEnd": "Hasta el número", "cai.deadline": "Fecha límite de emisión", "cai.nextNumber": "Siguiente número",
    "cai.remaining": "Disponibles", "cai.range": "Rango", "cai.isActive": "Activo",
    "cai.caiHelp": "Formato 35A4E1-6C8E5B-2F49A3-0C6F26-2C3E5A-0A", "cai.pointHelp": "Tres dígitos, p. ej. 001.",
    "cai.intro": "Al agotar el rango o pasar la fecha límite, la API rechaza la emisión (CAI_EXHAUSTED / CAI_EXPIRED).",
    "wh2.title": "Bodegas", "wh2.new": "Nueva bodega", "wh2.name": "Nombre", "wh2.branch": "Sucursal", "wh2.isActive": "Activa",
    "wh2.intro": "Las existencias se llevan por bodega.",
  },
  en: {
    "branch.title": "Branches and CAI", "branch.branches": "Branches", "branch.new": "New branch",
    "branch.name": "Name", "branch.code": "Establishment code", "branch.address": "Address", "branch.isActive": "Active",
    "branch.codeHelp": "Three digits: the EEE of fiscal numbers.",
    "branch.intro": "Each branch is an establishment; its CAI ranges number the fiscal documents.",
    "cai.title": "CAI ranges", "cai.new": "New CAI range", "cai.cai": "CAI", "cai.branch": "Branch",
    "cai.emissionPoint": "Emission point", "cai.documentType": "Document type", "cai.rangeStart": "From number",
    "cai.rangeEnd": "To number", "cai.deadline": "Issuing deadline", "cai.nextNumber": "Next number",
    "cai.remaining": "Remaining", "cai.range": "Range", "cai.isActive": "Active",
    "cai.caiHelp": "Format 35A4E1-6C8E5B-2F49A3-0C6F26-2C3E5A-0A", "cai.pointHelp": "Three digits, e.g. 001.",
    "cai.intro": "Past the range's end or its deadline the API refuses to issue (CAI_EXHAUSTED / CAI_EXPIRED).",
    "wh2.title": "Warehouses", "wh2.new": "New warehouse", "wh2.name": "Name", "wh2.branch": "Branch", "wh2.isActive": "Active",
    "wh2.intro": "Stock is kept per warehouse.",
  },
});

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
