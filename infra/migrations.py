"""Brings items written by earlier versions up to what the code reads now. Idempotent: run it on
every start of the local stack, and once against a deployed table after an upgrade
(`python -m infra.admin migrate`). It scans the table: an operator's tool, never a request path.

- Memberships from before users and roles (issue 7) lack `version`, `status` and the company's
  member-index keys (GSI1), and companies lack `activeOwnerCount`: without them old users vanish
  from `GET /settings/users`, a change answers 500 and the last-owner guard refuses every change.
- Webhook subscriptions and payment gateways from before secrets were sealed (issue 11) hold their
  signing secret as it is: it is sealed (chalicelib/auth/sealing.py) and the plaintext removed.
- Stock from before average costing (issue 12) is one item per product and warehouse: each product
  gets its stock position (its quantity per warehouse, valued at its reference cost, which is what
  the books took as its cost of sales until then). The inventory valuation then shows what the
  account differs by (a manual entry settles it); dates before the upgrade show no values.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from chalicelib.domain import members
from chalicelib.domain.roles import OWNER
from chalicelib.store import keys
from chalicelib.store.table import Table, from_attributes, to_attributes
from infra.table_io import scan_items


def _scan(table: Table, item_types: set[str]) -> list[dict[str, Any]]:
    kinds = sorted(item_types)
    return [from_attributes(raw) for raw in scan_items(
        table.client, table.name, FilterExpression="itemType IN (" + ", ".join(f":t{i}" for i in range(len(kinds))) + ")",
        ExpressionAttributeValues={f":t{i}": {"S": kind} for i, kind in enumerate(kinds)})]


def _set_missing(table: Table, item: dict[str, Any], fields: dict[str, Any]) -> None:
    """Sets only the fields the item lacks (a concurrent writer's value wins)."""
    for name, value in fields.items():
        table.client.update_item(
            TableName=table.name, Key=to_attributes({"PK": item["PK"], "SK": item["SK"]}),
            UpdateExpression="SET #n = if_not_exists(#n, :v)",
            ExpressionAttributeNames={"#n": name}, ExpressionAttributeValues=to_attributes({":v": value}))


def backfill_memberships(table: Table) -> int:
    """Returns how many items it changed."""
    items = _scan(table, {"MEMBER", "COMPANY"})
    changed = 0
    owners: Counter[int] = Counter()
    for member in (item for item in items if item["itemType"] == "MEMBER"):
        company_id, user_id = int(member["companyId"]), int(member["userId"])
        if member.get("role") == OWNER and member.get("isActive") and member.get("status") != members.INVITED:
            owners[company_id] += 1
        missing = {name: value for name, value in {
            "version": 1, "status": members.ACTIVE if member.get("isActive") else members.INACTIVE,
            **keys.membership_index(company_id, user_id)}.items() if name not in member}
        if missing:
            _set_missing(table, member, missing)
            changed += 1
    for company in (item for item in items if item["itemType"] == "COMPANY"):
        if "activeOwnerCount" not in company:
            _set_missing(table, company, {"activeOwnerCount": owners[int(company["id"])]})
            changed += 1
    return changed


def seal_plain_secrets(table: Table) -> int:
    """Seals the plaintext `secret` of webhook subscriptions and payment gateways; returns how
    many it sealed. Conditioned on the plaintext being still there: a concurrent update wins."""
    from chalicelib.auth import sealing
    from chalicelib.domain.gateways import secret_fingerprint
    from chalicelib.services.gateways import SECRET_PURPOSE as GATEWAY
    from chalicelib.services.webhooks import SECRET_PURPOSE as WEBHOOK

    purposes = {keys.WEBHOOK: WEBHOOK, keys.PAYMENT_GATEWAY: GATEWAY}
    sealed = 0
    for item in _scan(table, set(purposes)):
        secret = item.get("secret")
        if not secret:
            continue
        company_id = int(item["PK"].split("#")[1])
        fields = {":sealed": sealing.seal_text(str(secret), company_id, purposes[item["itemType"]]),
                  ":plain": secret}
        update = "SET sealedSecret = :sealed REMOVE secret"
        if item["itemType"] == keys.PAYMENT_GATEWAY:
            update = "SET sealedSecret = :sealed, secretFingerprint = :fingerprint REMOVE secret"
            fields[":fingerprint"] = secret_fingerprint(str(secret))
        try:
            table.client.update_item(TableName=table.name, Key=to_attributes({"PK": item["PK"], "SK": item["SK"]}),
                                     UpdateExpression=update, ConditionExpression="secret = :plain",
                                     ExpressionAttributeValues=to_attributes(fields))
        except table.client.exceptions.ConditionalCheckFailedException:
            continue
        sealed += 1
    return sealed


LEGACY_STOCK = "STOCK"


def stock_positions_from_stock(table: Table) -> int:
    """Creates the stock position of each product that has legacy stock items and none yet;
    returns how many it created. Conditioned on the position not existing: a command that moved
    the product meanwhile has made its own."""
    from decimal import Decimal

    from chalicelib.domain.accounting import round_money

    held: dict[tuple[int, int], dict[int, Decimal]] = {}
    for item in _scan(table, {LEGACY_STOCK}):
        company_id = int(item["PK"].split("#")[1])
        by_warehouse = held.setdefault((company_id, int(item["productId"])), {})
        by_warehouse[int(item["warehouseId"])] = Decimal(item.get("quantity", 0))
    created = 0
    for (company_id, product_id), by_warehouse in sorted(held.items()):
        product = table.get(keys.entity(company_id, keys.PRODUCT, product_id)) or {}
        cost = Decimal(product.get("cost") or 0)
        quantity = sum(by_warehouse.values(), Decimal(0))
        position = {**keys.stock_position(company_id, product_id), "itemType": "STOCK_POSITION",
                    "productId": product_id, "quantity": quantity, "value": round_money(quantity * cost),
                    "unitCost": cost, "warehouses": {str(w): q for w, q in sorted(by_warehouse.items())},
                    "sequence": 1}
        try:
            table.client.put_item(TableName=table.name, Item=to_attributes(position),
                                  ConditionExpression="attribute_not_exists(PK)")
        except table.client.exceptions.ConditionalCheckFailedException:
            continue
        created += 1
    return created
