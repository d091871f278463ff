"""Issue 40: the 2026 formats' numeroControl (DTE-tt-XnnnPnnn-<15 digits>) and establishment codes,
X the letter of the establishment's type (CAT-009), from dteIssuer.establishments by the document
number's EEE, else dteIssuer.establishmentType."""
from __future__ import annotations

import pytest

from chalicelib.countries.sv.domain import dte, dte_formats, dte_json
from chalicelib.errors import ValidationFailed
from tests.unit.dte_fixtures import SV

BRANCHES = {"establishmentType": "02", "establishments": [{"code": "002", "type": "01"}, {"code": "003", "type": "04"},
                                                          {"code": "004", "type": "07"}, {"code": "009", "type": "20"}]}


def test_the_2026_control_number_carries_the_establishment_letter_and_its_point_of_sale():
    # 31 characters: "DTE-" 4 + "01-" 3 + "M001P001-" 9 + 15 digits
    numero = dte.numero_control("01", "001-001-01-00000042", 42, "02")
    assert numero == "DTE-01-M001P001-000000000000042" and len(numero) == 31
    assert dte.numero_control("03", "012-003-03-00000001", 7, "01") == "DTE-03-S012P003-000000000000007"
    assert dte.numero_control("05", "001-002-06-00000001", 1, "04") == "DTE-05-B001P002-000000000000001"
    assert dte.numero_control("06", "001-002-07-00000001", 1, "07") == "DTE-06-P001P002-000000000000001"
    # the 2026 schemas' own pattern accepts it
    pattern = dte_formats.schema("01", 2)["properties"]["identificacion"]["properties"]["numeroControl"]["pattern"]
    import re
    assert re.match(pattern, dte.numero_control("01", "001-001-01-00000001", 10 ** 15 - 1, "02"))
    # the legacy form is unchanged without a type
    assert dte.numero_control("01", "001-001-01-00000042", 42) == "DTE-01-00010001-000000000000042"


def test_the_establishment_type_comes_from_its_entry_else_the_company_setting():
    settings = {**SV["dteIssuer"], **BRANCHES}
    assert dte.establishment_type(settings, "002-001-01-00000001") == ("01", "dteIssuer.establishments[0].type")
    assert dte.establishment_type(settings, "003-001-01-00000001")[0] == "04"
    assert dte.establishment_type(settings, "001-001-01-00000001") == ("02", "dteIssuer.establishmentType")
    assert dte.establishment_type({}, "001-001-01-00000001") == ("02", "dteIssuer.establishmentType")  # default
    assert dte.establishment_codes("002-005-01-00000001", "01") == ("S002", "P005")


def test_an_establishment_of_type_other_is_refused_in_2026_naming_its_setting():
    settings = {**SV["dteIssuer"], **BRANCHES}
    with pytest.raises(ValidationFailed) as listed:
        dte.checked_establishment_type(settings, "009-001-01-00000001")
    assert listed.value.details[0]["field"] == "dteIssuer.establishments[3].type"
    with pytest.raises(ValidationFailed) as company_wide:
        dte.checked_establishment_type({"establishmentType": "20"}, "001-001-01-00000001")
    assert company_wide.value.details[0]["field"] == "dteIssuer.establishmentType"
    with pytest.raises(ValueError):
        dte.establishment_codes("001-001-01-00000001", "20")


def test_the_2026_emisor_names_its_codes_and_district_and_drops_what_the_schema_dropped():
    company = {**SV, "dteIssuer": {**SV["dteIssuer"], **BRANCHES, "district": "14"}}
    emisor = dte_json.issuer(company, "002-003-01-00000001", "01", 2)
    assert emisor["codEstable"] == "S002" and emisor["codPuntoVenta"] == "P003"
    assert emisor["direccion"]["distrito"] == "14"
    assert not {"tipoEstablecimiento", "codEstableMH", "codPuntoVentaMH"} & set(emisor)
    legacy = dte_json.issuer(company, "002-003-01-00000001", "01")
    assert legacy["codEstable"] == "0002" and legacy["tipoEstablecimiento"] == "01"  # its branch's type
    assert "distrito" not in legacy["direccion"]
