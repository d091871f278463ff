"""What a Honduran invoice prints for an exonerated buyer (Acuerdo 481-2017 Art. 10 num. 8)."""
from __future__ import annotations

from typing import Any, Mapping

# the places SAR's format gives the exonerated buyer's registers
EXONERATION_LABELS = (("purchaseOrderNumber", "No. Correlativo de orden de compra exenta"),
                      ("registryNumber", "No. Correlativo de constancia de registro exonerado"),
                      ("sagNumber", "No. identificativo del registro de la SAG"))
EXONERATION_TYPES = ("01", "113", "06", "07")
# an 80 mm ticket has room for short labels
EXONERATION_SHORT_LABELS = (("purchaseOrderNumber", "Orden compra exenta"), ("registryNumber", "Constancia exonerado"),
                            ("sagNumber", "Registro SAG"))


def exoneration_rows(document: Mapping[str, Any], *, short: bool = False, blanks: bool = True) -> list[tuple[str, str]]:
    """The three places of an invoice (or note) for an exonerated buyer's registers, printed on
    every one (blank when the sale is not exonerated), as SAR's format has them; a ticket
    (`blanks` False) prints only the registers given."""
    if document.get("type") not in EXONERATION_TYPES:
        return []
    registers = document.get("exoneration") or {}
    labels = EXONERATION_SHORT_LABELS if short else EXONERATION_LABELS
    return [(label, str(registers.get(name) or "")) for name, label in labels if blanks or registers.get(name)]
