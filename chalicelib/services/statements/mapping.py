"""A bank account's CSV/XLSX column mapping (how its bank's download reads); a file read with it,
storing nothing, is imports.preview_statement."""
from __future__ import annotations

from typing import Any

from chalicelib import clock
from chalicelib.domain.bank_statements import DATE_FORMATS, ColumnMapping
from chalicelib.errors import NotFound, ValidationFailed
from chalicelib.messages.phrases import Phrase
from chalicelib.services.banking import banking
from chalicelib.services.commands import Command
from chalicelib.store import keys
from chalicelib.store.table import Table

ENCODINGS = ("utf-8", "utf-8-sig", "cp1252", "latin-1", "utf-16")
DELIMITERS = (",", ";", "\t", "|")
DECIMAL_SEPARATORS = (".", ",")
THOUSANDS_SEPARATORS = (",", ".", " ", "'")
# the mapping's fields by their API names, as ColumnMapping names them
FIELDS = {"encoding": "encoding", "delimiter": "delimiter", "skipRows": "skip_rows", "dateColumn": "date_column",
          "dateFormat": "date_format", "descriptionColumn": "description_column",
          "referenceColumn": "reference_column", "amountColumn": "amount_column", "debitColumn": "debit_column",
          "creditColumn": "credit_column", "balanceColumn": "balance_column",
          "decimalSeparator": "decimal_separator", "thousandsSeparator": "thousands_separator"}


def checked(fields: dict[str, Any]) -> dict[str, Any]:
    """The mapping's fields (camelCase) when they say how to read an amount: a signed amount
    column, or a debit and a credit column; never both."""
    if fields.get("amountColumn"):
        if fields.get("debitColumn") or fields.get("creditColumn"):
            raise ValidationFailed.for_field("amountColumn", "either a signed amount column or debit and credit "
                                                             "columns, not both")
    elif not (fields.get("debitColumn") and fields.get("creditColumn")):
        raise ValidationFailed.for_field("amountColumn", "name a signed amount column, or both a debit and a "
                                                         "credit column")
    for name, allowed in (("dateFormat", DATE_FORMATS), ("delimiter", DELIMITERS),
                          ("decimalSeparator", DECIMAL_SEPARATORS), ("thousandsSeparator", THOUSANDS_SEPARATORS)):
        if fields.get(name) is not None and fields[name] not in allowed:
            raise ValidationFailed.for_field(name, Phrase("must be one of {}", ' '.join(allowed)))
    if fields.get("decimalSeparator") and fields.get("decimalSeparator") == fields.get("thousandsSeparator"):
        raise ValidationFailed.for_field("thousandsSeparator", "must differ from the decimal separator")
    return {name: value for name, value in fields.items() if name in FIELDS and value is not None}


def column_mapping(fields: dict[str, Any]) -> ColumnMapping:
    mapping = {FIELDS[name]: value for name, value in checked(fields).items()}
    return ColumnMapping(**{**mapping, "skip_rows": int(mapping.get("skip_rows", 0))})  # stored: a Decimal


def _saved(table: Table, company_id: int, account_id: int) -> dict[str, Any] | None:
    return table.get(keys.statement_mapping(company_id, account_id))


def saved_column_mapping(table: Table, company_id: int, account_id: int) -> ColumnMapping | None:
    saved = _saved(table, company_id, account_id)
    return column_mapping(saved) if saved else None


def mapping_view(item: dict[str, Any]) -> dict[str, Any]:
    return {**{name: item.get(name) for name in FIELDS}, "skipRows": int(item.get("skipRows", 0)), "bankAccountId": item["bankAccountId"],
            "version": item["version"], "updatedAt": item["updatedAt"]}


def get_mapping(table: Table, company_id: int, account_id: int) -> dict[str, Any]:
    banking.get_bank_account(table, company_id, account_id)
    saved = _saved(table, company_id, account_id)
    if saved is None:
        raise NotFound("No statement mapping is saved for this bank account.")
    return mapping_view(saved)


def put_mapping(command: Command, account_id: int, fields: dict[str, Any]) -> dict[str, Any]:
    """Saves (replaces) the account's mapping."""
    banking.get_bank_account(command.table, command.company_id, account_id)
    mapping = checked(fields)
    current = _saved(command.table, command.company_id, account_id)
    item = {**keys.statement_mapping(command.company_id, account_id), "itemType": keys.STATEMENT_MAPPING,
            "bankAccountId": account_id, **mapping, "version": (current or {}).get("version", 0) + 1,
            "updatedAt": clock.now_iso()}
    transaction = command.transaction()
    transaction.put(item)  # a PUT replaces: the last one sent is the mapping
    return command.commit(transaction, mapping_view(item))

