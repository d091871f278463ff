"""The packs' model pieces the core's models embed (a company's DTE issuer block, a partner's
Salvadoran address rules, a document's export terms, exoneration and DTE), re-exported here so that
no core module imports a pack: a registry-level module, like chalicelib/countries/__init__.py."""
from chalicelib.countries.hn.models import EXONERATION_DESCRIPTION, Exoneration, ExonerationInfo
from chalicelib.countries.sv.models import (
    ADDRESS_RULES,
    Department,
    District,
    DteInfo,
    DteIssuer,
    DteIssuerInfo,
    DteType,
    EconomicActivityCode,
    ExportTerms,
    Municipality,
    SalvadoranAddressRules,
)

__all__ = ["ADDRESS_RULES", "Department", "District", "DteInfo", "DteIssuer", "DteIssuerInfo", "DteType", "EconomicActivityCode",
           "EXONERATION_DESCRIPTION", "Exoneration", "ExonerationInfo", "ExportTerms", "Municipality",
           "SalvadoranAddressRules"]
