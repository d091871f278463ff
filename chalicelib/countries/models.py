"""The packs' request-model pieces the core's models embed (a company's DTE issuer block, a partner's
Salvadoran address rules), re-exported here so that no core module imports a pack: a registry-level
module, like chalicelib/countries/__init__.py."""
from chalicelib.countries.sv.models import (
    ADDRESS_RULES,
    Department,
    District,
    DteIssuer,
    DteIssuerInfo,
    EconomicActivityCode,
    Municipality,
    SalvadoranAddressRules,
)

__all__ = ["ADDRESS_RULES", "Department", "District", "DteIssuer", "DteIssuerInfo", "EconomicActivityCode",
           "Municipality", "SalvadoranAddressRules"]
