"""Readers of bank statement files, one module per format; `parse` picks one. Pure.

Every refusal is a StatementInvalid naming the file's line (a CSV/XLSX row, heading rows counted;
an OFX/CAMT/MT940 entry's ordinal from 1; 0 for the file as a whole) and the column (the heading,
or the format's field: "TRNAMT", "Amt", ":61:")."""
from __future__ import annotations

import re
from decimal import Decimal

from chalicelib.domain.bank_statements import FORMATS, ColumnMapping, Format, ParsedStatement, StatementInvalid
from chalicelib.domain.statement_formats.common import MAX_LINES, money
from chalicelib.messages.phrases import Phrase

__all__ = ["MAX_LINES", "check_balances", "detect", "parse"]

_CAMT = re.compile(rb"urn:iso:std:iso:20022:tech:xsd:camt\.053\.")
_MT940 = re.compile(rb"(?:^|[\r\n]|\{4:[\r\n]*):20:")
_MT940_BALANCE = re.compile(rb"(?:^|[\r\n]):60[FM]:")
_EXTENSIONS: dict[str, Format] = {
    "ofx": "ofx", "qfx": "ofx", "xml": "camt053", "camt": "camt053", "sta": "mt940", "mt940": "mt940",
    "940": "mt940", "xlsx": "xlsx", "csv": "csv"}


def detect(file_name: str, content: bytes) -> Format:
    """The format by content first (OFX header or <OFX>, a CAMT.053 namespace, MT940's :20:/:60F:
    tags, the XLSX zip signature), else by the file name's extension, else csv."""
    body = content.removeprefix(b"\xef\xbb\xbf").lstrip()
    head = body[:65536]
    if body.startswith(b"PK\x03\x04"):
        return "xlsx"
    if head.upper().startswith(b"OFXHEADER") or b"<OFX>" in head.upper():
        return "ofx"
    if head.startswith(b"<") and _CAMT.search(head):
        return "camt053"
    if _MT940.search(head) and _MT940_BALANCE.search(head):
        return "mt940"
    extension = file_name.rsplit(".", 1)[-1].lower() if "." in file_name else ""
    return _EXTENSIONS.get(extension, "csv")


def parse(file_name: str, content: bytes, format: Format | None = None,
          mapping: ColumnMapping | None = None) -> ParsedStatement:
    """The statement in `content`; csv/xlsx need `mapping` (StatementInvalid naming `mapping`
    without it). Raises StatementInvalid naming the line and column of the first problem."""
    if not content.strip():
        raise StatementInvalid("the file is empty")
    format = format or detect(file_name, content)
    if format not in FORMATS:
        raise StatementInvalid(Phrase("unknown format {}: the formats are {}", format, ', '.join(FORMATS)), 0, "format")
    if format in ("csv", "xlsx"):
        if mapping is None:
            raise StatementInvalid("a CSV or XLSX statement is read with the bank account's column mapping: save it "
                                   "first", 0, "mapping")
        from chalicelib.domain.statement_formats import tabular

        return (tabular.parse_csv if format == "csv" else tabular.parse_xlsx)(content, mapping)
    if format == "ofx":
        from chalicelib.domain.statement_formats import ofx

        return ofx.parse(content)
    if format == "camt053":
        from chalicelib.domain.statement_formats import camt053

        return camt053.parse(content)
    from chalicelib.domain.statement_formats import mt940

    return mt940.parse(content)


def check_balances(statement: ParsedStatement) -> None:
    """Where the file states both balances, the lines add up from one to the other: else
    StatementInvalid naming the difference."""
    if statement.opening_balance is None or statement.closing_balance is None:
        return
    total = statement.opening_balance + sum((line.amount for line in statement.lines), Decimal(0))
    if total != statement.closing_balance:
        raise StatementInvalid(
            Phrase("the opening balance {} and the lines add up to {} but the closing balance is {}: a difference of {}",
                   money(statement.opening_balance), money(total), money(statement.closing_balance), money(abs(statement.closing_balance - total))))
