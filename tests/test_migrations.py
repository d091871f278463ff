"""infra.ops.migrations brings data written before users and roles up to date: memberships without
version, status or member index, companies without activeOwnerCount."""
from __future__ import annotations

from chalicelib.store import keys
from infra.ops.migrations import backfill_memberships
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
    from chalicelib.services.integrations import gateway_config as gateways
    from chalicelib.services.integrations import webhooks
    from infra.ops.migrations import seal_plain_secrets

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
    assert gateways.gateway_view(table.get(legacy["gateway"][0]))["secretFingerprint"] == "sha256:" + hashlib.sha256(
        legacy["gateway"][2].encode()).hexdigest()[:12]

    assert seal_plain_secrets(table) == 2
    assert seal_plain_secrets(table) == 0  # idempotent
    for key, purpose, secret in legacy.values():
        stored = table.get(key)
        assert "secret" not in stored and secret not in json.dumps(stored, default=str)
        assert sealing.opened_text(stored, company_id, purpose) == secret  # opened the same
    gateway = gateways.gateway_view(table.get(legacy["gateway"][0]))
    assert gateway["hasSecret"] and gateway["secretFingerprint"].startswith("sha256:")
    # bound to its company and purpose: another company cannot open it
    import pytest
    from cryptography.exceptions import InvalidTag
    with pytest.raises(InvalidTag):
        sealing.opened_text(table.get(legacy["webhook"][0]), company_id + 1, webhooks.SECRET_PURPOSE)


def _legacy_stock(table, company_id: int, product_id: int, quantities: dict[int, int]) -> None:
    for warehouse, quantity in quantities.items():
        table.client.put_item(TableName=table.name, Item={
            "PK": {"S": f"C#{company_id}#STOCK"}, "SK": {"S": f"{product_id:012d}#{warehouse:012d}"},
            "itemType": {"S": "STOCK"}, "productId": {"N": str(product_id)}, "warehouseId": {"N": str(warehouse)},
            "quantity": {"N": str(quantity)}})


def test_stock_from_before_average_costing_gets_its_positions(api, table, company_a):
    """Stock written as one item per product and warehouse (before issue 12) becomes the product's
    position, valued at its reference cost: sales go on from there at the average. A product a
    command moved before the migration ran keeps both."""
    from decimal import Decimal

    from infra.ops.migrations import stock_positions_from_stock
    from tests.documents_support import Shop

    shop = Shop(api, company_a)  # the chair's reference cost is 60
    desk = shop.created("/products", {"code": "P-2", "name": "Escritorio", "cost": 200})["id"]
    _legacy_stock(table, company_a.company_id, shop.product, {1: 4, 2: 6})
    _legacy_stock(table, company_a.company_id, desk, {1: 2})
    # a legacy movement of the chair, dated before the upgrade (no value: costing did not exist)
    table.client.put_item(TableName=table.name, Item={
        "PK": {"S": f"C#{company_a.company_id}#STKMV#{shop.product}"}, "SK": {"S": "2026-10-01#000000000099#00001#000"},
        "itemType": {"S": "STOCK_MOVEMENT"}, "productId": {"N": str(shop.product)}, "warehouseId": {"N": "2"},
        "quantity": {"N": "6"}, "date": {"S": "2026-10-01"}, "kind": {"S": "confirmation"}})
    shop.document("103", [(desk, 1, 230)])  # the desk moved before the migration: 1 at 230
    assert stock_positions_from_stock(table) == 2
    assert stock_positions_from_stock(table) == 0  # the legacy items are gone: once
    chair = api.get(f"/products/{shop.product}", key=shop.key).json
    # 4 + 6 = 10 chairs at 60: 600
    assert (chair["stockQuantity"], chair["stockValue"], chair["averageCost"]) == (10, Decimal("600.00"), 60)
    assert shop.stock(shop.product, 1) == 4 and shop.stock(shop.product, 2) == 6
    desk_now = api.get(f"/products/{desk}", key=shop.key).json
    # 1 at 230 and the 2 legacy desks at 200: 3 worth 630
    assert (desk_now["stockQuantity"], desk_now["stockValue"]) == (3, Decimal("630.00"))
    sale = shop.document("01", [(shop.product, 3, 100)])
    assert shop.entry_lines(sale["journalEntryId"])["5101"] == (Decimal("180.00"), 0)  # 3 x 60
    # before the legacy movement the chairs were 6 fewer: the quantities at earlier dates are right
    before = api.get("/inventory/valuation?date=2026-09-30", key=shop.key).json
    assert sum(item["quantity"] for item in before["items"] if item["productId"] == shop.product) == 4


def test_purchases_confirmed_before_average_costing_are_undone_at_what_their_entry_posted(api, table, company_a):
    from decimal import Decimal

    from chalicelib.store import keys as store_keys
    from infra.ops.migrations import value_legacy_stock_moves
    from tests.documents_support import Shop

    shop = Shop(api, company_a)  # the chair's reference cost is 60
    purchase = shop.document("103", [(shop.product, 5, 100)])  # inventory 500
    key = store_keys.document(company_a.company_id, purchase["id"])
    stored = table.get(key)
    legacy_moves = [{name: value for name, value in move.items() if name != "revaluation"} | {"cost": Decimal(300)}
                    for move in stored["stockMoves"]]  # what the old code kept: 5 x 60
    from chalicelib.store.table import to_attributes
    table.client.put_item(TableName=table.name, Item=to_attributes({**stored, "stockMoves": legacy_moves}))
    assert value_legacy_stock_moves(table) == 1
    assert value_legacy_stock_moves(table) == 0
    assert [move["cost"] for move in table.get(key)["stockMoves"]] == [500]
    shop.action(purchase["id"], "unconfirm")
    # the stock goes back by the 500 the entry's reversal takes off the account: both at 0
    chair = api.get(f"/products/{shop.product}", key=shop.key).json
    assert chair["stockValue"] == 0 and shop.balance("110501") == 0


def test_account_balances_kept_in_each_account_s_partition_move_to_the_company_s(api, table, company_a):
    from decimal import Decimal

    from chalicelib.store.table import from_attributes, to_attributes
    from infra.ops.migrations import account_balances_to_company_partition
    from tests.support import Books

    books = Books(api, company_a, full=False)
    books.entry("2026-10-05", ("110101", 300, 0), ("410101", 0, 300))
    books.entry("2026-11-02", ("110101", 50, 0), ("410101", 0, 50))
    before = books.trial_balance("2026-11-30")
    # as an earlier version wrote them: in the account's partition, listed by GSI1
    partition = keys.balances_partition(company_a.company_id)
    current = [from_attributes(raw) for raw in table.client.query(
        TableName=table.name, KeyConditionExpression="PK = :p",
        ExpressionAttributeValues={":p": {"S": partition}})["Items"]]
    assert len(current) == 4  # two accounts, two months
    for item in current:
        account_id, month = int(item["accountId"]), item["month"]
        legacy = {**item, "PK": keys.account_partition(company_a.company_id, account_id), "SK": f"BAL#{month}",
                  "GSI1PK": partition, "GSI1SK": f"{month}#{account_id:012d}"}
        table.client.put_item(TableName=table.name, Item=to_attributes(legacy))
        table.client.delete_item(TableName=table.name, Key=to_attributes({"PK": item["PK"], "SK": item["SK"]}))
    assert books.trial_balance("2026-11-30")["accounts"] == []  # the reports no longer see them

    assert account_balances_to_company_partition(table) == 4
    assert account_balances_to_company_partition(table) == 0  # once only
    after = books.trial_balance("2026-11-30")
    assert after == before
    # 300 + 50 debited to cash, the same credited to sales
    assert Decimal(str(after["totalDebit"])) == Decimal(str(after["totalCredit"])) == Decimal("350")
    ledger = books.ledger("110101", "2026-11-01", "2026-11-30")
    assert Decimal(str(ledger["openingBalance"])) == Decimal("300")  # October's balance, moved


def test_chart_accounts_kept_each_in_its_own_partition_move_to_the_company_s_chart(api, table, company_a):
    from decimal import Decimal

    from chalicelib.store.table import from_attributes, to_attributes
    from infra.ops.migrations import chart_to_company_partition
    from tests.support import Books

    books = Books(api, company_a, full=False)
    books.entry("2026-10-05", ("110101", 300, 0), ("410101", 0, 300))
    listed = api.get("/chart-of-accounts?limit=100", key=company_a.api_key).json
    # as an earlier version wrote them: each account in its own partition, listed by GSI1 by code
    partition = keys.chart_partition(company_a.company_id)
    current = [from_attributes(raw) for raw in table.client.query(
        TableName=table.name, KeyConditionExpression="PK = :p",
        ExpressionAttributeValues={":p": {"S": partition}})["Items"]]
    assert len(current) == listed["total"] > 0
    for item in current:
        legacy = {**item, **keys.legacy_account(company_a.company_id, int(item["id"])),
                  "GSI1PK": f"C#{company_a.company_id}#ACCT", "GSI1SK": item["code"]}
        table.client.put_item(TableName=table.name, Item=to_attributes(legacy))
        table.client.delete_item(TableName=table.name, Key=to_attributes({"PK": item["PK"], "SK": item["SK"]}))
    assert api.get("/chart-of-accounts", key=company_a.api_key).json["total"] == 0  # no longer seen

    assert chart_to_company_partition(table) == len(current)
    assert chart_to_company_partition(table) == 0  # once only
    assert api.get("/chart-of-accounts?limit=100", key=company_a.api_key).json == listed
    cash = books["110101"]
    assert api.get(f"/chart-of-accounts/{cash}", key=company_a.api_key).json["hasPostings"] is True
    # the moved accounts take postings: 300 + 25 debited to cash
    books.entry("2026-10-06", ("110101", 25, 0), ("410101", 0, 25))
    assert Decimal(str(books.ledger("110101", "2026-10-01", "2026-10-31")["closingBalance"])) == Decimal("325")


def test_day_counts_of_documents_and_entries_merge_into_one_item_a_day(api, table, company_a):
    from chalicelib.store.table import from_attributes, to_attributes
    from infra.ops.migrations import day_counts_to_one_partition
    from tests.documents_support import Shop

    shop = Shop(api, company_a)
    shop.document("01", [(shop.service, 1, 100)])  # confirmed, with its automatic entry
    shop.document("01", [(shop.service, 1, 50)], status="draft")  # no entry
    shop.books.entry("2026-11-02", ("110101", 10, 0), ("410101", 0, 10))  # a manual entry the same day
    company = company_a.company_id

    def totals() -> tuple[int, int, int, int]:
        return (api.get("/documents", key=shop.key).json["total"],
                api.get(f"/documents?businessPartnerId={shop.customer}", key=shop.key).json["total"],
                api.get("/journal-entries", key=shop.key).json["total"],
                api.get("/documents?startDate=2026-11-02&endDate=2026-11-02&status=draft", key=shop.key).json["total"])

    assert totals() == (2, 2, 2, 1)  # 2 invoices; the invoice's entry and the manual one; 1 draft
    # as an earlier version wrote them: documents' and entries' counts apart, each with all days
    for partner_id in (None, shop.customer):
        day = from_attributes(table.client.get_item(TableName=table.name, ConsistentRead=True, Key=to_attributes(
            keys.day_counts(company, "2026-11-02", partner_id)))["Item"])
        table.client.delete_item(TableName=table.name, Key=to_attributes({"PK": day["PK"], "SK": day["SK"]}))
        scope = "" if partner_id is None else f"#BP{partner_id}"
        documents = {name: value for name, value in day.items() if name[-2:].isdigit()}
        assert documents == {"confirmed_01": 1, "draft_01": 1}
        for date in ("2026-11-02", "ALL"):
            table.client.put_item(TableName=table.name, Item=to_attributes(
                {"PK": f"C#{company}#DOCDAY{scope}", "SK": date, **documents}))
        if partner_id is None:
            entries = {name: value for name, value in day.items() if name.endswith(("automatic", "manual"))}
            assert entries == {"posted_automatic": 1, "posted_manual": 1}
            table.client.put_item(TableName=table.name, Item=to_attributes(
                {"PK": f"C#{company}#JEDAY", "SK": "2026-11-02", **entries}))
    assert totals() == (0, 0, 0, 0)  # no longer seen

    assert day_counts_to_one_partition(table) == 5  # 2 days and 2 all-days of documents, 1 of entries
    assert day_counts_to_one_partition(table) == 0  # once only
    assert totals() == (2, 2, 2, 1)
    shop.document("01", [(shop.service, 1, 25)])  # counted on the merged item: one more of each list
    assert totals() == (3, 3, 3, 1)


def test_year_locks_from_before_shards_are_copied_to_every_shard(api, table, company_a):
    from chalicelib.store.table import to_attributes
    from infra.devstack import faithful_dynamodb
    from infra.ops.migrations import period_locks_to_shards
    from tests.support import Books

    books = Books(api, company_a, full=False)
    november = api.post("/accounting-periods", {"name": "Nov", "startDate": "2026-11-01", "endDate": "2026-11-30"},
                        key=company_a.api_key).json
    assert api.post(f"/accounting-periods/{november['id']}/close", key=company_a.api_key).status == 200
    lock = keys.period_lock(company_a.company_id, "2026")
    for shard in keys.shards(lock)[1:]:  # as an earlier version left it: the lock item alone
        table.client.delete_item(TableName=table.name, Key=to_attributes(shard))

    assert period_locks_to_shards(table) == 1
    assert period_locks_to_shards(table) == 1  # idempotent: the same copies again
    assert all(len(table.get(shard)["closedDays"]) == 30 for shard in keys.shards(lock))  # November's 30 days
    faithful_dynamodb.inject("TransactWriteItems", "conflict")  # the check goes to a shard
    assert books.entry("2026-11-05", ("110101", 1, 0), ("410101", 0, 1), expect=400)["code"] == "PERIOD_CLOSED"


def test_partners_tax_ids_from_before_their_reservation_are_reserved_and_duplicates_reported(api, table, company_a,
                                                                                             company_b, caplog):
    """Partners saved before tax ids were checked (issue 38): the id as typed, no reservation. The
    first of two with one RTN typed differently gets the reservation; the second and an RTN the
    rule refuses are reported, never changed."""
    from infra.ops.migrations import partner_tax_ids_duplicated, partner_tax_ids_refused, partner_tax_ids_reserved

    def as_written_before(company, name: str, tax_id: str | None) -> int:
        partner = api.post("/business-partners", {"name": name, "type": "customer"}, key=company.api_key).json
        if tax_id:
            key = keys.entity(company.company_id, keys.PARTNER, partner["id"])
            table.client.update_item(TableName=table.name, Key={"PK": {"S": key["PK"]}, "SK": {"S": key["SK"]}},
                                     UpdateExpression="SET taxId = :t", ExpressionAttributeValues={":t": {"S": tax_id}})
        return partner["id"]

    maya = as_written_before(company_a, "Maya S.A.", "0801-1999-123456")
    maya_again = as_written_before(company_a, "Maya proveedor", "08011999123456")  # the same RTN, digits only
    wrong = as_written_before(company_a, "Cliente viejo", "123")  # 3 digits: neither an RTN (14) nor a DNI (13)
    as_written_before(company_a, "Sin RTN", None)
    other_company = as_written_before(company_b, "Maya", "08011999123456")  # another company's: its own
    partners = {partner_id: table.get(keys.entity(company_a.company_id, keys.PARTNER, partner_id))
                for partner_id in (maya, maya_again, wrong)}
    reservation = keys.unique_value(company_a.company_id, "PARTNER_TAX_ID", "08011999123456")
    assert table.get(reservation) is None
    # what an old stack allowed: a third partner with the RTN
    assert api.post("/business-partners", {"name": "Maya tres", "type": "customer", "taxId": "08011999123456"},
                    key=company_b.api_key).status == 201  # (in B, before its migration: the gap)

    # reserved: Maya in A; in B the first with it (the one written the old way, not the API's later one,
    # which has its reservation already) -> 1 + 0 = 1
    assert partner_tax_ids_reserved(table) == 1
    assert table.get(reservation)["partnerId"] == maya  # the lower id of the two
    # duplicates: Maya proveedor in A, and B's old "Maya" whose id B's API partner reserved -> 2
    with caplog.at_level("WARNING"):
        assert partner_tax_ids_duplicated(table) == 2
        assert partner_tax_ids_refused(table) == 1  # "123"
    assert {record.partnerId for record in caplog.records if "tax id" in record.getMessage()} == {
        maya_again, other_company, wrong}
    assert {partner_id: table.get(keys.entity(company_a.company_id, keys.PARTNER, partner_id))
            for partner_id in partners} == partners  # reported, nothing changed

    refused = api.post("/business-partners", {"name": "Maya nueva", "type": "customer", "taxId": "0801 1999 123456"},
                       key=company_a.api_key)
    assert (refused.status, refused.json["code"]) == (409, "DUPLICATE_TAX_ID")
    assert refused.json["message"].startswith(f"Business partner {maya} already has the tax id 08011999123456")

    assert partner_tax_ids_reserved(table) == 0  # a second run writes nothing
    assert (partner_tax_ids_duplicated(table), partner_tax_ids_refused(table)) == (2, 1)  # reports, the same
    # the duplicate corrects its id: Maya's reservation stays hers
    corrected = api.put(f"/business-partners/{maya_again}", {"taxId": "0801-1999-654321"}, key=company_a.api_key)
    assert (corrected.status, corrected.json["taxId"]) == (200, "08011999654321"), corrected.text
    assert table.get(reservation)["partnerId"] == maya
    assert api.post("/business-partners", {"name": "Maya nueva", "type": "customer", "taxId": "08011999123456"},
                    key=company_a.api_key).status == 409
    assert partner_tax_ids_duplicated(table) == 1  # B's old "Maya" remains for B's accountant


def test_a_company_closed_before_the_books_lock_gets_it_at_its_newest_closed_year(api, table, company_a):
    """Issue 39: 2026 closed by an earlier version (its year lock alone, no books' lock) left an
    empty 2025 open to postings; after the migration a 2025 date is refused, a 2027 one posts."""
    from chalicelib.store.table import to_attributes
    from infra.ops.migrations import books_locks_from_closed_years
    from tests.support import Books

    books = Books(api, company_a, full=False)
    books.entry("2026-03-01", ("110101", 300, 0), ("3101", 0, 300))
    # as the earlier version left a closed 2026: its year lock, no books' lock
    table.client.put_item(TableName=table.name, Item=to_attributes({
        **keys.period_lock(company_a.company_id, "2026"), "yearStatus": "closed", "yearVersion": 2, "yearClosed": True}))
    books.entry("2025-06-01", ("110101", 1, 0), ("3101", 0, 1))   # the finding: accepted before the migration
    assert books_locks_from_closed_years(table) == 1
    assert books_locks_from_closed_years(table) == 1  # idempotent: the same day again
    assert all(table.get(key)["closedThrough"] == "2026-12-31"
               for key in keys.shards(keys.books_lock(company_a.company_id)))
    assert books.entry("2025-06-02", ("110101", 1, 0), ("3101", 0, 1), expect=400)["code"] == "PERIOD_CLOSED"
    books.entry("2027-01-02", ("110101", 1, 0), ("3101", 0, 1))



# issue 39: fixbooks
def test_books_locks_pass_over_a_year_reopening(api, table, company_a):
    """A year the earlier version was reopening keeps its `yearClosed` until its last closing
    entry is reversed: the migration does not lock the books through it. 2025 closed, 2026
    reopening: the lock stops at 2025-12-31 (2026's own lock still refuses its dates until reopened)."""
    from chalicelib.store.table import to_attributes
    from infra.ops.migrations import books_locks_from_closed_years
    from tests.support import Books

    books = Books(api, company_a, full=False)
    books.entry("2026-03-01", ("110101", 300, 0), ("3101", 0, 300))
    for name, status in (("2025", "closed"), ("2026", "reopening")):
        table.client.put_item(TableName=table.name, Item=to_attributes({
            **keys.period_lock(company_a.company_id, name), "yearStatus": status, "yearVersion": 3,
            "yearClosed": True}))
    assert books_locks_from_closed_years(table) == 1
    assert all(table.get(key)["closedThrough"] == "2025-12-31"
               for key in keys.shards(keys.books_lock(company_a.company_id)))
