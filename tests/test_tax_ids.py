"""Tax ids checked by the partner's country (its pack), kept as their digits, unique among a
company's partners, and found however they are typed (issue 38). The check digits are worked out
in tests/unit/test_tax_ids.py."""
from __future__ import annotations

from tests.documents_support import Shop

PARTNERS = "/business-partners"


def post(api, company, body, lang="es"):
    return api.post(PARTNERS, body, key=company.api_key, headers={"accept-language": lang})


def test_a_wrong_rtn_is_refused_naming_tax_id_in_the_caller_s_language(api, company_a):
    for wrong in ("123", "ABC-XYZ", "0801-1999-1234567"):
        reply = post(api, company_a, {"name": "Cliente", "type": "customer", "taxId": wrong})
        assert reply.status == 400, reply.text
        assert reply.json["code"] == "VALIDATION_ERROR"
        assert reply.json["details"] == [{"field": "taxId", "message": "debe ser un RTN de 14 dígitos o un DNI de 13 "
                                                                        "dígitos (se admiten guiones y espacios)"}]
    english = post(api, company_a, {"name": "Cliente", "type": "customer", "taxId": "123"}, lang="en")
    assert english.json["details"] == [{"field": "taxId", "message": "must be an RTN of 14 digits or a DNI of 13 "
                                                                      "digits (dashes and spaces allowed)"}]
    assert api.get(f"{PARTNERS}?q=cliente", key=company_a.api_key).json["total"] == 0  # nothing written


def test_an_rtn_typed_with_dashes_is_kept_as_its_digits_and_a_dni_is_accepted(api, company_a):
    rtn = post(api, company_a, {"name": "Maya S.A.", "type": "customer", "taxId": "0801-1999-123456"})
    assert (rtn.status, rtn.json["taxId"]) == (201, "08011999123456")
    dni = post(api, company_a, {"name": "Ana López", "type": "customer", "taxId": "0801 1985 12345"})
    assert (dni.status, dni.json["taxId"]) == (201, "0801198512345")
    # a foreign supplier's id is its country's: kept as typed
    foreign = post(api, company_a, {"name": "Acme Inc.", "type": "supplier", "country": "US", "taxId": "98-7654321"})
    assert (foreign.status, foreign.json["taxId"]) == (201, "98-7654321")
    # a change is checked the same way
    changed = api.put(f"{PARTNERS}/{rtn.json['id']}", {"taxId": "0801-1999"}, key=company_a.api_key)
    assert changed.status == 400 and changed.json["details"][0]["field"] == "taxId"


def test_a_duplicate_tax_id_is_a_conflict_unless_it_is_the_same_partner(api, company_a, company_b):
    first = post(api, company_a, {"name": "Maya S.A.", "type": "customer", "taxId": "08011999123456"})
    assert first.status == 201, first.text
    # the same RTN typed otherwise, as a supplier: the same taxpayer, so one partner of type "both"
    again = post(api, company_a, {"name": "Maya proveedor", "type": "supplier", "taxId": "0801-1999-123456"})
    assert again.status == 409, again.text
    assert again.json["code"] == "DUPLICATE_TAX_ID"
    assert again.json["details"] == [{"field": "taxId", "message": "ya lo usa otro cliente o proveedor"}]
    assert f"El cliente o proveedor {first.json['id']} ya tiene" in again.json["message"]
    both = api.put(f"{PARTNERS}/{first.json['id']}", {"type": "both", "taxId": "0801-1999-123456"},
                   key=company_a.api_key)
    assert (both.status, both.json["type"], both.json["taxId"]) == (200, "both", "08011999123456")
    # another company's partner may have it
    assert post(api, company_b, {"name": "Maya", "type": "customer", "taxId": "08011999123456"}).status == 201
    # a partner that gives up the id frees it
    other = post(api, company_a, {"name": "Otra", "type": "customer", "taxId": "08011999654321"}).json
    assert api.put(f"{PARTNERS}/{other['id']}", {"taxId": "08011999123456"}, key=company_a.api_key).status == 409
    assert api.put(f"{PARTNERS}/{first.json['id']}", {"taxId": "08011999111111"}, key=company_a.api_key).status == 200
    taken = api.put(f"{PARTNERS}/{other['id']}", {"taxId": "0801-1999-123456"}, key=company_a.api_key)
    assert (taken.status, taken.json["taxId"]) == (200, "08011999123456")
    # and the one that gave it up cannot have it back, nor can a new partner
    assert api.put(f"{PARTNERS}/{first.json['id']}", {"taxId": "08011999123456"}, key=company_a.api_key).status == 409
    assert post(api, company_a, {"name": "Maya otra vez", "type": "customer", "taxId": "08011999123456"}).status == 409
    # two partners abroad whose ids hold no Latin letter or digit are two ids, not one empty key
    for name, foreign in (("上海贸易", "税号甲"), ("北京贸易", "税号乙")):
        abroad = post(api, company_a, {"name": name, "type": "supplier", "country": "CN", "taxId": foreign})
        assert (abroad.status, abroad.json["taxId"]) == (201, foreign), abroad.text


def test_a_partner_moved_to_another_country_keeps_only_an_id_that_fits_there(api, company_a):
    # an RTN (14 digits, no check digit) is not a Salvadoran NIT: 0801199912345 + 6 fails NIT's check digit
    partner = post(api, company_a, {"name": "Maya S.A.", "type": "customer", "taxId": "08011999123456"}).json
    moved = api.put(f"{PARTNERS}/{partner['id']}", {"country": "SV"}, key=company_a.api_key)
    assert (moved.status, moved.json["details"][0]["field"]) == (400, "taxId"), moved.text
    assert api.get(f"{PARTNERS}/{partner['id']}", key=company_a.api_key).json.get("country") in (None, "HN")
    # with a NIT that carries its check digit (0614-050707-104-8, worked in tests/unit/test_tax_ids.py) it moves
    both = api.put(f"{PARTNERS}/{partner['id']}", {"country": "SV", "taxId": "0614-050707-104-8"},
                   key=company_a.api_key)
    assert (both.status, both.json["country"], both.json["taxId"]) == (200, "SV", "06140507071048"), both.text


def test_a_salvadoran_partner_s_nit_and_dui_carry_their_check_digits(api, company_a):
    shop = Shop(api, company_a, country="SV")
    # the NIT 999 of the report, and a NIT whose last digit is not its check digit (8, by hand in the unit test)
    for wrong in ("999", "0614-050707-104-0"):
        reply = post(api, company_a, {"name": "Empresa", "type": "customer", "taxId": wrong})
        assert (reply.status, reply.json["details"][0]["field"]) == (400, "taxId"), reply.text
    nit = post(api, company_a, {"name": "Empresa", "type": "customer", "taxId": "0614-050707-104-8"})
    assert (nit.status, nit.json["taxId"]) == (201, "06140507071048")
    dui = api.put(f"{PARTNERS}/{shop.customer}", {"taxId": "00016297-5"}, key=shop.key)
    assert (dui.status, dui.json["taxId"]) == (200, "000162975")


def test_a_tax_id_is_found_however_it_is_typed_among_partners_and_documents(api, company_a):
    shop = Shop(api, company_a)
    assert api.put(f"{PARTNERS}/{shop.customer}", {"taxId": "08011999123456"}, key=shop.key).status == 200
    invoice = shop.document("01", [(shop.service, 1, 50)])
    for typed in ("0801-1999-123456", "0801 1999 123456", "08011999123456", "0801-1999"):
        found = api.get(f"{PARTNERS}?q={typed}", key=shop.key).json
        assert [partner["id"] for partner in found["businessPartners"]] == [shop.customer], typed
        documents = api.get(f"/documents?q={typed}", key=shop.key)
        assert documents.status == 200, documents.text
        assert [document["id"] for document in documents.json["documents"]] == [invoice["id"]], typed
