"""Settling a period's tax: the sales and purchase tax accounts (and, when asked, the withholdings
made) are control accounts no manual entry moves (control_accounts.py), so their way out is this
use case. One transaction: the automatic entry (its source the settlement), the bank withdrawal
that pays what the input credit does not cover (the bank account's balance and its ledger move
together), the settlement record and the company's settlement guard.

The figures are the accounts' balances at `periodEnd`, read from the books: everything posted up
to that day, earlier settlements included. A settlement's period must therefore end on or after
the previous settlement's date (the guard holds it): its entry is inside what the next one reads,
so nothing is settled twice, and whatever posts late into a settled period is simply in the next
settlement's balances."""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from chalicelib.domain import accounting
from chalicelib.domain.accounting import CREDIT, DEBIT, ZERO, Movement
from chalicelib.domain.tax_settlements import SettlementFigures, settlement_figures
from chalicelib.errors import ApiError, NotFound, ValidationFailed
from chalicelib.messages.books import book_text
from chalicelib.messages.phrases import Phrase
from chalicelib.services import records
from chalicelib.services.accounting import account_determination, reports
from chalicelib.services.accounting.posting import JournalWrites, Source, rule_items
from chalicelib.services.banking import bank_transactions, banking, exchange_rates
from chalicelib.services.commands import Command
from chalicelib.store import keys
from chalicelib.store.listing import Page
from chalicelib.store.repositories import tax_settlements as settlement_store
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

NOTHING_TO_SETTLE = "NOTHING_TO_SETTLE"
OVERLAP = "TAX_SETTLEMENT_OVERLAP"
_GUARD = "TAXSETTLEMENT"


class SettlementRefused(ApiError):
    """A refusal of this use case: each raise names its code."""


def list_settlements(table: Table, company_id: int, page: int, limit: int) -> Page:
    """Newest first: a few a year, one partition read whole."""
    newest_first = sorted(records.small_records(table, company_id, keys.TAX_SETTLEMENT), key=lambda item: -int(item["id"]))
    return records.small_page(newest_first, page, limit)


def get_settlement(table: Table, company_id: int, settlement_id: int) -> dict[str, Any]:
    item = table.get(keys.small_record(company_id, keys.TAX_SETTLEMENT, settlement_id))
    if item is None:
        raise NotFound("Tax settlement not found.")
    return item


def settle_taxes(command: Command, fields: dict[str, Any]) -> dict[str, Any]:
    table, company_id = command.table, command.company_id
    date, period_end = fields["date"], fields["periodEnd"]
    if date < period_end:
        raise ValidationFailed.for_field("date", Phrase("must not be before the period's end ({})", period_end))
    guard = table.get(keys.guard(company_id, _GUARD)) or {}
    previous = guard.get("lastDate")
    if previous and period_end < previous:
        raise SettlementRefused(
            Phrase("The previous tax settlement is dated {}: a settlement's period ends on or after it, so that "
                   "nothing is settled twice.", previous), code=OVERLAP,
            details=[{"field": "periodEnd", "message": Phrase("must be on or after {}, the previous settlement's date",
                                                              previous)}])
    sales_account = _rule_account(table, company_id, "tax_sales")
    purchases_account = _rule_account(table, company_id, "tax_purchases")
    withholdings = _withholdings_owed(table, company_id, period_end) if fields.get("includeWithholdings") else {}
    figures = settlement_figures(reports.balance_at(table, company_id, sales_account, period_end),
                                 reports.balance_at(table, company_id, purchases_account, period_end),
                                 sum(withholdings.values(), ZERO))
    if not figures.settles_anything:
        raise SettlementRefused(Phrase("On {} the tax accounts hold nothing to settle: no output tax is owed and no "
                                       "withholding is owed.",
                                       period_end) if fields.get('includeWithholdings') else
                Phrase("On {} the tax accounts hold nothing to settle: no output tax is owed.", period_end),
                                code=NOTHING_TO_SETTLE,
                                details=[{"field": "periodEnd", "message": "no tax is owed at this date"}])
    bank = _paying_account(command, fields.get("bankAccountId"), figures)
    settlement_id = table.next_id(keys.id_sequence(company_id, keys.TAX_SETTLEMENT))
    movements = [Movement("tax_sales", DEBIT, figures.output_tax, account_id=sales_account),
                 Movement("tax_purchases", CREDIT, figures.offset, account_id=purchases_account),
                 *(Movement("withholding", DEBIT, owed, account_id=account_id)
                   for account_id, owed in withholdings.items())]
    if bank is not None:
        movements.append(Movement("bank", CREDIT, figures.payment, account_id=bank["chartOfAccountId"]))
    writes = JournalWrites(company_id)
    description = book_text("tax_settlement", settlement=settlement_id, period_end=period_end)
    entry = writes.automatic_entry(table, [], source=Source("tax_settlement", settlement_id), date=date,
                                   description=description, movements=movements)
    transaction = command.transaction()
    bank_transaction = None
    if bank is not None:
        bank_transaction = bank_transactions.add_transaction(
            transaction, company_id, bank, tx_id=bank_transactions.next_transaction_id(table, company_id), tx_type="withdrawal",
            amount=figures.payment, date=date, reference=description, journal_entry_id=entry["id"])
    writes.apply(transaction)
    item = {**keys.small_record(company_id, keys.TAX_SETTLEMENT, settlement_id), "itemType": keys.TAX_SETTLEMENT,
            "id": settlement_id, "date": date, "periodEnd": period_end, **_figures_fields(figures),
            "includeWithholdings": bool(fields.get("includeWithholdings")),
            "bankAccountId": bank["id"] if bank else None,
            "bankTransactionId": bank_transaction["id"] if bank_transaction else None,
            "journalEntryId": entry["id"], "createdAt": entry["createdAt"]}
    transaction.put_new({name: value for name, value in item.items() if value is not None})
    _advance_guard(transaction, company_id, previous, date, period_end)
    return command.commit(transaction, {name: value for name, value in item.items()
                                        if value is not None and name not in keys.INDEX_ATTRIBUTES})


def _advance_guard(transaction: Transaction, company_id: int, previous: str | None, date: str, period_end: str) -> None:
    """The guard moves to this settlement's date only from the date the command read: a
    settlement recorded in between (the same month's, twice at once) makes this one refused."""
    overlap = SettlementRefused("Another tax settlement was recorded meanwhile; send this one again.", code=OVERLAP,
                                details=[{"field": "periodEnd", "message": "another settlement was recorded meanwhile"}])
    settlement_store.advance(transaction, company_id, _GUARD, previous, date, period_end, overlap)


def _figures_fields(figures: SettlementFigures) -> dict[str, Decimal]:
    return {"outputTax": figures.output_tax, "inputTax": figures.input_tax, "offset": figures.offset,
            "taxPaid": figures.tax_paid, "withholdingsPaid": figures.withholdings_paid, "amountPaid": figures.payment,
            "creditCarriedForward": figures.credit_carried_forward}


def _rule_account(table: Table, company_id: int, operation: str) -> int:
    return int(account_determination.resolve(table, company_id, operation, None)["chartOfAccountId"])


def _withholdings_owed(table: Table, company_id: int, period_end: str) -> dict[int, Decimal]:
    """Each withholding rule's account holding a credit balance at the period's end: what the
    company withheld and owes the tax authority. One holding a debit balance (the withholdings
    customers made, a claim) stays as it is."""
    owed: dict[int, Decimal] = {}
    for account_id in sorted({int(rule["chartOfAccountId"]) for rule in rule_items(table, company_id)
                              if rule["operationType"] == "withholding"}):
        account, months = reports.account_and_months(table, company_id, account_id, period_end)
        debit, credit = accounting.totals_through(months, period_end)
        if credit - debit > 0:
            owed[account_id] = credit - debit
    return owed


def _paying_account(command: Command, bank_account_id: int | None, figures: SettlementFigures) -> dict[str, Any] | None:
    """The bank account that pays, when there is anything to pay: active, in the company's currency
    (the payment is the books' own figure)."""
    if figures.payment == 0:
        return None
    if bank_account_id is None:
        raise ValidationFailed.for_field("bankAccountId", Phrase("required: {} is to be paid", figures.payment))
    try:
        bank = banking.get_bank_account(command.table, command.company_id, bank_account_id)
    except ApiError:
        raise ValidationFailed.for_field("bankAccountId", "no such bank account") from None
    if not bank.get("isActive", True):
        raise ValidationFailed.for_field("bankAccountId", "the bank account is inactive")
    own = exchange_rates.company_currency(exchange_rates.company_of(command.table, command.company_id))
    if bank.get("currency") not in (None, own):
        raise ValidationFailed.for_field("bankAccountId", Phrase("must be in the company's own currency {}, not {}",
                                                                 own, bank['currency']))
    return bank
