"""The admin CLI creates what it says and prints keys that authenticate."""
from __future__ import annotations

import json

import pytest

from infra.ops import admin


def run(capsys, *argv):
    capsys.readouterr()  # what came before (the requests' metric records) is not the command's output
    code = admin.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_create_company_prints_a_working_key(api, table, capsys, tmp_path):
    code, out, _ = run(capsys, "--state-dir", str(tmp_path), "create-company", "--name", "Ferretería Copán",
                       "--email", "ana@copan.hn", "--password", "long secret 1")
    assert code == 0
    created = json.loads(out)
    assert set(created) == {"companyId", "userId", "apiKey"}
    reply = api.get("/companies", key=created["apiKey"])
    assert reply.status == 200 and reply.json["name"] == "Ferretería Copán"


def test_create_user_and_key(api, table, capsys, tmp_path):
    _, out, _ = run(capsys, "--state-dir", str(tmp_path), "create-company", "--name", "C",
                    "--email", "o@c.hn", "--password", "long secret 1")
    company = json.loads(out)
    code, out, _ = run(capsys, "--state-dir", str(tmp_path), "create-user", "--email", "admin@c.hn",
                       "--password", "long secret 2", "--company-id", str(company["companyId"]), "--role", "admin")
    user = json.loads(out)
    code, out, _ = run(capsys, "--state-dir", str(tmp_path), "create-api-key", "--company-id",
                       str(company["companyId"]), "--user-id", str(user["userId"]), "--name", "POS")
    assert code == 0
    key = json.loads(out)
    assert key["apiKey"].startswith(key["keyId"] + ":")
    assert api.get("/business-partners", key=key["apiKey"]).status == 200


def test_errors_are_json_on_stderr(table, capsys, tmp_path):
    run(capsys, "--state-dir", str(tmp_path), "create-company", "--name", "C", "--email", "x@c.hn",
        "--password", "long secret 1")
    code, out, err = run(capsys, "--state-dir", str(tmp_path), "create-company", "--name", "D",
                         "--email", "x@c.hn", "--password", "another password")
    assert code == 1 and out == ""
    assert json.loads(err)["code"] == "INVALID_CREDENTIALS"
    code, _, err = run(capsys, "--state-dir", str(tmp_path), "create-api-key", "--company-id", "99",
                       "--user-id", "1")
    assert code == 1 and json.loads(err)["code"] == "NOT_FOUND"


def test_a_key_for_a_viewer_does_not_authenticate(api, table, capsys, tmp_path):
    _, out, _ = run(capsys, "--state-dir", str(tmp_path), "create-company", "--name", "C",
                    "--email", "o2@c.hn", "--password", "long secret 1")
    company = json.loads(out)
    _, out, _ = run(capsys, "--state-dir", str(tmp_path), "create-user", "--email", "v@c.hn",
                    "--password", "long secret 2", "--company-id", str(company["companyId"]), "--role", "viewer")
    _, out, _ = run(capsys, "--state-dir", str(tmp_path), "create-api-key", "--company-id",
                    str(company["companyId"]), "--user-id", str(json.loads(out)["userId"]))
    reply = api.get("/companies", key=json.loads(out)["apiKey"])
    assert reply.status == 401 and reply.json["code"] == "API_KEY_NO_USER"


@pytest.fixture(autouse=True)
def _no_local_stack_lookup(monkeypatch):
    monkeypatch.setenv("TABLE_NAME", "test-business-api")


def test_short_passwords_are_refused(table):
    from chalicelib.errors import ValidationFailed
    from chalicelib.services.identity import accounts

    with pytest.raises(ValidationFailed):
        accounts.create_user(table, "short@c.hn", "1234567")


def _typed_items(table_name: str) -> dict[tuple[str, str], dict]:
    import boto3

    from infra.ops.table_io import scan_items

    return {(item["PK"]["S"], item["SK"]["S"]): item for item in scan_items(boto3.client("dynamodb"), table_name)}


def test_a_company_restored_from_a_point_in_time_copy_gets_every_item_back_and_nothing_else_changes(
        api, table, company_a, company_b, capsys, tmp_path, settings_env):
    """The restore procedure of docs/operations.md, rehearsed against moto: the table restored to
    a point in time (a copy), the company exported from the copy, imported into the live table."""
    import boto3

    from chalicelib.store.table import reset_table
    from infra.ops.company_dump import belongs_to
    from tests.documents_support import Shop

    shop, other = Shop(api, company_a), Shop(api, company_b)
    shop.document("103", [(shop.product, 5, 60)])
    shop.document("01", [(shop.product, 1, 100)])
    at_restore_point = _typed_items(table.name)
    client = boto3.client("dynamodb")
    client.restore_table_to_point_in_time(SourceTableName=table.name, TargetTableName="restored",
                                          UseLatestRestorableTime=True)

    # after the restore point: company A's books change (the mistake to undo), and B's too (to be kept)
    shop.document("01", [(shop.product, 2, 100)])
    api.put(f"/business-partners/{shop.customer}", {"name": "Renamed"}, key=company_a.api_key)
    other.document("01", [(other.service, 1, 50)])
    b_after = {key: item for key, item in _typed_items(table.name).items() if belongs_to(item, company_b.company_id)}
    everything_else = {key: item for key, item in _typed_items(table.name).items()
                       if not belongs_to(item, company_a.company_id)}

    dump = tmp_path / "company-a.json"
    live = table.name
    settings_env(TABLE_NAME="restored")  # the operator points the CLI at the restored copy
    reset_table()
    code, out, err = run(capsys, "--state-dir", str(tmp_path), "export-company", "--company-id",
                         str(company_a.company_id), "--output", str(dump))
    assert code == 0, err
    settings_env(TABLE_NAME=live)  # then at the live table
    reset_table()
    exported = json.loads(dump.read_text())
    assert json.loads(out)["items"] == len(exported["items"]) > 30
    # with what belongs to it under global partitions: its API key, its members' side of the membership
    assert {item["PK"]["S"].split("#")[0] for item in exported["items"]} >= {"C", "KEY", "USER"}
    # refused over another company, or from a file that is no dump: nothing written
    code, _, err = run(capsys, "--state-dir", str(tmp_path), "import-company", "--company-id",
                       str(company_b.company_id), "--input", str(dump))
    assert code == 1 and "holds company" in err
    # an outbox event of the restored period the live table no longer holds (its 30 days ran out):
    # not written again, or the fan-out would send its webhooks a second time
    gone = next(key for key, item in at_restore_point.items()
                if belongs_to(item, company_a.company_id) and item.get("itemType", {}).get("S") == "EVENT")
    client.delete_item(TableName=table.name, Key={"PK": {"S": gone[0]}, "SK": {"S": gone[1]}})
    code, out, err = run(capsys, "--state-dir", str(tmp_path), "import-company", "--company-id",
                         str(company_a.company_id), "--input", str(dump))
    assert code == 0, err
    imported = json.loads(out)
    assert imported["deleted"] > 0 and imported["skippedEvents"] == 1 and imported["skippedExpired"] == 0
    assert imported["written"] == len(exported["items"]) - 1
    del at_restore_point[gone]

    restored = _typed_items(table.name)
    company_a_now = {key: item for key, item in restored.items() if belongs_to(item, company_a.company_id)}
    company_a_then = {key: item for key, item in at_restore_point.items() if belongs_to(item, company_a.company_id)}
    assert company_a_now == company_a_then  # every item back, as it was; none of the later ones
    assert {key: item for key, item in restored.items() if not belongs_to(item, company_a.company_id)} == \
        everything_else  # nothing else touched: B's later document stays
    assert {key: item for key, item in restored.items() if belongs_to(item, company_b.company_id)} == b_after
    assert api.get(f"/business-partners/{shop.customer}", key=company_a.api_key).json["name"] == "Cliente Uno"
    assert api.get("/documents?type=01", key=company_a.api_key).json["total"] == 1


def test_migrate_against_a_deployed_table_needs_its_kms_key(table, capsys, tmp_path, settings_env):
    settings_env(LOCAL_SECRETS_KEY="dGVzdHMtb25seS1zZWNyZXRzLWtleS0zMi1ieXRlcyE=")  # an operator's shell
    code, _, err = run(capsys, "--state-dir", str(tmp_path), "migrate")
    assert code == 1 and "SECRETS_KMS_KEY_ID" in err
    import boto3
    key_id = boto3.client("kms").create_key()["KeyMetadata"]["KeyId"]
    settings_env(SECRETS_KMS_KEY_ID=key_id)
    code, out, err = run(capsys, "--state-dir", str(tmp_path), "migrate")
    assert code == 0, err
    assert json.loads(out) == {"membershipItemsUpdated": 0, "secretsSealed": 0, "stockPositionsCreated": 0, "stockMovesValued": 0,
                               "accountBalancesMoved": 0, "chartAccountsMoved": 0,
                               "dayCountsMerged": 0, "periodLocksMirrored": 0,
                               "recordsIndexedForSearch": 0, "documentNumbersIndexed": 0,
                               "caiRangesOfOneSarSeriesDeactivated": 0,
                               "addressesMovedTo2024Division": 0,
                               "documentsNumberedWithoutCaiReported": 0,
                               "partnerTaxIdsReserved": 0, "partnerTaxIdsDuplicatedReported": 0,
                               "partnerTaxIdsRefusedReported": 0, "gatewayPaymentsLinked": 0,
                               "booksLocksFromClosedYears": 0, "openDocumentsIndexedPerCompany": 0,
                               "gatewaysOfInventedFormatsRetired": 0}
