"""What a country adds to the core, as one interface: facts (currency, clock, tax rates, labels, its
standard chart) and hooks the core calls at fixed points of a document's life. Every hook has a
default that adds nothing, so a pack implements only what its country needs.

Each pack's `__init__` builds its `PACK = CountryPack(...)`; heavy parts (the DTE machinery, charts,
books) are imported inside the hooks, on first use."""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Mapping


class DocumentHooks:
    """The points of a document's life where a country acts. The defaults do nothing.
    Packs subclass it; methods are added here (with a default) when the core needs a new point."""

    # --- numbering, taxes and printing

    def number_segment(self, document_type: str) -> str | None:
        """The type place (TT) of a document's number EEE-PPP-TT-NNNNNNNN; None: the API's type."""
        return None

    def requires_authorized_range(self, document_type: str) -> bool:
        """Whether a number of this type may only come from an authorized range (Honduras: a CAI):
        without one the document is refused instead of taking the type's sequence."""
        return False

    def takes_exonerations(self) -> bool:
        """Whether a sales document may carry an exonerated buyer's registers (`exoneration`)."""
        return False

    def exoneration_rows(self, document: Mapping[str, Any], *, short: bool = False,
                         blanks: bool = True) -> list[tuple[str, str]]:
        """The printed places of an exonerated buyer's registers: (label, value) rows, `short`
        labels on a ticket, empty places printed unless `blanks` is False."""
        return []


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
