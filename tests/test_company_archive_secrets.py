"""No secret leaves in a company archive (issue 41, point 2), whatever the list of secret attributes
says: every attribute name of every archived item is looked at. An El Salvador company (its DTE
signing key, its credentials at the tax authority, a webhook with its signing secret) goes out
without them, and its restored copy carries on its DTE control numbers."""
from __future__ import annotations

from chalicelib.countries.sv.domain.dte import point_of_sale
from chalicelib.services.imports.company_restore import KIND
from chalicelib.services.integrations import webhooks
from chalicelib.store import keys
from tests.company_archive_support import secret_looking_names
from tests.dte_support import consumer_of, invoice, sv_shop
from tests.support import ORIGIN, make_company
from tests.test_company_archive import context, export, files, typed_items  # noqa: F401 (fixture)


def test_an_el_salvador_company_leaves_without_its_keys_and_credentials(api, table, files, company_a, monkeypatch):  # noqa: F811
    monkeypatch.setattr(webhooks, "resolve_host", lambda host, port, **_: [(2, 1, 6, "", ("93.184.216.34", port))])
    shop = sv_shop(api, company_a)  # its signing key and its password at the authority set
    session = api.login(company_a.email)  # webhooks are set in the web app
    hook = api.post("/settings/webhooks", {"name": "ERP", "url": "https://hooks.example.com/receiver",
                                           "events": ["document.confirmed"]}, cookie=session, origin=ORIGIN)
    assert hook.status == 201, hook.text
    secret = hook.json["secret"]
    sold = invoice(shop, consumer_of(shop))  # a factura: DTE 01, control number 1 at its point of sale
    point = point_of_sale(sold["number"])
    source_counter = table.get(keys.dte_control_sequence(company_a.company_id, "01", point))
    assert source_counter["nextNumber"] == 2  # one DTE issued: the next is 2
    _, content = export(api, company_a, files)

    items = typed_items(content)
    assert secret_looking_names(items) == set()
    text = str(items)
    assert secret not in text
    assert not [i for i in items if i["SK"]["S"].split("#")[0] in ("DTE_SIGNING_KEY", "DTE_AUTHORITY_CREDENTIALS")]

    new = make_company(table, "Alpha Restaurada", "owner@restaurada.sv")
    assert api.put(f"/companies/{new.company_id}", {"country": "SV", "currency": "USD"}, key=new.api_key).status == 200
    checked = KIND.check_archive(context(table, new), content)
    assert checked.errors == []
    KIND.apply(context(table, new), checked.plan)
    restored = table.get(keys.dte_control_sequence(new.company_id, "01", point))
    assert restored["nextNumber"] == source_counter["nextNumber"] == 2
    # the webhook came without its secret: paused until one is entered
    listed = api.get("/settings/webhooks", cookie=api.login(new.email), origin=ORIGIN)
    assert [w["isActive"] for w in listed.json["webhooks"]] == [False]
