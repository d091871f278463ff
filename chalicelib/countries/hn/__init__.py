"""Honduras: SAR's numbering (CAI ranges, document codes), ISV at 15 % and 18 %, exonerations, the
sales and purchase books and the ISV summary, the standard chart."""
from decimal import Decimal

from chalicelib.countries.hn.hooks import HondurasHooks
from chalicelib.countries.interface import CountryPack

PACK = CountryPack(
    code="HN", name="Honduras", currency="HNL", utc_offset_hours=-6,
    tax_rates=(Decimal("0"), Decimal("0.15"), Decimal("0.18")), default_rate=Decimal("0.15"),
    sales_tax="isv", tax_label="ISV", tax_id_label="RTN",
    hooks=HondurasHooks(),
    chart_module="chalicelib.countries.hn.chart",
    routes_module="chalicelib.countries.hn.routes",
)
