"""The `open-items` import: the customer and supplier invoices still open at the changeover date,
each an opening document (900 a customer's, 901 a supplier's) made exactly as
POST /business-partners/{id}/opening-balance makes it (services/sales_purchases/opening_balances.py),
in its own currency and rate: the receivable or payable in the company's currency is amount x rate.
One document a transaction (a unit: its marker commits with it). Natural key: (partner, side,
documentNumber), against the file and the partner's opening documents already stored."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from chalicelib.domain import currency as currency_rules
from chalicelib.domain import documents as document_rules
from chalicelib.domain.import_rows import Column, Row, RowError
from chalicelib.domain.money import Money
from chalicelib.errors import ValidationFailed
from chalicelib.messages.phrases import Phrase
from chalicelib.models.base import CURRENCIES
from chalicelib.models.partners import OpeningBalanceCreate
from chalicelib.services.accounting import posting
from chalicelib.services.banking import exchange_rates
from chalicelib.services.imports import opening_cells, row_checks
from chalicelib.services.imports.kinds import Checked, ImportContext, refused_rows
from chalicelib.services.sales_purchases import opening_balances, partners
from chalicelib.store import keys
from chalicelib.store.repositories import documents as document_store
from chalicelib.store.transaction import Transaction

COLUMNS = (
    Column("partnerTaxId", "RTN o NIT del socio", True, "08011999123456", aliases=("RTN", "NIT", "taxId")),
    Column("side", "Lado", True, "customer", aliases=("tipo",)),
    Column("documentNumber", "Número de documento", True, "000-001-01-00001234", aliases=("numero", "factura")),
    Column("date", "Fecha", True, "2025-12-15"),
    Column("dueDate", "Vencimiento", False, "2026-01-14", aliases=("fechaVencimiento",)),
    Column("amount", "Monto", True, "11500.00", aliases=("saldo",)),
    Column("currency", "Moneda", False, "HNL"),
    Column("exchangeRate", "Tasa de cambio", False, "1"),
)
# cliente/proveedor: the Spanish template's words for the side
SIDES = {"customer": "receivable", "cliente": "receivable", "supplier": "payable", "proveedor": "payable"}
_PARTNER_SIDES = {"customer": {"receivable"}, "supplier": {"payable"}, "both": {"receivable", "payable"}}
# the currencies the API takes (POST /documents' `currency`): a document in another is refused
_OPENING_TYPES = {"receivable": document_rules.OPENING_RECEIVABLE, "payable": document_rules.OPENING_PAYABLE}


@dataclass(frozen=True)
class OpenItem:
    line: int
    unit: str
    partner_id: int
    side: str
    fields: dict[str, Any]


def _unit(partner_id: int, side: str, number: str) -> str:
    return f"open-item/{partner_id}/{side}/{number.casefold()}"


def _partners_by_tax_id(context: ImportContext, tax_ids: set[str]) -> dict[str, dict[str, Any]]:
    """Tax id as written -> the partner (two BatchGetItems: the reservations, then the partners)."""
    company_id = context.company_id
    reservations = context.table.batch_get([partners.tax_id_key(company_id, tax_id) for tax_id in tax_ids])
    partner_of = {tax_id: int(found["partnerId"]) for tax_id in tax_ids
                  if (found := reservations.get(keys.pair(partners.tax_id_key(company_id, tax_id))))}
    stored = context.table.batch_get([keys.entity(company_id, keys.PARTNER, p) for p in set(partner_of.values())])
    return {tax_id: item for tax_id, partner_id in partner_of.items()
            if (item := stored.get(keys.pair(keys.entity(company_id, keys.PARTNER, partner_id))))}


def _stored_numbers(context: ImportContext, partner_id: int) -> set[tuple[str, str]]:
    """(side, documentNumber casefolded) of the partner's opening documents not cancelled."""
    documents = document_store.of_partner(context.table, context.company_id, partner_id)
    sides = {code: side for side, code in _OPENING_TYPES.items()}
    return {(sides[document["type"]], str(document.get("reference") or "").casefold()) for document in documents
            if document.get("type") in sides and document.get("status") != document_rules.CANCELLED}


def _refused_by_the_write(row: Row, when: str, due: str | None, amount: Any, number: str | None, side: str,
                          rate: Any, currency: str, own: str) -> list[RowError]:
    """What the opening balance's own rules refuse of a row otherwise right: the API's request model
    (the amount's limit, the reference's length) and the amount in the company's currency at the rate
    (over the money limit, or nothing): `amount` is in `currency`, the company's is `own`."""
    _, problems = row_checks.validated(OpeningBalanceCreate, row, {
        "date": when, "amount": str(amount), "dueDate": due, "reference": number, "side": side})
    # the request's `reference` is this file's documentNumber
    problems = [RowError(p.row, "documentNumber" if p.column == "reference" else p.column, p.message) for p in problems]
    if rate is not None and not problems:
        try:
            currency_rules.converted(Money(amount, currency), rate, own, "exchangeRate")
        except ValidationFailed as refused:
            problems += row_checks.refusal(row, refused, "exchangeRate")
    return problems


class OpenItems:
    name = "open-items"
    columns = COLUMNS
    needs_date = True

    def check(self, context: ImportContext, rows: list[Row]) -> Checked:
        errors: list[RowError] = []
        changeover = opening_cells.changeover(context, errors)
        company = exchange_rates.company_of(context.table, context.company_id)
        own_currency = exchange_rates.company_currency(company)
        found = _partners_by_tax_id(context, {row.values["partnerTaxId"] for row in rows
                                              if row.values.get("partnerTaxId")})
        stored: dict[int, set[tuple[str, str]]] = {}
        first_line: dict[str, int] = {}
        items: list[OpenItem] = []
        dated: list[tuple[int, str]] = []
        for row in rows:
            problems: list[RowError] = []
            values = row.values
            partner = found.get(values.get("partnerTaxId", ""))
            if values.get("partnerTaxId") and partner is None:
                problems.append(RowError(row.line, "partnerTaxId",
                        Phrase("no business partner has the tax id {}", values['partnerTaxId'])))
            elif partner is not None and not partner.get("isActive", True):
                problems.append(RowError(row.line, "partnerTaxId", "the business partner is inactive"))
            side = SIDES.get((values.get("side") or "").casefold())
            if side is None:
                problems.append(RowError(row.line, "side", "must be customer or supplier (cliente or proveedor)"))
            elif partner is not None and side not in _PARTNER_SIDES.get(partner.get("type", ""), set()):
                problems.append(RowError(row.line, "side", "the tax id is a supplier's, not a customer's: it has no invoices to collect"
                                         if side == "receivable" else
                                         "the tax id is a customer's, not a supplier's: it has no invoices to pay"))
            number = values.get("documentNumber")
            for column in ("partnerTaxId", "documentNumber"):
                if not values.get(column):
                    problems.append(RowError(row.line, column, "required"))
            when = opening_cells.day(row, "date", problems, required=True)
            due = opening_cells.day(row, "dueDate", problems)
            if when and changeover and when > changeover:
                problems.append(RowError(row.line, "date", Phrase("is after the changeover date {}", changeover)))
            if when and due and due < when:
                problems.append(RowError(row.line, "dueDate", "is before the document's date"))
            amount = opening_cells.money(row, "amount", problems, required=True)
            if amount is not None and amount <= 0:
                problems.append(RowError(row.line, "amount", "must be greater than zero"))
            currency = (values.get("currency") or own_currency).upper()
            rate = opening_cells.number(row, "exchangeRate", problems)
            if currency not in CURRENCIES:
                problems.append(RowError(row.line, "currency",
                        Phrase("is not one of the currencies {}: {}", ', '.join(CURRENCIES), currency)))
            elif currency == own_currency:
                if rate is not None and rate != 1:
                    problems.append(RowError(row.line, "exchangeRate",
                            Phrase("must be 1 (or left out) for the company's own currency {}", own_currency)))
                rate = None
            elif rate is None or rate <= 0:
                problems.append(RowError(row.line, "exchangeRate",
                        Phrase("required for a document in {}: how many {} one {} was worth",
                               currency, own_currency, currency)))
            if when:
                dated.append((row.line, when))
            if not problems and when and amount is not None and side is not None:
                problems += _refused_by_the_write(row, when, due, amount, number, side, rate, currency, own_currency)
            if problems or partner is None or side is None or number is None:
                errors.extend(problems)
                continue
            partner_id = int(partner["id"])
            unit = _unit(partner_id, side, number)
            if unit in first_line:
                errors.append(RowError(row.line, "documentNumber",
                        Phrase("repeats the open item of line {}", first_line[unit])))
                continue
            first_line[unit] = row.line
            if not context.is_done(unit):  # landed by this job: not a duplicate
                if partner_id not in stored:
                    stored[partner_id] = _stored_numbers(context, partner_id)
                if (side, number.casefold()) in stored[partner_id]:
                    errors.append(RowError(row.line, "documentNumber",
                            Phrase("the partner already has the opening document {}", number)))
                    continue
            items.append(OpenItem(row.line, unit, partner_id, side, {
                "side": side, "date": when, "dueDate": due or when, "amount": amount, "reference": number,
                "currency": currency, "exchangeRate": rate}))
        closed = posting.closed_dates(context.table, context.company_id, {when for _, when in dated})
        errors += [RowError(line, "date", closed[when]) for line, when in dated if when in closed]
        errors.sort(key=lambda error: error.row)
        return Checked(errors, None if errors else items)

    def apply(self, context: ImportContext, plan: list[OpenItem]) -> dict[str, int]:
        """Answers the documents this job landed, those of an earlier run of it included."""
        command = opening_cells.command_for(context)
        landed = 0
        for item in plan:
            if not context.is_done(item.unit):
                def mark_landed(transaction: Transaction, _document: Mapping[str, Any], unit: str = item.unit) -> None:
                    context.mark_done(transaction, unit)

                with refused_rows([item.line]):
                    opening_balances.record_opening_balance(command, item.partner_id, item.fields,
                                                            extra_writes=mark_landed)
            landed += 1
            context.progress(landed)
        return {"created": landed}


KIND = OpenItems()
