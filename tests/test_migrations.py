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
