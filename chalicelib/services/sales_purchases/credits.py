"""What a partner owes us (client) or we owe it (supplier). The summary (balance, credit
limit, overdue days, open documents) reads the partner item and the first page of its
open-document index; the statement reads the partner's own ledger (monthly totals and a page
of movements). Both cost the same few calls however long the partner's history."""
from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from chalicelib import clock
from chalicelib.domain import currency
from chalicelib.domain import documents as document_rules
from chalicelib.domain.accounting import previous_day, totals_through
from chalicelib.domain.records import PartnerRecord
from chalicelib.errors import NotFound, ValidationFailed
from chalicelib.messages.phrases import Phrase
from chalicelib.services.accounting import reports
from chalicelib.services.accounting.posting import month_balance
from chalicelib.services.banking import exchange_rates
from chalicelib.services.sales_purchases import partners
from chalicelib.store import keys
from chalicelib.store.repositories import partners as partner_store
from chalicelib.store.table import Table

SIDES = {"client": (keys.RECEIVABLE_SIDE, "receivableBalance", "openReceivables", ("customer", "both")),
         "supplier": (keys.PAYABLE_SIDE, "payableBalance", "openPayables", ("supplier", "both"))}
# open documents shown in full; `pendingDocumentCount` counts them all
SHOWN_DOCUMENTS = 100


def _partner(table: Table, company_id: int, side_name: str, partner_id: int) -> PartnerRecord:
    partner = partners.get_partner(table, company_id, partner_id)
    if partner["type"] not in SIDES[side_name][3]:
        raise NotFound(Phrase("No {} with that id.", side_name))
    return partner


def summary(table: Table, company_id: int, side_name: str, partner_id: int) -> dict[str, Any]:
    side, balance_field, count_attribute, _ = SIDES[side_name]
    partner = _partner(table, company_id, side_name, partner_id)
    open_items = partner_store.open_documents(table, company_id, partner_id, side, limit=SHOWN_DOCUMENTS)
    company = table.get(keys.company(company_id)) or {}
    today, own = clock.company_today(company), exchange_rates.company_currency(company)
    shown = open_items[:SHOWN_DOCUMENTS]
    found = table.batch_get([keys.document(company_id, item["documentId"]) for item in shown]) \
        if shown else {}
    documents = []
    for item in shown:
        document = found.get(keys.pair(keys.document(company_id, item["documentId"])))
        if document is None:
            continue
        documents.append({"id": document["id"], "type": document["type"], "number": document.get("number"),
                          "date": document["date"], "dueDate": document["dueDate"], "total": document["total"],
                          "pending": document["pending"], "currency": document.get("currency"),
                          "exchangeRate": currency.rate_of(document), "basePending": currency.base_pending(document, own).amount,
                          "overdueDays": document_rules.overdue_days([document["dueDate"]], today)})
    by_side: Mapping[str, Any] = partner  # the side's attributes, named by SIDES
    balance = Decimal(by_side.get(balance_field, 0))
    limit = partner.get("credit_limit")
    return {"businessPartnerId": partner_id, "name": partner["name"], "pendingBalance": balance,
            "credit_limit": limit, "available": (Decimal(limit) - balance) if limit is not None else None,
            "credit_block_days": partner.get("credit_block_days"),
            "overdueDays": document_rules.overdue_days([item["dueDate"] for item in open_items[:1]], today),
            "oldestDueDate": open_items[0]["dueDate"] if open_items else None,
            "pendingDocumentCount": int(by_side.get(count_attribute, 0)), "pendingDocuments": documents}


def statement(table: Table, company_id: int, side_name: str, partner_id: int, start_date: str | None,
              end_date: str | None, limit: int, cursor: str | None) -> dict[str, Any]:
    """The balance at the start of `start_date` (default: 1 January of the end's year), the
    movements to `end_date` (default: today) with the running balance (a page of `limit`,
    `nextCursor` for the rest) and the closing balance. Read from the partner's own ledger:
    its monthly totals up to the end, then one page of movements."""
    side = SIDES[side_name][0]
    partner = _partner(table, company_id, side_name, partner_id)
    if end_date is None:  # the company's own today
        end_date = clock.company_today(table.get(keys.company(company_id)))
    start_date = start_date or f"{end_date[:4]}-01-01"
    if start_date > end_date:
        raise ValidationFailed.for_field("startDate", "must not be after the end date")
    partition = keys.partner_ledger_partition(company_id, partner_id, side)
    months = [month_balance(item) for item in partner_store.ledger_months(table, company_id, partner_id, side,
                                                                          end_date)]
    opening_charges, opening_credits = totals_through(months, previous_day(start_date))
    closing_charges, closing_credits = totals_through(months, end_date)
    items, (charges_before, credits_before), next_cursor = reports.dated_page(
        table, partition, keys.PARTNER_MOVEMENT_PREFIX, start_date, end_date, limit, cursor, months,
        lambda movement: (movement["charge"], movement["credit"]))
    balance, movements = charges_before - credits_before, []
    for item in items:
        balance += item["charge"] - item["credit"]
        movements.append({"date": item["date"], "description": item.get("description"),
                          "documentId": item.get("documentId"), "documentType": item.get("documentType"),
                          "number": item.get("number"), "paymentId": item.get("paymentId"),
                          "paymentKind": item.get("paymentKind"), "charge": item["charge"], "credit": item["credit"],
                          "balance": balance, "currency": item.get("currency"),
                          "exchangeRate": item.get("exchangeRate"), "amountInCurrency": item.get("amountInCurrency")})
    return {"businessPartnerId": partner_id, "name": partner["name"], "startDate": start_date, "endDate": end_date,
            "openingBalance": opening_charges - opening_credits,
            "totalCharges": closing_charges - opening_charges, "totalCredits": closing_credits - opening_credits,
            "closingBalance": closing_charges - closing_credits, "movements": movements, "limit": limit,
            "nextCursor": next_cursor}
