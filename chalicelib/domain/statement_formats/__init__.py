"""Readers of bank statement files, one module per format; `parse` picks one. Pure."""
from __future__ import annotations

from chalicelib.domain.bank_statements import ColumnMapping, Format, ParsedStatement, StatementInvalid


def detect(file_name: str, content: bytes) -> Format:
    """The format by content first (OFX header or <OFX>, a CAMT.053 namespace, MT940's :20:/:60F:
    tags, the XLSX zip signature), else by the file name's extension, else csv."""
    raise StatementInvalid("not implemented yet")


def parse(file_name: str, content: bytes, format: Format | None = None,
          mapping: ColumnMapping | None = None) -> ParsedStatement:
    """The statement in `content`; csv/xlsx need `mapping` (StatementInvalid naming `mapping`
    without it). Raises StatementInvalid naming the line and column of the first problem."""
    raise StatementInvalid("not implemented yet")


def check_balances(statement: ParsedStatement) -> None:
    """Where the file states both balances, the lines add up from one to the other: else
    StatementInvalid naming the difference."""
