"""What a country adds to the core, as one interface: facts (currency, clock, tax rates, labels, its
standard chart) and hooks the core calls at fixed points of a document's life. Every hook has a
default that adds nothing, so a pack implements only what its country needs.

Each pack's `__init__` builds its `PACK = CountryPack(...)`; heavy parts (the DTE machinery, charts,
books) are imported inside the hooks, on first use."""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Mapping

from chalicelib.domain.records import DocumentChanges

if TYPE_CHECKING:  # (the store and the mail are imported by the packs' hooks only when they run)
    from chalicelib.errors import ApiError
    from chalicelib.events.mail import Attachment
    from chalicelib.store.table import Table
    from chalicelib.store.transaction import Transaction


class DocumentHooks:
    """The points of a document's life where a country acts. The defaults do nothing.
    Packs subclass it; methods are added here (with a default) when the core needs a new point."""

    # --- registers

    def normalized_tax_id(self, typed: str, field: str = "taxId") -> str:
        """A partner's tax id of this country as stored, from what a person typed (dashes, spaces):
        refused (ValidationFailed naming `field`) when it is none of the country's forms. The default
        keeps it as typed."""
        return typed.strip()

    def settled_company_changes(self, current: Mapping[str, Any] | None, changes: dict[str, Any]) -> dict[str, Any]:
        """A company's fields as sent (a new company's: `current` None; an update's: only what it
        sends), with what the country settles by itself before they are stored. The default: as sent."""
        return changes

    # --- numbering, taxes and printing

    def number_segment(self, document_type: str) -> str | None:
        """The type place (TT) of a document's number EEE-PPP-TT-NNNNNNNN, for every document type of
        the API; None (the default): the API's type, two digits."""
        return None

    def requires_authorized_range(self, document_type: str, document: Mapping[str, Any] | None = None) -> bool:
        """Whether a number of this type (of this document, when given) may only come from an
        authorized range (Honduras: a CAI): without an active one the document is refused instead of
        taking the type's sequence."""
        return False

    def takes_exonerations(self) -> bool:
        """Whether a sales document may carry an exonerated buyer's registers (`exoneration`)."""
        return False

    def exoneration_rows(self, document: Mapping[str, Any], *, short: bool = False,
                         blanks: bool = True) -> list[tuple[str, str]]:
        """The printed places of an exonerated buyer's registers: (label, value) rows, `short`
        labels on a ticket, empty places printed unless `blanks` is False."""
        return []

    # --- electronic documents
    # A country whose tax authority receives documents electronically (El Salvador's DTE) issues
    # them on confirmation and sends them once committed; its pack keeps the record on the document.

    def issued(self, document: Mapping[str, Any]) -> bool:
        """Whether the document carries this country's electronic record: what is asked about the
        document itself (its printed version, its attachments) goes to this pack, even after the
        company changed country (`countries.pack_of_document`)."""
        return False

    def numbers_taken(self, company_id: int, document: Mapping[str, Any]) -> list[tuple[tuple[dict[str, str], ...], int]]:
        """The numbers of this country's own counters the document took: (the counter's keys, the
        first of them the company holds being the one, the number taken). A company archive's
        check asks it (services/imports/archive_consistency.py): each counter must be past them."""
        return []

    def check_issue(self, table: Table, company: Mapping[str, Any], partner: Mapping[str, Any] | None,
                    document: Mapping[str, Any], products: Mapping[int, Any]) -> None:
        """Raises what issuing the document electronically would refuse, writing nothing (a
        scheduled invoice's content is checked before its first run)."""

    def issue(self, transaction: Transaction, table: Table, company: Mapping[str, Any], partner: Mapping[str, Any] | None,
              document: Mapping[str, Any], products: Mapping[int, Any], source: Mapping[str, Any] | None) -> DocumentChanges:
        """Confirming a numbered document: its electronic issue's writes on `transaction` and the
        document's changed fields."""
        return {}

    def after_commit(self, table: Table, company: Mapping[str, Any], document: dict[str, Any]) -> dict[str, Any]:
        """A just-confirmed document once committed (sent to the authority): the document answered."""
        return document

    def issues_electronically(self, company: Mapping[str, Any], document_type: str) -> bool:
        """Whether a document of the type may be issued electronically (then dated the day it is issued)."""
        return False

    def takes_export(self, company: Mapping[str, Any], document_type: str) -> bool:
        """Whether a document of the type carries an `export` block (an export invoice's terms)."""
        return False

    def takes_electronic_type(self, company: Mapping[str, Any], document_type: str) -> bool:
        """Whether the seller chooses which electronic document a document of the type is issued as
        (`dteType`: El Salvador's factura or crédito fiscal)."""
        return False

    def action_refusal(self, action: str, document: Mapping[str, Any]) -> ApiError | None:
        """Why the country refuses `cancel`, `unconfirm` or `invalidate` of a document, asked after
        the core's status checks (an ApiError; None: no objection). Every pack is asked: a pack
        answers for the documents it issued and, for `invalidate` (only an electronic document is
        invalidated), for every document."""
        return None

    def hourly(self, table: Table) -> tuple[dict[str, Any], dict[str, int]]:
        """The country's hourly work after the scheduled invoices (the transmissions still
        unanswered): its summaries by name and the counts the alarms watch."""
        return {}, {}

    def mail_attachments(self, table: Table, company: Mapping[str, Any], document: Mapping[str, Any],
                         pdf: bytes) -> tuple[Attachment, ...] | None:
        """What send-document attaches instead of the PDF alone (None: the PDF)."""
        return None

    def printed_title(self, document: Mapping[str, Any], partner: Mapping[str, Any] | None = None) -> str | None:
        """The authority's name of the document as printed, or of the electronic document a draft
        will be issued as for `partner` (None: the type's)."""
        return None

    def printed_number(self, document: Mapping[str, Any]) -> str | None:
        """The document's identity as printed (El Salvador: the DTE's número de control; None: its number)."""
        return None

    def printed_figures(self, document: Mapping[str, Any], company: Mapping[str, Any],
                        partner: Mapping[str, Any] | None = None) -> "PrintedFigures | None":
        """The lines and totals as the electronic document carries them, or a draft's as the one
        it will be issued as for `partner` will (None: the stored lines and the core's rows by rate)."""
        return None

    def printed_rows(self, document: Mapping[str, Any]) -> list[tuple[str, str]]:
        """The electronic document's codes and seal on the printed version."""
        return []

    def printed_qr(self, document: Mapping[str, Any], company: Mapping[str, Any]) -> bytes | None:
        """A PNG QR code of the printed version (the authority's public consultation)."""
        return None

    def printed_partner_ids(self, partner: Mapping[str, Any]) -> list[tuple[str, str]] | None:
        """The partner's registers as printed (None: the tax id under the country's label)."""
        return None

    def printed_company_registers(self, company: Mapping[str, Any]) -> list[tuple[str, str]]:
        """The company's registers printed after its tax id."""
        return []


@dataclass(frozen=True)
class PrintedFigures:
    """A document's figures as its electronic document carries them, printed exactly so: each line
    (description, quantity, unit price, discount, line total), the totals' rows and what is owed."""
    lines: list[tuple[str, Decimal, Decimal, Decimal, Decimal]]
    rows: list[tuple[str, Decimal]]
    total: Decimal


@dataclass(frozen=True)
class CountryPack:
    code: str                          # ISO 3166-1 alpha-2
    name: str                          # as a person reads it, in Spanish
    currency: str                      # ISO 4217, a new company's default
    utc_offset_hours: int              # no daylight saving time in either country
    tax_rates: tuple[Decimal, ...]     # the sales tax rates a line may carry (0 first)
    default_rate: Decimal              # a new product's rate
    sales_tax: str                     # the tax's name in a withholding certificate ("isv", "iva")
    tax_label: str                     # the tax as printed ("ISV", "IVA")
    tax_id_label: str                  # the taxpayer number as printed ("RTN", "NIT")
    hooks: DocumentHooks = field(default_factory=DocumentHooks)
    # module paths, imported on first use by the registry's callers
    chart_module: str | None = None    # ACCOUNTS and RULES of the standard chart
    routes_module: str | None = None   # a `blueprint` of the country's own routes
