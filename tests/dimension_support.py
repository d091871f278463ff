"""Cost centres for the tests of lines that carry them: dimensions and values written as the
dimensions' service stores them (services/accounting/dimensions.py), whatever its routes."""
from __future__ import annotations

from typing import Any

from chalicelib.store import keys
from chalicelib.store.table import to_attributes


def cost_centres(table: Any, company_id: int, wanted: dict[str, list[str]], *,
                 inactive: tuple[str, ...] = ()) -> dict[str, int]:
    """Each dimension with its values: answers ids by name (dimensions and values alike)."""
    now = "2026-01-01T00:00:00Z"
    ids: dict[str, int] = {}
    for name, values in wanted.items():
        dimension_id = table.next_id(keys.id_sequence(company_id, keys.DIMENSION))
        ids[name] = dimension_id
        _put(table, {**keys.dimension(company_id, dimension_id), "itemType": keys.DIMENSION, "id": dimension_id,
                     "name": name, "isActive": name not in inactive, "version": 1, "createdAt": now,
                     "updatedAt": now})
        for value in values:
            value_id = table.next_id(keys.id_sequence(company_id, keys.DIMENSION_VALUE))
            ids[value] = value_id
            _put(table, {**keys.dimension_value(company_id, dimension_id, value_id), "itemType": keys.DIMENSION_VALUE,
                         "id": value_id, "dimensionId": dimension_id, "code": value[:3].upper(), "name": value,
                         "isActive": value not in inactive, "version": 1, "createdAt": now, "updatedAt": now})
    return ids


def pair(ids: dict[str, int], dimension: str, value: str) -> dict[str, int]:
    return {"dimensionId": ids[dimension], "valueId": ids[value]}


def _put(table: Any, item: dict[str, Any]) -> None:
    table.client.put_item(TableName=table.name, Item=to_attributes(item))
