"""Honduran numbers as SAR prints them: EEE-PPP-TT-NNNNNNNN with SAR's two-digit document code in
the type place (Acuerdo 481-2017; the table and its sources in docs/decisions.md), and the
migration that leaves numbers already issued as they were."""
from __future__ import annotations

import re

from chalicelib.domain.document_types import number_segment
from chalicelib.store import keys
from chalicelib.store.table import to_attributes
from infra.ops.migrations import overlapping_ranges_of_one_sar_series
from tests.documents_support import CAI, Shop

SAR_NUMBER = re.compile(r"^\d{3}-\d{3}-\d{2}-\d{8}$")

# Written by hand from the regulation: Factura 01 (Art. 10 num. 7 c, a reservation invoice is a
# Factura too), Comprobante de Retención 05, Nota de Crédito 06, Nota de Débito 07, Guía de
# Remisión 08; documents SAR does not number take codes it leaves unassigned (89-98).
EXPECTED = {"01": "001-001-01-00000001", "113": "001-001-01-00000002", "06": "001-001-06-00000001",
            "07": "001-001-07-00000001", "05": "001-001-05-00000001", "112": "001-001-08-00000001",
            "100": "001-001-91-00000001", "101": "001-001-92-00000001", "102": "001-001-93-00000001",
            "103": "001-001-94-00000001", "104": "001-001-95-00000001", "105": "001-001-96-00000001",
            "106": "001-001-97-00000001", "11": "001-001-98-00000001"}


def test_every_honduran_type_is_numbered_with_sar_s_code(api, company_a):
    shop = Shop(api, company_a)
    purchase = shop.document("103", [(shop.product, 10, 60)])
    invoice = shop.document("01")
    numbers = {
        "103": purchase["number"], "01": invoice["number"],
        # the reservation invoice takes the next number of the invoices' CAI range: one Factura series
        "113": shop.document("113")["number"],
        "06": shop.document("06", [(shop.product, 1, 10)], sourceDocumentId=invoice["id"])["number"],
        "07": shop.document("07", [(None, 1, 5)], sourceDocumentId=invoice["id"])["number"],
        "05": shop.document("05", [(None, 1, 3)], withholding={"tax": "isv", "side": "sales"})["number"],
        "112": shop.document("112")["number"],
        "100": shop.document("100", status="confirmed")["number"],
        "101": shop.document("101", status="confirmed")["number"],
        "102": shop.document("102", status="confirmed")["number"],
        "104": shop.document("104")["number"],
        "105": shop.document("105", [(shop.product, 1, 60)], sourceDocumentId=purchase["id"])["number"],
        "106": shop.document("106", [(None, 1, 5)], sourceDocumentId=purchase["id"])["number"],
        "11": shop.document("11", [(None, 1, 40)])["number"],
    }
    assert numbers == EXPECTED
    assert all(SAR_NUMBER.match(number) for number in numbers.values()), numbers
    # the CAI block printed on the invoice names the range in the same shape
    assert (invoice["cai"]["rangeStart"], invoice["cai"]["rangeEnd"]) == ("001-001-01-00000001", "001-001-01-00001000")


def test_opening_balances_and_other_countries_keep_their_own_places():
    # a customer's and a supplier's opening balance: two series, two unassigned codes
    assert (number_segment("HN", "900"), number_segment("HN", "901")) == ("89", "90")
    # El Salvador's numbers are the API's (its fiscal number is the DTE's numeroControl)
    assert (number_segment("SV", "113"), number_segment("SV", "06")) == ("113", "06")


def _as_issued_before(table, company_id: int, document_id: int, number: str) -> None:
    key = keys.document(company_id, document_id)
    table.client.update_item(TableName=table.name, Key={"PK": {"S": key["PK"]}, "SK": {"S": key["SK"]}},
                             UpdateExpression="SET #n = :n", ExpressionAttributeNames={"#n": "number"},
                             ExpressionAttributeValues={":n": {"S": number}})


def _range_item(table, company_id: int, document_type: str, start: int, end: int, next_number: int) -> dict:
    """A CAI range as an earlier version let it be registered: a 113 range beside the invoices'."""
    item = {**keys.small_record(company_id, keys.CAI_RANGE, 50 + start), "itemType": keys.CAI_RANGE,
            "id": 50 + start, "cai": CAI, "branchId": 1, "emissionPoint": "001", "documentType": document_type,
            "rangeStart": start, "rangeEnd": end, "nextNumber": next_number, "deadline": "2099-12-31",
            "isActive": True, "version": 1, "createdAt": "2026-10-01T00:00:00Z", "updatedAt": "2026-10-01T00:00:00Z"}
    table.client.put_item(TableName=table.name, Item=to_attributes(item))
    return {"PK": item["PK"], "SK": item["SK"]}


def test_the_migration_keeps_issued_numbers_and_the_factura_series_goes_on_without_repeating(api, table, company_a):
    shop = Shop(api, company_a)
    company_id = company_a.company_id
    shop.document("103", [(shop.product, 10, 60)])
    first, second = shop.document("01"), shop.document("01")
    # a reservation invoice issued before, from a 113 range overlapping the invoices' (1-1000)
    old = shop.document("01")
    _as_issued_before(table, company_id, old["id"], "001-001-113-00000001")
    overlapping = _range_item(table, company_id, "113", 1, 100, 2)
    apart = _range_item(table, company_id, "113", 2001, 3000, 2001)  # beside it: no number in common

    assert overlapping_ranges_of_one_sar_series(table) == 1
    assert overlapping_ranges_of_one_sar_series(table) == 0  # idempotent
    assert table.get(overlapping)["isActive"] is False
    assert table.get(apart)["isActive"] is True
    # what was issued is as it was printed
    assert [shop.get(d["id"])["number"] for d in (first, second, old)] == \
        ["001-001-01-00000001", "001-001-01-00000002", "001-001-113-00000001"]
    # the next reservation invoice takes the Factura series' next number (3 invoices took 1-3),
    # never the overlapping range's 2, which an invoice already printed
    assert shop.document("113")["number"] == "001-001-01-00000004"
    assert shop.document("01")["number"] == "001-001-01-00000005"
    # with the invoices' range closed, the series goes on in the range beside it; the overlapping
    # one, left active, would have printed 001-001-01-00000002 a second time
    reply = api.put(f"/cai/{shop.cai_range['id']}", {"isActive": False}, key=shop.key)
    assert reply.status == 200, reply.text
    assert shop.document("113")["number"] == "001-001-01-00002001"


def test_the_migration_never_keeps_a_113_range_that_would_print_an_invoice_s_number_again(api, table, company_a):
    shop = Shop(api, company_a)
    shop.document("103", [(shop.product, 10, 60)])
    issued = [shop.document("01")["number"] for _ in range(3)]  # 001-001-01-00000001 to 3
    # a 113 range beside the invoices', still to issue 2-100: whichever was registered first, it
    # yields and the invoices' range keeps numbering
    borrowing = _range_item(table, company_a.company_id, "113", 1, 100, 2)
    assert overlapping_ranges_of_one_sar_series(table) == 1
    assert table.get(borrowing)["isActive"] is False
    assert table.get(keys.small_record(company_a.company_id, keys.CAI_RANGE, shop.cai_range["id"]))["isActive"]
    assert shop.document("01")["number"] == "001-001-01-00000004"
    assert issued == ["001-001-01-00000001", "001-001-01-00000002", "001-001-01-00000003"]


def test_the_migration_counts_what_an_inactive_invoice_range_issued(api, table, company_a):
    shop = Shop(api, company_a)
    shop.document("103", [(shop.product, 10, 60)])
    [shop.document("01") for _ in range(3)]  # 1-3 from the first range, then closed
    assert api.put(f"/cai/{shop.cai_range['id']}", {"isActive": False}, key=shop.key).status == 200
    shop.created("/cai", {"cai": CAI, "branchId": 1, "emissionPoint": "001", "documentType": "01",
                          "rangeStart": 1001, "rangeEnd": 2000, "deadline": "2099-12-31"})
    # a 113 range still to issue 2-100: 2 and 3 were printed by the closed invoices' range
    borrowing = _range_item(table, company_a.company_id, "113", 1, 100, 2)
    assert overlapping_ranges_of_one_sar_series(table) == 1
    assert table.get(borrowing)["isActive"] is False
    # the next invoice takes the open invoices' range, never 2 again
    assert shop.document("01")["number"] == "001-001-01-00001001"
