"""The editions of the Ministerio de Hacienda's DTE formats and the version each format declares in
each: what dte_formats.py (the schemas) and dte_catalogues.py (the codes) both ask of a DTE's
`identificacion.version`. Its own module so that neither of those imports the other for it."""
from __future__ import annotations

from typing import Any

from chalicelib.countries.sv.domain.dte import (
    CREDITO_FISCAL,
    EXPORTACION,
    FACTURA,
    NOTA_CREDITO,
    NOTA_DEBITO,
    RETENCION,
    SUJETO_EXCLUIDO,
)

INVALIDATION, CONTINGENCY = "anulacion", "contingencia"
# The return event (evento de retorno, CAT-002 18): an FE, FEX or FSE's goods returned or money refunded.
RETORNO = "18"
# The two editions of the authority's formats a company may issue in: the package before the Normativa
# de Cumplimiento V2.0, and its 2026 package (svfe-json-schemas of 2026-08-11, kept under v1..v4/ as
# published). A DTE keeps the version it was issued in (its `dte.version`); a company chooses from which
# date it issues in the 2026 edition (dteIssuer.formats2026From).
LEGACY, EDITION_2026 = "legacy", "2026"
# per edition, each format's saved schema and the version its identificacion declares
FORMATS = {
    LEGACY: {FACTURA: ("fe-fc-v1.json", 1), CREDITO_FISCAL: ("fe-ccf-v3.json", 3), NOTA_CREDITO: ("fe-nc-v3.json", 3),
             NOTA_DEBITO: ("fe-nd-v3.json", 3), SUJETO_EXCLUIDO: ("fe-fse-v1.json", 1),
             RETENCION: ("fe-cr-v1.json", 1), EXPORTACION: ("fe-fex-v1.json", 1),
             INVALIDATION: ("anulacion-schema-v2.json", 2), CONTINGENCY: ("contingencia-schema-v3.json", 3)},
    EDITION_2026: {FACTURA: ("v2/fe-f-v2.json", 2), CREDITO_FISCAL: ("v4/fe-ccf-v4.json", 4),
                   NOTA_CREDITO: ("v4/fe-nc-v4.json", 4), NOTA_DEBITO: ("v4/fe-nd-v4.json", 4),
                   SUJETO_EXCLUIDO: ("v2/fe-fse-v2.json", 2), RETENCION: ("v2/fe-cr-v2.json", 2),
                   EXPORTACION: ("v3/fe-fex-v3.json", 3), RETORNO: ("v1/fe-eret-v1.json", 1),
                   INVALIDATION: ("v3/invalidacion-schema-v3.json", 3),
                   CONTINGENCY: ("v4/contingencia-schema-v4.json", 4)}}


def is_format(format_key: Any) -> bool:
    """Whether the authority has a saved format of that key (a tipoDte or an event) in any edition."""
    return any(format_key in formats for formats in FORMATS.values())


def version_of(format_key: str, edition: str = LEGACY) -> int:
    """The version a format of `format_key` (a tipoDte, or an event) declares in `edition`."""
    return FORMATS[edition][format_key][1]


def edition_of(format_key: str, version: Any = None) -> str:
    """The edition a format's version belongs to (none given: a DTE issued before versions were
    stored, the legacy one)."""
    if version is None:
        return LEGACY
    found = next((edition for edition, formats in FORMATS.items()
                  if format_key in formats and formats[format_key][1] == int(version)), None)
    if found is None:
        raise ValueError(f"no saved format {format_key} version {version}")
    return found
