"""A company's items as DynamoDB stores them (typed: `{"S": ...}`, `{"N": ...}`): which items are a
company's, every one of them read by a parallel Scan, their family, and the same items moved to
another company id. One definition for the operator's dump (infra/ops/company_dump.py) and the
company archive (services/imports/company_export.py, company_restore.py).

A company's items are those under its partitions (`C#{id}` and `C#{id}#...`) and the few kept under
global partitions that belong to it: its members' side of each membership (`USER#{u}` /
`COMPANY#{id}`), its API keys, invitations and payment links (`companyId`)."""
from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

from chalicelib.store import keys
from chalicelib.store.table import Table

# global partitions whose items carry the company they belong to
_OWNED_GLOBAL_PREFIXES = ("KEY#", "INVITE#", "PAYLINK#")
SCAN_SEGMENTS = 8  # a parallel Scan's segments: each a thread of the export's Lambda
LEASE_FAMILY = "LEASE"


def belongs_to(item: dict[str, Any], company_id: int) -> bool:
    """Whether a typed item is one of the company's."""
    partition: str = item["PK"]["S"]
    sort: str = item["SK"]["S"]
    if under_company(partition, company_id):
        return True
    if partition.startswith("USER#"):
        return sort == keys.user_company_link(0, company_id)["SK"]
    owner = item.get("companyId", {}).get("N")
    return partition.startswith(_OWNED_GLOBAL_PREFIXES) and owner is not None and int(owner) == company_id


def under_company(partition: str, company_id: int) -> bool:
    """Whether a partition is one of the company's own (`C#{id}`, `C#{id}#...`)."""
    prefix = keys.company_prefix(company_id)
    return partition == prefix or partition.startswith(prefix + "#")


def scan_company(table: Table, company_id: int, segments: int = SCAN_SEGMENTS,
                 on_page: Callable[[int], None] | None = None) -> list[dict[str, Any]]:
    """Every item under the company's own partitions, typed, sorted by key: a parallel Scan of the
    whole table filtered to them (eventually consistent reads; the filter saves transfer, not read
    units: every item of the table is read). Items under global partitions are not among them."""
    prefix = keys.company_prefix(company_id)

    def segment(number: int) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        start = None
        while True:
            page = table.client.scan(
                TableName=table.name, Segment=number, TotalSegments=segments,
                FilterExpression="PK = :company OR begins_with(PK, :under)",
                ExpressionAttributeValues={":company": {"S": prefix}, ":under": {"S": prefix + "#"}},
                **({"ExclusiveStartKey": start} if start else {}))
            found += page.get("Items", [])
            if on_page:
                on_page(len(page.get("Items", [])))
            start = page.get("LastEvaluatedKey")
            if not start:
                return found

    with ThreadPoolExecutor(max_workers=segments) as pool:
        items = [item for part in pool.map(segment, range(segments)) for item in part]
    items.sort(key=lambda item: (item["PK"]["S"], item["SK"]["S"]))
    return items


def family(item: dict[str, Any], company_id: int) -> str:
    """The kind of a company item, from its partition: `C#{c}#DOC#5` -> DOC, `C#{c}#CHART` -> CHART;
    under the company's own partition `C#{c}`, from the sort key: COMPANY, SEQ, COUNT, DOCSEQ, ...;
    a counter's lease (`...#LEASE`) -> LEASE."""
    partition: str = item["PK"]["S"]
    sort: str = item["SK"]["S"]
    prefix = keys.company_prefix(company_id)
    if partition == prefix:
        return sort.split("#")[0]
    if partition.endswith(keys.lease({"PK": "", "SK": ""})["PK"]):
        return LEASE_FAMILY
    return partition[len(prefix) + 1:].split("#")[0]


def counter_name(partition: str, sort: str, company_id: int) -> str:
    """A counter as a person finds it: its sort key when under the company's own partition
    (DOCSEQ#01), else its partition's kind before its sort key (CAIS#000000000001)."""
    prefix = keys.company_prefix(company_id)
    return sort if partition == prefix else f"{partition[len(prefix) + 1:]}#{sort}"


def moved(item: dict[str, Any], old: int, new: int) -> dict[str, Any]:
    """The typed item as company `new` holds it: every key and text naming company `old`'s
    partitions (`C#{old}`, `C#{old}#...`) names `new`'s, its `companyId` is `new`, and the indexes
    read across companies (schedules due, DTEs pending, open DTE lots), which carry the company's
    sortable id and a shard computed from it, are built again for `new`."""
    copied = {name: _moved_value(value, old, new) for name, value in item.items()}
    if "companyId" in copied and copied["companyId"].get("N") is not None and int(copied["companyId"]["N"]) == old:
        copied["companyId"] = {"N": str(new)}
    if copied["PK"]["S"] == keys.company(new)["PK"] and copied["SK"]["S"] == keys.company(new)["SK"] \
            and "id" in copied:
        copied["id"] = {"N": str(new)}
    copied.update(_cross_company_indexes(copied, old, new))
    return copied


def outside(item: dict[str, Any], company_id: int) -> list[str]:
    """The key attributes (PK and every index's partition) of a typed item that are neither the
    company's own partitions nor the cross-company index partitions: none, for an item of its."""
    cross = keys.schedule_due_partitions() + keys.dte_pending_partitions() + keys.dte_open_lot_partitions()
    return [name for name, value in sorted(item.items())
            if (name == "PK" or re.fullmatch(r"GSI\d+PK", name))
            and not (isinstance(value, dict) and isinstance(value.get("S"), str)
                     and (under_company(value["S"], company_id) or value["S"] in cross))]


def _prefix_pattern(company_id: int) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w#]){re.escape(keys.company_prefix(company_id))}(?=#|$)")


def _moved_value(value: dict[str, Any], old: int, new: int) -> dict[str, Any]:
    if "S" in value:
        return {"S": _prefix_pattern(old).sub(keys.company_prefix(new), value["S"])}
    if "M" in value:
        return {"M": {name: _moved_value(inner, old, new) for name, inner in value["M"].items()}}
    if "L" in value:
        return {"L": [_moved_value(inner, old, new) for inner in value["L"]]}
    if "SS" in value:
        return {"SS": [_prefix_pattern(old).sub(keys.company_prefix(new), text) for text in value["SS"]]}
    return value


def _cross_company_indexes(item: dict[str, Any], old: int, new: int) -> dict[str, Any]:
    """The cross-company index attributes, built by their key functions for `new`."""
    rebuilt: dict[str, Any] = {}
    due = item.get("GSI2PK", {}).get("S", "")
    if due in keys.schedule_due_partitions():
        next_run, _, schedule = item["GSI2SK"]["S"].split("#")
        rebuilt.update(keys.schedule_due_index(new, int(schedule), next_run))
    index = item.get("GSI1PK", {}).get("S", "")
    if index in keys.dte_pending_partitions():
        since, _, document = item["GSI1SK"]["S"].split("#")
        rebuilt.update(keys.dte_pending_index(new, int(document), since))
    elif index in keys.dte_open_lot_partitions():
        since, _, id_envio = item["GSI1SK"]["S"].split("#", 2)
        rebuilt.update(keys.dte_open_lot_index(new, id_envio, since))
    return {name: {"S": text} for name, text in rebuilt.items()}


def mentions(item: dict[str, Any], company_id: int) -> list[str]:
    """The attributes of a typed item that still name the company (its partitions' prefix, its
    sortable id in a cross-company index, its `companyId`): none, once moved."""
    found = []
    pattern = _prefix_pattern(company_id)

    def visit(name: str, value: dict[str, Any]) -> None:
        if "S" in value and pattern.search(value["S"]):
            found.append(name)
        for inner_name, inner in value.get("M", {}).items():
            visit(f"{name}.{inner_name}", inner)
        for inner in value.get("L", []):
            visit(name, inner)

    for name, value in item.items():
        visit(name, value)
    cross = keys.schedule_due_partitions() + keys.dte_pending_partitions() + keys.dte_open_lot_partitions()
    for index in ("GSI1", "GSI2"):
        if item.get(f"{index}PK", {}).get("S") in cross and \
                item[f"{index}SK"]["S"].split("#")[1] == keys.sortable_id(company_id):
            found.append(f"{index}SK")
    if item.get("companyId", {}).get("N") == str(company_id):
        found.append("companyId")
    return found


# Counters in a company's own partition that hold no record: the one branch and one warehouse
# POST /companies makes (at most 1), and the jobs and the audit trail.
_NEW_COMPANY_SEQUENCES = (keys.BRANCH, keys.WAREHOUSE)
_NOT_RECORDS = (keys.IMPORT_JOB, keys.EXPORT_JOB, "AUDIT")
_COUNTERS = ("SEQ#", "DOCSEQ#", "DTESEQ#", "COUNT#")


def holds_records(table: Table, company_id: int) -> bool:
    """Whether the company holds anything beyond what POST /companies makes. Every record takes its
    id from a sequence in the company's own partition (`SEQ#{kind}`), its counts and numbers live
    there too, and exchange rates (recorded by date, with no id) have a partition of their own: two
    small reads, no scan of the table, which a request could not afford."""
    first_ones = {keys.id_sequence(company_id, kind)["SK"] for kind in _NEW_COMPANY_SEQUENCES}
    not_records = ({keys.id_sequence(company_id, kind)["SK"] for kind in _NOT_RECORDS}
                   | {keys.entity_count(company_id, kind)["SK"] for kind in _NOT_RECORDS})
    for item in table.query_all(partition=("PK", keys.company(company_id)["PK"]), consistent=True):
        sort = str(item["SK"])
        if sort in first_ones:
            if int(item.get("value", 0)) > 1:
                return True  # a second branch or warehouse
        elif sort.startswith(_COUNTERS) and sort not in not_records:
            return True
    rates, _ = table.query(partition=("PK", keys.exchange_rates_partition(company_id)), limit=1, consistent=True)
    return bool(rates)
