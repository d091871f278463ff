"""Statement lines put straight into the table, for tests of matching, suggestions and rules that
must not wait for (or depend on) a file being imported. The items are what
services/statements/imports.py stores (services/statements/__init__.py documents the shape)."""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from chalicelib import clock
from chalicelib.domain.bank_statements import StatementLine, identities
from chalicelib.store import keys


def put_lines(table: Any, company_id: int, account_id: int, lines: list[tuple[str, str, str, str | None]],
              statement_id: int = 1) -> list[int]:
    """`lines`: (date, signed amount, description, reference). Answers their ids, in order."""
    parsed = [StatementLine(line=number, date=date, amount=Decimal(amount), description=description,
                            reference=reference) for number, (date, amount, description, reference)
              in enumerate(lines, start=1)]
    ids = []
    for line, identity in zip(parsed, identities(parsed), strict=True):
        line_id = table.next_id(keys.id_sequence(company_id, keys.STATEMENT_LINE))
        item: dict[str, Any] = {
            **keys.statement_line(company_id, account_id, line_id),
            **keys.statement_line_index(company_id, account_id, "unmatched", line.date, line_id),
            "itemType": keys.STATEMENT_LINE, "id": line_id, "bankAccountId": account_id, "statementId": statement_id,
            "date": line.date, "amount": line.amount, "description": line.description,
            "identity": keys.statement_line_identity(company_id, account_id, identity)["SK"],
            "status": "unmatched", "version": 1, "createdAt": clock.now_iso()}
        if line.reference:
            item["reference"] = line.reference
        table.client.put_item(TableName=table.name, Item=_typed(item))
        ids.append(line_id)
    _count(table, company_id, account_id, statement_id, len(ids))
    return ids


def _count(table: Any, company_id: int, account_id: int, statement_id: int, lines: int) -> None:
    """The account's line counts, as an import adds them (the listings' `total`)."""
    from chalicelib.services.statements.lines import UNMATCHED, count_changes
    from chalicelib.store.transaction import Transaction

    transaction = Transaction(table)
    transaction.add_counts(keys.statement_line_counts(company_id, account_id),
                           count_changes(statement_id, None, UNMATCHED, lines))
    transaction.commit()


def _typed(item: dict[str, Any]) -> dict[str, Any]:
    from chalicelib.store.table import to_attributes

    return to_attributes(item)
