// issue 44: the papers behind a record ("Adjuntos") of a document, a journal entry or a bank
// statement line. A file (PDF, JPEG, PNG or XML, at most 10 MB: checked here before anything is
// sent) is announced to the API (POST /attachments), which answers a presigned address; the browser
// then PUTs the file there itself, with the Content-Type the address was signed for, so the file
// never passes through the API. Listed with name, size, date and status; downloaded from the
// address GET /attachments/{id} answers (downloadUrl); a stored file deleted only while the record is
// a draft (the API refuses otherwise: 409), one that never arrived (pending) whatever the record.
// Uploading and deleting are offered to the roles that may write only (a viewer would get 403).
import { api } from "../api.js";
import { h, replace } from "../dom.js";
import { dateTime, number } from "../format.js";
import { WRITE_ROLES, t } from "../i18n.js";
import { session } from "../main.js";
import { act, button, describeError, errorBox, loadInto, openDialog, section, tableView, toast } from "../ui.js";

export const MAX_BYTES = 10 * 1024 * 1024;
export const MAX_FILES = 10;
// what the API takes, by the file name's extension (a browser may not know an XML file's type)
const TYPES = { pdf: "application/pdf", jpg: "image/jpeg", jpeg: "image/jpeg", png: "image/png", xml: "application/xml" };
const ACCEPTED = new Set([...Object.values(TYPES), "text/xml"]);

function contentTypeOf(file) {
  if (ACCEPTED.has(file.type)) return file.type;
  const extension = (file.name.split(".").pop() || "").toLowerCase();
  return TYPES[extension] || null;
}

export function fileSize(bytes) {
  const size = Number(bytes) || 0;
  if (size < 1024) return t("records.att.bytes", { size: number(size, 0) });
  if (size < 1024 * 1024) return t("records.att.kb", { size: number(size / 1024, 1) });
  return t("records.att.mb", { size: number(size / (1024 * 1024), 1) });
}

// What is wrong with a chosen file before anything is sent, or null.
function refusal(file) {
  if (!contentTypeOf(file)) return t("records.att.badType");
  if (file.size > MAX_BYTES) return t("records.att.tooBig", { size: fileSize(file.size), max: fileSize(MAX_BYTES) });
  if (file.size === 0) return t("records.att.empty");
  return null;
}

// An attachment the API still waits the file of ("pending") or one stored (the API may answer no
// status: a listed file is a stored one).
function statusView(attachment) {
  const pending = attachment.status === "pending";
  return h("span", { class: `badge ${pending ? "badge-pending" : "badge-active"}`, "data-status": attachment.status || "stored" },
    pending ? t("records.att.pending") : t("records.att.stored"));
}

// A retried click must not announce the file twice.
const idempotencyKey = () => (globalThis.crypto?.randomUUID ? crypto.randomUUID()
  : `${Date.now()}-${Math.random().toString(16).slice(2)}`);

async function upload(recordType, recordId, file) {
  const contentType = contentTypeOf(file);
  const attachment = await api.post("/attachments", { recordType, recordId: Number(recordId), fileName: file.name,
    contentType, size: file.size }, { headers: { "Idempotency-Key": idempotencyKey() } });
  let stored;
  try {
    // the headers the address was signed with (uploadHeaders, where the API names more than the type)
    stored = await fetch(attachment.uploadUrl, { method: "PUT", credentials: "omit",
      headers: { "Content-Type": contentType, ...(attachment.uploadHeaders || {}) }, body: file });
  } catch {
    stored = null;
  }
  if (!stored || !stored.ok) {
    // the announced file never arrived: its record goes too, where the API still lets it
    await api.del(`/attachments/${attachment.id}`).catch(() => {});
    throw Object.assign(new Error(t("records.att.uploadFailed")), { notStored: true });
  }
  return attachment;
}

// The saved file: its presigned address, opened by a link the browser saves (S3 answers it as an
// attachment under its own name).
async function download(attachment) {
  try {
    const answer = await api.get(`/attachments/${attachment.id}`);
    // a file announced whose upload never finished has no address yet
    if (!answer.downloadUrl) { toast(t("records.att.notYet"), "error"); return; }
    const anchor = h("a", { href: answer.downloadUrl, download: attachment.fileName, rel: "noopener", hidden: true });
    document.body.append(anchor);
    anchor.click();
    anchor.remove();
  } catch (error) {
    toast(describeError(error), "error");
  }
}

// The panel. `editable`: the record is a draft (a statement line: not matched), so its stored files
// may be deleted; a pending one always may; adding one is offered to every writer (the API decides).
// `compact`: in a dialog that names it already (a statement line's), without its own title and with
// each file as a small block.
export function attachmentsPanel({ recordType, recordId, editable, compact = false }) {
  const list = h("div", { class: "attachment-list" });
  const problem = h("div", { class: "attachment-problem", "aria-live": "polite" });
  // the browser's own file button speaks its language, not the console's: it hides behind a label
  // that looks like a button, with the chosen file's name beside it
  const picker = h("input", { type: "file", id: `attachment-file-${recordType}-${recordId}`, class: "attachment-file visually-hidden",
    accept: ".pdf,.jpg,.jpeg,.png,.xml,application/pdf,image/jpeg,image/png,application/xml,text/xml" });
  const send = button(t("records.att.upload"), () => attach(), "primary attachment-upload");
  const count = h("span", { class: "help attachment-count" });
  const canWrite = WRITE_ROLES.includes(session.me?.role);
  let rows = [];

  const refresh = () => loadInto(list, async () => {
    const answer = await api.get("/attachments", { recordType, recordId });
    rows = answer.data || answer.attachments || [];
    replace(count, t("records.att.count", { count: rows.length, max: MAX_FILES }));
    send.disabled = rows.length >= MAX_FILES;
    return h("div", { class: "table-scroll" }, tableView({ rows, empty: t("records.att.none"), columns: [
      { label: t("records.att.name"), class: "attachment-name", value: (a) => a.fileName },
      { label: t("records.att.size"), class: "num nowrap", value: (a) => fileSize(a.size) },
      { label: t("records.att.date"), class: "nowrap", value: (a) => dateTime(a.createdAt) },
      { label: t("common.status"), value: statusView },
      { label: t("common.actions"), class: "actions", value: (a) => [
        button(t("records.att.download"), () => download(a), "attachment-download"),
        canWrite && (editable || a.status === "pending") ? button(t("common.delete"), () => act(t("records.att.deleteAsk", { name: a.fileName }),
          () => api.del(`/attachments/${a.id}`), refresh, t("records.att.deleted")), "danger attachment-delete") : null,
      ] },
    ] }));
  });

  async function attach() {
    replace(problem);
    const file = picker.files && picker.files[0];
    if (!file) { replace(problem, h("p", { class: "field-error" }, t("records.att.choose"))); return; }
    const wrong = refusal(file);
    if (wrong) { replace(problem, h("p", { class: "field-error", role: "alert" }, wrong)); return; }
    send.disabled = true;
    replace(problem, h("p", { class: "loading-inline" }, t("records.att.uploading", { name: file.name })));
    try {
      await upload(recordType, recordId, file);
      replace(problem);
      picker.value = "";
      replace(chosen, t("records.att.noFile"));
      toast(t("records.att.uploaded", { name: file.name }));
    } catch (error) {
      replace(problem, error.notStored ? h("div", { class: "error-box", role: "alert" }, error.message) : errorBox(error));
    } finally {
      send.disabled = false;
    }
    await refresh();
  }

  const chosen = h("span", { class: "attachment-chosen" }, t("records.att.noFile"));
  picker.addEventListener("change", () => {
    replace(problem);
    const file = picker.files && picker.files[0];
    replace(chosen, file ? `${file.name} (${fileSize(file.size)})` : t("records.att.noFile"));
  });
  const element = section(compact ? null : t("records.att.title"),
    canWrite ? h("div", { class: "attachment-form" }, picker,
      h("label", { for: picker.id, class: "button-like attachment-label" }, t("records.att.choose")), chosen, send) : null,
    canWrite ? h("p", { class: "help" }, t("records.att.help", { max: fileSize(MAX_BYTES) }), " ",
      recordType === "statementLine" ? t("records.att.deleteRuleLine") : t("records.att.deleteRule"), " ", count)
      : h("p", { class: "help" }, count),
    problem, list);
  element.classList.add("attachments");
  if (compact) element.classList.add("compact");
  element.dataset.record = `${recordType}-${recordId}`;
  return { element, refresh };
}

// A statement line's papers, in a dialog (the reconciliation page has no room for a panel per line).
export function attachmentsDialog(recordType, recordId, title, editable) {
  const panel = attachmentsPanel({ recordType, recordId, editable, compact: true });
  openDialog(title, panel.element);
  return panel.refresh();
}
