"""Document numbering: a type's sequence (`nextNumber` on a counter item: the company's document
types, El Salvador's DTE control numbers) and authorized CAI ranges (small records with their own
`nextNumber`), each number taken in the confirming transaction under a condition on the number
read; and the guard that makes changes to a company's CAI ranges take turns."""
from __future__ import annotations

from typing import Any

from chalicelib.store import keys
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

# the guard item of a company's CAI ranges (keys.guard)
CAI_GUARD = "CAI"


def numbered_values(number: int) -> dict[str, Any]:
    """The values of a number's taking (`take_sequence_number`, `take_range_number`) as another
    number: what a number retaken at commit substitutes (store/renumbering.py)."""
    return {":n": number, ":after": number + 1}


def take_sequence_number(transaction: Transaction, sequence: keys.Key, number: int, *, first: bool) -> None:
    """Takes `number` of a sequence: its first one (`first`: the counter has no number yet) or the
    next one read; a concurrent taking makes the command run again and take the next."""
    if first:
        transaction.update(sequence, "SET nextNumber = :after", condition="attribute_not_exists(nextNumber)",
                           values={":after": number + 1})
    else:
        transaction.update(sequence, "SET nextNumber = :after", condition="nextNumber = :n",
                           values=numbered_values(number))


def take_range_number(transaction: Transaction, cai_range: keys.Key, number: int) -> None:
    """Takes `number` of a CAI range while it is the range's next, within the range and the range
    active; the range's version moves."""
    transaction.update(cai_range, "SET nextNumber = :after ADD #version :one",
                       condition="nextNumber = :n AND rangeEnd >= :n AND isActive = :yes", names={"#version": "version"},
                       values={**numbered_values(number), ":one": 1, ":yes": True})


def range_changes_turn(table: Table, company_id: int) -> int:
    """The version of the company's CAI ranges' guard (0 before the first change): read before the
    ranges, it conditions the change (`take_range_changes_turn`)."""
    guard = table.get(keys.guard(company_id, CAI_GUARD))
    return int(guard["version"]) if guard else 0


def take_range_changes_turn(transaction: Transaction, company_id: int, version_read: int) -> None:
    """Moves the guard on from the version read: concurrent changes of the ranges take turns."""
    transaction.put({**keys.guard(company_id, CAI_GUARD), "version": version_read + 1},
                    condition="attribute_not_exists(PK) OR version = :v", values={":v": version_read})
