"""The console's list of El Salvador's places (chalicelib/console/sv-places.js: departments,
their municipios under the 2024 division and each municipio's districts) is the API's catalogues
(CAT-012, CAT-013) as they are: the console has no build step, so the module is written from them
(`python -m tests.test_console_sv_places` writes it again after a catalogue changes)."""
from __future__ import annotations

import json

from chalicelib.api.console import CONSOLE_ROOT
from chalicelib.countries.sv.domain import dte_catalogues

MODULE = CONSOLE_ROOT / "sv-places.js"
HEAD = ("// El Salvador's departments (CAT-012), their municipios under the 2024 division (CAT-013) and each\n"
        "// municipio's districts by the code each had as a municipio before 2024 (the API's `district`).\n"
        "// Written from the API's catalogues by tests/test_console_sv_places.py, which checks they agree.\n"
        "export const SV_PLACES = ")


def places() -> list[dict]:
    departments = dte_catalogues.codes("CAT-012")
    municipios = dte_catalogues.catalogue("CAT-013")["departments"]
    return [{"code": code, "name": departments[code],
             "municipios": [{"code": m["code"], "name": m["name"],
                             "districts": [{"code": d, "name": name} for d, name in sorted(m["districts"].items())]}
                            for m in municipios[code]]}
            for code in sorted(departments) if code != dte_catalogues.ABROAD]


def module_text() -> str:
    return HEAD + json.dumps(places(), ensure_ascii=False, separators=(",", ":")) + ";\n"


def test_the_console_lists_the_catalogues_places():
    text = MODULE.read_text(encoding="utf-8")
    assert text.startswith(HEAD)
    assert json.loads(text[len(HEAD):].rstrip().rstrip(";")) == places(), \
        "the catalogues changed: python -m tests.test_console_sv_places"


def test_the_api_takes_every_place_the_console_offers():
    """The console sends the department with the district chosen (it names its municipio), else with
    the municipio: the API keeps the place as listed (06, 23 San Salvador Centro, 14 San Salvador)."""
    for department in places():
        for municipio in department["municipios"]:
            assert dte_catalogues.with_district(department["code"], municipio["code"], None) == (municipio["code"], None)
            for district in municipio["districts"]:
                assert dte_catalogues.with_district(department["code"], None, district["code"]) == (
                    municipio["code"], district["code"])
    assert dte_catalogues.with_district("06", None, "14") == ("23", "14")


if __name__ == "__main__":
    MODULE.write_text(module_text(), encoding="utf-8")
