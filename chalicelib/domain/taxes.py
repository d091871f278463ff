"""Sales taxes, and how a line is taxed. Each country's rates are its pack's (`tax_rates`).

Honduras' ISV: a line is exempt (0), general (15 %) or special (18 %, alcohol and tobacco).
El Salvador's IVA: 13 %, or 0 for exempt, non-subject (no sujeta) and exported sales.

A line at rate 0 says why with its `taxTreatment`: `exempt` (the law exempts the good or
service), `exonerated` (the buyer holds an exoneration: Honduras' books show it apart),
`nonSubject` (outside the tax: El Salvador's "no sujetas") or `export`; a taxed line is `taxed`.
The tax books put each line in the column its treatment names."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Mapping

from chalicelib import countries
from chalicelib.errors import ValidationFailed
from chalicelib.messages.phrases import Phrase

ZERO_RATE = Decimal("0")
ALL_RATES = tuple(sorted({rate for pack in countries.packs() for rate in pack.tax_rates}))

TAXED, EXEMPT, EXONERATED, NON_SUBJECT, EXPORT = "taxed", "exempt", "exonerated", "nonSubject", "export"
ZERO_TREATMENTS = (EXEMPT, EXONERATED, NON_SUBJECT, EXPORT)
TAX_TREATMENTS = (TAXED, *ZERO_TREATMENTS)


def check_tax_rate(rate: Decimal) -> Decimal:
    """A rate some country uses (the request models); which country's is checked with the company."""
    if rate not in ALL_RATES:
        raise ValueError(f"taxRate must be one of {', '.join(str(rate.normalize()) for rate in ALL_RATES)}")
    return rate


def check_rate_for_country(country: str, rate: Decimal, field: str) -> Decimal:
    rates = countries.pack(country).tax_rates
    if rate not in rates:
        raise ValidationFailed.for_field(field, Phrase("must be one of {} for a company in {}",
                                                       ', '.join((str(r.normalize()) for r in rates)), country))
    return rate


def line_treatment(requested: str | None, requested_rate: Decimal | None, fallback_rate: Decimal,
                   field: str) -> tuple[Decimal, str]:
    """A line's rate and treatment. A zero-rate treatment takes no tax (the product's rate is not
    used); `taxed` needs a rate above 0; no treatment is `taxed` or `exempt` by the rate."""
    if requested in ZERO_TREATMENTS:
        if requested_rate:
            raise ValidationFailed.for_field(f"{field}.taxRate",
                    Phrase("a line {} carries no tax: its tax rate is 0", requested))
        return ZERO_RATE, requested
    rate = fallback_rate if requested_rate is None else requested_rate
    if requested == TAXED and not rate:
        raise ValidationFailed.for_field(f"{field}.taxTreatment", "a taxed line needs a tax rate above 0")
    return rate, TAXED if rate else EXEMPT


def treatment_of(line: Mapping[str, Any]) -> str:
    """A stored line's treatment (lines stored before treatments were recorded: by their rate)."""
    return str(line.get("taxTreatment") or (TAXED if Decimal(line["taxRate"]) else EXEMPT))


# Honduras: an exonerated buyer's registers (Acuerdo 481-2017 Art. 10 num. 8), on its documents and
# beside the exonerated amount in the sales book
EXONERATION_FIELDS = ("purchaseOrderNumber", "registryNumber", "sagNumber")
