"""Numeric headers and cursors are input like any other (issue 39, point 6): bounded, parsed, and
refused with a 400 that names them, never a 500 and never another company's records."""
from __future__ import annotations

import base64
import json

import pytest

from tests.support import ApiClient, CompanyFixture

PARTNERS = "/business-partners"


def forged(key: dict) -> str:
    """A cursor as the API writes one (store/listing.py encode_cursor): URL-safe base64 of the key."""
    return base64.urlsafe_b64encode(json.dumps(key, separators=(",", ":")).encode()).decode().rstrip("=")


def partner(api: ApiClient, company: CompanyFixture, name: str) -> dict:
    reply = api.post(PARTNERS, {"name": name, "type": "customer"}, key=company.api_key)
    assert reply.status == 201, reply.text
    return reply.json


@pytest.mark.parametrize("sent", ["9" * 4301, 'W/"' + "9" * 4301 + '"', "9" * 13, "0"])
def test_an_if_match_beyond_any_version_is_refused_as_invalid(api, company_a, sent):
    # 4,301 digits: Python's int() refuses the text (the finding's 500); 13 digits: more than an id
    # or a version ever has; 0: versions are counted from 1
    customer = partner(api, company_a, "Uno")
    reply = api.put(f"{PARTNERS}/{customer['id']}", {"phone": "2222-0000"}, key=company_a.api_key,
                    headers={"If-Match": sent})
    assert (reply.status, reply.json["code"], reply.json["details"][0]["field"]) == \
           (400, "VALIDATION_ERROR", "If-Match"), reply.text
    # nothing changed: still version 1, no phone
    unchanged = api.get(f"{PARTNERS}/{customer['id']}", key=company_a.api_key).json
    assert (unchanged["version"], unchanged.get("phone")) == (1, None)


def test_an_if_match_of_the_current_version_still_writes(api, company_a):
    customer = partner(api, company_a, "Uno")
    reply = api.put(f"{PARTNERS}/{customer['id']}", {"phone": "2222-0000"}, key=company_a.api_key,
                    headers={"If-Match": 'W/"1"'})
    assert (reply.status, reply.json["version"], reply.json["phone"]) == (200, 2, "2222-0000"), reply.text


def _search_page(api: ApiClient, company: CompanyFixture, cursor: str | None = None):
    return api.get(f"{PARTNERS}?q=cliente&limit=1" + (f"&cursor={cursor}" if cursor else ""), key=company.api_key)


@pytest.mark.parametrize("sort_key", ["zzz", "#COUNT", "~", "0000000000001", "00000000001",
                                      "\u0660" * 11 + "\u0661", "-00000000001"])
def test_a_search_cursor_forged_in_the_callers_own_partition_is_an_invalid_cursor(api, company_a, sort_key):
    for name in ("Cliente Uno", "Cliente Dos", "Cliente Tres"):
        partner(api, company_a, name)
    first = _search_page(api, company_a)
    issued = json.loads(base64.urlsafe_b64decode(first.json["nextCursor"] + "=="))
    # the cursor the API issues: the search partition of the caller's company, the last id as 12 digits
    assert issued == {"PK": f"C#{company_a.company_id}#SEARCH#BP", "SK": "000000000001"}
    # the same partition, a sort key the search never writes: not an id of 12 ASCII digits
    # (Arabic-Indic digits read as 1 by int(); 13 or 11 digits; a sign)
    reply = _search_page(api, company_a, forged({**issued, "SK": sort_key}))
    assert (reply.status, reply.json["code"], reply.json["details"][0]["field"]) == \
           (400, "VALIDATION_ERROR", "cursor"), reply.text


def test_a_search_cursor_as_issued_still_walks_the_results(api, company_a):
    ids = [partner(api, company_a, name)["id"] for name in ("Cliente Uno", "Cliente Dos", "Cliente Tres")]
    seen, cursor = [], None
    for _ in range(3):
        reply = _search_page(api, company_a, cursor)
        assert reply.status == 200, reply.text
        seen += [found["id"] for found in reply.json["businessPartners"]]
        cursor = reply.json["nextCursor"]
    assert (seen, cursor) == (ids, None)


def test_a_search_cursor_naming_another_companys_partition_reads_nothing_of_it(api, company_a, company_b):
    partner(api, company_b, "Cliente Ajeno")
    for name in ("Cliente Uno", "Cliente Dos"):
        partner(api, company_a, name)
    theirs = forged({"PK": f"C#{company_b.company_id}#SEARCH#BP", "SK": "000000000000"})
    reply = _search_page(api, company_a, theirs)
    assert (reply.status, reply.json["details"][0]["field"]) == (400, "cursor"), reply.text
    assert "Ajeno" not in reply.text


class _RefusingClient:
    """A DynamoDB client that refuses every Query as DynamoDB refuses a start key it cannot use
    (moto takes any start key: the refusal is played here)."""

    def __init__(self, message: str) -> None:
        self.message = message

    def query(self, **params):
        from botocore.exceptions import ClientError

        raise ClientError({"Error": {"Code": "ValidationException", "Message": self.message}}, "Query")


@pytest.mark.parametrize("message", ["The provided starting key is invalid: The provided key element does not "
                                     "match the schema",
                                     "The provided starting key is outside query boundaries based on provided "
                                     "conditions",
                                     "Exclusive Start Key must have same size as table's key schema"])
def test_a_start_key_dynamodb_refuses_is_an_invalid_cursor_not_a_500(message):
    from botocore.exceptions import ClientError

    from chalicelib.errors import ValidationFailed
    from chalicelib.store.table import Table

    table = Table(_RefusingClient(message), "books")
    with pytest.raises(ValidationFailed) as refused:
        table.query(partition=("GSI1PK", "C#1#DOC"), index="GSI1",
                    start_key={"PK": "C#1#DOC#3", "SK": "DOC", "GSI1PK": "C#1#DOC", "GSI1SK": "x"})
    assert (refused.value.status, refused.value.details[0]["field"]) == (400, "cursor")
    # without a start key a refusal is the service's own fault: it stays what it is (a 500)
    with pytest.raises(ClientError):
        Table(_RefusingClient("The provided starting key is invalid"), "books").query(
            partition=("GSI1PK", "C#1#DOC"), index="GSI1")
