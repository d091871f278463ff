"""A document's DTE answers the version of the authority's format it was issued in (the console
shows it as "FE v2", "CCF v4"): the one stored with it, or, for a DTE stored before versions
were kept, its legacy edition's (FE 1, CCF 3...), never the company's current edition."""
from __future__ import annotations

from chalicelib.countries.sv.domain import dte_formats
from chalicelib.countries.sv.models import DteInfo

STORED = {"status": "accepted", "codigoGeneracion": "5F2C1E7A-0000-4000-8000-000000000001"}


def answered(dte: dict) -> dict:
    return DteInfo.model_validate(dte).model_dump(by_alias=True)


def test_a_dte_answers_the_version_it_was_issued_in():
    assert answered({**STORED, "tipoDte": "01", "version": 2})["version"] == 2
    assert answered({**STORED, "tipoDte": "03", "version": 4})["version"] == 4
    assert answered({**STORED, "tipoDte": "11", "version": 3})["version"] == 3


def test_a_dte_stored_without_a_version_answers_the_legacy_one():
    # fe-fc-v1, fe-ccf-v3, fe-nc-v3, fe-fex-v1: the package before the Normativa V2.0
    assert [answered({**STORED, "tipoDte": tipo})["version"] for tipo in ("01", "03", "05", "11")] == [1, 3, 3, 1]
    assert dte_formats.dte_edition({"tipoDte": "03"}) == dte_formats.LEGACY


def test_a_pending_dte_without_its_type_answers_no_version():
    assert answered({"status": "pending", "codigoGeneracion": STORED["codigoGeneracion"]})["version"] is None
