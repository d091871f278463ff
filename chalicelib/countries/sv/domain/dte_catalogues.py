"""The Ministerio de Hacienda's catalogues the DTE formats use (dte_catalogues/*.json for the legacy
formats, dte_catalogues/2026/ for the 2026 ones; sources and checks in dte_catalogues/SOURCES.md), no
I/O but reading them: whether a code is in its catalogue, a Salvadoran address under the 2024
municipal division (municipio and distrito), and what of a DTE's JSON the catalogues refuse (checked
with the schema, before a control number is taken).

The schemas' patterns accept any two digits (or, for the municipio, the pre-2024 codes), and the 2026
schemas enumerate almost nothing; the catalogues are the authority's list of what exists."""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from chalicelib.countries.sv.domain.dte_editions import EDITION_2026, edition_of
from chalicelib.messages.phrases import Phrase

FOLDER = Path(__file__).resolve().parent / "dte_catalogues"
# The municipal division is one whatever the format: CAT-013 (with each municipio's districts) is the July
# 2026 catalogue's for both editions.
MUNICIPIOS = "2026/cat-013-municipio.json"
FILES = {"CAT-002": "cat-002-tipo-documento.json", "CAT-003": "cat-003-modelo-facturacion.json",
         "CAT-012": "cat-012-departamento.json", "CAT-013": MUNICIPIOS,
         "CAT-014": "cat-014-unidad-medida.json", "CAT-019": "cat-019-actividad-economica.json",
         "CAT-022": "cat-022-tipo-documento-receptor.json", "CAT-029": "cat-029-tipo-persona.json"}
# The catalogues of the 2026 formats: the May 2026 workbook with the July 2026 changes. CAT-019 is the
# legacy file (the May workbook lists the same 774 codes and names).
FILES_2026 = {"CAT-019": FILES["CAT-019"], **{
    name: f"2026/cat-{name[4:]}-{slug}.json" for name, slug in (
        ("CAT-002", "tipo-documento"), ("CAT-003", "modelo-facturacion"), ("CAT-004", "tipo-transmision"),
        ("CAT-005", "tipo-contingencia"), ("CAT-006", "retencion-iva"), ("CAT-007", "tipo-generacion"),
        ("CAT-008", "distrito"), ("CAT-009", "tipo-establecimiento"), ("CAT-011", "tipo-item"),
        ("CAT-012", "departamento"), ("CAT-013", "municipio"), ("CAT-014", "unidad-medida"), ("CAT-015", "tributos"),
        ("CAT-016", "condicion-operacion"), ("CAT-017", "forma-pago"), ("CAT-018", "plazo"), ("CAT-020", "pais"),
        ("CAT-022", "tipo-documento-identificacion"), ("CAT-024", "motivo-invalidacion"),
        ("CAT-027", "recinto-fiscal"), ("CAT-028", "regimen"), ("CAT-029", "tipo-persona"), ("CAT-031", "incoterms"),
        ("CAT-032", "domicilio-fiscal"), ("CAT-033", "tipo-regimen"))}}
ABROAD = "00"  # CAT-012/013: "Otro (Para extranjeros)"


@lru_cache(maxsize=None)
def catalogue(name: str, edition: str | None = None) -> dict[str, Any]:
    """A catalogue as saved: the legacy formats' (edition None), or the 2026 formats' (EDITION_2026)."""
    files = FILES_2026 if edition == EDITION_2026 else FILES
    loaded: dict[str, Any] = json.loads((FOLDER / files[name]).read_text(encoding="utf-8"))
    return loaded


def codes(name: str, edition: str | None = None) -> dict[str, str]:
    """A flat catalogue's codes and their values."""
    found: dict[str, str] = catalogue(name, edition)["codes"]
    return found


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
        raise ValueError(Phrase("{} is not in the authority's catalogue CAT-012",
                                Phrase("department {}", repr(department))))
    current = municipio(department, code)
    if current is None:
        raise ValueError(Phrase("{} is not in the authority's catalogue CAT-013 for department {}",
                                Phrase("municipality {}", repr(code)), department))
    return current, None if current == code else code


def districts(department: str, code: str) -> dict[str, str]:
    """The districts (CAT-008 codes and names) of a municipio under the 2024 division; none for a code
    that names no municipio."""
    found = _municipios().get((department, code))
    return dict(found["districts"]) if found else {}


def district_municipio(department: str, district: str) -> str | None:
    """The 2024 municipio a district (the CAT-008 code within the department) lies in; None when the
    department has no such district."""
    return _districts().get((department, district))


def district_address(department: str, district: str) -> tuple[str, str]:
    """A Salvadoran address named by its district (the CAT-008 code within the department, the code the
    place had as a municipio before 2024): (the 2024 municipio it lies in, the district). ValueError
    naming what is not in the catalogues."""
    if department not in codes("CAT-012"):
        raise ValueError(Phrase("{} is not in the authority's catalogue CAT-012",
                                Phrase("department {}", repr(department))))
    current = district_municipio(department, district)
    if current is None:
        raise ValueError(Phrase("{} is not in the authority's catalogue CAT-008 for department {}", repr(district),
                                department))
    return current, district


def with_district(department: str, code: str | None, district: str | None) -> tuple[str, str | None]:
    """A Salvadoran address's (municipio, district) from the one field that names the place: the
    municipality (a 2024 municipio, or a pre-2024 code, which names its district: `address`) or the
    district (`district_address`), never both. ValueError naming what is wrong (the district's
    problems say "district")."""
    if district is None:
        return address(department, code or "")
    place = district_address(department, district)
    if code is not None and not names_place(department, code, district):
        raise ValueError("send the district or the municipality, not both: the district names its municipio")
    return place


def names_place(department: str, code: str, district: str) -> bool:
    """Whether a municipality sent beside a district names the same place: the district's 2024
    municipio, or the district's own pre-2024 code (what an address read back and sent again holds)."""
    return code in (district_municipio(department, district), district)


def address_schema() -> dict[str, Any]:
    """The JSON Schema rules of what `with_district` takes (a request model's department, municipality
    and district): the department with ONE field that names the place, its municipality (a 2024
    municipio's code or a pre-2024 one) or its district, each one of the department's codes. One
    field, not a district that must lie in the municipality sent beside it (the check takes that pair
    too, so that an address read back can be sent again, but the document names one): that would take a rule per
    municipio (44), more conditionals than the fuzzer's schema engine takes in (it gives up on the whole
    request body), and a client generator fares no better; a district per department is what the check
    asks, so the document is no looser than the check."""
    def given(name: str, kind: str = "string") -> dict[str, Any]:
        return {"required": [name], "properties": {name: {"type": kind}}}

    rules: list[dict[str, Any]] = [
        # a department names its place by one field; a department cleared (null) clears them both
        {"if": given("department"), "then": {"anyOf": [given("municipality"), given("district")]}},
        {"if": given("department", "null"),
         "then": {"required": ["municipality"], "properties": {"municipality": {"type": "null"},
                                                                "district": {"type": "null"}}}},
        {"if": {"required": ["municipality"]}, "then": {"required": ["department"]}},
        {"if": given("municipality"), "then": given("department")},
        {"if": given("district"), "then": {**given("department"), "not": {"required": ["municipality"]}}}]
    for department, municipios in catalogue("CAT-013")["departments"].items():
        if department != ABROAD:
            named = sorted(district for municipio in municipios for district in municipio["districts"])
            rules.append({"if": {"required": ["department"], "properties": {"department": {"const": department}}},
                          "then": {"properties": {
                              "municipality": {"enum": [municipio["code"] for municipio in municipios] + named},
                              "district": {"enum": [*named, None]}}}})
    return {"allOf": rules}


def check_code(name: str, code: Any) -> str:
    """The code, if its flat catalogue has it; ValueError otherwise."""
    if str(code) not in codes(name):
        raise ValueError(Phrase("{} is not in the authority's catalogue {}", repr(code), name))
    return str(code)


# Where each flat catalogue's codes sit in a DTE ("[]" for each item of a list).
_FIELDS = (("identificacion.tipoDte", "CAT-002"), ("identificacion.tipoModelo", "CAT-003"),
           ("emisor.codActividad", "CAT-019"), ("receptor.codActividad", "CAT-019"),
           ("receptor.tipoDocumento", "CAT-022"), ("receptor.tipoPersona", "CAT-029"),
           ("cuerpoDocumento[].uniMedida", "CAT-014"))
# ... and in the 2026 formats, whose schemas moved most enums and patterns into the catalogues: the
# DTEs' fields, then the events' (invalidation v3, contingency v4, return v1)
_FIELDS_2026 = (
    ("identificacion.tipoDte", "CAT-002"), ("identificacion.tipoModelo", "CAT-003"),
    ("identificacion.tipoOperacion", "CAT-004"), ("identificacion.tipoContingencia", "CAT-005"),
    ("documentoRelacionado[].tipoDocumento", "CAT-002"), ("documentoRelacionado[].tipoGeneracion", "CAT-007"),
    ("emisor.codActividad", "CAT-019"), ("emisor.tipoEstablecimiento", "CAT-009"),
    ("emisor.recintoFiscal", "CAT-027"), ("emisor.regimen", "CAT-028"), ("emisor.tipoRegimen", "CAT-033"),
    ("receptor.codActividad", "CAT-019"), ("receptor.tipoDocumento", "CAT-022"), ("receptor.tipoPersona", "CAT-029"),
    ("receptor.codPais", "CAT-020"), ("receptor.codDomiciliado", "CAT-032"),
    ("receptor.tipoEstablecimiento", "CAT-009"), ("ventaTercero.codDomiciliado", "CAT-032"),
    ("cuerpoDocumento[].tipoItem", "CAT-011"), ("cuerpoDocumento[].uniMedida", "CAT-014"),
    ("cuerpoDocumento[].codTributo", "CAT-015"), ("cuerpoDocumento[].tributos[]", "CAT-015"),
    ("cuerpoDocumento[].tipoDte", "CAT-002"), ("cuerpoDocumento[].tipoGeneracion", "CAT-007"),
    ("cuerpoDocumento[].codigoRetencionMH", "CAT-006"),
    ("resumen.condicionOperacion", "CAT-016"), ("resumen.pagos[].codigo", "CAT-017"),
    ("resumen.pagos[].plazo", "CAT-018"), ("resumen.tributos[].codigo", "CAT-015"),
    ("resumen.codIncoterms", "CAT-031"), ("resumen.codigoRetencionMH", "CAT-006"),
    ("documento.tipoDte", "CAT-002"), ("documento.tipoDocumento", "CAT-022"), ("documento.codPais", "CAT-020"),
    ("motivo.tipoAnulacion", "CAT-024"), ("motivo.tipDocResponsable", "CAT-022"),
    ("motivo.tipDocSolicita", "CAT-022"), ("motivo.tipoContingencia", "CAT-005"),
    ("emisor.tipoDocResponsable", "CAT-022"), ("detalleDTE[].tipoDoc", "CAT-002"))


def problems(sent: Mapping[str, Any], format_key: str | None = None) -> list[dict[str, str]]:
    """What the catalogues refuse in a DTE's JSON (or in the event `format_key` names), each with the
    path of the field (as the schema's problems name it). A field absent or null is the schema's to
    judge. A format of the 2026 edition (by the version its identificacion declares) is checked against
    the 2026 catalogues, the distrito within its municipio included; a legacy DTE as before, a legacy
    event not at all."""
    identification = sent.get("identificacion") or {}
    key = format_key or identification.get("tipoDte")
    try:
        edition = edition_of(str(key), identification.get("version"))
    except (TypeError, ValueError):
        edition = None  # a version no format has: the schema's problem
    if edition == EDITION_2026:
        return _problems(sent, _FIELDS_2026, EDITION_2026)
    return _problems(sent, _FIELDS, None) if format_key is None and edition is not None else []


def _problems(sent: Mapping[str, Any], fields: tuple[tuple[str, str], ...], edition: str | None) -> list[dict[str, str]]:
    found: list[dict[str, str]] = []
    for path, name in fields:
        for field, value in _values(sent, path):
            if value is not None and not isinstance(value, bool) and str(value) not in codes(name, edition):
                found.append({"field": field, "message": Phrase("{} is not in the authority's catalogue {}",
                                                                repr(value), name)})
    for party in ("emisor", "receptor"):
        place = (sent.get(party) or {}).get("direccion")
        if isinstance(place, Mapping) and place.get("departamento") is not None:
            found += _place_problems(f"{party}.direccion", place, edition)
    return found


def _place_problems(path: str, place: Mapping[str, Any], edition: str | None) -> list[dict[str, str]]:
    department, code = str(place["departamento"]), str(place.get("municipio"))
    if department not in codes("CAT-012", edition):
        return [{"field": f"{path}.departamento", "message":
                Phrase("{} is not in the authority's catalogue CAT-012", repr(department))}]
    if (department, code) not in _municipios():
        return [{"field": f"{path}.municipio", "message": Phrase("{} is not in the authority's catalogue CAT-013 for "
                                                                 "department {}", repr(code), department)}]
    district = place.get("distrito")
    if edition == EDITION_2026 and district is not None and str(district) not in districts(department, code):
        return [{"field": f"{path}.distrito", "message": Phrase("{} is not in the authority's catalogue CAT-008 for "
                                                                "municipio {} of department {}",
                                                                repr(str(district)), code, department)}]
    return []


def _values(node: Any, path: str, prefix: str = "") -> list[tuple[str, Any]]:
    head, _, rest = path.partition(".")
    name, listed = head.removesuffix("[]"), head.endswith("[]")
    value = node.get(name) if isinstance(node, Mapping) else None
    here = f"{prefix}.{name}" if prefix else name
    if listed:
        if not isinstance(value, list):
            return []  # absent, or not a list: the schema's to judge
        return [found for index, item in enumerate(value)
                for found in (_values(item, rest, f"{here}[{index}]") if rest else [(f"{here}[{index}]", item)])]
    return _values(value, rest, here) if rest else [(here, value)]
