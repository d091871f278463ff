"""SWIFT MT940 customer statements, read by the mt-940 package: one message or several (a day
each) of one account. :61: lines numbered from 1 across the file, signed by their mark (D, C and
the reversals RD, RC), the customer reference their reference (NONREF: the bank's, after //),
:86: their description; no bank id (a bank's reference may repeat: two lines alike stay two, by
their occurrence); :25: the account, :60F:/:60M: the
first opening balance and its currency, :62F:/:62M: the last closing one."""
from __future__ import annotations

import re
from decimal import Decimal
from typing import Any, Callable

from chalicelib.domain.bank_statements import ParsedStatement, StatementInvalid, StatementLine
from chalicelib.domain.statement_formats.common import cents, iso_date, statement, too_many_lines
from chalicelib.messages.phrases import Phrase

_NO_REFERENCE = "NONREF"
# what a :61: starts with (value date, entry date, mark, funds code, amount, transaction type): the
# package passes over a :61: it cannot place without a word, so each is checked before it reads them
_LINE = re.compile(r"^\d{6}(?:\d{4})?R?[DCdc][A-Z]?\n?\d[\d,]{0,14}[A-Z][A-Z0-9 ]{3}")
_BALANCE = re.compile(r"^[DC]\d{6}[A-Z]{3}\d[\d,]{0,14}$")
_BALANCE_TAGS = re.compile(r"(?:^|\n)(:6[02][FM]:)([^\n]*)")


def parse(content: bytes) -> ParsedStatement:
    import mt940  # only when an MT940 file comes: it stays out of a cold start

    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = content.decode("cp1252", errors="replace")
    text = text.replace("\r\n", "\n")
    if not re.search(r"(?:^|\n|\{4:\n?):20:", text):  # another format read as MT940: nothing in it is a tag
        raise StatementInvalid("the file is not an MT940 statement: it has no :20: tag", 0, ":20:")
    _check_lines(text)
    balances: list[tuple[str, Any]] = []

    def keep(kind: str) -> Callable[..., Any]:
        def processor(transactions: Any, tag: Any, tag_dict: Any, result: dict[str, Any]) -> dict[str, Any]:
            balances.append((kind, next(iter(result.values()))))
            return result
        return processor

    processors = {f"post_{name}": [keep(kind)] for kind, name in (
        ("opening", "final_opening_balance"), ("opening", "intermediate_opening_balance"),
        ("closing", "final_closing_balance"), ("closing", "intermediate_closing_balance"))}
    transactions = mt940.models.Transactions(processors=processors, options=mt940.options.Options(
        reversal_sign=True, case_insensitive_marks=True, unbounded_details=True, strip_bom=True))
    try:
        transactions.parse(text)
    except RuntimeError as error:
        raise _unreadable(text, error) from None
    except (ArithmeticError, ValueError):  # what the checks above let through: "1,,2", 29 February of 2026 in :61:
        raise StatementInvalid("the MT940 file has a date or an amount that cannot be read") from None
    too_many_lines(len(transactions.transactions))
    if len(transactions.transactions) != text.count("\n:61:") + text.startswith(":61:"):
        raise StatementInvalid("the MT940 file's :61: lines cannot all be read", 0, ":61:")
    lines = [line for number, transaction in enumerate(transactions, start=1)
             if (line := _line(number, transaction.data)) is not None]
    openings = [balance for kind, balance in balances if kind == "opening"]
    closings = [balance for kind, balance in balances if kind == "closing"]
    currency = openings[0].amount.currency if openings else (closings[-1].amount.currency if closings else None)
    return statement("mt940", lines, currency=currency,
                     account_number=transactions.data.get("account_identification"),
                     opening_balance=_balance(openings[0], ":60F:") if openings else None,
                     closing_balance=_balance(closings[-1], ":62F:") if closings else None)


def _check_lines(text: str) -> None:
    for tag, value in _BALANCE_TAGS.findall(text):
        if not _BALANCE.match(value.strip()):
            raise StatementInvalid(Phrase("the balance {} is not a D or C mark, a date, a currency and an amount (e.g. "
                                          "C260228HNL10000,00)", tag), 0, tag)
        _yymmdd(value.strip()[1:7], 0, tag)
    for number, value in enumerate(re.findall(r"(?:^|\n):61:([^\n]*(?:\n[^:\n][^\n]*)?)", text), start=1):
        if not _LINE.match(value):
            raise StatementInvalid("the :61: line is not a date, a D or C mark, an amount and a transaction type "
                                   "(e.g. 2603100310D85,00NTRF)", number, ":61:")
        _yymmdd(value[:6], number, ":61:")
        if value[6:10].isdigit():  # the entry date, MMDD (2024 is a leap year: 29 February stands)
            _yymmdd("24" + value[6:10], number, ":61:")


def _yymmdd(text: str, number: int, tag: str) -> None:
    iso_date(2000 + int(text[:2]), int(text[2:4]), int(text[4:6]), text, number, tag)


def _line(number: int, data: dict[str, Any]) -> StatementLine | None:
    amount = cents(Decimal(data["amount"].amount), str(data["amount"].amount), number, ":61:")
    if amount == 0:
        return None
    when = data.get("entry_date") or data["date"]
    references = [(data.get(name) or "").strip() for name in ("customer_reference", "bank_reference")]
    return StatementLine(
        line=number, date=iso_date(when.year, when.month, when.day, str(when), number, ":61:"), amount=amount,
        description=" ".join((data.get("transaction_details") or "").split()),
        reference=next((text for text in references if text.upper() not in ("", _NO_REFERENCE)), None))


def _balance(balance: Any, tag: str) -> Decimal:
    return cents(Decimal(balance.amount.amount), str(balance.amount.amount), 0, tag)


def _unreadable(text: str, error: RuntimeError) -> StatementInvalid:
    """Which field the package could not read: a :61: by its ordinal, another tag by its name."""
    _, tag, value = (list(error.args) + [None, None, None])[:3]
    field = f":{getattr(tag, 'id', '')}:"
    number = 0
    if field == ":61:" and isinstance(value, str):
        position = text.find(value)
        number = text.count(":61:", 0, position if position >= 0 else len(text))
    return StatementInvalid(Phrase("the MT940 field {} cannot be read: {}",
                                   field, str(value or '')[:60]), number, field)
