"""Cost centres in the reports (issue 44): the movements of postings carrying a dimension value,
read from the postings themselves (each posting item carries its line's `dimensionValueIds`,
absent when none), never from balance items of their own: the books' transactions stay as they
are. One Query per account partition over [start, end]."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Callable, Iterable, Mapping

from chalicelib.domain.statements import Movements
from chalicelib.store import keys
from chalicelib.store.table import Table

_POSTINGS_END = "~"  # sorts after every digit and '#': the upper bound of a day's postings
UNASSIGNED = None  # the group of postings carrying no value of the dimension grouped by
_SKIPPED = object()  # the group of a posting left out


def carried_values(posting: Mapping[str, Any]) -> set[int]:
    return {int(value) for value in posting.get("dimensionValueIds") or ()}


def account_postings(table: Table, company_id: int, account_id: int, start: str, end: str) -> list[dict[str, Any]]:
    """An account's postings dated within [start, end], strongly consistent."""
    return table.query_all(partition=("PK", keys.account_partition(company_id, account_id)),
                           sort_range=("SK", f"{keys.POSTING_PREFIX}{start}",
                                       f"{keys.POSTING_PREFIX}{end}{_POSTINGS_END}"), consistent=True)


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
