"""Issue 38, point 8: a Spanish answer is Spanish throughout. Every message the source can raise
is walked (tests/error_codes.py finds them): its filled-in parts get sample values (what the part
is built from when that is text of the source's own, else a neutral number) and the Spanish the
catalogue answers carries no English word from a list of tell-tale ones. A part built from
English prose ("of type 01 or 113", "control de the customers' balances") is what leaked before:
a phrase's parts must be neutral (ids, numbers, codes, the user's own data)."""
from __future__ import annotations

import ast
import re

from chalicelib import messages
from chalicelib.messages import es
from chalicelib.messages.phrases import Phrase
from tests.documents_support import Shop
from tests.error_codes import _is_phrase, _source_modules, raised_phrases, stored_dte_errors

SPANISH = {"Accept-Language": "es"}

TELL_TALE = re.compile(r"\b(of|the|is|are|type|must|not|balances|and|or|with|cannot|only|required|missing|from|"
                       r"this|for|its|should|account|document|books|country)\b")
PROSE = re.compile(r"[a-z]{2,} [a-z]{2,}")
NEUTRAL = "7"


def _english_words(spanish: str) -> list[str]:
    """The tell-tale English words of a Spanish text, quoted values and API paths left out."""
    text = re.sub(r"\{\w*\}|`[^`]*`|'[^']*'|\"[^\"]*\"", " ", spanish)
    text = re.sub(r"(GET|PUT|POST|DELETE|PATCH) /\S+|/[\w{}/.-]+", " ", text)
    return TELL_TALE.findall(text)


def _prose(node: ast.AST) -> list[str]:
    """The English texts an expression holds: its string literals (an f-string's, its parts as
    NEUTRAL) that have two words or more."""
    found = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.JoinedStr):
            text = "".join(p.value if isinstance(p, ast.Constant) else NEUTRAL for p in sub.values)
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            text = sub.value
        else:
            continue
        if PROSE.search(text):
            found.append(text)
    return found


def _part_samples(part: ast.expr, module_prose: dict[str, list[str]], local_prose: dict[str, list[str]]) -> list[str]:
    """What a filled-in part can be, as far as the source says: a join of codes by a word
    ("01 or 113"), the prose a module constant or a local variable was built from, else NEUTRAL."""
    samples = []
    for sub in ast.walk(part):
        if (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and sub.func.attr == "join"
                and isinstance(sub.func.value, ast.Constant) and re.search(r"[a-z]", sub.func.value.value)):
            samples.append(sub.func.value.value.join(["01", "113"]))
        elif isinstance(sub, ast.Name):
            samples += module_prose.get(sub.id, []) + local_prose.get(sub.id, [])
    return samples or [NEUTRAL]


def _filled_messages() -> dict[str, set[Phrase]]:
    """Each template the source raises -> its messages (Phrases) with the parts filled in with samples."""
    templates = raised_phrases()
    filled: dict[str, set[Phrase]] = {}
    for _path, _module, tree, _constants in _source_modules():
        module_prose = {node.targets[0].id: _prose(node.value) for node in tree.body
                        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)}
        for function in [tree, *(n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))]:
            local_prose = {node.targets[0].id: _prose(node.value) for node in ast.walk(function)
                           if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
                           and function is not tree}
            for node in ast.walk(function):
                if not _is_phrase(node):
                    continue
                template = node.args[0].value
                if template not in templates:
                    continue  # all filled in ("{}: {}"): a message re-written from its detail, walked as that
                combinations: list[list[str]] = [[]]
                for part in node.args[1:]:
                    options = _part_samples(part, module_prose, local_prose)
                    combinations = [done + [option] for done in combinations for option in options][:20]
                filled.setdefault(template, set()).update(Phrase(template, *parts) for parts in combinations)
    return filled


def test_the_spanish_catalogue_has_no_english_words():
    texts = {**{f"code {k}": v for k, v in es.CODES.items()}, **{f"kind {k}": v for k, v in es.KINDS.items()},
             **es.PHRASES}
    assert {name: words for name, text in texts.items() if (words := _english_words(text))} == {}


def test_every_message_the_source_raises_answers_spanish_throughout():
    half_english = {}
    for filled in _filled_messages().values():
        for english in filled:
            spanish = messages.translated(english, "es")
            if spanish is not None and _english_words(spanish):
                half_english[english] = spanish
    assert half_english == {}


def test_every_literal_message_the_source_raises_answers_spanish_throughout():
    """Issue 43: a phrase with no filled-in part, written as "<what>: <remedy>", was answered from
    broader templates matching its halves ("obligatorio: de PixelPay text of 1 a 200 caracteres")
    although the catalogue had its Spanish: the catalogue's own wording must be what is answered."""
    half_english = {}
    for english in raised_phrases():
        if "{}" in english:
            continue  # walked with its parts filled in above
        spanish = messages.phrase(english)
        if spanish is not None and (_english_words(spanish) or (english in es.PHRASES and spanish != es.PHRASES[english])):
            half_english[english] = spanish
    assert half_english == {}


# a field as the API spells it: snake_case (credit_block_days) or camelCase (paymentMethodId, endDate,
# export.countryCode); a person reads "the payment method", "the end date" (details[].field keeps the name)
FIELD_NAME = re.compile(r"\b[a-z]+_[a-z_]+\b|\b[a-z]+[A-Z][A-Za-z0-9]*\b")


def _field_names(text: str) -> list[str]:
    """The API field names a text shows a person; quoted code (`...`), API paths and the filled-in
    places left out."""
    return FIELD_NAME.findall(re.sub(r"\{\w*\}|`[^`]*`|(GET|PUT|POST|DELETE|PATCH) /\S+|/[\w{}/.-]+", " ", text))


def test_no_field_names_in_what_a_person_reads():
    """Spanish and English alike: the catalogues' texts and every message the source raises."""
    from chalicelib.messages import en

    texts = {**{f"es code {k}": v for k, v in es.CODES.items()}, **{f"es kind {k}": v for k, v in es.KINDS.items()},
             **{f"en code {k}": v for k, v in en.CODES.items()}, **{f"en kind {k}": v for k, v in en.KINDS.items()},
             **{f"es {english}": spanish for english, spanish in es.PHRASES.items()},
             **{f"en {english}": english for english in raised_phrases()}}
    assert {name: names for name, text in texts.items() if (names := _field_names(text))} == {}


def test_the_walk_sees_the_parts_that_leaked_before():
    filled = _filled_messages()
    assert len(filled) > 100  # the phrases with filled-in parts
    assert "is a control account behind {}: only documents, payments, adjustments and opening balances move it" in filled
    assert "The document cannot be collected: nothing is pending on this document." in filled[
        "The document cannot be collected: {}."]


def test_the_refusals_that_answered_half_english_answer_spanish(api, company_a):
    shop = Shop(api, company_a)
    receivable = {"date": "2026-11-05", "description": "Ajuste", "status": "posted", "lines": [
        {"chartOfAccountId": shop.books["110201"], "debit": "10.00", "credit": "0"},
        {"chartOfAccountId": shop.books["410101"], "debit": "0", "credit": "10.00"}]}
    control = api.post("/journal-entries", receivable, key=company_a.api_key, headers=SPANISH).json
    assert control["code"] == "CONTROL_ACCOUNT"
    assert control["details"][0]["message"] == ("es una cuenta de control de los saldos de los clientes: solo la mueven "
                                                 "los documentos, pagos, ajustes y saldos iniciales")
    books = api.get("/reports/iva-sales-consumers?startDate=2026-11-01&endDate=2026-11-30", key=company_a.api_key,
                    headers=SPANISH).json
    assert books == {"code": "REPORT_NOT_FOR_COUNTRY",
                     "message": "Los libros de IVA son de las empresas de El Salvador (el país de la empresa es HN)."}


def test_a_status_placed_in_a_spanish_sentence_is_spanish(api, company_a):
    """'esta partida está posted' was the API's value inside a Spanish sentence: the value is placed
    as the Spanish word agreeing with the noun (partida: contabilizada; documento: confirmado)."""
    shop = Shop(api, company_a)
    expense = {"date": "2026-11-05", "description": "Gasto de oficina", "status": "posted", "lines": [
        {"chartOfAccountId": shop.books["6199"], "debit": "10.00", "credit": "0"},
        {"chartOfAccountId": shop.books["110101"], "debit": "0", "credit": "10.00"}]}
    entry = shop.created("/journal-entries", expense)
    again = api.post(f"/journal-entries/{entry['id']}/post", {}, key=company_a.api_key, headers=SPANISH)
    assert again.status == 400 and again.json["message"] == (
        "Solo se puede contabilizar una partida en borrador; esta partida está contabilizada.")
    english = api.post(f"/journal-entries/{entry['id']}/post", {}, key=company_a.api_key)
    assert english.json["message"] == "Only a draft can be posted; this entry is posted."  # the API's value, in English

    invoice = shop.document("01", [(shop.service, 1, 50)])
    assert invoice["status"] == "confirmed"  # a document is confirmed unless sent as a draft
    confirmed = api.post(f"/documents/{invoice['id']}/confirm", {}, key=company_a.api_key, headers=SPANISH)
    assert confirmed.json["message"] == "Solo un documento en borrador puede ser confirmado; este está confirmado."


def test_a_value_the_catalogue_does_not_know_is_placed_as_it_came():
    assert messages.phrase(Phrase("Only a draft reconciliation can be {}; this one is {}.", "completed", "completed")) == (
        "Solo una conciliación en borrador puede ser completada; esta está completada.")
    assert messages.phrase(Phrase("The fiscal year {} is {}; only an open year is closed.", 2026, "closing")) == (
        "El ejercicio fiscal 2026 está en cierre; solo se cierra un ejercicio abierto.")
    # a status the catalogue does not know yet is placed as the API answers it, never dropped
    assert messages.phrase(Phrase("the document is {}", "archived")) == "el documento está archived"


def test_every_reason_a_dte_can_store_as_its_last_error_has_its_spanish():
    """A DTE's `lastError` is stored in English by a transmission that may have no caller (the
    hourly retry) and read in the reader's language: each reason the source can store is a phrase
    of the catalogue, Spanish throughout."""
    reasons = stored_dte_errors()
    # the walk follows both ways a reason is written: a text, and a caught refusal's message
    assert {"the tax authority did not answer", "The company's DTE signing key is gone: upload it again."} <= reasons
    untranslated = {reason: spanish for reason in reasons
                    if (spanish := messages.translated(Phrase(reason, *[NEUTRAL] * reason.count("{}")), "es")) is None or _english_words(spanish)}
    assert untranslated == {}
