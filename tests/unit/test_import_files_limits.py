"""What reading an imported file may cost, whatever the file holds (issue 41, limits and bad input):
a workbook that expands past 64 MB, a sheet of endless blank rows, a row too wide, a cell too long,
a flood of problems, and a company archive that expands past what a restore reads."""
from __future__ import annotations

import hashlib
import io
import json
import zipfile

import openpyxl
import pytest

from chalicelib.domain.import_files import (
    BLANK_ROWS_MARGIN,
    MAX_CELL_CHARS,
    MAX_CELLS,
    MAX_ERRORS,
    MAX_ROWS,
    MAX_WORKBOOK_BYTES,
    ImportFileInvalid,
    read_rows,
)
from chalicelib.domain.import_rows import Column, RowError
from chalicelib.messages import phrase
from chalicelib.services.imports import company_archive

COLUMNS = (Column("name", "Razón social", required=True, example="Uno"),
           Column("type", "Tipo", required=True, example="customer"))
SHEET = "xl/worksheets/sheet1.xml"
SHEET_START = (b'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/'
               b'spreadsheetml/2006/main"><sheetData>')
HEADING = b'<row r="1"><c r="A1" t="inlineStr"><is><t>name</t></is></c><c r="B1" t="inlineStr"><is><t>type</t></is></c></row>'


def workbook_with(sheet_xml: bytes, extra: dict[str, bytes] | None = None) -> bytes:
    """A workbook openpyxl wrote, its first sheet replaced by `sheet_xml` (and parts added)."""
    written = io.BytesIO()
    openpyxl.Workbook().save(written)
    out = io.BytesIO()
    with zipfile.ZipFile(written) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for name in source.namelist():
            target.writestr(name, sheet_xml if name == SHEET else source.read(name))
        for name, data in (extra or {}).items():
            target.writestr(name, data)
    return out.getvalue()


def test_a_workbook_expanding_past_64_mb_is_refused_before_it_is_read():
    # 64 MB = 67,108,864 bytes; a part of 65 MB of zeros compresses to ~65 KB: a 4 MB upload can hide it
    bomb = workbook_with(SHEET_START + HEADING + b"</sheetData></worksheet>",
                         {"xl/media/padding.bin": b"\0" * (65 * 1024 * 1024)})
    assert len(bomb) < 4 * 1024 * 1024 and MAX_WORKBOOK_BYTES == 64 * 1024 * 1024
    with pytest.raises(ImportFileInvalid) as refused:
        read_rows("b.xlsx", bomb, COLUMNS)
    assert refused.value.error == RowError(0, None, "the XLSX workbook expands to more than 64 MB: keep only the "
                                                    "sheet to import, or save it as CSV UTF-8")
    assert phrase(refused.value.error.message)


def test_blank_rows_count_toward_the_rows_a_sheet_may_have():
    # rows whose one cell is a space: blank, so not rows of data, but each read. The heading is row 1;
    # 20,000 + 1 + 1,000 = 21,001 rows are read; row 21,002 stops the reading
    assert (MAX_ROWS, BLANK_ROWS_MARGIN) == (20_000, 1_000)
    blank = b'<row><c t="inlineStr"><is><t> </t></is></c></row>'
    rows, errors = read_rows("b.xlsx", workbook_with(SHEET_START + HEADING + blank * 30_000 + b"</sheetData></worksheet>"),
                             COLUMNS)
    assert rows == []
    assert errors == [RowError(0, None, "the sheet has more than 21001 rows, blank ones counted: delete the rows below "
                                        "the data, or split it into files of at most 20000 rows")]
    assert phrase(errors[0].message)
    # 21,001 rows (the heading and 21,000 blank ones) are fine: nothing past them
    rows, errors = read_rows("b.xlsx", workbook_with(SHEET_START + HEADING + blank * 21_000 + b"</sheetData></worksheet>"),
                             COLUMNS)
    assert (rows, errors) == ([], [])


def test_a_row_past_200_cells_is_one_problem_not_one_a_cell():
    assert MAX_CELLS == 200
    wide = "Uno,customer" + ",x" * 248  # 250 cells: 248 under no heading, past column 200
    rows, errors = read_rows("f.csv", f"name,type\n{wide}\nDos,supplier\n".encode(), COLUMNS)
    assert [row.line for row in rows] == [2, 3]
    assert errors[0] == RowError(2, None, "the line has values past column 200: a table has at most 200 columns")
    assert len(errors) == 1 + 2  # and line 2's two required cells, read as none
    # a heading line that wide: the file
    rows, errors = read_rows("f.csv", ("name,type" + ",h" * 199 + "\n").encode(), COLUMNS)
    assert errors == [RowError(1, None, "the line has values past column 200: a table has at most 200 columns")]
    # 199 cells under no heading on one line: one problem for the line, naming the first (column 3)
    rows, errors = read_rows("f.csv", ("name,type\nUno,customer" + ",x" * 197 + "\n").encode(), COLUMNS)
    assert errors == [RowError(2, None, "a value in column 3 has no heading: name the column in the heading line or "
                                        "leave its cells blank")]


def test_a_cell_past_32767_characters_is_named_by_row_and_column():
    assert MAX_CELL_CHARS == 32_767
    rows, errors = read_rows("f.csv", b"name,type\n" + b"a" * 32_768 + b",customer\n" + b"a" * 32_767 + b",x\n",
                             COLUMNS)
    assert errors == [RowError(2, "name", "the cell in column 1 has more than 32767 characters"),
                      RowError(2, "name", "required: the cell is blank")]
    assert rows[1].values["name"] == "a" * 32_767  # Excel's own limit is taken
    assert phrase(errors[0].message)


def test_a_csv_field_past_the_readers_limit_is_a_cell_too_long_not_a_quote():
    # Python's csv reader refuses a field past 131,072 characters: the line is named, not a quote
    rows, errors = read_rows("f.csv", b"name,type\nUno,customer\n" + b"a" * 200_000 + b",customer\n", COLUMNS)
    assert [row.line for row in rows] == [2]
    assert errors == [RowError(3, None, "a cell on this line has more than 32767 characters")]
    assert phrase(errors[0].message)


def test_problems_stop_at_1000():
    # 2,000 rows each with 2 blank required cells and a value under no heading: 6,000 problems, 1,000 kept
    assert MAX_ERRORS == 1_000
    rows, errors = read_rows("f.csv", b"name,type\n" + b",,x\n" * 2_000, COLUMNS)
    assert len(rows) == 2_000 and len(errors) == 1_000
    assert errors[0] == RowError(2, None, "a value in column 3 has no heading: name the column in the heading line or "
                                          "leave its cells blank")
    # the file's own problem (row 0) is kept past them
    rows, errors = read_rows("f.csv", b"name,type\n" + b",,x\n" * 20_001, COLUMNS)
    assert len(errors) == 1_001 and errors[-1].row == 0


def _archive(files: dict[str, bytes]) -> bytes:
    listed = {path: {"count": data.count(b"\n"), "sha256": hashlib.sha256(data).hexdigest()}
              for path, data in files.items()}
    manifest = {"format": company_archive.FORMAT, "files": listed, "checksum": company_archive._checksum(listed)}
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(company_archive.MANIFEST, json.dumps(manifest))
        for path, data in files.items():
            archive.writestr(path, data)
    return out.getvalue()


def test_an_archive_expanding_past_128_mb_is_refused_before_its_files_are_read(monkeypatch):
    assert company_archive.MAX_EXPANDED_BYTES == 128 * 1024 * 1024
    # the limit lowered to 1 MB so that the test is fast: a file of 1 MB + 1 byte (plus the manifest) passes it
    monkeypatch.setattr(company_archive, "MAX_EXPANDED_BYTES", 1024 * 1024)
    content = _archive({"items/BP.jsonl": b"\n" * (1024 * 1024 + 1)})
    opened = []
    real_open = zipfile.ZipFile.open
    monkeypatch.setattr(zipfile.ZipFile, "open", lambda self, name, *a, **k: opened.append(
        getattr(name, "filename", name)) or real_open(self, name, *a, **k))
    with pytest.raises(company_archive.ArchiveInvalid) as refused:
        company_archive.read(content)
    assert refused.value.error == RowError(0, None, "the archive expands to more than 1 MB: a restore reads at most "
                                                    "that")
    assert opened == [company_archive.MANIFEST]  # the items never read
    assert phrase(refused.value.error.message)  # read in Spanish by its id


def test_an_archive_file_that_is_not_json_lines_is_refused_as_such():
    # its checksum matches the manifest (the archive was made so): only its text is wrong. The
    # refusal is the archive's own (ArchiveInvalid carrying a RowError), as every other of read's
    content = _archive({"items/BP.jsonl": b"not json\n"})
    with pytest.raises(company_archive.ArchiveInvalid) as refused:
        company_archive.read(content)
    assert refused.value.error == RowError(0, None, "items/BP.jsonl: not JSON Lines of typed items")
    assert phrase(refused.value.error.message)  # read in Spanish by its id


def test_the_archives_tables_write_a_formula_as_text():
    # a partner named "=HYPERLINK(...)" (and a phone "+504...", an email "@x") would run as a formula when
    # the partners.csv is opened in a spreadsheet: each starts with a quote, as every CSV export's text
    partner = {"PK": {"S": "C#7#BP#1"}, "SK": {"S": "BP"}, "itemType": {"S": "BP"}, "id": {"N": "1"},
               "name": {"S": '=HYPERLINK("http://evil.example","Pagar")'}, "type": {"S": "customer"},
               "phone": {"S": "+504 2222-3333"}, "email": {"S": "@x"}, "receivableBalance": {"N": "-5"},
               "isActive": {"BOOL": True}}
    content, _ = company_archive.build({"id": 7, "name": "Siete", "country": "HN"}, [partner], "2026-01-01")
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        lines = archive.read("partners.csv").decode("utf-8-sig").splitlines()
    # id, name, type, taxId, email, phone, receivableBalance (a number: -5 stays a number, an amount at its
    # cents: -5.00), payableBalance, isActive
    assert lines[1] == """1,"'=HYPERLINK(""http://evil.example"",""Pagar"")",customer,,'@x,'+504 2222-3333,-5.00,,true"""
