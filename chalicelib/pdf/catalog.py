"""The report templates the API offers. Pure data: listing them does not load the PDF library."""
from __future__ import annotations

from dataclasses import dataclass

DOCUMENT, JOURNAL_ENTRY = "document", "journal-entry"


@dataclass(frozen=True)
class ReportTemplate:
    id: int
    key: str
    name: str
    resource: str
    page_format: str

    def view(self) -> dict[str, object]:
        return {"id": self.id, "key": self.key, "name": self.name, "resource": self.resource,
                "pageFormat": self.page_format}


INVOICE = ReportTemplate(1, "invoice", "Documento fiscal (carta)", DOCUMENT, "letter")
TICKET = ReportTemplate(2, "ticket", "Ticket de 80 mm", DOCUMENT, "roll-80mm")
ENTRY = ReportTemplate(3, "journal-entry", "Asiento contable", JOURNAL_ENTRY, "letter")

TEMPLATES: dict[int, ReportTemplate] = {template.id: template for template in (INVOICE, TICKET, ENTRY)}
# the template a print or send uses when the request names none
DEFAULTS = {DOCUMENT: INVOICE, JOURNAL_ENTRY: ENTRY}
