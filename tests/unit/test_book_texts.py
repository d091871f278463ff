"""Issue 38, point 8: every text the services store for a person to read (a `description` or a
bank `reference` they write themselves) comes from the books' catalogue
(chalicelib/messages/books.py), never a literal written in place: one language for the books, one
place to read it."""
from __future__ import annotations

import ast
import pathlib
import re

from chalicelib.messages import books

ROOT = pathlib.Path(__file__).resolve().parents[2]
STORED = ("description", "reference")
ENGLISH = re.compile(r"\b(of|the|is|entry|reversal|payment|transfer|adjustment|opening|closing|balance)\b", re.I)


WORD = re.compile(r"[a-záéíóúñ]{2,}")  # prose; a code such as "SCHEDULE-7" is a reference for programs


def _literal(value: ast.expr) -> bool:
    """A text written in place: a string literal with words, or an f-string with some, or either
    side of `a if c else b`, or a `+` holding one."""
    if isinstance(value, ast.Constant):
        return isinstance(value.value, str) and bool(WORD.search(value.value))
    if isinstance(value, ast.JoinedStr):
        return any(isinstance(part, ast.Constant) and WORD.search(part.value) for part in value.values)
    if isinstance(value, ast.IfExp):
        return _literal(value.body) or _literal(value.orelse)
    if isinstance(value, ast.BinOp):
        return _literal(value.left) or _literal(value.right)
    if isinstance(value, ast.BoolOp):
        return any(_literal(v) for v in value.values)
    return False


def test_stored_texts_come_from_the_books_catalogue():
    written_in_place = []
    for path in sorted([*(ROOT / "chalicelib" / "services").rglob("*.py"),
                        *(ROOT / "chalicelib" / "countries").rglob("services/*.py")]):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                pairs = [(k.arg, k.value) for k in node.keywords]
            elif isinstance(node, ast.Dict):
                pairs = [(k.value, v) for k, v in zip(node.keys, node.values, strict=True)
                         if isinstance(k, ast.Constant)]
            else:
                continue
            written_in_place += [f"{path.relative_to(ROOT)}:{value.lineno} {name}" for name, value in pairs
                                 if name in STORED and _literal(value)]
    assert written_in_place == []


def test_the_books_catalogue_is_spanish():
    assert books.BOOKS_LANGUAGE == "es"
    english = {key: text for key, text in books.BOOK_TEXTS["es"].items() if ENGLISH.search(re.sub(r"\{\w+\}", "", text))}
    assert english == {}
