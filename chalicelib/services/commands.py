"""What every use case needs: who is calling, the table, and the one way to finish a command
(one transaction that also records the Idempotency-Key answer)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, TypeVar

from chalicelib.auth.principal import Principal
from chalicelib.services import idempotency
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

T = TypeVar("T")

# Turns a command's result into the (status, JSON body) the client receives, so that the
# answer can be stored for Idempotency-Key replays inside the same transaction.
Renderer = Callable[[Any], "tuple[int, str]"]


@dataclass
class Command:
    principal: Principal
    table: Table
    idempotency: idempotency.Request | None = None
    render: Renderer | None = None
    # The command found its record there already (an upsert that updated, an import with nothing
    # new): the route, not the use case, says what that answers (200 instead of 201).
    already_there: bool = False

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
            idempotency.record(transaction, self.company_id, self.idempotency, status, body)
        transaction.commit()
        return transaction.rewritten(result)
