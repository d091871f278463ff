"""The readers of bank statement files (domain/statement_formats/): each fixture of
tests/fixtures/bank_statements/ read to the figures worked out here by hand, the refusals (each
naming its line and column), the format told by the content, the balance check, line identities.

Every fixture is the same month of BAC Honduras account 730123456, in lempiras (HNL):
  opening balance                                      10,000.00
  02/03  Depósito en efectivo             ref 100234   +5,750.00 -> 15,750.00
  05/03  Transferencia recibida Maya S.A. ref 100310   +3,450.00 -> 19,200.00
  10/03  Compra POS Café El Indio         ref 200111      -85.00 -> 19,115.00
  10/03  Compra POS Café El Indio         ref 200111      -85.00 -> 19,030.00  (the same coffee twice)
  16/03  Transferencia a cuenta 730987654 ref 300045   -2,000.00 -> 17,030.00
  31/03  Comisión por manejo de cuenta    ref 900001     -150.00 -> 16,880.00
  31/03  ISV 15% sobre comisión           ref 900002      -22.50 -> 16,857.50  (150.00 x 15% = 22.50)
  closing balance: 10,000.00 + 9,200.00 in - 2,342.50 out = 16,857.50"""
from __future__ import annotations

import io
import pathlib
from dataclasses import replace
from decimal import Decimal

import openpyxl
import pytest

from chalicelib import messages
from chalicelib.domain.bank_statements import ColumnMapping, ParsedStatement, StatementInvalid, identities
from chalicelib.domain.statement_formats import MAX_LINES, check_balances, detect, parse

FIXTURES = pathlib.Path(__file__).parent / "fixtures" / "bank_statements"
BAC_MAPPING = ColumnMapping(  # headings written differently from the file's: case, accents and spaces do not count
    date_column="FECHA", description_column="Descripcion", reference_column="referencia", debit_column="Débito",
    credit_column="credito", balance_column="Saldo", skip_rows=8)
XLSX_MAPPING = ColumnMapping(date_column="Fecha", description_column="Descripción", reference_column="Referencia",
                             amount_column="Monto", balance_column="Saldo", skip_rows=3)

D = Decimal
MONTH = [("2026-03-02", D("5750.00")), ("2026-03-05", D("3450.00")), ("2026-03-10", D("-85.00")),
         ("2026-03-10", D("-85.00")), ("2026-03-16", D("-2000.00")), ("2026-03-31", D("-150.00")),
         ("2026-03-31", D("-22.50"))]
FILES = {"bac_2026_03.csv": ("csv", BAC_MAPPING), "bac_2026_03.xlsx": ("xlsx", XLSX_MAPPING),
         "bac_2026_03_v102.ofx": ("ofx", None), "bac_2026_03_v220.ofx": ("ofx", None),
         "bac_2026_03_camt053.xml": ("camt053", None), "bac_2026_03.sta": ("mt940", None)}


def read(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def parsed(name: str) -> ParsedStatement:
    return parse(name, read(name), None, FILES[name][1])


def refusal(file_name: str, content: bytes | str, mapping: ColumnMapping | None = None, format=None):
    if isinstance(content, str):
        content = content.encode()
    with pytest.raises(StatementInvalid) as refused:
        parse(file_name, content, format, mapping)
    error = refused.value
    assert messages.phrase(error.message), error.message  # each refusal reads in Spanish too
    return error.message, error.line, error.column


# ---- each fixture, its figures by hand

@pytest.mark.parametrize("name", FILES)
def test_every_fixture_is_the_same_month_and_adds_up(name):
    statement = parsed(name)
    assert statement.format == FILES[name][0]
    assert [(line.date, line.amount) for line in statement.lines] == MONTH
    # 10,000.00 + 5,750.00 + 3,450.00 - 85.00 - 85.00 - 2,000.00 - 150.00 - 22.50 = 16,857.50
    assert (statement.opening_balance, statement.closing_balance) == (D("10000.00"), D("16857.50"))
    assert statement.period_end == "2026-03-31"
    check_balances(statement)


def test_the_bac_csv_reads_its_cp1252_accents_debits_credits_and_balances():
    statement = parsed("bac_2026_03.csv")
    # 8 rows skipped (7 of the account's header block and a blank one), the heading on line 9: lines 10 to 16;
    # lines 17 and 18 ("Saldo final", "Total débitos y créditos") have no date: a summary, skipped
    assert [line.line for line in statement.lines] == [10, 11, 12, 13, 14, 15, 16]
    first, coffee, commission, tax = statement.lines[0], statement.lines[2], statement.lines[5], statement.lines[6]
    assert (first.description, first.reference, first.amount, first.balance) == (
        "Depósito en efectivo agencia Centro", "100234", D("5750.00"), D("15750.00"))  # credit "5,750.00": money in
    assert (coffee.description, coffee.amount, coffee.balance) == ("Compra POS Café El Indio", D("-85.00"),
                                                                   D("19115.00"))  # debit 85.00: money out
    assert (commission.description, commission.amount) == ("Comisión por manejo de cuenta", D("-150.00"))
    assert (tax.description, tax.amount, tax.balance) == ("ISV 15% sobre comisión", D("-22.50"), D("16857.50"))
    # opening: the first line's balance less its amount, 15,750.00 - 5,750.00; closing: the last balance
    assert (statement.opening_balance, statement.closing_balance) == (D("10000.00"), D("16857.50"))
    # the file states no period: its lines' first and last days; no currency column: the account's
    assert (statement.period_start, statement.period_end, statement.currency) == ("2026-03-02", "2026-03-31", None)
    assert all(line.bank_id is None for line in statement.lines)  # BAC gives no id of its own


def test_the_xlsx_reads_date_cells_and_numbers_as_they_are():
    statement = parsed("bac_2026_03.xlsx")
    assert [line.line for line in statement.lines] == [5, 6, 7, 8, 9, 10, 11]  # 3 rows skipped, heading on row 4
    assert statement.lines[1].description == "Transferencia recibida Maya S.A. factura 000-001-01-00000045"
    # the total row (6,857.50 = 9,200.00 - 2,342.50, no date) is left out; 15,750.00 - 5,750.00 opens
    assert (statement.opening_balance, statement.closing_balance) == (D("10000.00"), D("16857.50"))


def test_a_numeric_cell_is_not_read_with_the_text_separators():
    # a mapping for texts written 1.234,56 does not make the number 5750.5 into 57,505.00
    book = openpyxl.Workbook()
    book.active.append(["Fecha", "Detalle", "Monto"])
    book.active.append(["02/03/2026", "Depósito", 5750.5])
    book.active.append(["03/03/2026", "Retiro", "1.234,56-"])
    content = io.BytesIO()
    book.save(content)
    mapping = ColumnMapping(date_column="Fecha", description_column="Detalle", amount_column="Monto",
                            decimal_separator=",", thousands_separator=".")
    statement = parse("movimientos.xlsx", content.getvalue(), None, mapping)
    assert [line.amount for line in statement.lines] == [D("5750.50"), D("-1234.56")]
    assert statement.opening_balance is None  # no balance column: nothing to check


def test_a_damaged_workbook_is_refused_not_a_fault():
    xlsx = bytearray(read("bac_2026_03.xlsx"))
    directory = xlsx.index(b"PK\x01\x02")
    xlsx[directory + 6] = 0xFF  # "version needed to extract" 25.5: zipfile raised NotImplementedError (a 500)
    assert refusal("x.xlsx", bytes(xlsx), XLSX_MAPPING) == (
        "the file is a ZIP archive, not an XLSX workbook: save it as CSV UTF-8 or XLSX", 0, None)


@pytest.mark.parametrize("name", ["bac_2026_03_v102.ofx", "bac_2026_03_v220.ofx"])
def test_ofx_reads_fitid_refnum_name_memo_and_the_ledger_balance(name):
    statement = parsed(name)
    assert (statement.currency, statement.account_number) == ("HNL", "730123456")
    assert (statement.period_start, statement.period_end) == ("2026-03-01", "2026-03-31")  # DTSTART, DTEND
    first = statement.lines[0]
    assert (first.line, first.bank_id, first.reference, first.description) == (
        1, "BAC20260302000101", "100234", "Depósito en efectivo - Agencia Centro")  # NAME - MEMO
    assert [line.bank_id for line in statement.lines[2:4]] == ["BAC20260310000103", "BAC20260310000104"]
    # OFX states only the closing balance (LEDGERBAL 16,857.50): the opening is it less the lines,
    # 16,857.50 - (9,200.00 - 2,342.50) = 10,000.00
    assert (statement.opening_balance, statement.closing_balance) == (D("10000.00"), D("16857.50"))


def test_ofx_keeps_the_day_the_bank_wrote_whatever_the_zone():
    # the commission is posted 20260331200000.000[-6:CST]: 1 April in UTC, 31 March at the bank
    assert parsed("bac_2026_03_v220.ofx").lines[5].date == "2026-03-31"


def test_camt053_reads_balances_references_and_parties():
    statement = parsed("bac_2026_03_camt053.xml")
    assert (statement.currency, statement.account_number) == ("HNL", "730123456")
    assert (statement.period_start, statement.period_end) == ("2026-03-01", "2026-03-31")  # FrToDt
    maya = statement.lines[1]
    assert (maya.line, maya.bank_id, maya.reference, maya.description) == (
        2, "BAC20260305000102", "MAYA-PAGO-0045", "Maya S.A. - Pago factura 000-001-01-00000045")  # Dbtr of a credit
    assert statement.lines[0].reference is None  # EndToEndId NOTPROVIDED
    assert statement.lines[4].description == "Ferreteria La Economica - Transferencia a cuenta 730987654"  # Cdtr
    # OPBD 10,000.00 and CLBD 16,857.50 are both stated: check_balances has something to check (it holds)
    assert (statement.opening_balance, statement.closing_balance) == (D("10000.00"), D("16857.50"))


def test_mt940_reads_the_balances_and_references_of_its_tags():
    statement = parsed("bac_2026_03.sta")
    assert (statement.currency, statement.account_number) == ("HNL", "730123456")  # :60F: ...HNL, :25:
    deposit, maya = statement.lines[0], statement.lines[1]
    assert (deposit.reference, deposit.description) == ("100234", "Deposito en efectivo agencia Centro")  # NONREF//100234
    # :86: on two lines, joined
    assert (maya.reference, maya.description) == ("100310", "Transferencia recibida Maya S.A. factura 000-001-01-00000045")
    assert all(line.bank_id is None for line in statement.lines)


def test_mt940_of_two_daily_messages_opens_with_the_first_and_closes_with_the_last():
    content = (":20:D1\r\n:25:730123456\r\n:28C:1/1\r\n:60F:C260301HNL10000,00\r\n"
               ":61:2603020302C5750,00NCSHNONREF//100234\r\n:86:Deposito\r\n:62F:C260302HNL15750,00\r\n-\r\n"
               ":20:D2\r\n:25:730123456\r\n:28C:2/1\r\n:60F:C260302HNL15750,00\r\n"
               ":61:2603100310D85,00NPOS200111\r\n:86:Cafe\r\n:62F:C260310HNL15665,00\r\n-\r\n")
    statement = parse("extracto.txt", content.encode())
    # 10,000.00 + 5,750.00 - 85.00 = 15,665.00
    assert (statement.opening_balance, statement.closing_balance) == (D("10000.00"), D("15665.00"))
    assert [line.line for line in statement.lines] == [1, 2]
    check_balances(statement)


# ---- amounts, dates and rows as banks write them

def _csv(rows: list[str], **mapping) -> ParsedStatement:
    fields = {"date_column": "Fecha", "description_column": "Detalle", "amount_column": "Monto", **mapping}
    return parse("extracto.csv", "\n".join(rows).encode("utf-8"), None, ColumnMapping(**fields))


@pytest.mark.parametrize(("written", "decimal", "thousands", "amount"), [
    ('"1,234.56"', ".", ",", "1234.56"), ("1.234,56", ",", ".", "1234.56"), ("(1,234.56)", ".", ",", "-1234.56"),
    ("L 85.00", ".", ",", "85.00"), ('"$1,234.50"', ".", ",", "1234.50"), ("USD -85.00", ".", ",", "-85.00"),
    ("85.00-", ".", ",", "-85.00"), ("-L 1.234,5", ",", ".", "-1234.50"), ("1 234,56", ",", " ", "1234.56"),
    ("Lps. 20", ".", ",", "20.00")])
def test_amounts_as_banks_write_them(written, decimal, thousands, amount):
    statement = _csv(["Fecha;Detalle;Monto", f"02/03/2026;Pago;{written}"], delimiter=";", decimal_separator=decimal,
                     thousands_separator=thousands)
    assert statement.lines[0].amount == D(amount)


@pytest.mark.parametrize(("date_format", "written"), [
    ("DD/MM/YYYY", "05/03/2026"), ("MM/DD/YYYY", "03/05/2026"), ("YYYY-MM-DD", "2026-03-05"),
    ("DD-MM-YYYY", "05-03-2026"), ("DD/MM/YY", "05/03/26"), ("DD/MM/YYYY", "5/3/2026"),
    ("DD/MM/YYYY", "05/03/2026 14:32")])
def test_dates_in_the_mapping_format(date_format, written):
    assert _csv(["Fecha,Detalle,Monto", f"{written},Pago,10.00"], date_format=date_format).lines[0].date == "2026-03-05"


def test_blank_lines_zero_lines_and_continuation_rows_are_skipped_the_file_order_kept():
    statement = _csv(["Fecha,Detalle,Monto", "", "01/03/2026,Saldo anterior,", "10/03/2026,Cafe,-85.00",
                      ",(continues the line above),", "02/03/2026,Deposito,5750.00", "03/03/2026,Ajuste,0.00",
                      ",Total,5665.00"])
    # line 3 has no amount, line 5 neither (nor a date); out of date order: the file's order stays; the 0.00 line
    # (line 7) is no line; line 8 has no date after the last dated line: a total
    assert [(line.line, line.date, line.amount) for line in statement.lines] == [
        (4, "2026-03-10", D("-85.00")), (6, "2026-03-02", D("5750.00"))]
    assert (statement.period_start, statement.period_end) == ("2026-03-02", "2026-03-10")


def test_a_bank_listing_newest_first_opens_with_its_last_line():
    statement = _csv(["Fecha,Detalle,Monto,Saldo", "10/03/2026,Cafe,-85.00,15665.00",
                      "02/03/2026,Deposito,5750.00,15750.00"], balance_column="Saldo")
    # earliest line last: 15,750.00 - 5,750.00 = 10,000.00 opens; the newest line's 15,665.00 closes
    assert (statement.opening_balance, statement.closing_balance) == (D("10000.00"), D("15665.00"))
    check_balances(statement)  # 10,000.00 + 5,750.00 - 85.00 = 15,665.00


# ---- refusals: each names its line and column

def test_csv_refusals_name_the_line_and_the_heading():
    bac = read("bac_2026_03.csv")
    bad_date = bac.replace(b"16/03/2026", b"31/02/2026")
    assert refusal("bac.csv", bad_date, BAC_MAPPING) == (
        "the date 31/02/2026 is not a day of the calendar", 14, "Fecha")
    wrong_format = bac.replace(b"16/03/2026", b"2026-03-16")
    assert refusal("bac.csv", wrong_format, BAC_MAPPING) == (
        "the date 2026-03-16 is not a date written DD/MM/YYYY", 14, "Fecha")
    bad_amount = bac.replace(b'"3,450.00"', b'"3.450,00"')
    assert refusal("bac.csv", bad_amount, BAC_MAPPING) == (
        "the amount 3.450,00 is not a number written 1,234.56", 11, "Crédito")
    missing = replace(BAC_MAPPING, balance_column="Saldo disponible")
    assert refusal("bac.csv", bac, missing) == ("the column Saldo disponible is not in the heading row", 9,
                                                "Saldo disponible")
    # debit and credit mapped the wrong way round: the balances stop following from the amounts
    swapped = replace(BAC_MAPPING, debit_column="Crédito", credit_column="Débito")
    assert refusal("bac.csv", bac, swapped) == (
        "the balance 19,200.00 is not the previous line's balance 15,750.00 plus this line's amount -3,450.00", 11,
        "Saldo")
    assert refusal("bac.csv", bac, None) == (
        "a CSV or XLSX statement is read with the bank account's column mapping: save it first", 0, "mapping")


def test_the_mapping_encoding_and_delimiter_are_used_when_given():
    bac = read("bac_2026_03.csv")
    statement = parse("bac.csv", bac, None, replace(BAC_MAPPING, encoding="cp1252", delimiter=","))
    assert statement.lines[5].description == "Comisión por manejo de cuenta"
    assert refusal("bac.csv", bac, replace(BAC_MAPPING, encoding="utf-8")) == (
        "the line has bytes that are not utf-8 text", 3, "encoding")  # "Ferretería" in Windows-1252, line 3
    assert refusal("bac.csv", bac, replace(BAC_MAPPING, encoding="klingon")) == ("unknown encoding klingon", 0,
                                                                                 "encoding")
    assert refusal("bac.csv", bac, replace(BAC_MAPPING, date_format="DIA/MES")) == (
        "the date format DIA/MES is not made of DD, MM and YYYY or YY (e.g. DD/MM/YYYY)", 0, "dateFormat")


def test_a_mapped_heading_written_twice_is_refused_another_one_is_no_matter():
    mapping = ColumnMapping("Fecha", "Detalle", amount_column="Monto")
    assert len(parse("x.csv", b"Fecha,Detalle,Monto,Nota,Nota\n02/03/2026,A,1.00,,\n", None, mapping).lines) == 1
    assert refusal("x.csv", "Fecha,Detalle,Monto,MONTO\n02/03/2026,A,1.00,2.00\n", mapping) == (
        "the heading Monto is written twice", 1, "Monto")


def test_a_row_without_a_date_amid_the_lines_is_refused_not_skipped():
    assert refusal("x.csv", "Fecha,Detalle,Monto\n02/03/2026,A,1.00\n,B,2.00\n03/03/2026,C,3.00\n",
                   ColumnMapping("Fecha", "Detalle", amount_column="Monto")) == ("the date is blank", 3, "Fecha")


def test_an_empty_statement_and_an_unknown_format_are_refused():
    mapping = ColumnMapping("Fecha", "Detalle", amount_column="Monto")
    assert refusal("x.csv", "Fecha,Detalle,Monto\n\n", mapping) == ("the statement has no lines with an amount", 0,
                                                                     None)
    assert refusal("x.qif", "!Type:Bank", format="qif") == (
        "unknown format qif: the formats are csv, xlsx, ofx, camt053, mt940", 0, "format")
    assert refusal("x.csv", b"", mapping) == ("the file is empty", 0, None)


def test_more_than_the_line_limit_is_refused():
    rows = ["Fecha,Detalle,Monto"] + ["02/03/2026,Cafe,-1.00"] * (MAX_LINES + 1)
    assert refusal("x.csv", "\n".join(rows), ColumnMapping("Fecha", "Detalle", amount_column="Monto")) == (
        "the statement has more than 20000 lines: split it into files of at most 20000 lines", 0, None)


def test_ofx_refusals_name_the_entry_and_its_field():
    ofx = read("bac_2026_03_v102.ofx")
    assert refusal("x.ofx", ofx.replace(b"<TRNAMT>-85.00", b"<TRNAMT>-85.0O", 1)) == (
        "the amount -85.0O is not a number", 3, "TRNAMT")
    assert refusal("x.ofx", ofx.replace(b"<DTPOSTED>20260316", b"<DTPOSTED>2026-03-16")) == (
        "the date 2026-03-16 is not a date written YYYYMMDD", 5, "DTPOSTED")
    assert refusal("x.ofx", ofx.replace(b"BAC20260310000104", b"BAC20260310000103")) == (
        "the bank's id BAC20260310000103 of this entry is also entry 3's", 4, "FITID")
    assert refusal("x.ofx", b"OFXHEADER:100\r\nDATA:OFXSGML\r\n\r\n<OFX><FOO>")[1:] == (0, None)


def test_camt053_refusals_name_the_entry_and_its_field():
    camt = read("bac_2026_03_camt053.xml")
    assert refusal("x.xml", camt.replace(b'<Amt Ccy="HNL">3450.00</Amt>', b'<Amt Ccy="HNL">3,450.OO</Amt>', 1)) == (
        "the amount 3,450.OO is not a number", 2, "Amt")
    assert refusal("x.xml", camt.replace(b"<CdtDbtInd>DBIT</CdtDbtInd>", b"<CdtDbtInd>DR</CdtDbtInd>", 1)) == (
        "the credit or debit mark DR is neither CRDT nor DBIT", 3, "CdtDbtInd")
    assert refusal("x.xml", camt.replace(b"<BookgDt><Dt>2026-03-16", b"<BookgDt><Dt>16/03/2026")) == (
        "the date 16/03/2026 is not a date written YYYY-MM-DD", 5, "BookgDt")
    pain = camt.replace(b"camt.053.001.02", b"pain.001.001.03")
    assert refusal("x.xml", pain) == (
        "the XML is not a CAMT.053 bank statement (its namespace is urn:iso:std:iso:20022:tech:xsd:pain.001.001.03)",
        0, None)
    assert refusal("x.xml", camt[:-40])[0].startswith("the XML is not well formed")


@pytest.mark.parametrize("doctype", [
    # billion laughs: entities of entities, never expanded
    '<!DOCTYPE Document [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
    '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>',
    # XXE: a file of the server's, never read
    '<!DOCTYPE Document [<!ENTITY secret SYSTEM "file:///etc/passwd">]>'])
def test_camt053_refuses_hostile_xml_without_expanding_it(doctype):
    camt = read("bac_2026_03_camt053.xml").decode()
    hostile = camt.replace("<Document", doctype + "<Document", 1).replace(
        "Deposito en efectivo agencia Centro", "&c;" if "ENTITY c" in doctype else "&secret;")
    assert refusal("x.xml", hostile) == ("the XML declares a DOCTYPE: a CAMT.053 statement has none", 0, None)


def test_camt053_with_the_001_08_names_reads_the_same():
    camt = read("bac_2026_03_camt053.xml").replace(b"camt.053.001.02", b"camt.053.001.08").replace(
        b"<Sts>BOOK</Sts>", b"<Sts><Cd>BOOK</Cd></Sts>").replace(b"<Dbtr><Nm>Maya S.A.</Nm></Dbtr>",
                                                                  b"<Dbtr><Pty><Nm>Maya S.A.</Nm></Pty></Dbtr>")
    statement = parse("x.xml", camt)
    assert statement.lines[1].description == "Maya S.A. - Pago factura 000-001-01-00000045"
    assert [(line.date, line.amount) for line in statement.lines] == MONTH


def test_camt053_leaves_a_pending_entry_out():
    camt = read("bac_2026_03_camt053.xml").replace(b"<Sts>BOOK</Sts>", b"<Sts>PDNG</Sts>", 1)
    assert [line.line for line in parse("x.xml", camt).lines] == [2, 3, 4, 5, 6, 7]


def test_mt940_refusals_name_the_line_and_its_tag():
    sta = read("bac_2026_03.sta")
    refused = ("the :61: line is not a date, a D or C mark, an amount and a transaction type (e.g. 2603100310D85,00NTRF)",
               5, ":61:")
    assert refusal("x.sta", sta.replace(b":61:2603160316D2000,00", b":61:26XX160316D2000,00")) == refused
    # mt-940 alone passes over this one without a word (the lines would lose 85.00): refused before it reads
    assert refusal("x.sta", sta.replace(b"D85,00NPOS200111", b"D85,00/POS200111", 1)) == (refused[0], 3, ":61:")
    assert refusal("x.sta", sta.replace(b":60F:C260228HNL10000,00", b":60F:C260228HNL,")) == (
        "the balance :60F: is not a D or C mark, a date, a currency and an amount (e.g. C260228HNL10000,00)", 0,
        ":60F:")
    assert refusal("x.sta", sta.replace(b":61:2603160316D", b":61:2602300230D")) == (
        "the date 260230 is not a day of the calendar", 5, ":61:")
    assert refusal("x.sta", sta.replace(b":61:2603160316D2000,00", b":61:2603160316D2,,0")) == (
        "the MT940 file has a date or an amount that cannot be read", 0, None)


# ---- the balance check

def test_lines_that_do_not_add_up_to_the_closing_balance_are_refused_naming_the_difference():
    camt = read("bac_2026_03_camt053.xml").replace(b"16857.50</Amt>\n        <CdtDbtInd>CRDT</CdtDbtInd>\n"
                                                    b"        <Dt><Dt>2026-03-31", b"16900.00</Amt>\n        "
                                                    b"<CdtDbtInd>CRDT</CdtDbtInd>\n        <Dt><Dt>2026-03-31")
    statement = parse("x.xml", camt)
    assert statement.closing_balance == D("16900.00")
    with pytest.raises(StatementInvalid) as refused:
        check_balances(statement)
    # 10,000.00 + 9,200.00 - 2,342.50 = 16,857.50; the file says 16,900.00: 42.50 apart
    assert refused.value.message == ("the opening balance 10,000.00 and the lines add up to 16,857.50 but the closing "
                                     "balance is 16,900.00: a difference of 42.50")
    assert messages.phrase(refused.value.message) == (
        "el saldo inicial 10,000.00 y las líneas suman 16,857.50, pero el saldo final es 16,900.00: una diferencia de "
        "42.50")


def test_a_statement_without_both_balances_has_nothing_to_check():
    statement = _csv(["Fecha,Detalle,Monto", "02/03/2026,A,1.00"])
    check_balances(statement)  # no balance column: no opening, no closing


# ---- detection

@pytest.mark.parametrize("name", FILES)
def test_the_format_is_told_by_the_content_whatever_the_name(name):
    assert detect("descarga.txt", read(name)) == FILES[name][0]


def test_without_a_telling_content_the_extension_then_csv():
    assert detect("extracto.OFX", b"nothing telling") == "ofx"
    assert detect("extracto.xml", b"<x/>") == "camt053"
    assert detect("extracto.sta", b"") == "mt940"
    assert detect("extracto", b"Fecha,Monto") == "csv"
    assert detect("extracto.csv", b"<OFX>\n<BANKMSGSRSV1>") == "ofx"  # the content wins over the name


def test_an_ofx_without_its_header_lines_is_read_as_ofx_1():
    ofx = read("bac_2026_03_v102.ofx")
    body = ofx[ofx.index(b"<OFX>"):]
    assert [(line.date, line.amount) for line in parse("x", body).lines] == MONTH


# ---- line identities

def test_the_same_line_in_two_files_has_the_same_identity_two_alike_on_a_day_two():
    march = parsed("bac_2026_03.csv")
    # the same account's download of 10 to 31 March: the header block, the heading and lines 12 to 16 of March's
    text = read("bac_2026_03.csv").decode("cp1252").split("\r\n")
    overlapping = parse("bac_2026_03_b.csv", "\r\n".join(text[:9] + text[11:16]).encode("cp1252"), None, BAC_MAPPING)
    assert [line.line for line in overlapping.lines] == [10, 11, 12, 13, 14]  # its own line numbers
    assert identities(overlapping.lines) == identities(march.lines)[2:]
    coffees = identities(march.lines)[2:4]
    assert coffees[0] != coffees[1]  # two identical coffees on 10 March stay two lines
    # the XLSX download of the same month: date, amount, reference and balance alike, the same lines
    assert identities(parsed("bac_2026_03.xlsx").lines) == identities(march.lines)


def test_two_alike_lines_without_a_balance_differ_by_their_occurrence():
    statement = _csv(["Fecha,Detalle,Referencia,Monto", "10/03/2026,Cafe,200111,-85.00",
                      "10/03/2026,Cafe,200111,-85.00"], reference_column="Referencia")
    first, second = identities(statement.lines)
    assert first != second and first[:-1] == second[:-1] and (first[-1], second[-1]) == ("1", "2")
    mt940 = identities(parsed("bac_2026_03.sta").lines)  # MT940 has no bank id: the occurrence tells them apart
    assert mt940[2] != mt940[3]


def test_the_bank_id_is_the_identity_in_both_ofx_versions():
    assert identities(parsed("bac_2026_03_v102.ofx").lines) == identities(parsed("bac_2026_03_v220.ofx").lines)
    assert identities(parsed("bac_2026_03_v102.ofx").lines)[3] == ("ID", "BAC20260310000104")


# ---- what a reader refuses rather than guess (issue 42, review fixes)

def _sheet(header_rows: int, lines: int) -> bytes:
    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet()
    for number in range(header_rows):
        sheet.append([f"Cuenta {number}", "730123456"])
    sheet.append(["Fecha", "Detalle", "Monto"])
    for _ in range(lines):
        sheet.append(["02/03/2026", "Cafe", "1.00"])
    content = io.BytesIO()
    book.save(content)
    return content.getvalue()


def test_a_long_xlsx_is_read_whole_or_refused_never_cut_short():
    mapping = ColumnMapping("Fecha", "Detalle", amount_column="Monto", skip_rows=3)
    # 3 header rows + the heading + 20,000 lines: the header block does not count against the lines
    whole = parse("x.xlsx", _sheet(3, MAX_LINES), None, mapping)
    assert (len(whole.lines), whole.lines[-1].line) == (20_000, 20_004)  # rows 5..20,004
    # 20,001 lines (and 25,000): refused naming the limit, as the same CSV is, not 20,000 of them taken
    for lines in (MAX_LINES + 1, 25_000):
        assert refusal("x.xlsx", _sheet(3, lines), mapping) == (
            "the statement has more than 20000 lines: split it into files of at most 20000 lines", 0, None)


@pytest.mark.parametrize(("written", "amount"), [
    ("85.00 DR", "-85.00"), ("85.00DR", "-85.00"), ("DR 85.00", "-85.00"), ("100.00 CR", "100.00"),
    ("85.00 D", "-85.00"), ("100.00 C", "100.00"), ("L 85.00 dr", "-85.00"), ("85.00 HNL", "85.00"),
    ("US$ 85.00", "85.00"), ("₡1,000.00", "1000.00")])
def test_a_dr_or_cr_mark_signs_the_amount_a_currency_around_it_is_left_out(written, amount):
    # DR: a debit of the account, money out (negative); CR: money in
    assert _csv(["Fecha;Detalle;Monto", f"02/03/2026;Pago;{written}"], delimiter=";").lines[0].amount == D(amount)


@pytest.mark.parametrize("written", ["1x2y3", "1e400", "12abc34", "USD1,5X00", "85.00 debito", "-85.00 CR",
                                     "DR 85.00 CR", "85 L 00"])
def test_letters_inside_an_amount_are_refused_not_dropped(written):
    # before: 1x2y3 read 123.00, 1e400 1,400.00, -85.00 CR -85.00
    assert refusal("x.csv", f"Fecha;Detalle;Monto\n02/03/2026;Pago;{written}\n",
                   ColumnMapping("Fecha", "Detalle", amount_column="Monto", delimiter=";")) == (
        f"the amount {written} is not a number written 1,234.56", 2, "Monto")


def test_a_mark_contradicting_its_debit_or_credit_column_is_refused():
    mapping = ColumnMapping("Fecha", "Detalle", debit_column="Debito", credit_column="Credito")
    both = _csv(["Fecha,Detalle,Debito,Credito", "02/03/2026,Cafe,85.00 DR,", "03/03/2026,Deposito,,100.00 CR"],
                amount_column=None, debit_column="Debito", credit_column="Credito")
    assert [line.amount for line in both.lines] == [D("-85.00"), D("100.00")]
    assert refusal("x.csv", "Fecha,Detalle,Debito,Credito\n02/03/2026,Cafe,85.00 CR,\n", mapping) == (
        "the amount 85.00 CR is marked CR, money in, in the debit column", 2, "Debito")
    assert refusal("x.csv", "Fecha,Detalle,Debito,Credito\n02/03/2026,Cafe,,85.00 DR\n", mapping) == (
        "the amount 85.00 DR is marked DR, money out, in the credit column", 2, "Credito")


def test_an_amount_past_the_money_limit_is_refused_in_every_format():
    # MAX_AMOUNT is 999,999,999,999.99: one cent more is refused, naming the line and its column
    mapping = ColumnMapping("Fecha", "Detalle", amount_column="Monto", balance_column="Saldo")
    huge = "1" + "0" * 40 + ".00"  # past Decimal's 28 digits: quantizing it raised InvalidOperation (a 500)
    for written in ("1000000000000.00", huge):
        assert refusal("x.csv", f"Fecha,Detalle,Monto,Saldo\n02/03/2026,Pago,{written},1.00\n", mapping) == (
            f"the amount {written} is past the largest amount 999,999,999,999.99", 2, "Monto")
    assert refusal("x.csv", "Fecha,Detalle,Monto,Saldo\n02/03/2026,Pago,1.00,1000000000000.00\n", mapping) == (
        "the amount 1000000000000.00 is past the largest amount 999,999,999,999.99", 2, "Saldo")
    assert parse("x.csv", b"Fecha,Detalle,Monto\n02/03/2026,Pago,999999999999.99\n", None,
                 replace(mapping, balance_column=None)).lines[0].amount == D("999999999999.99")
    ofx = read("bac_2026_03_v102.ofx")
    for written in (b"1E400", b"99999999999999999999998755.75", huge.encode()):
        assert refusal("x.ofx", ofx.replace(b"<TRNAMT>-85.00", b"<TRNAMT>" + written, 1))[1:] == (3, "TRNAMT")
    assert refusal("x.ofx", ofx.replace(b"<BALAMT>16857.50", b"<BALAMT>1E400"))[1:] == (0, "BALAMT")
    # every line within the limit, the opening balance OFX works out from them past it: refused too
    # (the month nets 9,200.00 - 2,342.50 = +6,857.50: closing -999,999,999,999.99 - 6,857.50 = -1,000,000,006,857.49)
    assert refusal("x.ofx", ofx.replace(b"<BALAMT>16857.50", b"<BALAMT>-999999999999.99")) == (
        "the opening balance -1,000,000,006,857.49 is past the largest amount 999,999,999,999.99", 0, None)
    camt = read("bac_2026_03_camt053.xml")
    assert refusal("x.xml", camt.replace(b">85.00<", b">1E400<", 1))[1:] == (3, "Amt")
    mt940 = read("bac_2026_03.sta")
    assert refusal("x.sta", mt940.replace(b"D85,00", b"D9999999999999,", 1))[1:] == (3, ":61:")


@pytest.mark.parametrize(("name", "format"), [
    ("bac_2026_03.csv", "ofx"), ("bac_2026_03.csv", "camt053"), ("bac_2026_03_v102.ofx", "mt940"),
    ("bac_2026_03.csv", "xlsx"), ("bac_2026_03.xlsx", "csv"), ("bac_2026_03.xlsx", "ofx"),
    ("bac_2026_03.sta", "ofx"), ("bac_2026_03_camt053.xml", "mt940")])
def test_a_format_forced_on_another_formats_file_is_refused_not_a_fault(name, format):
    assert refusal(name, read(name), BAC_MAPPING, format)[1] == 0


def test_text_that_is_no_ofx_is_refused_naming_the_file():
    # "abc" holds no tag: the parser found nothing and its root was None (an AttributeError, a 500)
    assert refusal("x.ofx", b"abc") == ("the OFX file cannot be read: it holds no OFX tags", 0, None)
    assert refusal("x.csv", b"abc", format="ofx") == ("the OFX file cannot be read: it holds no OFX tags", 0, None)
