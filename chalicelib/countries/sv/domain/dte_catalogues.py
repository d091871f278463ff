"""The Ministerio de Hacienda's catalogues the DTE formats use (dte_catalogues/*.json, sources and
checks in dte_catalogues/SOURCES.md), no I/O but reading them: whether a code is in its catalogue,
a Salvadoran address under the 2024 municipal division, and what of a DTE's JSON the catalogues
refuse (checked with the schema, before a control number is taken).

The schemas' patterns accept any two digits (or, for the municipio, the pre-2024 codes); the
catalogues are the authority's list of what exists."""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

FOLDER = Path(__file__).resolve().parent / "dte_catalogues"
FILES = {"CAT-002": "cat-002-tipo-documento.json", "CAT-003": "cat-003-modelo-facturacion.json",
         "CAT-012": "cat-012-departamento.json", "CAT-013": "cat-013-municipio.json",
         "CAT-014": "cat-014-unidad-medida.json", "CAT-019": "cat-019-actividad-economica.json",
         "CAT-022": "cat-022-tipo-documento-receptor.json", "CAT-029": "cat-029-tipo-persona.json"}
ABROAD = "00"  # CAT-012/013: "Otro (Para extranjeros)"


@lru_cache(maxsize=None)
def catalogue(name: str) -> dict[str, Any]:
    return json.loads((FOLDER / FILES[name]).read_text(encoding="utf-8"))


def codes(name: str) -> dict[str, str]:
    """A flat catalogue's codes and their values."""
    return catalogue(name)["codes"]


@lru_cache(maxsize=None)
def _municipios() -> dict[tuple[str, str], dict[str, Any]]:
    return {(department, municipio["code"]): municipio
            for department, municipios in catalogue("CAT-013")["departments"].items() for municipio in municipios}


@lru_cache(maxsize=None)
def _districts() -> dict[tuple[str, str], str]:
    """(department, pre-2024 municipio code, which is the district's) -> the municipio it is in now."""
    return {(department, district): code for (department, code), municipio in _municipios().items()
            for district in municipio["districts"]}


def municipio(department: str, code: str) -> str | None:
    """The municipio's CAT-013 code under the 2024 division: the code itself when it is one, the
    municipio a pre-2024 code (now a district) belongs to, else None. The new codes of a department
    follow its old ones, so the two never collide."""
    if (department, code) in _municipios():
        return code
    return _districts().get((department, code))


def address(department: str, code: str) -> tuple[str, str | None]:
    """A Salvadoran address's (municipio, district) under the 2024 division: a pre-2024 municipio
    code names the district it became. ValueError naming what is not in the catalogues."""
    if department not in codes("CAT-012"):
        raise ValueError(f"department {department!r} is not in the authority's catalogue CAT-012")
    current = municipio(department, code)
    if current is None:
        raise ValueError(f"municipality {code!r} is not in the authority's catalogue CAT-013 for department "
                         f"{department}")
    return current, None if current == code else code


def address_schema() -> dict[str, Any]:
    """The JSON Schema rules of what `address` takes (a request model's department and
    municipality: together, the municipality one of the department's codes, new or pre-2024), so
    that the API's document is no looser than the check."""
    rules: list[dict[str, Any]] = [{"if": {"required": [field]}, "then": {"required": [other]}}
                                   for field, other in (("department", "municipality"), ("municipality", "department"))]
    for department, municipios in catalogue("CAT-013")["departments"].items():
        if department != ABROAD:
            listed = [municipio["code"] for municipio in municipios]
            listed += sorted(district for municipio in municipios for district in municipio["districts"])
            rules.append({"if": {"required": ["department"], "properties": {"department": {"const": department}}},
                          "then": {"properties": {"municipality": {"enum": listed}}}})
    return {"allOf": rules}


def check_code(name: str, code: Any) -> str:
    """The code, if its flat catalogue has it; ValueError otherwise."""
    if str(code) not in codes(name):
        raise ValueError(f"{code!r} is not in the authority's catalogue {name}")
    return str(code)


# Where each flat catalogue's codes sit in a DTE ("[]" for each item of a list).
_FIELDS = (("identificacion.tipoDte", "CAT-002"), ("identificacion.tipoModelo", "CAT-003"),
           ("emisor.codActividad", "CAT-019"), ("receptor.codActividad", "CAT-019"),
           ("receptor.tipoDocumento", "CAT-022"), ("receptor.tipoPersona", "CAT-029"),
           ("cuerpoDocumento[].uniMedida", "CAT-014"))


def problems(sent: Mapping[str, Any]) -> list[dict[str, str]]:
    """What the catalogues refuse in a DTE's JSON, each with the path of the field (as the schema's
    problems name it). A field absent or null is the schema's to judge."""
    found: list[dict[str, str]] = []
    for path, name in _FIELDS:
        for field, value in _values(sent, path):
            if value is not None and str(value) not in codes(name):
                found.append({"field": field, "message": f"{value!r} is not in the authority's catalogue {name}"})
    for party in ("emisor", "receptor"):
        place = (sent.get(party) or {}).get("direccion")
        if not isinstance(place, Mapping) or place.get("departamento") is None:
            continue
        department, code = str(place["departamento"]), str(place.get("municipio"))
        if department not in codes("CAT-012"):
            found.append({"field": f"{party}.direccion.departamento",
                          "message": f"{department!r} is not in the authority's catalogue CAT-012"})
        elif (department, code) not in _municipios():
            found.append({"field": f"{party}.direccion.municipio",
                          "message": f"{code!r} is not in the authority's catalogue CAT-013 for department "
                                     f"{department}"})
    return found


def _values(node: Any, path: str, prefix: str = "") -> list[tuple[str, Any]]:
    head, _, rest = path.partition(".")
    name, listed = head.removesuffix("[]"), head.endswith("[]")
    value = node.get(name) if isinstance(node, Mapping) else None
    here = f"{prefix}.{name}" if prefix else name
    if listed:
        return [found for index, item in enumerate(value or [])
                for found in (_values(item, rest, f"{here}[{index}]") if rest else [(f"{here}[{index}]", item)])]
    return _values(value, rest, here) if rest else [(here, value)]
