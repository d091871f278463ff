// Company settings, "Export all data": the API makes an archive (ZIP) of every record of the
// company on its queue (POST /exports/company); the card asks for it each second (GET
// /exports/{id}) until it is done, then shows its link (valid one hour), when it was made and how
// many records of each kind it holds.
import { ApiError, api } from "../api.js";
import { h, replace } from "../dom.js";
import { dateTime, number } from "../format.js";
import { t } from "../i18n.js";
import { badge, describeError, section } from "../ui.js";

const BUSY = ["pending", "running"];
const POLL_MS = 1000;
const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

function showExport(holder, exported) {
  // counts: {items: the total, then the store's own family names}: a person reads the total only
  const { items } = exported.counts || {};
  replace(holder,
    h("dl", { class: "facts" },
      h("dt", {}, t("companyExport.status")),
      h("dd", { id: "company-export-state", "data-status": exported.status, "data-export": exported.id }, badge(exported.status)),
      h("dt", {}, t("companyExport.createdAt")), h("dd", {}, dateTime(exported.createdAt)),
      exported.finishedAt ? [h("dt", {}, t("companyExport.finishedAt")), h("dd", { id: "company-export-finished" },
        dateTime(exported.finishedAt))] : null,
      items !== undefined ? [h("dt", {}, t("companyExport.items")), h("dd", { id: "company-export-items" }, number(items, 0))]
        : null),
    BUSY.includes(exported.status) ? h("p", { class: "loading-note" }, h("progress", {}), " ", t("companyExport.working")) : null,
    exported.status === "done" && exported.downloadUrl ? h("p", {},
      h("a", { href: exported.downloadUrl, id: "company-export-link", class: "button-link", download: "" },
        t("companyExport.download")),
      " ", h("small", { class: "help" }, t("companyExport.linkValid"))) : null,
    exported.status === "failed" ? h("p", { class: "error-box" }, t("companyExport.failed")) : null);
}

export function exportSection() {
  const holder = h("div", { id: "company-export-status", "aria-live": "polite" });
  const start = h("button", { type: "button", class: "primary", id: "company-export", onclick: async () => {
    start.disabled = true;
    try {
      let exported = await api.post("/exports/company");
      showExport(holder, exported);
      while (BUSY.includes(exported.status) && holder.isConnected) {
        await sleep(POLL_MS);
        exported = await api.get(`/exports/${exported.id}`);
        showExport(holder, exported);
      }
    } catch (error) {
      replace(holder, h("div", { class: "error-box", role: "alert",
        "data-code": error instanceof ApiError ? error.code : undefined }, describeError(error)));
    } finally {
      start.disabled = false;
    }
  } }, t("companyExport.start"));
  const element = section(t("companyExport.title"), h("p", { class: "help" }, t("companyExport.help")),
    h("div", { class: "page-actions" }, start), holder);
  element.id = "company-export-card";
  return element;
}
