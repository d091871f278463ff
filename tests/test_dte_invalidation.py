"""El Salvador: an accepted DTE is invalidated at the authority (the anulación event, checked,
signed, sent first, recorded before it is sent) and then reversed like a cancellation."""
from __future__ import annotations

import pytest

from chalicelib.store import keys
from tests.documents_support import Shop
from tests.dte_support import UPPERCASE_UUID4, events, invoice, sv_shop, taxpayer_of


@pytest.fixture
def shop(api, company_a) -> Shop:
    return sv_shop(api, company_a)


PEOPLE = {"responsible": {"name": "Marta Ruiz", "documentType": "13", "documentNumber": "01234567-8"},
          "requester": {"name": "Jorge Pérez", "documentType": "36", "documentNumber": "06140202021024"}}


def test_an_accepted_dte_is_invalidated_at_the_authority_and_reversed(shop, table):
    taxpayer = taxpayer_of(shop)
    shop.api.put(f"/business-partners/{shop.supplier}", {"nrc": "765432-1"}, key=shop.key)  # a taxpayer's invoice
    shop.document("103", [(shop.product, 5, 60)])                                     # goods in stock
    before = shop.api.get(f"/business-partners/{taxpayer}", key=shop.key).json["receivableBalance"]
    stock_before = shop.api.get(f"/inventory/stock?productId={shop.product}", key=shop.key).json
    sale = shop.document("01", [(shop.product, 2, 100)], partner=taxpayer)        # stocked goods: stock and cost
    assert shop.api.get(f"/business-partners/{taxpayer}", key=shop.key).json["receivableBalance"] == before + 226

    answer = shop.api.post(f"/documents/{sale['id']}/invalidate", {
        "invalidationType": 2, "reason": "El cliente desistió de la compra", **PEOPLE}, key=shop.key)
    assert answer.status == 200, answer.text
    invalidated = answer.json
    assert invalidated["status"] == "cancelled" and invalidated["dte"]["status"] == "invalidated"
    record = invalidated["dte"]["invalidation"]
    assert UPPERCASE_UUID4.fullmatch(record["codigoGeneracion"]) and len(record["selloRecepcion"]) == 40
    assert record["codigoGeneracion"] != sale["codigoGeneracion"] and record["type"] == 2
    # as if never issued: the customer's balance, the stock and the entry reversed
    assert shop.api.get(f"/business-partners/{taxpayer}", key=shop.key).json["receivableBalance"] == before
    assert shop.api.get(f"/inventory/stock?productId={shop.product}", key=shop.key).json == stock_before
    assert len(invalidated["reversalEntryIds"]) == 1
    published = [p["event"] for p in events(table, shop.company.company_id, sale["id"])]
    assert published.count("document.dte_invalidated") == 1 and "document.cancelled" in published
    again = shop.api.post(f"/documents/{sale['id']}/invalidate", {"invalidationType": 2, **PEOPLE}, key=shop.key)
    assert (again.status, again.json["code"]) == (400, "INVALID_DOCUMENT_STATUS")


def test_an_invalidation_whose_answer_was_lost_is_completed_by_sending_it_again(dte_authority, shop, table):
    taxpayer = taxpayer_of(shop)
    sale = invoice(shop, taxpayer)
    path = f"/documents/{sale['id']}/invalidate"
    replacement = invoice(shop, taxpayer)
    dte_authority.faults(drop_answers=2)  # the authority invalidates it; its answer never arrives (2 tries)
    lost = shop.api.post(path, {"invalidationType": 1, "replacementDocumentId": replacement["id"],
                                "reason": "Error en el precio", **PEOPLE}, key=shop.key)
    assert (lost.status, lost.json["code"]) == (503, "SERVICE_UNAVAILABLE")
    event = dte_authority.invalidations[sale["codigoGeneracion"]]["codigoGeneracion"]
    assert shop.get(sale["id"])["dte"]["status"] == "accepted"  # invalidated there, not yet here
    # sent again (whatever the body says now): the same event, which the authority answers as before
    again = shop.api.post(path, {"invalidationType": 3, "reason": "Otra razón cualquiera", **PEOPLE}, key=shop.key)
    assert again.status == 200, again.text
    record = again.json["dte"]["invalidation"]
    assert (record["codigoGeneracion"], record["type"], record["reason"], record["replacementDocumentId"]) == (
        event, 1, "Error en el precio", replacement["id"])
    assert again.json["status"] == "cancelled" and "pendingInvalidation" not in str(table.get(
        keys.document(shop.company.company_id, sale["id"])))


def test_two_invalidations_at_once_never_lose_the_event_sent_first(shop, table):
    from chalicelib.countries.sv.services import dte_invalidation
    from chalicelib.errors import ServiceUnavailable

    sale = invoice(shop, taxpayer_of(shop))
    company_id = shop.company.company_id
    first = {"codigoGeneracion": "A" * 8 + "-AAAA-4AAA-8AAA-" + "A" * 12, "date": sale["date"], "time": "10:00:00",
             "fields": {"invalidationType": 2}}
    second = {**first, "codigoGeneracion": first["codigoGeneracion"].replace("A", "B")}
    read_by_both = table.get(keys.document(company_id, sale["id"]))
    dte_invalidation._record_pending(table, company_id, read_by_both, first)
    # the second request read the document before the first recorded its event: it does not overwrite it
    with pytest.raises(ServiceUnavailable) as refused:
        dte_invalidation._record_pending(table, company_id, read_by_both, second)
    assert refused.value.code == "CONCURRENT_UPDATE"
    # nor does a refusal of the second's event remove the first's record
    with pytest.raises(ServiceUnavailable):
        dte_invalidation._forget_pending(table, company_id, sale["id"], second["codigoGeneracion"])
    stored = table.get(keys.document(company_id, sale["id"]))["dte"]["pendingInvalidation"]
    assert stored["codigoGeneracion"] == first["codigoGeneracion"]
    dte_invalidation._forget_pending(table, company_id, sale["id"], first["codigoGeneracion"])
    assert "pendingInvalidation" not in table.get(keys.document(company_id, sale["id"]))["dte"]


def test_an_invalidated_credito_fiscal_and_its_note_leave_everything_as_if_never_issued(shop, table):
    taxpayer = taxpayer_of(shop)
    shop.api.put(f"/business-partners/{shop.supplier}", {"nrc": "765432-1"}, key=shop.key)
    shop.document("103", [(shop.product, 5, 60)])
    balance = shop.api.get(f"/business-partners/{taxpayer}", key=shop.key).json["receivableBalance"]
    stock = shop.api.get(f"/inventory/stock?productId={shop.product}", key=shop.key).json
    trial = shop.api.get("/journal-entries/trial-balance", key=shop.key)
    assert trial.status == 200, trial.text
    credito_fiscal = shop.document("01", [(shop.product, 3, 100)], partner=taxpayer)
    note = shop.document("06", [(shop.product, 1, 100)], sourceDocumentId=credito_fiscal["id"], partner=taxpayer)
    assert (credito_fiscal["dte"]["tipoDte"], note["dte"]["tipoDte"]) == ("03", "05")
    # the 03 is corrected by its note: the note goes first (the Manual Funcional V2.0's blocking, which the
    # authority applies to a legacy DTE too, names it)
    blocked = shop.api.post(f"/documents/{credito_fiscal['id']}/invalidate", {"invalidationType": 2, **PEOPLE},
                            key=shop.key)
    assert (blocked.status, blocked.json["code"]) == (409, "DTE_INVALIDATION_BLOCKED")
    assert [detail["documentId"] for detail in blocked.json["details"]] == [note["id"]]
    for document in (note, credito_fiscal):
        answer = shop.api.post(f"/documents/{document['id']}/invalidate", {"invalidationType": 2, **PEOPLE},
                               key=shop.key)
        assert answer.status == 200 and answer.json["dte"]["status"] == "invalidated", answer.text
    assert shop.api.get(f"/business-partners/{taxpayer}", key=shop.key).json["receivableBalance"] == balance
    assert shop.api.get(f"/inventory/stock?productId={shop.product}", key=shop.key).json == stock
    def balances(report: dict) -> dict:  # each account's balance (the reversal entries add to both columns)
        return {row["code"]: row["balance"] for row in report["accounts"] if row["balance"]}

    assert balances(shop.api.get("/journal-entries/trial-balance", key=shop.key).json) == balances(trial.json)


def test_an_invalidation_is_refused_before_anything_changes(dte_authority, shop, table):
    taxpayer = taxpayer_of(shop)
    sale = invoice(shop, taxpayer)
    path = f"/documents/{sale['id']}/invalidate"
    # type 1 names the DTE that replaces it
    missing = shop.api.post(path, {"invalidationType": 1, **PEOPLE}, key=shop.key)
    assert (missing.status, missing.json["details"][0]["field"]) == (400, "replacementDocumentId")
    # the authority's format: a responsible's name of at least 5 characters
    short = shop.api.post(path, {"invalidationType": 2, **PEOPLE,
                                 "responsible": {**PEOPLE["responsible"], "name": "Ana"}}, key=shop.key)
    assert short.status == 400
    # the authority does not answer: 503, nothing invalidated
    dte_authority.faults(unavailable=True)
    silent = shop.api.post(path, {"invalidationType": 2, **PEOPLE}, key=shop.key)
    assert (silent.status, silent.json["code"]) == (503, "SERVICE_UNAVAILABLE")
    assert shop.get(sale["id"])["dte"]["status"] == "accepted" and shop.get(sale["id"])["status"] == "confirmed"
    dte_authority.faults(unavailable=False)
    # replaced by another accepted DTE of the same customer (type 1)
    path = f"/documents/{invoice(shop, taxpayer)['id']}/invalidate"  # the first one's event is pending: it is
    replacement = invoice(shop, taxpayer)                                 # completed as sent (the test above)
    replaced = shop.api.post(path, {"invalidationType": 1, "replacementDocumentId": replacement["id"], **PEOPLE},
                             key=shop.key)
    assert replaced.status == 200, replaced.text
    assert replaced.json["dte"]["invalidation"]["replacementDocumentId"] == replacement["id"]
    # a factura issued to an anonymous consumer: the invalidation format needs the receiver's document
    anonymous = invoice(shop, shop.customer)
    refused = shop.api.post(f"/documents/{anonymous['id']}/invalidate", {"invalidationType": 2, **PEOPLE},
                            key=shop.key)
    fields = {detail["field"]: detail["message"] for detail in refused.json["details"]}
    assert refused.status == 400 and fields["invalidation.documento.numDocumento"] == (
        "missing: the DTE was issued without the customer's NIT or DUI, which its invalidation needs")
    # a crédito fiscal a note corrects: refused before the authority is asked (it would stay invalidated there)
    corrected = invoice(shop, taxpayer)
    shop.document("06", [(shop.service, 1, 10)], sourceDocumentId=corrected["id"], partner=taxpayer)
    dte_authority.faults(unavailable=True)  # asking the authority would be a 503: it is not asked
    refused = shop.api.post(f"/documents/{corrected['id']}/invalidate", {"invalidationType": 2, **PEOPLE},
                            key=shop.key)
    assert (refused.status, refused.json["code"]) == (409, "DTE_INVALIDATION_BLOCKED")  # the manual's, legacy too
    assert shop.get(corrected["id"])["dte"]["status"] == "accepted"
    dte_authority.faults(unavailable=False)
    # a paid document is not invalidated until its payments are cancelled
    payments = shop.created("/payments/methods", {"name": "Efectivo", "isCashMethod": True})
    paid = invoice(shop, taxpayer)
    shop.created(f"/payments/documents/{paid['id']}/payments", {"paymentMethodId": payments["id"], "amount": 10})
    refused = shop.api.post(f"/documents/{paid['id']}/invalidate", {"invalidationType": 2, **PEOPLE}, key=shop.key)
    assert (refused.status, refused.json["code"]) == (400, "DOCUMENT_HAS_PAYMENTS")


def test_the_largest_invoice_taken_can_always_be_invalidated_even_a_month_later(shop):
    """A DTE of any type can be invalidated, so its confirmation keeps room for its reversal: a
    day count and period check of another month, the tax books' corrections and an entry that
    revalues the stock (here the goods come back at 5 to a shortage carried at 9)."""
    import datetime as dt

    shop.api.put(f"/companies/{shop.company.company_id}", {"allowNegativeStock": True}, key=shop.key)
    taxpayer = taxpayer_of(shop)
    products = [shop.created("/products", {"code": f"Q-{n}", "name": f"Producto {n}", "unitPrice": 10, "cost": 5,
                                           "taxRate": 0.13})["id"] for n in range(45)]
    for size in range(45, 0, -1):
        reply = shop.api.post("/documents", {"type": "01", "businessPartnerId": taxpayer, "date": shop.default_date,
                                             "lines": [{"productId": p, "quantity": 1, "unitPrice": 10}
                                                       for p in products[:size]]}, key=shop.key)
        if reply.status == 201:
            break
        assert reply.json["code"] == "DOCUMENT_TOO_LARGE", reply.text
    sale = reply.json
    assert size > 20
    shop.api.put(f"/business-partners/{shop.supplier}", {"nrc": "765432-1"}, key=shop.key)
    shop.document("103", [(products[0], 1, 9)])  # covers the first product's shortage at 9
    shop.document("01", [(products[0], 1, 10)], partner=taxpayer)  # short again, carried at 9
    today = dt.date.fromisoformat(shop.default_date)
    next_month = (today.replace(day=1) + dt.timedelta(days=32)).replace(day=1).isoformat()
    answer = shop.api.post(f"/documents/{sale['id']}/invalidate", {"invalidationType": 2, "reason": "Desistió",
                                                                   "date": next_month, **PEOPLE}, key=shop.key)
    assert answer.status == 200, answer.text
    assert answer.json["status"] == "cancelled" and len(answer.json["reversalEntryIds"]) == 2
