"""Issue 45, item 4: errors carry a message id and its parts (chalicelib/messages/phrases.py
`Phrase`), and another language's text is found by that id, never by matching the English. Guards:
no message given to an error is built as English text (f-string, `+`, `.format`) outside a Phrase,
and the messages package builds no pattern out of its catalogue."""
from __future__ import annotations

import ast
import pathlib

from chalicelib.messages import es, stored_error, stored_failure
from chalicelib.messages import phrase as spanish_of
from chalicelib.messages.catalogues import translations
from chalicelib.messages.phrases import Phrase, from_stored, in_language, stored, translated

ROOT = pathlib.Path(__file__).resolve().parents[2]
CHALICELIB = ROOT / "chalicelib"
# what takes a message a person reads (tests/error_codes.py raised_phrases reads the same places)
SINKS = {"ApiError", "for_field", "RowError", "StatementInvalid"}


def _error_classes(trees: dict[pathlib.Path, ast.Module]) -> set[str]:
    """ApiError and every class that derives from it, by name, across chalicelib."""
    names = {"ApiError"}
    while True:
        more = {node.name for tree in trees.values() for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
                and any((getattr(base, "id", None) or getattr(base, "attr", None)) in names for base in node.bases)}
        if more <= names:
            return names
        names |= more


def _english_built(node: ast.expr | None) -> bool:
    """A text made by gluing English at run time: an f-string with a part, a `+`, a `.format`."""
    if node is None:
        return False
    if isinstance(node, ast.IfExp):
        return _english_built(node.body) or _english_built(node.orelse)
    if isinstance(node, ast.JoinedStr):
        return any(isinstance(value, ast.FormattedValue) for value in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return True
    return isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "format"


def _messages_given(tree: ast.Module, sinks: set[str], in_models: bool) -> list[ast.expr]:
    found: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            keywords = {keyword.arg: keyword.value for keyword in node.keywords}
            if name == "for_field" and len(node.args) > 1:
                found.append(node.args[1])
            elif name == "RowError":
                found.append(node.args[2] if len(node.args) > 2 else keywords.get("message"))  # type: ignore[arg-type]
            elif name in sinks or (in_models and name == "ValueError"):
                found.append(node.args[0] if node.args else keywords.get("message"))  # type: ignore[arg-type]
        elif isinstance(node, ast.Dict):
            names = [key.value for key in node.keys if isinstance(key, ast.Constant)]
            if "field" in names and "message" in names and len(names) <= 6:
                found.append(node.values[names.index("message")])
    return [node for node in found if node is not None]


def _wrappers(trees: dict[pathlib.Path, ast.Module], sinks: set[str]) -> dict[str, int]:
    """Functions that hand a parameter on as an error's message (`_refuse(message)` ->
    `for_field("url", message)`): name -> the parameter's position."""
    found: dict[str, int] = {}
    for tree in trees.values():
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef):
                continue
            names = [argument.arg for argument in function.args.args if argument.arg not in ("self", "cls")]
            for node in _messages_given(function, sinks, False):  # type: ignore[arg-type]
                for given in ([node.body, node.orelse] if isinstance(node, ast.IfExp) else [node]):
                    if isinstance(given, ast.Name) and given.id in names:
                        found[function.name] = names.index(given.id)
    return found


def test_no_message_is_given_to_an_error_as_english_glued_at_run_time():
    trees = {path: ast.parse(path.read_text()) for path in sorted(CHALICELIB.rglob("*.py"))}
    sinks = SINKS | _error_classes(trees)
    wrappers = _wrappers(trees, sinks)
    assert {"_refuse", "invalid_account", "_template_detail"} <= set(wrappers)  # the walk finds them
    handed = [call.args[wrappers[name]] for tree in trees.values() for call in ast.walk(tree)
              if isinstance(call, ast.Call) and (name := getattr(call.func, "id", None) or getattr(call.func, "attr", ""))
              in wrappers and len(call.args) > wrappers[name]]
    glued = [f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)[:80]}"
             for path, tree in trees.items()
             for node in _messages_given(tree, sinks, "models" in path.parts or path.stem == "models")
             if _english_built(node)]
    glued += [f"{ast.unparse(node)[:80]}" for node in handed if _english_built(node)]
    assert glued == []  # write Phrase("<template with {}>", part, ...): its id is the template


def test_the_guard_hears_each_way_of_gluing_english():
    refusals = ast.parse('raise NotFound(f"Account {code} was not found.")\n'
                         'raise ValidationFailed.for_field("x", "must be " + word)\n'
                         'RowError(1, "a", "the {} is wrong".format(x))\n'
                         'details = [{"field": "a", "message": f"{n} left" if n else "none"}]\n'
                         'raise NotFound(Phrase("Account {} was not found.", code))\n')
    found = [node for node in _messages_given(refusals, SINKS | {"NotFound"}, False) if _english_built(node)]
    assert [node.lineno for node in found] == [1, 2, 3, 4]


def test_the_messages_package_builds_no_pattern_from_its_catalogue():
    """Each regular expression of chalicelib/messages is a literal of the source (a header's language,
    a field path, a Spanish contraction): none is made from a phrase, none escapes English."""
    made = []
    for path in sorted((CHALICELIB / "messages").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "re"):
                pattern = node.args[0] if node.args else None
                if node.func.attr == "escape" or not isinstance(pattern, ast.Constant):
                    made.append(f"{path.name}:{node.lineno}: {ast.unparse(node)[:80]}")
    assert made == []


def test_a_phrase_is_its_english_and_carries_its_id_and_parts():
    phrase = Phrase("Account {} was not found.", 1101)
    assert phrase == "Account 1101 was not found." and isinstance(phrase, str)
    assert (phrase.template, phrase.parts) == ("Account {} was not found.", ("1101",))
    # a format spec kept as the f-string showed it; a literal brace of a path left alone
    assert Phrase("at most {} (see /documents/{id})", format(1234.5, ",.2f")) == "at most 1,234.50 (see /documents/{id})"


def test_the_spanish_is_found_by_the_id_not_by_the_english():
    template = "Another product already uses the code {}."
    spanish = translations("es")[template]
    assert translated(Phrase(template, "P-001"), "es") == spanish.replace("{0}", "P-001")
    # the same English as a plain text, no id: nothing matches it against the templates any more
    assert translated("Another product already uses the code P-001.", "es") is None
    assert spanish_of("Document not found.") == translations("es")["Document not found."]  # a literal is its own id
    assert in_language("Some brand new sentence.", "es") == "Some brand new sentence."


def test_a_part_is_placed_by_its_gender_and_a_quoted_phrase_is_translated_too():
    posted = Phrase("Only a draft can be posted; this entry is {}.", "posted")
    assert translated(posted, "es") == "Solo se puede contabilizar una partida en borrador; esta partida está contabilizada."
    quoted = Phrase("The document cannot be collected: {}.", "nothing is pending on this document")
    inner = translations("es")["nothing is pending on this document"]
    assert inner in translated(quoted, "es")  # type: ignore[operator]


def test_a_stored_phrase_keeps_its_id_and_parts_and_reads_back_in_either_language():
    inner = Phrase("account {} is inactive", "1101")
    outer = Phrase("The tax authority's format refuses this document: {}: {}", "dte.receptor", inner)
    kept = stored(outer)
    assert kept == {"id": outer.template, "parts": ["dte.receptor", {"id": inner.template, "parts": ["1101"]}]}
    again = from_stored(str(outer), kept)
    assert again == outer and translated(again, "es") == translated(outer, "es")
    assert "1101" in translated(again, "es") and "inactive" not in translated(again, "es")  # type: ignore[operator]
    # one stored before ids: its exact catalogue entry, else its English
    assert from_stored("Document not found.", None) == "Document not found."


def test_a_background_failure_is_stored_with_its_id_and_read_in_the_readers_language():
    said = Phrase("Another product already uses the code {}.", "P-9")
    failure = stored_failure("CONFLICT", f"2026-03-01: {said}", "2026-03-01T10:00:00Z", said=said)
    assert failure["message"] == "2026-03-01: Another product already uses the code P-9." and type(failure["message"]) is str
    spanish = translations("es")["Another product already uses the code {}."].replace("{0}", "P-9")
    assert stored_error(failure, "es") == {"code": "CONFLICT", "message": f"2026-03-01: {spanish}",
                                           "at": "2026-03-01T10:00:00Z"}
    assert stored_error(failure, "en")["message"] == failure["message"]  # type: ignore[index]
    legacy = {"code": "CONFLICT", "message": "2026-03-01: Another product already uses the code P-9.", "at": "x"}
    # one stored before ids, with parts: no guessing from its English, the code's message answers
    assert stored_error(legacy, "es")["message"] == "2026-03-01: " + es.CODES["CONFLICT"]  # type: ignore[index]


def test_a_part_written_in_english_words_is_a_phrase_too():
    """"encuentra más de 500 documents" was answered before: a part in words is a Phrase of its own."""
    too_broad = Phrase("finds more than {}: type more of the number or the name", Phrase("{} documents", 500))
    assert too_broad == "finds more than 500 documents: type more of the number or the name"
    assert translated(too_broad, "es") == "encuentra más de 500 documentos: escriba más del número o del nombre"


def test_a_place_the_catalogues_refuse_is_named_in_the_readers_words():
    """"department '99' no está en el catálogo CAT-012" was answered before: the part is a Phrase too."""
    import pytest

    from chalicelib.countries.sv.domain import dte_catalogues

    with pytest.raises(ValueError) as refused:
        dte_catalogues.address("99", "01")
    said = refused.value.args[0]
    assert said == "department '99' is not in the authority's catalogue CAT-012"
    assert translated(said, "es") == "el departamento '99' no está en el catálogo CAT-012 de Hacienda"


def test_each_phrase_written_has_a_part_for_each_place():
    """A Phrase whose template and parts disagree raises when made: none is written so."""
    wrong = []
    for path in sorted(CHALICELIB.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Phrase" and node.args
                    and isinstance(node.args[0], ast.Constant) and not any(isinstance(a, ast.Starred) for a in node.args)
                    and str(node.args[0].value).count("{}") != len(node.args) - 1):
                wrong.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert wrong == []


def test_no_f_string_writes_a_catalogued_message_without_its_id():
    """An f-string whose template is a msgid of the catalogue is a message a person reads that
    lost its id on the way (kept in a variable before reaching an error: a chart import's `broken`):
    it would answer English to a Spanish reader. It must be a Phrase."""
    written = {}
    for path in sorted(CHALICELIB.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.JoinedStr) and any(isinstance(v, ast.FormattedValue) for v in node.values):
                template = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
                if template in es.PHRASES:
                    written[template] = f"{path.relative_to(ROOT)}:{node.lineno}"
    assert written == {}
