"""What the stand-in authority checks of what it receives beyond the schemas (which
dte_formats.schema_problems applies in the version each document declares): a version its type
has, the control number's form in each edition, an invalidation in the edition of the DTE it
invalidates, and what the contingency event leaves to the catalogues. Its answers' texts imitate
the Ministerio's (upper case, the field in brackets)."""
from __future__ import annotations

import re
from typing import Any

from chalicelib.countries.sv.domain import dte as dte_rules
from chalicelib.countries.sv.domain import dte_formats


def is_version_of(format_key: str, version: Any) -> bool:
    """Whether `version` is one the authority publishes for that document type (either edition)."""
    try:
        dte_formats.edition_of(format_key, int(version))
    except (TypeError, ValueError):
        return False
    return True


# Normativa de Cumplimiento V2.0: the establishment's type letter (CAT-009: M casa matriz, S sucursal,
# B bodega, P patio), its 3 digits, P and the point of sale's 3 digits, then 15 digits
_NUMERO_CONTROL_2026 = re.compile(r"DTE-(\d{2})-[MBSP]\d{3}P\d{3}-\d{15}")


def numero_control_problem(identification: dict[str, Any], tipo: str) -> str | None:
    """What is wrong with a DTE's control number for its type and the edition of its version (a
    return event has none); None when nothing."""
    if tipo == dte_formats.RETORNO:
        return None
    value = identification.get("numeroControl")
    if dte_formats.edition_of(tipo, identification.get("version")) == dte_formats.LEGACY:
        if dte_rules.is_numero_control(value) and value[4:6] == tipo:
            return None
        return "[identificacion.numeroControl] NO CORRESPONDE AL TIPO DE DOCUMENTO"
    found = _NUMERO_CONTROL_2026.fullmatch(value) if isinstance(value, str) else None
    if found is None:
        return (f"[identificacion.numeroControl] DEBE TENER LA FORMA DTE-{tipo}-XnnnPnnn-nnnnnnnnnnnnnnn "
                f"(X: M, S, B O P SEGUN EL TIPO DE ESTABLECIMIENTO) EN LA VERSION {identification.get('version')}")
    if found.group(1) != tipo:
        return "[identificacion.numeroControl] NO CORRESPONDE AL TIPO DE DOCUMENTO"
    return None


def invalidation_version_problem(request: dict[str, Any], sent: dict[str, Any],
                                  invalidated: dict[str, Any]) -> str | None:
    """An invalidation is in the edition of the DTE it invalidates (anulacion-schema-v2 of a legacy
    DTE, invalidacion-schema-v3 of a 2026 one), of that DTE's type, and the request says its version."""
    declared = invalidated["document"]["identificacion"].get("version")
    expected = dte_formats.version_of(dte_formats.INVALIDATION,
                                      dte_formats.edition_of(invalidated["tipoDte"], declared))
    version = sent["identificacion"]["version"]
    if version != expected:
        return (f"[identificacion.version] UN DOCUMENTO VERSION {declared} SE INVALIDA CON EL EVENTO VERSION "
                f"{expected}")
    if request.get("version") != version:
        return "[version] NO CORRESPONDE AL EVENTO FIRMADO"
    if sent["documento"].get("tipoDte") != invalidated["tipoDte"]:
        return "[documento.tipoDte] NO CORRESPONDE AL DOCUMENTO"
    return None


# CAT-009: the establishment types (01 sucursal, 02 casa matriz, 04 bodega, 07 patio, 20 otro); the
# contingencia-schema-v4 leaves the list to the catalogue
_ESTABLISHMENT_TYPES = ("01", "02", "04", "07", "20")


def contingency_problems(sent: dict[str, Any]) -> list[str]:
    """What the contingency event's schema leaves to the catalogues: the types of its DTEs and,
    in v4, of the establishment."""
    problems = [f"[detalleDTE[{index}].tipoDoc] TIPO DE DOCUMENTO NO SOPORTADO: {item['tipoDoc']}"
                for index, item in enumerate(sent["detalleDTE"]) if not dte_formats.is_format(item["tipoDoc"])
                or item["tipoDoc"] in (dte_formats.INVALIDATION, dte_formats.CONTINGENCY)]
    if sent["emisor"]["tipoEstablecimiento"] not in _ESTABLISHMENT_TYPES:
        problems.append("[emisor.tipoEstablecimiento] NO EXISTE EN EL CATALOGO CAT-009")
    return problems
