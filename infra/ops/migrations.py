"""Brings items written by earlier versions up to what the code reads now. Idempotent: run it on
every start of the local stack, and once against a deployed table after an upgrade
(`python -m infra.ops.admin migrate`). It scans the table: an operator's tool, never a request path.

- Memberships from before users and roles (issue 7) lack `version`, `status` and the company's
  member-index keys (GSI1), and companies lack `activeOwnerCount`: without them old users vanish
  from `GET /settings/users`, a change answers 500 and the last-owner guard refuses every change.
- Webhook subscriptions and payment gateways from before secrets were sealed (issue 11) hold their
  signing secret as it is: it is sealed (chalicelib/auth/sealing.py) and the plaintext removed.
- Stock from before average costing (issue 12) is one item per product and warehouse: each product
  gets its stock position (its quantity per warehouse, valued at its reference cost, which is what
  the books took as its cost of sales until then). The inventory valuation then shows what the
  account differs by (a manual entry settles it); at dates before the upgrade it shows the right
  quantities, not values. The stock moves kept on confirmed purchases take the value their entry
  posted, so undoing one moves the stock as the entry's reversal moves the account.
- Accounts' monthly balances and the chart's accounts from before issue 14 sit in each account's
  partition, listed by GSI1: both move to partitions of the company, read strongly consistent.
  Documents' and journal entries' per-day counts become one item a day, and each year's lock is
  copied to its shards.
- Partners and products from before search (issue 15) get their index terms.
- Honduran numbers carry SAR's document code in their type place (issue 28): numbers already
  issued keep what they printed, and every counter (a CAI range, a type's sequence) goes on from
  its next number. Only 01 and 113, both SAR's Factura, now share a series: an active 113 range
  that overlaps a 01 range of its branch and emission point would print numbers the invoices
  already printed, so it is deactivated (its reservation invoices take the invoices' range).
- Salvadoran addresses from before the 2024 municipal division (issue 28): a partner's and a
  company's dteIssuer municipality with a pre-2024 CAT-013 code becomes its new municipio, the old
  code its district (countries/sv/domain/dte_catalogues.py, from the sourced CAT-013). A code that is neither is
  left as it is and logged: the catalogue check refuses its DTEs, naming the field.
- Honduran documents numbered without a CAI (issue 38): before every type SAR numbers needed an
  authorized range, a credit note, debit note, guía de remisión or withholding certificate could take
  a number of the type's bare sequence. A number printed is never taken back: the migration only
  REPORTS each (logged with its company, id, type and number, counted), for the accountant to annul
  and reissue under a CAI as SAR's rules say.
- Partners' tax ids from before their reservation (issue 38): each partner whose id its country's
  rule accepts gets the reservation its own writes now make (`UNIQUE#PARTNER_TAX_ID`), the partner
  of lowest id first, never over another's; a partner whose id another partner holds (a duplicate)
  and one whose id the rule refuses (stored before the check) are only REPORTED (logged, counted):
  which taxpayer they are is the accountant's to settle (one partner of type both, the id corrected).
- Gateway payments from before issue 39 name their payment link (from the gateway's decision); one
  already cancelled gives its amount back to the link, which asks for it again. Companies whose years
  were closed before the books' lock (issue 39) get it at their newest closed year's end
  (books_migrations.py holds both).
- Open-document items from before issue 42 get the company-wide index by side (GSI1) that bank
  statement suggestions read.
- Payment gateways of the invented formats gateway-a/gateway-b (before issue 43) are deactivated,
  their old provider kept in `legacyProvider` (gateway_migrations.py).
"""
from __future__ import annotations

from collections import Counter
from decimal import Decimal
from typing import Any, Callable

from chalicelib.domain import members
from chalicelib.domain.roles import OWNER
from chalicelib.services import search
from chalicelib.store import keys
from chalicelib.store.table import Table, from_attributes, to_attributes
from chalicelib.store.transaction import LostRace, Transaction
from infra.ops.books_migrations import books_locks_from_closed_years, gateway_payments_linked
from infra.ops.fiscal_migrations import (
    documents_numbered_without_cai,
    overlapping_ranges_of_one_sar_series,
    partner_tax_ids_duplicated,
    partner_tax_ids_refused,
    partner_tax_ids_reserved,
    sv_addresses_to_2024_division,
)
from infra.ops.gateway_migrations import gateways_of_invented_formats_retired
from infra.ops.table_io import scan_items, scan_types


def _set_missing(table: Table, item: dict[str, Any], fields: dict[str, Any]) -> None:
    """Sets only the fields the item lacks (a concurrent writer's value wins)."""
    for name, value in fields.items():
        table.client.update_item(
            TableName=table.name, Key=to_attributes({"PK": item["PK"], "SK": item["SK"]}),
            UpdateExpression="SET #n = if_not_exists(#n, :v)",
            ExpressionAttributeNames={"#n": name}, ExpressionAttributeValues=to_attributes({":v": value}))


def backfill_memberships(table: Table) -> int:
    """Returns how many items it changed."""
    items = scan_types(table, {"MEMBER", "COMPANY"})
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
    from chalicelib.services.integrations.gateway_config import SECRET_PURPOSE as GATEWAY
    from chalicelib.services.integrations.webhooks import SECRET_PURPOSE as WEBHOOK

    purposes = {keys.WEBHOOK: WEBHOOK, keys.PAYMENT_GATEWAY: GATEWAY}
    sealed = 0
    for item in scan_types(table, set(purposes)):
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
_ATTEMPTS = 5


def stock_positions_from_stock(table: Table) -> int:
    """Moves each product's legacy stock items into its position, valued at its reference cost,
    and deletes them in the same transaction (so it happens once); a position a command made
    meanwhile gets the legacy goods added. The position's last movement date is the product's
    latest movement, so a valuation at an earlier date takes the later ones away. Returns how
    many products it moved."""
    from decimal import Decimal

    from chalicelib.domain.accounting import round_money
    from chalicelib.domain.costing import unit_cost_of
    from chalicelib.store.transaction import Transaction

    legacy: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for item in scan_types(table, {LEGACY_STOCK}):
        legacy.setdefault((int(item["PK"].split("#")[1]), int(item["productId"])), []).append(item)
    moved = 0
    for (company_id, product_id), items in sorted(legacy.items()):
        cost = Decimal((table.get(keys.entity(company_id, keys.PRODUCT, product_id)) or {}).get("cost") or 0)
        latest, _ = table.query(partition=("PK", keys.product_movements_partition(company_id, product_id)), limit=1,
                                forward=False, consistent=True)
        for _attempt in range(_ATTEMPTS):
            stored = table.get(keys.stock_position(company_id, product_id))
            position = dict(stored or {**keys.stock_position(company_id, product_id), "itemType": "STOCK_POSITION",
                                       "productId": product_id, "quantity": Decimal(0), "value": Decimal("0.00"),
                                       "unitCost": cost, "warehouses": {}, "sequence": 0})
            warehouses = {name: Decimal(quantity) for name, quantity in position["warehouses"].items()}
            for item in items:
                name = str(int(item["warehouseId"]))
                warehouses[name] = warehouses.get(name, Decimal(0)) + Decimal(item.get("quantity", 0))
            added = sum((Decimal(item.get("quantity", 0)) for item in items), Decimal(0))
            quantity, value = Decimal(position["quantity"]) + added, Decimal(position["value"]) + round_money(added * cost)
            dates = [date for date in (position.get("lastMovementDate"), latest[0]["date"] if latest else None) if date]
            position.update(quantity=quantity, value=value, warehouses=warehouses, sequence=int(position["sequence"]) + 1,
                            unitCost=unit_cost_of(value, quantity) if quantity > 0 and value > 0 else position["unitCost"],
                            **({"lastMovementDate": max(dates)} if dates else {}))
            transaction = Transaction(table)
            if stored is None:
                transaction.put_new(position)
            else:
                transaction.put(position, condition="#s = :s", names={"#s": "sequence"},
                                values={":s": int(stored["sequence"])})
            for item in items:
                transaction.delete({"PK": item["PK"], "SK": item["SK"]}, condition="attribute_exists(PK)")
            try:
                transaction.commit()
            except LostRace:  # a command moved the product meanwhile: read it again
                continue
            moved += 1
            break
    return moved


def value_legacy_stock_moves(table: Table) -> int:
    """Documents confirmed before average costing keep on each stock move the reference cost
    times the quantity; purchases (103, 104) and purchase returns (105) posted their goods at the
    line's amount instead, so that is what undoing them must move: their moves take it. Every
    legacy move gets `revaluation` 0, which also marks it done. Returns how many documents it
    changed (conditioned on the document's version: one changed meanwhile is left as it is)."""
    from decimal import Decimal

    changed = 0
    for document in scan_types(table, {keys.DOCUMENT}):
        moves = document.get("stockMoves") or []
        if not moves or all("revaluation" in move for move in moves):
            continue
        lines = document.get("lines") or []
        valued = [{**move, "revaluation": Decimal(0),
                   **({"cost": Decimal(lines[int(move["line"])]["subtotal"])}
                      if document["type"] in ("103", "104", "105") and int(move["line"]) < len(lines) else {})}
                  for move in moves]
        try:
            table.client.update_item(TableName=table.name, Key=to_attributes({"PK": document["PK"], "SK": document["SK"]}),
                                     UpdateExpression="SET stockMoves = :moves", ConditionExpression="version = :v",
                                     ExpressionAttributeValues=to_attributes({":moves": valued,
                                                                              ":v": int(document["version"])}))
        except table.client.exceptions.ConditionalCheckFailedException:
            continue
        changed += 1
    return changed


def account_balances_to_company_partition(table: Table) -> int:
    """Accounts' monthly balances from before issue 14 sit in each account's partition
    ("BAL#{month}", listed by GSI1); the reports now read them from the company's balances
    partition, strongly consistent (keys.account_month_balance). Run with the service stopped: a
    posting between the copy and the delete would be lost."""
    return _move_items(table, "BALANCE", lambda item: "#ACCT#" in item["PK"] and item["SK"].startswith(
                           keys.LEGACY_ACCOUNT_BALANCE_PREFIX),
                       lambda company_id, item: keys.account_month_balance(company_id, int(item["accountId"]),
                                                                           item["month"]))


def chart_to_company_partition(table: Table) -> int:
    """Accounts from before issue 14 sit each in its own partition, listed by GSI1 (so every
    posting's `postingCount` rewrote an index entry); the chart is now one partition of the
    company (keys.chart_account). Each is copied there (unless a copy exists) and then deleted.
    Run with the service stopped, like the balances' move."""
    return _move_items(table, keys.CHART_ACCOUNT, lambda item: item["SK"] == keys.CHART_ACCOUNT,
                       lambda company_id, item: keys.chart_account(company_id, int(item["id"])))


def _move_items(table: Table, item_type: str, is_legacy: Callable[[dict[str, Any]], bool],
                new_key: Callable[[int, dict[str, Any]], keys.Key]) -> int:
    """Copies each legacy item of a type to its new key, out of the indexes (unless a copy
    exists: an earlier run stopped midway), then deletes it."""
    moved = 0
    for item in scan_types(table, {item_type}):
        if not is_legacy(item):
            continue
        company_id = int(item["PK"].split("#")[1])
        moved_item = {name: value for name, value in item.items() if not name.startswith("GSI")}
        moved_item.update(new_key(company_id, item))
        try:
            table.client.put_item(TableName=table.name, Item=to_attributes(moved_item),
                                  ConditionExpression="attribute_not_exists(PK)")
        except table.client.exceptions.ConditionalCheckFailedException:
            pass
        table.client.delete_item(TableName=table.name, Key=to_attributes({"PK": item["PK"], "SK": item["SK"]}))
        moved += 1
    return moved


def day_counts_to_one_partition(table: Table) -> int:
    """Per-day counts from before issue 14 sit in two partitions, documents' ("#DOCDAY", and
    "#DOCDAY#BP{id}" per partner, each with an "ALL" item for all days) and journal entries'
    ("#JEDAY"); they are now one item a day (keys.day_counts), lists without dates summing the
    days. Each legacy item's counts are added to its day's item and the legacy item deleted in one
    transaction, so a run stopped midway is completed by the next, never counted twice; the
    all-days items are deleted. Returns the legacy items removed."""
    removed = 0
    for partition_name in keys.LEGACY_DAY_COUNT_PARTITIONS:
        for raw in scan_items(table.client, table.name, FilterExpression="contains(PK, :p)",
                              ExpressionAttributeValues={":p": {"S": partition_name}}):
            item = from_attributes(raw)
            parts = item["PK"].split("#")  # C, company, DOCDAY|JEDAY[, BP{id}]
            if len(parts) not in (3, 4) or f"#{parts[2]}" != partition_name:
                continue
            transaction = Transaction(table)
            legacy_key = {"PK": item["PK"], "SK": item["SK"]}
            if item["SK"] != "ALL":
                partner_id = int(parts[3][2:]) if len(parts) == 4 else None
                transaction.add_counts(keys.day_counts(int(parts[1]), item["SK"], partner_id),
                                       {name: int(value) for name, value in item.items() if name not in ("PK", "SK")})
            transaction.delete(legacy_key, condition="attribute_exists(PK)")
            try:
                transaction.commit()
            except LostRace:  # moved by a run beside this one
                continue
            removed += 1
    return removed


def period_locks_to_shards(table: Table) -> int:
    """A year's lock from before issue 14 is one item; a dated write may now check any shard of it
    (keys.shards), so each lock's `closedDays` and `yearClosed` are written to every shard.
    Idempotent; run with the service stopped (a period closed between the read and the write
    would be missed on the shards). Returns the locks mirrored."""
    mirrored = 0
    for raw in scan_items(table.client, table.name, FilterExpression="contains(PK, :p)",
                          ExpressionAttributeValues={":p": {"S": "#PLOCK"}}):
        lock = from_attributes(raw)
        if "#" in lock["SK"] or not (lock.get("closedDays") or lock.get("yearClosed")):
            continue
        checked = {name: lock[name] for name in ("closedDays", "yearClosed") if lock.get(name)}
        for key in keys.shards({"PK": lock["PK"], "SK": lock["SK"]})[1:]:
            table.client.put_item(TableName=table.name, Item=to_attributes({**key, **checked}))
        mirrored += 1
    return mirrored


def search_index_of_records(table: Table) -> int:
    """Partners and products from before search (issue 15) have no index terms: each gets its
    terms (services/search.py; idempotent puts). Returns the records indexed."""
    from chalicelib.services.sales_purchases.partners import PARTNER
    from chalicelib.services.sales_purchases.products import PRODUCT

    indexed = 0
    for kind in (PARTNER, PRODUCT):
        for item in scan_types(table, {kind.kind}):
            if item["SK"] != kind.kind:
                continue
            company_id = int(item["PK"].split("#")[1])
            for term in search.record_terms(item, kind.search_fields):
                table.client.put_item(TableName=table.name, Item=to_attributes(
                    {**keys.search_term(company_id, kind.kind, term, int(item["id"])), "id": int(item["id"])}))
            indexed += 1
    return indexed


def search_index_of_document_numbers(table: Table) -> int:
    """Documents from before their search (issue 15): a numbered one gets its GSI3 keys, a
    purchase its supplier-number item (services/sales_purchases/document_search.py; idempotent). Returns the
    documents indexed."""
    from chalicelib.services.sales_purchases.document_search import supplier_number_items

    indexed = 0
    for item in scan_types(table, {keys.DOCUMENT}):
        company_id = int(item["PK"].split("#")[1])
        number_index = keys.document_number_index(company_id, item.get("number"), int(item["id"]))
        if number_index and "GSI3SK" not in item:
            _set_missing(table, item, number_index)
        supplier_items = supplier_number_items(company_id, item)
        for index_item in supplier_items.values():
            table.client.put_item(TableName=table.name, Item=to_attributes(index_item))
        indexed += bool(number_index or supplier_items)
    return indexed


def open_documents_indexed_per_company(table: Table) -> int:
    """Open-document items from before issue 42 are listed per partner only, and carry none of
    what a bank statement suggestion needs: each gets its place in the company-wide index by side
    (keys.open_document_index, GSI1), which suggestions read instead of scanning the company's
    documents, and what its document owes now with the fields that name it
    (document_partners.open_document_item). Only missing attributes are set, and the fields only
    while the item has no `pending` (a payment meanwhile rewrote it: its own wins); idempotent.
    Returns the items completed."""
    from chalicelib.services.sales_purchases.document_partners import open_document_item

    indexed = 0
    for item in scan_types(table, {"OPEN_DOCUMENT"}):
        if "GSI1PK" in item and "pending" in item:
            continue
        company_id, side = int(item["PK"].split("#")[1]), item["PK"].rsplit("#", 1)[1]
        index = keys.open_document_index(company_id, side, item["dueDate"], int(item["documentId"]))
        expression = "SET GSI1PK = if_not_exists(GSI1PK, :p), GSI1SK = if_not_exists(GSI1SK, :s)"
        condition, names = "attribute_exists(PK)", {}
        values: dict[str, Any] = {":p": index["GSI1PK"], ":s": index["GSI1SK"]}
        document = table.get(keys.document(company_id, int(item["documentId"])), consistent=True)
        if "pending" not in item and document is not None and Decimal(document.get("pending", 0)) > 0:
            fields = {name: value for name, value in open_document_item(company_id, document).items()
                      if name not in item and name not in ("PK", "SK", "GSI1PK", "GSI1SK")}
            for position, (name, value) in enumerate(fields.items()):
                names[f"#f{position}"], values[f":f{position}"] = name, value
                expression += f", #f{position} = :f{position}"
            condition += " AND attribute_not_exists(pending)"
        elif "GSI1PK" in item:
            continue
        try:  # a document paid off meanwhile took its item away: nothing to index (never recreated)
            table.client.update_item(
                TableName=table.name, Key=to_attributes({"PK": item["PK"], "SK": item["SK"]}),
                UpdateExpression=expression, ConditionExpression=condition,
                **({"ExpressionAttributeNames": names} if names else {}),
                ExpressionAttributeValues=to_attributes(values))
        except table.client.exceptions.ConditionalCheckFailedException:
            continue
        indexed += 1
    return indexed


MIGRATIONS: tuple[tuple[str, Callable[[Table], int]], ...] = (
    ("membershipItemsUpdated", backfill_memberships),
    ("secretsSealed", seal_plain_secrets),
    ("stockPositionsCreated", stock_positions_from_stock),
    ("stockMovesValued", value_legacy_stock_moves),
    ("accountBalancesMoved", account_balances_to_company_partition),
    ("chartAccountsMoved", chart_to_company_partition),
    ("dayCountsMerged", day_counts_to_one_partition),
    ("periodLocksMirrored", period_locks_to_shards),
    ("recordsIndexedForSearch", search_index_of_records),
    ("documentNumbersIndexed", search_index_of_document_numbers),
    ("caiRangesOfOneSarSeriesDeactivated", overlapping_ranges_of_one_sar_series),
    ("addressesMovedTo2024Division", sv_addresses_to_2024_division),
    ("documentsNumberedWithoutCaiReported", documents_numbered_without_cai),
    ("partnerTaxIdsReserved", partner_tax_ids_reserved),
    ("partnerTaxIdsDuplicatedReported", partner_tax_ids_duplicated),
    ("partnerTaxIdsRefusedReported", partner_tax_ids_refused),
    ("gatewayPaymentsLinked", gateway_payments_linked),
    # issue 39: years
    ("booksLocksFromClosedYears", books_locks_from_closed_years),
    # issue 42: suggest
    ("openDocumentsIndexedPerCompany", open_documents_indexed_per_company),
    # issue 43: core
    ("gatewaysOfInventedFormatsRetired", gateways_of_invented_formats_retired),
)
