// issue 42: console. "Conciliación bancaria" of one bank account: a statement uploaded (its own card,
// bank-statement-upload.js), the statements imported (each can start a reconciliation), and the
// lines: the unmatched ones each beside its best suggestion (OK accepts it; Buscar, Crear,
// Transferencia, Ignorar: bank-line-actions.js), the matched ones (Deshacer) and the ignored ones
// (Restaurar), a page at a time.
import { api } from "../api.js";
import { h, replace } from "../dom.js";
import { date, dateTime, money, number } from "../format.js";
import { t } from "../i18n.js";
import { act, button, describeError, loadInto, pageHeader, pagerView, section, tableView, toast } from "../ui.js";
import {
  acceptBody, createDialog, describeSuggestion, lineCall, namesFor, reasonChips, searchDialog, transferDialog,
} from "./bank-line-actions.js";
import { signedAmount, uploadSection } from "./bank-statement-upload.js";
import { attachmentsDialog } from "./attachments.js";

const TABS = ["unmatched", "matched", "ignored"];
const LIMIT = 20;

export async function render(ctx) {
  const account = await api.get(`/bank-accounts/${ctx.params.id}`);
  const base = `/bank-accounts/${account.id}`;
  const currency = account.currency;
  const state = { tab: TABS.includes(ctx.query.tab) ? ctx.query.tab : "unmatched", page: 1 };
  const statements = h("div", { id: "statements" });
  const lines = h("div", { id: "statement-lines" });
  const tabs = h("div", { class: "tabs", role: "tablist", id: "statement-tabs" });

  const reconcile = async (statement) => {
    try {
      const reconciliation = await api.post(`${base}/reconciliations`, { statementId: statement.id });
      toast(t("stmt.reconcile.started"));
      ctx.navigate(`/banking/${account.id}?reconciliation=${reconciliation.id}`);
    } catch (error) {
      toast(describeError(error), "error");
    }
  };

  const showStatements = () => loadInto(statements, async () => {
    const answer = await api.get(`${base}/statements`, { limit: 10 });
    return h("div", { class: "table-scroll" }, tableView({ rows: answer.statements || [], empty: t("stmt.none"), columns: [
      { label: t("stmt.file"), class: "import-file-name", value: (s) => [s.fileName,
        h("span", { class: "cell-note" }, t("stmt.importedAt", { when: dateTime(s.createdAt) }))] },
      { label: t("stmt.format"), value: (s) => t(`stmt.format.${s.format}`) },
      { label: t("stmt.period"), class: "nowrap", value: (s) => `${date(s.periodStart)} – ${date(s.periodEnd)}` },
      { label: t("stmt.linesImported"), class: "num", value: (s) => number(s.linesImported, 0) },
      { label: t("stmt.closingBalance"), class: "num", value: (s) => money(s.closingBalance, currency) },
      { label: t("common.actions"), class: "actions", value: (s) => button(t("stmt.reconcile"), () => reconcile(s), "reconcile-statement") },
    ] }));
  });

  // the account's balances move with each match: read again after every action
  const figures = h("div", { class: "figures", id: "statement-figures" });
  const drawFigures = (current) => replace(figures,
    h("div", { class: "figure" }, h("span", { class: "figure-label" }, t("bank.balance")),
      h("strong", { id: "statement-account-balance" }, money(current.balance, currency))),
    h("div", { class: "figure" }, h("span", { class: "figure-label" }, t("bank.reconciledBalance")),
      h("strong", {}, money(current.reconciledBalance, currency))));
  const showFigures = () => api.get(base).then(drawFigures).catch(() => {});
  drawFigures(account);

  const refreshAll = async () => { await Promise.all([showLines(), showStatements(), showFigures()]); };

  function drawTabs() {
    replace(tabs, TABS.map((tab) => h("button", { type: "button", role: "tab", id: `tab-${tab}`, "aria-selected": String(tab === state.tab),
      class: tab === state.tab ? "tab active" : "tab", onclick: () => { state.tab = tab; state.page = 1; drawTabs(); showLines(); } },
    t(`stmt.tab.${tab}`))));
  }

  function showLines() {
    return loadInto(lines, async () => {
      const answer = await api.get(`${base}/statement-lines`, { status: state.tab, page: state.page, limit: LIMIT });
      const rows = answer.statementLines || [];
      const names = namesFor(account);
      const pager = pagerView({ page: state.page, limit: LIMIT, total: answer.total,
        onPage: (next) => { state.page = next; showLines(); } });
      if (state.tab === "unmatched") {
        if (!rows.length) return h("p", { class: "empty" }, t("stmt.lines.allDone"));
        const drawn = await Promise.all(rows.map((line) => unmatchedRow(line, names)));
        return [h("div", { class: "rec-head", "aria-hidden": "true" }, h("span", {}, t("stmt.col.bank")), h("span", {}, t("stmt.col.suggestion"))),
          h("div", { class: "rec-rows" }, drawn), pager];
      }
      return [h("div", { class: "table-scroll" }, state.tab === "matched" ? matchedTable(rows, names) : ignoredTable(rows)), pager];
    });
  }

  const after = async () => { await Promise.all([showLines(), showFigures()]); };
  // issue 44: a line's papers (the bank's receipt...), in a dialog; deleted while it is not matched
  const papers = (line, editable) => button(t("records.att.title"), () => attachmentsDialog("statementLine", line.id,
    t("records.att.lineTitle", { date: date(line.date), amount: money(line.amount, currency) }), editable), "rec-attachments");
  const lineView = (line) => h("div", { class: "rec-line" },
    h("div", { class: "rec-line-top" }, h("span", { class: "rec-date" }, date(line.date)),
      h("strong", { class: "rec-line-amount" }, signedAmount(line.amount, currency))),
    h("div", { class: "rec-description" }, line.description),
    line.reference ? h("div", { class: "cell-note" }, `${t("stmt.reference")}: ${line.reference}`) : null);

  async function unmatchedRow(line, names) {
    const suggestions = line.suggestions || [];
    let shown = 0;
    const box = h("div", { class: "rec-suggestion" });
    const row = h("article", { class: "rec-row", "data-line": line.id, "data-amount": line.amount }, lineView(line), box);
    const drawSuggestion = async () => {
      const suggestion = suggestions[shown];
      if (!suggestion) {
        replace(box, h("p", { class: "empty rec-none" }, t("stmt.noSuggestion")));
        return;
      }
      const other = suggestions.length > 1 ? button(t("stmt.nextSuggestion", { index: shown + 1, count: suggestions.length }), () => {
        shown = (shown + 1) % suggestions.length;
        drawSuggestion();
      }, "link rec-next") : null;
      replace(box, h("div", { class: "rec-suggested", "data-kind": suggestion.kind },
        await describeSuggestion(names, suggestion, account)),
      h("div", { class: "rec-why" }, reasonChips(suggestion.reasons),
        h("span", { class: "rec-score", title: t("stmt.score") }, `${suggestion.score}%`), other));
    };
    await drawSuggestion();
    const accept = button(t("stmt.ok"), async () => {
      const suggestion = suggestions[shown];
      accept.disabled = true;
      try {
        await lineCall(account.id, line.id, "match", await acceptBody(names, suggestion, line));
        toast(t("stmt.matched"));
        await after();
      } catch (error) {
          toast(describeError(error), "error");
        accept.disabled = false;
      }
    }, "primary rec-ok");
    accept.disabled = !suggestions.length;
    row.append(h("div", { class: "rec-actions" }, accept,
      button(t("stmt.search"), () => {
        const suggestion = suggestions[shown];
        searchDialog(account, line, names, suggestion && suggestion.kind === "document" ? suggestion.documents : [], after);
      }, "rec-search"),
      button(t("stmt.create"), () => createDialog(account, line, after), "rec-create"),
      button(t("stmt.transfer"), () => transferDialog(account, line, after), "rec-transfer"),
      button(t("stmt.ignore"), () => act(null, () => lineCall(account.id, line.id, "ignore"), after, t("stmt.ignored")), "rec-ignore"),
      papers(line, true)));
    return row;
  }

  function matchWhat(line, names) {
    const match = line.match || {};
    const holder = h("span", { class: "rec-match", "data-kind": match.kind }, t(`stmt.match.${match.kind}`));
    if (match.kind === "documents") {
      const list = h("span", {});
      holder.append(" ", list);
      Promise.all((match.documents || []).map(async (d) => {
        const document = await names.document(d.documentId);
        return h("a", { href: `#/documents/${d.documentId}`, class: "doc-number" },
          document ? `${document.number || `#${document.id}`}` : `#${d.documentId}`);
      })).then((links) => replace(list, links.flatMap((link, index) => (index ? [", ", link] : [link]))));
    } else if (match.kind === "transfer") {
      names.bankAccounts().then((accounts) => {
        const other = (accounts || []).find((b) => b.id === match.transferToAccountId);
        holder.append(` · ${other ? other.name : `#${match.transferToAccountId}`}`);
      });
    }
    if (match.journalEntryId) holder.append(" · ", h("a", { href: `#/accounting/entries/${match.journalEntryId}` }, `#${match.journalEntryId}`));
    return holder;
  }

  // the reference under the description, the match's time under what it matched: the table fits a laptop
  const lineColumns = [
    { label: t("stmt.date"), class: "nowrap", value: (line) => date(line.date) },
    { label: t("stmt.description"), class: "rec-description-cell", value: (line) => [line.description,
      line.reference ? h("span", { class: "cell-note" }, `${t("stmt.reference")}: ${line.reference}`) : null] },
    { label: t("stmt.amount"), class: "num", value: (line) => signedAmount(line.amount, currency) },
  ];
  const matchedTable = (rows, names) => tableView({ rows, empty: t("common.empty"), columns: [...lineColumns,
    { label: t("stmt.matchedWith"), value: (line) => [matchWhat(line, names),
      h("span", { class: "cell-note" }, t("stmt.matchedAt", { when: dateTime(line.match?.matchedAt) }))] },
    { label: t("common.actions"), class: "actions", value: (line) => [button(t("stmt.unmatch"), () => act(t("stmt.unmatch.confirm"),
      () => lineCall(account.id, line.id, "unmatch"), after, t("stmt.unmatched")), "rec-unmatch"), papers(line, false)] },
  ] });
  const ignoredTable = (rows) => tableView({ rows, empty: t("common.empty"), columns: [...lineColumns,
    { label: t("common.actions"), class: "actions", value: (line) => [button(t("stmt.unignore"),
      () => act(null, () => lineCall(account.id, line.id, "unignore"), after, t("stmt.restored")), "rec-unignore"), papers(line, true)] },
  ] });

  drawTabs();
  ctx.root.append(
    pageHeader(t("stmt.title", { account: account.name }),
      h("a", { href: "#/bank-rules", class: "button-like", id: "open-bank-rules" }, t("stmt.rule.title"))),
    figures,
    uploadSection(account, { onImported: refreshAll, reconcile }),
    section(t("stmt.lines.title"), tabs, lines),
    section(t("stmt.list.title"), statements),
    h("p", {}, h("a", { href: `#/banking/${account.id}` }, t("common.back"))));
  await refreshAll();
}
