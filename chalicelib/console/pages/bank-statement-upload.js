// issue 42: console. A bank statement uploaded for one account (POST /bank-accounts/{id}/statements):
// the file as base64 and its format (detected unless chosen). A CSV or XLSX is read through the
// account's column mapping (GET/PUT .../statement-mapping), shown filled with the saved one; "Vista
// previa" asks the API to parse the file with the mapping on the form and shows its first lines
// (nothing stored); "Guardar e importar" saves the mapping, then imports. The import's answer stays
// on the page with its "Conciliar con este estado de cuenta".
import { ApiError, api } from "../api.js";
import { h, replace } from "../dom.js";
import { date, money, number } from "../format.js";
import { t } from "../i18n.js";
import { button, definitionList, errorBox, formView, readField, section, showErrors, tableView, toast } from "../ui.js";

const FORMATS = ["csv", "xlsx", "ofx", "camt053", "mt940"];
const MAPPED = ["csv", "xlsx"];
const STATEMENT_FILES = ".csv,.txt,.xlsx,.ofx,.qfx,.xml,.sta,.mt940,.940";

// The file as the API takes it: base64, without the data URL's prefix.
export function readBase64(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ""));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

const choices = (values, labelOf = (value) => value) => values.map((value) => ({ value, label: labelOf(value) }));

function mappingFields() {
  const column = (name) => ({ name, label: t(`stmt.map.${name}`), emptyAs: null, placeholder: t("stmt.map.heading") });
  return [
    // left empty, the API detects the encoding and the delimiter
    { name: "encoding", label: t("stmt.map.encoding"), type: "select", emptyAs: null, help: t("stmt.map.detected"),
      options: choices(["utf-8", "utf-8-sig", "cp1252", "latin-1", "utf-16"]) },
    { name: "delimiter", label: t("stmt.map.delimiter"), type: "select", emptyAs: null, help: t("stmt.map.detected"),
      options: choices([",", ";", "\t", "|"], (value) => (value === "\t" ? t("stmt.map.tab") : value)) },
    { name: "skipRows", label: t("stmt.map.skipRows"), type: "number", step: "1", min: "0", value: "0",
      help: t("stmt.map.skipRows.help") },
    column("dateColumn"),
    { name: "dateFormat", label: t("stmt.map.dateFormat"), type: "select", required: true, value: "DD/MM/YYYY",
      options: choices(["DD/MM/YYYY", "DD-MM-YYYY", "DD.MM.YYYY", "DD/MM/YY", "MM/DD/YYYY", "YYYY-MM-DD", "YYYY/MM/DD", "YYYYMMDD"]) },
    column("descriptionColumn"), column("referenceColumn"),
    { ...column("amountColumn"), help: t("stmt.map.amountColumn.help") },
    column("debitColumn"), column("creditColumn"), column("balanceColumn"),
    { name: "decimalSeparator", label: t("stmt.map.decimalSeparator"), type: "select", required: true, value: ".",
      options: choices([".", ","]) },
    { name: "thousandsSeparator", label: t("stmt.map.thousandsSeparator"), type: "select", required: true, value: ",",
      options: choices([",", ".", " ", "'"], (value) => (value === " " ? t("stmt.map.space") : value)) },
  ];
}

function previewView(preview, currency) {
  return h("div", { id: "statement-preview" },
    h("h3", {}, t("stmt.preview.title", { count: number(preview.lineCount, 0) })),
    definitionList([
      [t("stmt.format"), t(`stmt.format.${preview.format}`)],
      [t("stmt.period"), `${date(preview.periodStart)} – ${date(preview.periodEnd)}`],
      preview.openingBalance !== null && preview.openingBalance !== undefined
        ? [t("stmt.openingBalance"), money(preview.openingBalance, currency)] : null,
      preview.closingBalance !== null && preview.closingBalance !== undefined
        ? [t("stmt.closingBalance"), money(preview.closingBalance, currency)] : null,
    ]),
    h("div", { class: "table-scroll" }, tableView({ rows: preview.lines || [], columns: [
      { label: "#", class: "num", value: (line) => number(line.line, 0) },
      { label: t("stmt.date"), class: "nowrap", value: (line) => date(line.date) },
      { label: t("stmt.description"), value: (line) => line.description },
      { label: t("stmt.reference"), value: (line) => line.reference || "" },
      { label: t("stmt.amount"), class: "num", value: (line) => signedAmount(line.amount, currency) },
      { label: t("stmt.balance"), class: "num", value: (line) => (line.balance === null || line.balance === undefined
        ? "" : money(line.balance, currency)) },
    ] })));
}

// A line's amount with its sign, coloured: money in or out.
export function signedAmount(amount, currency) {
  const value = Number(amount);
  return h("span", { class: value < 0 ? "money-out" : "money-in" }, money(value, currency));
}

// The import's answer, with "Conciliar con este estado de cuenta".
export function importedView(statement, currency, reconcile) {
  return h("div", { class: "notice statement-imported", id: "statement-imported", "data-statement": statement.id },
    h("strong", {}, t("stmt.imported.title", { file: statement.fileName })),
    definitionList([
      [t("stmt.format"), t(`stmt.format.${statement.format}`)],
      [t("stmt.linesImported"), h("span", { id: "statement-lines-imported" }, number(statement.linesImported, 0))],
      [t("stmt.linesSkipped"), h("span", { id: "statement-lines-skipped" }, number(statement.linesSkipped, 0))],
      [t("stmt.linesAutoMatched"), h("span", { id: "statement-lines-auto" }, number(statement.linesAutoMatched ?? 0, 0))],
      [t("stmt.period"), `${date(statement.periodStart)} – ${date(statement.periodEnd)}`],
      [t("stmt.openingBalance"), money(statement.openingBalance, currency)],
      [t("stmt.closingBalance"), h("span", { id: "statement-closing" }, money(statement.closingBalance, currency))],
    ]),
    h("div", { class: "form-actions" }, button(t("stmt.reconcile"), () => reconcile(statement), "primary reconcile-statement")));
}

// The upload card. `onImported(statement)` runs after an import (the lines and the list refresh).
export function uploadSection(account, { onImported, reconcile }) {
  const currency = account.currency;
  const base = `/bank-accounts/${account.id}`;
  const fileName = h("span", { class: "help", id: "statement-file-name" }, t("stmt.file.none"));
  const file = h("input", { type: "file", id: "statement-file", class: "visually-hidden", accept: STATEMENT_FILES,
    onchange: () => { fileName.textContent = file.files[0] ? file.files[0].name : t("stmt.file.none"); showMapping(); } });
  const format = h("select", { id: "statement-format", onchange: () => showMapping() },
    h("option", { value: "" }, t("stmt.format.auto")),
    FORMATS.map((value) => h("option", { value }, t(`stmt.format.${value}`))));
  const fields = mappingFields();
  const mappingHolder = h("div", { id: "statement-mapping", hidden: true });
  const preview = h("div", {});
  const outcome = h("div", { id: "statement-outcome" });
  const problem = h("div", { class: "form-error", id: "statement-problem" });
  let saved = {};

  // the format the file will be read as: the chosen one, else the file's extension says whether it is mapped
  const mapped = () => {
    if (format.value) return MAPPED.includes(format.value);
    const name = (file.files[0]?.name || "").toLowerCase();
    return /\.(csv|txt|xlsx)$/.test(name);
  };
  const mappingValues = () => {
    const values = {};
    for (const field of fields) {
      const value = readField(mappingForm, field);
      if (value !== undefined) values[field.name] = field.name === "skipRows" ? Math.trunc(value || 0) : value;
    }
    return values;
  };
  const body = async () => {
    const chosen = file.files[0];
    if (!chosen) throw new Error(t("stmt.file.missing"));
    const sent = { fileName: chosen.name, content: await readBase64(chosen) };
    if (format.value) sent.format = format.value;
    return sent;
  };
  const say = (error) => replace(problem, error ? (error instanceof ApiError ? errorBox(error)
    : h("div", { class: "error-box", role: "alert" }, error.message)) : null);

  const importStatement = async () => {
    say(null);
    replace(outcome);
    const sent = await body();
    const statement = await api.post(`${base}/statements`, sent);
    replace(preview);
    replace(outcome, importedView(statement, currency, reconcile));
    toast(t("stmt.imported.toast", { count: number(statement.linesImported, 0) }));
    await onImported(statement);
  };

  const mappingForm = formView({ fields, values: {}, submitLabel: t("stmt.saveAndImport"), className: "statement-mapping-form",
    onSubmit: async () => {
      say(null);
      if (!file.files[0]) { say(new Error(t("stmt.file.missing"))); return; }
      const mapping = mappingValues();
      await api.put(`${base}/statement-mapping`, mapping);
      saved = mapping;
      await importStatement();
    } });
  const previewButton = button(t("stmt.preview"), async () => {
    say(null);
    previewButton.disabled = true;
    try {
      const sent = { ...(await body()), mapping: mappingValues() };
      const answer = await api.post(`${base}/statement-mapping/preview`, sent);
      mappingForm.querySelector(".form-error").replaceChildren();
      replace(preview, previewView(answer, currency));
    } catch (error) {
      replace(preview);
      if (error instanceof ApiError) showErrors(mappingForm, error); else say(error);
    } finally {
      previewButton.disabled = false;
    }
  });
  previewButton.id = "statement-preview-button";
  mappingForm.querySelector(".form-actions").prepend(previewButton);
  mappingForm.querySelector("button[type=submit]").id = "statement-save-import";
  replace(mappingHolder, h("h3", {}, t("stmt.map.title")), h("p", { class: "help" }, t("stmt.map.help")), mappingForm);

  const plainImport = h("button", { type: "button", class: "primary", id: "statement-import", onclick: async () => {
    plainImport.disabled = true;
    try { await importStatement(); } catch (error) { say(error); } finally { plainImport.disabled = false; }
  } }, t("stmt.import"));
  const plainActions = h("div", { class: "form-actions" }, plainImport);
  const plainHolder = h("div", {});

  function showMapping() {
    const on = mapped();
    mappingHolder.hidden = !on;
    replace(plainHolder, on ? null : plainActions);
    replace(preview);
  }

  // the saved mapping fills the form (none saved yet: the form's defaults)
  api.get(`${base}/statement-mapping`).then((found) => {
    saved = found || {};
    for (const field of fields) {
      const element = mappingForm.elements.namedItem(field.name);
      const value = saved[field.name];
      if (element && value !== undefined && value !== null) element.value = String(value);
    }
  }).catch(() => {});

  showMapping();
  return section(t("stmt.upload.title"),
    h("p", { class: "help" }, t("stmt.upload.help")),
    h("div", { class: "form statement-upload" },
      h("div", { class: "statement-file-row" },
        h("div", { class: "field" }, h("span", { class: "field-label" }, t("stmt.file")),
          h("div", { class: "file-pick" }, file, h("label", { for: "statement-file", class: "button-like" }, t("stmt.file.choose")),
            fileName)),
        h("div", { class: "field" }, h("label", { for: "statement-format" }, t("stmt.format")), format)),
      problem, plainHolder),
    mappingHolder, preview, outcome);
}
