"""Cost per operation: the DynamoDB capacity units each write route consumes, as deployed (the
REQUEST authorizer's reads and the API Lambda's calls, rate limit on), computed from the sizes of the
items each call reads and writes, as on-demand billing counts them; then what 1,000 one-line and
1,000 20-line invoices cost in all (docs/operations.md, "Cost per operation").

Every DynamoDB call of the watched client is seen through botocore's events: before it leaves, the
items it will write are read as they are (a second client, not watched); after it, as they became.
Nothing is hard-coded about what a route writes: a route that writes one item more shows one more.

The rules (AWS documentation; docs/operations.md cites the pages):
- item size: the UTF-8 bytes of every attribute name plus its value: a string its UTF-8 bytes, a
  number 1 byte per two significant digits plus 1, binary its raw bytes, a boolean or null 1, a list
  or map 3 plus, per element, 1 plus the element (a map's element with its key's bytes); sets the
  sum of their members.
- writes: 1 WRU per 1 KB (rounded up, at least 1) of the item; PutItem and UpdateItem on the larger
  of the item before and after, DeleteItem on the item deleted. In TransactWriteItems every item is
  2 WRU per KB, ConditionCheck items included (on the item checked).
- a global secondary index: a write of the table that puts an item carrying the index's keys into
  it, changes an indexed item (a projected attribute) or takes one out costs 1 WRU per KB of the
  projected item; a change of the index keys costs a delete of the old entry and a put of the new.
  Index writes are counted once, not doubled inside a transaction (the transaction pages double
  the table's writes and say nothing of the indexes').
- reads: GetItem and each key of BatchGetItem 1 RRU per 4 KB (each item rounded up on its own, a
  missing item still 1), half for an eventually consistent read; Query and Scan the sizes of every
  item the key condition read (before any filter), summed and rounded up to 4 KB once per call, half
  when eventually consistent (always on a GSI); TransactGetItems 2 RRU per 4 KB per item.
moto answers ReturnConsumedCapacity with fixed placeholders (1.0 or 0.5 per call, nothing for a
transaction), so it cannot check these figures; they are computed here only."""
from __future__ import annotations

import base64
import json
import math
import re
import time
from decimal import Decimal
from typing import Any, Callable

WRITE_BLOCK = 1024  # bytes of one write request unit
READ_BLOCK = 4096  # bytes of one read request unit
TRANSACTION_FACTOR = 2

# --- us-east-1 list prices (USD), recorded 2026-11-26; sources in docs/operations.md --------------------
PRICES = {
    "dynamodbWriteRequestUnit": 0.625 / 1e6,  # on-demand, since the 2024-11-01 reduction
    "dynamodbReadRequestUnit": 0.125 / 1e6,
    "lambdaRequest": 0.20 / 1e6,
    "lambdaGbSecond": 0.0000166667,  # x86_64 (chalice's default architecture), first 6 billion GB-s
    "apiGatewayRestRequest": 3.50 / 1e6,  # REST API, first 333 million a month
    "sqsRequest": 0.40 / 1e6,  # standard queue, after the first million a month; 64 KB chunks
}
LAMBDA_MEMORY_MB = 512  # .chalice/config.json, lambda_memory_size (every function of the stage)
GOAL_USD_PER_1000_ONE_LINE_INVOICES = 0.05
# A stated allowance, not a measurement: the in-process time has no network; each DynamoDB round
# trip of a deployed function adds about this much billed time (in-region, single-digit ms, more
# for a transaction of many items).
ROUND_TRIP_MS = 10
# The webhook deliverer waits for the subscriber's answer: its billed time is mostly that wait.
RECEIVER_MS = 250


# --- the unit arithmetic ------------------------------------------------------------------------------

def number_size(text: str) -> int:
    """1 byte per two significant digits (leading and trailing zeros trimmed), plus 1."""
    digits = "".join(str(d) for d in Decimal(text).as_tuple().digits).strip("0")
    return (len(digits) + 1) // 2 + 1


def value_size(value: dict[str, Any]) -> int:
    """The size of one attribute value in DynamoDB's JSON form ({"S": ...}, {"N": ...}, ...)."""
    (kind, data), = value.items()
    if kind == "S":
        return len(data.encode())
    if kind == "N":
        return number_size(data)
    if kind == "B":
        return len(data)
    if kind in ("BOOL", "NULL"):
        return 1
    if kind == "SS":
        return sum(len(member.encode()) for member in data)
    if kind == "NS":
        return sum(number_size(member) for member in data)
    if kind == "BS":
        return sum(len(member) for member in data)
    if kind == "L":
        return 3 + sum(1 + value_size(element) for element in data)
    if kind == "M":
        return 3 + sum(1 + len(name.encode()) + value_size(element) for name, element in data.items())
    raise ValueError(f"unknown attribute type {kind}")


def item_size(item: dict[str, Any] | None) -> int:
    """Attribute names' UTF-8 bytes plus their values' sizes; 0 for no item."""
    return sum(len(name.encode()) + value_size(value) for name, value in (item or {}).items())


def write_units(size: int, *, transactional: bool = False) -> int:
    """WRU of writing (or deleting, or checking in a transaction) an item of `size` bytes."""
    return max(1, math.ceil(size / WRITE_BLOCK)) * (TRANSACTION_FACTOR if transactional else 1)


def read_units(size: int, *, consistent: bool, transactional: bool = False) -> float:
    """RRU of one read of `size` bytes (an item, or a Query's sum): 4 KB blocks, at least one."""
    blocks = max(1, math.ceil(size / READ_BLOCK))
    if transactional:
        return float(blocks * TRANSACTION_FACTOR)
    return float(blocks) if consistent else blocks / 2


def projected(item: dict[str, Any], index: dict[str, Any], table_keys: tuple[str, ...]) -> dict[str, Any]:
    """The index's copy of an item: all of it (ALL), or the keys and the included attributes."""
    projection = index.get("Projection", {"ProjectionType": "ALL"})
    if projection.get("ProjectionType", "ALL") == "ALL":
        return item
    kept = set(table_keys) | {key["AttributeName"] for key in index["KeySchema"]}
    if projection["ProjectionType"] == "INCLUDE":
        kept |= set(projection.get("NonKeyAttributes", []))
    return {name: value for name, value in item.items() if name in kept}


def index_writes(before: dict[str, Any] | None, after: dict[str, Any] | None, index: dict[str, Any],
                 table_keys: tuple[str, ...] = ("PK", "SK")) -> list[tuple[str, int]]:
    """What a table write does to one GSI: [] or [("put"|"update"|"delete", WRU), ...]."""
    key_names = [key["AttributeName"] for key in index["KeySchema"]]

    def entry(item: dict[str, Any] | None) -> dict[str, Any] | None:
        return projected(item, index, table_keys) if item and all(name in item for name in key_names) else None

    old, new = entry(before), entry(after)
    if old is None and new is None:
        return []
    if old is None:
        return [("put", write_units(item_size(new)))]
    if new is None:
        return [("delete", write_units(item_size(old)))]
    if any(old[name] != new[name] for name in key_names):
        return [("delete", write_units(item_size(old))), ("put", write_units(item_size(new)))]
    if old == new:
        return []
    return [("update", write_units(max(item_size(old), item_size(new))))]


# --- watching a client --------------------------------------------------------------------------------

_PLACEHOLDERS = re.compile(r"[#:][A-Za-z0-9_]+")
_DIGITS = re.compile(r"\d+")


class CapacityMeter:
    """Capacity units of every DynamoDB call a client makes, by call; `take()` hands over those
    since the last take. `peek` is a client of the same table that nothing watches."""

    def __init__(self, client: Any, peek: Any) -> None:
        self.peek = peek
        self.enabled = True  # off: calls go by unseen (timed runs, without the peeks' cost)
        self.calls: list[dict[str, Any]] = []
        self._schemas: dict[str, tuple[tuple[str, ...], list[dict[str, Any]]]] = {}
        client.meta.events.register("provide-client-params.dynamodb", self._before)
        client.meta.events.register("after-call.dynamodb", self._after)

    def take(self) -> list[dict[str, Any]]:
        taken, self.calls = self.calls, []
        return taken

    # the table's keys and indexes, as the table was created
    def _schema(self, table: str) -> tuple[tuple[str, ...], list[dict[str, Any]]]:
        if table not in self._schemas:
            described = self.peek.describe_table(TableName=table)["Table"]
            self._schemas[table] = (tuple(key["AttributeName"] for key in described["KeySchema"]),
                                    described.get("GlobalSecondaryIndexes", []))
        return self._schemas[table]

    def _item(self, table: str, key: dict[str, Any]) -> dict[str, Any] | None:
        return self.peek.get_item(TableName=table, Key=key, ConsistentRead=True).get("Item")

    def _key(self, table: str, item: dict[str, Any]) -> dict[str, Any]:
        return {name: item[name] for name in self._schema(table)[0]}

    def _writes(self, operation: str, params: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
        """(kind, table, key) of every item the call writes or checks."""
        if operation == "TransactWriteItems":
            writes = []
            for action in params.get("TransactItems", []):
                (kind, request), = action.items()
                key = self._key(request["TableName"], request["Item"]) if kind == "Put" else request["Key"]
                writes.append((kind, request["TableName"], key))
            return writes
        if operation == "PutItem":
            return [("Put", params["TableName"], self._key(params["TableName"], params["Item"]))]
        if operation in ("UpdateItem", "DeleteItem"):
            return [(operation[:-4], params["TableName"], params["Key"])]
        if operation == "BatchWriteItem":
            return [("Put", table, self._key(table, request["PutRequest"]["Item"])) if "PutRequest" in request
                    else ("Delete", table, request["DeleteRequest"]["Key"])
                    for table, requests in params.get("RequestItems", {}).items() for request in requests]
        return []

    def _before(self, params: dict[str, Any], model: Any, context: dict[str, Any], **_: Any) -> None:
        if not self.enabled:
            return
        writes = self._writes(model.name, params)
        context["capacity"] = (dict(params), [(kind, table, key, self._item(table, key))
                                              for kind, table, key in writes])

    def _after(self, parsed: dict[str, Any], model: Any, context: dict[str, Any], **_: Any) -> None:
        if "capacity" not in context:
            return
        params, writes = context.pop("capacity")
        operation = model.name
        call: dict[str, Any] = {"operation": operation, "readUnits": 0.0, "tableWriteUnits": 0,
                                "indexWriteUnits": 0, "itemsWritten": 0, "itemsChecked": 0, "byPartition": {}}
        if "Error" in parsed:
            call["failed"] = parsed["Error"].get("Code")
        if writes and "Error" not in parsed:
            self._count_writes(call, operation == "TransactWriteItems", writes)
        elif operation == "GetItem":
            call["readUnits"] = read_units(item_size(self._item(params["TableName"], params["Key"])),
                                           consistent=bool(params.get("ConsistentRead")))
        elif operation == "BatchGetItem":
            call["readUnits"] = self._batch_get(params, parsed)
        elif operation == "TransactGetItems":
            call["readUnits"] = sum(
                read_units(item_size(self._item(get["Get"]["TableName"], get["Get"]["Key"])), consistent=True,
                           transactional=True) for get in params.get("TransactItems", []))
        elif operation in ("Query", "Scan"):
            call["readUnits"] = self._query(operation, params)
        self.calls.append(call)

    def _count_writes(self, call: dict[str, Any], transactional: bool,
                      writes: list[tuple[str, str, dict[str, Any], dict[str, Any] | None]]) -> None:
        for kind, table, key, before in writes:
            after = before if kind == "ConditionCheck" else self._item(table, key)
            units = write_units(max(item_size(before), item_size(after)), transactional=transactional)
            call["tableWriteUnits"] += units
            if kind == "ConditionCheck":
                call["itemsChecked"] += 1
            else:
                call["itemsWritten"] += 1
                table_keys, indexes = self._schema(table)
                index_units = sum(written for index in indexes
                                  for _, written in index_writes(before, after, index, table_keys))
                call["indexWriteUnits"] += index_units
                units += index_units
            # by the item's partition, ids as n: which kinds of item the units go to
            partition = _DIGITS.sub("n", str(next(iter(key[self._schema(table)[0][0]].values()))))
            items, total = call["byPartition"].get(partition, (0, 0))
            call["byPartition"][partition] = (items + 1, total + units)

    def _batch_get(self, params: dict[str, Any], parsed: dict[str, Any]) -> float:
        units = 0.0
        for table, request in params.get("RequestItems", {}).items():
            unprocessed = parsed.get("UnprocessedKeys", {}).get(table, {}).get("Keys", [])
            for key in request["Keys"]:
                if key not in unprocessed:
                    units += read_units(item_size(self._item(table, key)),
                                        consistent=bool(request.get("ConsistentRead")))
        return units

    def _query(self, operation: str, params: dict[str, Any]) -> float:
        """The same Query (or Scan) again without its filter and projection: what it read."""
        kept = ("TableName", "IndexName", "KeyConditionExpression", "ExclusiveStartKey", "Limit",
                "ScanIndexForward", "ConsistentRead", "Segment", "TotalSegments")
        again = {name: params[name] for name in kept if name in params}
        used = set(_PLACEHOLDERS.findall(params.get("KeyConditionExpression", "")))
        for field in ("ExpressionAttributeNames", "ExpressionAttributeValues"):
            chosen = {name: value for name, value in params.get(field, {}).items() if name in used}
            if chosen:
                again[field] = chosen
        read = getattr(self.peek, "query" if operation == "Query" else "scan")(**again)
        return read_units(sum(item_size(item) for item in read.get("Items", [])),
                          consistent=bool(params.get("ConsistentRead")) and "IndexName" not in params)


def summed(calls: list[dict[str, Any]]) -> dict[str, Any]:
    """One request's (or one function run's) calls added up."""
    by_operation: dict[str, int] = {}
    for call in calls:
        by_operation[call["operation"]] = by_operation.get(call["operation"], 0) + 1
    table_writes = sum(call["tableWriteUnits"] for call in calls)
    index_writes_ = sum(call["indexWriteUnits"] for call in calls)
    total = {"writeUnits": table_writes + index_writes_, "readUnits": sum(call["readUnits"] for call in calls),
             "itemsWritten": sum(call["itemsWritten"] for call in calls), "calls": by_operation,
             "tableWriteUnits": table_writes, "indexWriteUnits": index_writes_,
             "itemsChecked": sum(call["itemsChecked"] for call in calls)}
    partitions: dict[str, list[int]] = {}
    for call in calls:
        for partition, (items, units) in call.get("byPartition", {}).items():
            partitions.setdefault(partition, [0, 0])
            partitions[partition][0] += items
            partitions[partition][1] += units
    total["writesByPartition"] = {partition: {"items": items, "writeUnits": units} for partition, (items, units)
                                  in sorted(partitions.items(), key=lambda entry: -entry[1][1])}
    failed = [call["failed"] for call in calls if "failed" in call]
    if failed:
        total["failedCalls"] = failed
    return total


class SqsMeter:
    """SQS requests as billed: each call one request per 64 KB (or part) of its message bodies."""

    def __init__(self, client: Any) -> None:
        self.requests = 0
        self.calls: dict[str, int] = {}
        client.meta.events.register("provide-client-params.sqs", self._count)

    def _count(self, params: dict[str, Any], model: Any, **_: Any) -> None:
        bodies = [params.get("MessageBody", "")] + [entry.get("MessageBody", "") for entry in params.get("Entries", [])]
        self.requests += max(1, math.ceil(sum(len(body.encode()) for body in bodies) / 65536))
        self.calls[model.name] = self.calls.get(model.name, 0) + 1

    def take(self) -> dict[str, Any]:
        taken = {"requests": self.requests, "calls": self.calls}
        self.requests, self.calls = 0, {}
        return taken


# --- the bench ----------------------------------------------------------------------------------------

RECORD_FIELDS = ("writeUnits", "readUnits", "itemsWritten", "calls", "tableWriteUnits", "indexWriteUnits",
                 "itemsChecked", "authorizer", "writesByPartition")


def _median_record(samples: list[dict[str, Any]]) -> dict[str, Any]:
    """The sample of median units; `varies` when the samples differ in units or items."""
    ordered = sorted(samples, key=lambda s: (s["writeUnits"], s["readUnits"]))
    chosen = {name: ordered[len(ordered) // 2][name] for name in RECORD_FIELDS if name in ordered[0]}
    if len({(s["writeUnits"], s["readUnits"], s["itemsWritten"]) for s in samples}) > 1:
        chosen["varies"] = {name: [min(s[name] for s in samples), max(s[name] for s in samples)]
                            for name in ("writeUnits", "readUnits", "itemsWritten")}
    return chosen


class _DeployedRequests:
    """Requests as the deployed stack serves them: the REQUEST authorizer (its DynamoDB reads
    metered apart), then the API Lambda with the authorizer's context (AUTH_AT_GATEWAY=1)."""

    def __init__(self, app: Any, authorizer: Any, meter: CapacityMeter, api_key: str) -> None:
        from infra.devstack.gateway import LocalApiGateway

        self.authorizer, self.meter, self.api_key = authorizer, meter, api_key
        self.gateway = LocalApiGateway(app)
        self.local = self.gateway._gateway
        self.original = self.local._generate_lambda_event

    def __call__(self, method: str, path: str, body: Any) -> dict[str, Any]:
        headers = {"authorization": f"Bearer {self.api_key}"}
        self.meter.take()
        started = time.perf_counter()
        policy = self.authorizer({"type": "REQUEST", "methodArn": "arn", "headers": headers}, None)
        authorizer_ms = (time.perf_counter() - started) * 1000
        authorizer_calls = summed(self.meter.take())
        context = {name: str(value) for name, value in policy["context"].items()}

        def with_context(*args: Any, **kwargs: Any) -> dict[str, Any]:
            event = self.original(*args, **kwargs)
            event["requestContext"]["authorizer"] = context
            return event

        self.local._generate_lambda_event = with_context
        try:
            started = time.perf_counter()
            response = self.gateway.handle(method, path, {**headers, "content-type": "application/json"},
                                           json.dumps(body).encode())
            api_ms = (time.perf_counter() - started) * 1000
        finally:
            self.local._generate_lambda_event = self.original
        api_calls = summed(self.meter.take())
        assert response["statusCode"] in (200, 201), (method, path, response)
        return {**api_calls, "body": json.loads(response["body"]),
                "writeUnits": api_calls["writeUnits"] + authorizer_calls["writeUnits"],
                "readUnits": api_calls["readUnits"] + authorizer_calls["readUnits"],
                "authorizer": {"readUnits": authorizer_calls["readUnits"], "calls": authorizer_calls["calls"]},
                "ms": {"api": api_ms, "authorizer": authorizer_ms}}


def capacity_per_route(samples: int = 3) -> dict[str, Any]:
    """Each write route: a warm-up request, `samples` metered ones (the record: the median's
    units), then `samples` unmetered ones timed (the fastest one's in-process ms, authorizer and
    API Lambda). Then the webhook path of one invoice, and the cost of 1,000 invoices."""
    from infra.bench.common import bench_company, bench_environment

    bench_environment(auth_at_gateway=False)  # the set-up goes through the in-app authentication
    import os

    import boto3
    from moto import mock_aws

    with mock_aws():
        from app import app, authorizer
        from chalicelib.events import queue as queue_module
        from chalicelib.services.integrations import webhooks
        from chalicelib.settings import reset_settings
        from infra.deploy.resources import create_queues
        from tests.documents_support import Shop
        from tests.support import ORIGIN, ApiClient

        urls = create_queues(boto3.client("sqs"), "bench")
        # no EMF metric lines on stdout (log lines, not DynamoDB calls); a webhook secret is sealed
        # with a local master key (the stack's KMS key when deployed)
        os.environ.update({"WEBHOOK_QUEUE_URL": urls["WebhookDeliveriesQueue"], "METRICS_ENABLED": "0",
                           "LOCAL_SECRETS_KEY": base64.b64encode(b"bench-only-secrets-key-32-bytes!").decode()})
        reset_settings()
        queue_module.reset_queue()
        table, company = bench_company("Costos S.A.", "costos@example.com")
        api = ApiClient(app)
        shop = Shop(api, company, range_size=1_000_000, inventory=True)
        products = [shop.product] + [
            shop.created("/products", {"code": f"P-{n}", "name": f"Producto {n}", "unitPrice": 100, "cost": 60,
                                       "taxRate": 0.15})["id"] for n in range(2, 21)]
        shop.document("103", [(product, 1_000_000, 60) for product in products])  # stock to sell
        bank = shop.created("/bank-accounts", {"name": "Cuenta corriente", "openingBalance": 1000,
                                               "openingBalanceDate": "2026-11-01",
                                               "chartOfAccountId": shop.books["110103"]})
        cash = shop.created("/payments/methods", {"name": "Efectivo", "isCashMethod": True})["id"]
        big_invoice = shop.document("01", [(shop.service, 1000, 100)])  # never paid off by the samples
        goods_invoice = shop.document("01", [(shop.product, 1000, 100)])  # what the credit notes take back
        # the company has a webhook subscription (web session only), to document.confirmed
        resolve = webhooks.resolve_host
        webhooks.resolve_host = lambda host, port, **_: [(2, 1, 6, "", ("93.184.216.34", port))]
        try:
            subscribed = api.request("POST", "/settings/webhooks", cookie=api.login(company.email), origin=ORIGIN,
                                     body={"name": "ERP", "url": "https://hooks.example.com/receiver",
                                           "events": ["document.confirmed"]})
        finally:
            webhooks.resolve_host = resolve
        assert subscribed.status == 201, subscribed.text
        # what the requests act on, made beforehand: drafts to confirm, credit notes to cancel
        runs = 1 + 2 * samples
        drafts = [shop.document("01", [(shop.product, 1, 100)], status="draft")["id"] for _ in range(runs)]
        notes = [shop.document("06", [(shop.product, 1, 100)], sourceDocumentId=goods_invoice["id"])["id"]
                 for _ in range(runs)]

        # as deployed: the authorizer decides, the API Lambda trusts its context; the rate limit on
        os.environ.update({"AUTH_AT_GATEWAY": "1", "RATE_LIMIT_ENABLED": "1"})
        reset_settings()
        meter = CapacityMeter(table.client, boto3.client("dynamodb"))
        request = _DeployedRequests(app, authorizer, meter, company.api_key)

        def invoice(count: int) -> Callable[[int], tuple[str, str, Any]]:
            return lambda _: ("POST", "/documents", {
                "type": "01", "businessPartnerId": shop.customer, "date": "2026-11-02",
                "lines": [{"productId": product, "quantity": 1, "unitPrice": 100} for product in products[:count]]})

        routes: list[tuple[str, Callable[[int], tuple[str, str, Any]]]] = [
            ("POST /documents: sales invoice (01), 1 stocked line", invoice(1)),
            ("POST /documents: sales invoice (01), 20 stocked lines", invoice(20)),
            ("POST /documents: purchase invoice (103), 1 stocked line", lambda _: ("POST", "/documents", {
                "type": "103", "businessPartnerId": shop.supplier, "date": "2026-11-02",
                "lines": [{"productId": shop.product, "quantity": 1, "unitPrice": 60}]})),
            ("POST /payments/documents/{id}/payments: cash, partial", lambda _: (
                "POST", f"/payments/documents/{big_invoice['id']}/payments",
                {"paymentMethodId": cash, "amount": 1.00, "paymentDate": "2026-11-10", "reference": "BENCH"})),
            ("POST /journal-entries: posted, 2 lines", lambda _: ("POST", "/journal-entries", {
                "date": "2026-11-05", "status": "posted",
                "lines": [{"chartOfAccountId": shop.books["110101"], "debit": 10},
                          {"chartOfAccountId": shop.books["6199"], "credit": 10}]})),
            ("POST /documents/{id}/confirm: a 1-line sales invoice draft", lambda n: (
                "POST", f"/documents/{drafts[n]}/confirm", {})),
            ("POST /documents/{id}/cancel: a confirmed 1-line sales credit note (06)", lambda n: (
                "POST", f"/documents/{notes[n]}/cancel", {"reason": "bench"})),
            ("POST /bank-accounts/{id}/transactions: a deposit", lambda _: (
                "POST", f"/bank-accounts/{bank['id']}/transactions",
                {"type": "deposit", "amount": 5, "transactionDate": "2026-11-05", "reference": "DEP",
                 "chartOfAccountId": shop.books["3401"]})),
            ("POST /inventory/adjustments: 1 line, +1 unit", lambda _: ("POST", "/inventory/adjustments", {
                "warehouseId": 1, "date": "2026-11-05", "reason": "other",
                "lines": [{"productId": shop.product, "quantity": 1}]})),
            ("POST /business-partners: a customer", lambda n: ("POST", "/business-partners", {
                "name": f"Cliente bench {n}", "type": "customer"})),
        ]
        records: list[dict[str, Any]] = []
        for route, make in routes:
            request(*make(0))  # warm-up: the first of the day's counters, lazily imported modules
            metered = [request(*make(n)) for n in range(1, 1 + samples)]
            meter.enabled = False
            timed = [request(*make(n)) for n in range(1 + samples, runs)]
            meter.enabled = True
            record = _median_record(metered)
            records.append({"route": route, **record,
                            "dynamodbUsdPer1000": round(1000 * dynamodb_cost(record["writeUnits"], record["readUnits"]), 5),
                            # the fastest timed request: a busy machine only adds to the others
                            "inProcessMs": {part: round(min(t["ms"][part] for t in timed), 1)
                                            for part in ("api", "authorizer")}})
        webhook = _webhook_path(table, request, invoice(1)(0), company.company_id, meter)
        return {"routes": records, "webhook": webhook, "cost": cost_of_invoices(records[0], records[1], webhook)}


def _webhook_path(table: Any, request: _DeployedRequests, invoice: tuple[str, str, Any], company_id: int,
                  meter: CapacityMeter) -> dict[str, Any]:
    """One invoice's events fanned out (the stream hands the fan-out both in one batch), then
    each delivery attempted once, the subscriber answering 204 after RECEIVER_MS: once unmetered
    for the time, once metered for the units and the SQS requests."""
    from chalicelib.events.queue import get_queue
    from chalicelib.services.integrations import webhook_http, webhooks

    queue = get_queue()
    sqs = SqsMeter(queue.client)
    answer = webhook_http.DeliveryResult(status=204, duration_ms=RECEIVER_MS, error=None, response_excerpt="")

    def one_pass() -> dict[str, Any]:
        created = request(*invoice)["body"]
        outbox, _ = table.query(partition=("PK", f"C#{company_id}#EVT"), consistent=True, forward=False, limit=10)
        events = [event for event in outbox if event["payload"]["resourceId"] == created["id"]]
        meter.take()
        sqs.take()
        started = time.perf_counter()
        deliveries = webhooks.fan_out(table, queue, events)
        fanout = {**summed(meter.take()), "sqs": sqs.take(), "ms": (time.perf_counter() - started) * 1000,
                  "events": len(events), "deliveries": deliveries}
        received = queue.client.receive_message(QueueUrl=queue.url, MaxNumberOfMessages=10)["Messages"]
        sqs.take()  # the deliverer's poller receives and deletes each message: 2 requests a delivery, below
        started = time.perf_counter()
        for message in received:
            assert webhooks.deliver(table, queue, json.loads(message["Body"]), receive_count=1,
                                    receipt_handle=message["ReceiptHandle"], send=lambda *_, **__: answer)
        count = max(1, len(received))
        delivery = {**summed(meter.take()), "deliveries": len(received),
                    "ms": (time.perf_counter() - started) * 1000 / count, "sentMore": sqs.take()}
        return {"fanout": fanout, "delivery": delivery}

    meter.enabled = False
    timed = one_pass()
    meter.enabled = True
    metered = one_pass()
    fanout, delivery = metered["fanout"], metered["delivery"]
    count = max(1, delivery["deliveries"])
    fanout["inProcessMs"] = round(timed["fanout"].pop("ms"), 1)
    delivery["inProcessMs"] = round(timed["delivery"].pop("ms"), 1)
    fanout.pop("ms")
    delivery.pop("ms")
    sent_more = delivery.pop("sentMore")
    delivery["perDelivery"] = {"writeUnits": delivery["writeUnits"] / count, "readUnits": delivery["readUnits"] / count,
                               "sqsRequests": 2 + sent_more["requests"] / count}
    return {"fanout": fanout, "delivery": delivery}


def print_report(samples: int = 3) -> None:
    """`python -m infra.bench --only capacity`: one JSON line per route, then the webhook path and
    the cost of 1,000 invoices."""
    print("\nCost per operation: DynamoDB capacity units of each write route as deployed (authorizer + API "
          "Lambda), the webhook path of one invoice, the cost of 1,000 invoices")
    measured = capacity_per_route(samples)
    for record in measured["routes"]:
        print(json.dumps(record))
    print(json.dumps({"webhookPathOfOneInvoice": measured["webhook"]}, indent=2))
    print(json.dumps({"costOf1000Invoices": measured["cost"]}, indent=2))


# --- money ---------------------------------------------------------------------------------------------

def lambda_cost(invocations: float, milliseconds: float) -> float:
    gb_seconds = invocations * milliseconds / 1000 * LAMBDA_MEMORY_MB / 1024
    return invocations * PRICES["lambdaRequest"] + gb_seconds * PRICES["lambdaGbSecond"]


def billed_ms(in_process_ms: float, calls: dict[str, int]) -> float:
    """The stated model of a deployed function's billed time: the measured in-process time (the
    app's work and the embedded moto's) plus ROUND_TRIP_MS per DynamoDB call."""
    return in_process_ms + ROUND_TRIP_MS * sum(calls.values())


def dynamodb_cost(write_units: float, read_units: float) -> float:
    return write_units * PRICES["dynamodbWriteRequestUnit"] + read_units * PRICES["dynamodbReadRequestUnit"]


def cost_of_invoices(one_line: dict[str, Any], twenty_lines: dict[str, Any], webhook: dict[str, Any],
                     count: int = 1000) -> dict[str, Any]:
    """USD of `count` invoices of each kind, by component, as deployed: API Gateway, the
    authorizer (no cached decisions: ttl 0), the API Lambda, DynamoDB; the stream fan-out, which
    runs for every invoice's events whether or not the company subscribed (its Lambda and its
    subscription lookup); and the deliveries of a company with one subscription to
    document.confirmed (one per invoice: the fan-out's delivery record and its SQS message, the
    deliverer's Lambda, reads and attempt record, the poller's receive and delete). Stream reads by
    Lambda triggers are free. `noSubscriptionUsd` leaves the deliveries out."""
    fanout, delivery = webhook["fanout"], webhook["delivery"]
    per_delivery = max(1, delivery["deliveries"])
    deliveries = fanout["deliveries"]  # per invoice
    fanout_ms = billed_ms(fanout["inProcessMs"], fanout["calls"])
    deliver_ms = RECEIVER_MS + billed_ms(delivery["inProcessMs"], {
        operation: n / per_delivery for operation, n in delivery["calls"].items()})
    delivery_parts = {
        "deliveryLambda": lambda_cost(count * deliveries, deliver_ms),
        "deliveryDynamodb": count * (dynamodb_cost(fanout["writeUnits"], 0) + deliveries * dynamodb_cost(
            delivery["perDelivery"]["writeUnits"], delivery["perDelivery"]["readUnits"])),
        "deliverySqs": count * (fanout["sqs"]["requests"] + deliveries * delivery["perDelivery"]["sqsRequests"])
        * PRICES["sqsRequest"],
    }
    result: dict[str, Any] = {}
    for name, record in (("oneLineInvoices", one_line), ("twentyLineInvoices", twenty_lines)):
        api_ms = billed_ms(record["inProcessMs"]["api"], record["calls"])
        authorizer_ms = billed_ms(record["inProcessMs"]["authorizer"], record["authorizer"]["calls"])
        parts = {
            "apiGateway": count * PRICES["apiGatewayRestRequest"],
            "authorizerLambda": lambda_cost(count, authorizer_ms),
            "apiLambda": lambda_cost(count, api_ms),
            "dynamodbWrites": count * record["writeUnits"] * PRICES["dynamodbWriteRequestUnit"],
            "dynamodbReads": count * record["readUnits"] * PRICES["dynamodbReadRequestUnit"],
            "fanoutLambda": lambda_cost(count, fanout_ms),
            "fanoutDynamodbReads": count * dynamodb_cost(0, fanout["readUnits"]),
            "dynamodbStreamReads": 0.0,
            **delivery_parts,
        }
        total = sum(parts.values())
        result[name] = {"count": count, "usd": round(total, 5), "usdPerInvoice": round(total / count, 8),
                        "noSubscriptionUsd": round(total - sum(delivery_parts.values()), 5),
                        "byComponent": {part: round(usd, 5) for part, usd in parts.items()},
                        "dominant": max(parts, key=lambda part: parts[part]),
                        "billedMsAssumed": {"api": round(api_ms, 1), "authorizer": round(authorizer_ms, 1),
                                            "fanout": round(fanout_ms, 1), "delivery": round(deliver_ms, 1)}}
    one = result["oneLineInvoices"]
    result["goal"] = {"usdPer1000OneLineInvoices": GOAL_USD_PER_1000_ONE_LINE_INVOICES,
                      "met": one["usd"] < GOAL_USD_PER_1000_ONE_LINE_INVOICES,
                      "metWithoutSubscription": one["noSubscriptionUsd"] < GOAL_USD_PER_1000_ONE_LINE_INVOICES}
    result["prices"] = {**PRICES, "lambdaMemoryMb": LAMBDA_MEMORY_MB, "roundTripMsAssumed": ROUND_TRIP_MS,
                        "receiverMsAssumed": RECEIVER_MS}
    return result
