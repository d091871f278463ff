"""El Salvador: electronic tax documents (DTE) signed and sent to the Ministerio de Hacienda, with
contingency, lots and invalidation; IVA at 13 %; the IVA books; the standard chart."""
from decimal import Decimal

from chalicelib.countries.interface import CountryPack
from chalicelib.countries.sv.hooks import SalvadoranHooks

PACK = CountryPack(
    code="SV", name="El Salvador", currency="USD", utc_offset_hours=-6,
    tax_rates=(Decimal("0"), Decimal("0.13")), default_rate=Decimal("0.13"),
    sales_tax="iva", tax_label="IVA", tax_id_label="NIT",
    hooks=SalvadoranHooks(), chart_module="chalicelib.countries.sv.chart", routes_module="chalicelib.countries.sv.routes",
)
