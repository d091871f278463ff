"""Documents, fiscal numbering, inventory, open documents and partners' ledgers."""
from __future__ import annotations

import re
from typing import Dict

from chalicelib.store.keys.base import (
    DOCUMENT,
    Key,
    collection_partition,
    company_prefix,
    entity,
    search_partition,
    sortable_id,
)


def document_index(company_id: int, date: str, document_id: int) -> Dict[str, str]:
    """GSI1 lists a company's documents by date; GSI2 lists one partner's."""
    return {"GSI1PK": collection_partition(company_id, DOCUMENT),
            "GSI1SK": f"{date}#{sortable_id(document_id)}"}


_DIGITS = re.compile(r"[0-9]+")


def number_term(number: str) -> str | None:
    """What a document number is found by: its last run of digits without the zeros in front
    ("001-001-01-00000123" and a supplier's "F-0123" by 123, 12, 1), or None without digits."""
    runs = _DIGITS.findall(number)
    return (runs[-1].lstrip("0") or "0") if runs else None


def document_number_index(company_id: int, number: str | None, document_id: int) -> Dict[str, str]:
    """GSI3 (keys only) finds a document by its own number's term; {} without a number. A number
    retaken at commit rewrites GSI3SK too (store/renumbering.py)."""
    term = number_term(number) if number else None
    if term is None:
        return {}
    return {"GSI3PK": search_partition(company_id, DOCUMENT), "GSI3SK": f"{term}#{sortable_id(document_id)}"}


def renumbered_number_index(sort_key: str, number: str) -> str:
    """GSI3SK once the document's number became `number`."""
    return f"{number_term(number)}#{sort_key.split('#')[1]}"


def supplier_number_term(company_id: int, number: str, document_id: int) -> Key | None:
    """The index item that finds a purchase by its supplier's number (an item of its own: GSI3
    holds the document's own number)."""
    term = number_term(number)
    if term is None:
        return None
    return {"PK": search_partition(company_id, DOCUMENT), "SK": f"{term}#{sortable_id(document_id)}"}


def partner_documents_partition(company_id: int, partner_id: int) -> str:
    return f"C#{company_id}#BPDOC#{partner_id}"


def partner_document_index(company_id: int, partner_id: int, date: str, document_id: int) -> Dict[str, str]:
    return {"GSI2PK": partner_documents_partition(company_id, partner_id),
            "GSI2SK": f"{date}#{sortable_id(document_id)}"}


def day_counts(company_id: int, date: str, partner_id: int | None = None) -> Key:
    """How many documents ("{status}_{type}": "confirmed_01") and journal entries
    ("{status}_{entryType}": "posted_manual") of each status and type carry this date, for the
    company (documents and entries) or for one partner (documents): list totals are sums of these.
    One item a day, not one for documents and one for entries: an invoice writes one less item."""
    scope = "" if partner_id is None else f"#BP{partner_id}"
    return {"PK": f"C#{company_id}#DAY{scope}", "SK": date}


# where the counts were before issue 14: infra/ops/migrations.py
LEGACY_DAY_COUNT_PARTITIONS = ("#DOCDAY", "#JEDAY")


def small_collection(company_id: int, kind: str) -> str:
    """Branches, CAI ranges and warehouses: a few records per company, kept in one partition
    read whole (strongly consistent) and ordered by id."""
    return f"C#{company_id}#{kind}S"


def small_record(company_id: int, kind: str, record_id: int) -> Key:
    return {"PK": small_collection(company_id, kind), "SK": sortable_id(record_id)}


def document_sequence(company_id: int, document_type: str) -> Key:
    """Gap-free numbers of a document type without a CAI range: advanced in the document's
    own transaction."""
    return {"PK": company_prefix(company_id), "SK": f"DOCSEQ#{document_type}"}


def stock_movement(company_id: int, product_id: int, date: str, origin: str, line: int) -> Key:
    """A product's movements sort by date in its own partition (its kardex); GSI1 lists every
    product's movements by date. `origin` says what moved the goods, unique per command and
    product line (see `document_stock_origin`, `adjustment_stock_origin`, `transfer_stock_origin`)."""
    return {"PK": f"C#{company_id}#STKMV#{product_id}", "SK": f"{date}#{origin}#{line:03d}"}


def document_stock_origin(document_id: int, version: int) -> str:
    return f"{sortable_id(document_id)}#{version:05d}"


def adjustment_stock_origin(adjustment_id: int) -> str:
    return f"A{sortable_id(adjustment_id)}"


TRANSFER_OUT, TRANSFER_IN = "1", "2"  # the goods leave one warehouse, then enter the other


def transfer_stock_origin(transfer_id: int, leg: str) -> str:
    return f"T{sortable_id(transfer_id)}#{leg}"


# A product's stock position (quantity, value and average cost across the company's warehouses):
# one partition holds every product's, so a valuation reads them with one Query.
def stock_positions_partition(company_id: int) -> str:
    return f"C#{company_id}#STKVAL"


def stock_position(company_id: int, product_id: int) -> Key:
    return {"PK": stock_positions_partition(company_id), "SK": sortable_id(product_id)}


INVENTORY_ADJUSTMENT, INVENTORY_TRANSFER = "INVADJ", "INVTRF"


def dated_record_index(company_id: int, kind: str, date: str, record_id: int) -> Dict[str, str]:
    """GSI1 lists adjustments and transfers by date, newest first."""
    return {"GSI1PK": collection_partition(company_id, kind), "GSI1SK": f"{date}#{sortable_id(record_id)}"}


def product_movements_partition(company_id: int, product_id: int) -> str:
    return f"C#{company_id}#STKMV#{product_id}"


def stock_movements_partition(company_id: int) -> str:
    """GSI1's partition of every product's movements, by date."""
    return f"C#{company_id}#STKMV"


def movement_index(company_id: int, sort_key: str, product_id: int) -> Dict[str, str]:
    return {"GSI1PK": stock_movements_partition(company_id), "GSI1SK": f"{sort_key}#{sortable_id(product_id)}"}


# The side of an open document: owed to us (receivable, sales) or by us (payable, purchases).
RECEIVABLE_SIDE, PAYABLE_SIDE = "R", "P"


def open_documents_partition(company_id: int, partner_id: int, side: str) -> str:
    return f"C#{company_id}#BPOPEN#{partner_id}#{side}"


def open_document(company_id: int, partner_id: int, side: str, due_date: str, document_id: int) -> Key:
    """A partner's open document (one that still owes) by due date, per side: the oldest is the
    first item of the partition, and the open ones are read without touching paid history."""
    return {"PK": open_documents_partition(company_id, partner_id, side),
            "SK": f"{due_date}#{sortable_id(document_id)}"}


def open_documents_of_company(company_id: int, side: str) -> str:
    """GSI1's partition of a company's open documents of one side, every partner's."""
    return f"C#{company_id}#OPENDOCS#{side}"


def open_document_index(company_id: int, side: str, due_date: str, document_id: int) -> Dict[str, str]:
    """GSI1 lists the company's open documents of a side by due date (the open-document item
    carries it): bank statement suggestions read them with one Query, never a scan."""
    return {"GSI1PK": open_documents_of_company(company_id, side), "GSI1SK": f"{due_date}#{sortable_id(document_id)}"}


# A partner's balance per side as a ledger of its own: monthly totals (with per-day figures)
# sort before its movements, so a statement reads the months and one page of movements.
PARTNER_BALANCE_PREFIX, PARTNER_MOVEMENT_PREFIX = "BAL#", "M#"


def partner_ledger_partition(company_id: int, partner_id: int, side: str) -> str:
    return f"C#{company_id}#BPLEDGER#{partner_id}#{side}"


def partner_month_balance(company_id: int, partner_id: int, side: str, month: str) -> Key:
    return {"PK": partner_ledger_partition(company_id, partner_id, side), "SK": f"{PARTNER_BALANCE_PREFIX}{month}"}


def partner_movement(company_id: int, partner_id: int, side: str, date: str, origin: str, origin_id: int,
                     version: int) -> Key:
    """One change of the balance: a document (origin "D") or payment ("P") at one of its
    versions, so confirming again after an unconfirm is a movement of its own."""
    return {"PK": partner_ledger_partition(company_id, partner_id, side),
            "SK": f"{PARTNER_MOVEMENT_PREFIX}{date}#{origin}{sortable_id(origin_id)}#{version:05d}"}


# A fiscal document reversed in a later month than its own: what its month's books showed, and
# the reversal in the later month (see services/accounting/book_corrections.py).
BOOK_CORRECTION = "BOOKFIX"


def book_correction(company_id: int, document_id: int, version: int, role: str) -> Key:
    return {"PK": f"C#{company_id}#{BOOK_CORRECTION}#{document_id}", "SK": f"{version:06d}#{role}"}


def book_correction_index(company_id: int, date: str, document_id: int, version: int, role: str) -> Dict[str, str]:
    return {"GSI1PK": collection_partition(company_id, BOOK_CORRECTION),
            "GSI1SK": f"{date}#{sortable_id(document_id)}#{version:06d}#{role}"}


def document(company_id: int, document_id: int) -> Key:
    """A document's own item (its payments and sends share the partition)."""
    return entity(company_id, DOCUMENT, document_id)


DOCUMENT_PAYMENT_PREFIX = "PAY#"


def document_payment(company_id: int, document_id: int, payment_id: int) -> Key:
    """A payment applied to a document, in the document's partition."""
    return {"PK": document(company_id, document_id)["PK"], "SK": f"{DOCUMENT_PAYMENT_PREFIX}{sortable_id(payment_id)}"}


def dte_signing_key(company_id: int) -> Key:
    """El Salvador: the company's sealed DTE signing key (one per company)."""
    return {"PK": company_prefix(company_id), "SK": "DTE_SIGNING_KEY"}


def dte_authority_credentials(company_id: int) -> Key:
    """El Salvador: the sealed password of the tax authority's API (one per company)."""
    return {"PK": company_prefix(company_id), "SK": "DTE_AUTHORITY_CREDENTIALS"}
