"""infra.migrations brings data written before users and roles up to date: memberships without
version, status or member index, companies without activeOwnerCount."""
from __future__ import annotations

from chalicelib.store import keys
from infra.migrations import backfill_memberships
from tests.users_support import member, remove, update, users_by_email


def _as_written_before_roles(table, company_id: int, user_ids: list[int]) -> None:
    client = table.client
    for user_id in user_ids:
        key = keys.membership(company_id, user_id)
        client.update_item(TableName=table.name, Key={"PK": {"S": key["PK"]}, "SK": {"S": key["SK"]}},
                           UpdateExpression="REMOVE version, #s, GSI1PK, GSI1SK", ExpressionAttributeNames={"#s": "status"})
    company = keys.company(company_id)
    client.update_item(TableName=table.name, Key={"PK": {"S": company["PK"]}, "SK": {"S": company["SK"]}},
                       UpdateExpression="REMOVE activeOwnerCount")


def test_old_memberships_are_listed_changed_and_guarded_after_the_migration(api, table, company_a):
    second_owner, _ = member(api, table, company_a, "socia@alpha.hn", "owner")
    seller, _ = member(api, table, company_a, "vende@alpha.hn", "seller")
    _as_written_before_roles(table, company_a.company_id, [company_a.user_id, second_owner, seller])
    owner = api.login(company_a.email)
    assert users_by_email(api, owner) == {}  # what an old stack showed: nobody

    assert backfill_memberships(table) == 4  # three memberships and the company
    assert backfill_memberships(table) == 0  # idempotent
    assert set(users_by_email(api, owner)) == {company_a.email, "socia@alpha.hn", "vende@alpha.hn"}
    assert table.get(keys.company(company_a.company_id))["activeOwnerCount"] == 2
    assert update(api, owner, seller, {"role": "viewer"}).json["role"] == "viewer"
    assert remove(api, owner, second_owner).status == 200  # one owner left: allowed
    last = update(api, owner, company_a.user_id, {"role": "admin"})
    assert (last.status, last.json["code"]) == (400, "LAST_OWNER")


def test_secrets_written_in_plaintext_still_work_and_the_migration_seals_them(api, table, company_a):
    """A webhook subscription and a payment gateway from before secrets were sealed: the delivery
    is signed and the notification verified with the plaintext secret they hold; the migration
    seals it (nothing readable is left in the item) and both go on working the same."""
    import hashlib
    import json

    from chalicelib.auth import sealing
    from chalicelib.services import gateways, webhooks
    from infra.migrations import seal_plain_secrets

    company_id = company_a.company_id
    legacy = {"webhook": (keys.small_record(company_id, keys.WEBHOOK, 1), webhooks.SECRET_PURPOSE, "whsec_old_secret"),
              "gateway": (keys.small_record(company_id, keys.PAYMENT_GATEWAY, 1), gateways.SECRET_PURPOSE,
                          "gwa_old_secret_0123456789")}
    for kind, (key, _, secret) in legacy.items():
        item_type = keys.WEBHOOK if kind == "webhook" else keys.PAYMENT_GATEWAY
        table.client.put_item(TableName=table.name, Item={
            "PK": {"S": key["PK"]}, "SK": {"S": key["SK"]}, "itemType": {"S": item_type}, "id": {"N": "1"},
            "secret": {"S": secret}, "version": {"N": "1"}})
    for key, purpose, secret in legacy.values():  # read as they are
        assert sealing.opened_text(table.get(key), company_id, purpose) == secret
    assert gateways.view(table.get(legacy["gateway"][0]))["secretFingerprint"] == "sha256:" + hashlib.sha256(
        legacy["gateway"][2].encode()).hexdigest()[:12]

    assert seal_plain_secrets(table) == 2
    assert seal_plain_secrets(table) == 0  # idempotent
    for key, purpose, secret in legacy.values():
        stored = table.get(key)
        assert "secret" not in stored and secret not in json.dumps(stored, default=str)
        assert sealing.opened_text(stored, company_id, purpose) == secret  # opened the same
    gateway = gateways.view(table.get(legacy["gateway"][0]))
    assert gateway["hasSecret"] and gateway["secretFingerprint"].startswith("sha256:")
    # bound to its company and purpose: another company cannot open it
    import pytest
    from cryptography.exceptions import InvalidTag
    with pytest.raises(InvalidTag):
        sealing.opened_text(table.get(legacy["webhook"][0]), company_id + 1, webhooks.SECRET_PURPOSE)


def test_stock_from_before_average_costing_gets_its_positions(api, table, company_a):
    """Stock written as one item per product and warehouse (before issue 12) becomes the product's
    position, valued at its reference cost: sales go on from there at the average."""
    from decimal import Decimal

    from infra.migrations import stock_positions_from_stock
    from tests.documents_support import Shop

    shop = Shop(api, company_a)  # the chair's reference cost is 60
    for warehouse, quantity in ((1, 4), (2, 6)):
        table.client.put_item(TableName=table.name, Item={
            "PK": {"S": f"C#{company_a.company_id}#STOCK"}, "SK": {"S": f"{shop.product:012d}#{warehouse:012d}"},
            "itemType": {"S": "STOCK"}, "productId": {"N": str(shop.product)}, "warehouseId": {"N": str(warehouse)},
            "quantity": {"N": str(quantity)}})
    assert stock_positions_from_stock(table) == 1
    assert stock_positions_from_stock(table) == 0  # idempotent
    chair = api.get(f"/products/{shop.product}", key=shop.key).json
    # 4 + 6 = 10 chairs at 60: 600
    assert (chair["stockQuantity"], chair["stockValue"], chair["averageCost"]) == (10, Decimal("600.00"), 60)
    assert shop.stock(shop.product, 1) == 4 and shop.stock(shop.product, 2) == 6
    sale = shop.document("01", [(shop.product, 3, 100)])
    assert shop.entry_lines(sale["journalEntryId"])["5101"] == (Decimal("180.00"), 0)  # 3 x 60
