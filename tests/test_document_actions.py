"""`allowedActions`: what a document can do next, answered from the rules its commands check
(domain/document_actions.py). For a representative set of types and states, in Honduras and El
Salvador: the list is what it should be, every action left out is refused by its route (and the
refusal changes nothing), and every action listed is taken by its route, each on a fresh copy of
the state.

`pay`, `refund` and `advance` are one route (POST /payments/documents/{id}/payments, which does
what the type takes), so that route is refused when none of the three is listed. `applyAdvances`
is asked with a quote or order of the same partner holding an advance: whether the source has any
is the command's to read, not the document's."""
from __future__ import annotations

from typing import Any, Callable

import pytest

from chalicelib.domain.document_actions import ACTIONS
from tests.documents_support import Shop
from tests.dte_support import invoice as sv_invoice
from tests.dte_support import sv_shop, taxpayer_of
from tests.support import ORIGIN, Reply

MONEY = ("pay", "refund", "advance")
# what a route answers when the document's state refuses the action
STATE_REFUSALS = {"INVALID_DOCUMENT_STATUS", "DOCUMENT_NOT_EDITABLE", "DOCUMENT_NOT_DELETABLE",
                  "DOCUMENT_NOT_CANCELLABLE", "DOCUMENT_NOT_UNCONFIRMABLE", "DOCUMENT_HAS_PAYMENTS",
                  "DOCUMENT_HAS_CREDIT_NOTES", "DOCUMENT_NOT_PAYABLE", "AMOUNT_EXCEEDS_PENDING"}
PEOPLE = {"responsible": {"name": "Marta Ruiz", "documentType": "13", "documentNumber": "01234567-8"},
          "requester": {"name": "Jorge Pérez", "documentType": "36", "documentNumber": "06140202021024"}}
PURCHASES = ("103", "104", "105", "106", "102", "11")


class Probe:
    """Takes one action on a document through its route, as a client would."""

    def __init__(self, api, shop: Shop, email: str) -> None:
        self.api, self.shop = api, shop
        self.cookie = api.login(email)  # DELETE /documents/{id} is the web app's
        self.cash = shop.created("/payments/methods", {"name": "Efectivo", "isCashMethod": True})["id"]

    def money(self, document: dict) -> Any:
        pending, room = float(document["pending"]), float(document["total"]) - float(document["advancesTotal"])
        amount = pending if pending > 0 else room if room > 0 and document["type"] in ("100", "101", "102", "112") else 1
        return self.api.post(f"/payments/documents/{document['id']}/payments",
                             {"paymentMethodId": self.cash, "amount": amount}, key=self.shop.key)

    def apply_advances(self, document: dict) -> Any:
        """From a fresh order of the document's partner holding an advance of what it owes."""
        purchase = document["type"] in PURCHASES
        order = self.shop.document("102" if purchase else "101", [(self.shop.service, 1, 100)],
                                   partner=document["businessPartnerId"])
        held = self.api.post(f"/payments/documents/{order['id']}/payments",
                             {"paymentMethodId": self.cash, "amount": 10}, key=self.shop.key)
        assert held.status == 201, held.text
        return self.api.post(f"/payments/documents/{document['id']}/apply-advances-from-source",
                             {"sourceDocumentId": order["id"]}, key=self.shop.key)

    def take(self, document: dict, action: str) -> Any:
        path, key = f"/documents/{document['id']}", self.shop.key
        if action in MONEY:
            return self.money(document)
        if action == "applyAdvances":
            return self.apply_advances(document)
        if action == "update":
            return self.api.put(path, {"notes": "Revisado"}, key=key)
        if action == "delete":
            return self.api.delete(path, cookie=self.cookie, origin=ORIGIN)
        if action == "print":  # a PDF, or the refusal's JSON
            answer = self.api.http.request("POST", f"{path}/print", body=b"{}", headers={
                "authorization": f"Bearer {key}", "accept": "application/pdf", "content-type": "application/json"})
            return Reply(answer.status_code, dict(answer.headers), "" if answer.status_code == 200 else answer.body.decode())
        if action == "send":
            return self.api.post("/send-document", {"sendFrom": "email", "templateId": 1, "documentId": document["id"],
                                                    "email": "compras@cliente.example"}, key=key)
        body = {"cancel": {"reason": "Prueba de acciones"}, "invalidate": {"invalidationType": 2, **PEOPLE}}
        return self.api.post(f"{path}/{action}", body.get(action, {}), key=key)


def routes(actions: list[str]) -> list[str]:
    """One probe per route: the money route once, for whichever of its actions."""
    out: list[str] = []
    for action in actions:
        probe = "pay" if action in MONEY else action
        if probe not in out:
            out.append(probe)
    return out


def refused_by_state(action: str, answer: dict) -> bool:
    """A refusal of what the document records; for an invalidation, also the receiver as the DTE
    was issued to it (the format's `invalidation.documento.*`), which no request can mend."""
    if answer["code"] in STATE_REFUSALS:
        return True
    fields = [detail["field"] for detail in answer.get("details") or []]
    return action == "invalidate" and bool(fields) and all(f.startswith("invalidation.documento.") for f in fields)


def check(probe: Probe, make: Callable[[], dict], expected: list[str]) -> None:
    document = make()
    assert document["allowedActions"] == expected, (document["type"], document["status"])
    assert probe.shop.get(document["id"])["allowedActions"] == expected  # the same when read again
    before = probe.shop.get(document["id"])
    refused = [action for action in ACTIONS if action not in expected
               and not (action in MONEY and any(money in expected for money in MONEY))]
    for action in routes(refused):
        reply = probe.take(document, action)
        assert reply.status in (400, 403) and refused_by_state(action, reply.json), (action, reply.status, reply.text)
    after = probe.shop.get(document["id"])
    assert (after["version"], after["status"], after["pending"]) == (before["version"], before["status"],
                                                                     before["pending"])
    for action in routes(expected):
        # print and send leave the document as it is; any other action is taken on a copy of the state
        target = document if action in ("print", "send") else make()
        reply = probe.take(target, action)
        assert reply.status in (200, 201), (action, reply.status, reply.text[:300])


@pytest.fixture
def shop(api, company_a, ses):
    return Shop(api, company_a)


def test_sales_documents_answer_what_their_routes_take(api, shop, company_a):
    probe = Probe(api, shop, company_a.email)
    service = [(shop.service, 1, 100)]  # 115.00 with 15 % ISV

    def paid_invoice() -> dict:
        invoice = shop.document("01", service)
        probe.money(invoice)
        return shop.get(invoice["id"])

    def note() -> dict:
        return shop.document("06", service, sourceDocumentId=shop.document("01", service)["id"])

    def applied_note() -> dict:
        credited = note()
        reply = api.post(f"/payments/documents/{credited['sourceDocumentId']}/payments",
                         {"creditNoteId": credited["id"], "amount": 115}, key=shop.key)
        assert reply.status == 201, reply.text
        return shop.get(credited["id"])

    def cancelled_note() -> dict:
        return shop.action(note()["id"], "cancel", {"reason": "Emitida por error"})

    check(probe, lambda: shop.document("01", service, status="draft"),
          ["update", "confirm", "delete", "cancel", "print", "send"])
    check(probe, lambda: shop.document("01", service), ["pay", "applyAdvances", "print", "send"])
    check(probe, paid_invoice, ["print", "send"])
    # what a credit note credits is applied to a document of the customer or refunded in money
    check(probe, note, ["cancel", "refund", "print", "send"])
    check(probe, applied_note, ["print", "send"])
    check(probe, cancelled_note, ["print", "send"])


def test_orders_quotes_and_purchases_answer_what_their_routes_take(api, shop, company_a):
    probe = Probe(api, shop, company_a.email)
    service = [(shop.service, 1, 100)]

    def advanced(doc_type: str, amount: float) -> dict:
        document = shop.document(doc_type, service)
        reply = api.post(f"/payments/documents/{document['id']}/payments",
                         {"paymentMethodId": probe.cash, "amount": amount}, key=shop.key)
        assert reply.status == 201, reply.text
        return shop.get(document["id"])

    def confirmed_order() -> dict:
        return shop.action(shop.document("101", service)["id"], "confirm")

    check(probe, lambda: shop.document("101", service), ["update", "confirm", "delete", "cancel", "advance", "print",
                                                         "send"])
    # an order holding an advance is neither deleted nor cancelled; a quote advanced in full takes no more
    check(probe, lambda: advanced("101", 5), ["update", "confirm", "advance", "print", "send"])
    check(probe, lambda: advanced("100", 115), ["update", "confirm", "print", "send"])
    check(probe, confirmed_order, ["advance", "print", "send"])
    # advances are taken in the company's currency only
    check(probe, lambda: shop.document("100", service, currency="USD", exchangeRate=24.5),
          ["update", "confirm", "delete", "cancel", "print", "send"])
    check(probe, lambda: shop.document("103", [(shop.product, 2, 50)]),
          ["unconfirm", "pay", "applyAdvances", "print", "send"])


def test_an_el_salvador_dte_is_invalidated_not_cancelled(api, company_b, ses):
    shop = sv_shop(api, company_b)
    probe = Probe(api, shop, company_b.email)
    customer = taxpayer_of(shop)

    def invalidated() -> dict:
        return shop.action(sv_invoice(shop, customer)["id"], "invalidate", {"invalidationType": 2, **PEOPLE})

    # the answer to the POST already follows the authority's acceptance
    check(probe, lambda: sv_invoice(shop, customer), ["invalidate", "pay", "applyAdvances", "print", "send"])
    check(probe, invalidated, ["print", "send"])
    # a factura to an anonymous consumer names no document or e-mail, which its invalidation needs
    check(probe, lambda: sv_invoice(shop, shop.customer), ["pay", "applyAdvances", "print", "send"])
    # a factura de sujeto excluido (a purchase from a supplier without an NRC): the invalidation
    # format takes no control number of type 14 (it answered 500 before)
    farmer = shop.created("/business-partners", {"name": "Juan Pérez", "type": "supplier", "taxId": "01234567-8",
                                                 "department": "05", "municipality": "11", "phone": "7000-1234",
                                                 "address": "Cantón El Sauce, Santa Tecla", "email": "juan@example.com"})
    check(probe, lambda: shop.created("/documents", {
        "type": "103", "businessPartnerId": farmer["id"], "date": shop.default_date,
        "lines": [{"description": "Huevos", "quantity": 30, "unitPrice": 4.5, "taxRate": 0}]}),
          ["pay", "applyAdvances", "print", "send"])
