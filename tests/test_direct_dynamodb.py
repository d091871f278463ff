"""The direct DynamoDB client (infra/devstack/direct_dynamodb.py) answers every item call as botocore
does over the wire: the same calls, made through botocore and through the direct path on the same
fresh table, give equal answers (binary values as bytes, numbers as strings, CancellationReasons and
a refused condition's item) and equal errors (the modeled ClientError's class, code, message and
response; botocore's own ParamValidationError word for word)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from botocore.exceptions import ClientError, ParamValidationError

from infra.devstack import faithful_dynamodb
from infra.devstack.direct_dynamodb import DirectDynamoDB

pytestmark = pytest.mark.moto_only("the direct path reaches moto's handler only")

TABLE = "test-business-api"
EVERY_TYPE = {
    "PK": {"S": "C#1"}, "SK": {"S": "DOC#1"}, "GSI1PK": {"S": "L#1"}, "GSI1SK": {"S": "2026-01-02"},
    "total": {"N": "115.00"}, "count": {"N": "3"}, "signed": {"B": b"\x00\xffsigned bytes\n"},
    "tags": {"SS": ["b", "a"]}, "rates": {"NS": ["1.5", "24.7500"]}, "keys": {"BS": [b"\x01", b"\x02\x03"]},
    "nothing": {"NULL": True}, "open": {"BOOL": False}, "empty": {"S": ""},
    "lines": {"L": [{"M": {"qty": {"N": "2.50"}, "B": {"S": "a map member named B"},
                           "raw": {"B": b"\xde\xad"}, "nested": {"L": [{"N": "1"}, {"NULL": True}]}}}]},
    "party": {"M": {"name": {"S": "Alpha S. de R.L."}, "ids": {"M": {}}, "list": {"L": []}}},
}


def key(sk: str = "DOC#1") -> dict[str, Any]:
    return {"PK": {"S": "C#1"}, "SK": {"S": sk}}


def with_key(sk: str, **attributes: Any) -> dict[str, Any]:
    return {**key(sk), **attributes}


@pytest.fixture
def botocore_client(table):
    assert isinstance(table.client, DirectDynamoDB)  # (tests/conftest.py serves the store this one)
    return table.client._delegate


@pytest.fixture
def direct(table):
    return table.client


def outcome(call: Callable[[], Any]) -> tuple[Any, ...]:
    """What a caller sees of a call: the answer, or the exception's class, text and response; the
    request id, date and checksum of each answer are its own."""
    try:
        answer = call()
    except ClientError as error:
        return ("error", type(error).__name__, str(error), _comparable(error.response))
    except ParamValidationError as error:
        return ("invalid", str(error))
    return ("answer", None if answer is None else _comparable(answer))


def _comparable(response: dict[str, Any]) -> dict[str, Any]:
    metadata = response.get("ResponseMetadata", {})
    return {**response, "ResponseMetadata": {
        "HTTPStatusCode": metadata.get("HTTPStatusCode"), "RetryAttempts": metadata.get("RetryAttempts"),
        "MaxAttemptsReached": metadata.get("MaxAttemptsReached"),
        "headers": sorted(metadata.get("HTTPHeaders", {})), "RequestId": bool(metadata.get("RequestId"))}}


def both(botocore_client: Any, direct: Any, scenario: Callable[[Any], list[Callable[[], Any]]]) -> list[Any]:
    """The scenario's calls through botocore, the table emptied, then through the direct path: the
    outcomes side by side (asserted equal); those of the direct path answered."""
    seen = []
    for client in (botocore_client, direct):
        _empty(botocore_client)
        seen.append([outcome(call) for call in scenario(client)])
    for through_botocore, direct_outcome in zip(*seen, strict=True):
        assert through_botocore == direct_outcome
    return seen[1]


def _empty(client: Any) -> None:
    for item in client.scan(TableName=TABLE, ConsistentRead=True)["Items"]:
        client.delete_item(TableName=TABLE, Key={"PK": item["PK"], "SK": item["SK"]})


def test_single_item_calls_answer_alike_with_every_type_of_value(botocore_client, direct):
    outcomes = both(botocore_client, direct, lambda c: [
        lambda: c.put_item(TableName=TABLE, Item=EVERY_TYPE),
        lambda: c.put_item(TableName=TABLE, Item={**EVERY_TYPE, "count": {"N": "4"}}, ReturnValues="ALL_OLD",
                           ReturnConsumedCapacity="TOTAL"),
        lambda: c.get_item(TableName=TABLE, Key=key(), ConsistentRead=True),
        lambda: c.get_item(TableName=TABLE, Key=key(), ProjectionExpression="signed, lines[0].raw, party.#n",
                           ExpressionAttributeNames={"#n": "name"}),
        lambda: c.get_item(TableName=TABLE, Key=key("missing")),
        lambda: c.update_item(TableName=TABLE, Key=key(), ReturnValues="UPDATED_NEW",
                              UpdateExpression="SET #t = #t + :t, more = :b ADD #c :one REMOVE #o",
                              ExpressionAttributeNames={"#t": "total", "#c": "count", "#o": "open"},
                              ExpressionAttributeValues={":t": {"N": "0.50"}, ":b": {"B": b"\x07"}, ":one": {"N": "1"}}),
        lambda: c.update_item(TableName=TABLE, Key=key("counter"), UpdateExpression="ADD n :one",
                              ExpressionAttributeValues={":one": {"N": "1"}}, ReturnValues="ALL_NEW"),
        lambda: c.delete_item(TableName=TABLE, Key=key(), ReturnValues="ALL_OLD"),
    ])
    # the binary values come back as bytes, numbers as DynamoDB trims them, in strings
    assert outcomes[1][1]["Attributes"]["signed"] == {"B": b"\x00\xffsigned bytes\n"}
    assert outcomes[1][1]["Attributes"]["keys"] == {"BS": [b"\x01", b"\x02\x03"]}
    assert outcomes[1][1]["Attributes"]["total"] == {"N": "115"}
    assert outcomes[2][1]["Item"]["lines"]["L"][0]["M"]["B"] == {"S": "a map member named B"}
    assert outcomes[5][1]["Attributes"]["total"] == {"N": "115.5"}  # 115.00 + 0.50
    assert outcomes[6][1]["Attributes"]["n"] == {"N": "1"}


def test_a_refused_condition_answers_alike_with_the_item_it_found(botocore_client, direct):
    outcomes = both(botocore_client, direct, lambda c: [
        lambda: c.put_item(TableName=TABLE, Item=EVERY_TYPE),
        lambda: c.put_item(TableName=TABLE, Item=EVERY_TYPE, ConditionExpression="attribute_not_exists(PK)",
                           ReturnValuesOnConditionCheckFailure="ALL_OLD"),
        lambda: c.update_item(TableName=TABLE, Key=key(), UpdateExpression="SET #t = :t",
                              ConditionExpression="#t = :was", ExpressionAttributeNames={"#t": "total"},
                              ExpressionAttributeValues={":t": {"N": "1"}, ":was": {"N": "99"}}),
        lambda: c.delete_item(TableName=TABLE, Key=key(), ConditionExpression="attribute_not_exists(signed)"),
    ])
    assert outcomes[1][:2] == ("error", "ConditionalCheckFailedException")
    assert outcomes[1][3]["Item"]["signed"] == {"B": b"\x00\xffsigned bytes\n"}
    assert outcomes[2][:2] == outcomes[3][:2] == ("error", "ConditionalCheckFailedException")


def test_transactions_answer_alike_committed_and_cancelled(botocore_client, direct):
    outcomes = both(botocore_client, direct, lambda c: [
        lambda: c.transact_write_items(TransactItems=[
            {"Put": {"TableName": TABLE, "Item": EVERY_TYPE}},
            {"Put": {"TableName": TABLE, "Item": with_key("DOC#2", v={"N": "1"})}},
            {"Update": {"TableName": TABLE, "Key": key("counter"), "UpdateExpression": "ADD n :one",
                        "ExpressionAttributeValues": {":one": {"N": "1"}}}}]),
        lambda: c.transact_write_items(TransactItems=[
            {"Put": {"TableName": TABLE, "Item": with_key("DOC#3")}},
            {"ConditionCheck": {"TableName": TABLE, "Key": key(), "ConditionExpression": "attribute_not_exists(PK)",
                                "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}},
            {"Delete": {"TableName": TABLE, "Key": key("DOC#2")}}]),
        lambda: c.transact_get_items(TransactItems=[{"Get": {"TableName": TABLE, "Key": key()}},
                                                    {"Get": {"TableName": TABLE, "Key": key("DOC#3")}}]),
        lambda: c.get_item(TableName=TABLE, Key=key("DOC#2")),  # the cancelled delete left it
    ])
    kind, error_class, _, response = outcomes[1]
    assert (kind, error_class) == ("error", "TransactionCanceledException")
    assert [reason["Code"] for reason in response["CancellationReasons"]] == ["None", "ConditionalCheckFailed", "None"]
    assert response["CancellationReasons"][1]["Item"]["signed"] == {"B": b"\x00\xffsigned bytes\n"}
    assert outcomes[2][1]["Responses"][0]["Item"]["keys"] == {"BS": [b"\x01", b"\x02\x03"]}
    assert outcomes[2][1]["Responses"][1] == {}  # nothing at DOC#3: the cancelled put wrote nothing
    assert outcomes[3][1]["Item"]["v"] == {"N": "1"}


def test_reads_of_many_items_answer_alike_page_by_page(botocore_client, direct):
    def scenario(c: Any) -> list[Callable[[], Any]]:
        puts = [{"PutRequest": {"Item": with_key(f"D#{n:02d}", GSI1PK={"S": "L"}, GSI1SK={"S": f"{n:02d}"},
                                                 b={"B": bytes([n])})}} for n in range(12)]
        return [
            lambda: c.batch_write_item(RequestItems={TABLE: puts}),
            lambda: c.batch_write_item(RequestItems={TABLE: [{"DeleteRequest": {"Key": key("D#11")}}]}),
            lambda: c.query(TableName=TABLE, KeyConditionExpression="PK = :p AND begins_with(SK, :s)",
                            ExpressionAttributeValues={":p": {"S": "C#1"}, ":s": {"S": "D#"}}, Limit=5,
                            ScanIndexForward=False, ExclusiveStartKey=key("D#09")),
            lambda: c.query(TableName=TABLE, IndexName="GSI1", KeyConditionExpression="GSI1PK = :l",
                            FilterExpression="b <> :b", ExpressionAttributeValues={":l": {"S": "L"}, ":b": {"B": b"\x03"}},
                            Select="COUNT"),
            lambda: c.scan(TableName=TABLE, Limit=4, ConsistentRead=True),
            lambda: c.batch_get_item(RequestItems={TABLE: {"Keys": [key("D#01"), key("D#02"), key("nothing")],
                                                           "ProjectionExpression": "SK, b"}}),
        ]
    outcomes = both(botocore_client, direct, scenario)
    # newest first from before D#09: D#08 .. D#04, and a key to go on from
    assert [item["SK"]["S"] for item in outcomes[2][1]["Items"]] == ["D#08", "D#07", "D#06", "D#05", "D#04"]
    assert outcomes[2][1]["LastEvaluatedKey"] == key("D#04")
    assert outcomes[3][1]["Count"] == 10  # D#00 .. D#10 is 11 items, less the one whose b is 0x03
    assert sorted(item["b"]["B"] for item in outcomes[5][1]["Responses"][TABLE]) == [b"\x01", b"\x02"]


def test_errors_answer_alike(botocore_client, direct):
    outcomes = both(botocore_client, direct, lambda c: [
        # DynamoDB's ValidationException: an expression it cannot parse, a key short of its sort key
        lambda: c.update_item(TableName=TABLE, Key=key(), UpdateExpression="SET = :v",
                              ExpressionAttributeValues={":v": {"N": "1"}}),
        lambda: c.get_item(TableName=TABLE, Key={"PK": {"S": "C#1"}}),
        lambda: c.put_item(TableName=TABLE, Item={"PK": {"S": "C#1"}, "SK": {"S": ""}}),
        lambda: c.query(TableName="no-such-table", KeyConditionExpression="PK = :p",
                        ExpressionAttributeValues={":p": {"S": "x"}}),
        # botocore's own refusals, before anything is sent
        lambda: c.put_item(TableName=TABLE, Item={"PK": {"S": 1}, "SK": {"S": "x"}}),
        lambda: c.get_item(TableName=TABLE, Key=key(), Unknown=True),
        lambda: c.transact_write_items(TransactItems=[{"Put": {"TableName": TABLE}}]),
        # what botocore accepts beyond the plain types: text as binary, tuples as lists
        lambda: c.put_item(TableName=TABLE, Item=with_key("T", text={"B": "as text"}, t={"L": ({"S": "x"},)})),
        lambda: c.get_item(TableName=TABLE, Key=key("T")),
        lambda: c.put_item(TableName=TABLE, Item={"PK": {"S": "a", "N": "1"}, "SK": {"S": "x"}}),  # (moto takes it)
    ])
    assert [o[1] for o in outcomes[:4]] == ["ClientError"] * 2 + ["ClientError", "ResourceNotFoundException"]
    assert all(o[3]["Error"]["Code"] == "ValidationException" for o in outcomes[:3])
    assert [o[0] for o in outcomes[4:7]] == ["invalid"] * 3
    assert outcomes[8][1]["Item"]["text"] == {"B": b"as text"}
    with pytest.raises(TypeError, match="only accepts keyword arguments"):
        direct.get_item(TABLE)


def test_faults_and_retries_reach_the_direct_path_as_they_reach_botocore(botocore_client, direct, monkeypatch):
    from botocore.retries.standard import ExponentialBackoff

    monkeypatch.setattr(ExponentialBackoff, "delay_amount", lambda self, context: 0)

    def scenario(c: Any) -> list[Callable[[], Any]]:
        return [
            lambda: faithful_dynamodb.inject("GetItem", "throttle", times=2),
            lambda: c.get_item(TableName=TABLE, Key=key()),  # two retries absorb them
            lambda: faithful_dynamodb.inject("PutItem", "throttle", times=5),
            lambda: c.put_item(TableName=TABLE, Item=with_key("X")),  # a fifth attempt fails
            lambda: faithful_dynamodb.inject("UpdateItem", "conflict"),
            lambda: c.update_item(TableName=TABLE, Key=key("X"), UpdateExpression="SET v = :v",
                                  ExpressionAttributeValues={":v": {"N": "1"}}),
            lambda: faithful_dynamodb.inject("TransactWriteItems", "too_large"),
            lambda: c.transact_write_items(TransactItems=[{"Put": {"TableName": TABLE, "Item": with_key("Y")}}]),
        ]
    outcomes = both(botocore_client, direct, scenario)
    assert outcomes[1][1]["ResponseMetadata"]["RetryAttempts"] == 2
    assert outcomes[3][3]["Error"]["Code"] == "ThrottlingException"
    assert outcomes[3][3]["ResponseMetadata"]["RetryAttempts"] == 4
    assert outcomes[3][3]["ResponseMetadata"]["MaxAttemptsReached"] is True
    assert outcomes[5][3]["Error"]["Code"] == "TransactionConflictException"
    assert [reason["Code"] for reason in outcomes[7][3]["CancellationReasons"]] == ["ValidationError"]


def test_the_clients_events_see_the_direct_calls(direct):
    seen: list[tuple[str, str]] = []
    events = direct.meta.events
    events.register("provide-client-params.dynamodb.GetItem",
                    lambda params, **_: {**params, "Key": key("swapped")})
    events.register("before-parameter-build.dynamodb.TransactWriteItems",
                    lambda model, **_: seen.append(("build", model.name)))
    events.register("before-call.dynamodb.TransactWriteItems",
                    lambda params, **_: seen.append(("sent", params["body"])))
    events.register("before-call.dynamodb", lambda model, **_: seen.append(("before", model.name)))
    events.register("after-call.dynamodb", lambda model, parsed, **_: seen.append(("after", model.name)))
    direct.put_item(TableName=TABLE, Item=with_key("swapped", v={"S": "found"}))
    assert direct.get_item(TableName=TABLE, Key=key("elsewhere"))["Item"]["v"] == {"S": "found"}
    direct.transact_write_items(TransactItems=[{"Put": {"TableName": TABLE, "Item": with_key("Z")}}])
    direct.describe_table(TableName=TABLE)  # (the real client's, through its own endpoint)
    sent = [event for event in seen if event[0] == "sent"]
    assert [event for event in seen if event[0] != "sent"] == [
        ("before", "PutItem"), ("after", "PutItem"), ("before", "GetItem"), ("after", "GetItem"),
        ("build", "TransactWriteItems"), ("before", "TransactWriteItems"), ("after", "TransactWriteItems"),
        ("before", "DescribeTable"), ("after", "DescribeTable")]
    # botocore's own handler gave the transaction its idempotency token, sent with it
    assert len(sent) == 1 and b'"ClientRequestToken":"' in sent[0][1]


def test_only_the_store_s_dynamodb_client_is_served_directly_and_never_on_dynamodb_local(aws, request):
    from types import SimpleNamespace

    from chalicelib.store.table import make_client
    from tests.conftest import pytest_configure

    assert isinstance(make_client("dynamodb"), DirectDynamoDB)
    assert not isinstance(make_client("sqs"), DirectDynamoDB)
    on_local = SimpleNamespace(getoption=lambda name: "local")
    try:
        pytest_configure(on_local)  # --dynamodb=local: botocore all the way, as deployed
        assert type(make_client("dynamodb")).__module__ == "botocore.client"
    finally:
        pytest_configure(request.config)
    assert isinstance(make_client("dynamodb"), DirectDynamoDB)
