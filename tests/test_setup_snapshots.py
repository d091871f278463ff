"""A restored set-up stands for the built one (tests/setup_snapshots.py): the table a test gets is
item for item the one the requests left, and the same requests made again leave the same items
(but for what is random or the time: secrets, salts, key ids, timestamps)."""
from __future__ import annotations

import json
import os
import re
import time

import pytest

from chalicelib.countries.sv.services.dte_authority import _tokens as authority_tokens
from infra.deploy.resources import create_table
from infra.devstack import faithful_dynamodb
from tests import setup_snapshots
from tests.documents_support import SV_COMPANY_NIT, Shop
from tests.dte_support import consumer_of, invoice
from tests.support import make_company

# what differs between two builds of one set-up: random or read from the clock
RANDOM_OR_TIME = [(re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z?"), "<time>"),
                  (re.compile(r"scrypt\$[^\"]+"), "<password hash>"), (re.compile(r"ak_[A-Z2-7]{16}"), "<key id>"),
                  (re.compile(r"\b[0-9a-f]{64}\b"), "<sha-256>"), (re.compile(r"\b[0-9a-f]{32}\b"), "<uuid>"),
                  (re.compile(r'"lastFour": \{"S": "[^"]{4}"\}'), '"lastFour": "<the secret\'s last four>"'),
                  (re.compile(r'"expiresAt": \{"N": "\d+"\}'), '"expiresAt": "<epoch seconds>"')]


def items(table) -> dict[tuple[str, str], dict]:
    moto_table = setup_snapshots._moto_table(table.name)
    return {(item.hash_key.value, item.range_key.value): json.loads(json.dumps(item.to_json()["Attributes"]))
            for partition in moto_table.items.values() for item in partition.values()}


def steady(table_items: dict[tuple[str, str], dict]) -> list[str]:
    """Every item, keys and attributes, with what is random or the time blanked."""
    written = []
    for key, attributes in table_items.items():
        text = json.dumps([key, attributes], sort_keys=True)
        for pattern, blank in RANDOM_OR_TIME:
            text = pattern.sub(blank, text)
        written.append(text)
    return sorted(written)


def fresh(table) -> None:
    """What the next test starts from: its own empty table."""
    table.client.delete_table(TableName=table.name)
    create_table(table.client, table.name)


def shop_fields(shop: Shop) -> dict:
    return {name: value for name, value in vars(shop).items() if name not in ("api", "books", "company")}


def test_a_restored_shop_is_the_built_one_item_for_item(api, table):
    setup_snapshots._kept.clear()
    built = Shop(api, make_company(table, "Snap S.A.", "owner@snap.hn"))
    after_build = items(table)
    assert setup_snapshots.counts["built"] >= 3  # the company, its chart, the shop: requests made

    fresh(table)
    restored_before = setup_snapshots.counts["restored"]
    again = Shop(api, make_company(table, "Snap S.A.", "owner@snap.hn"))
    assert setup_snapshots.counts["restored"] == restored_before + 2  # the company and the shop
    assert items(table) == after_build
    assert shop_fields(again) == shop_fields(built) and again.books.accounts == built.books.accounts
    # and it works: a sale on the restored shop numbers, books and takes stock as on the built one
    again.document("103", [(again.product, 5, 60)])
    invoice = again.document("01", [(again.product, 2, 100)])
    assert invoice["number"] == "001-001-01-00000001" and again.stock() == 3


def test_a_restored_salvadoran_shop_is_known_again_to_the_authority_outside_the_table(api, table, dte_authority):
    """An SV shop also registers its key and password at the authority (the stand-in, outside the
    table), and setting the password forgets the log-in tokens this process kept: restored, it
    registers again and forgets them, and its invoice is received and sealed."""
    setup_snapshots._kept.clear()
    built = Shop(api, make_company(table, "Snap S.A.", "owner@snap.hn"), country="SV")
    after_build = items(table)

    fresh(table)
    dte_authority.taxpayers.clear()  # an authority that never heard of it
    key = (os.environ["DTE_AUTHORITY_URL"], built.company.company_id, SV_COMPANY_NIT.replace("-", ""))
    authority_tokens[key] = ("Bearer an-earlier-test's", time.monotonic() + 3600)  # a token this process kept
    restored_before = setup_snapshots.counts["restored"]
    again = Shop(api, make_company(table, "Snap S.A.", "owner@snap.hn"), country="SV")
    assert setup_snapshots.counts["restored"] == restored_before + 2  # the company and the shop
    assert items(table) == after_build and shop_fields(again) == shop_fields(built)
    assert list(dte_authority.taxpayers) == [SV_COMPANY_NIT.replace("-", "")] and key not in authority_tokens
    issued = invoice(again, consumer_of(again))
    assert issued["dte"]["status"] == "accepted" and issued["dte"]["selloRecepcion"]


def test_the_same_requests_again_leave_the_same_items(api, table, monkeypatch):
    setup_snapshots._kept.clear()
    Shop(api, make_company(table, "Snap S.A.", "owner@snap.hn"))
    restored = items(table)
    fresh(table)
    monkeypatch.setenv("SETUP_SNAPSHOTS", "0")
    built_before = setup_snapshots.counts["built"]
    Shop(api, make_company(table, "Snap S.A.", "owner@snap.hn"))
    assert setup_snapshots.counts["built"] == built_before  # built as written, nothing kept
    assert steady(items(table)) == steady(restored)


@pytest.mark.parametrize("fault", ["fault", "latency"])
def test_no_snapshot_is_restored_while_the_faithful_layer_misbehaves(api, table, fault):
    setup_snapshots._kept.clear()
    make_company(table, "Snap S.A.", "owner@snap.hn")
    fresh(table)
    if fault == "fault":
        faithful_dynamodb.inject("Scan", "throttle")  # a call the set-up never makes
    else:
        faithful_dynamodb.configure(call_latency_s=0.001)
    restored_before = setup_snapshots.counts["restored"]
    make_company(table, "Snap S.A.", "owner@snap.hn")
    assert setup_snapshots.counts["restored"] == restored_before


def test_a_set_up_on_a_table_the_test_wrote_itself_is_made_and_not_kept(api, table):
    setup_snapshots._kept.clear()
    owner = make_company(table, "Snap S.A.", "owner@snap.hn")
    assert api.post("/business-partners", {"name": "Cliente", "type": "customer"}, key=owner.api_key).status == 201
    built_before = setup_snapshots.counts["built"]
    make_company(table, "Otra S.A.", "owner@otra.hn")
    assert setup_snapshots.counts["built"] == built_before + 1 and len(setup_snapshots._kept) == 1
