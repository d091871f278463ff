"""TEMPORARY (until i42-formats merges): a minimal reader of the test files, so that the import's
storage can be tested before the real readers land."""
from __future__ import annotations

import csv
import io
import re
from decimal import Decimal, InvalidOperation

from chalicelib.domain.bank_statements import ParsedStatement, StatementInvalid, StatementLine


def detect(file_name, content):
    if b"<OFX>" in content:
        return "ofx"
    if b":60F:" in content:
        return "mt940"
    return "csv"


def _date(text, line, column):
    m = re.fullmatch(r"(\d\d)/(\d\d)/(\d{4})", text)
    import datetime
    try:
        return datetime.date(int(m.group(3)), int(m.group(2)), int(m.group(1))).isoformat()
    except (AttributeError, ValueError):
        raise StatementInvalid(f"{text} is not a date DD/MM/YYYY", line, column) from None


def parse(file_name, content, format=None, mapping=None):
    format = format or detect(file_name, content)
    if format == "ofx":
        text = content.decode()
        lines = []
        for n, m in enumerate(re.finditer(r"<DTPOSTED>(\d{8})<TRNAMT>([-\d.]+)<FITID>([^<]+)<NAME>([^<]+)", text), 1):
            d = m.group(1)
            lines.append(StatementLine(n, f"{d[:4]}-{d[4:6]}-{d[6:]}", Decimal(m.group(2)), m.group(4),
                                       bank_id=m.group(3)))
        cur = re.search(r"<CURDEF>(\w+)", text).group(1)
        closing = Decimal(re.search(r"<BALAMT>([-\d.]+)", text).group(1))
        s, e = re.search(r"<DTSTART>(\d{8})<DTEND>(\d{8})", text).groups()
        return ParsedStatement("ofx", tuple(lines), cur, None, None, closing, f"{s[:4]}-{s[4:6]}-{s[6:]}",
                               f"{e[:4]}-{e[4:6]}-{e[6:]}")
    if format == "mt940":
        text = content.decode()
        opening = re.search(r":60F:([CD])\d{6}(\w{3})([\d,]+)", text)
        closing = re.search(r":62F:([CD])\d{6}\w{3}([\d,]+)", text)
        lines = []
        for n, m in enumerate(re.finditer(r":61:(\d{6})\d{4}([CD])([\d,]+)[^\r\n]*\r?\n:86:([^\r\n]*)", text), 1):
            amount = Decimal(m.group(3).replace(",", "."))
            d = m.group(1)
            lines.append(StatementLine(n, f"20{d[:2]}-{d[2:4]}-{d[4:]}", amount if m.group(2) == "C" else -amount,
                                       m.group(4)))
        return ParsedStatement("mt940", tuple(lines), opening.group(2), None,
                               Decimal(opening.group(3).replace(",", ".")), Decimal(closing.group(2).replace(",", ".")))
    if mapping is None:
        raise StatementInvalid("a CSV needs a mapping", 0, "mapping")
    rows = list(csv.reader(io.StringIO(content.decode(mapping.encoding or "utf-8"))))
    head = rows[mapping.skip_rows]
    lines = []
    for number, row in enumerate(rows[mapping.skip_rows + 1:], start=mapping.skip_rows + 2):
        cells = dict(zip(head, row))
        try:
            if mapping.amount_column:
                amount = Decimal(cells[mapping.amount_column])
            else:
                amount = Decimal(cells[mapping.credit_column] or 0) - Decimal(cells[mapping.debit_column] or 0)
        except InvalidOperation:
            raise StatementInvalid("not an amount", number, mapping.debit_column) from None
        balance = cells.get(mapping.balance_column) if mapping.balance_column else None
        lines.append(StatementLine(number, _date(cells[mapping.date_column], number, mapping.date_column), amount,
                                   cells[mapping.description_column],
                                   cells.get(mapping.reference_column) or None if mapping.reference_column else None,
                                   None, Decimal(balance) if balance else None))
    return ParsedStatement("csv", tuple(lines))


def check_balances(statement):
    if statement.opening_balance is not None and statement.closing_balance is not None:
        difference = statement.opening_balance + sum(line.amount for line in statement.lines) - statement.closing_balance
        if difference:
            raise StatementInvalid(f"the lines differ from the closing balance by {difference}")
