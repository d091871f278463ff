"""The migrations of issue 39 (books no role can bend): gateway payments name the payment link
they came through, and companies whose years were closed before the books' lock existed get it.
Run by infra/ops/migrations.py (its docstring says why each exists)."""
from __future__ import annotations

from chalicelib.store import keys
from chalicelib.store.table import Table, from_attributes, to_attributes
from chalicelib.store.transaction import LostRace, Transaction
from infra.ops.table_io import scan_items, scan_types


def gateway_payments_linked(table: Table) -> int:
    """A gateway's payment from before issue 39 does not name its payment link, so cancelling it
    would leave the link counting it: each accepted decision names its link on its payment, and a
    payment already cancelled gives its amount back to the link, in one transaction (conditioned
    on the payment not naming it yet: idempotent). Returns the payments named."""
    from chalicelib.services.integrations import link_payments
    from chalicelib.services.payments.payment_records import CANCELLED

    named = 0
    for decision in scan_types(table, {"GATEWAY_CALLBACK"}):
        if decision.get("status") != "accepted" or decision.get("paymentId") is None:
            continue
        company_id, link_id = int(decision["companyId"]), decision["linkId"]
        payment = table.get(keys.document_payment(company_id, int(decision["documentId"]), int(decision["paymentId"])))
        if payment is None or payment.get("paymentLinkId"):
            continue
        transaction = Transaction(table)
        transaction.update(keys.document_payment(company_id, payment["documentId"], payment["id"]),
                           "SET paymentLinkId = :link", condition="attribute_not_exists(paymentLinkId) AND #s = :s",
                           names={"#s": "status"}, values={":link": link_id, ":s": payment["status"]})
        if payment["status"] == CANCELLED:
            link_payments.give_back(table, transaction, {**payment, "paymentLinkId": link_id})
        try:
            transaction.commit()
        except LostRace:
            continue
        named += 1
    return named


def books_locks_from_closed_years(table: Table) -> int:
    """Issue 39: every dated write checks the books' lock (keys.books_lock, `closedThrough`); a
    company whose years were closed before it existed gets it at its newest closed year's last
    day, on every shard. Idempotent (never lowers it); run with the service stopped. Returns the
    companies whose lock was written."""
    newest: dict[str, str] = {}
    for raw in scan_items(table.client, table.name, FilterExpression="contains(PK, :p) AND yearClosed = :yes "
                          "AND yearStatus IN (:closed, :closing)",  # a year reopening is no longer closed
                          ExpressionAttributeValues={":p": {"S": "#PLOCK"}, ":yes": {"BOOL": True},
                                                     ":closed": {"S": "closed"}, ":closing": {"S": "closing"}}):
        lock = from_attributes(raw)
        if lock["SK"].isdigit():  # a year's lock itself, not one of its shards
            newest[lock["PK"]] = max(newest.get(lock["PK"], ""), f"{lock['SK']}-12-31")
    for partition, through in newest.items():
        books = {"PK": partition, "SK": keys.BOOKS_LOCK}
        current = (table.get(books) or {}).get("closedThrough") or ""
        for key in keys.shards(books):
            table.client.update_item(TableName=table.name, Key=to_attributes(key),
                                     UpdateExpression="SET closedThrough = :through",
                                     ExpressionAttributeValues=to_attributes({":through": max(current, through)}))
    return len(newest)
