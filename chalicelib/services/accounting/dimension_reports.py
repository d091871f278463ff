"""Cost centres in the reports (issue 44): the movements of postings carrying a dimension value,
read from the postings themselves (each posting item carries its line's `dimensionValueIds`,
absent when none), never from balance items of their own: the books' transactions stay as they
are. One Query per account partition over [start, end]."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Callable, Iterable, Mapping

from chalicelib.domain.statements import Movements
from chalicelib.errors import ValidationFailed
from chalicelib.services.accounting import dimensions
from chalicelib.store.repositories import ledger as ledgers
from chalicelib.store.table import Table

UNASSIGNED = None  # the group of postings carrying no value of the dimension grouped by
_SKIPPED = object()  # the group of a posting left out


def carried_values(posting: Mapping[str, Any]) -> set[int]:
    return {int(value) for value in posting.get("dimensionValueIds") or ()}


def account_postings(table: Table, company_id: int, account_id: int, start: str, end: str) -> list[dict[str, Any]]:
    """An account's postings dated within [start, end], strongly consistent."""
    return ledgers.postings_between(table, company_id, account_id, start, end)


def _summed(table: Table, company_id: int, account_ids: Iterable[int], start: str, end: str,
            group_of: Callable[[set[int]], Any]) -> dict[Any, dict[int, Movements]]:
    """{group: {account: Movements}}: each posting in the group `group_of(its values)` names
    (a posting whose group is a `_SKIPPED` is left out)."""
    groups: dict[Any, dict[int, list[Decimal]]] = {}
    for account_id in account_ids:
        for posting in account_postings(table, company_id, int(account_id), start, end):
            group = group_of(carried_values(posting))
            if group is _SKIPPED:
                continue
            figures = groups.setdefault(group, {}).setdefault(int(account_id), [Decimal(0), Decimal(0)])
            figures[0] += Decimal(posting["debit"])
            figures[1] += Decimal(posting["credit"])
    return {group: {account: Movements(debit, credit) for account, (debit, credit) in by_account.items()}
            for group, by_account in groups.items()}



def tagged_movements(table: Table, company_id: int, account_ids: Iterable[int], start: str, end: str,
                     value_id: int) -> dict[int, Movements]:
    """Per account, the debits and credits of its postings in [start, end] carrying `value_id`
    (accounts without any are absent)."""
    return _summed(table, company_id, account_ids, start, end,
                   lambda values: True if int(value_id) in values else _SKIPPED).get(True, {})


def untagged_movements(table: Table, company_id: int, account_ids: Iterable[int], start: str, end: str,
                       dimension_value_ids: Iterable[int]) -> dict[int, Movements]:
    """Per account, the postings in [start, end] carrying none of a dimension's values
    (`dimension_value_ids`, all of them, active or not): the dimension's "unassigned"."""
    of_dimension = {int(value) for value in dimension_value_ids}
    return _summed(table, company_id, account_ids, start, end,
                   lambda values: _SKIPPED if values & of_dimension else True).get(True, {})


def grouped_movements(table: Table, company_id: int, account_ids: Iterable[int], start: str, end: str,
                      dimension_value_ids: Iterable[int], within_value_id: int | None = None,
                      ) -> dict[int | None, dict[int, Movements]]:
    """One reading of the postings, grouped by the value of one dimension each carries
    ({value id: {account: Movements}}, UNASSIGNED (None) for those carrying none of
    `dimension_value_ids`); only postings carrying `within_value_id` when given. A line holds at
    most one value per dimension, so the groups add up to everything read."""
    of_dimension = {int(value) for value in dimension_value_ids}

    def group_of(values: set[int]) -> Any:
        if within_value_id is not None and int(within_value_id) not in values:
            return _SKIPPED
        mine = values & of_dimension
        return min(mine) if mine else UNASSIGNED

    return _summed(table, company_id, account_ids, start, end, group_of)


# --- what a report asks of cost centres (dimensionValueId, groupByDimensionId) --------------------

@dataclass(frozen=True)
class Selection:
    """A report's cost centres: only the postings carrying `value_id` (when given) and, when
    `dimension_id` is given, a column per value of that dimension (`value_ids`, in id order) and a
    last one for the postings carrying none of them ("unassigned"), adding up to the whole."""
    value_id: int | None
    dimension_id: int | None
    value_ids: tuple[int, ...] = ()
    columns: tuple[dict[str, Any], ...] = ()
    value_name: str | None = None
    dimension_name: str | None = None

    def answer(self) -> dict[str, Any]:
        """What a report answers of it (absent from the default answers)."""
        return {"dimensionValueId": self.value_id, "dimensionValueName": self.value_name,
                "groupByDimensionId": self.dimension_id, "groupByDimensionName": self.dimension_name,
                "dimensionColumns": list(self.columns) if self.grouped else None}

    @property
    def grouped(self) -> bool:
        return self.dimension_id is not None


def selection(table: Table, company_id: int, value_id: int | None, dimension_id: int | None) -> Selection | None:
    """None when the report asks for neither (the default answer, from the monthly balances alone).
    A value or dimension the company does not have is a 400 naming the query field."""
    if value_id is None and dimension_id is None:
        return None
    items = dimensions.dimension_items(table, company_id)
    values = dimensions.values_by_id(items)
    if value_id is not None and int(value_id) not in values:
        raise ValidationFailed.for_field("dimensionValueId", "no such dimension value")
    value_name = None if value_id is None else str(values[int(value_id)]["name"])
    if dimension_id is None:
        return Selection(int(value_id), None, value_name=value_name)  # type: ignore[arg-type]
    dimension = dimensions.dimensions_by_id(items).get(int(dimension_id))
    if dimension is None:
        raise ValidationFailed.for_field("groupByDimensionId", "no such dimension")
    own = [values[key] for key in sorted(values) if int(values[key]["dimensionId"]) == int(dimension_id)]
    columns = tuple({"valueId": int(value["id"]), "code": value.get("code"), "name": value["name"],
                     "isActive": value.get("isActive", True)} for value in own)
    unassigned = {"valueId": None, "code": None, "name": None, "isActive": True}
    return Selection(None if value_id is None else int(value_id), int(dimension_id),
                     tuple(int(value["id"]) for value in own), columns + (unassigned,), value_name,
                     str(dimension["name"]))


def group_columns(table: Table, company_id: int, account_ids: Iterable[int], start: str, end: str,
                  chosen: Selection) -> list[dict[int, Movements]]:
    """The grouped dimension's columns of [start, end] in `chosen.columns`' order, the unassigned last."""
    groups = grouped_movements(table, company_id, account_ids, start, end, chosen.value_ids, chosen.value_id)
    return [groups.get(value_id, {}) for value_id in chosen.value_ids] + [groups.get(UNASSIGNED, {})]
