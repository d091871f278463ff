"""The `opening-balances` import: the trial balance at the changeover date (accountCode, debit,
credit). It must balance. The accounts behind a subledger that holds records (receivables and
payables: the open items; inventory: the opening stock; advances; a bank account's ledger: its
opening balance) are not posted: the file's figure must equal what the books already hold at the
date, so `open-items` and `opening-stock` come first. The tax accounts (sales and purchase tax,
withholdings) are posted: their subledger, the tax books, starts at the changeover and a settlement
reads their balance. Every other account is posted in entries of at most `LINES_PER_ENTRY` lines,
each balanced by its own line on the `opening_balance_equity` account (a unit each), so that after
the three kinds that account nets to zero and the trial balance at the date is the file's."""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from chalicelib.domain import accounting
from chalicelib.domain.accounting import ZERO
from chalicelib.domain.import_rows import Column, Row, RowError
from chalicelib.messages.books import book_text
from chalicelib.messages.phrases import Phrase
from chalicelib.services.accounting import account_determination, chart, control_accounts, journal, reports
from chalicelib.services.accounting.posting import rule_items
from chalicelib.services.commands import Command
from chalicelib.services.imports import opening_cells
from chalicelib.services.imports.kinds import Checked, ImportContext

COLUMNS = (
    Column("accountCode", "Cuenta", True, "110101", aliases=("código", "codigo", "code")),
    Column("debit", "Debe", False, "12500.00", aliases=("débito", "debito")),
    Column("credit", "Haber", False, "0.00", aliases=("crédito", "credito")),
)
# an entry posts a line and two items per account (balance, guard): 25 lines and the equity line
# are 78 items, the entry and its overhead 8 more, the marker and the job's progress 2
LINES_PER_ENTRY = 25
# control accounts the opening balances post: their subledger starts at the changeover
POSTED_CONTROLS = ("tax_sales", "tax_purchases", "withholding")


def _amount_text(value: Decimal) -> str:
    return f"{value:,.2f}"


def _post(context: ImportContext, command: Command, changeover: str, equity_id: int, posted_controls: frozenset[int],
          unit: opening_cells.OpeningUnit) -> None:
    """The unit's entry, balanced on the opening balance equity account, with its marker."""
    difference = sum((line["debit"] - line["credit"] for line in unit.lines), ZERO)
    balancing = [{"chartOfAccountId": equity_id, "debit": max(-difference, ZERO),
                  "credit": max(difference, ZERO)}] if difference else []
    transaction, entry = journal.entry_writes(command, {
        "date": changeover, "status": accounting.POSTED, "description": book_text("opening_balances", date=changeover),
        "lines": [*unit.lines, *balancing]}, controls_allowed=posted_controls)
    context.mark_done(transaction, unit.unit)
    command.commit(transaction, entry)


class OpeningBalances:
    name = "opening-balances"
    columns = COLUMNS
    needs_date = True

    def check(self, context: ImportContext, rows: list[Row]) -> Checked:
        errors: list[RowError] = []
        table, company_id = context.table, context.company_id
        changeover = opening_cells.changeover(context, errors)
        opening_cells.refuse_closed_changeover(context, changeover, errors)
        accounts = {account["code"]: account for account in chart.all_accounts(table, company_id)}
        rules = rule_items(table, company_id)
        equity_id = int(account_determination.resolve(table, company_id, "opening_balance_equity", None)["chartOfAccountId"])
        controlled = control_accounts.control_accounts(table, company_id, rules)
        posted_controls = frozenset(int(rule["chartOfAccountId"]) for rule in rules
                                    if rule["operationType"] in POSTED_CONTROLS)
        compared = {account_id: subledger for account_id, subledger in controlled.items()
                    if account_id not in posted_controls}
        first_line: dict[str, int] = {}
        figures: list[tuple[Row, dict[str, Any], Decimal, Decimal]] = []
        total_debit = total_credit = ZERO
        for row in rows:
            problems: list[RowError] = []
            code = row.values.get("accountCode")
            account = accounts.get(code or "")
            if code is None:
                problems.append(RowError(row.line, "accountCode", "required"))
            elif account is None:
                problems.append(RowError(row.line, "accountCode", Phrase("no account has the code {}", code)))
            elif int(account.get("childCount", 0)) > 0:
                problems.append(RowError(row.line, "accountCode",
                        Phrase("account {} has sub-accounts: give the balances of those", code)))
            elif not account.get("isActive", True):
                problems.append(RowError(row.line, "accountCode", Phrase("account {} is inactive", code)))
            debit = opening_cells.money(row, "debit", problems) or ZERO
            credit = opening_cells.money(row, "credit", problems) or ZERO
            for column, value in (("debit", debit), ("credit", credit)):
                if value < 0:
                    problems.append(RowError(row.line, column, "must not be negative"))
            total_debit, total_credit = total_debit + debit, total_credit + credit
            if code in first_line:
                problems.append(RowError(row.line, "accountCode",
                        Phrase("repeats the account of line {}", first_line[code])))
            if problems or account is None or code is None:
                errors.extend(problems)
                continue
            first_line[code] = row.line
            if int(account["id"]) == equity_id and debit != credit:
                errors.append(RowError(row.line, "accountCode",
                        Phrase("account {} is the opening balance equity account, which the import balances: leave it "
                               "out", code)))
                continue
            figures.append((row, account, debit, credit))
        if total_debit != total_credit:
            errors.append(RowError(0, None, Phrase("the trial balance does not balance: debits {}, credits {}",
                                                   _amount_text(total_debit), _amount_text(total_credit))))
        if changeover is None or errors:
            return Checked(errors, None)
        books = reports.month_balances_through(table, company_id, changeover)

        def held(account: dict[str, Any]) -> Decimal:
            return accounting.natural_balance(account["type"], *accounting.totals_through(
                books.get(int(account["id"]), []), changeover))

        to_post: list[tuple[Row, dict[str, Any], Decimal, Decimal]] = []
        in_file = set()
        for row, account, debit, credit in figures:
            in_file.add(int(account["id"]))
            if int(account["id"]) in compared:
                said, there = accounting.natural_balance(account["type"], debit, credit), held(account)
                if said != there:
                    errors.append(RowError(row.line, "accountCode",
                            Phrase("account {} {}: the file says {}, the books hold {} from the open items, the "
                                   "opening stock and the bank accounts (import those first)",
                                   account['code'], account['name'], _amount_text(said), _amount_text(there))))
            elif debit != credit:
                to_post.append((row, account, debit, credit))
        for account_id in compared:
            account = next((a for a in accounts.values() if int(a["id"]) == account_id), None)
            if account is not None and account_id not in in_file and held(account):
                errors.append(RowError(0, "accountCode", Phrase("account {} {}: the file says 0.00, the books hold {}",
                                                                account['code'], account['name'], _amount_text(held(account)))))
        units = []
        for number, piece in opening_cells.chunks(to_post, LINES_PER_ENTRY):
            unit = opening_cells.OpeningUnit(f"opening-balances/{number}", [
                {"chartOfAccountId": int(account["id"]), "debit": max(debit - credit, ZERO),
                 "credit": max(credit - debit, ZERO)} for _, account, debit, credit in piece],
                tuple(row.line for row, _, _, _ in piece))
            if not context.is_done(unit.unit):  # landed by this job: its balances are its own
                errors.extend(RowError(row.line, "accountCode",
                        Phrase("account {} already holds {} at the changeover date",
                               account['code'], _amount_text(held(account))))
                              for row, account, _, _ in piece if held(account))
            units.append(unit)
        return Checked(errors, None if errors else (changeover, equity_id, posted_controls, units))

    def apply(self, context: ImportContext, plan: tuple[str, int, frozenset[int], list[opening_cells.OpeningUnit]]) -> dict[str, int]:
        changeover, equity_id, posted_controls, units = plan
        command = opening_cells.command_for(context)
        # this job's entries and their lines
        return opening_cells.land_openings(context, units, lambda unit: _post(context, command, changeover, equity_id,
                                                                     posted_controls, unit))


KIND = OpeningBalances()
