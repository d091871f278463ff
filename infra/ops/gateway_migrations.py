"""Issue 43: payment gateways of the invented formats (`gateway-a`, `gateway-b`) that no real
provider speaks are deactivated: their old provider is kept in `legacyProvider` (their
`provider` is left as it is, answered as it is), so no new link goes through them; their
decisions and payments stay as they were."""
from __future__ import annotations

from chalicelib.store import keys
from chalicelib.store.table import Table, to_attributes
from infra.ops.table_io import scan_types

RETIRED_PROVIDERS = frozenset({"gateway-a", "gateway-b"})


def gateways_of_invented_formats_retired(table: Table) -> int:
    """Returns how many gateways it deactivated (idempotent: one that names its legacyProvider is done)."""
    retired = 0
    for gateway in scan_types(table, {keys.PAYMENT_GATEWAY}):
        provider = gateway.get("provider")
        if provider not in RETIRED_PROVIDERS or gateway.get("legacyProvider"):
            continue
        try:
            table.client.update_item(
                TableName=table.name, Key=to_attributes({"PK": gateway["PK"], "SK": gateway["SK"]}),
                UpdateExpression="SET legacyProvider = :old, isActive = :no, #v = #v + :one",
                ConditionExpression="provider = :old AND attribute_not_exists(legacyProvider)",
                ExpressionAttributeNames={"#v": "version"},
                ExpressionAttributeValues=to_attributes({":old": provider, ":no": False, ":one": 1}))
        except table.client.exceptions.ConditionalCheckFailedException:
            continue
        retired += 1
    return retired
