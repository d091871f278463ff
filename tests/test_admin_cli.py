"""The admin CLI creates what it says and prints keys that authenticate."""
from __future__ import annotations

import json

import pytest

from infra import admin


def run(capsys, *argv):
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
    from chalicelib.services import accounts

    with pytest.raises(ValidationFailed):
        accounts.create_user(table, "short@c.hn", "1234567")
