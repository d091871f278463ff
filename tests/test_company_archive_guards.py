"""What a company archive's restore refuses (issue 41, point 2): a crafted archive that would write
into another company, a second restore into the same company, a torn archive whose counters are
behind its records (and the export that reads again rather than make one); restored records carry
no import stamp of the source."""
from __future__ import annotations

import hashlib
import io
import json
import zipfile

import pytest

from chalicelib.errors import Conflict
from chalicelib.services.imports import company_export
from chalicelib.services.imports.company_restore import KIND
from chalicelib.store import keys
from chalicelib.store.company_items import scan_company
from chalicelib.store.transaction import Transaction
from tests.company_archive_support import busy_shop
from tests.import_kinds_support import context as kind_context
from tests.import_kinds_support import problems, rows, run
from tests.support import make_company
from tests.test_company_archive import context, export, files, typed_items  # noqa: F401 (fixture)


def rebuilt(content: bytes, change) -> bytes:
    """The archive with `change(data, manifest)` applied to its files, its counts and checksums made
    again: damage the checksums cannot see."""
    archive = zipfile.ZipFile(io.BytesIO(content))
    manifest = json.loads(archive.read("manifest.json"))
    data = {name: archive.read(name) for name in archive.namelist() if name != "manifest.json"}
    change(data)
    manifest["files"] = {}
    for name, blob in data.items():
        count = len([line for line in blob.decode("utf-8-sig").splitlines() if line])
        manifest["files"][name] = {"count": count if name.startswith("items/") else count - 1,
                                   "sha256": hashlib.sha256(blob).hexdigest()}
    manifest["checksum"] = hashlib.sha256("".join(f"{p} {e['sha256']}\n" for p, e in sorted(manifest["files"].items()))
                                          .encode()).hexdigest()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as written:
        written.writestr("manifest.json", json.dumps(manifest))
        for name, blob in data.items():
            written.writestr(name, blob)
    return out.getvalue()


def lines(blob: bytes) -> list[dict]:
    return [json.loads(line) for line in blob.decode().splitlines() if line]


def jsonl(items: list[dict]) -> bytes:
    return "".join(json.dumps(item) + "\n" for item in items).encode()


def test_a_crafted_archive_never_writes_into_another_company(api, table, files, company_a, company_b):  # noqa: F811
    assert api.post("/business-partners", {"name": "Cliente A", "type": "customer"}, key=company_a.api_key).status == 201
    victim = {**keys.payment_link("lnk_victim"), "itemType": "PAYLINK", "id": "lnk_victim",
              "companyId": company_b.company_id, "gatewayId": 1, "provider": "pixelpay", "documentId": 7}
    Transaction(table).put(victim).commit()
    _, content = export(api, company_a, files)
    old, other = company_a.company_id, company_b.company_id

    def into_b_partners(data):  # the partner listed in company B's index
        partners = lines(data["items/BP.jsonl"])
        for item in partners:
            if "GSI1PK" in item:
                item.update(GSI1PK={"S": f"C#{other}#BP"}, name={"S": "INYECTADO"})
        data["items/BP.jsonl"] = jsonl(partners)

    def over_b_link(data):  # a global item, said to be company A's
        link = {"PK": {"S": "PAYLINK#lnk_victim"}, "SK": {"S": "PAYLINK"}, "companyId": {"N": str(old)},
                "provider": {"S": "pixelpay"}, "gatewayId": {"N": "1"}, "documentId": {"N": "1"}}
        data["items/PAYLINK.jsonl"] = jsonl([link])

    new = make_company(table, "Atacante", "owner@atacante.hn")
    refused = KIND.check_archive(context(table, new), rebuilt(content, into_b_partners))
    assert [e.message for e in refused.errors] == [
        f"items/BP.jsonl: the item C#{old}#BP#1 / BP would be written outside this company (GSI1PK)"]
    refused = KIND.check_archive(context(table, new), rebuilt(content, over_b_link))
    assert [e.message for e in refused.errors] == [f"items/PAYLINK.jsonl: an item that is not one of company {old}'s records"]
    assert refused.plan is None
    assert table.get(keys.payment_link("lnk_victim"))["companyId"] == other
    assert api.get("/business-partners", key=company_b.api_key).json["businessPartners"] == []


def test_a_second_restore_into_the_same_company_is_refused_and_the_first_run_again_finishes(
        api, table, files, company_a):  # noqa: F811
    busy_shop(api, company_a)
    _, content = export(api, company_a, files)
    new = make_company(table, "Nueva", "owner@nueva.hn")
    first, second = KIND.check_archive(context(table, new, job_id=1), content), \
        KIND.check_archive(context(table, new, job_id=2), content)
    assert first.errors == second.errors == []  # both read an empty company
    with pytest.raises(RuntimeError):  # job 1 lands its first unit (and the guard), then stops
        KIND.apply(context(table, new, job_id=1, fail_at="items-000002"), first.plan)
    assert table.get(keys.company_restore_guard(new.company_id))["jobId"] == 1
    # job 2, checked before: its first unit's guard refuses it, nothing of it lands
    landed = scan_company(table, new.company_id)
    with pytest.raises(Conflict):
        KIND.apply(context(table, new, job_id=2), second.plan)
    assert scan_company(table, new.company_id) == landed
    # job 2 checked now: refused by name (the unit markers are job 1's: the emptiness check alone passes it)
    assert [e.message for e in KIND.check_archive(context(table, new, job_id=2), content).errors] == [
        "another restore (import 1) is running or ran into this company: an archive is restored into a new, empty "
        "company"]
    again = KIND.check_archive(context(table, new, job_id=1), content)
    assert again.errors == []
    KIND.apply(context(table, new, job_id=1), again.plan)
    assert api.get("/business-partners", key=new.api_key).json["total"] == 2


def torn(first: bytes, second: bytes, company_id: int) -> bytes:
    """The second archive with the counters the first held (its company partition and CAI ranges):
    a read of the counters before an invoice and of the rest after it."""
    earlier = zipfile.ZipFile(io.BytesIO(first))

    def counter(item: dict) -> bool:
        return item["PK"]["S"] == f"C#{company_id}" or item["PK"]["S"] == f"C#{company_id}#CAIS"

    def change(data):
        for name in [n for n in data if n.startswith("items/")]:
            before = lines(earlier.read(name)) if name in earlier.namelist() else []
            data[name] = jsonl([i for i in lines(data[name]) if not counter(i)] + [i for i in before if counter(i)])
    return rebuilt(second, change)


def test_a_torn_archive_is_refused_naming_the_counters_behind(api, table, files, company_a):  # noqa: F811
    shop = busy_shop(api, company_a)
    _, first = export(api, company_a, files)
    made = shop.document("01", [(shop.service, 1, 50)], date="2026-05-01")
    assert made["number"] == "001-001-01-00000003"  # invoices 1 and 2 were the shop's
    _, second = export(api, company_a, files)
    new = make_company(table, "Restaurada", "owner@r.hn")
    checked = KIND.check_archive(context(table, new), torn(first, second, company_a.company_id))
    # before the invoice: documents 1..7 (SEQ#DOC 7), entries 1..11 (SEQ#JE 11), the invoices' CAI range 1 next at
    # 3; the invoice is document 8, its entry 12, its number 3 (the range must be past it: at 4)
    advice = "the archive was taken while the company was writing: export it again"
    assert [e.message for e in checked.errors] == [
        f"the counter SEQ#DOC is at 7, behind the archive's records, which used 8: {advice}",
        f"the counter SEQ#JE is at 11, behind the archive's records, which used 12: {advice}",
        f"the counter CAIS#000000000001 is at 3, behind the archive's records, which used 3: {advice}"]
    assert checked.plan is None


def test_the_export_reads_again_when_torn_then_fails_naming_the_problem(api, table, files, company_a, monkeypatch):  # noqa: F811
    shop = busy_shop(api, company_a)
    real_scan = company_export.scan_company
    before = real_scan(table, company_a.company_id)
    shop.document("01", [(shop.service, 1, 50)], date="2026-05-01")
    reads = []

    def scan(table, company_id):  # the counters as before the invoice, the rest after: `torn` reads first
        reads.append(1)
        after = real_scan(table, company_id)
        if len(reads) > torn_reads:
            return after
        own = f"C#{company_id}"
        return [i for i in after if i["PK"]["S"] != own] + [i for i in before if i["PK"]["S"] == own]

    monkeypatch.setattr(company_export, "scan_company", scan)
    torn_reads = 2
    job, content = export(api, company_a, files)
    # the third read whole: 8 documents (7 and the invoice) and the payment kept in its document's partition
    assert len(reads) == 3 and job["counts"]["DOC"] == 9
    reads.clear()
    torn_reads = 3
    started = api.post("/exports/company", key=company_a.api_key)
    assert started.json["status"] == "failed" and len(reads) == 3
    stored = table.get(keys.export_job(company_a.company_id, started.json["id"]))
    assert stored["error"] == ("the counter SEQ#DOC is at 7, behind the archive's records, which used 8: the archive "
                               "was taken while the company was writing: export it again")


def test_restored_records_carry_no_import_stamp_of_the_source(api, table, files, company_a):  # noqa: F811
    checked, applied = run("partners", kind_context(table, company_a, job_id=2),
                           rows({"name": "Maya", "type": "customer", "taxId": "08011999123456"}))
    assert applied == {"created": 1, "updated": 0}
    _, content = export(api, company_a, files)
    assert any("importJob" in item for item in typed_items(content))  # the archive keeps what the source holds
    new = make_company(table, "Nueva", "owner@n.hn")
    plan = KIND.check_archive(context(table, new), content).plan
    KIND.apply(context(table, new), plan)
    stamped = [(i["PK"]["S"], i["SK"]["S"]) for i in scan_company(table, new.company_id)
               if "importJob" in i and i["SK"]["S"] != "COMPANY"]
    assert stamped == []
    # the new company's import 2 takes the same tax id as a duplicate of a record, not as its own landed row
    checked = run("partners", kind_context(table, new, job_id=2),
                  rows({"name": "Maya bis", "type": "customer", "taxId": "0801-1999-123456"}))[0]
    assert problems(checked) == [(2, "taxId", "already used by another business partner")]


def test_a_company_is_empty_until_it_holds_a_record_a_rate_or_a_second_warehouse(api, table, company_a):
    """Emptiness is read from the company's own partition (its sequences) and its rates: no scan."""
    from chalicelib.services.imports.company_restore import is_empty

    assert is_empty(table, company_a.company_id)  # what POST /companies made: the company, branch 1, warehouse 1
    rate = api.post("/exchange-rates", {"currency": "USD", "date": "2026-11-02", "rate": 24.5}, key=company_a.api_key)
    assert rate.status == 201, rate.text
    assert not is_empty(table, company_a.company_id)  # a rate has no id: read from its own partition


def test_a_second_warehouse_or_a_partner_is_not_empty(api, table, company_a, company_b):
    from chalicelib.services.imports.company_restore import is_empty

    warehouse = api.post("/warehouses", {"name": "Bodega Norte"}, key=company_a.api_key)
    assert warehouse.status == 201, warehouse.text
    partner = api.post("/business-partners", {"name": "Cliente", "type": "customer"}, key=company_b.api_key)
    assert partner.status == 201, partner.text
    assert (is_empty(table, company_a.company_id), is_empty(table, company_b.company_id)) == (False, False)


def test_an_export_under_way_is_answered_again_rather_than_started_twice(api, table, company_a, files_bucket,
                                                                         settings_env):
    """Each export reads the whole table: while one of the company's is pending, POST answers it."""
    import boto3

    from infra.deploy.resources import create_queues
    queues = create_queues(boto3.client("sqs"), "exports-under-way")
    settings_env(IMPORT_QUEUE_URL=queues["ImportJobsQueue"])
    first = api.post("/exports/company", {}, key=company_a.api_key)
    again = api.post("/exports/company", {}, key=company_a.api_key)
    assert (first.status, first.json["status"]) == (202, "pending")
    assert (again.status, again.json["id"]) == (202, first.json["id"])
    company_export.run_export(table, company_a.company_id, first.json["id"])
    third = api.post("/exports/company", {}, key=company_a.api_key)
    assert third.json["id"] == first.json["id"] + 1  # the first is done: a new export starts
