"""The document type codes of the spec's table, with the module each belongs to."""
from __future__ import annotations

from chalicelib import countries

SALES, PURCHASES, BOTH = "sales", "purchases", "both"

DOCUMENT_TYPES: dict[str, str] = {
    "01": SALES,       # sales invoice
    "06": SALES,       # sales credit note
    "07": SALES,       # sales debit note
    "100": SALES,      # quote
    "101": SALES,      # sales order
    "112": SALES,      # delivery
    "113": SALES,      # reservation invoice
    "103": PURCHASES,  # purchase invoice
    "104": PURCHASES,  # import
    "105": PURCHASES,  # purchase credit note
    "106": PURCHASES,  # purchase debit note
    "102": PURCHASES,  # purchase order
    "11": PURCHASES,   # expense
    "05": BOTH,        # withholding certificate
}


def number_segment(country: str, document_type: str) -> str:
    """The type place of a document's number: the country's code of the type (its pack's
    `number_segment` hook), else the API's type."""
    return countries.pack(country).hooks.number_segment(document_type) or document_type.zfill(2)


def check_document_type(code: str) -> str:
    if code not in DOCUMENT_TYPES:
        raise ValueError(f"documentType must be one of {', '.join(DOCUMENT_TYPES)}")
    return code
