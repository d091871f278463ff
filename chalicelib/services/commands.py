"""What every use case needs: who is calling, the table, and the one way to finish a command
(one transaction that also records the Idempotency-Key answer)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Generic, TypeVar, cast

from chalicelib.auth.principal import Principal
from chalicelib.services import idempotency
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

T = TypeVar("T")
U = TypeVar("U")

# Turns a command's result into the (status, JSON body) the client receives, so that the
# answer can be stored for Idempotency-Key replays inside the same transaction.
Renderer = Callable[[Any], "tuple[int, str]"]


@dataclass(frozen=True)
class Existing(Generic[T]):
    """A command's answer about a record that was there already (an upsert that updated, an
    import with nothing new, a dry run that wrote nothing): the route, not the use case, says
    what that answers (200 instead of 201)."""
    value: T


def shown(result: T | Existing[T], view: Callable[[T], U]) -> U | Existing[U]:
    """`view` of a command's result, still saying whether the record was there already."""
    if isinstance(result, Existing):
        return Existing(view(result.value))
    return view(result)


@dataclass
class Command:
    principal: Principal
    table: Table
    idempotency: idempotency.Request | None = None
    render: Renderer | None = None

    @property
    def company_id(self) -> int:
        return self.principal.company_id

    def transaction(self) -> Transaction:
        return Transaction(self.table)

    def commit(self, transaction: Transaction, result: T, replay: Any = None) -> T:
        """Commits the command's one transaction with its Idempotency-Key record. `replay` is
        what a replay answers when the result itself must not be stored (a secret)."""
        if self.idempotency is not None and self.render is not None:
            status, body = self.render(result if replay is None else replay)
            idempotency.record_answer(transaction, self.company_id, self.idempotency, status, body)
        transaction.commit()
        if isinstance(result, Existing):
            return cast(T, Existing(transaction.rewritten(result.value)))
        return transaction.rewritten(result)
