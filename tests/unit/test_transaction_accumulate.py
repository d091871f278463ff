"""Transaction.accumulate (issue 42): what several parts of one command add to one item is one
update, by the sum, at the first part's place, under the first part's condition; and moving an
operation keeps every merged item's place right."""
from __future__ import annotations

from decimal import Decimal
from types import SimpleNamespace

from chalicelib.store.transaction import Transaction

ACCOUNT = {"PK": "C#1#SMALL#BANKACC", "SK": "7"}
PARTNER = {"PK": "C#1#PARTNER", "SK": "3"}


def _transaction() -> Transaction:
    return Transaction(SimpleNamespace(name="table"))  # type: ignore[arg-type]


def _update(transaction: Transaction, index: int) -> dict:
    return transaction.operations[index].request["Update"]


def test_two_additions_to_one_item_are_one_update_by_their_sum():
    transaction = _transaction()
    transaction.accumulate(ACCOUNT, {"balance": Decimal("1150.00"), "transactionCount": 1},
                           condition="isActive = :yes", values={":yes": True})
    transaction.put({"PK": "C#1#PAY", "SK": "1"})
    transaction.accumulate(ACCOUNT, {"balance": Decimal("575.00"), "transactionCount": 1})
    assert len(transaction.operations) == 2  # the account once, the payment
    update = _update(transaction, 0)
    values = update["ExpressionAttributeValues"]
    # 1,150.00 + 575.00 = 1,725.00, two transactions
    assert {update["ExpressionAttributeNames"][f"#add{i}"]: values[f":add{i}"]["N"] for i in range(2)} == {
        "balance": "1725.00", "transactionCount": "2"}
    assert update["ConditionExpression"] == "isActive = :yes" and values[":yes"] == {"BOOL": True}


def test_sets_beside_the_additions_and_a_moved_operation_keeps_the_merge_in_place():
    transaction = _transaction()
    transaction.accumulate(PARTNER, {"receivableBalance": Decimal("-100")}, sets={"month": "2026-11"})
    transaction.put({"PK": "LINE", "SK": "1"})
    transaction.move_last_to(0)  # the line first
    transaction.accumulate(PARTNER, {"receivableBalance": Decimal("-50")})
    assert [next(iter(op.request)) for op in transaction.operations] == ["Put", "Update"]
    update = _update(transaction, 1)
    assert update["UpdateExpression"] == "ADD #add0 :add0 SET #set0 = :set0"
    assert update["ExpressionAttributeValues"][":add0"] == {"N": "-150"}
    assert transaction.touches(PARTNER) and transaction.touches({"PK": "LINE", "SK": "1"})
    assert not transaction.touches(ACCOUNT)
