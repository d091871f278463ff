"""What El Salvador adds to a document's life: the DTE issued in the confirming transaction and sent
once committed, what its state allows (invalidated at the authority, not cancelled), the hourly
retries, the DTE handed over with the e-mail and its printed version. The DTE machinery is imported
inside each hook, on first use (a Honduran request never loads it)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from chalicelib.countries.interface import DocumentHooks
from chalicelib.domain.records import DocumentChanges

if TYPE_CHECKING:  # (the store and the mail are imported by the packs' hooks only when they run)
    from chalicelib.errors import ApiError
    from chalicelib.events.mail import Attachment
    from chalicelib.store.table import Table
    from chalicelib.store.transaction import Transaction


class SalvadoranHooks(DocumentHooks):
    def normalized_tax_id(self, typed: str, field: str = "taxId") -> str:
        from chalicelib.countries.sv.domain import tax_ids

        return tax_ids.normalized_tax_id(typed, field)

    def settled_company_changes(self, current: Mapping[str, Any] | None, changes: dict[str, Any]) -> dict[str, Any]:
        from chalicelib import clock
        from chalicelib.countries.sv.domain import dte, dte_formats

        settled = dte_formats.settled_issuer(current, changes, clock.today_in(dte.DTE_COUNTRY))
        if isinstance(settled.get("dteIssuer"), dict):
            dte.checked_2026_establishment_types(settled["dteIssuer"])
        return settled

    def issued(self, document: Mapping[str, Any]) -> bool:
        return bool(document.get("dte"))

    def numbers_taken(self, company_id: int, document: Mapping[str, Any]) -> list[tuple[tuple[dict[str, str], ...], int]]:
        """The DTE's control number, from its type's sequence at the document's point of sale (or
        the company-wide one kept before, where that point has none yet)."""
        from chalicelib.countries.sv.domain import dte
        from chalicelib.store import keys

        record, number = document.get("dte") or {}, document.get("number")
        control = str(record.get("numeroControl") or "")
        if not (record.get("tipoDte") and number and dte.is_numero_control(control)):
            return []
        tipo = str(record["tipoDte"])
        return [((keys.dte_control_sequence(company_id, tipo, dte.point_of_sale(str(number))),
                  keys.dte_control_sequence(company_id, tipo)), int(control[-15:]))]

    def check_issue(self, table: Table, company: Mapping[str, Any], partner: Mapping[str, Any] | None,
                    document: Mapping[str, Any], products: Mapping[int, Any]) -> None:
        from chalicelib.countries.sv.services import dte_issuing

        dte_issuing.check_format(table, company, partner, document, products)

    def issue(self, transaction: Transaction, table: Table, company: Mapping[str, Any], partner: Mapping[str, Any] | None,
              document: Mapping[str, Any], products: Mapping[int, Any], source: Mapping[str, Any] | None) -> DocumentChanges:
        from chalicelib.countries.sv.services import dte_issuing

        return dte_issuing.issue_dte(transaction, table, company, partner, document, products, source)

    def after_commit(self, table: Table, company: Mapping[str, Any], document: dict[str, Any]) -> dict[str, Any]:
        if not document.get("dte"):  # nothing to send: the DTE machinery stays unloaded
            return document
        from chalicelib.countries.sv.services import dte

        return dte.transmit_confirmed(table, company, document)

    def issues_electronically(self, company: Mapping[str, Any], document_type: str) -> bool:
        from chalicelib.countries.sv.domain import dte

        return dte.issues_dte(company, document_type)

    def takes_export(self, company: Mapping[str, Any], document_type: str) -> bool:
        from chalicelib.countries.sv.domain import dte

        return document_type in dte.DTE_TYPES and company.get("country") == dte.DTE_COUNTRY

    def takes_electronic_type(self, company: Mapping[str, Any], document_type: str) -> bool:
        return self.takes_export(company, document_type)

    def action_refusal(self, action: str, document: Mapping[str, Any]) -> ApiError | None:
        from chalicelib.countries.sv.domain import dte_actions

        return dte_actions.refusal(action, document)

    def hourly(self, table: Table) -> tuple[dict[str, Any], dict[str, int]]:
        from chalicelib.countries.sv.services import dte

        retries = dte.retry_pending_dte(table)
        return {"dteRetries": retries}, {"DteTransmissionsOverdue": retries.get("overdue", 0)}

    def mail_attachments(self, table: Table, company: Mapping[str, Any], document: Mapping[str, Any],
                         pdf: bytes) -> tuple[Attachment, ...] | None:
        if not document.get("dte"):
            return None
        from chalicelib.countries.sv.services import dte_delivery
        from chalicelib.events import mail

        delivery = dte_delivery.delivered_if_any(table, company["id"], document)
        if delivery is None:
            return None
        # the receiver is handed both, each named by the DTE's generation code
        return (mail.Attachment(f"{delivery.codigo_generacion}.pdf", pdf),
                mail.Attachment(delivery.json_filename, delivery.json, dte_delivery.JSON))

    def printed_title(self, document: Mapping[str, Any], partner: Mapping[str, Any] | None = None) -> str | None:
        from chalicelib.countries.sv.domain import dte_printing

        return dte_printing.title(document, partner)

    def printed_number(self, document: Mapping[str, Any]) -> str | None:
        from chalicelib.countries.sv.domain import dte_printing

        return dte_printing.number(document)

    def printed_figures(self, document: Mapping[str, Any], company: Mapping[str, Any],
                        partner: Mapping[str, Any] | None = None) -> Any:
        from chalicelib.countries.sv.domain import dte_printing

        if not document.get("dte"):  # a draft: as the DTE it will be issued as
            return dte_printing.draft_figures(document, partner, company)
        return dte_printing.figures(document, company)

    def printed_rows(self, document: Mapping[str, Any]) -> list[tuple[str, str]]:
        from chalicelib.countries.sv.domain import dte_printing

        return dte_printing.rows(document)

    def printed_qr(self, document: Mapping[str, Any], company: Mapping[str, Any]) -> bytes | None:
        from chalicelib.countries.sv.domain import dte_printing

        return dte_printing.qr_png(document, company)

    def printed_partner_ids(self, partner: Mapping[str, Any]) -> list[tuple[str, str]] | None:
        """A partner by NIT (or DUI) and, a taxpayer, NRC."""
        return [("NIT/DUI", str(partner.get("taxId") or ""))] + ([("NRC", str(partner["nrc"]))] if partner.get("nrc")
                                                                 else [])

    def printed_company_registers(self, company: Mapping[str, Any]) -> list[tuple[str, str]]:
        nrc = (company.get("dteIssuer") or {}).get("nrc")
        return [("NRC", str(nrc))] if nrc else []
