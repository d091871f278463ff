"""Opening balances per partner: what a customer owed the company, or the company owed a
supplier, before its books started here. Each is an open item (a document of its own type, 900
for a customer, 901 for a supplier) that payments settle like an invoice, shown in aging,
statements and the credit summary; its entry puts the amount on the receivable or payable
against the `opening_balance_equity` rule's account. Cancelled like a note while unpaid."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable

from chalicelib.domain import documents as document_rules
from chalicelib.errors import ValidationFailed
from chalicelib.messages.books import book_text
from chalicelib.messages.phrases import Phrase
from chalicelib.services.commands import Command
from chalicelib.services.sales_purchases import documents, partners
from chalicelib.store.transaction import Transaction

_SIDE_OF_PARTNER = {"customer": "receivable", "supplier": "payable"}
_TYPE_OF_SIDE = {"receivable": document_rules.OPENING_RECEIVABLE, "payable": document_rules.OPENING_PAYABLE}


def record_opening_balance(command: Command, partner_id: int, fields: dict[str, Any], *,
                           extra_writes: Callable[[Transaction, Mapping[str, Any]], None] | None = None
                           ) -> dict[str, Any]:
    """`fields` may also carry `currency` and `exchangeRate` (the open-items import: a document in
    its own currency, the receivable in the company's at that rate); `extra_writes` joins the
    caller's writes to the document's one transaction (an import unit's done-marker)."""
    partner = partners.get_partner(command.table, command.company_id, partner_id)
    side = fields.get("side") or _SIDE_OF_PARTNER.get(partner["type"])
    if side is None:
        raise ValidationFailed.for_field("side", "required for a partner that is both customer and supplier: "
                                                 "receivable (the customer owes) or payable (the company owes)")
    if partner["type"] != "both" and side != _SIDE_OF_PARTNER[partner["type"]]:
        raise ValidationFailed.for_field("side", Phrase("this partner is a {}: its opening balance is {}",
                                                        partner['type'], _SIDE_OF_PARTNER[partner['type']]))
    reference = fields.get("reference")
    return documents.create_document(command, {
        "type": _TYPE_OF_SIDE[side], "status": document_rules.CONFIRMED, "businessPartnerId": partner_id,
        "date": fields["date"], "dueDate": fields.get("dueDate") or fields["date"], "reference": reference,
        "notes": fields.get("notes"), "currency": fields.get("currency"), "exchangeRate": fields.get("exchangeRate"),
        "lines": [{"description": book_text("opening_balance_reference", reference=reference) if reference
                   else book_text("opening_balance"), "quantity": 1,
                   "unitPrice": fields["amount"], "taxRate": 0}]}, extra_writes=extra_writes)
