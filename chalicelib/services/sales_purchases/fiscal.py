"""Fiscal numbering: branches (establishments), CAI ranges, and the gap-free number a document
takes inside its own transaction when it is confirmed."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from chalicelib import countries
from chalicelib.domain.document_types import DOCUMENT_TYPES, number_segment
from chalicelib.domain.documents import format_number
from chalicelib.domain.records import DocumentRecord
from chalicelib.errors import ApiError, Conflict, ValidationFailed
from chalicelib.messages.phrases import Phrase
from chalicelib.services import records
from chalicelib.services.commands import Command
from chalicelib.store import keys
from chalicelib.store.listing import Page
from chalicelib.store.renumbering import Renumbering
from chalicelib.store.repositories import fiscal_ranges
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

# Numbers of types without a CAI range: establishment of the branch, this emission point.
SEQUENCE_EMISSION_POINT = "001"
NO_BRANCH_CODE = "000"


class NumberingError(ApiError):
    """A refusal of this use case: each raise names its code."""


# --- branches ------------------------------------------------------------------------------------

def list_branches(table: Table, company_id: int, page: int, limit: int) -> Page:
    return records.small_page(records.small_records(table, company_id, keys.BRANCH), page, limit)


def get_branch(table: Table, company_id: int, branch_id: int) -> dict[str, Any]:
    return records.get_small_record(table, company_id, keys.BRANCH, branch_id, "Branch")


def branch_items(table: Table, company_id: int, fields: dict[str, Any]) -> list[dict[str, Any]]:
    """A new branch and the reservation of its establishment code."""
    item = records.new_small_record(table, company_id, keys.BRANCH, fields)
    return [item, {**keys.unique_value(company_id, "BRANCH_CODE", item["code"]), "branchId": item["id"]}]


def create_branch(command: Command, fields: dict[str, Any]) -> dict[str, Any]:
    branch, reservation = branch_items(command.table, command.company_id, fields)
    transaction = command.transaction()
    transaction.put_new(branch)
    transaction.put_new(reservation, on_fail=Conflict(
        Phrase("Another branch already uses the establishment code {}.", branch['code']), code="DUPLICATE_CODE",
        details=[{"field": "code", "message": "already used by another branch"}]))
    return command.commit(transaction, branch)


def update_branch(command: Command, branch_id: int, changes: dict[str, Any],
                  expected_version: int | None) -> dict[str, Any]:
    current = get_branch(command.table, command.company_id, branch_id)
    records.keep_default_active(command.table, command.company_id, "defaultBranchId", branch_id, changes, "branch")
    return records.update_item(command, keys.small_record(command.company_id, keys.BRANCH, branch_id), current,
                               changes, expected_version)


# --- CAI ranges ----------------------------------------------------------------------------------

def list_ranges(table: Table, company_id: int, page: int, limit: int) -> Page:
    return records.small_page([view_range(item) for item in records.small_records(table, company_id, keys.CAI_RANGE)],
                              page, limit)


def get_range(table: Table, company_id: int, range_id: int) -> dict[str, Any]:
    return view_range(records.get_small_record(table, company_id, keys.CAI_RANGE, range_id, "CAI range"))


def view_range(item: dict[str, Any]) -> dict[str, Any]:
    return {**item, "remaining": max(0, int(item["rangeEnd"]) - int(item["nextNumber"]) + 1)}


def same_series(country: str, one: dict[str, Any], other: dict[str, Any]) -> bool:
    """Two CAI ranges number the same series: branch, emission point and the type place of the
    number (in Honduras SAR's code, which 01 and 113 share: both are SAR's Factura)."""
    return all(one[name] == other[name] for name in ("branchId", "emissionPoint")) and \
        number_segment(country, one["documentType"]) == number_segment(country, other["documentType"])


def _overlap(country: str, ranges: list[dict[str, Any]], candidate: dict[str, Any]) -> dict[str, Any] | None:
    for other in ranges:
        if other["id"] == candidate["id"]:
            continue
        same = same_series(country, other, candidate)
        if same and other["rangeStart"] <= candidate["rangeEnd"] and candidate["rangeStart"] <= other["rangeEnd"]:
            return other
    return None


def _check_range(table: Table, company_id: int, candidate: dict[str, Any], transaction: Transaction) -> None:
    """Ranges of one series (branch, emission point, type) never overlap each other nor the
    numbers the type's sequence already issued, so no number can be issued twice. The guard is
    read before the ranges and its version conditions the write: concurrent changes take turns."""
    if candidate["rangeEnd"] < candidate["rangeStart"]:
        raise ValidationFailed.for_field("rangeEnd", "must not be below the range's first number")
    if int(candidate["nextNumber"]) > candidate["rangeEnd"] + 1:
        raise ValidationFailed.for_field("rangeEnd", Phrase("numbers up to {} were already issued",
                                                            int(candidate['nextNumber']) - 1))
    version = fiscal_ranges.range_changes_turn(table, company_id)
    country = _country(table, company_id)
    other = _overlap(country, records.small_records(table, company_id, keys.CAI_RANGE), candidate)
    if other is not None:
        raise NumberingError(Phrase("The range overlaps CAI range {} ({}-{}) of the same branch, emission point and "
                                    "type.",
                                    other['id'], other['rangeStart'], other['rangeEnd']), code="CAI_RANGE_OVERLAP",
                             details=[{"field": "rangeStart", "message": Phrase("overlaps range {}", other['id'])}])
    segment = number_segment(country, candidate["documentType"])
    sequences = [table.get(keys.document_sequence(company_id, document_type)) for document_type in DOCUMENT_TYPES
                 if number_segment(country, document_type) == segment]
    issued = max((int(sequence["nextNumber"]) - 1 for sequence in sequences if sequence), default=0)
    if candidate["emissionPoint"] == SEQUENCE_EMISSION_POINT and int(candidate["rangeStart"]) <= issued:
        raise NumberingError(Phrase("Numbers up to {} of type {} were already issued without a CAI range; start the "
                                    "range after them.", issued, candidate['documentType']), code="CAI_RANGE_OVERLAP",
                             details=[{"field": "rangeStart", "message": Phrase("must be above {}", issued)}])
    fiscal_ranges.take_range_changes_turn(transaction, company_id, version)


def _country(table: Table, company_id: int) -> str:
    return countries.pack_of(table.get(keys.company(company_id))).code


def create_range(command: Command, fields: dict[str, Any]) -> dict[str, Any]:
    table, company_id = command.table, command.company_id
    _require_branch(table, company_id, fields["branchId"])

    def checks(transaction: Transaction, item: dict[str, Any]) -> None:
        _check_range(table, company_id, item, transaction)
        records.require_reference(transaction, company_id, keys.BRANCH, item, "branchId", "branch")

    return records.create_small_record(command, keys.CAI_RANGE, {**fields, "nextNumber": fields["rangeStart"]},
                                       checks, view=view_range)


def _require_branch(table: Table, company_id: int, branch_id: int) -> None:
    if table.get(keys.small_record(company_id, keys.BRANCH, branch_id)) is None:
        raise ValidationFailed.for_field("branchId", "no such branch")


def update_range(command: Command, range_id: int, changes: dict[str, Any],
                 expected_version: int | None) -> dict[str, Any]:
    table, company_id = command.table, command.company_id
    current = records.get_small_record(table, company_id, keys.CAI_RANGE, range_id, "CAI range")
    candidate = {**current, **{name: value for name, value in changes.items() if value is not None}}

    def check(transaction: Transaction, _: dict[str, Any]) -> None:
        if "rangeEnd" in changes:
            _check_range(table, company_id, candidate, transaction)

    # the range's own nextNumber is checked again when it is written: a number issued meanwhile
    # changes the version and the command runs again on fresh data
    updated = records.update_item(command, keys.small_record(company_id, keys.CAI_RANGE, range_id), current,
                                  changes, expected_version, check)
    return view_range(updated)


# --- numbers -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Number:
    number: str
    cai: dict[str, Any] | None


def _branch_code(table: Table, company_id: int, branch_id: int | None) -> str:
    if branch_id is None:
        return NO_BRANCH_CODE
    return str(get_branch(table, company_id, branch_id)["code"])


def assign_number(transaction: Transaction, table: Table, company: dict[str, Any], document: DocumentRecord) -> Number:
    """The document's gap-free number, taken in its transaction: from the active CAI range of
    its branch and type, else from the type's sequence. Both are written with a condition on
    the number read, so a concurrent document makes this one run again and take the next."""
    company_id, document_type = company["id"], document["type"]
    pack = countries.pack_of(company)
    country = pack.code
    segment = number_segment(country, document_type)
    branch_id = document["branchId"] if document.get("branchId") is not None else None
    branch_code = _branch_code(table, company_id, branch_id)
    # once a series has CAI ranges, its numbers come only from them (active ones), never again
    # from the sequence, whose numbers the ranges may have issued; a range of another type with
    # the same SAR code is the same series (a Honduran 113 takes the Factura CAI's numbers)
    series = [item for item in records.small_records(table, company_id, keys.CAI_RANGE)
              if number_segment(country, item["documentType"]) == segment and item["branchId"] == branch_id]
    if series or pack.hooks.requires_authorized_range(document_type, document):
        return _from_range(transaction, company_id, [item for item in series if item.get("isActive", True)],
                           document, branch_code, segment, series)
    sequence = table.get(keys.document_sequence(company_id, document_type))
    next_number = int(sequence["nextNumber"]) if sequence else 1
    fiscal_ranges.take_sequence_number(transaction, keys.document_sequence(company_id, document_type), next_number,
                                       first=sequence is None)
    if sequence is not None:
        transaction.take_number(_NextNumber(keys.document_sequence(company_id, document_type), next_number,
                                            branch_code, SEQUENCE_EMISSION_POINT, segment, None))
    return Number(format_number(branch_code, SEQUENCE_EMISSION_POINT, segment, next_number), None)


_RANGE_TERMS = ("cai", "deadline", "rangeStart", "rangeEnd", "isActive", "emissionPoint", "branchId")


class _NextNumber(Renumbering):
    """The number of a CAI range or of the type's sequence, read again under the counter's lease
    (store/transaction.py Renumbering): the counter's next number while the range is the one the
    command chose and still has it, else None (the command runs again and chooses, or refuses,
    anew)."""

    def __init__(self, key: keys.Key, number: int, branch_code: str, emission_point: str, segment: str,
                 cai_range: dict[str, Any] | None) -> None:
        self.counter, self.number = key, number
        self.format: Callable[[int], str] = lambda n: format_number(branch_code, emission_point, segment, n)
        # what the command chose the range by: any change and the command runs again
        self.terms = {name: cai_range.get(name) for name in _RANGE_TERMS} if cai_range else None
        self.range_end = int(cai_range["rangeEnd"]) if cai_range else None

    def retake(self, table: Table, left: int | None) -> tuple[dict[str, str], dict[str, Any]] | None:
        if left is not None and left >= self.number:
            number = left
            if self.range_end is not None and number > self.range_end:
                return None
        else:
            counter = table.get(self.counter)
            if counter is None or "nextNumber" not in counter:
                return None
            number = int(counter["nextNumber"])
            if number < self.number or self.terms is not None and (
                    {name: counter.get(name) for name in _RANGE_TERMS} != self.terms
                    or number > int(counter["rangeEnd"])):
                return None
        if number == self.number:
            return {}, {}
        old, new = self.format(self.number), self.format(number)
        self.number = number
        return {old: new, old.replace("-", ""): new.replace("-", "")}, fiscal_ranges.numbered_values(number)


def _from_range(transaction: Transaction, company_id: int, ranges: list[dict[str, Any]],
                document: DocumentRecord, branch_code: str, segment: str, series: list[dict[str, Any]]) -> Number:
    field = [{"field": "branchId", "message": "no usable CAI range for this branch and type"}]
    if not ranges:
        # the series the person registers a range for: establishment, the emission points its
        # inactive ranges had (else any), and the number's type place
        points = ", ".join(sorted({str(item["emissionPoint"]) for item in series}))
        series_name = f"{branch_code}-PPP-{segment}"
        if points:
            raise NumberingError(Phrase("No active CAI range for document type {} (series {}) at branch {}, emission "
                                        "point {}: register an authorized range (POST /cai) before issuing it.",
                                        document['type'], series_name, branch_code, points), code="CAI_MISSING", details=field)
        raise NumberingError(Phrase("No active CAI range for document type {} (series {}) at branch {}, at any "
                                    "emission point: register an authorized range (POST /cai) before issuing it.",
                                    document['type'], series_name, branch_code), code="CAI_MISSING", details=field)
    current = [item for item in ranges if item["deadline"] >= document["date"]]
    if not current:
        raise NumberingError("The CAI range's issue deadline has passed.", code="CAI_EXPIRED", details=field)
    usable = sorted((item for item in current if int(item["nextNumber"]) <= int(item["rangeEnd"])),
                    key=lambda item: int(item["rangeStart"]))
    if not usable:
        raise NumberingError("The CAI range has no numbers left.", code="CAI_EXHAUSTED", details=field)
    chosen = usable[0]
    number = int(chosen["nextNumber"])
    fiscal_ranges.take_range_number(transaction, keys.small_record(company_id, keys.CAI_RANGE, chosen["id"]), number)
    transaction.take_number(_NextNumber(keys.small_record(company_id, keys.CAI_RANGE, chosen["id"]), number,
                                        branch_code, chosen["emissionPoint"], segment, chosen))
    cai = {"cai": chosen["cai"], "rangeId": chosen["id"], "emissionPoint": chosen["emissionPoint"],
           "rangeStart": format_number(branch_code, chosen["emissionPoint"], segment, int(chosen["rangeStart"])),
           "rangeEnd": format_number(branch_code, chosen["emissionPoint"], segment, int(chosen["rangeEnd"])),
           "deadline": chosen["deadline"]}
    return Number(format_number(branch_code, chosen["emissionPoint"], segment, number), cai)
