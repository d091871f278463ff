"""The document type codes of the spec's table, with the module each belongs to."""
from __future__ import annotations

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


# Honduras: the two digits a fiscal number carries in its type place (EEE-PPP-TT-NNNNNNNN) are
# SAR's code of the document (Acuerdo 481-2017, docs/decisions.md "SAR's document codes"), not
# the API's type. Both invoices are SAR's Factura, so 01 and 113 share a series. Documents SAR
# does not number (quotes, orders, purchases, which carry the supplier's own number) take codes
# SAR leaves unassigned, so every number has SAR's shape and none reads as a fiscal document.
SAR_CODES: dict[str, str] = {
    "01": "01",    # Factura (Art. 10 num. 7 c)
    "113": "01",   # a reservation invoice is a Factura
    "05": "05",    # Comprobante de Retención (Art. 33)
    "06": "06",    # Nota de Crédito (Art. 25)
    "07": "07",    # Nota de Débito (Art. 27)
    "112": "08",   # Guía de Remisión (Art. 29)
    "100": "91", "101": "92", "102": "93", "103": "94", "104": "95", "105": "96", "106": "97", "11": "98",
    "900": "89", "901": "90",
}


def number_segment(country: str, document_type: str) -> str:
    """The type place of a document's number: SAR's code in Honduras, the API's type elsewhere."""
    if country == "HN":
        return SAR_CODES[document_type]
    return document_type.zfill(2)


def check_document_type(code: str) -> str:
    if code not in DOCUMENT_TYPES:
        raise ValueError(f"documentType must be one of {', '.join(DOCUMENT_TYPES)}")
    return code
