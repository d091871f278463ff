"""Errors in the caller's language: one catalogue per language (chalicelib/messages/en.py, es.py)
holds every error code and every validation kind, Spanish holds every phrase the source writes
for an error, and `Accept-Language: es` answers every message and field detail in Spanish."""
from __future__ import annotations

import re

import pytest
from pydantic_core._pydantic_core import list_all_errors

from chalicelib import messages
from chalicelib.error_codes import ERROR_CODES
from chalicelib.messages import en, es
from chalicelib.messages.phrases import Phrase
from tests.error_codes import phrase_templates, raised_phrases, stored_dte_errors

SPANISH = {"Accept-Language": "es"}


@pytest.mark.parametrize("catalogue", [en, es], ids=["en", "es"])
def test_each_catalogue_has_every_code_and_validation_kind(catalogue):
    assert set(catalogue.CODES) == set(ERROR_CODES)
    assert set(catalogue.KINDS) == {kind["type"] for kind in list_all_errors()}
    assert all(text.strip() for text in [*catalogue.CODES.values(), *catalogue.KINDS.values()])


def test_each_english_message_says_what_the_code_list_says():
    """chalicelib/error_codes.py (and docs/errors.md) and the English catalogue tell one meaning: the
    message is the listed description, without its backticks, and may leave out only a trailing
    note on the answer (a parenthesis or a clause after a colon), never a condition in between."""
    def plain(text):
        return text.replace("`", "").rstrip(".").lower()

    def says_it(description, message):
        rest = plain(description).removeprefix(plain(message))
        return len(rest) < len(plain(description)) and (rest == "" or rest.startswith((" (", ": ")))

    assert {code: (description, en.CODES[code]) for code, (_, description) in ERROR_CODES.items()
            if not says_it(description, en.CODES[code])} == {}


def test_a_spanish_kind_names_only_what_its_english_does():
    def names(template):
        return set(re.findall(r"\{(\w+)\}", template))

    assert {kind: names(text) - names(en.KINDS[kind]) for kind, text in es.KINDS.items()
            if names(text) - names(en.KINDS[kind])} == {}


def test_every_phrase_the_source_writes_has_its_spanish():
    raised = raised_phrases()
    assert sorted(raised - set(es.PHRASES)) == []  # untranslated: add them to es.PHRASES
    assert sorted(set(es.PHRASES) - raised) == []  # no longer written: take them out
    # each Spanish phrase places exactly the parts its English one fills in
    assert {english: spanish for english, spanish in es.PHRASES.items()
            if sorted(set(re.findall(r"\{(\d)(?::[mf])?\}", spanish))) != [str(n) for n in range(english.count("{}"))]} == {}


@pytest.mark.parametrize(("header", "expected"), [
    (None, "en"), ("es", "es"), ("es-HN", "es"), ("es-SV,es;q=0.9,en;q=0.8", "es"), ("en-US,es;q=0.5", "en"),
    ("fr, es;q=0.3", "es"), ("de", "en"), ("es;q=0", "en"), ("*", "en"), ("es;q=abc", "en"), ("en, es", "en")])
def test_the_language_is_the_supported_one_the_caller_prefers(header, expected):
    assert messages.language({"accept-language": header} if header else {}) == expected


def test_a_phrase_keeps_what_the_service_filled_in():
    english = Phrase("Another product already uses the code {}.", "P-001")
    assert english == "Another product already uses the code P-001."  # its English, as a str
    assert messages.phrase(english) == es.PHRASES["Another product already uses the code {}."].replace("{0}", "P-001")


def test_validation_errors_answer_in_spanish_when_asked(api, company_a):
    body = {"name": "", "type": "cliente", "unknownField": 1}
    english = api.post("/business-partners", body, key=company_a.api_key)
    spanish = api.post("/business-partners", body, key=company_a.api_key, headers=SPANISH)
    assert english.status == spanish.status == 400 and spanish.json["code"] == english.json["code"] == "VALIDATION_ERROR"
    assert spanish.header("Content-Language") == "es" and english.header("Content-Language") == "en"
    # the same fields, each problem in Spanish, the message from the first
    assert [d["field"] for d in spanish.json["details"]] == [d["field"] for d in english.json["details"]]
    by_field = {d["field"]: d["message"] for d in spanish.json["details"]}
    assert by_field["unknownField"] == es.KINDS["extra_forbidden"]
    assert by_field["name"] == es.KINDS["string_too_short"].format(min_length=1)
    assert by_field["type"] == es.KINDS["literal_error"].format(expected="'customer', 'supplier' o 'both'")  # the last "or" in Spanish
    first = spanish.json["details"][0]
    assert first["field"] == "name"  # the field as a person knows it heads the message, its problem in Spanish
    assert spanish.json["message"] == f"Nombre: {es.KINDS['string_too_short'].format(min_length=1)}"
    missing = api.post("/business-partners", {}, key=company_a.api_key, headers=SPANISH).json
    assert {d["message"] for d in missing["details"]} == {es.KINDS["missing"]}


def test_refusals_answer_in_spanish_when_asked(api, company_a):
    not_found = api.get("/documents/999", key=company_a.api_key, headers=SPANISH)
    assert not_found.status == 404 and not_found.json == {"message": es.PHRASES["Document not found."],
                                                          "code": "NOT_FOUND"}
    taken = {"code": "P-001", "name": "Silla", "unitPrice": 10, "taxRate": 0.15}
    assert api.post("/products", taken, key=company_a.api_key).status == 201
    again = api.post("/products", taken, key=company_a.api_key, headers=SPANISH)
    assert again.status == 409 and again.json["message"] == es.PHRASES[
        "Another product already uses the code {}."].replace("{0}", "'P-001'")
    # a service's own field problem (for_field) is translated with its filled-in parts
    dates = api.get("/documents?startDate=2026-02-01&endDate=2026-01-01", key=company_a.api_key, headers=SPANISH)
    assert dates.json["details"] == [{"field": "startDate", "message": es.PHRASES["must not be after the end date"]}]
    unauthenticated = api.get("/documents", headers=SPANISH)
    assert unauthenticated.status == 401 and unauthenticated.json["message"] == es.PHRASES[
        "Authentication required: log in or send an API key."]


def test_a_message_the_catalogue_does_not_know_falls_back_to_its_code_in_spanish():
    from chalicelib.errors import ApiError

    error = ApiError("Some brand new English sentence.", code="CAI_EXHAUSTED")
    assert error.body("es") == {"message": es.CODES["CAI_EXHAUSTED"], "code": "CAI_EXHAUSTED"}
    assert error.body() == {"message": "Some brand new English sentence.", "code": "CAI_EXHAUSTED"}


def test_every_message_is_extracted_by_its_id_and_a_dte_stores_only_literals():
    """The Phrase templates are the message ids (keyword extraction, as `pybabel extract -k Phrase`);
    a DTE's stored `lastError` is always a literal, so its English is its id."""
    assert len(phrase_templates()) > 300 and phrase_templates() <= raised_phrases()
    assert {reason for reason in stored_dte_errors() if "{}" in reason} == set()
