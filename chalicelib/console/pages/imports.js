// Import data: customers and suppliers, products, accounts and the opening figures from a CSV or
// XLSX file made from the API's template (GET /imports/templates/{kind}), or a company's archive.
// Two steps, as the API has them: a dry run names every bad row by its line and column and stores
// nothing; a dry run that found no problem ("ready") is then imported as it is (POST
// /imports/{id}/run, no second upload). Jobs run on the API's queue: the page polls the job each
// second and shows its progress. A file whose headings are not the template's gets a mapping step:
// the API refuses its line 1 naming each unknown heading, and a select per heading says which of
// the kind's columns it is.
import { ApiError, api } from "../api.js";
import { h, replace } from "../dom.js";
import { date, dateTime, number } from "../format.js";
import { ACCOUNTING_ROLES, WRITE_ROLES as WRITERS, language, t } from "../i18n.js";
import { EXPORT_FORMATS, badge, describeError, downloadButton, pageHeader, section, tableView } from "../ui.js";

const MANAGERS = ["owner", "admin"];
// Who may import each kind (the API's permissions: WRITE, ACCOUNTING, MANAGE), in the order a
// business moves in: its masters, then the open items and the stock, then the trial balance whose
// control accounts those two make.
const KINDS = [
  { kind: "partners", roles: WRITERS, updatable: true },
  { kind: "products", roles: WRITERS, updatable: true },
  { kind: "chart", roles: ACCOUNTING_ROLES, updatable: true },
  { kind: "open-items", roles: ACCOUNTING_ROLES },
  { kind: "opening-stock", roles: ACCOUNTING_ROLES },
  { kind: "opening-balances", roles: ACCOUNTING_ROLES },
  { kind: "company", roles: MANAGERS, archive: true },
];
const BUSY = ["validating", "importing"];
const IGNORED = "-";  // the mapping select's "leave this column out" (sent as null)
const POLL_MS = 1000;
const TABLE_FILES = ".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

// A dry run that found no problem, or an import a fault stopped (the API resumes it where it stopped).
const runnable = (job) => Boolean(job) && ((job.status === "ready" && job.dryRun) || (job.status === "failed" && !job.dryRun));

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

// The file as the API takes it: base64, without the data URL's prefix.
function readBase64(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ""));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

// A kind's template as JSON (no file asked for in Accept): its columns, each with the API's field name
// and its heading in the console's language, and whether it asks the changeover date. Once per kind.
const templates = new Map();
function kindTemplate(kind) {
  const key = `${kind}:${language()}`;
  if (!templates.has(key)) {
    templates.set(key, api.get(`/imports/templates/${kind}`).catch((error) => { templates.delete(key); throw error; }));
  }
  return templates.get(key);
}

// Headings compared as the API compares them: case and accents aside.
const plain = (text) => String(text || "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").trim().toLowerCase();

function kindChooser(allowed, chosen, onChange) {
  return h("fieldset", { class: "import-kinds", id: "import-kinds" },
    h("legend", {}, t("imp.kind.choose")),
    allowed.map(({ kind }) => h("label", { class: "import-kind", for: `kind-${kind}` },
      h("input", { type: "radio", name: "kind", id: `kind-${kind}`, value: kind, checked: kind === chosen || undefined,
        onchange: () => onChange(kind) }),
      h("span", {}, h("strong", {}, t(`imp.kind.${kind}`)), h("small", { class: "help" }, t(`imp.kind.${kind}.help`))))),
    h("p", { class: "notice notice-warning", id: "import-order" }, t("imp.order")));
}

export async function render(ctx) {
  const role = ctx.session.me.role;
  const allowed = KINDS.filter((entry) => entry.roles.includes(role));
  if (!allowed.length) {
    ctx.root.append(pageHeader(t("imp.title")), h("p", { class: "error-box" }, t("error.forbidden")));
    return;
  }
  // mapping: {file heading: column} chosen so far, sent with every validation of this kind
  const state = { kind: allowed[0].kind, job: null, errors: [], cursor: null, unknown: [], mapping: {}, headings: new Map() };
  const spec = () => KINDS.find((entry) => entry.kind === state.kind);
  const live = () => ctx.root.isConnected;

  // --- the template ---
  const template = h("div", { id: "import-template" });
  const showTemplate = () => replace(template, spec().archive
    ? h("p", { class: "help" }, t("imp.archive.help"))
    : [h("p", { class: "help" }, t("imp.template.help")),
       h("div", { class: "page-actions" }, EXPORT_FORMATS.filter(([extension]) => extension !== "pdf").map(([extension, mediaType]) =>
         downloadButton(t(`imp.template.${extension}`), `/imports/templates/${state.kind}`, { accept: mediaType },
           `${t("imp.template.file")}-${state.kind}.${extension}`, `template-${extension}`)))]);

  // --- the file, the date, the mapping ---
  // a corrected file keeps the mapping chosen for the one before it (the same headings). The
  // browser's own file button speaks the browser's language: a label of ours stands for it.
  const fileName = h("span", { class: "help", id: "import-file-name" }, t("imp.file.none"));
  const file = h("input", { type: "file", id: "import-file", class: "visually-hidden", onchange: () => {
    fileName.textContent = file.files[0] ? file.files[0].name : t("imp.file.none");
    resetJob();
  } });
  const changeover = h("input", { type: "date", id: "import-date", "data-field": "date" });
  const update = h("input", { type: "checkbox", id: "import-update" });
  const dateField = h("div", { class: "field" }, h("label", { for: "import-date" }, t("imp.date")), changeover,
    h("small", { class: "help" }, t("imp.date.help")));
  const updateField = h("div", { class: "field field-check" }, update, h("label", { for: "import-update" }, t("imp.update")));
  const mapping = h("div", { id: "import-mapping" });
  const problem = h("div", { class: "form-error", id: "import-problem" });
  const validateButton = h("button", { type: "button", class: "primary", id: "import-validate", onclick: () => validate() },
    t("imp.validate"));
  const runButton = h("button", { type: "button", id: "import-run", disabled: true, onclick: () => run() }, t("imp.run"));
  const showInputs = () => {
    file.accept = spec().archive ? ".zip,application/zip" : TABLE_FILES;
    // the template says whether the kind asks the changeover date
    dateField.hidden = true;
    state.dated = false;
    if (!spec().archive) {
      const kind = state.kind;
      kindTemplate(kind).then((found) => {
        if (kind === state.kind) { state.dated = found.needsDate; dateField.hidden = !found.needsDate; }
      }).catch(() => {});
    }
    updateField.hidden = !spec().updatable;
  };

  // --- the job ---
  const jobPanel = h("div", { id: "import-job", "aria-live": "polite" });
  const recent = h("div", { id: "import-jobs" });

  const setBusy = (busy) => {
    validateButton.disabled = busy;
    runButton.disabled = busy || !runnable(state.job);
  };
  const say = (error) => replace(problem, error ? h("div", { class: "error-box", role: "alert",
    "data-code": error instanceof ApiError ? error.code : undefined }, typeof error === "string" ? error : describeError(error),
  error instanceof ApiError && error.details.length ? h("ul", { class: "error-list" }, error.details.map((detail) =>
    h("li", {}, [detail.row !== undefined ? `${t("imp.error.row")} ${detail.row}` : null,
                 detail.column || detail.field, detail.message].filter((part) => part !== null && part !== undefined && part !== "").join(" · "))))
    : null) : null);
  const resetJob = () => { state.job = null; state.errors = []; state.cursor = null; replace(jobPanel); say(null); setBusy(false); };

  const chooseKind = (kind) => {
    state.kind = kind;
    state.unknown = [];
    state.mapping = {};
    file.value = "";
    fileName.textContent = t("imp.file.none");
    showTemplate();
    showInputs();
    showMapping();
    resetJob();
  };

  function showMapping() {
    const headings = [...new Set([...state.unknown, ...Object.keys(state.mapping)])];
    if (!headings.length) { replace(mapping); return; }
    const placeholder = h("p", { class: "loading" }, t("common.loading"));
    replace(mapping, placeholder);
    kindTemplate(state.kind).then(({ columns }) => {
      replace(mapping, h("h3", {}, t("imp.mapping.title")), h("p", { class: "help" }, t("imp.mapping.help")),
        h("div", { class: "import-mapping-rows" }, headings.map((heading, index) => h("div", { class: "field" },
          h("label", { for: `map-${index}` }, t("imp.mapping.heading", { heading })),
          h("select", { id: `map-${index}`, class: "import-map", "data-heading": heading, onchange: (event) => {
            if (event.target.value) state.mapping[heading] = event.target.value; else delete state.mapping[heading];
          } },
            h("option", { value: "" }, t("imp.mapping.none")),
            h("option", { value: IGNORED, selected: state.mapping[heading] === IGNORED || undefined }, t("imp.mapping.ignore")),
            columns.map((column) => h("option", { value: column.name, selected: state.mapping[heading] === column.name || undefined },
              plain(column.heading) === plain(column.name) ? column.name : `${column.heading} (${column.name})`)))))));
    }).catch((error) => replace(mapping, h("div", { class: "error-box" }, describeError(error))));
  }

  // The file's line 1 refused (POST /imports answers 400 IMPORT_INVALID, its details naming row and
  // column) for headings that are none of the kind's columns: those headings.
  async function unknownHeadings(errors) {
    const headingErrors = errors.filter((error) => error.row <= 1 && error.column);
    if (!headingErrors.length || spec().archive) return [];
    const { columns } = await kindTemplate(state.kind).catch(() => ({ columns: [] }));
    const known = new Set(columns.flatMap((column) => [plain(column.name), plain(column.heading)]));
    return [...new Set(headingErrors.map((error) => error.column))].filter((heading) => !known.has(plain(heading)));
  }

  function errorsTable() {
    if (!state.errors.length) return null;
    const more = state.cursor ? h("button", { type: "button", id: "import-errors-more", onclick: () => moreErrors() },
      t("imp.errors.more")) : null;
    return h("div", { class: "import-errors" },
      h("h3", {}, t("imp.errors.title", { count: number(state.job.invalid ?? state.errors.length, 0) })),
      h("div", { class: "table-scroll" }, tableView({ rows: state.errors, columns: [
        { label: t("imp.error.row"), class: "num", value: (error) => (error.row ? number(error.row, 0) : t("imp.error.file")) },
        // a template column by its heading in the console's language (the API names its field)
        { label: t("imp.error.column"), value: (error) => (error.column ? h("span", { "data-column": error.column },
          state.headings.get(error.column) || error.column) : t("common.none")) },
        { label: t("imp.error.message"), class: "import-message", value: (error) => error.message },
      ] })), more);
  }

  function showJob() {
    const job = state.job;
    const busy = BUSY.includes(job.status);
    const rows = Number(job.rows || 0);
    const processed = Number(job.processed || 0);
    const result = job.result || {};
    replace(jobPanel, section(null,
      h("header", { class: "page-header" },
        h("h2", {}, t(job.dryRun ? "imp.job.dryRun" : "imp.job.import", { id: job.id })),
        h("span", { id: "import-status", "data-status": job.status }, badge(job.status))),
      h("dl", { class: "facts" },
        h("dt", {}, t("imp.job.file")), h("dd", {}, job.fileName || t("common.none")),
        h("dt", {}, t("imp.job.kind")), h("dd", {}, t(`imp.kind.${job.kind}`)),
        job.date ? [h("dt", {}, t("imp.date")), h("dd", {}, date(job.date))] : null,
        h("dt", {}, t("imp.job.rows")), h("dd", { id: "import-rows" }, number(rows, 0)),
        h("dt", {}, t("imp.job.valid")), h("dd", { id: "import-valid" }, number(job.valid ?? 0, 0)),
        h("dt", {}, t("imp.job.invalid")), h("dd", { id: "import-invalid" }, number(job.invalid ?? 0, 0))),
      busy ? h("div", { class: "import-progress" },
        h("label", { for: "import-progress" }, t(job.status === "validating" ? "imp.progress.validating" : "imp.progress.importing")),
        rows ? h("progress", { id: "import-progress", max: rows, value: processed }) : h("progress", { id: "import-progress" }),
        h("span", { class: "help" }, t("imp.progress.count", { processed: number(processed, 0), rows: number(rows, 0) }))) : null,
      job.status === "ready" ? h("p", { class: "notice", id: "import-ready" }, t("imp.ready", { rows: number(rows, 0) })) : null,
      job.status === "done" ? h("p", { class: "notice", id: "import-result" }, t("imp.done", {
        created: number(result.created ?? 0, 0), updated: number(result.updated ?? 0, 0) })) : null,
      job.status === "failed" ? h("p", { class: "error-box", id: "import-failed" },
        t(state.errors.length ? "imp.failed" : "imp.fault")) : null,
      errorsTable()));
  }

  async function moreErrors() {
    try {
      const next = await api.get(`/imports/${state.job.id}`, { errorsCursor: state.cursor });
      state.errors = [...state.errors, ...(next.errors || [])];
      state.cursor = next.errorsNextCursor || null;
      showJob();
    } catch (error) { say(error); }
  }

  // Shows the job and asks for it again each second while the API works on it.
  async function follow(job) {
    state.job = job;
    state.errors = job.errors || [];
    state.cursor = job.errorsNextCursor || null;
    showJob();
    while (BUSY.includes(state.job.status) && live()) {
      await sleep(POLL_MS);
      const next = await api.get(`/imports/${state.job.id}`);
      state.job = next;
      state.errors = next.errors || [];
      state.cursor = next.errorsNextCursor || null;
      showJob();
    }
    state.unknown = state.job.status === "failed" ? await unknownHeadings(state.errors) : [];
    showMapping();
    if (state.errors.length && state.job.kind !== "company") {
      const found = await kindTemplate(state.job.kind).catch(() => ({ columns: [] }));
      state.headings = new Map(found.columns.map((column) => [column.name, column.heading]));
      showJob();
    }
    loadRecent();
  }

  async function validate() {
    say(null);
    const chosen = file.files[0];
    if (!chosen) { say(t("imp.chooseFile")); return; }
    if (state.dated && !changeover.value) { say(t("imp.date.missing")); return; }
    const body = { kind: state.kind, fileName: chosen.name, dryRun: true };
    if (state.dated) body.date = changeover.value;
    const sentMapping = {};
    const columns = Object.fromEntries(Object.entries(state.mapping).map(([heading, field]) => [heading, field === IGNORED ? null : field]));
    if (Object.keys(columns).length) sentMapping.columns = columns;
    if (spec().updatable && update.checked) sentMapping.existing = "update";
    if (Object.keys(sentMapping).length) body.mapping = sentMapping;
    resetJob();  // the job shown is the one this validation makes
    setBusy(true);
    try {
      body.content = await readBase64(chosen);
      await follow(await api.post("/imports", body));
    } catch (error) {
      say(error);
      if (error instanceof ApiError && error.code === "IMPORT_INVALID") {
        state.unknown = await unknownHeadings(error.details);
        showMapping();
      }
    } finally {
      setBusy(false);
    }
  }

  async function run() {
    say(null);
    setBusy(true);
    runButton.disabled = true;
    try {
      await follow(await api.post(`/imports/${state.job.id}/run`));
    } catch (error) {
      say(error);
    } finally {
      setBusy(false);
    }
  }

  async function loadRecent() {
    try {
      const answer = await api.get("/imports");
      replace(recent, h("div", { class: "table-scroll" }, tableView({
        rows: answer.imports || [],
        empty: t("imp.jobs.empty"),
        onRowClick: (job) => api.get(`/imports/${job.id}`).then((found) => {
          const radio = document.getElementById(`kind-${found.kind}`);
          if (radio && found.kind !== state.kind) {
            radio.checked = true;
            Object.assign(state, { kind: found.kind, mapping: {}, unknown: [] });
            showTemplate();
            showInputs();
          }
          say(null);
          const followed = follow(found);
          jobPanel.scrollIntoView({ block: "start" });
          return followed;
        }).catch(say),
        columns: [
          { label: t("imp.jobs.created"), class: "nowrap", value: (job) => dateTime(job.createdAt) },
          { label: t("imp.job.kind"), value: (job) => t(`imp.kind.${job.kind}`) },
          { label: t("imp.job.file"), class: "import-file-name", value: (job) => job.fileName },
          { label: t("imp.jobs.mode"), value: (job) => t(job.dryRun ? "imp.jobs.dryRun" : "imp.jobs.import") },
          { label: t("imp.jobs.status"), value: (job) => badge(job.status) },
          { label: t("imp.job.rows"), class: "num", value: (job) => number(job.rows ?? 0, 0) },
          { label: t("imp.job.invalid"), class: "num", value: (job) => number(job.invalid ?? 0, 0) },
        ],
      })));
    } catch (error) {
      replace(recent, h("div", { class: "error-box" }, describeError(error)));
    }
  }

  ctx.root.append(pageHeader(t("imp.title")),
    h("p", { class: "help" }, t("imp.intro")),
    section(t("imp.step.kind"), kindChooser(allowed, state.kind, chooseKind)),
    section(t("imp.step.template"), template),
    section(t("imp.step.file"), h("div", { class: "form import-form" },
      h("div", { class: "field" }, h("span", { class: "field-label" }, t("imp.file")),
        h("div", { class: "file-pick" }, file, h("label", { for: "import-file", class: "button-like" }, t("imp.file.choose")),
          fileName)), dateField, updateField, mapping,
      problem, h("div", { class: "form-actions" }, validateButton, runButton))),
    jobPanel,
    section(t("imp.jobs.title"), recent));
  showTemplate();
  showInputs();
  await loadRecent();
}
