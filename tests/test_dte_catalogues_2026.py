"""Hacienda's 2026 catalogues (chalicelib/countries/sv/domain/dte_catalogues/2026/): the May 2026 workbook with the
July 2026 changes (Cabañas 10/11 swapped, CAT-027 code 43, CAT-002 and CAT-008 with a leading zero), a 2026 DTE's
codes checked against them (the 2026 schemas enumerate almost nothing), and the district sendable with a 2024
municipality for a partner and the company's dteIssuer."""
from __future__ import annotations

import pytest

from chalicelib import clock
from chalicelib.countries.sv.domain import dte_catalogues, dte_formats
from chalicelib.countries.sv.domain.dte_formats import EDITION_2026, INVALIDATION
from chalicelib.store import keys
from infra.ops.migrations import sv_addresses_to_2024_division
from tests.documents_support import SV_ISSUER
from tests.dte_support import APPENDED, assert_accepted, invoice, sv_shop


@pytest.fixture
def shop(api, company_a):
    return sv_shop(api, company_a)


def placed_by_district(issuer: dict) -> dict:
    """The issuer's block without its municipality, for a district to name the place."""
    return {name: value for name, value in issuer.items() if name != "municipality"}


def _names(name: str) -> dict[str, str]:
    return dte_catalogues.codes(name, EDITION_2026)


# Counted by hand in the May 2026 workbook (catalogos-2026-05.json), plus July's code 43 in CAT-027: CAT-002 01 03
# 04 05 06 07 08 09 11 14 15 17 18 = 13; CAT-005 1-5; CAT-006 22 C4 C9; CAT-009 01 02 04 07; CAT-011 1-4;
# CAT-014 40 units (its 6 notes apart); CAT-015 8 + 6 + 35 rows in its three sections, D4 and D5 twice: 49 - 2 = 47;
# CAT-017 01-05 08 09 11-14 99 = 12; CAT-020 249 countries; CAT-027 47 rows + 43 = 48; CAT-028 90 regimes.
@pytest.mark.parametrize(("name", "count"), [
    ("CAT-002", 13), ("CAT-003", 2), ("CAT-004", 2), ("CAT-005", 5), ("CAT-006", 3), ("CAT-007", 2), ("CAT-009", 4),
    ("CAT-011", 4), ("CAT-012", 15), ("CAT-014", 40), ("CAT-015", 47), ("CAT-016", 3), ("CAT-017", 12),
    ("CAT-018", 3), ("CAT-019", 774), ("CAT-020", 249), ("CAT-022", 5), ("CAT-024", 3), ("CAT-027", 48),
    ("CAT-028", 90), ("CAT-029", 2), ("CAT-031", 11), ("CAT-032", 2), ("CAT-033", 4)])
def test_each_2026_catalogue_loads_with_its_source_and_the_workbook_s_count(name, count):
    loaded = dte_catalogues.catalogue(name, EDITION_2026)
    assert loaded["catalogue"] == name and loaded["source"] and loaded["version"]
    assert len(_names(name)) == count


def test_july_swaps_cabanas_10_and_11_and_the_districts_follow_their_municipio():
    cabanas = {municipio["code"]: municipio for municipio in dte_catalogues.catalogue("CAT-013")["departments"]["09"]}
    # May: 10 CABAÑAS OESTE, 11 CABAÑAS ESTE; July: 10 ESTE, 11 OESTE. Decreto 762: Cabañas Este is Sensuntepeque
    # (06), Guacotecti (02), San Isidro (05), Victoria (08), Dolores (09); Oeste Ilobasco (03), Cinquera (01),
    # Jutiapa (04), Tejutepeque (07)
    assert (cabanas["10"]["name"], sorted(cabanas["10"]["districts"])) == ("CABAÑAS ESTE", ["02", "05", "06", "08", "09"])
    assert (cabanas["11"]["name"], sorted(cabanas["11"]["districts"])) == ("CABAÑAS OESTE", ["01", "03", "04", "07"])
    assert [change["change"] for change in dte_catalogues.catalogue("CAT-013", EDITION_2026)["changes"]] == [
        "Cabañas: 10 = CABAÑAS ESTE, 11 = CABAÑAS OESTE (May: 10 OESTE, 11 ESTE)"]
    assert dte_catalogues.address("09", "06") == ("10", "06")  # Sensuntepeque, pre-2024, is in Cabañas Este
    # a 2026 DTE in Sensuntepeque: municipio 10 with distrito 06; 11 (May's Este) is now Oeste, without it
    in_sensuntepeque = {"identificacion": {"tipoDte": "01", "version": 2},
                        "emisor": {"direccion": {"departamento": "09", "municipio": "10", "distrito": "06"}}}
    assert dte_catalogues.problems(in_sensuntepeque) == []
    in_sensuntepeque["emisor"]["direccion"]["municipio"] = "11"
    assert dte_catalogues.problems(in_sensuntepeque) == [
        {"field": "emisor.direccion.distrito",
         "message": "'06' is not in the authority's catalogue CAT-008 for municipio 11 of department 09"}]


def test_july_adds_cat_027_code_43_and_writes_cat_002_and_cat_008_with_a_leading_zero():
    precincts = _names("CAT-027")
    assert (precincts["42"], precincts["43"]) == ("Z.F. NOVABES", "Z.F. INHDELVA")
    assert [change["change"] for change in dte_catalogues.catalogue("CAT-027", EDITION_2026)["changes"]] == [
        "new code 43 Z.F. INHDELVA"]
    assert list(_names("CAT-002")) == ["01", "03", "04", "05", "06", "07", "08", "09", "11", "14", "15", "17", "18"]
    assert [change["change"] for change in dte_catalogues.catalogue("CAT-008", EDITION_2026)["changes"]] == [
        "CAT-008's codes carry a leading zero (two digits)"]
    assert "Hoja1 rows 59-321" in dte_catalogues.catalogue("CAT-008", EDITION_2026)["source"]
    districts = dte_catalogues.catalogue("CAT-008", EDITION_2026)["departments"]
    assert all(len(code) == 2 for listed in districts.values() for code in listed)
    # Ahuachapán 12, Santa Ana 13, Sonsonate 16, Chalatenango 33, La Libertad 22, San Salvador 19, Cuscatlán 16,
    # La Paz 22, Cabañas 9, San Vicente 13, Usulután 23, San Miguel 20, Morazán 26, La Unión 18 = 262, and 00 abroad
    assert [len(districts[f"{n:02d}"]) for n in range(1, 15)] == [12, 13, 16, 33, 22, 19, 16, 22, 9, 13, 23, 20, 26, 18]
    assert (districts["06"]["14"], districts["00"]) == ("SAN SALVADOR", {"00": "Otro (Para extranjeros)"})
    # each district is in exactly one municipio of its department
    for department, municipios in dte_catalogues.catalogue("CAT-013")["departments"].items():
        held = [code for municipio in municipios for code in municipio["districts"]]
        assert sorted(held) == sorted(districts[department]), department


def _fe_v2(**parts):
    """The parts of an FE v2 the catalogues read (the schema judges the rest)."""
    return {"identificacion": {"tipoDte": "01", "version": 2, "tipoModelo": 1, "tipoOperacion": 1},
            "emisor": {"codActividad": "46510", "direccion": {"departamento": "06", "municipio": "23", "distrito": "14"}},
            "receptor": {"tipoDocumento": "36", "direccion": {"departamento": "06", "municipio": "20", "distrito": "01"}},
            "cuerpoDocumento": [{"tipoItem": 1, "uniMedida": 59, "tributos": None}],
            "resumen": {"condicionOperacion": 1, "tributos": None,
                        "pagos": [{"codigo": "01", "plazo": None}]}, **parts}


def test_a_2026_dte_s_codes_are_checked_against_the_2026_catalogues_each_with_its_path():
    assert dte_catalogues.problems(_fe_v2()) == []
    bad = _fe_v2(cuerpoDocumento=[{"tipoItem": 1, "uniMedida": 59}, {"tipoItem": 5, "uniMedida": 59, "tributos": ["ZZ"]}],
                 resumen={"condicionOperacion": 4, "pagos": [{"codigo": "07", "plazo": "04"}],
                          "tributos": [{"codigo": "20"}]})
    bad["receptor"]["direccion"]["distrito"] = "14"  # San Salvador: in Centro (23), not Norte (20, Aguilares 01...)
    assert dte_catalogues.problems(bad) == [
        {"field": "cuerpoDocumento[1].tipoItem", "message": "5 is not in the authority's catalogue CAT-011"},
        {"field": "cuerpoDocumento[1].tributos[0]", "message": "'ZZ' is not in the authority's catalogue CAT-015"},
        {"field": "resumen.condicionOperacion", "message": "4 is not in the authority's catalogue CAT-016"},
        {"field": "resumen.pagos[0].codigo", "message": "'07' is not in the authority's catalogue CAT-017"},
        {"field": "resumen.pagos[0].plazo", "message": "'04' is not in the authority's catalogue CAT-018"},
        {"field": "receptor.direccion.distrito",
         "message": "'14' is not in the authority's catalogue CAT-008 for municipio 20 of department 06"}]
    # the same DTE declared as the legacy FE v1: today's checks only (CAT-011, 016, 017, 018 and the district aside)
    legacy = {**bad, "identificacion": {**bad["identificacion"], "version": 1}}
    assert dte_catalogues.problems(legacy) == []


def test_a_2026_export_s_country_precinct_regime_and_incoterms_are_the_catalogues():
    fex = {"identificacion": {"tipoDte": "11", "version": 3},
           "emisor": {"recintoFiscal": "43", "regimen": "1000.000", "tipoRegimen": "EX-1"},
           "receptor": {"codPais": "US", "tipoPersona": 2, "tipoDocumento": "37"}, "resumen": {"codIncoterms": "09"}}
    assert dte_catalogues.problems(fex) == []  # 43: Z.F. INHDELVA, July's
    # fe-fex-v1's four-digit country code (9303, United States) is not CAT-020's in 2026
    fex = {**fex, "emisor": {"recintoFiscal": "44", "regimen": "1000", "tipoRegimen": "TA-2"},
           "receptor": {"codPais": "9303", "tipoPersona": 3, "tipoDocumento": "37"}, "resumen": {"codIncoterms": "12"}}
    assert [problem["field"] for problem in dte_catalogues.problems(fex)] == [
        "emisor.recintoFiscal", "emisor.regimen", "emisor.tipoRegimen", "receptor.tipoPersona", "receptor.codPais",
        "resumen.codIncoterms"]


def test_the_schema_check_of_a_2026_dte_names_the_catalogue_s_fields_and_their_remedy():
    sent = _fe_v2(cuerpoDocumento=[{"tipoItem": 9, "uniMedida": 59}])
    sent["receptor"]["direccion"]["distrito"] = "02"  # Apopa: San Salvador Oeste's, not Norte's
    found = {problem["field"]: problem["message"] for problem in dte_formats.schema_problems(sent)}
    assert found["cuerpoDocumento[0].tipoItem"] == "9 is not in the authority's catalogue CAT-011"
    assert found["receptor.direccion.distrito"] == (
        "'02' is not in the authority's catalogue CAT-008 for municipio 20 of department 06: set the customer's "
        "district")
    assert "emisor.direccion.distrito" not in found  # 14 is San Salvador Centro's


def test_a_2026_invalidation_s_motive_is_cat_024_and_a_legacy_event_is_not_checked():
    event = {"identificacion": {"version": 3}, "documento": {"tipoDte": "03", "tipoDocumento": "36"},
             "motivo": {"tipoAnulacion": 4, "tipDocResponsable": "13", "tipDocSolicita": "99"}}
    assert dte_catalogues.problems(event, INVALIDATION) == [
        {"field": "motivo.tipoAnulacion", "message": "4 is not in the authority's catalogue CAT-024"},
        {"field": "motivo.tipDocSolicita", "message": "'99' is not in the authority's catalogue CAT-022"}]
    assert dte_catalogues.problems({**event, "identificacion": {"version": 2}}, INVALIDATION) == []


def test_a_partner_s_place_is_named_by_its_district_or_its_municipality_never_both(shop):
    # Mejicanos (06/08) lies in San Salvador Centro (06/23): the district alone names the place
    partner = shop.created("/business-partners", {"name": "Beta", "type": "customer", "department": "06",
                                                  "district": "08"})
    assert (partner["department"], partner["municipality"], partner["district"]) == ("06", "23", "08")
    assert shop.api.get(f"/business-partners/{partner['id']}", key=shop.key).json["district"] == "08"
    # read back and sent again, its municipio and district name the same place: taken as they are
    same = shop.api.put(f"/business-partners/{partner['id']}", {"department": "06", "municipality": "23",
                                                                 "district": "08"}, key=shop.key)
    assert (same.status, same.json["municipality"], same.json["district"]) == (200, "23", "08"), same.text
    # a district beside a municipality it is not in (San Salvador, 14, is not in San Salvador Norte, 20):
    # refused on `district`, in Spanish, nothing changed
    refused = shop.api.put(f"/business-partners/{partner['id']}", {"department": "06", "municipality": "20",
                                                                    "district": "14"},
                           key=shop.key, headers={"Accept-Language": "es"})
    assert (refused.status, refused.json["code"]) == (400, "VALIDATION_ERROR"), refused.text
    assert [(detail["field"], detail["message"]) for detail in refused.json["details"]] == [
        ("district", "envíe el distrito o el municipio, no ambos: el distrito nombra su municipio")]
    assert shop.api.get(f"/business-partners/{partner['id']}", key=shop.key).json["district"] == "08"
    # a district alone, or one not in the department (Cabañas has no 30), is refused on `district` too
    for body in ({"district": "14"}, {"department": "09", "district": "30"}):
        refused = shop.api.put(f"/business-partners/{partner['id']}", body, key=shop.key)
        assert [detail["field"] for detail in refused.json["details"]] == ["district"], (body, refused.text)
    # a sparse update with the department and a district replaces the place: Apopa (06/02), San Salvador Oeste (21)
    moved = shop.api.put(f"/business-partners/{partner['id']}", {"department": "06", "district": "02"},
                         key=shop.key).json
    assert (moved["department"], moved["municipality"], moved["district"]) == ("06", "21", "02")
    # a pre-2024 municipality code still names its district: 06/14 (San Salvador) is San Salvador Centro's 14
    moved = shop.api.put(f"/business-partners/{partner['id']}", {"department": "06", "municipality": "14"},
                         key=shop.key).json
    assert (moved["municipality"], moved["district"]) == ("23", "14")
    created = shop.created("/business-partners", {"name": "Gamma", "type": "customer", "department": "09",
                                                  "municipality": "06"})
    assert (created["municipality"], created["district"]) == ("10", "06")  # Sensuntepeque: Cabañas Este (July)


def test_the_company_s_district_is_sendable_and_checked_and_the_openapi_shows_it(shop):
    company = f"/companies/{shop.company.company_id}"
    issuer = {**placed_by_district(SV_ISSUER), "district": "19"}  # Ciudad Delgado, in San Salvador Centro (23)
    reply = shop.api.put(company, {"dteIssuer": issuer}, key=shop.key)
    assert reply.status == 200, reply.text
    assert (reply.json["dteIssuer"]["municipality"], reply.json["dteIssuer"]["district"]) == ("23", "19")
    # the issuer as read back, sent again whole (municipio and district of one place): taken as it is
    again = shop.api.put(company, {"dteIssuer": shop.api.get("/companies", key=shop.key).json["dteIssuer"]},
                         key=shop.key)
    assert (again.status, again.json["dteIssuer"]["district"]) == (200, "19"), again.text
    # no district 30 in San Salvador; Ciudad Delgado (19) is not in San Salvador Norte (20)
    for wrong in ({"district": "30"}, {"municipality": "20"}):
        refused = shop.api.put(company, {"dteIssuer": {**issuer, **wrong}}, key=shop.key)
        assert [detail["field"] for detail in refused.json["details"]] == ["dteIssuer.district"], refused.text
    document = shop.api.get("/openapi.json").json
    district = document["components"]["schemas"]["PartnerCreate"]["properties"]["district"]
    assert "CAT-008" in str(district)


def test_the_migration_moves_a_cabanas_address_stored_under_may_s_reading_to_july_s(shop, table):
    partner = shop.created("/business-partners", {"name": "Delta", "type": "customer", "department": "09",
                                                  "municipality": "06"})
    key = keys.entity(shop.company.company_id, keys.PARTNER, partner["id"])
    # as stored before July's catalogue: Sensuntepeque (06) in municipio 11, May's Cabañas Este
    table.client.update_item(TableName=table.name, Key={"PK": {"S": key["PK"]}, "SK": {"S": key["SK"]}},
                             UpdateExpression="SET municipality = :m", ExpressionAttributeValues={":m": {"S": "11"}})
    assert sv_addresses_to_2024_division(table) == 1
    assert sv_addresses_to_2024_division(table) == 0  # idempotent
    stored = table.get(key)
    assert (stored["department"], stored["municipality"], stored["district"]) == ("09", "10", "06")


def test_a_2026_ccf_carries_the_partner_s_sent_district_and_one_that_names_nothing_is_refused_before_numbering(
        shop, table):
    company = f"/companies/{shop.company.company_id}"
    reply = shop.api.put(company, {"dteIssuer": {**placed_by_district(SV_ISSUER), "district": "14",
                                                 "formats2026From": clock.today_in("SV")}}, key=shop.key)
    assert reply.status == 200, reply.text
    beta = shop.created("/business-partners", {
        "name": "Empresa Beta S.A. de C.V.", "type": "customer", "taxId": "0614-020202-102-4", "nrc": "765432-1",
        "economicActivityCode": "62010", "economicActivity": "Programación informática", "department": "06",
        "district": "08", "address": "Colonia Zacamil, Mejicanos",
        "email": "compras@beta.example", "phone": "2555-0000"})["id"]
    first = invoice(shop, beta)
    assert_accepted(first)
    assert first["dte"]["receptor"]["direccion"]["distrito"] == "08"  # Mejicanos, as sent
    sent = shop.api.get(f"/documents/{first['id']}/dte", key=shop.key).json
    signed = {name: value for name, value in sent.items() if name not in APPENDED}
    assert signed["identificacion"]["version"] == 4 and dte_formats.schema_problems(signed) == []
    # a partner stored with a district that is not San Salvador Centro's (Apopa, 02, is Oeste's)
    key = keys.entity(shop.company.company_id, keys.PARTNER, beta)
    table.client.update_item(TableName=table.name, Key={"PK": {"S": key["PK"]}, "SK": {"S": key["SK"]}},
                             UpdateExpression="SET district = :d", ExpressionAttributeValues={":d": {"S": "02"}})
    refused = shop.api.post("/documents", {"type": "01", "businessPartnerId": beta, "lines": [
        {"productId": shop.service, "quantity": 1, "unitPrice": 10}]}, key=shop.key, headers={"Accept-Language": "es"})
    assert refused.status == 400, refused.text
    assert [(detail["field"], detail["message"]) for detail in refused.json["details"]] == [
        ("dte.receptor.direccion.distrito", "'02' no está en el catálogo CAT-008 de Hacienda para el municipio 23 del "
                                            "departamento 06: indique el distrito del cliente")]
    shop.api.put(f"/business-partners/{beta}", {"department": "06", "district": "04"}, key=shop.key)
    second = invoice(shop, beta)
    assert_accepted(second)
    # the refused one took nothing: the next is number 2
    assert (second["number"], second["dte"]["numeroControl"]) == ("001-001-01-00000002",
                                                                 "DTE-03-M001P001-000000000000002")
