"""The Ministerio de Hacienda's catalogues (chalicelib/countries/sv/domain/dte_catalogues/): each file loads with
the count its source has, a DTE whose code names nothing is refused before a control number is
taken, addresses take the 2024 division's municipios, and the migration moves stored ones."""
from __future__ import annotations

import pytest

from chalicelib.countries.sv.domain import dte_catalogues, dte_formats
from chalicelib.store import keys
from infra.ops.migrations import sv_addresses_to_2024_division
from tests.dte_support import assert_accepted, invoice, sv_shop, taxpayer_of


@pytest.fixture
def shop(api, company_a):
    return sv_shop(api, company_a)


# Counted by hand in the sources (dte_catalogues/SOURCES.md): CAT-002 lists 01 03 04 05 06 07 08
# 09 11 14 15; CAT-003 1 and 2; CAT-012 00 and 01-14; CAT-014 40 units (1 ... 59, 99); CAT-019 the
# 768 activities of the source's list and its six last (10001-10006, empleados ... comerciante);
# CAT-022 36 13 37 03 02; CAT-029 1 and 2.
@pytest.mark.parametrize(("name", "count"), [("CAT-002", 11), ("CAT-003", 2), ("CAT-012", 15), ("CAT-014", 40),
                                             ("CAT-019", 768 + 6), ("CAT-022", 5), ("CAT-029", 2)])
def test_each_flat_catalogue_loads_with_its_source_s_count(name, count):
    loaded = dte_catalogues.catalogue(name)
    assert loaded["catalogue"] == name and loaded["source"] and loaded["version"]
    assert len(dte_catalogues.codes(name)) == count


def test_the_municipios_are_the_2024_division_s_44_with_the_262_former_ones_as_districts():
    departments = dte_catalogues.catalogue("CAT-013")["departments"]
    municipios = [municipio for code, listed in departments.items() if code != "00" for municipio in listed]
    # Ahuachapán 3, Santa Ana 4, Sonsonate 4, Chalatenango 3, La Libertad 6, San Salvador 5, Cuscatlán 2,
    # La Paz 3, Cabañas 2, San Vicente 2, Usulután 3, San Miguel 3, Morazán 2, La Unión 2 = 44
    assert [len(departments[f"{n:02d}"]) for n in range(1, 15)] == [3, 4, 4, 3, 6, 5, 2, 3, 2, 2, 3, 3, 2, 2]
    # 12 + 13 + 16 + 33 + 22 + 19 + 16 + 22 + 9 + 13 + 23 + 20 + 26 + 18 = 262 former municipios
    assert sum(len(municipio["districts"]) for municipio in municipios) == 262
    # Decreto 762: San Salvador Centro is San Salvador, Mejicanos, Ayutuxtepeque, Cuscatancingo and Delgado
    centro = next(municipio for municipio in departments["06"] if municipio["code"] == "23")
    assert (centro["name"], sorted(centro["districts"])) == ("SAN SALVADOR CENTRO", ["03", "04", "08", "14", "19"])
    # MH's July 2026 CAT-013 numbers Cabañas Este 10 (Sensuntepeque...) and Oeste 11 (Ilobasco...); May had them
    # the other way round (tests/test_dte_catalogues_2026.py)
    assert dte_catalogues.address("09", "06") == ("10", "06") and dte_catalogues.address("09", "03") == ("11", "03")


def test_an_address_takes_the_new_municipio_and_a_former_code_becomes_its_district():
    assert dte_catalogues.address("06", "23") == ("23", None)
    assert dte_catalogues.address("06", "14") == ("23", "14")  # the former San Salvador
    assert dte_catalogues.address("05", "11") == ("28", "11")  # Santa Tecla, in La Libertad Sur
    for department, municipality in [("15", "01"), ("06", "99"), ("01", "16")]:
        with pytest.raises(ValueError):
            dte_catalogues.address(department, municipality)


def test_the_saved_schemas_take_the_new_municipios_and_the_catalogue_refuses_what_names_nothing():
    emisor = {"direccion": {"departamento": "06", "municipio": "23", "complemento": "x"}, "codActividad": "62010"}
    sent = {"identificacion": {"tipoDte": "01", "tipoModelo": 1}, "emisor": emisor,
            "receptor": {"direccion": {"departamento": "04", "municipio": "36"}, "codActividad": "99999",
                         "tipoDocumento": "36"},
            "cuerpoDocumento": [{"uniMedida": 59}, {"uniMedida": 98}]}
    assert dte_catalogues.problems(sent) == [
        {"field": "receptor.codActividad", "message": "'99999' is not in the authority's catalogue CAT-019"},
        {"field": "cuerpoDocumento[1].uniMedida", "message": "98 is not in the authority's catalogue CAT-014"}]
    # fe-fc-v1 as saved lists Chalatenango's 33 former municipios: its rule is gone, CAT-013 decides
    schema = dte_formats.schema("01")["properties"]["receptor"]["properties"]["direccion"]
    assert "allOf" not in schema and schema["properties"]["municipio"]["pattern"] == "^[0-9]{2}$"
    old = {"departamento": "06", "municipio": "14"}
    assert dte_catalogues.problems({"emisor": {"direccion": old}}) == [
        {"field": "emisor.direccion.municipio",
         "message": "'14' is not in the authority's catalogue CAT-013 for department 06"}]


def test_a_partner_saved_with_a_former_code_answers_the_new_one_and_unknown_codes_are_refused(shop):
    partner = shop.created("/business-partners", {"name": "Beta", "type": "customer", "department": "06",
                                                  "municipality": "14"})
    assert (partner["municipality"], partner["district"]) == ("23", "14")
    # each refusal names the field a person corrects (the pair's rules name the body)
    for body, field in (({"department": "06", "municipality": "99"}, "municipality"), ({"municipality": "23"}, "body"),
                        ({"economicActivityCode": "99999"}, "economicActivityCode"),
                        # the district names the place: a municipality beside it must be its own (14
                        # San Salvador lies in San Salvador Centro, 23, not in San Salvador Norte, 20)
                        ({"department": "06", "municipality": "20", "district": "14"}, "district"),
                        ({"department": "06", "district": "99"}, "district"), ({"department": "06"}, "body")):
        refused = shop.api.put(f"/business-partners/{partner['id']}", body, key=shop.key)
        assert (refused.status, refused.json["code"]) == (400, "VALIDATION_ERROR"), (body, refused.text)
        assert [detail["field"] for detail in refused.json["details"]] == [field], refused.text
    assert shop.api.get(f"/business-partners/{partner['id']}", key=shop.key).json["municipality"] == "23"
    moved = shop.api.put(f"/business-partners/{partner['id']}", {"department": "06", "municipality": "20"},
                         key=shop.key).json
    assert (moved["municipality"], moved["district"]) == ("20", None)  # San Salvador Norte: the district goes
    again = shop.api.put(f"/business-partners/{partner['id']}", {"department": "06", "municipality": "14"},
                         key=shop.key).json
    assert (again["municipality"], again["district"]) == ("23", "14")
    cleared = shop.api.put(f"/business-partners/{partner['id']}", {"department": None, "municipality": None},
                           key=shop.key).json
    assert (cleared["department"], cleared["municipality"], cleared["district"]) == (None, None, None)


def test_a_dte_with_an_activity_not_in_cat_019_is_refused_before_its_number_is_taken(shop, table):
    beta = taxpayer_of(shop)
    first = invoice(shop, beta)
    assert_accepted(first)
    assert first["dte"]["numeroControl"] == "DTE-03-00010001-000000000000001"
    assert first["dte"]["receptor"]["direccion"]["municipio"] == "23"  # saved as 14 (San Salvador), sent as 23
    # a customer saved before the catalogue check, with an activity code that names nothing
    key = keys.entity(shop.company.company_id, keys.PARTNER, beta)
    table.client.update_item(TableName=table.name, Key={"PK": {"S": key["PK"]}, "SK": {"S": key["SK"]}},
                             UpdateExpression="SET economicActivityCode = :code",
                             ExpressionAttributeValues={":code": {"S": "99999"}})
    refused = shop.api.post("/documents", {"type": "01", "businessPartnerId": beta, "lines": [
        {"productId": shop.service, "quantity": 1, "unitPrice": 10}]}, key=shop.key)
    assert refused.status == 400, refused.text
    assert {detail["field"]: detail["message"] for detail in refused.json["details"]} == {
        "dte.receptor.codActividad": "'99999' is not in the authority's catalogue CAT-019: set the customer's "
                                     "economic activity code"}
    shop.api.put(f"/business-partners/{beta}", {"economicActivityCode": "62020"}, key=shop.key)
    second = invoice(shop, beta)
    # the refused one took nothing: the next is number 2 and control number 2
    assert (second["number"], second["dte"]["numeroControl"]) == ("001-001-01-00000002",
                                                                 "DTE-03-00010001-000000000000002")
    assert_accepted(second)


def test_the_migration_moves_stored_addresses_to_the_2024_municipios(shop, table):
    beta = taxpayer_of(shop)
    company_id = shop.company.company_id
    partner_key = keys.entity(company_id, keys.PARTNER, beta)
    company_key = keys.company(company_id)
    # as written before the division: Santa Tecla (05/11) and the issuer in Mejicanos (06/08)
    for key, expression in ((partner_key, "SET municipality = :a, department = :d REMOVE district"),
                            (company_key, "SET dteIssuer.municipality = :b")):
        values = {":a": {"S": "11"}, ":d": {"S": "05"}} if key is partner_key else {":b": {"S": "08"}}
        table.client.update_item(TableName=table.name, Key={"PK": {"S": key["PK"]}, "SK": {"S": key["SK"]}},
                                 UpdateExpression=expression, ExpressionAttributeValues=values)

    assert sv_addresses_to_2024_division(table) == 2
    assert sv_addresses_to_2024_division(table) == 0  # idempotent
    partner = table.get(partner_key)
    assert (partner["department"], partner["municipality"], partner["district"]) == ("05", "28", "11")
    issuer = table.get(company_key)["dteIssuer"]
    assert (issuer["department"], issuer["municipality"], issuer["district"]) == ("06", "23", "08")
