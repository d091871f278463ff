"""Issue 40: which formats a Salvadoran company issues in when it does not say. A company setting up
its DTE issuer issues in Hacienda's 2026 formats at once (formats2026From = today in El Salvador);
the date it chose stays when the issuer is sent again without it (the issuer is replaced whole, the
switch is not lost by leaving it out); a company in the legacy formats (null, or an issuer stored
before the date existed) stays in them until it chooses a date."""
from __future__ import annotations

import json
from decimal import Decimal

from chalicelib import clock
from chalicelib.countries.sv.domain import dte_formats
from tests.documents_support import SV_ISSUER
from tests.dte_support import consumer_of, invoice, received_payload, sv_shop

WITHOUT_DATE = {name: value for name, value in SV_ISSUER.items() if name != "formats2026From"}


def issuer_of(shop) -> dict:
    reply = shop.api.get("/companies", key=shop.key)
    assert reply.status == 200, reply.text
    return reply.json["dteIssuer"]


def put_issuer(shop, issuer: dict) -> None:
    reply = shop.api.put(f"/companies/{shop.company.company_id}", {"dteIssuer": issuer}, key=shop.key)
    assert reply.status == 200, reply.text


def version_sent(authority, shop, consumer: int) -> int:
    document = invoice(shop, consumer)
    sent = json.loads(received_payload(authority, document["codigoGeneracion"]), parse_float=Decimal)
    assert dte_formats.schema_problems(sent) == []
    return sent["identificacion"]["version"]


def test_a_company_setting_up_its_issuer_issues_in_the_2026_formats_at_once_and_keeps_the_date(api, company_b):
    # a company becoming Salvadoran sets up its issuer for the first time, without a date: from today
    reply = api.put(f"/companies/{company_b.company_id}", {"country": "SV", "currency": "USD",
                                                           "dteIssuer": WITHOUT_DATE}, key=company_b.api_key)
    assert reply.status == 200, reply.text
    assert reply.json["dteIssuer"]["formats2026From"] == clock.today_in("SV")
    # it chooses a later date, then sends its issuer again without it (a new trade name): the date stays
    for issuer in (WITHOUT_DATE | {"formats2026From": "2027-01-04"}, WITHOUT_DATE | {"tradeName": "Beta Centro"}):
        reply = api.put(f"/companies/{company_b.company_id}", {"dteIssuer": issuer}, key=company_b.api_key)
        assert reply.status == 200, reply.text
    assert (reply.json["dteIssuer"]["formats2026From"], reply.json["dteIssuer"]["tradeName"]) == (
        "2027-01-04", "Beta Centro")


def test_a_company_in_the_legacy_formats_stays_there_until_it_chooses_a_date(api, company_a, dte_authority):
    shop = sv_shop(api, company_a)  # its issuer chose no date (null): the legacy formats
    consumer = consumer_of(shop)
    put_issuer(shop, WITHOUT_DATE | {"tradeName": "Alfa Centro"})  # sent again without one
    assert issuer_of(shop)["formats2026From"] is None
    assert version_sent(dte_authority, shop, consumer) == 1  # fe-fc-v1
    put_issuer(shop, WITHOUT_DATE | {"formats2026From": clock.today_in("SV")})
    assert version_sent(dte_authority, shop, consumer) == 2  # fe-f-v2
