"""`q` on partners and products: found by what a person types (any case, without accents, an RTN
with or without its dashes, a code with or without its hyphen), through an index kept in each
record's transaction; another company's records are never found."""
from __future__ import annotations

from chalicelib.store import keys


def create(api, company, path, body):
    reply = api.post(path, body, key=company.api_key)
    assert reply.status == 201, reply.text
    return reply.json["id"]


def names(api, company, path, query, field="businessPartners"):
    reply = api.get(f"{path}?q={query}&limit=100", key=company.api_key)
    assert reply.status == 200, reply.text
    assert reply.json["total"] == len(reply.json[field])
    return sorted(item["name"] for item in reply.json[field])


def test_partners_are_found_by_name_rtn_and_e_mail(api, company_a, company_b):
    maya = create(api, company_a, "/business-partners", {"name": "Importadora Maya S.A.", "type": "supplier",
                                                         "taxId": "0801-1999-123456", "email": "ventas@maya.hn"})
    create(api, company_a, "/business-partners", {"name": "Mayoreo Copán", "type": "customer"})
    create(api, company_a, "/business-partners", {"name": "Ferretería Núñez", "type": "customer"})
    create(api, company_b, "/business-partners", {"name": "Importadora Maya Beta", "type": "supplier"})
    path = "/business-partners"
    assert names(api, company_a, path, "maya") == ["Importadora Maya S.A."]  # not Mayoreo, not company B's
    assert names(api, company_a, path, "MAY") == ["Importadora Maya S.A.", "Mayoreo Copán"]
    assert names(api, company_a, path, "copan") == ["Mayoreo Copán"]
    assert names(api, company_a, path, "nunez ferret") == ["Ferretería Núñez"]
    assert names(api, company_a, path, "0801-1999") == ["Importadora Maya S.A."]
    assert names(api, company_a, path, "08011999123456") == ["Importadora Maya S.A."]
    assert names(api, company_a, path, "ventas@maya") == ["Importadora Maya S.A."]
    assert names(api, company_a, path, "maya copan") == []  # every word must be found in one record
    assert names(api, company_b, path, "ferreteria") == []

    renamed = api.put(f"{path}/{maya}", {"name": "Importadora Quiché"}, key=company_a.api_key)
    assert renamed.status == 200, renamed.text
    assert names(api, company_a, path, "quiche") == ["Importadora Quiché"]
    assert names(api, company_a, path, "maya") == ["Importadora Quiché"]  # its e-mail still says maya
    assert names(api, company_a, path, "importadora maya") == ["Importadora Quiché"]
    assert names(api, company_a, path, "importadora s") == []  # "S.A." left with the old name


def test_a_search_pages_with_page_and_limit(api, company_a):
    for n in range(1, 26):
        create(api, company_a, "/business-partners", {"name": f"Cliente {n:02d}", "type": "customer"})
    third = api.get("/business-partners?q=cliente&limit=10&page=3", key=company_a.api_key).json
    assert third["total"] == 25 and [p["name"] for p in third["businessPartners"]] == [
        f"Cliente {n:02d}" for n in range(21, 26)]  # 25 by id, 10 a page: the third holds 21 to 25
    # or by cursor: 10, then the 10 after, then the last 5 and no cursor
    seen, cursor = [], None
    for size in (10, 10, 5):
        reply = api.get("/business-partners?q=cliente&limit=10" + (f"&cursor={cursor}" if cursor else ""),
                        key=company_a.api_key).json
        assert len(reply["businessPartners"]) == size and reply["total"] == 25
        seen += [p["name"] for p in reply["businessPartners"]]
        cursor = reply["nextCursor"]
    assert cursor is None and seen == [f"Cliente {n:02d}" for n in range(1, 26)]
    forged = api.get("/business-partners?q=cliente&cursor=abc", key=company_a.api_key)
    assert forged.status == 400 and forged.json["details"][0]["field"] == "cursor"
    nothing = api.get("/business-partners?q=--", key=company_a.api_key)
    assert nothing.status == 200 and nothing.json["total"] == 0  # no letter or digit: finds nothing


def test_products_are_found_by_code_and_name(api, company_a, company_b):
    create(api, company_a, "/products", {"code": "P-001", "name": "Silla ergonómica", "unitPrice": 100})
    create(api, company_a, "/products", {"code": "P-002", "name": "Mesa de pino", "unitPrice": 300})
    create(api, company_b, "/products", {"code": "P-001", "name": "Silla de otra empresa", "unitPrice": 1})
    found = api.get("/products?q=p-001", key=company_a.api_key).json
    assert [(p["code"], p["name"]) for p in found["products"]] == [("P-001", "Silla ergonómica")]
    assert "averageCost" in found["products"][0]  # answered as the list answers it
    assert names(api, company_a, "/products", "ergonomica", "products") == ["Silla ergonómica"]
    assert names(api, company_a, "/products", "p00", "products") == ["Mesa de pino", "Silla ergonómica"]


def test_records_from_before_search_are_indexed_by_the_migration(api, table, company_a):
    from chalicelib.store.table import to_attributes
    from infra.ops.migrations import search_index_of_records

    partner = create(api, company_a, "/business-partners", {"name": "Agropecuaria Olancho", "type": "customer"})
    items, _ = table.query(partition=("PK", keys.search_partition(company_a.company_id, keys.PARTNER)),
                           consistent=True)
    for item in items:  # as an earlier version left it: no index
        table.client.delete_item(TableName=table.name, Key=to_attributes({"PK": item["PK"], "SK": item["SK"]}))
    assert names(api, company_a, "/business-partners", "olancho") == []
    assert search_index_of_records(table) == 1
    assert names(api, company_a, "/business-partners", "olancho") == ["Agropecuaria Olancho"]
    assert api.get(f"/business-partners/{partner}", key=company_a.api_key).json["name"] == "Agropecuaria Olancho"


def found_ids(api, company, query, **filters):
    params = "&".join([f"q={query}", "limit=100", *(f"{name}={value}" for name, value in filters.items())])
    reply = api.get(f"/documents?{params}", key=company.api_key)
    assert reply.status == 200, reply.text
    assert reply.json["total"] == len(reply.json["documents"])
    return [document["id"] for document in reply.json["documents"]]


def test_documents_are_found_by_number_supplier_number_and_partner(api, company_a, company_b):
    from tests.documents_support import Shop

    shop = Shop(api, company_a)
    maya = create(api, company_a, "/business-partners", {"name": "Importadora Maya", "type": "supplier",
                                                         "taxId": "0801-1999-123456"})
    first = shop.document("01", [(shop.service, 1, 100)], date="2026-11-02")  # 001-001-01-00000001
    second = shop.document("01", [(shop.service, 1, 100)], date="2026-11-03")  # ...-00000002
    draft = shop.document("01", [(shop.service, 1, 100)], status="draft", date="2026-11-04")  # no number yet
    purchase = shop.document("103", [(shop.service, 1, 40)], partner=maya, date="2026-11-05",
                             supplierDocumentNumber="F-000987")
    other = Shop(api, company_b)
    other.document("01", [(other.service, 1, 100)])  # company B's 001-001-01-00000001

    assert first["number"] == "001-001-01-00000001"
    assert found_ids(api, company_a, "001-001-01-00000001") == [first["id"]]  # typed whole
    assert found_ids(api, company_a, "00000002") == [second["id"]]
    # "1" begins the last digits of the first invoice and of the purchase's own 001-001-94-00000001
    # (newest first: 11-05, 11-02); the draft has no number yet, company B's 1 is not seen
    assert purchase["number"] == "001-001-94-00000001"
    assert found_ids(api, company_a, "1") == [purchase["id"], first["id"]]
    assert found_ids(api, company_a, "01-00000001") == [first["id"]]  # more than the last digits: whole
    assert found_ids(api, company_a, "987") == [purchase["id"]]  # the supplier's F-000987
    assert found_ids(api, company_a, "F-000987") == [purchase["id"]]
    # by partner, newest first: the draft (11-04), then the invoices of the 3rd and 2nd
    assert found_ids(api, company_a, "cliente") == [draft["id"], second["id"], first["id"]]
    assert found_ids(api, company_a, "cliente", status="confirmed") == [second["id"], first["id"]]
    assert found_ids(api, company_a, "cliente", endDate="2026-11-02") == [first["id"]]
    assert found_ids(api, company_a, "maya") == found_ids(api, company_a, "0801-1999") == [purchase["id"]]
    assert found_ids(api, company_a, "zzz") == []

    # confirming the draft indexes its number; page and limit cut the newest-first list
    confirmed = shop.action(draft["id"], "confirm")
    assert found_ids(api, company_a, confirmed["number"]) == [draft["id"]]
    page = api.get("/documents?q=cliente&limit=2&page=2", key=company_a.api_key).json
    assert (page["total"], [d["id"] for d in page["documents"]]) == (3, [first["id"]])
    # a search pages by page, not by cursor
    refused = api.get("/documents?q=cliente&cursor=abc", key=company_a.api_key)
    assert refused.status == 400 and refused.json["details"][0]["field"] == "cursor"

    # a draft's supplier number changes: the old one no longer finds it
    draft_purchase = shop.document("103", [(shop.service, 1, 40)], partner=maya, status="draft",
                                   supplierDocumentNumber="F-555")
    assert found_ids(api, company_a, "555") == [draft_purchase["id"]]
    changed = api.put(f"/documents/{draft_purchase['id']}", {"supplierDocumentNumber": "F-777"}, key=company_a.api_key)
    assert changed.status == 200, changed.text
    assert found_ids(api, company_a, "555") == [] and found_ids(api, company_a, "777") == [draft_purchase["id"]]


def test_documents_from_before_their_search_are_indexed_by_the_migration(api, table, company_a):
    from chalicelib.store.table import to_attributes
    from infra.ops.migrations import search_index_of_document_numbers
    from tests.documents_support import Shop

    shop = Shop(api, company_a)
    invoice = shop.document("01", [(shop.service, 1, 100)])
    purchase = shop.document("103", [(shop.service, 1, 40)], supplierDocumentNumber="F-4711")
    shop.document("01", [(shop.service, 1, 100)], status="draft")  # no number: nothing to index
    company = company_a.company_id
    items, _ = table.query(partition=("PK", keys.search_partition(company, keys.DOCUMENT)), consistent=True)
    for item in items:  # as an earlier version left them: no supplier-number item, no GSI3 keys
        table.client.delete_item(TableName=table.name, Key=to_attributes({"PK": item["PK"], "SK": item["SK"]}))
    for document in (invoice, purchase):
        table.client.update_item(TableName=table.name, Key=to_attributes(keys.document(company, document["id"])),
                                 UpdateExpression="REMOVE GSI3PK, GSI3SK")
    assert found_ids(api, company_a, invoice["number"]) == found_ids(api, company_a, "4711") == []
    assert search_index_of_document_numbers(table) == 2
    assert found_ids(api, company_a, invoice["number"]) == [invoice["id"]]
    assert found_ids(api, company_a, "4711") == [purchase["id"]]
    assert search_index_of_document_numbers(table) == 2  # again: nothing changes
    assert found_ids(api, company_a, "4711") == [purchase["id"]]
