"""A gateway payment cancelled gives its amount back to the link it came through (issue 39): the
link's paid total and status follow, and the customer's genuine second payment is accepted. Since
issue 43 the payments come from the PixelPay stand-in, each for what the link asks."""
from __future__ import annotations

from decimal import Decimal

from chalicelib.store import keys
from tests.documents_support import Shop
from tests.gateway_support import generate, new_pixelpay_gateway, pay_and_notify, payments_of, pending

D = Decimal


def _shop(api, company) -> Shop:
    return Shop(api, company)


def _cancel(shop, document_id: int, payment_id: int, reason: str = "contracargo del banco"):
    return shop.api.post(f"/payments/documents/{document_id}/payments/{payment_id}/cancel", {"reason": reason},
                         key=shop.key)


def _link(table, link_id: str) -> tuple[Decimal, str]:
    stored = table.get(keys.payment_link(link_id))
    return D(str(stored["paidTotal"])), stored["status"]


def _pay(api, pixelpay, link: dict):
    """The customer pays the link's page; PixelPay's notification posted: its answer."""
    _, [reply] = pay_and_notify(api, pixelpay, link)
    return reply


def test_a_cancelled_gateway_payment_gives_its_amount_back_and_a_second_payment_is_accepted(api, company_a, table,
                                                                                            pixelpay):
    shop = _shop(api, company_a)
    gateway = new_pixelpay_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])  # 100.00 + 15 % ISV = 115.00
    link = generate(shop, invoice["id"], gateway["id"])  # the whole 115.00
    first = _pay(api, pixelpay, link)
    assert first.json["status"] == "accepted", first.text
    assert _link(table, link["linkId"]) == (D("115.00"), "paid")

    cancelled = _cancel(shop, invoice["id"], first.json["paymentId"])
    assert cancelled.status == 200, cancelled.text
    # the document owes 115.00 again; the link asked 115.00 and now counts 115.00 - 115.00 = 0.00 paid
    assert pending(shop, invoice["id"]) == (D("115.00"), 0)
    assert _link(table, link["linkId"]) == (0, "active")

    second = _pay(api, pixelpay, link)
    assert (second.status, second.json["status"], second.json["code"]) == (200, "accepted", None), second.text
    assert pending(shop, invoice["id"]) == (0, D("115.00"))
    assert _link(table, link["linkId"]) == (D("115.00"), "paid")
    assert [(p["reference"], p["status"]) for p in payments_of(shop, invoice["id"])] == [
        (first.json["transactionId"], "cancelled"), (second.json["transactionId"], "confirmed")]
    # a paid link asks for nothing: a third payment of it is refused, recorded
    third = _pay(api, pixelpay, link)
    assert (third.json["status"], third.json["code"]) == ("refused", "AMOUNT_MISMATCH")


def test_a_payment_registered_by_hand_leaves_the_link_alone(api, company_a, table, pixelpay):
    shop = _shop(api, company_a)
    gateway = new_pixelpay_gateway(shop)
    cash = shop.created("/payments/methods", {"name": "Efectivo"})
    invoice = shop.document("01", [(shop.service, 1, 100)])  # 115.00
    link = generate(shop, invoice["id"], gateway["id"], amount="50.00")
    through_link = _pay(api, pixelpay, link).json["paymentId"]
    by_hand = shop.api.post(f"/payments/documents/{invoice['id']}/payments",
                            {"paymentMethodId": cash["id"], "amount": "10.00"}, key=shop.key)
    assert by_hand.status == 201, by_hand.text
    assert _cancel(shop, invoice["id"], by_hand.json["id"]).status == 200
    assert _link(table, link["linkId"]) == (D("50.00"), "paid")  # nothing of it came through the link
    assert "paymentLinkId" in _stored_attributes(table, shop, invoice["id"], through_link)
    assert "paymentLinkId" not in _stored_attributes(table, shop, invoice["id"], by_hand.json["id"])  # not a null


def _stored_attributes(table, shop, document_id: int, payment_id: int) -> set[str]:
    """As DynamoDB holds the payment: which attributes it has, a null one included."""
    key = keys.document_payment(shop.company.company_id, document_id, payment_id)
    return set(table.client.get_item(TableName=table.name, Key={"PK": {"S": key["PK"]}, "SK": {"S": key["SK"]}},
                                     ConsistentRead=True)["Item"])


def _forget_link(table, shop, document_id: int, payment_id: int) -> None:
    """As a gateway's payment was stored before issue 39: without the link it came through."""
    key = keys.document_payment(shop.company.company_id, document_id, payment_id)
    table.client.update_item(TableName=table.name, Key={"PK": {"S": key["PK"]}, "SK": {"S": key["SK"]}},
                             UpdateExpression="REMOVE paymentLinkId")


def test_the_migration_names_old_payments_links_and_gives_back_what_was_cancelled(api, company_a, table, pixelpay):
    from infra.ops.migrations import gateway_payments_linked

    shop = _shop(api, company_a)
    gateway = new_pixelpay_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])  # 115.00
    cancelled_link = generate(shop, invoice["id"], gateway["id"], amount="30.00")
    kept_link = generate(shop, invoice["id"], gateway["id"], amount="20.00")
    cancelled = _pay(api, pixelpay, cancelled_link).json["paymentId"]
    kept = _pay(api, pixelpay, kept_link).json["paymentId"]
    for payment_id in (cancelled, kept):
        _forget_link(table, shop, invoice["id"], payment_id)
    assert _cancel(shop, invoice["id"], cancelled).status == 200
    assert _link(table, cancelled_link["linkId"]) == (D("30.00"), "paid")  # the old code's answer: still counted

    assert gateway_payments_linked(table) == 2
    # 30.00 - 30.00 (cancelled) = 0.00 paid through its link; the other keeps its 20.00
    assert _link(table, cancelled_link["linkId"]) == (0, "active")
    assert _link(table, kept_link["linkId"]) == (D("20.00"), "paid")
    assert gateway_payments_linked(table) == 0  # idempotent: nothing given back twice
    assert _link(table, cancelled_link["linkId"]) == (0, "active")
    assert _pay(api, pixelpay, cancelled_link).json["status"] == "accepted"


def test_a_payment_of_the_link_committed_between_a_notifications_read_and_its_commit_is_not_counted_twice(
        api, company_a, table, pixelpay, monkeypatch):
    """The notification read the link with nothing paid; another payment of the link commits
    first: the notification runs again and is refused (the link asks for nothing more), never
    counted on top."""
    from chalicelib.services.integrations import gateway_notifications

    shop = _shop(api, company_a)
    gateway = new_pixelpay_gateway(shop)
    invoice = shop.document("01", [(shop.service, 1, 100)])  # 115.00
    link = generate(shop, invoice["id"], gateway["id"], amount="50.00")
    [earlier] = pixelpay.pay(link["url"])
    [later] = pixelpay.pay(link["url"])
    count_payment, first = gateway_notifications.count_payment, []

    def paid_meanwhile(transaction, stale_link, amount, payment_id):
        if not first:
            monkeypatch.setattr(gateway_notifications, "count_payment", count_payment)
            # straight to the use case: a request inside this one would take the app's current request
            first.append(gateway_notifications.receive_notification(
                table, "pixelpay", earlier.body, {name.lower(): value for name, value in earlier.headers.items()}))
        count_payment(transaction, stale_link, amount, payment_id)

    monkeypatch.setattr(gateway_notifications, "count_payment", paid_meanwhile)
    second = api.request("POST", "/webhooks/gateway-a", raw=later.body, headers=dict(later.headers))
    assert first[0]["status"] == "accepted", first
    assert (second.status, second.json["status"], second.json["code"]) == (200, "refused", "AMOUNT_MISMATCH")
    # 50.00 through the link once; the document 115.00 - 50.00 = 65.00 pending
    assert _link(table, link["linkId"]) == (D("50.00"), "paid")
    assert pending(shop, invoice["id"]) == (D("65.00"), D("50.00"))
