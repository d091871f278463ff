"""A gateway payment cancelled gives its amount back to the link it came through (issue 39): the
link's paid total and status follow, and the customer's genuine second payment is accepted."""
from __future__ import annotations

from decimal import Decimal

from chalicelib.store import keys
from tests.test_gateways import gateway_a_body, generate, new_gateway, notify, payments_of, pending, shop, signed_a

D = Decimal
__all__ = ["shop"]  # the fixture, used by name


def _cancel(shop, document_id: int, payment_id: int, reason: str = "contracargo del banco"):
    return shop.api.post(f"/payments/documents/{document_id}/payments/{payment_id}/cancel", {"reason": reason},
                         key=shop.key)


def _link(table, link_id: str) -> tuple[Decimal, str]:
    stored = table.get(keys.payment_link(link_id))
    return D(str(stored["paidTotal"])), stored["status"]


def _pay(api, link_id: str, transaction_id: str, amount: str):
    body = gateway_a_body(link_id, transaction_id, amount)
    return notify(api, "gateway-a", body, signed_a(body))


def test_a_cancelled_gateway_payment_gives_its_amount_back_and_a_second_payment_is_accepted(api, shop, table):
    gateway = new_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])  # 100.00 + 15 % ISV = 115.00
    link = generate(shop, invoice["id"], gateway["id"])  # the whole 115.00
    first = _pay(api, link["linkId"], "txa_first", "115.00")
    assert first.json["status"] == "accepted"
    assert _link(table, link["linkId"]) == (D("115.00"), "paid")

    cancelled = _cancel(shop, invoice["id"], first.json["paymentId"])
    assert cancelled.status == 200, cancelled.text
    # the document owes 115.00 again; the link asked 115.00 and now counts 115.00 - 115.00 = 0.00 paid
    assert pending(shop, invoice["id"]) == (D("115.00"), 0)
    assert _link(table, link["linkId"]) == (0, "active")

    second = _pay(api, link["linkId"], "txa_second", "115.00")
    assert (second.status, second.json["status"], second.json["code"]) == (200, "accepted", None), second.text
    assert pending(shop, invoice["id"]) == (0, D("115.00"))
    assert _link(table, link["linkId"]) == (D("115.00"), "paid")
    assert [(p["reference"], p["status"]) for p in payments_of(shop, invoice["id"])] == [
        ("txa_first", "cancelled"), ("txa_second", "confirmed")]


def test_a_partly_paid_link_gets_back_only_the_cancelled_part(api, shop, table):
    gateway = new_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])  # 115.00
    link = generate(shop, invoice["id"], gateway["id"], amount="50.00")
    assert _pay(api, link["linkId"], "txa_a", "30.00").json["status"] == "accepted"
    second = _pay(api, link["linkId"], "txa_b", "20.00")  # 30.00 + 20.00 = 50.00: the link is paid
    assert second.json["status"] == "accepted"
    assert _link(table, link["linkId"]) == (D("50.00"), "paid")
    # the document: 115.00 - 50.00 = 65.00 pending
    assert pending(shop, invoice["id"]) == (D("65.00"), D("50.00"))

    assert _cancel(shop, invoice["id"], second.json["paymentId"]).status == 200
    # 50.00 - 20.00 = 30.00 paid through the link, 20.00 left to ask; the document 65.00 + 20.00 = 85.00
    assert _link(table, link["linkId"]) == (D("30.00"), "active")
    assert pending(shop, invoice["id"]) == (D("85.00"), D("30.00"))

    over = _pay(api, link["linkId"], "txa_over", "20.01")  # more than the 20.00 left
    assert (over.json["status"], over.json["code"]) == ("refused", "AMOUNT_EXCEEDS_LINK")
    again = _pay(api, link["linkId"], "txa_c", "20.00")
    assert again.json["status"] == "accepted", again.text
    assert _link(table, link["linkId"]) == (D("50.00"), "paid")
    # 85.00 - 20.00 = 65.00 pending; paid 30.00 + 20.00 = 50.00
    assert pending(shop, invoice["id"]) == (D("65.00"), D("50.00"))


def test_a_payment_registered_by_hand_leaves_the_link_alone(api, shop, table):
    gateway = new_gateway(shop)
    cash = shop.created("/payments/methods", {"name": "Efectivo"})
    invoice = shop.document("01", [(shop.service, 1, 100)])  # 115.00
    link = generate(shop, invoice["id"], gateway["id"], amount="50.00")
    assert _pay(api, link["linkId"], "txa_a", "50.00").json["status"] == "accepted"
    by_hand = shop.api.post(f"/payments/documents/{invoice['id']}/payments",
                            {"paymentMethodId": cash["id"], "amount": "10.00"}, key=shop.key)
    assert by_hand.status == 201, by_hand.text
    assert _cancel(shop, invoice["id"], by_hand.json["id"]).status == 200
    assert _link(table, link["linkId"]) == (D("50.00"), "paid")  # nothing of it came through the link


def _stored_attributes(table, shop, document_id: int, payment_id: int) -> set[str]:
    """As DynamoDB holds the payment: which attributes it has, a null one included."""
    key = keys.document_payment(shop.company.company_id, document_id, payment_id)
    return set(table.client.get_item(TableName=table.name, Key={"PK": {"S": key["PK"]}, "SK": {"S": key["SK"]}},
                                     ConsistentRead=True)["Item"])


def test_only_a_payment_through_a_link_stores_the_link(api, shop, table):
    gateway = new_gateway(shop)
    cash = shop.created("/payments/methods", {"name": "Efectivo"})
    invoice = shop.document("01", [(shop.service, 1, 100)])  # 115.00
    link = generate(shop, invoice["id"], gateway["id"], amount="50.00")
    through_link = _pay(api, link["linkId"], "txa_a", "50.00").json["paymentId"]
    by_hand = shop.api.post(f"/payments/documents/{invoice['id']}/payments",
                            {"paymentMethodId": cash["id"], "amount": "10.00"}, key=shop.key).json["id"]
    assert "paymentLinkId" in _stored_attributes(table, shop, invoice["id"], through_link)
    assert "paymentLinkId" not in _stored_attributes(table, shop, invoice["id"], by_hand)  # not even a null


def _forget_link(table, shop, document_id: int, payment_id: int) -> None:
    """As a gateway's payment was stored before issue 39: without the link it came through."""
    key = keys.document_payment(shop.company.company_id, document_id, payment_id)
    table.client.update_item(TableName=table.name, Key={"PK": {"S": key["PK"]}, "SK": {"S": key["SK"]}},
                             UpdateExpression="REMOVE paymentLinkId")


def test_the_migration_names_old_payments_links_and_gives_back_what_was_cancelled(api, shop, table):
    from infra.ops.migrations import gateway_payments_linked

    gateway = new_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])  # 115.00
    link = generate(shop, invoice["id"], gateway["id"], amount="50.00")
    cancelled = _pay(api, link["linkId"], "txa_old_1", "30.00").json["paymentId"]
    kept = _pay(api, link["linkId"], "txa_old_2", "20.00").json["paymentId"]
    for payment_id in (cancelled, kept):
        _forget_link(table, shop, invoice["id"], payment_id)
    assert _cancel(shop, invoice["id"], cancelled).status == 200
    assert _link(table, link["linkId"]) == (D("50.00"), "paid")  # the old code's answer: still counted

    assert gateway_payments_linked(table) == 2
    # 50.00 - 30.00 (the cancelled one) = 20.00 paid through the link
    assert _link(table, link["linkId"]) == (D("20.00"), "active")
    assert gateway_payments_linked(table) == 0  # idempotent: nothing given back twice
    assert _link(table, link["linkId"]) == (D("20.00"), "active")
    assert _cancel(shop, invoice["id"], kept).status == 200  # now named: 20.00 - 20.00 = 0.00
    assert _link(table, link["linkId"]) == (0, "active")
    assert _pay(api, link["linkId"], "txa_new", "50.00").json["status"] == "accepted"


def test_a_cancellation_between_a_notifications_read_and_its_commit_is_not_lost(api, shop, table, monkeypatch):
    """The notification read the link with 30.00 paid; the cancellation of those 30.00 commits
    first: the notification runs again and counts 0.00 + 20.00, never 30.00 + 20.00."""
    from chalicelib.auth.principal import API_KEY, Principal
    from chalicelib.services.commands import Command
    from chalicelib.services.integrations import gateways
    from chalicelib.services.payments import payments

    owner = Principal(API_KEY, shop.company.company_id, shop.company.user_id, "owner")
    gateway = new_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])  # 115.00
    link = generate(shop, invoice["id"], gateway["id"], amount="50.00")
    first = _pay(api, link["linkId"], "txa_a", "30.00").json["paymentId"]
    count_payment, cancelled = gateways.count_payment, []

    def cancelled_meanwhile(transaction, stale_link, amount, payment_id):
        if not cancelled:
            # straight to the use case: a request inside this one would take the app's current request
            cancelled.append(payments.cancel_payment(Command(owner, table), invoice["id"], first, "contracargo"))
        count_payment(transaction, stale_link, amount, payment_id)

    monkeypatch.setattr(gateways, "count_payment", cancelled_meanwhile)
    second = _pay(api, link["linkId"], "txa_b", "20.00")
    assert cancelled[0]["status"] == "cancelled"
    assert second.status == 200 and second.json["status"] == "accepted", second.text
    # 30.00 - 30.00 + 20.00 = 20.00 through the link; the document 115.00 - 20.00 = 95.00 pending
    assert _link(table, link["linkId"]) == (D("20.00"), "active")
    assert pending(shop, invoice["id"]) == (D("95.00"), D("20.00"))
