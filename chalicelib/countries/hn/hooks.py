"""Where Honduras acts in a document's life: SAR's numbers (codes, CAI ranges) and the exonerated
buyer's registers, accepted on sales documents and printed in SAR's places."""
from __future__ import annotations

from typing import Any, Mapping

from chalicelib.countries.hn.domain import tax_ids
from chalicelib.countries.hn.domain.numbering import SAR_CODES, requires_cai
from chalicelib.countries.interface import DocumentHooks


class HondurasHooks(DocumentHooks):
    def normalized_tax_id(self, typed: str, field: str = "taxId") -> str:
        return tax_ids.normalized_tax_id(typed, field)

    def number_segment(self, document_type: str) -> str | None:
        return SAR_CODES[document_type]

    def requires_authorized_range(self, document_type: str, document: Mapping[str, Any] | None = None) -> bool:
        return requires_cai(document_type, ((document or {}).get("withholding") or {}).get("side"))

    def takes_exonerations(self) -> bool:
        return True

    def exoneration_rows(self, document: Mapping[str, Any], *, short: bool = False,
                         blanks: bool = True) -> list[tuple[str, str]]:
        from chalicelib.countries.hn import printing

        return printing.exoneration_rows(document, short=short, blanks=blanks)
