"""Bank statements imported into a bank account (issue 42): each format's file through the API with
its figures by hand, re-imports and overlapping files that add only their new lines, refusals that
store nothing, the CSV/XLSX mapping and its preview, lines listed by status, isolation, roles, the
statement.imported event, a concurrent double import and an import broken half-way."""
from __future__ import annotations

import base64
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from pathlib import Path

import pytest

from chalicelib.domain import statement_formats
from chalicelib.domain.bank_statements import StatementInvalid
from chalicelib.services.statements import imports
from tests.documents_support import outbox_payloads
from tests.support import ORIGIN, RACES
from tests.test_reconciliations import bank_account, opened_books
from tests.users_support import member, scan

D = Decimal

# A BAC-style download: cp1252, an account header block (3 rows before the headings), DD/MM/YYYY,
# separate debit and credit columns, a running balance and no line id.
BAC_MAPPING = {"encoding": "cp1252", "delimiter": ",", "skipRows": 3, "dateColumn": "Fecha",
               "dateFormat": "DD/MM/YYYY", "descriptionColumn": "Descripción", "referenceColumn": "Referencia",
               "debitColumn": "Débito", "creditColumn": "Crédito", "balanceColumn": "Saldo"}
BAC_HEAD = ("BANCO DE AMERICA CENTRAL HONDURAS\r\nCuenta:,200012345\r\nMoneda:,HNL\r\n"
            "Fecha,Descripción,Referencia,Débito,Crédito,Saldo\r\n")
BAC_ROWS = ("01/11/2026,Depósito cliente Ñandú S. de R.L.,DEP001,,1500.00,2500.00\r\n"
            "03/11/2026,Comisión por manejo de cuenta,,25.00,,2475.00\r\n"
            "03/11/2026,Pago proveedor Café Lenca,CHQ017,412.50,,2062.50\r\n"
            "05/11/2026,Depósito en efectivo,DEP002,,300.00,2362.50\r\n")
NOVEMBER_OFX = """OFXHEADER:100
DATA:OFXSGML
VERSION:102
SECURITY:NONE
ENCODING:USASCII
CHARSET:1252
COMPRESSION:NONE
OLDFILEUID:NONE
NEWFILEUID:NONE

<OFX>
<SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20261130120000<LANGUAGE>SPA</SONRS>
</SIGNONMSGSRSV1>
<BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS>
<STMTRS><CURDEF>{currency}
<BANKACCTFROM><BANKID>BACHN<ACCTID>200012345<ACCTTYPE>CHECKING</BANKACCTFROM>
<BANKTRANLIST><DTSTART>20261101<DTEND>20261130
<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20261102<TRNAMT>1500.00<FITID>N-0001<NAME>Deposito Inversiones Maya</STMTTRN>
<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261110<TRNAMT>-230.75<FITID>N-0002<NAME>Pago ENEE</STMTTRN>
<STMTTRN><TRNTYPE>FEE<DTPOSTED>20261130<TRNAMT>-25.00<FITID>N-0003<NAME>Comision</STMTTRN>
</BANKTRANLIST>
<LEDGERBAL><BALAMT>{closing}<DTASOF>20261130</LEDGERBAL>
</STMTRS></STMTTRNRS></BANKMSGSRSV1>
</OFX>
"""


NOVEMBER_MT940 = """:20:STARTUMS
:25:BACHN/200012345
:28C:00001/001
:60F:C261031HNL1000,00
:61:2611021102C1500,00NTRFNONREF//DEP001
:86:Deposito Inversiones Maya
:61:2611101110D230,75NCHKNONREF
:86:Pago ENEE
:62F:C261130HNL{closing}
-
"""


def november_mt940(closing: str = "2269,25") -> bytes:
    return NOVEMBER_MT940.format(closing=closing).replace("\n", "\r\n").encode("ascii")


def b64(content: bytes) -> str:
    return base64.b64encode(content).decode()


def bac_csv(rows: str = BAC_ROWS) -> bytes:
    return (BAC_HEAD + rows).encode("cp1252")


def november_ofx(closing: str = "1244.25", currency: str = "HNL") -> bytes:
    return NOVEMBER_OFX.format(closing=closing, currency=currency).encode("ascii")


def formats_ready() -> bool:
    try:
        statement_formats.parse("x.ofx", november_ofx(), "ofx")
    except StatementInvalid as problem:
        return problem.message != "not implemented yet"
    return True




@pytest.fixture
def books(api, company_a):
    return opened_books(api, company_a)


@pytest.fixture
def account(books) -> dict:
    return bank_account(books, opening="1000.00")


def statements_path(account_id: int) -> str:
    return f"/bank-accounts/{account_id}/statements"


def upload(books, account_id: int, content: bytes, file_name: str = "noviembre.csv", expect: int | None = 201,
           **fields):
    reply = books.api.post(statements_path(account_id), {"fileName": file_name, "content": b64(content), **fields},
                           key=books.key)
    if expect is not None:
        assert reply.status == expect, reply.text
    return reply


def save_mapping(books, account_id: int, mapping: dict | None = None, expect: int = 200):
    reply = books.api.put(f"/bank-accounts/{account_id}/statement-mapping", mapping or BAC_MAPPING, key=books.key)
    assert reply.status == expect, reply.text
    return reply.json


def lines_of(books, account_id: int, query: str = "limit=100") -> dict:
    reply = books.api.get(f"/bank-accounts/{account_id}/statement-lines?{query}", key=books.key)
    assert reply.status == 200, reply.text
    return reply.json


def stored_statement_items(table) -> list[dict]:
    return [item for item in scan(table)
            if any(f"#{kind}" in item["PK"] for kind in ("BANKSTMT", "BANKLINE"))]


# --- each format ----------------------------------------------------------------------------------

def test_a_bac_csv_imports_with_the_saved_mapping(books, account):
    save_mapping(books, account["id"])
    statement = upload(books, account["id"], bac_csv()).json
    assert (statement["format"], statement["linesImported"], statement["linesSkipped"]) == ("csv", 4, 0)
    assert (statement["periodStart"], statement["periodEnd"]) == ("2026-11-01", "2026-11-05")
    assert statement["currency"] == "HNL" and statement["status"] == "imported"
    listed = lines_of(books, account["id"])
    # by date: +1500.00 (credit), -25.00 and -412.50 (debits), +300.00 (credit)
    assert [(line["date"], D(str(line["amount"]))) for line in listed["statementLines"]] == [
        ("2026-11-01", D("1500.00")), ("2026-11-03", D("-25.00")), ("2026-11-03", D("-412.50")),
        ("2026-11-05", D("300.00"))]
    # money in 1500.00 + 300.00 = 1800.00, out 25.00 + 412.50 = 437.50: 1800.00 - 437.50 = 1362.50,
    # the running balance's move from 1000.00 before the first line (2500.00 - 1500.00) to 2362.50
    assert sum(D(str(line["amount"])) for line in listed["statementLines"]) == D("1362.50") == D("2362.50") - D("1000")
    first = listed["statementLines"][0]
    assert (first["description"], first["reference"], D(str(first["balance"])), first["status"]) == (
        "Depósito cliente Ñandú S. de R.L.", "DEP001", D("2500.00"), "unmatched")
    assert first["suggestions"] == [] and first["statementId"] == statement["id"]


def test_an_ofx_statement_imports_with_its_balances(books, account):
    # the file states its closing balance only (LEDGERBAL): nothing to add up from
    statement = upload(books, account["id"], november_ofx(), "noviembre.ofx").json
    assert (statement["format"], statement["linesImported"]) == ("ofx", 3)
    assert (statement["periodStart"], statement["periodEnd"]) == ("2026-11-01", "2026-11-30")
    assert D(str(statement["closingBalance"])) == D("1244.25")
    amounts = [D(str(line["amount"])) for line in lines_of(books, account["id"])["statementLines"]]
    assert amounts == [D("1500.00"), D("-230.75"), D("-25.00")]


def test_an_mt940_statement_adds_up_from_its_opening_to_its_closing_balance(books, account):
    statement = upload(books, account["id"], november_mt940(), "noviembre.sta").json
    # 1000.00 + 1500.00 - 230.75 = 2269.25
    assert (statement["format"], statement["linesImported"]) == ("mt940", 2)
    assert (D(str(statement["openingBalance"])), D(str(statement["closingBalance"]))) == (D("1000.00"), D("2269.25"))
    assert (statement["periodStart"], statement["periodEnd"]) == ("2026-11-02", "2026-11-10")


# --- the same lines twice -------------------------------------------------------------------------

def test_a_reimport_adds_nothing_and_an_overlapping_file_only_its_new_lines(books, account):
    save_mapping(books, account["id"])
    upload(books, account["id"], bac_csv())
    again = upload(books, account["id"], bac_csv()).json
    assert (again["linesImported"], again["linesSkipped"]) == (0, 4)
    # the last two lines again, and two new ones after them
    overlapping = ("03/11/2026,Pago proveedor Café Lenca,CHQ017,412.50,,2062.50\r\n"
                   "05/11/2026,Depósito en efectivo,DEP002,,300.00,2362.50\r\n"
                   "06/11/2026,Transferencia recibida,TRF900,,1000.00,3362.50\r\n"
                   "07/11/2026,Cargo por chequera,,150.00,,3212.50\r\n")
    later = upload(books, account["id"], bac_csv(overlapping), "semana2.csv").json
    assert (later["linesImported"], later["linesSkipped"]) == (2, 2)
    listed = lines_of(books, account["id"])
    assert listed["total"] == 4 + 2 == len(listed["statementLines"])
    statements = books.api.get(statements_path(account["id"]), key=books.key).json
    # newest first: the overlapping file, the re-import (0 lines), the first import
    assert [s["linesImported"] for s in statements["statements"]] == [2, 0, 4] and statements["total"] == 3


def test_two_identical_lines_on_one_day_both_land_once(books, account):
    save_mapping(books, account["id"], {**BAC_MAPPING, "balanceColumn": None})
    rows = ("04/11/2026,Café,,12.50,,\r\n04/11/2026,Café,,12.50,,\r\n")
    first = upload(books, account["id"], bac_csv(rows)).json
    assert first["linesImported"] == 2
    assert upload(books, account["id"], bac_csv(rows)).json["linesImported"] == 0
    # the same day with a third coffee: only the third is new
    third = upload(books, account["id"], bac_csv(rows + "04/11/2026,Café,,12.50,,\r\n")).json
    assert (third["linesImported"], third["linesSkipped"]) == (1, 2)
    assert lines_of(books, account["id"])["total"] == 3


# --- refusals -------------------------------------------------------------------------------------

def test_refused_files_store_nothing(books, account, table):
    before = stored_statement_items(table)
    bad = books.api.post(statements_path(account["id"]), {"fileName": "x.ofx", "content": "@@@@"}, key=books.key)
    assert (bad.status, bad.json["code"]) == (400, "VALIDATION_ERROR")
    # a CSV without a saved mapping: the details name `mapping`
    unmapped = upload(books, account["id"], bac_csv(), expect=400, format="csv").json
    assert unmapped["details"][0]["field"] == "mapping"
    # 4 MB + 1 byte decoded: 413
    big = upload(books, account["id"], b"x" * (4 * 1024 * 1024 + 1), expect=413, format="csv").json
    assert big["code"] == "PAYLOAD_TOO_LARGE"
    assert stored_statement_items(table) == before


def test_files_in_another_currency_unbalanced_or_malformed_are_refused_and_store_nothing(books, account, table):
    save_mapping(books, account["id"])
    before = stored_statement_items(table)
    dollars = upload(books, account["id"], november_ofx(currency="USD"), "usd.ofx", expect=400).json
    assert dollars["code"] == "STATEMENT_CURRENCY_MISMATCH"
    # opening 1000.00 + 1500.00 - 230.75 = 2269.25, the file says 2269.00: 0.25 apart
    unbalanced = upload(books, account["id"], november_mt940(closing="2269,00"), "x.sta", expect=400).json
    assert unbalanced["code"] == "STATEMENT_INVALID"
    # row 6 of the file (3 header rows, the headings, then the 2nd line) has a date that is none
    malformed = bac_csv(BAC_ROWS.replace("03/11/2026,Comisión", "31/02/2026,Comisión"))
    reply = upload(books, account["id"], malformed, expect=400)
    assert reply.json["code"] == "STATEMENT_INVALID"
    detail = reply.json["details"][0]
    assert (detail["field"], detail["line"]) == ("content", 6) and detail["column"]
    spanish = books.api.post(statements_path(account["id"]), {"fileName": "x.csv", "content": b64(malformed)},
                             key=books.key, headers={"Accept-Language": "es"})
    assert spanish.json["message"].startswith("El estado de cuenta no se puede importar")
    assert stored_statement_items(table) == before


# --- mapping and preview --------------------------------------------------------------------------

def test_the_mapping_round_trips_and_is_checked(books, account):
    path = f"/bank-accounts/{account['id']}/statement-mapping"
    assert books.api.get(path, key=books.key).status == 404
    saved = save_mapping(books, account["id"])
    assert books.api.get(path, key=books.key).json == saved
    assert (saved["debitColumn"], saved["creditColumn"], saved["skipRows"], saved["version"]) == (
        "Débito", "Crédito", 3, 1)
    both = books.api.put(path, {**BAC_MAPPING, "amountColumn": "Monto"}, key=books.key)
    neither = books.api.put(path, {**BAC_MAPPING, "debitColumn": None}, key=books.key)
    odd_date = books.api.put(path, {**BAC_MAPPING, "dateFormat": "DD de MMMM"}, key=books.key)
    assert [r.status for r in (both, neither, odd_date)] == [400, 400, 400]
    assert both.json["details"][0]["field"] == "amountColumn"
    signed = save_mapping(books, account["id"], {"dateColumn": "Fecha", "descriptionColumn": "Concepto",
                                                 "amountColumn": "Monto"})
    assert (signed["amountColumn"], signed["debitColumn"], signed["version"]) == ("Monto", None, 2)


def test_the_preview_reads_the_file_and_stores_nothing(books, account, table):
    path = f"/bank-accounts/{account['id']}/statement-mapping/preview"
    before = stored_statement_items(table)
    rows = "".join(f"{day:02d}/11/2026,Depósito {day},D{day},,{day}.00,\r\n" for day in range(1, 26))
    reply = books.api.post(path, {"fileName": "x.csv", "content": b64(bac_csv(rows)),
                                  "mapping": {**BAC_MAPPING, "balanceColumn": None}}, key=books.key)
    assert reply.status == 200, reply.text
    preview = reply.json
    # 25 lines in the file, the first 20 answered: the 20th is 20/11 for 20.00, on the file's row 3 + 1 + 20 = 24
    assert (preview["format"], preview["lineCount"], len(preview["lines"])) == ("csv", 25, 20)
    assert (preview["lines"][19]["date"], D(str(preview["lines"][19]["amount"])), preview["lines"][19]["line"]) == (
        "2026-11-20", D("20.00"), 24)
    assert stored_statement_items(table) == before
    # without a mapping sent nor saved: 400 naming it
    unmapped = books.api.post(path, {"fileName": "x.csv", "content": b64(bac_csv(rows)), "format": "csv"},
                              key=books.key)
    assert (unmapped.status, unmapped.json["details"][0]["field"]) == (400, "mapping")


# --- lines by status, paging ----------------------------------------------------------------------

def test_lines_are_listed_by_status_and_paged(books, account, table):
    save_mapping(books, account["id"], {**BAC_MAPPING, "balanceColumn": None})
    rows = "".join(f"{day:02d}/11/2026,Depósito {day},D{day},,{day}.00,\r\n" for day in range(1, 8))
    statement = upload(books, account["id"], bac_csv(rows)).json
    first = lines_of(books, account["id"], "status=unmatched&limit=3")
    assert (first["total"], len(first["statementLines"]), first["nextCursor"] is not None) == (7, 3, True)
    second = lines_of(books, account["id"], "status=unmatched&limit=3&page=2")
    assert [line["date"] for line in second["statementLines"]] == ["2026-11-04", "2026-11-05", "2026-11-06"]
    by_cursor = lines_of(books, account["id"], f"status=unmatched&limit=3&cursor={first['nextCursor']}")
    assert by_cursor["statementLines"] == second["statementLines"]
    assert lines_of(books, account["id"], "status=matched")["total"] == 0
    of_statement = lines_of(books, account["id"], f"statementId={statement['id']}&limit=2")
    assert (of_statement["total"], len(of_statement["statementLines"])) == (7, 2)
    assert lines_of(books, account["id"], f"statementId={statement['id'] + 1}")["total"] == 0
    one = first["statementLines"][0]
    reply = books.api.get(f"/bank-accounts/{account['id']}/statement-lines/{one['id']}", key=books.key)
    assert reply.status == 200 and reply.json["id"] == one["id"] and reply.json["suggestions"] == []


# --- isolation, roles, the event ------------------------------------------------------------------

def test_another_companys_account_statement_and_line_answer_404(api, books, account, company_b):
    statement = upload(books, account["id"], november_ofx(), "n.ofx").json
    line = lines_of(books, account["id"])["statementLines"][0]
    other = company_b.api_key
    base = f"/bank-accounts/{account['id']}"
    for path in (f"{base}/statements", f"{base}/statements/{statement['id']}", f"{base}/statement-lines",
                 f"{base}/statement-lines/{line['id']}", f"{base}/statement-mapping"):
        assert api.get(path, key=other).status == 404, path
    reply = api.post(f"{base}/statements", {"fileName": "n.ofx", "content": b64(november_ofx())}, key=other)
    assert reply.status == 404
    assert books.api.get(f"{base}/statements/{statement['id'] + 1}", key=books.key).status == 404


def test_a_viewer_reads_but_cannot_import(api, table, books, account, company_a):
    _, session = member(api, table, company_a, "viewer@alpha.example", "viewer")
    refused = api.post(statements_path(account["id"]), {"fileName": "n.ofx", "content": b64(november_ofx())},
                       cookie=session, origin=ORIGIN)
    assert (refused.status, refused.json["code"]) == (403, "PERMISSION_DENIED")
    assert api.get(f"/bank-accounts/{account['id']}/statement-lines", cookie=session).status == 200


def test_the_import_announces_statement_imported(books, account, table, company_a):
    statement = upload(books, account["id"], november_ofx(), "n.ofx").json
    events = [p for p in outbox_payloads(table, company_a.company_id) if p["event"] == "statement.imported"]
    assert len(events) == 1
    assert (events[0]["resourceId"], events[0]["data"]["linesImported"]) == (statement["id"], 3)


# --- races and crashes ----------------------------------------------------------------------------

@RACES
def test_a_concurrent_double_import_lands_each_line_once(books, account):
    rows = "".join(f"{day:02d}/11/2026,Depósito {day},D{day},,{day}.00,\r\n" for day in range(1, 29))
    rows += "".join(f"28/11/2026,Pago {n},P{n},{n}.00,,\r\n" for n in range(1, 73))  # 100 lines: 3 chunks
    save_mapping(books, account["id"], {**BAC_MAPPING, "balanceColumn": None})
    with ThreadPoolExecutor(2) as pool:
        replies = list(pool.map(lambda _: upload(books, account["id"], bac_csv(rows), expect=None), range(2)))
    assert [r.status for r in replies] == [201, 201], [r.text for r in replies]
    assert sum(r.json["linesImported"] for r in replies) == 100
    assert sum(r.json["linesSkipped"] for r in replies) == 100
    listed = lines_of(books, account["id"], "status=unmatched&limit=100")
    assert listed["total"] == 100 == len({line["id"] for line in listed["statementLines"]})
    assert lines_of(books, account["id"], "limit=1")["total"] == 100


def test_an_import_broken_half_way_lands_the_rest_when_imported_again(books, account, monkeypatch):
    rows = "".join(f"{n % 28 + 1:02d}/11/2026,Pago {n},P{n},{n}.00,,\r\n" for n in range(1, 101))
    save_mapping(books, account["id"], {**BAC_MAPPING, "balanceColumn": None})
    stored, real = [], imports._store_chunk

    def crash_after_the_first_chunk(*args, **kwargs):
        if stored:
            raise RuntimeError("the Lambda died")
        stored.append(real(*args, **kwargs))
        return stored[-1]

    monkeypatch.setattr(imports, "_store_chunk", crash_after_the_first_chunk)
    assert upload(books, account["id"], bac_csv(rows), expect=None).status == 500
    monkeypatch.setattr(imports, "_store_chunk", real)
    # the first chunk of 48 lines landed; the second import lands the other 100 - 48 = 52
    again = upload(books, account["id"], bac_csv(rows)).json
    assert (again["linesImported"], again["linesSkipped"]) == (52, 48)
    assert lines_of(books, account["id"], "limit=1")["total"] == 100
    broken = books.api.get(statements_path(account["id"]), key=books.key).json["statements"][-1]
    assert (broken["status"], broken["linesImported"]) == ("importing", 48)


# --- the formats' fixtures: one month of a BAC account (tests/fixtures/bank_statements/README.md) -----

FIXTURES = Path(__file__).parent / "fixtures" / "bank_statements"
FIXTURE_MAPPINGS = {
    "bac_2026_03.csv": {"encoding": "cp1252", "skipRows": 8, "dateColumn": "Fecha", "dateFormat": "DD/MM/YYYY",
                        "descriptionColumn": "Descripción", "referenceColumn": "Referencia", "debitColumn": "Débito",
                        "creditColumn": "Crédito", "balanceColumn": "Saldo"},
    "bac_2026_03.xlsx": {"skipRows": 3, "dateColumn": "Fecha", "dateFormat": "DD/MM/YYYY",
                         "descriptionColumn": "Descripción", "referenceColumn": "Referencia", "amountColumn": "Monto",
                         "balanceColumn": "Saldo"},
}


@pytest.mark.parametrize("file_name, format", [
    ("bac_2026_03.csv", "csv"), ("bac_2026_03.xlsx", "xlsx"), ("bac_2026_03_v102.ofx", "ofx"),
    ("bac_2026_03_v220.ofx", "ofx"), ("bac_2026_03_camt053.xml", "camt053"), ("bac_2026_03.sta", "mt940")])
def test_each_formats_month_imports_through_the_api_and_once(books, account, file_name, format):
    if file_name in FIXTURE_MAPPINGS:
        save_mapping(books, account["id"], FIXTURE_MAPPINGS[file_name])
    content = (FIXTURES / file_name).read_bytes()
    statement = upload(books, account["id"], content, file_name).json
    assert (statement["format"], statement["linesImported"], statement["linesSkipped"]) == (format, 7, 0)
    assert statement["periodEnd"] == "2026-03-31" and statement["periodStart"] <= "2026-03-02"
    amounts = [D(str(line["amount"])) for line in lines_of(books, account["id"])["statementLines"]]
    # in: 5,750.00 + 3,450.00 = 9,200.00; out: 85.00 + 85.00 + 2,000.00 + 150.00 + 22.50 = 2,342.50
    assert sum(a for a in amounts if a > 0) == D("9200.00") and sum(a for a in amounts if a < 0) == D("-2342.50")
    assert amounts.count(D("-85.00")) == 2  # the two coffees of 10/03: two lines
    if statement["closingBalance"] is not None:  # 10,000.00 + 9,200.00 - 2,342.50 = 16,857.50
        assert D(str(statement["closingBalance"])) == D("16857.50")
    if statement["openingBalance"] is not None:
        assert D(str(statement["openingBalance"])) == D("10000.00")
    again = upload(books, account["id"], content, file_name).json
    assert (again["linesImported"], again["linesSkipped"]) == (0, 7)


def test_lines_put_by_the_tests_support_are_counted_as_imported_ones(books, account, table, company_a):
    from tests.statement_lines_support import put_lines

    put_lines(table, company_a.company_id, account["id"], [("2026-11-02", "150.00", "Depósito", None),
                                                           ("2026-11-03", "-20.00", "Comisión", None)])
    listed = lines_of(books, account["id"], "status=unmatched")
    assert (listed["total"], [D(str(line["amount"])) for line in listed["statementLines"]]) == (
        2, [D("150.00"), D("-20.00")])


def test_a_change_of_status_moves_the_line_between_the_counts(books, account, table, company_a):
    """What a match, an unmatch or an ignore does in its transaction (lines.count_status_change)."""
    from chalicelib.services.statements import lines as statement_lines
    from chalicelib.store import keys
    from chalicelib.store.transaction import Transaction
    from tests.statement_lines_support import put_lines

    ids = put_lines(table, company_a.company_id, account["id"], [("2026-11-02", "150.00", "Depósito", None),
                                                                 ("2026-11-03", "-20.00", "Comisión", None)])
    line = statement_lines.get_line(table, company_a.company_id, account["id"], ids[1])
    transaction = Transaction(table)
    transaction.set_fields(keys.statement_line(company_a.company_id, account["id"], ids[1]), {
        "status": "ignored", **keys.statement_line_index(company_a.company_id, account["id"], "ignored", line["date"],
                                                         ids[1])})
    statement_lines.count_status_change(transaction, company_a.company_id, line, "ignored")
    transaction.commit()
    totals = {status: lines_of(books, account["id"], f"status={status}")["total"]
              for status in ("unmatched", "matched", "ignored")}
    # 2 lines: 1 left unmatched, 1 ignored; all of them still 2
    assert totals == {"unmatched": 1, "matched": 0, "ignored": 1} and lines_of(books, account["id"])["total"] == 2
    assert [item["id"] for item in lines_of(books, account["id"], "status=ignored&statementId=1")["statementLines"]] \
        == [ids[1]]


def test_a_file_repeating_a_banks_line_id_is_refused_naming_the_entry(books, account, table):
    # the OFX's second entry carries the first one's FITID
    content = november_ofx().replace(b"<FITID>N-0002", b"<FITID>N-0001")
    refusal = upload(books, account["id"], content, "n.ofx", expect=400).json
    assert (refusal["code"], refusal["details"][0]["line"], refusal["details"][0]["column"]) == (
        "STATEMENT_INVALID", 2, "FITID")
    assert stored_statement_items(table) == []


# --- what the readers refuse rather than guess (review fixes) -------------------------------------

@pytest.mark.parametrize("file_name, format", [
    ("bac_2026_03.csv", "camt053"), ("bac_2026_03_v102.ofx", "mt940"), ("bac_2026_03.csv", "xlsx"),
    ("bac_2026_03.xlsx", "csv"), ("bac_2026_03.csv", "ofx"), ("bac_2026_03.sta", "ofx")])
def test_a_format_forced_on_the_wrong_file_is_a_400_that_stores_nothing(books, account, table, file_name, format):
    save_mapping(books, account["id"], FIXTURE_MAPPINGS["bac_2026_03.csv"])
    before = stored_statement_items(table)
    reply = upload(books, account["id"], (FIXTURES / file_name).read_bytes(), file_name, expect=400, format=format)
    assert (reply.json["code"], reply.json["details"][0]["line"]) == ("STATEMENT_INVALID", 0)
    assert stored_statement_items(table) == before


def test_text_that_is_no_ofx_is_a_400_in_both_languages(books, account):
    reply = upload(books, account["id"], b"abc", "x.ofx", expect=400)  # before: a 500 (the parser's root was None)
    assert reply.json["details"][0]["line"] == 0
    spanish = books.api.post(statements_path(account["id"]), {"fileName": "x.csv", "content": b64(b"abc"),
                                                              "format": "ofx"},
                             key=books.key, headers={"Accept-Language": "es"})
    assert spanish.status == 400
    assert "no contiene etiquetas OFX" in spanish.json["details"][0]["message"], spanish.text


def test_huge_or_lettered_amounts_are_refused_naming_line_and_column(books, account, table):
    save_mapping(books, account["id"], {**BAC_MAPPING, "balanceColumn": None})
    before = stored_statement_items(table)
    # row 5: 3 header rows, the headings on row 4; each was a 500 (1e400, 41 digits) or read wrong (12abc34: 1,234.00)
    for written in ("1e400", "1" + "0" * 40 + ".00", "12abc34", "1000000000000.00"):
        reply = upload(books, account["id"], bac_csv(f"01/11/2026,Odd,R1,,{written},\r\n"), expect=400)
        detail = reply.json["details"][0]
        assert (detail["line"], detail["column"]) == (5, "Crédito"), reply.text
    # an OFX line of 99,999,999,999,999,999,999,998,755.75 was imported: now past MAX_AMOUNT, refused
    content = november_ofx(closing="99999999999999999999999999.00").replace(b"1500.00", b"99999999999999999999998755.75")
    detail = upload(books, account["id"], content, "n.ofx", expect=400).json["details"][0]
    assert (detail["line"], detail["column"]) == (1, "TRNAMT")
    ofx_exponent = upload(books, account["id"], november_ofx().replace(b"1500.00", b"1E400"), "n.ofx", expect=400)
    assert ofx_exponent.json["details"][0]["column"] == "TRNAMT"
    spanish = books.api.post(statements_path(account["id"]),
                             {"fileName": "x.csv", "content": b64(bac_csv("01/11/2026,Odd,R1,,1000000000000.00,\r\n"))},
                             key=books.key, headers={"Accept-Language": "es"})
    assert "supera el monto máximo 999,999,999,999.99" in spanish.json["details"][0]["message"], spanish.text
    assert stored_statement_items(table) == before


def test_a_dr_mark_is_money_out_through_the_preview(books, account):
    mapping = {"skipRows": 0, "dateColumn": "Fecha", "dateFormat": "DD/MM/YYYY", "descriptionColumn": "Descripcion",
               "amountColumn": "Monto"}
    csv = b"Fecha,Descripcion,Monto\n01/11/2026,Cheque 17,85.00 DR\n02/11/2026,Deposito,100.00 CR\n"
    reply = books.api.post(f"/bank-accounts/{account['id']}/statement-mapping/preview",
                           {"fileName": "x.csv", "content": b64(csv), "mapping": mapping}, key=books.key)
    assert reply.status == 200, reply.text
    # before: 85.00 DR read +85.00 (money in); DR is a debit of the account: -85.00
    assert [D(str(line["amount"])) for line in reply.json["lines"]] == [D("-85.00"), D("100.00")]
# --- a line too long for storage (review: the file refused half-way, half of it stored) ---------------

def _csv_of_60_lines(long_line: int, reference: str) -> bytes:
    rows, balance = [], 1000
    for number in range(1, 61):
        balance += 1   # each line brings 1.00: balance 1001.00 after the first ... 1060.00 after the last
        rows.append(f"05/11/2026,Linea {number},{reference if number == long_line else f'R{number}'},,1.00,"
                    f"{balance}.00\r\n")
    return bac_csv("".join(rows))


def test_a_line_with_an_overlong_reference_is_refused_before_anything_is_stored(books, account, table):
    save_mapping(books, account["id"])
    before = stored_statement_items(table)
    # line 55 of the file's lines sits on row 59: 3 header rows and the headings before it; the first 48
    # lines (one transaction's worth) come before it, and none of them may be stored
    reply = upload(books, account["id"], _csv_of_60_lines(55, "X" * 1100), expect=400)
    assert reply.json["code"] == "STATEMENT_INVALID"
    detail = reply.json["details"][0]
    assert (detail["field"], detail["line"], detail["column"]) == ("content", 59, "Referencia")
    assert detail["message"] == "the reference has more than 200 characters"
    assert stored_statement_items(table) == before
    assert books.api.get(statements_path(account["id"]), key=books.key).json["statements"] == []
    spanish = books.api.post(statements_path(account["id"]),
                             {"fileName": "x.csv", "content": b64(_csv_of_60_lines(55, "X" * 1100))},
                             key=books.key, headers={"Accept-Language": "es"}).json
    assert spanish["details"][0]["message"] == "la referencia tiene más de 200 caracteres"


def test_a_long_reference_within_its_limit_imports_under_an_identity_of_bounded_size(books, account, table):
    save_mapping(books, account["id"])
    # 200 characters of reference (the limit), "Ñ" at 2 bytes each in UTF-8: 400 bytes of reference in the
    # identity's parts; the key is their SHA-256, 64 hexadecimal characters
    statement = upload(books, account["id"], _csv_of_60_lines(55, "Ñ" * 200)).json
    assert (statement["linesImported"], statement["linesSkipped"]) == (60, 0)
    identity_keys = [item["SK"] for item in scan(table) if "#BANKLINEKEY#" in item["PK"]]
    assert len(identity_keys) == 60 and {len(key) for key in identity_keys} == {64}
    # the same file again: every identity found, nothing added
    again = upload(books, account["id"], _csv_of_60_lines(55, "Ñ" * 200)).json
    assert (again["linesImported"], again["linesSkipped"]) == (0, 60)


def test_the_spanish_refusal_of_an_unknown_encoding_lists_the_choices_in_spanish(books, account):
    reply = books.api.put(f"/bank-accounts/{account['id']}/statement-mapping", {**BAC_MAPPING, "encoding": "ebcdic"},
                          key=books.key, headers={"Accept-Language": "es"})
    assert reply.status == 400
    assert reply.json["details"][0]["message"] == \
        "debe ser uno de: 'utf-8', 'utf-8-sig', 'cp1252', 'latin-1' o 'utf-16'"
    english = books.api.put(f"/bank-accounts/{account['id']}/statement-mapping", {**BAC_MAPPING, "encoding": "ebcdic"},
                            key=books.key).json
    assert english["details"][0]["message"].endswith("'latin-1' or 'utf-16'")
