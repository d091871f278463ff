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
    from infra.migrations import search_index_of_records

    partner = create(api, company_a, "/business-partners", {"name": "Agropecuaria Olancho", "type": "customer"})
    items, _ = table.query(partition=("PK", keys.search_partition(company_a.company_id, keys.PARTNER)),
                           consistent=True)
    for item in items:  # as an earlier version left it: no index
        table.client.delete_item(TableName=table.name, Key=to_attributes({"PK": item["PK"], "SK": item["SK"]}))
    assert names(api, company_a, "/business-partners", "olancho") == []
    assert search_index_of_records(table) == 1
    assert names(api, company_a, "/business-partners", "olancho") == ["Agropecuaria Olancho"]
    assert api.get(f"/business-partners/{partner}", key=company_a.api_key).json["name"] == "Agropecuaria Olancho"
