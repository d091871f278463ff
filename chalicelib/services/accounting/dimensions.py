"""Cost centres (issue 44): up to 5 dimensions per company (branch, project, department...),
each with its values. A document line or a journal line may carry one value per dimension; the
value ids travel to the line's postings (`dimensionValueIds`), which the reports filter and group
by. Value ids are unique across the company's dimensions (one sequence)."""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from chalicelib.errors import ValidationFailed
from chalicelib.store import keys
from chalicelib.store.table import Table


def dimension_items(table: Table, company_id: int) -> list[dict[str, Any]]:
    """Every dimension and value item of the company, dimensions each followed by their values:
    one strongly consistent Query of a small partition."""
    return table.query_all(partition=("PK", keys.dimensions_partition(company_id)), consistent=True)


def values_by_id(items: Iterable[Mapping[str, Any]]) -> dict[int, Mapping[str, Any]]:
    return {int(item["id"]): item for item in items if item.get("itemType") == keys.DIMENSION_VALUE}


def dimensions_by_id(items: Iterable[Mapping[str, Any]]) -> dict[int, Mapping[str, Any]]:
    return {int(item["id"]): item for item in items if item.get("itemType") == keys.DIMENSION}


def checked_line_dimensions(items: list[dict[str, Any]], requested: Iterable[Mapping[str, Any]] | None,
                            field: str) -> list[dict[str, int]]:
    """A line's `dimensions` ([{dimensionId, valueId}]) checked against the company's `items`
    (dimension_items, read once per command): each dimension exists and is active, each value is one
    of its dimension's and active, at most one value per dimension. Answered in dimension order."""
    if not requested:
        return []
    dimensions, values = dimensions_by_id(items), values_by_id(items)
    chosen: dict[int, int] = {}
    for position, pair in enumerate(requested):
        where = f"{field}[{position}]"
        dimension_id, value_id = int(pair["dimensionId"]), int(pair["valueId"])
        dimension = dimensions.get(dimension_id)
        if dimension is None or not dimension.get("isActive", True):
            raise ValidationFailed.for_field(f"{where}.dimensionId", "no such active dimension")
        value = values.get(value_id)
        if value is None or int(value["dimensionId"]) != dimension_id or not value.get("isActive", True):
            raise ValidationFailed.for_field(f"{where}.valueId", "not an active value of this dimension")
        if dimension_id in chosen:
            raise ValidationFailed.for_field(f"{where}.dimensionId", "one value per dimension on a line")
        chosen[dimension_id] = value_id
    return [{"dimensionId": dimension_id, "valueId": chosen[dimension_id]} for dimension_id in sorted(chosen)]


def value_ids(line_dimensions: Iterable[Mapping[str, Any]] | None) -> list[int]:
    """What a posting carries of its line's dimensions: the value ids, in dimension order."""
    return [int(pair["valueId"]) for pair in sorted(line_dimensions or (), key=lambda pair: int(pair["dimensionId"]))]
