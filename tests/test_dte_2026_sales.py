"""Issue 40: El Salvador's sales DTEs in Hacienda's 2026 formats (Normativa de Cumplimiento V2.0),
through the HTTP API: a factura (fe-f-v2) with the IVA inside its prices, a crédito fiscal
(fe-ccf-v4) and its notes (fe-nc-v4, fe-nd-v4), each as the stand-in authority received it and valid
against its version's schema; the numeroControl with the establishment's letter; a company moving
to the 2026 formats on a later date, its legacy DTEs still delivered and printed as issued; the
district the 2026 addresses require, refused before a number is taken."""
from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import pytest

from chalicelib import clock
from chalicelib.countries.sv.domain import dte_formats
from chalicelib.store import keys
from chalicelib.store.table import to_attributes
from tests.documents_support import SV_ISSUER, Shop
from tests.dte_support import (
    CUSTOMER_NIT,
    assert_accepted,
    assert_delivered_as_received,
    consumer_of,
    invoice,
    printed,
    received_payload,
    sv_shop,
    taxpayer_of,
    transmitted,
)

SPANISH = {"Accept-Language": "es"}


@pytest.fixture
def shop(api, company_a) -> Shop:
    return sv_shop(api, company_a)


def issue_in_2026_from(shop: Shop, since: str, **issuer) -> None:
    """The company issues in the 2026 formats from `since` (its dteIssuer.formats2026From)."""
    reply = shop.api.put(f"/companies/{shop.company.company_id}",
                         {"dteIssuer": {**SV_ISSUER, "formats2026From": since, **issuer}}, key=shop.key)
    assert reply.status == 200, reply.text


def sent(authority, document: dict) -> dict:
    """The DTE as the stand-in authority received it (the payload it verified), checked against the
    schema of the version it declares."""
    received = json.loads(received_payload(authority, document["codigoGeneracion"]), parse_float=Decimal)
    assert dte_formats.schema_problems(received) == []
    return received


def sale(shop: Shop, partner: int, lines: list[dict], document_type: str = "01", **fields) -> dict:
    body = {"type": document_type, "businessPartnerId": partner, "date": shop.default_date, "lines": lines, **fields}
    reply = shop.api.post("/documents", body, key=shop.key)
    assert reply.status == 201, reply.text
    return reply.json


def test_a_factura_v2_carries_the_iva_inside_its_prices_and_a_discount(dte_authority, shop):
    issue_in_2026_from(shop, shop.default_date)
    customer = consumer_of(shop)
    issued = sale(shop, customer, [{"productId": shop.service, "quantity": 2, "unitPrice": "10.00",
                                    "discount": "1.00"}], notes="Entrega en bodega")
    assert_accepted(issued)
    assert issued["dte"]["version"] == 2
    # head office (establishmentType 02 by default) -> M; establishment 001, point of sale 001
    assert issued["dte"]["numeroControl"] == "DTE-01-M001P001-000000000000001"
    received = sent(dte_authority, issued)
    assert received["identificacion"]["version"] == 2
    emisor = received["emisor"]
    assert (emisor["codEstable"], emisor["codPuntoVenta"]) == ("M001", "P001")
    assert not {"tipoEstablecimiento", "codEstableMH", "codPuntoVentaMH"} & set(emisor)
    assert emisor["direccion"]["distrito"] == "14"  # San Salvador, its code as a municipio before 2024
    item, = received["cuerpoDocumento"]
    # net: 2 x 10.00 = 20.00 - 1.00 discount = 19.00; IVA 13 % of 19.00 = 2.47
    # inside the prices: 10.00 x 1.13 = 11.30 each, the discount 1.00 x 1.13 = 1.13,
    # the taxed sale 2 x 11.30 - 1.13 = 22.60 - 1.13 = 21.47 (= 19.00 + 2.47), 2.47 of it IVA
    assert (item["precioUni"], item["montoDescu"], item["ventaGravada"], item["ivaItem"]) == (
        Decimal("11.30"), Decimal("1.13"), Decimal("21.47"), Decimal("2.47"))
    assert item["tributos"] is None
    summary = received["resumen"]
    assert (summary["totalGravada"], summary["subTotal"], summary["totalDescu"], summary["totalIva"],
            summary["montoTotalOperacion"], summary["totalPagar"]) == (
        Decimal("21.47"), Decimal("21.47"), Decimal("1.13"), Decimal("2.47"), Decimal("21.47"), Decimal("21.47"))
    assert summary["ivaRete"] == 0 and summary["observaciones"] == "Entrega en bodega"
    assert not {"ivaRete1", "reteRenta"} & set(summary) and "extension" not in received
    assert_delivered_as_received(shop, dte_authority, issued)
    # a draft prints as the FE v2 it will be: 2 x 50.00 = 100.00 + 13 % = 113.00, 50.00 x 1.13 = 56.50 each
    text = printed(shop, invoice(shop, customer, status="draft"), "sv-2026-fe-v2-draft.pdf")
    assert "FACTURA" in text and "56.50" in text and "113.00" in text and "IVA 13 % incluido 13.00" in text


def test_a_credito_fiscal_v4_and_its_notes_v4_by_hand(dte_authority, shop):
    issue_in_2026_from(shop, shop.default_date)
    taxpayer = taxpayer_of(shop)
    ccf = sale(shop, taxpayer, [{"productId": shop.service, "quantity": 3, "unitPrice": "40.00"}])
    assert_accepted(ccf)
    assert (ccf["dte"]["tipoDte"], ccf["dte"]["version"]) == ("03", 4)
    assert ccf["dte"]["numeroControl"] == "DTE-03-M001P001-000000000000001"
    received = sent(dte_authority, ccf)
    assert received["identificacion"]["version"] == 4
    item, = received["cuerpoDocumento"]
    # net of IVA: 3 x 40.00 = 120.00; IVA 13 % = 15.60, the tribute 20; to pay 120.00 + 15.60 = 135.60
    assert (item["precioUni"], item["ventaGravada"], item["tributos"]) == (Decimal(40), Decimal(120), ["20"])
    summary = received["resumen"]
    assert summary["tributos"] == [{"codigo": "20", "descripcion": "Impuesto al Valor Agregado 13%",
                                    "valor": Decimal("15.60")}]
    assert (summary["subTotalVentas"], summary["montoTotalOperacion"], summary["totalPagar"]) == (
        Decimal(120), Decimal("135.60"), Decimal("135.60"))
    assert (summary["ivaPerci"], summary["ivaRete"]) == (0, 0)
    assert not {"ivaPerci1", "ivaRete1", "reteRenta"} & set(summary) and "extension" not in received
    assert received["receptor"]["direccion"]["distrito"] == "14"

    credit = sale(shop, taxpayer, [{"productId": shop.service, "quantity": 1, "unitPrice": "40.00"}],
                  document_type="06", sourceDocumentId=ccf["id"])
    assert_accepted(credit)
    assert (credit["dte"]["tipoDte"], credit["dte"]["version"]) == ("05", 4)
    assert credit["dte"]["numeroControl"] == "DTE-05-M001P001-000000000000001"
    note = sent(dte_authority, credit)
    assert note["identificacion"]["version"] == 4
    assert note["identificacion"]["fusion"] is None
    assert note["documentoRelacionado"] == [{"tipoDocumento": "03", "tipoGeneracion": 2,
                                             "numeroDocumento": ccf["codigoGeneracion"], "fechaEmision": ccf["date"]}]
    # the taxpayer by its NIT as a document (36), digits only
    assert (note["receptor"]["tipoDocumento"], note["receptor"]["numDocumento"]) == ("36", "06140202021024")
    assert "nit" not in note["receptor"]
    line, = note["cuerpoDocumento"]
    # 1 x 40.00 = 40.00 returned; its IVA 13 % = 5.20 said on the line and in the summary; 45.20 in all
    assert (line["ventaGravada"], line["totalIva"], line["ivaPerci"], line["ivaRete"], line["noGravado"]) == (
        Decimal(40), Decimal("5.20"), 0, 0, 0)
    assert line["numeroDocumento"] == ccf["codigoGeneracion"]
    summary = note["resumen"]
    assert (summary["totalGravada"], summary["subTotalVentas"], summary["totalIva"], summary["totalNoGravado"],
            summary["montoTotalOperacion"], summary["totalPagar"]) == (
        Decimal(40), Decimal(40), Decimal("5.20"), 0, Decimal("45.20"), Decimal("45.20"))
    assert summary["codigoRetencionMH"] is None
    assert not {"descuNoSuj", "descuExenta", "descuGravada", "subTotal", "ivaPerci1", "ivaRete1"} & set(summary)
    # printed from its own version: no subTotal in fe-nc-v4, its sum of operations stands for it, the IVA apart
    text = printed(shop, credit, "sv-2026-nc-v4.pdf")
    assert "DTE-05-M001P001-000000000000001" in text and "5.20" in text and "45.20" in text

    debit = sale(shop, taxpayer, [{"productId": shop.service, "quantity": 1, "unitPrice": "5.00"}],
                 document_type="07", sourceDocumentId=ccf["id"])
    assert_accepted(debit)
    assert (debit["dte"]["tipoDte"], debit["dte"]["numeroControl"]) == ("06", "DTE-06-M001P001-000000000000001")
    charged = sent(dte_authority, debit)
    # 1 x 5.00, IVA 13 % = 0.65, 5.65 to pay
    assert (charged["resumen"]["totalIva"], charged["resumen"]["totalPagar"]) == (Decimal("0.65"), Decimal("5.65"))
    assert charged["cuerpoDocumento"][0]["totalIva"] == Decimal("0.65")
    assert charged["identificacion"]["version"] == 4 and charged["identificacion"]["fusion"] is None and charged["receptor"]["tipoDocumento"] == "36"


def test_a_branch_takes_its_own_establishment_letter(dte_authority, shop):
    issue_in_2026_from(shop, shop.default_date, establishmentType="02",
                       establishments=[{"code": "001", "type": "01"}])
    issued = invoice(shop, consumer_of(shop))
    assert issued["dte"]["numeroControl"] == "DTE-01-S001P001-000000000000001"  # 01 sucursal -> S
    assert sent(dte_authority, issued)["emisor"]["codEstable"] == "S001"
    company = shop.api.get("/companies", key=shop.key).json
    assert company["dteIssuer"]["establishments"] == [{"code": "001", "type": "01"}]
    twice = shop.api.put(f"/companies/{shop.company.company_id}", {"dteIssuer": {
        **SV_ISSUER, "establishments": [{"code": "002", "type": "01"}, {"code": "002", "type": "04"}]}},
        key=shop.key, headers=SPANISH)
    assert twice.status == 400 and [detail["field"] for detail in twice.json["details"]] == [
        "dteIssuer.establishments"]
    assert twice.json["details"][0]["message"].endswith("su código está repetido")


def test_an_establishment_of_type_other_is_refused_in_the_settings_of_a_2026_issuer(dte_authority, shop):
    """The 2026 formats have no letter for type 20: refused when the settings are saved, naming the
    setting, rather than at the first DTE."""
    path = f"/companies/{shop.company.company_id}"
    refused = shop.api.put(path, {"dteIssuer": {**SV_ISSUER, "formats2026From": shop.default_date,
                                                "establishmentType": "20"}}, key=shop.key, headers=SPANISH)
    assert refused.status == 400, refused.text
    assert [detail["field"] for detail in refused.json["details"]] == ["dteIssuer.establishmentType"]
    assert "casa matriz (02), sucursal (01), bodega (04) o patio (07)" in refused.json["details"][0]["message"]
    refused = shop.api.put(path, {"dteIssuer": {**SV_ISSUER, "formats2026From": shop.default_date, "establishments": [
        {"code": "001", "type": "01"}, {"code": "002", "type": "20"}]}}, key=shop.key)
    assert refused.status == 400, refused.text
    assert [detail["field"] for detail in refused.json["details"]] == ["dteIssuer.establishments[1].type"]
    # the legacy formats name type 20: kept
    legacy = shop.api.put(path, {"dteIssuer": {**SV_ISSUER, "formats2026From": None, "establishmentType": "20"}},
                          key=shop.key)
    assert legacy.status == 200 and legacy.json["dteIssuer"]["establishmentType"] == "20", legacy.text


def test_an_establishment_of_type_other_stored_before_is_refused_in_2026_before_a_number_is_taken(
        dte_authority, shop, table):
    issue_in_2026_from(shop, shop.default_date)
    # a type 20 stored before the settings refused it
    table.client.update_item(TableName=table.name, Key=to_attributes(keys.company(shop.company.company_id)),
                             UpdateExpression="SET dteIssuer.establishmentType = :other",
                             ExpressionAttributeValues=to_attributes({":other": "20"}))
    customer = consumer_of(shop)
    body = {"type": "01", "businessPartnerId": customer, "date": shop.default_date,
            "lines": [{"productId": shop.service, "quantity": 1, "unitPrice": "10.00"}]}
    refused = shop.api.post("/documents", body, key=shop.key, headers=SPANISH)
    assert refused.status == 400, refused.text
    assert [detail["field"] for detail in refused.json["details"]] == ["dteIssuer.establishmentType"]
    assert "casa matriz (02), sucursal (01), bodega (04) o patio (07)" in refused.json["details"][0]["message"]
    issue_in_2026_from(shop, shop.default_date, establishmentType="04")  # a warehouse -> B
    issued = invoice(shop, customer)
    assert issued["number"] == "001-001-01-00000001"
    assert issued["dte"]["numeroControl"] == "DTE-01-B001P001-000000000000001"


def test_a_customer_without_district_is_refused_in_spanish_and_no_number_is_taken(dte_authority, shop):
    issue_in_2026_from(shop, shop.default_date)
    # saved with the 2024 municipio's code (06/23 San Salvador Centro): no district known
    nameless_district = shop.created("/business-partners", {
        "name": "Empresa Gamma S.A. de C.V.", "type": "customer", "taxId": CUSTOMER_NIT, "nrc": "765432-1",
        "economicActivityCode": "62010", "economicActivity": "Programación informática", "department": "06",
        "municipality": "23", "address": "Colonia Escalón, San Salvador", "email": "compras@gamma.example",
        "phone": "2555-0000"})["id"]
    body = {"type": "01", "businessPartnerId": nameless_district, "date": shop.default_date,
            "lines": [{"productId": shop.service, "quantity": 1, "unitPrice": "10.00"}]}
    refused = shop.api.post("/documents", body, key=shop.key, headers=SPANISH)
    assert refused.status == 400, refused.text
    detail, = refused.json["details"]
    assert detail["field"] == "dte.receptor.direccion.distrito"
    assert detail["message"].endswith("indique el distrito del cliente")

    issued = invoice(shop, taxpayer_of(shop))  # the next document takes the numbers the refused one did not
    assert issued["number"] == "001-001-01-00000001"
    assert issued["dte"]["numeroControl"] == "DTE-03-M001P001-000000000000001"
    assert_accepted(issued)


def test_a_company_without_district_is_refused_naming_the_emisor(dte_authority, shop):
    issue_in_2026_from(shop, shop.default_date, municipality="23")  # the 2024 code: no district
    body = {"type": "01", "businessPartnerId": consumer_of(shop), "date": shop.default_date,
            "lines": [{"productId": shop.service, "quantity": 1, "unitPrice": "10.00"}]}
    refused = shop.api.post("/documents", body, key=shop.key, headers=SPANISH)
    assert refused.status == 400, refused.text
    assert [detail["field"] for detail in refused.json["details"]] == ["dte.emisor.direccion.distrito"]
    assert refused.json["details"][0]["message"].endswith("indique el distrito de la empresa")
    listed = shop.api.get("/documents", key=shop.key)
    assert listed.status == 200 and listed.json.get("items", listed.json.get("documents")) == []


def test_legacy_before_the_chosen_date_2026_from_it_and_the_legacy_dte_stays_legacy(dte_authority, shop, table,
                                                                                     monkeypatch):
    today = dt.date.fromisoformat(shop.default_date)
    tomorrow = (today + dt.timedelta(days=1)).isoformat()
    issue_in_2026_from(shop, tomorrow)
    customer = consumer_of(shop)
    legacy = invoice(shop, customer)
    assert_accepted(legacy)
    assert legacy["dte"]["version"] == 1 and legacy["dte"]["numeroControl"] == "DTE-01-00010001-000000000000001"
    assert sent(dte_authority, legacy)["identificacion"]["version"] == 1

    later = clock.now() + dt.timedelta(days=1)
    monkeypatch.setattr(clock, "now", lambda: later)
    shop.default_date = clock.today_in("SV")
    assert shop.default_date == tomorrow
    current = invoice(shop, customer)
    assert_accepted(current)
    assert current["dte"]["version"] == 2 and shop.get(legacy["id"])["dte"]["version"] == 1
    # the same sequence goes on, now written with the establishment's letter
    assert current["dte"]["numeroControl"] == "DTE-01-M001P001-000000000000002"
    assert sent(dte_authority, current)["identificacion"]["version"] == 2

    # the legacy DTE after the switch: delivered and printed as it was issued
    delivered = assert_delivered_as_received(shop, dte_authority, legacy)
    assert delivered["identificacion"]["version"] == 1 and "tipoEstablecimiento" in delivered["emisor"]
    # answered before what was sent was kept: built again, in its own version, to the same signed bytes
    transmission_key = keys.dte_transmission(shop.company.company_id, legacy["id"])
    table.client.update_item(TableName=table.name, Key=to_attributes(transmission_key), UpdateExpression="REMOVE sent")
    rebuilt = transmitted(shop, legacy["id"], "application/jose")
    assert rebuilt.status_code == 200
    assert rebuilt.body == dte_authority.registered[legacy["codigoGeneracion"]]["documento"].encode("ascii")
    text = printed(shop, legacy, "sv-2026-legacy-after-switch.pdf")
    assert "DTE-01-00010001-000000000000001" in text
    # 2 x 50.00 + 13 % = 113.00, the IVA inside: 13.00
    assert "113.00" in text and "13.00" in text
    text_2026 = printed(shop, current, "sv-2026-fe-v2.pdf")
    assert "DTE-01-M001P001-000000000000002" in text_2026 and "113.00" in text_2026


def test_a_legacy_dte_left_pending_is_retransmitted_as_legacy_after_the_switch(dte_authority, shop, table,
                                                                               monkeypatch):
    from chalicelib.countries.sv.services.dte import retry_pending_dte

    day = dt.date.fromisoformat(shop.default_date)
    next_day = (day + dt.timedelta(days=1)).isoformat()
    issue_in_2026_from(shop, next_day)
    # 23:50 in San Salvador (UTC-6) is 05:50 UTC of the next day; 00:10 there, 06:10 UTC: 20 minutes later
    evening = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(5, 50), tzinfo=dt.timezone.utc)
    monkeypatch.setattr(clock, "now", lambda: evening)
    customer = consumer_of(shop)
    dte_authority.faults(unavailable=True)
    pending = invoice(shop, customer)
    assert pending["dte"]["status"] == "pending"
    assert pending["dte"]["numeroControl"] == "DTE-01-00010001-000000000000001"

    dte_authority.faults(unavailable=False)
    midnight = evening + dt.timedelta(minutes=20)
    monkeypatch.setattr(clock, "now", lambda: midnight)
    assert clock.today_in("SV") == next_day  # the company issues in 2026 now
    assert retry_pending_dte(table, min_age_seconds=0) == {"accepted": 1}
    received = sent(dte_authority, pending)
    assert received["identificacion"]["version"] == 1 and received["identificacion"]["fecEmi"] == day.isoformat()
    assert received["emisor"]["codEstable"] == "0001" and "distrito" not in received["emisor"]["direccion"]
