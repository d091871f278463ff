"""Where Honduras acts in a document's life: SAR's numbers (codes, CAI ranges) and the exonerated
buyer's registers, accepted on sales documents and printed in SAR's places."""
from __future__ import annotations

from typing import Any, Mapping

from chalicelib.countries.hn.domain.numbering import CAI_REQUIRED, SAR_CODES
from chalicelib.countries.interface import DocumentHooks


class HondurasHooks(DocumentHooks):
    def number_segment(self, document_type: str) -> str | None:
        return SAR_CODES[document_type]

    def requires_authorized_range(self, document_type: str) -> bool:
        return document_type in CAI_REQUIRED

    def takes_exonerations(self) -> bool:
        return True

    def exoneration_rows(self, document: Mapping[str, Any], *, short: bool = False,
                         blanks: bool = True) -> list[tuple[str, str]]:
        from chalicelib.countries.hn import printing

        return printing.exoneration_rows(document, short=short, blanks=blanks)
