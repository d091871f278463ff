"""SAR's numbering: the document codes a Honduran number carries and the types that need a CAI."""
from __future__ import annotations

# The two digits a fiscal number carries in its type place (EEE-PPP-TT-NNNNNNNN) are SAR's code of
# the document (Acuerdo 481-2017, docs/decisions.md "SAR's document codes"), not the API's type.
# Both invoices are SAR's Factura, so 01 and 113 share a series. Documents SAR does not number
# (quotes, orders, purchases, which carry the supplier's own number) take codes SAR leaves
# unassigned, so every number has SAR's shape and none reads as a fiscal document.
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

# Every document SAR numbers is issued under a CAI (Reglamento del Régimen de Facturación, Acuerdo
# 481-2017 Art. 3 and 10): the Factura (01, 113), the Notas de Crédito and Débito, the Guía de
# Remisión and the Comprobante de Retención the company issues. Without an active range the
# document is refused, never numbered from a bare sequence. Other types take a range when one exists.
CAI_REQUIRED = ("01", "113", "06", "07", "112", "05")


def requires_cai(document_type: str, withholding_side: str | None = None) -> bool:
    """A withholding certificate needs the company's CAI only when the company withheld
    (side "purchases"): a customer's certificate (side "sales") carries the customer's CAI."""
    if document_type == "05":
        return withholding_side != "sales"
    return document_type in CAI_REQUIRED
