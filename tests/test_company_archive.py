"""Export everything and restore it into a new, empty company (issue 41, point 2): the archive's
manifest, counts and checksums; no secret leaves; every report of the restored company equal to the
original's figure by figure; a non-empty company refused; an interrupted restore run again lands
every item once."""
from __future__ import annotations

import base64
import hashlib
import io
import json
import zipfile
from dataclasses import dataclass
from decimal import Decimal

import boto3
import pytest
from boto3.dynamodb.types import TypeDeserializer

from chalicelib.services.imports.company_restore import KIND
from chalicelib.services.imports.kinds import ImportContext
from chalicelib.store import keys
from chalicelib.store.company_items import family, mentions, scan_company
from chalicelib.store.files import get_files, reset_files
from chalicelib.store.transaction import Transaction
from tests.company_archive_support import busy_shop, secret_looking_names
from tests.support import ORIGIN, make_company

_DESERIALIZER = TypeDeserializer()


def _values(item: dict) -> dict:
    return {name: _DESERIALIZER.deserialize(value) for name, value in item.items()}

D = Decimal
BUCKET = "business-api-files-test"


@pytest.fixture
def files(aws, settings_env):
    settings_env(FILES_BUCKET=BUCKET)
    reset_files()
    boto3.client("s3").create_bucket(Bucket=BUCKET)
    yield get_files()
    reset_files()


@dataclass(frozen=True)
class Context(ImportContext):
    """An import job's context with its unit markers in the table (the jobs helper's jobs.py keeps
    them the same way); `fail_at`: the unit whose marking raises, a fault mid-restore."""
    fail_at: str | None = None

    def mark_done(self, transaction: Transaction, unit: str) -> None:
        if unit == self.fail_at:
            raise RuntimeError("the Lambda stopped here")
        transaction.put_new({**keys.import_unit(self.company_id, self.job_id, unit), "at": "now"})

    def is_done(self, unit: str) -> bool:
        return self.table.get(keys.import_unit(self.company_id, self.job_id, unit)) is not None


def context(table, company, job_id: int = 1, **more) -> Context:
    return Context(table=table, company_id=company.company_id, job_id=job_id, user_id=company.user_id, date=None, **more)


def export(api, company, files) -> tuple[dict, bytes]:
    started = api.post("/exports/company", key=company.api_key)
    assert started.status == 202, started.text
    assert started.json["status"] == "done" and started.json["downloadUrl"] is None  # no queue: run in the request
    job = api.get(f"/exports/{started.json['id']}", key=company.api_key)
    assert job.status == 200, job.text
    object_key = keys.export_archive_object(company.company_id, job.json["id"])
    assert object_key.rsplit("/", 1)[-1] in job.json["downloadUrl"]  # the presigned GET of the ZIP
    return job.json, files.get(object_key)


def reports(api, key: str) -> dict:
    paths = ["/journal-entries/trial-balance?date=2026-12-31", "/journal-entries/trial-balance?date=2025-12-31",
             "/reports/balance-sheet?date=2026-12-31", "/reports/income-statement?startDate=2025-01-01&endDate=2025-12-31",
             "/reports/income-statement?startDate=2026-01-01&endDate=2026-12-31",
             "/reports/aged-receivables?date=2026-12-31", "/reports/aged-payables?date=2026-12-31",
             "/inventory/valuation?date=2026-12-31", "/documents?limit=100", "/business-partners?limit=100",
             "/products?limit=100", "/chart-of-accounts?limit=100", "/fiscal-years", "/inventory/stock?productId=1"]
    answers = {}
    for path in paths:
        reply = api.get(path, key=key)
        assert reply.status == 200, (path, reply.text)
        answers[path] = reply.json
    return answers


def typed_items(content: bytes) -> list[dict]:
    archive = zipfile.ZipFile(io.BytesIO(content))
    return [json.loads(line) for name in archive.namelist() if name.startswith("items/")
            for line in archive.read(name).decode().splitlines()]


def test_a_year_of_business_exported_and_restored_into_a_new_company(api, table, files, company_a):
    shop = busy_shop(api, company_a)
    before = reports(api, company_a.api_key)
    # by hand: the customer owes invoice 230 - 100 paid + service invoice 150 + 22.50 ISV - credit note 115 = 187.50
    partners = {p["name"]: p for p in before["/business-partners?limit=100"]["businessPartners"]}
    assert D(str(partners["Cliente Uno"]["receivableBalance"])) == D("187.50")
    # a key made in the console: the source's audit trail (and its count) travels in the archive
    source_cookie = api.login(company_a.email)
    assert api.post("/settings/api-keys", {"name": "ERP"}, cookie=source_cookie, origin=ORIGIN).status == 201
    job, content = export(api, company_a, files)

    archive = zipfile.ZipFile(io.BytesIO(content))
    manifest = json.loads(archive.read("manifest.json"))
    assert (manifest["format"], manifest["companyId"], manifest["country"]) == \
        ("business-api/company-archive/1", company_a.company_id, "HN")
    for path, entry in manifest["files"].items():
        data = archive.read(path)
        assert hashlib.sha256(data).hexdigest() == entry["sha256"], path
        lines = data.decode("utf-8-sig").splitlines()
        assert entry["count"] == (len(lines) if path.startswith("items/") else len(lines) - 1), path
    assert manifest["checksum"] == hashlib.sha256("".join(
        f"{path} {entry['sha256']}\n" for path, entry in sorted(manifest["files"].items())).encode()).hexdigest()
    # 8 documents: purchase, invoice, expense, credit note, purchase, purchase return, service invoice... and the
    # counts the job answers are the manifest's
    assert job["counts"]["DOC"] == manifest["files"]["items/DOC.jsonl"]["count"]
    assert job["counts"]["items"] == sum(e["count"] for p, e in manifest["files"].items() if p.startswith("items/"))
    assert {"partners.csv", "products.csv", "accounts.csv", "documents.csv", "journal.csv"} <= set(manifest["files"])
    # the chart with its balances: inventory 110501 at the end = the stock's value, 17 chairs: 500 + 300 = 800 for 15;
    # 2 sold at 53.3333: 693.33; 1 returned at 53.33: 746.67 for 14; 4 x 55 bought: 966.67 for 18; 1 returned to the
    # supplier at the average 966.67 / 18 = 53.70: 912.97
    accounts_csv = archive.read("accounts.csv").decode("utf-8-sig").splitlines()
    assert any(line.startswith(f"{shop.books['110501']},110501,") and line.endswith(",912.97") for line in accounts_csv)

    items = typed_items(content)
    text = json.dumps(items)
    assert secret_looking_names(items) == set()  # every attribute name looked at, not a list of known ones
    assert "gw-secret" not in text
    assert not [i for i in items if i["PK"]["S"].split("#")[0] in ("KEY", "USER", "EMAIL", "SESSION", "INVITE", "PAYLINK")]
    assert not {family(i, company_a.company_id) for i in items} & {"USER", "EVT", "IDEM", "RATE", "EXPORT", "LEASE"}

    new = make_company(table, "Alpha Restaurada", "owner@restaurada.hn")
    # its owner makes a key in the console first, as the README does: an audit entry the new company holds
    cookie = api.login(new.email)
    assert api.post("/settings/api-keys", {"name": "Restauración"}, cookie=cookie, origin=ORIGIN).status == 201
    audit = {company: api.get("/settings/audit-log", cookie=login, origin=ORIGIN).json["total"]
             for company, login in (("source", source_cookie), ("new", cookie))}
    checked = KIND.check_archive(context(table, new), content)
    assert checked.errors == []
    KIND.apply(context(table, new), checked.plan)
    # the audit trail: the archive's entries beside the new company's own, counted together
    assert api.get("/settings/audit-log", cookie=cookie, origin=ORIGIN).json["total"] == audit["source"] + audit["new"]

    after = reports(api, new.api_key)
    for path, answer in before.items():
        assert after[path] == answer, path
    # the company item: the new one's identity, the archive's settings
    restored = api.get("/companies", key=new.api_key).json
    assert (restored["id"], restored["name"]) == (new.company_id, "Alpha Restaurada")
    # no item of the new company names the old one
    mine = scan_company(table, new.company_id)
    assert [(i["PK"]["S"], i["SK"]["S"], mentions(i, company_a.company_id)) for i in mine
            if mentions(i, company_a.company_id)] == []
    # the gateway came without its secret: entered again
    gateway = api.get("/payments/gateways", key=new.api_key).json
    assert [g["hasSecret"] for g in gateway["paymentGateways"]] == [False]
    # the numbering carries on: the next invoice of each is 001-001-01-00000003
    ours = shop.document("01", [(shop.service, 1, 50)], date="2026-05-01")
    theirs = api.post("/documents", {"type": "01", "businessPartnerId": shop.customer, "date": "2026-05-01",
                                     "lines": [{"productId": shop.service, "quantity": 1, "unitPrice": 50}]},
                      key=new.api_key)
    assert theirs.status == 201, theirs.text
    assert theirs.json["number"] == ours["number"] == "001-001-01-00000003"
    # the old company untouched by the restore (but for the invoice just made)
    assert reports(api, company_a.api_key)["/journal-entries/trial-balance?date=2025-12-31"] == \
        before["/journal-entries/trial-balance?date=2025-12-31"]


def test_a_restore_into_a_company_with_records_or_of_a_torn_archive_is_refused(api, table, files, company_a):
    busy_shop(api, company_a)
    _, content = export(api, company_a, files)
    busy = make_company(table, "Ocupada", "owner@ocupada.hn")
    assert api.post("/business-partners", {"name": "Ya existe", "type": "customer"}, key=busy.api_key).status == 201
    checked = KIND.check_archive(context(table, busy), content)
    assert [e.message for e in checked.errors] == [
        "this company already has records: an archive is restored into a new, empty company"]
    assert checked.plan is None
    # the request itself is refused (the job's check stays, for a record written meanwhile): no job, no file
    objects_before = boto3.client("s3").list_objects_v2(Bucket=BUCKET).get("KeyCount", 0)
    posted = api.post("/imports", {"kind": "company", "fileName": "a.zip", "content": base64.b64encode(content).decode()},
                      key=busy.api_key, headers={"Accept-Language": "es"})
    assert (posted.status, posted.json["code"]) == (409, "COMPANY_NOT_EMPTY")
    assert posted.json["message"] == ("Esta empresa ya tiene registros: el respaldo de una empresa se restaura en una "
                                      "empresa nueva y vacía.")
    assert api.get("/imports", key=busy.api_key).json["imports"] == []
    assert boto3.client("s3").list_objects_v2(Bucket=BUCKET).get("KeyCount", 0) == objects_before

    # a torn archive: a posting's month balance lost (read as the company wrote), checksums made again
    archive = zipfile.ZipFile(io.BytesIO(content))
    manifest = json.loads(archive.read("manifest.json"))
    balances = archive.read("items/BAL.jsonl").decode().splitlines()
    torn = ("\n".join(balances[1:]) + "\n").encode()
    manifest["files"]["items/BAL.jsonl"] = {"count": len(balances) - 1, "sha256": hashlib.sha256(torn).hexdigest()}
    manifest["checksum"] = hashlib.sha256("".join(f"{p} {e['sha256']}\n" for p, e in sorted(manifest["files"].items()))
                                          .encode()).hexdigest()
    rebuilt = io.BytesIO()
    with zipfile.ZipFile(rebuilt, "w") as out:
        out.writestr("manifest.json", json.dumps(manifest))
        for name in archive.namelist():
            if name != "manifest.json":
                out.writestr(name, torn if name == "items/BAL.jsonl" else archive.read(name))
    fresh = make_company(table, "Vacía", "owner@vacia.hn")
    problems = [e.message for e in KIND.check_archive(context(table, fresh), rebuilt.getvalue()).errors]
    assert problems and problems[0].startswith("the balances' debits")
    # and a partner's name changed without its checksum
    damaged = io.BytesIO()
    with zipfile.ZipFile(damaged, "w") as out:
        for name in archive.namelist():
            data = archive.read(name)
            out.writestr(name, data.replace(b"Cliente Uno", b"Cliente Dos") if name == "items/BP.jsonl" else data)
    assert [e.message for e in KIND.check_archive(context(table, fresh), damaged.getvalue()).errors] == [
        "items/BP.jsonl: its checksum does not match the manifest"]
    assert scan_company(table, fresh.company_id) == scan_company(table, fresh.company_id)  # nothing written


def test_an_interrupted_restore_run_again_lands_every_item_once(api, table, files, company_a):
    busy_shop(api, company_a)
    _, content = export(api, company_a, files)
    new = make_company(table, "Nueva", "owner@nueva.hn")
    checked = KIND.check_archive(context(table, new), content)
    assert len(checked.plan.units) >= 3  # about 300 items: units of at most 98
    with pytest.raises(RuntimeError):
        KIND.apply(context(table, new, fail_at="items-000002"), checked.plan)
    landed = {(i["PK"]["S"], i["SK"]["S"]) for i in scan_company(table, new.company_id)}
    assert {(i["PK"]["S"], i["SK"]["S"]) for i in checked.plan.units[0][1]} <= landed
    assert not {(i["PK"]["S"], i["SK"]["S"]) for i in checked.plan.units[1][1]} & landed

    again = KIND.check_archive(context(table, new), content)  # the job again: not refused as "not empty"
    assert again.errors == []
    KIND.apply(context(table, new), again.plan)
    archived = {(i["PK"]["S"], i["SK"]["S"]): _values(i) for unit in again.plan.units for i in unit[1]}
    stored = {(i["PK"]["S"], i["SK"]["S"]): _values(i) for i in scan_company(table, new.company_id)}
    # each item as the archive holds it (as values: DynamoDB keeps 22.50 as 22.5)
    assert {key: stored[key] for key in archived} == archived
    assert reports(api, new.api_key) == reports(api, company_a.api_key)
