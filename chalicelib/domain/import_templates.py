"""An import's template, the file a business fills in: the headings in the caller's language (Spanish
headings, or the API's field names in English) and one example row, as CSV (UTF-8 with a BOM, so Excel
opens its accents right; ',' between cells) or XLSX (headings in bold, a required one with a note,
and a second sheet listing each column: heading, required or not, example, description). Reading a
template back (domain/import_files.py) gives its example row."""
from __future__ import annotations

import csv
import io

from chalicelib.domain.import_rows import Column
from chalicelib.exports import CSV, XLSX

# the template's own words, in its language
_WORDS = {
    "es": {"data": "Datos", "instructions": "Instrucciones", "column": "Columna", "required": "Obligatoria",
           "example": "Ejemplo", "description": "Descripción", "yes": "sí", "no": "no",
           "note": "Obligatoria: cada fila la lleva."},
    "en": {"data": "Data", "instructions": "Instructions", "column": "Column", "required": "Required",
           "example": "Example", "description": "Description", "yes": "yes", "no": "no",
           "note": "Required: every row fills it."},
}


def heading(column: Column, language: str) -> str:
    return column.spanish if language == "es" else column.name


def template(columns: tuple[Column, ...], language: str, media_type: str) -> bytes:
    if language not in _WORDS:
        raise ValueError(f"no template in {language!r}")
    if media_type == CSV:
        return _csv(columns, language)
    if media_type == XLSX:
        return _xlsx(columns, language)
    raise ValueError(f"no template as {media_type!r}")


def _csv(columns: tuple[Column, ...], language: str) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=",", lineterminator="\r\n")
    writer.writerow([heading(column, language) for column in columns])
    writer.writerow([column.example for column in columns])
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def _xlsx(columns: tuple[Column, ...], language: str) -> bytes:
    import xlsxwriter  # only when a template is asked for: it stays out of a cold start

    words = _WORDS[language]
    out = io.BytesIO()
    # text is text: an example "=..." or "08011990123456" stays what it says
    book = xlsxwriter.Workbook(out, {"in_memory": True, "strings_to_formulas": False, "strings_to_urls": False,
                                     "strings_to_numbers": False})
    bold = book.add_format({"bold": True})
    data = book.add_worksheet(words["data"])
    for index, column in enumerate(columns):
        text = heading(column, language)
        data.write_string(0, index, text, bold)
        if column.required:
            data.write_comment(0, index, words["note"])
        if column.example:
            data.write_string(1, index, column.example)
        data.set_column(index, index, max(12, len(text) + 2, len(column.example) + 2))
    data.freeze_panes(1, 0)
    instructions = book.add_worksheet(words["instructions"])
    for index, title in enumerate((words["column"], words["required"], words["example"], words["description"])):
        instructions.write_string(0, index, title, bold)
    for row, column in enumerate(columns, start=1):
        description = column.description_es if language == "es" else column.description_en
        instructions.write_string(row, 0, heading(column, language))
        instructions.write_string(row, 1, words["yes"] if column.required else words["no"])
        for place, text in ((2, column.example), (3, description)):
            if text:
                instructions.write_string(row, place, text)
    instructions.set_column(0, 0, 28)
    instructions.set_column(2, 2, 24)
    instructions.set_column(3, 3, 80)
    book.close()
    return out.getvalue()
