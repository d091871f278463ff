"""ISO 20022 CAMT.053 (BankToCustomerStatement), versions 001.02 to 001.13 (the elements read here
keep their names across them), read with lxml hardened against hostile XML: no entity expanded, no
network, no DTD (a DOCTYPE is refused: a bank statement never has one), no huge tree. One Stmt per
file; its booked entries (Ntry, numbered from 1; a pending or informational one is left out):
Amt and its Ccy, CdtDbtInd CRDT (money in) or DBIT, BookgDt (Dt or DtTm), AcctSvcrRef else NtryRef
the bank's id, RmtInf/Ustrd and the other party's name (the debtor of a credit, the creditor of a
debit) the description, EndToEndId the reference. Balances: OPBD (or PRCD) opening, CLBD closing."""
from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from chalicelib.domain.bank_statements import ParsedStatement, StatementInvalid, StatementLine
from chalicelib.domain.statement_formats.common import iso_date, plain_amount, statement, too_many_lines
from chalicelib.messages.phrases import Phrase

NAMESPACE = re.compile(r"^urn:iso:std:iso:20022:tech:xsd:camt\.053\.001\.(\d{2})$")
_DAY = re.compile(r"^(\d{4})-(\d{2})-(\d{2})")
_NOT_PROVIDED = "NOTPROVIDED"


def parse(content: bytes) -> ParsedStatement:
    from lxml import etree  # only when an XML file comes: it stays out of a cold start

    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, load_dtd=False,
                             dtd_validation=False, remove_comments=True, remove_pis=True)
    try:
        tree = etree.fromstring(content, parser).getroottree()
    except etree.XMLSyntaxError as error:
        raise StatementInvalid(Phrase("the XML is not well formed (its line {})", error.lineno)) from None
    if tree.docinfo.doctype or tree.docinfo.internalDTD is not None:
        raise StatementInvalid("the XML declares a DOCTYPE: a CAMT.053 statement has none")
    root = tree.getroot()
    namespace = etree.QName(root).namespace or ""
    if not NAMESPACE.match(namespace) or etree.QName(root).localname != "Document":
        raise StatementInvalid(Phrase("the XML is not a CAMT.053 bank statement (its namespace is {})",
                                      namespace or 'none'))
    return _Reader(namespace).statement(root)


class _Reader:
    def __init__(self, namespace: str):
        self.ns = {"c": namespace}

    def all(self, element: Any, path: str) -> list[Any]:
        found: list[Any] = element.xpath(path, namespaces=self.ns)
        return found

    def text(self, element: Any, path: str) -> str | None:
        found = self.all(element, path)
        texts = [str(item if isinstance(item, str) else item.text or "").strip() for item in found]
        return next((text for text in texts if text), None)

    def statement(self, root: Any) -> ParsedStatement:
        statements = self.all(root, "c:BkToCstmrStmt/c:Stmt")
        if len(statements) != 1:
            raise StatementInvalid(Phrase("the CAMT.053 file holds {} statements: export one statement per file",
                                          len(statements)))
        stmt = statements[0]
        currency = self.text(stmt, "c:Acct/c:Ccy") or self.text(stmt, "c:Bal/c:Amt/@Ccy")
        entries = self.all(stmt, "c:Ntry")
        too_many_lines(len(entries))
        lines = [line for number, entry in enumerate(entries, start=1)
                 if (line := self.line(number, entry, currency)) is not None]
        start, end = self.text(stmt, "c:FrToDt/c:FrDtTm"), self.text(stmt, "c:FrToDt/c:ToDtTm")
        return statement(
            "camt053", lines, id_field="AcctSvcrRef", currency=currency,
            account_number=self.text(stmt, "c:Acct/c:Id/c:IBAN") or self.text(stmt, "c:Acct/c:Id/c:Othr/c:Id"),
            opening_balance=self.balance(stmt, ("OPBD", "PRCD")), closing_balance=self.balance(stmt, ("CLBD",)),
            period_start=_day(start, 0, "FrDtTm") if start else None,
            period_end=_day(end, 0, "ToDtTm") if end else None)

    def line(self, number: int, entry: Any, currency: str | None) -> StatementLine | None:
        status = self.text(entry, "c:Sts/c:Cd") or self.text(entry, "c:Sts")
        if status and status.upper() != "BOOK":
            return None
        amount = self.signed(entry, number, "Amt")
        entry_currency = self.text(entry, "c:Amt/@Ccy")
        if currency and entry_currency and entry_currency.upper() != currency.upper():
            raise StatementInvalid(Phrase("the entry is in {}, the statement in {}",
                                          entry_currency, currency), number, "Ccy")
        if amount == 0:
            return None
        booked = self.text(entry, "c:BookgDt/c:Dt") or self.text(entry, "c:BookgDt/c:DtTm")
        party = "c:Dbtr" if amount > 0 else "c:Cdtr"
        names = [self.text(entry, f"c:NtryDtls/c:TxDtls/c:RltdPties/{party}/c:Nm"),
                 self.text(entry, f"c:NtryDtls/c:TxDtls/c:RltdPties/{party}/c:Pty/c:Nm")]  # 001.08 on
        remittance = [text.strip() for text in self.all(entry, "c:NtryDtls/c:TxDtls/c:RmtInf/c:Ustrd/text()")
                      if text.strip()]
        parts = [name for name in names if name][:1] + remittance
        description = " - ".join(parts) or self.text(entry, "c:AddtlNtryInf") or self.text(
            entry, "c:NtryDtls/c:TxDtls/c:AddtlTxInf") or ""
        reference = self.text(entry, "c:NtryDtls/c:TxDtls/c:Refs/c:EndToEndId")
        return StatementLine(
            line=number, date=_day(booked, number, "BookgDt"), amount=amount, description=description,
            reference=None if reference == _NOT_PROVIDED else reference,
            bank_id=self.text(entry, "c:AcctSvcrRef") or self.text(entry, "c:NtryRef"))

    def signed(self, element: Any, number: int, name: str) -> Decimal:
        amount = plain_amount(self.text(element, f"c:{name}"), number, name)
        direction = self.text(element, "c:CdtDbtInd")
        if direction not in ("CRDT", "DBIT"):
            raise StatementInvalid(Phrase("the credit or debit mark {} is neither CRDT nor DBIT",
                                          direction or ''), number,
                                   "CdtDbtInd")
        return -amount if direction == "DBIT" else amount

    def balance(self, stmt: Any, codes: tuple[str, ...]) -> Decimal | None:
        for code in codes:
            for bal in self.all(stmt, "c:Bal"):
                if (self.text(bal, "c:Tp/c:CdOrPrtry/c:Cd") or "").upper() == code:
                    return self.signed(bal, 0, "Amt")
        return None


def _day(text: str | None, number: int, name: str) -> str:
    match = _DAY.match((text or "").strip())
    if not match:
        raise StatementInvalid(Phrase("the date {} is not a date written YYYY-MM-DD", text or ''), number, name)
    return iso_date(int(match[1]), int(match[2]), int(match[3]), text or "", number, name)
