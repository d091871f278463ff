"""The Ministerio de Hacienda's published formats of the DTEs and their events (the JSON Schemas in
dte_schemas/, sources in dte_schemas/SOURCES.md) and what they refuse in a document the service
built, each problem with its field's path and what to set to mend it; no I/O beyond reading the
saved schemas."""
from __future__ import annotations

import json
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from chalicelib.countries.sv.domain import dte_catalogues
from chalicelib.countries.sv.domain.dte_editions import (
    CONTINGENCY,
    EDITION_2026,
    FORMATS,
    INVALIDATION,
    LEGACY,
    RETORNO,
    edition_of,
    is_format,
    version_of,
)
from chalicelib.messages.phrases import Phrase

# the editions (dte_editions.py, which dte_catalogues.py shares) are named here too, where the
# formats' users look for them
__all__ = ["CONTINGENCY", "EDITION_2026", "FORMATS", "INVALIDATION", "LEGACY", "RETORNO", "edition_of", "is_format",
           "version_of"]
SCHEMAS = Path(__file__).resolve().parent / "dte_schemas"


def edition_for(company: Mapping[str, Any], date: str) -> str:
    """The edition the company issues a DTE dated `date` in: the 2026 one from the date it chose
    (dteIssuer.formats2026From), the legacy one before it or without one."""
    since = (company.get("dteIssuer") or {}).get("formats2026From")
    return EDITION_2026 if since and str(since) <= date else LEGACY


def settled_issuer(current: Mapping[str, Any] | None, changes: dict[str, Any], today: str) -> dict[str, Any]:
    """The issuer block as it is stored when a request sends one without `formats2026From`: the date
    already chosen stays (the issuer is replaced whole, but the switch is history, not a setting to
    lose by leaving it out); a company setting its issuer for the first time issues in the 2026
    formats at once, from `today`; a company that already issued in the legacy ones without a date
    stays there until it chooses one. Sent (a date, or null for the legacy formats), it is kept."""
    issuer = changes.get("dteIssuer")
    if not isinstance(issuer, dict) or "formats2026From" in issuer:
        return changes
    previous = (current or {}).get("dteIssuer")
    if previous:
        chosen = previous.get("formats2026From")
        return {**changes, "dteIssuer": {**issuer, "formats2026From": chosen}} if chosen else changes
    return {**changes, "dteIssuer": {**issuer, "formats2026From": today}}


def dte_edition(dte: Mapping[str, Any]) -> str:
    """The edition a stored `dte` was issued in: its own, whatever the company issues in now."""
    return edition_of(dte["tipoDte"], dte.get("version"))


@lru_cache(maxsize=None)
def schema(format_key: str, version: int | None = None) -> dict[str, Any]:
    """The saved schema of `format_key` in `version` (None: the legacy edition's)."""
    edition = edition_of(format_key, version)
    loaded: dict[str, Any] = json.loads((SCHEMAS / FORMATS[edition][format_key][0]).read_text(encoding="utf-8"),
                        parse_float=Decimal)  # multipleOf 0.01 is exact on decimals only
    return _without_old_municipios(loaded) if edition == LEGACY else loaded


def _without_old_municipios(node: Any) -> Any:
    """The schema without its per-department municipio rules: the saved copies list the 262
    municipios before the 2024 division and would refuse the 44 that replaced them. CAT-013
    (dte_catalogues) checks the municipio instead; its two-digit pattern stays."""
    if isinstance(node, list):
        return [_without_old_municipios(item) for item in node]
    if not isinstance(node, dict):
        return node
    kept = {name: _without_old_municipios(value) for name, value in node.items()}
    if {"departamento", "municipio"} <= set((kept.get("properties") or {})) and "allOf" in kept:
        rules = [rule for rule in kept["allOf"]
                 if "municipio" not in ((rule.get("then") or {}).get("properties") or {})]
        if rules:
            kept["allOf"] = rules
        else:
            del kept["allOf"]
    return kept


@lru_cache(maxsize=None)
def _validator(format_key: str, version: int | None) -> Any:
    import jsonschema

    return jsonschema.Draft7Validator(schema(format_key, version),
                                      format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)


def schema_problems(sent: Mapping[str, Any], format_key: str | None = None) -> list[dict[str, str]]:
    """What the authority's schema refuses in `sent` (a DTE, or the event `format_key` names), in
    the format of the version its identificacion declares, each with the path of the field; in a
    DTE (and in an event of the 2026 formats), then, what its catalogues refuse (codes that match the
    schema's patterns but name nothing)."""
    key = format_key or sent["identificacion"]["tipoDte"]
    declared = (sent.get("identificacion") or {}).get("version")
    try:
        validator = _validator(key, None if declared is None else int(declared))
    except (TypeError, ValueError, KeyError):
        return [{"field": "identificacion.version", "message":
                Phrase("{} is not a version of the authority's formats for {}", repr(declared), key)}]
    problems: list[dict[str, str]] = []
    for error in sorted(validator.iter_errors(sent), key=lambda error: list(map(str, error.absolute_path))):
        path = ".".join(f"[{part}]" if isinstance(part, int) else str(part) for part in error.absolute_path)
        problem = {"field": path.replace(".[", "["), "message": _message(error)}
        if problem not in problems:  # a missing value breaks its type and its enum alike
            problems.append(problem)
    refused = {problem["field"] for problem in problems}
    # an event's catalogue problems (2026 formats only) have no remedy to add: it names what was issued
    problems += [{**problem, "message": _with_remedy(problem["field"], problem["message"]) if format_key is None
                  else problem["message"]}
                 for problem in dte_catalogues.problems(sent, format_key) if problem["field"] not in refused]
    return problems


# What to do about each field the authority asks for, for the messages: "<what>: <remedy>", each
# part a phrase of its own in messages/es.py (tests/error_codes.py reads `_REMEDIES` and `what`).
_REMEDIES = {"emisor.nrc": "set the company's NRC", "emisor.codActividad": "set the company's economic activity",
         "emisor.descActividad": "set the company's economic activity",
         "emisor.direccion": "set the company's department, municipality and address",
         "emisor.telefono": "set the company's phone", "emisor.correo": "set the company's email",
         "emisor.nit": "set the company's NIT", "receptor.nit": "set the customer's NIT",
         "receptor.numDocumento": "set the customer's NIT or DUI", "receptor.nrc": "set the customer's NRC",
         "receptor.codActividad": "set the customer's economic activity code",
         "receptor.descActividad": "set the customer's economic activity",
         "receptor.direccion": "set the customer's department, municipality and address",
         "receptor.telefono": "set the customer's phone", "receptor.correo": "set the customer's email",
         "identificacion.tipoMoneda": "set the document's currency (USD)",
         "receptor.codPais": "set the export's destination country code (CAT-020)",
         "receptor.nombrePais": "set the export's destination country",
         "receptor.complemento": "set the customer's address", "receptor.tipoPersona": "set the customer's person type",
         # an invalidation names the receiver as the DTE was issued to it: nothing to set now
         "documento.correo": "the DTE was issued without the customer's email, which its invalidation needs",
         "documento.numDocumento": "the DTE was issued without the customer's NIT or DUI, which its invalidation needs",
         "documento.tipoDocumento": "the DTE was issued without the customer's NIT or DUI, which its invalidation needs",
         "documento.nombre": "the DTE was issued without the customer's name, which its invalidation needs",
         "emisor.nombreResponsable": "set the person responsible for the company's establishment",
         "emisor.tipoDocResponsable": "set the person responsible for the company's establishment",
         "emisor.numeroDocResponsable": "set the person responsible for the company's establishment",
         # issue 40: sales (the 2026 formats' distrito; a longer path wins over its address's)
         "emisor.direccion.distrito": "set the company's district",
         "receptor.direccion.distrito": "set the customer's district"}


# A purchase's DTE (sujeto excluido) is issued by the buyer and names the seller as its receptor:
# the receptor's remedies in the supplier's words, each a phrase of its own in messages/es.py.
_SUPPLIER_REMEDIES = {"set the customer's NIT": "set the supplier's NIT",
                      "set the customer's NIT or DUI": "set the supplier's NIT or DUI",
                      "set the customer's NRC": "set the supplier's NRC",
                      "set the customer's economic activity code": "set the supplier's economic activity code",
                      "set the customer's economic activity": "set the supplier's economic activity",
                      "set the customer's department, municipality and address":
                          "set the supplier's department, municipality and address",
                      "set the customer's phone": "set the supplier's phone",
                      "set the customer's email": "set the supplier's email",
                      "set the customer's address": "set the supplier's address",
                      "set the customer's person type": "set the supplier's person type",
                      # issue 40: sales
                      "set the customer's district": "set the supplier's district"}


def for_supplier(message: str) -> str:
    """A receptor's problem ("<what>: <remedy>") as a purchase's DTE says it: of the supplier."""
    if isinstance(message, Phrase) and message.template == "{}: {}" and message.parts[1] in _SUPPLIER_REMEDIES:
        return Phrase("{}: {}", message.parts[0], _SUPPLIER_REMEDIES[message.parts[1]])
    return message


def _with_remedy(path: str, what: str) -> str:
    source = next((_REMEDIES[field] for field in sorted(_REMEDIES, key=len, reverse=True)
                   if path == field or path.startswith(field + ".")), None)
    return Phrase("{}: {}", what, source) if source else what


def _message(error: Any) -> str:
    if error.instance is None or error.validator == "required":
        what = 'missing' if error.instance is None else Phrase("{} is missing",
                                                               error.message.removesuffix(' is a required property'))
    elif error.validator in ("pattern", "enum", "const", "type", "minLength", "maxLength", "format"):
        what = Phrase("{} is not in the authority's format ({} {})",
                      repr(error.instance), error.validator, repr(error.validator_value))
    else:
        what = error.message
    return _with_remedy(".".join(str(part) for part in error.absolute_path), what)
