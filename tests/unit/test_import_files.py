"""Reading an imported file (domain/import_files.py) and writing its template
(domain/import_templates.py): encodings, delimiters, line numbers, XLSX cells, headings in either
language, the mapping, the refusals, the row limit. Pure and fast: every file is built in memory."""
from __future__ import annotations

import io
import zipfile
from datetime import date, datetime

import pytest

from chalicelib.domain.import_files import MAX_ROWS, ImportFileInvalid, heading_key, read_rows
from chalicelib.domain.import_rows import Column, Row, RowError
from chalicelib.domain.import_templates import template
from chalicelib.exports import CSV, XLSX
from chalicelib.messages import es

COLUMNS = (
    Column("name", "Razón social", required=True, example="Ferretería El Martillo, S. de R.L."),
    Column("type", "Tipo", required=True, example="customer"),
    Column("taxId", "Número de identificación tributaria", example="08011990123456", aliases=("RTN", "NIT")),
    Column("phone", "Teléfono", example="2222-3333"),
    Column("creditLimit", "Límite de crédito", example="15000.50"),
    Column("since", "Cliente desde", example="2026-01-31"),
)


def _xlsx(rows: list[list[object]]) -> bytes:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    for number, values in enumerate(rows, start=1):
        for column, value in enumerate(values, start=1):
            if value is not None:
                sheet.cell(row=number, column=column, value=value)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


# ---- CSV: encodings, delimiters, line numbers

def test_a_windows_1252_csv_with_semicolons_reads_its_accents():
    # Excel in Spanish, "Guardar como CSV": cp1252 ("ó" is the single byte F3) and ';' between cells
    content = "Razón social;Tipo;Teléfono\r\nJosé Pérez;customer;9999-0000\r\nCañas Ñandú;supplier;\r\n".encode("cp1252")
    assert b"\xf3" in content  # not UTF-8: a lone F3 followed by "n" is no UTF-8 sequence
    rows, errors = read_rows("clientes.csv", content, COLUMNS)
    assert errors == []
    assert rows == [Row(2, {"name": "José Pérez", "type": "customer", "phone": "9999-0000"}),
                    Row(3, {"name": "Cañas Ñandú", "type": "supplier"})]  # the blank phone is absent


def test_utf8_with_a_bom_and_utf16_with_a_bom():
    text = "name,type,Teléfono\r\nÁrbol S.A.,both,2222\r\n"
    for content in (b"\xef\xbb\xbf" + text.encode("utf-8"), text.encode("utf-16")):  # utf-16 writes its BOM
        rows, errors = read_rows("f.csv", content, COLUMNS)
        assert (rows, errors) == ([Row(2, {"name": "Árbol S.A.", "type": "both", "phone": "2222"})], [])
    # Excel's "Unicode text": UTF-16 with tabs
    rows, errors = read_rows("f.txt", "name\ttype\r\nUno\tcustomer\r\n".encode("utf-16"), COLUMNS)
    assert (rows, errors) == ([Row(2, {"name": "Uno", "type": "customer"})], [])


def test_the_delimiter_is_the_one_the_heading_line_uses_most():
    # "Razón social, nombre" holds one ',' and the line two ';': ';' separates
    content = "Razón social, nombre;Tipo;Teléfono\nUno, S.A.;customer;1\n".encode()
    rows, _ = read_rows("f.csv", content, COLUMNS, {"Razón social, nombre": "name"})
    assert rows == [Row(2, {"name": "Uno, S.A.", "type": "customer", "phone": "1"})]
    # a tie (one ',' and one ';') goes to ';'
    rows, _ = read_rows("f.csv", "Razón social, nombre;Tipo\nUno, S.A.;customer\n".encode(), COLUMNS,
                        {"Razón social, nombre": "name"})
    assert rows == [Row(2, {"name": "Uno, S.A.", "type": "customer"})]


def test_an_empty_file_has_no_heading_line():
    for content in (b"", b"\xef\xbb\xbf\r\n\r\n"):
        assert read_rows("f.csv", content, COLUMNS) == (
            [], [RowError(1, None, "the file has no heading line: line 1 names the columns")])


def test_a_quoted_cell_with_line_breaks_keeps_the_lines_after_it_right():
    content = (b'name,type,phone\n'             # line 1
               b'"Comercial\nLos Pinos",customer,1\n'  # lines 2-3: the record starts on 2
               b'\n'                            # line 4: blank, skipped
               b'Otro,supplier,2\n')            # line 5
    rows, errors = read_rows("f.csv", content, COLUMNS)
    assert errors == []
    assert [(row.line, row.values["name"]) for row in rows] == [(2, "Comercial\nLos Pinos"), (5, "Otro")]


def test_a_quote_never_closed_is_named_by_its_line():
    rows, errors = read_rows("f.csv", b'name,type\nUno,customer\n"Dos,supplier\nTres,both\n', COLUMNS)
    assert errors == [RowError(3, None, "a quote opened on this line is not closed, or text follows a closing quote: "
                                        "write a quote inside a quoted cell as two quotes")]


def test_bytes_that_are_not_text_are_named_by_line():
    # UTF-8 elsewhere in the file ("é" = C3 A9), so a lone E9 on line 3 is a damaged byte, not Windows-1252
    content = "name,type\nJosé,customer\n".encode("utf-8") + b"Jos\xe9,supplier\n"
    assert read_rows("f.csv", content, COLUMNS) == (
        [], [RowError(3, None, "the line has bytes that are not UTF-8 text: save the file as CSV UTF-8")])
    # no UTF-8 in it: Windows-1252, where 0x81 means nothing
    assert read_rows("f.csv", b"name,type\nA,customer\nB\x81,customer\n", COLUMNS) == (
        [], [RowError(3, None, "the line has bytes that are not text: save the file as CSV UTF-8")])


def test_a_cell_starting_with_equals_is_kept_as_text():
    rows, _ = read_rows("f.csv", b'name,type\n"=HYPERLINK(""x"")",customer\n', COLUMNS)
    assert rows[0].values["name"] == '=HYPERLINK("x")'


# ---- XLSX

def test_xlsx_cells_come_out_as_the_text_a_person_sees():
    content = _xlsx([
        ["name", "type", "taxId", "creditLimit", "since", "phone"],
        ["Texto", "customer", "08011990123456", 1234.5, datetime(2026, 1, 31), 0.1 + 0.2],  # row 2
        [None],                                                                          # row 3: blank
        ["Número", "supplier", 8011990123456, 10.0, date(2025, 12, 1), 1e20],            # row 4
    ])
    rows, errors = read_rows("f.xlsx", content, COLUMNS)
    assert errors == []
    assert rows == [
        # a text tax id keeps its leading zero; 1234.5 stays 1234.5; a date at midnight is a date;
        # 0.1 + 0.2 = 0.30000000000000004 as a float: 15 significant digits give 0.3
        Row(2, {"name": "Texto", "type": "customer", "taxId": "08011990123456", "creditLimit": "1234.5",
                "since": "2026-01-31", "phone": "0.3"}),
        # the sheet's own row number; a numeric tax id as its digits (its leading zero was lost by Excel);
        # 10.0 -> "10"; 1e20 written out, no exponent
        Row(4, {"name": "Número", "type": "supplier", "taxId": "8011990123456", "creditLimit": "10",
                "since": "2025-12-01", "phone": "100000000000000000000"}),
    ]


def test_xlsx_trailing_empty_rows_are_ignored():
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["name", "type"])
    sheet.append(["Uno", "customer"])
    for number in range(3, 50):  # formatted but empty: the sheet's size says 49 rows
        sheet.cell(row=number, column=1).number_format = "0.00"
    out = io.BytesIO()
    book.save(out)
    assert read_rows("f.xlsx", out.getvalue(), COLUMNS) == ([Row(2, {"name": "Uno", "type": "customer"})], [])


# ---- headings

def test_spanish_headings_english_names_and_aliases_match_whatever_their_accents_and_case():
    assert heading_key("Razón Social") == heading_key("razon_social") == heading_key("RAZON-SOCIAL") == "razonsocial"
    content = "RAZON_SOCIAL,tipo,rtn,limite de credito\nUno,customer,0801,5\n".encode()
    assert read_rows("f.csv", content, COLUMNS) == (
        [Row(2, {"name": "Uno", "type": "customer", "taxId": "0801", "creditLimit": "5"})], [])


def test_a_mapping_names_the_column_of_a_heading_or_leaves_it_out():
    content = b"Cliente,Clase,Notas,Celular\nUno,customer,vip,7777\n"
    mapping = {"cliente": "name", "Clase": "type", "Notas": "", "Celular": None}
    assert read_rows("f.csv", content, COLUMNS, mapping) == ([Row(2, {"name": "Uno", "type": "customer"})], [])
    _, errors = read_rows("f.csv", content, COLUMNS, {"Cliente": "name", "Clase": "type", "Notas": "colour",
                                                      "Celular": "phone"})
    assert errors == [RowError(1, "Notas", "the mapping gives Notas to colour, which is not a column of this import: "
                                           "name, type, taxId, phone, creditLimit, since")]


def test_unknown_missing_and_duplicated_headings_are_refused_on_line_1():
    _, errors = read_rows("f.csv", b"name,Color,RTN,NIT,name\nUno,rojo,1,2,x\n", COLUMNS)
    assert errors == [
        RowError(1, "Color", "unknown column Color: the columns are name, type, taxId, phone, creditLimit, since "
                             "(map it to one, or to nothing to leave it out)"),
        RowError(1, "taxId", "RTN and NIT both fill the column taxId: keep one"),
        RowError(1, "name", "the heading name is written twice"),
        RowError(1, "type", "the required column type (Tipo) is missing"),  # and not again on line 2
    ]


def test_a_blank_required_cell_and_a_value_under_no_heading_are_named_by_line_and_column():
    rows, errors = read_rows("f.csv", b"name,type,\nUno,,\n,customer,x\n", COLUMNS)
    assert [row.line for row in rows] == [2, 3]
    assert errors == [RowError(2, "type", "required: the cell is blank"),
                      RowError(3, None, "a value in column 3 has no heading: name the column in the heading line or "
                                        "leave its cells blank"),
                      RowError(3, "name", "required: the cell is blank")]


# ---- what is not a table, and the limit

@pytest.mark.parametrize(("content", "message"), [
    (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj", "the file is a PDF, not a table: save the data as CSV UTF-8 or XLSX"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 100,
     "the file is an Excel 97-2003 workbook (.xls) or a workbook protected with a password: save it as XLSX "
     "without a password, or as CSV UTF-8"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "the file is neither text nor an XLSX workbook: save it as CSV UTF-8 "
                                             "or XLSX"),
    (b"<html><table><tr><td>name</td></tr></table></html>",
     "the file is a web page or XML, not a table: save it as CSV UTF-8 or XLSX"),
])
def test_a_file_that_is_not_csv_nor_xlsx_is_refused_whole(content, message):
    with pytest.raises(ImportFileInvalid) as refused:
        read_rows("f.xls", content, COLUMNS)
    assert refused.value.error == RowError(0, None, message)
    assert message in es.PHRASES


def test_a_zip_that_is_not_a_workbook_is_refused():
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("manifest.json", "{}")
    with pytest.raises(ImportFileInvalid) as refused:
        read_rows("f.xlsx", out.getvalue(), COLUMNS)
    assert refused.value.error.message == ("the file is a ZIP archive, not an XLSX workbook: save it as CSV UTF-8 or "
                                           "XLSX")


def test_a_damaged_workbook_is_refused():
    content = _xlsx([["name", "type"], ["Uno", "customer"]])
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(content)) as source, zipfile.ZipFile(out, "w") as damaged:
        for name in source.namelist():  # every part but the sheet itself
            if not name.startswith("xl/worksheets/"):
                damaged.writestr(name, source.read(name))
    with pytest.raises(ImportFileInvalid) as refused:
        read_rows("f.xlsx", out.getvalue(), COLUMNS)
    assert refused.value.error.message == ("the XLSX workbook cannot be read (it is damaged): save it again as XLSX or "
                                           "CSV UTF-8")


def test_more_than_20000_rows_stops_the_reading():
    assert MAX_ROWS == 20_000
    heading = b"name,type\n"
    full = heading + b"x,customer\n" * 20_000  # lines 2..20001
    rows, errors = read_rows("f.csv", full, COLUMNS)
    assert (len(rows), rows[-1].line, errors) == (20_000, 20_001, [])
    rows, errors = read_rows("f.csv", full + b"\n\ny,customer\n", COLUMNS)  # one more, after blank lines
    assert len(rows) == 20_000
    assert errors == [RowError(0, None, "the file has more than 20000 rows: split it into files of at most 20000")]


# ---- templates

@pytest.mark.parametrize("media_type", [CSV, XLSX])
@pytest.mark.parametrize("language", ["es", "en"])
def test_a_template_read_back_gives_its_example_row(language, media_type):
    content = template(COLUMNS, language, media_type)
    rows, errors = read_rows("plantilla", content, COLUMNS)
    assert errors == []
    assert rows == [Row(2, {"name": "Ferretería El Martillo, S. de R.L.", "type": "customer",
                            "taxId": "08011990123456", "phone": "2222-3333", "creditLimit": "15000.50",
                            "since": "2026-01-31"})]


def test_the_csv_template_has_a_bom_and_the_headings_of_its_language():
    spanish = template(COLUMNS, "es", CSV)
    assert spanish.startswith(b"\xef\xbb\xbf")
    assert spanish.decode("utf-8-sig").splitlines()[0] == (
        "Razón social,Tipo,Número de identificación tributaria,Teléfono,Límite de crédito,Cliente desde")
    assert template(COLUMNS, "en", CSV).decode("utf-8-sig").splitlines()[0] == "name,type,taxId,phone,creditLimit,since"


def test_the_xlsx_template_marks_required_columns_and_explains_each():
    import openpyxl

    described = (Column("code", "Código", required=True, example="P-001", description_es="El código del producto",
                        description_en="The product's code"), Column("unit", "Unidad", example="unidad"))
    book = openpyxl.load_workbook(io.BytesIO(template(described, "es", XLSX)))
    data, instructions = book.worksheets
    assert (data.title, instructions.title) == ("Datos", "Instrucciones")
    assert data["A1"].value == "Código" and data["A1"].font.b and data["A1"].comment is not None
    assert data["B1"].comment is None  # not required
    assert [list(row) for row in instructions.iter_rows(values_only=True)] == [
        ["Columna", "Obligatoria", "Ejemplo", "Descripción"],
        ["Código", "sí", "P-001", "El código del producto"],
        ["Unidad", "no", "unidad", None]]
    english = openpyxl.load_workbook(io.BytesIO(template(described, "en", XLSX))).worksheets[1]
    assert list(english.iter_rows(values_only=True))[1] == ("code", "yes", "P-001", "The product's code")
