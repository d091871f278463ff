"""The return event (evento de retorno, DTE 18, fe-eret-v1): a credit note of an FE issued in the 2026
edition is the event, issued in its confirming transaction, signed, sent and sealed like a DTE,
delivered by GET /documents/{id}/dte; the cups come back to stock at their average cost, the
customer's balance goes down and the consumer IVA book shows the return. Refused (400, nothing
stored) beyond what the FE has left to return, or past 3 months from its generation date. Figures by hand."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from chalicelib import clock
from chalicelib.countries.sv.domain import dte_formats
from chalicelib.countries.sv.services.dte import retry_pending_dte
from chalicelib.countries.sv.services.dte_return import live_returns
from chalicelib.domain.schedules import add_months
from chalicelib.store import keys
from infra.devstack.dte_authority import _seal
from tests.documents_support import SV_ISSUER, Shop
from tests.dte_support import assert_delivered_as_received, consumer_of, printed, transmission
from tests.support import RACES

D = Decimal


@pytest.fixture
def shop(api, company_a) -> Shop:
    return Shop(api, company_a, country="SV", inventory=True)


@pytest.fixture
def cup(shop) -> int:
    """A cup sold at 10.00 + 13 % IVA = 11.30; 10 in stock at 4.00 (40.00)."""
    cup = shop.created("/products", {"code": "T-1", "name": "Taza", "unitPrice": 10, "cost": 4, "taxRate": 0.13})["id"]
    reply = shop.api.post("/inventory/adjustments", {"warehouseId": 1, "date": shop.default_date, "reason": "opening",
                                                     "lines": [{"productId": cup, "quantity": 10, "unitCost": "4"}]},
                          key=shop.key)
    assert reply.status == 201, reply.text
    return cup


def fe_v2(shop: Shop, table, customer: int, cup: int, *more: tuple[int, int, int]) -> dict:
    """An FE of 2 cups: 2 x 10.00 = 20.00 + 13 % = 2.60 IVA, 22.60 (11.30 each, IVA inside), and the
    lines `more`, sealed, in the 2026 edition (fe-f-v2): the company issues in it from today, from its
    head office (M001) in the district of San Salvador."""
    reply = shop.api.put(f"/companies/{shop.company.company_id}", {"dteIssuer": {
        **SV_ISSUER, "formats2026From": shop.default_date}}, key=shop.key)
    assert reply.status == 200, reply.text
    invoice = shop.document("01", [(cup, 2, 10), *more], partner=customer)
    assert invoice["dte"]["status"] == "accepted", invoice["dte"]  # the stand-in checked it against fe-f-v2
    stored = table.get(keys.document(shop.company.company_id, invoice["id"]))["dte"]
    assert (stored["version"], stored["emisor"]["codEstable"]) == (2, "M001")
    return invoice


def returned(shop: Shop, invoice: dict, cup: int, quantity: int = 1, expect: int = 201, **fields) -> dict:
    return shop.document("06", [(cup, quantity, 10)], sourceDocumentId=invoice["id"], partner=invoice[
        "businessPartnerId"], expect=expect, **fields)


def on_hand(shop: Shop, product: int) -> tuple[D, D, D]:
    item = shop.api.get(f"/products/{product}", key=shop.key).json
    return D(str(item["stockQuantity"])), D(str(item["stockValue"])), D(str(item["averageCost"]))


def receivable(shop: Shop, partner: int) -> D:
    return D(str(shop.partner(partner)["receivableBalance"]))


def books_agree(shop: Shop, customer: int, cup: int) -> None:
    """The books' invariants: debits equal credits, the receivables' control account (110201) is the
    customer's balance (the only one owing), inventory (110501) the cups' stock value (the only stock)."""
    trial = shop.books.trial_balance()
    assert D(str(trial["totalDebit"])) == D(str(trial["totalCredit"]))
    assert shop.balance("110201") == receivable(shop, customer)
    assert shop.balance("110501") == on_hand(shop, cup)[1]


def test_a_return_of_one_cup_is_event_18_sealed_delivered_with_its_stock_balance_and_iva_book(
        shop, cup, table, api, dte_authority):
    customer = consumer_of(shop)
    invoice = fe_v2(shop, table, customer, cup)
    assert on_hand(shop, cup) == (8, D("32.00"), D("4.0000"))  # 10 - 2 at 4.00: 8 worth 32.00
    assert receivable(shop, customer) == D("22.60")
    books_agree(shop, customer, cup)

    note = returned(shop, invoice, cup)

    # 1 cup back: 10.00 + 1.30 IVA = 11.30
    assert (D(str(note["subtotal"])), D(str(note["taxTotal"])), D(str(note["total"]))) == (
        D("10.00"), D("1.30"), D("11.30"))
    dte = note["dte"]
    assert dte["tipoDte"] == "18" and dte["status"] == "accepted"
    stored = table.get(keys.document(shop.company.company_id, note["id"]))["dte"]
    assert stored["version"] == 1 and stored["related"][0]["codigoGeneracion"] == invoice["codigoGeneracion"]
    assert dte["numeroControl"] is None and note["codigoGeneracion"] == dte["codigoGeneracion"]
    # the stand-in seals an event, which has no control number, by its code and type
    assert dte["selloRecepcion"] == _seal(f"{dte['codigoGeneracion']}|18")
    sent = dte_authority.registered[dte["codigoGeneracion"]]
    assert sent["tipoDte"] == "18"
    event = sent["document"]
    assert dte_formats.schema_problems(event, dte_formats.RETORNO) == []
    assert event["identificacion"]["tipoEvento"] == "18" and event["identificacion"]["fecEmi"] == note["date"]
    assert event["documentoRelacionado"] == [{"tipoDocumento": "01", "codigoGeneracion": invoice["codigoGeneracion"],
                                              "fechaEmision": invoice["date"]}]
    [item] = event["cuerpoDocumento"]
    # as on the factura: the price with its IVA, 10.00 x 1.13 = 11.30, of which 1.30 IVA
    assert item["codigoGeneracion"] == invoice["codigoGeneracion"] and D(str(item["cantidad"])) == 1
    assert D(str(item["precioUni"])) == D("11.30") and D(str(item["ventaGravada"])) == D("11.30")
    assert D(str(item["ivaItem"])) == D("1.30") and item["codigo"] == "T-1" and item["tipoItem"] == 1
    summary = event["resumen"]
    assert D(str(summary["totalGravada"])) == D(str(summary["subTotalVentas"])) == D("11.30")
    assert D(str(summary["montoTotalOperacion"])) == D(str(summary["totalPagar"])) == D("11.30")
    assert D(str(summary["totalIva"])) == D("1.30")

    # the cup comes back at the 4.00 it left at: 9 worth 32.00 + 4.00 = 36.00
    assert on_hand(shop, cup) == (9, D("36.00"), D("4.0000"))
    # the customer owes 22.60 - 11.30 = 11.30
    assert receivable(shop, customer) == D("11.30")
    books_agree(shop, customer, cup)

    # the consumer book of the day: 22.60 sold less 11.30 returned = 11.30 with its IVA, 2.60 - 1.30 = 1.30
    date = note["date"]
    book = api.get(f"/reports/iva-sales-consumers?startDate={date}&endDate={date}", key=shop.key).json
    assert (D(str(book["totals"]["taxed"])), D(str(book["totals"]["iva"]))) == (D("11.30"), D("1.30"))
    [shown] = book["returns"]
    assert shown["codigoGeneracion"] == dte["codigoGeneracion"]
    assert shown["returnedCodigoGeneracion"] == invoice["codigoGeneracion"]
    # the return: 10.00 of taxed base and 1.30 of IVA, counted against the period
    assert (D(str(shown["taxedBase"])), D(str(shown["iva"])), D(str(shown["total"]))) == (
        D("-10.00"), D("-1.30"), D("-11.30"))

    text = printed(shop, note, "evento-de-retorno-v1.pdf")
    assert "EVENTO DE RETORNO" in text and dte["codigoGeneracion"] in text and dte["selloRecepcion"] in text

    delivered = assert_delivered_as_received(shop, dte_authority, shop.get(note["id"]))
    assert delivered["identificacion"]["tipoEvento"] == "18"
    assert delivered["selloRecibido"] == dte["selloRecepcion"]


def test_returns_beyond_what_is_left_are_refused_and_change_nothing(shop, cup, table, dte_authority):
    customer = consumer_of(shop)
    # 2 cups (22.60) and an installation, 50.00 + 6.50 IVA = 56.50: 79.10
    invoice = fe_v2(shop, table, customer, cup, (shop.service, 1, 50))
    assert D(str(invoice["total"])) == D("79.10")
    first = returned(shop, invoice, cup)  # 1 of the 2 cups back (11.30): 1 cup left to return, 67.80 of the FE

    # 2 cups, 22.60, fit in what is left of the FE (67.80) but not in its cups' line
    refused = returned(shop, invoice, cup, quantity=2, expect=400)
    assert refused["code"] == "DTE_RETURN_EXCEEDS_DOCUMENT"
    assert refused["details"] == [{"field": "lines[0].quantity",
                                   "message": "the returns would exceed the DTE's line: 1 left to return"}]
    # nothing moved: 9 cups, the customer owes 79.10 - 11.30 = 67.80, one return recorded
    assert on_hand(shop, cup)[0] == 9 and receivable(shop, customer) == D("67.80")
    assert live_returns(table, shop.company.company_id, invoice["id"]) == [first["id"]]

    last = returned(shop, invoice, cup)  # the second cup: the cups' line is all returned
    # the refusal took no number: the notes' sequence has no gap
    assert (first["number"], last["number"]) == ("001-001-06-00000001", "001-001-06-00000002")
    assert last["dte"]["status"] == "accepted"
    assert returned(shop, invoice, cup, expect=400)["code"] == "DTE_RETURN_EXCEEDS_DOCUMENT"
    assert on_hand(shop, cup)[0] == 10 and receivable(shop, customer) == D("56.50")  # 67.80 - 11.30


def test_a_return_beyond_the_whole_fe_is_refused(shop, cup, table, dte_authority):
    customer = consumer_of(shop)
    invoice = fe_v2(shop, table, customer, cup)  # 22.60
    returned(shop, invoice, cup)  # 11.30 back: 11.30 left
    # 2 cups, 22.60, pass the FE's 11.30 left: refused by the rule of every credit note (its total)
    refused = returned(shop, invoice, cup, quantity=2, expect=400)
    assert refused["details"][0]["field"] == "lines"
    assert on_hand(shop, cup)[0] == 9 and receivable(shop, customer) == D("11.30")


def test_a_return_past_3_months_from_the_generation_date_is_refused(shop, cup, table, monkeypatch, dte_authority):
    customer = consumer_of(shop)
    invoice = fe_v2(shop, table, customer, cup)
    sealed = dt.date.fromisoformat(invoice["date"])  # generated and sealed at once, the same day
    # the day after the 3 months: the window closed (the books are still open)
    late = add_months(sealed, 3) + dt.timedelta(days=1)
    moment = clock.now() + (late - sealed)
    monkeypatch.setattr(clock, "now", lambda: moment)

    refused = returned(shop, invoice, cup, expect=400, date=late.isoformat())
    assert refused["code"] == "DTE_RETURN_WINDOW_CLOSED"
    assert refused["details"][0]["field"] == "sourceDocumentId"
    assert add_months(sealed, 3).isoformat() in refused["details"][0]["message"]
    assert on_hand(shop, cup)[0] == 8 and transmission(table, shop.company.company_id, invoice["id"] + 1) is None


PEOPLE = {"responsible": {"name": "Marta Ruiz", "documentType": "13", "documentNumber": "01234567-8"},
          "requester": {"name": "Jorge Pérez", "documentType": "36", "documentNumber": "06140202021024"}}


def test_the_fe_waits_for_its_return_to_be_invalidated_first_then_the_cup_may_be_returned_again(
        shop, cup, table, dte_authority):
    customer = consumer_of(shop)
    invoice = fe_v2(shop, table, customer, cup)
    note = returned(shop, invoice, cup)
    invalidate = f"/documents/{invoice['id']}/invalidate"
    # the manual: an FE with a validated return event is not invalidated before it
    blocked = shop.api.post(invalidate, {"invalidationType": 2, "reason": "Operación rescindida", **PEOPLE},
                            key=shop.key)
    assert blocked.status == 409 and blocked.json["code"] == "DTE_INVALIDATION_BLOCKED", blocked.text
    assert blocked.json["details"][0]["documentId"] == note["id"]

    # the return event invalidated (v3, no replacement code: an event is invalidated before it is reissued)
    answer = shop.api.post(f"/documents/{note['id']}/invalidate", {
        "invalidationType": 2, "reason": "Retorno registrado por error", **PEOPLE}, key=shop.key)
    assert answer.status == 200, answer.text
    assert answer.json["status"] == "cancelled" and answer.json["dte"]["status"] == "invalidated"
    event = dte_authority.invalidations[note["codigoGeneracion"]]
    assert event["estado"] == "PROCESADO"
    # the note reversed like a cancellation: the cup leaves again (8), the customer owes 22.60 again
    assert on_hand(shop, cup)[0] == 8 and receivable(shop, customer) == D("22.60")
    assert live_returns(table, shop.company.company_id, invoice["id"]) == []
    books_agree(shop, customer, cup)
    # its cup may be returned again: both cups now, 22.60
    again = returned(shop, invoice, cup, quantity=2)
    assert again["dte"]["status"] == "accepted" and D(str(again["total"])) == D("22.60")
    assert on_hand(shop, cup)[0] == 10 and receivable(shop, customer) == D("0.00")
    books_agree(shop, customer, cup)


def test_a_paid_fe_is_refunded_in_money_through_its_return_event(shop, cup, table, dte_authority):
    customer = consumer_of(shop)
    account = shop.created("/bank-accounts", {"name": "Caja", "openingBalance": 0, "currency": "USD",
                                              "openingBalanceDate": shop.default_date,
                                              "chartOfAccountId": shop.books["110103"]})
    cash = shop.created("/payments/methods", {"name": "Efectivo", "bankAccountId": account["id"]})
    invoice = fe_v2(shop, table, customer, cup)
    paid = shop.api.post(f"/payments/documents/{invoice['id']}/payments",
                         {"paymentMethodId": cash["id"], "amount": "22.60"}, key=shop.key)
    assert paid.status == 201, paid.text
    note = returned(shop, invoice, cup)
    assert note["dte"]["tipoDte"] == "18"
    # paid in full, then 11.30 returned: the customer is owed 11.30
    assert receivable(shop, customer) == D("-11.30")
    refund = shop.api.post(f"/payments/documents/{note['id']}/payments",
                           {"paymentMethodId": cash["id"], "amount": "11.30"}, key=shop.key)
    assert refund.status == 201, refund.text
    assert refund.json["kind"] == "refund"
    # 22.60 in, 11.30 back out: 11.30 in the till, nothing owed either way
    assert receivable(shop, customer) == D("0.00")
    balance = shop.api.get(f"/bank-accounts/{account['id']}", key=shop.key).json["balance"]
    assert D(str(balance)) == D("11.30")


def test_a_return_of_an_fex_v3_is_event_18_with_its_export_terms(shop, table, dte_authority):
    from tests.dte_support import customer_abroad, export_invoice

    reply = shop.api.put(f"/companies/{shop.company.company_id}", {"dteIssuer": {
        **SV_ISSUER, "formats2026From": shop.default_date}}, key=shop.key)
    assert reply.status == 200, reply.text
    buyer = customer_abroad(shop)
    fex = export_invoice(shop, buyer)  # coffee 3 x 100.00 less 10.00 = 290.00, haulage 45.50: 335.50
    assert fex["dte"]["tipoDte"] == "11" and fex["dte"]["status"] == "accepted"
    source = dte_authority.registered[fex["codigoGeneracion"]]["document"]
    assert source["identificacion"]["version"] == 3

    note = shop.created("/documents", {"type": "06", "businessPartnerId": buyer, "date": shop.default_date,
                                       "sourceDocumentId": fex["id"], "lines": [
        {"description": "Café verde, quintal", "quantity": 1, "unitPrice": "100.00", "taxTreatment": "export"}]})
    assert note["dte"]["tipoDte"] == "18" and note["dte"]["status"] == "accepted", note["dte"]
    event = dte_authority.registered[note["codigoGeneracion"]]["document"]
    assert dte_formats.schema_problems(event, dte_formats.RETORNO) == []
    assert event["documentoRelacionado"][0]["tipoDocumento"] == "11"
    # the FEX's precinct, regime and export type, and its buyer abroad
    for name in ("recintoFiscal", "regimen", "tipoItemExpor"):
        assert event["emisor"][name] == source["emisor"].get(name)
    assert (event["documento"]["codPais"], event["documento"]["nombre"]) == ("US", "Importadora del Norte Inc.")
    [item] = event["cuerpoDocumento"]
    # 1 quintal at 100.00, no IVA on an export: 100.00, as the FEX's ventaGravada
    assert (D(str(item["precioUni"])), D(str(item["ventaGravada"])), D(str(item["ivaItem"]))) == (D("100"), D("100"), 0)
    assert D(str(event["resumen"]["totalPagar"])) == D("100.00") and D(str(event["resumen"]["totalIva"])) == 0


def test_eggs_given_back_to_a_farmer_are_the_return_event_of_our_fse_v2(shop, table, dte_authority):
    reply = shop.api.put(f"/companies/{shop.company.company_id}", {"dteIssuer": {
        **SV_ISSUER, "formats2026From": shop.default_date}}, key=shop.key)
    assert reply.status == 200, reply.text
    farmer = shop.created("/business-partners", {
        "name": "Juan Pérez", "type": "supplier", "taxId": "01234567-8", "department": "05", "municipality": "11",
        "address": "Cantón El Sauce, Santa Tecla", "phone": "7000-1234", "email": "juan@example.com"})["id"]
    # 30 x 4.50 = 135.00 of eggs, no IVA: a factura de sujeto excluido (14) we issue as the buyer
    purchase = shop.created("/documents", {"type": "103", "businessPartnerId": farmer, "date": shop.default_date,
                                           "lines": [{"description": "Huevos", "quantity": 30, "unitPrice": 4.5,
                                                      "taxRate": 0}]})
    assert purchase["dte"]["tipoDte"] == "14" and purchase["dte"]["status"] == "accepted"

    # 6 broken eggs given back: 6 x 4.50 = 27.00
    note = shop.created("/documents", {"type": "105", "businessPartnerId": farmer, "date": shop.default_date,
                                       "sourceDocumentId": purchase["id"], "lines": [
        {"description": "Huevos", "quantity": 6, "unitPrice": 4.5, "taxRate": 0}]})
    assert note["dte"]["tipoDte"] == "18" and note["dte"]["status"] == "accepted", note["dte"]
    event = dte_authority.registered[note["codigoGeneracion"]]["document"]
    assert dte_formats.schema_problems(event, dte_formats.RETORNO) == []
    assert event["documentoRelacionado"][0] == {"tipoDocumento": "14", "codigoGeneracion": purchase["codigoGeneracion"],
                                                "fechaEmision": purchase["date"]}
    assert event["documento"]["numDocumento"] == "012345678"  # the farmer by its DUI, as the FSE named it
    [item] = event["cuerpoDocumento"]
    assert (D(str(item["cantidad"])), D(str(item["precioUni"])), D(str(item["compra"]))) == (6, D("4.5"), D("27"))
    summary = event["resumen"]
    assert D(str(summary["totalCompraExcluidos"])) == D(str(summary["totalPagar"])) == D("27.00")
    assert D(str(summary["totalGravada"])) == 0
    # we owe the farmer 135.00 - 27.00 = 108.00
    assert D(str(shop.partner(farmer)["payableBalance"])) == D("108.00")
    # 30 eggs bought: at most 24 more go back
    too_many = shop.api.post("/documents", {"type": "105", "businessPartnerId": farmer, "date": shop.default_date,
                                            "sourceDocumentId": purchase["id"], "lines": [
        {"description": "Huevos", "quantity": 25, "unitPrice": 4.5, "taxRate": 0}]}, key=shop.key)
    assert too_many.status == 400 and too_many.json["details"][0]["field"] in ("lines", "lines[0].quantity")


def test_a_return_drafted_then_confirmed_and_sent_again_once_the_authority_answers(shop, cup, table, dte_authority):
    customer = consumer_of(shop)
    invoice = fe_v2(shop, table, customer, cup)
    draft = returned(shop, invoice, cup, status="draft")
    assert draft["dte"] is None and draft["codigoGeneracion"] is None

    dte_authority.faults(unavailable=True)
    confirmed = shop.action(draft["id"], "confirm")
    # confirmed as the return event, its transmission pending while the authority does not answer
    assert confirmed["dte"]["tipoDte"] == "18" and confirmed["dte"]["status"] == "pending"
    assert on_hand(shop, cup)[0] == 9 and receivable(shop, customer) == D("11.30")
    dte_authority.faults(unavailable=False)

    assert retry_pending_dte(table, min_age_seconds=0) == {"accepted": 1}
    sent = shop.get(draft["id"])["dte"]
    assert sent["status"] == "accepted" and sent["selloRecepcion"]
    assert dte_authority.registered[sent["codigoGeneracion"]]["tipoDte"] == "18"


@RACES
def test_returns_sent_all_at_once_never_pass_the_fe_line(shop, cup, table, dte_authority):
    import threading
    from concurrent.futures import ThreadPoolExecutor

    customer = consumer_of(shop)
    # 2 cups (22.60) and an installation (56.50): 79.10; five returns of a cup (5 x 11.30 = 56.50)
    # all fit in the FE's total, only two in its cups' line
    invoice = fe_v2(shop, table, customer, cup, (shop.service, 1, 50))
    body = {"type": "06", "businessPartnerId": customer, "date": shop.default_date, "sourceDocumentId": invoice["id"],
            "lines": [{"productId": cup, "quantity": 1, "unitPrice": 10}]}
    barrier = threading.Barrier(5)

    def send(_: int) -> tuple[int, str | None]:
        barrier.wait()
        reply = shop.api.post("/documents", body, key=shop.key)
        return reply.status, reply.json.get("code") if reply.status != 201 else reply.json["dte"]["tipoDte"]

    with ThreadPoolExecutor(5) as pool:
        outcomes = sorted(pool.map(send, range(5)), key=str)
    assert outcomes == [(201, "18"), (201, "18"), (400, "DTE_RETURN_EXCEEDS_DOCUMENT"),
                        (400, "DTE_RETURN_EXCEEDS_DOCUMENT"), (400, "DTE_RETURN_EXCEEDS_DOCUMENT")]
    # both cups back (10), the customer owes 79.10 - 2 x 11.30 = 56.50
    assert on_hand(shop, cup)[0] == 10 and receivable(shop, customer) == D("56.50")
    assert len(live_returns(table, shop.company.company_id, invoice["id"])) == 2


def test_a_return_of_an_fe_not_sealed_yet_is_refused(shop, cup, table, dte_authority):
    customer = consumer_of(shop)
    reply = shop.api.put(f"/companies/{shop.company.company_id}", {"dteIssuer": {
        **SV_ISSUER, "formats2026From": shop.default_date}}, key=shop.key)
    assert reply.status == 200, reply.text
    dte_authority.faults(unavailable=True)
    invoice = shop.document("01", [(cup, 2, 10)], partner=customer)
    assert invoice["dte"]["status"] == "pending"
    refused = returned(shop, invoice, cup, expect=400)
    assert refused["code"] == "DTE_RETURN_WINDOW_CLOSED" and refused["details"][0]["field"] == "sourceDocumentId"
    assert on_hand(shop, cup)[0] == 8


def test_a_return_the_authority_could_not_receive_in_time_goes_in_contingency_and_a_lot(
        shop, cup, table, monkeypatch, dte_authority):
    customer = consumer_of(shop)
    invoice = fe_v2(shop, table, customer, cup)
    reply = shop.api.put(f"/companies/{shop.company.company_id}", {"dteIssuer": {
        **SV_ISSUER, "formats2026From": shop.default_date,
        "responsible": {"name": "Marta Ruiz", "documentType": "13", "documentNumber": "01234567-8"}}}, key=shop.key)
    assert reply.status == 200, reply.text
    dte_authority.faults(unavailable=True)
    note = returned(shop, invoice, cup)
    assert note["dte"]["status"] == "pending"
    dte_authority.faults(unavailable=False)
    start = clock.now()
    monkeypatch.setattr(clock, "now", lambda: start + dt.timedelta(hours=21))  # past the service's 20 hours
    assert retry_pending_dte(table, min_age_seconds=0) == {"intoContingency": 1, "eventsReported": 1,
                                                           "lotsSent": 1, "accepted": 1}
    sent = shop.get(note["id"])["dte"]
    assert sent["status"] == "accepted" and sent["contingency"]["eventSeal"]
    event = dte_authority.registered[sent["codigoGeneracion"]]["document"]
    # received under the deferred model, in contingency, still valid against fe-eret-v1
    assert (event["identificacion"]["tipoModelo"], event["identificacion"]["tipoOperacion"]) == (2, 2)
    assert dte_formats.schema_problems(event, dte_formats.RETORNO) == []


def test_a_money_only_refund_is_a_return_event_that_brings_no_cup_back(shop, cup, table, dte_authority):
    customer = consumer_of(shop)
    invoice = fe_v2(shop, table, customer, cup)  # 2 cups, 22.60; 8 cups left worth 32.00
    # 2.00 back per cup (a chipped glaze), IVA on top: 2 x 2.00 = 4.00 + 0.52 IVA = 4.52, a line with no product
    note = shop.created("/documents", {"type": "06", "businessPartnerId": customer, "date": shop.default_date,
                                       "sourceDocumentId": invoice["id"], "lines": [
        {"description": "Reembolso por esmalte dañado", "quantity": 2, "unitPrice": "2.00", "taxRate": 0.13}]})
    assert (D(str(note["subtotal"])), D(str(note["taxTotal"])), D(str(note["total"]))) == (
        D("4.00"), D("0.52"), D("4.52"))
    assert note["dte"]["tipoDte"] == "18" and note["dte"]["status"] == "accepted", note["dte"]

    # no cup comes back: still 8 worth 32.00 at 4.00; the customer owes 22.60 - 2 x 2.26 = 18.08
    assert on_hand(shop, cup) == (8, D("32.00"), D("4.0000"))
    assert receivable(shop, customer) == D("18.08")
    event = dte_authority.registered[note["codigoGeneracion"]]["document"]
    assert dte_formats.schema_problems(event, dte_formats.RETORNO) == []
    [item] = event["cuerpoDocumento"]
    # the refund with its IVA inside, as the FE carries its lines: 4.52 for 2 cups, 2.26 each, 0.52 IVA;
    # the item type of the cups' line (goods, 1), no product code: no product moves
    assert (D(str(item["cantidad"])), D(str(item["precioUni"])), D(str(item["ventaGravada"]))) == (
        2, D("2.26"), D("4.52"))
    assert D(str(item["ivaItem"])) == D("0.52") and D(str(item["montoDescu"])) == 0
    assert (item["tipoItem"], item["codigo"], item["descripcion"]) == (1, None, "Reembolso por esmalte dañado")
    assert D(str(event["resumen"]["totalPagar"])) == D("4.52")

    # the refund counts against what is left of the FE: 22.60 - 4.52 = 18.08, so both cups at 10.00
    # (22.60) no longer fit (the credit notes' total rule answers first); both at 8.00 do: 16.00 + 2.08 IVA
    refused = returned(shop, invoice, cup, quantity=2, expect=400)
    assert refused["code"] == "VALIDATION_ERROR" and refused["details"][0]["field"] == "lines", refused
    assert on_hand(shop, cup)[0] == 8 and receivable(shop, customer) == D("18.08")
    last = shop.document("06", [(cup, 2, 8)], sourceDocumentId=invoice["id"], partner=customer)
    assert last["dte"]["tipoDte"] == "18" and D(str(last["total"])) == D("18.08")
    assert on_hand(shop, cup) == (10, D("40.00"), D("4.0000")) and receivable(shop, customer) == D("0.00")
