"""OFX 1.x (SGML, its header lines first) and 2.x (XML) statements, read by ofxtools' parser
(headers, encodings, SGML's unclosed elements). The values are taken from the parsed elements as
written: a date is the day the bank wrote (ofxtools' conversion would move 20260310200000[-6:CST]
to 11 March in UTC). One bank or credit card statement per file: STMTTRN entries, numbered from 1,
FITID the bank's id for a line, TRNAMT signed, NAME and MEMO its description, CHECKNUM or REFNUM its
reference; CURDEF, ACCTID, DTSTART/DTEND; LEDGERBAL the closing balance. OFX states no opening
balance: it is the closing one less the lines, so check_balances has nothing to refuse there."""
from __future__ import annotations

import io
import re
from decimal import Decimal
from typing import Any

from chalicelib.domain.bank_statements import ParsedStatement, StatementInvalid, StatementLine
from chalicelib.domain.statement_formats.common import compact_date, plain_amount, statement, too_many_lines
from chalicelib.messages.phrases import Phrase

_V1_HEADER = (b"OFXHEADER:100\r\nDATA:OFXSGML\r\nVERSION:102\r\nSECURITY:NONE\r\nENCODING:USASCII\r\n"
              b"CHARSET:1252\r\nCOMPRESSION:NONE\r\nOLDFILEUID:NONE\r\nNEWFILEUID:NONE\r\n\r\n")
_HEADER = re.compile(rb"^\s*(OFXHEADER:|<\?xml|<\?OFX)", re.IGNORECASE)
_STATEMENTS = ("STMTRS", "CCSTMTRS")


def parse(content: bytes) -> ParsedStatement:
    from ofxtools.Parser import OFXTree  # only when an OFX file comes: it stays out of a cold start

    body = content.removeprefix(b"\xef\xbb\xbf")
    if not _HEADER.match(body):  # an export with <OFX> and no header lines: OFX 1.02's
        body = _V1_HEADER + body.lstrip()
    tree = OFXTree()
    try:
        tree.parse(io.BytesIO(body))
    except Exception:  # noqa: BLE001  (a damaged file fails in the parser in many ways)
        raise StatementInvalid("the OFX file cannot be read: its header or its tags are damaged") from None
    root = tree.getroot()
    if root is None:  # no tag at all ("abc" named x.ofx): the parser finds nothing, not an error
        raise StatementInvalid("the OFX file cannot be read: it holds no OFX tags", 0)
    found = [element for element in root.iter() if element.tag in _STATEMENTS]
    if len(found) != 1:
        raise StatementInvalid(Phrase("the OFX file holds {} account statements: export one account's statement per "
                                      "file", len(found)))
    return _statement(found[0])


def _statement(stmtrs: Any) -> ParsedStatement:
    entries = stmtrs.findall("BANKTRANLIST/STMTTRN")
    too_many_lines(len(entries))
    lines = []
    for number, entry in enumerate(entries, start=1):
        amount = plain_amount(_text(entry, "TRNAMT"), number, "TRNAMT")
        if amount == 0:
            continue
        name, memo = _text(entry, "NAME"), _text(entry, "MEMO")
        description = " - ".join(part for part in (name, memo if memo != name else None) if part)
        lines.append(StatementLine(
            line=number, date=compact_date(_text(entry, "DTPOSTED"), number, "DTPOSTED"), amount=amount,
            description=description, reference=_text(entry, "CHECKNUM") or _text(entry, "REFNUM"),
            bank_id=_text(entry, "FITID")))
    closing = stmtrs.find("LEDGERBAL/BALAMT")
    closing_balance = None if closing is None else plain_amount(closing.text, 0, "BALAMT")
    opening_balance = None if closing_balance is None else closing_balance - sum(
        (line.amount for line in lines), Decimal(0))
    start, end = _text(stmtrs, "BANKTRANLIST/DTSTART"), _text(stmtrs, "BANKTRANLIST/DTEND")
    account = _text(stmtrs, "BANKACCTFROM/ACCTID") or _text(stmtrs, "CCACCTFROM/ACCTID")
    return statement("ofx", lines, id_field="FITID", currency=_text(stmtrs, "CURDEF"), account_number=account,
                     opening_balance=opening_balance, closing_balance=closing_balance,
                     period_start=compact_date(start, 0, "DTSTART") if start else None,
                     period_end=compact_date(end, 0, "DTEND") if end else None)


def _text(element: Any, path: str) -> str | None:
    found = element.find(path)
    return None if found is None or not (found.text or "").strip() else found.text.strip()
