"""The company archive (issue 41), format "business-api/company-archive/1": a ZIP of every item of one
company as DynamoDB stored it, in its typed JSON form (numbers and types survive exactly), one JSON
Lines file per family (`items/DOC.jsonl`, `items/ACCT.jsonl`, `items/COMPANY.jsonl`, ...:
store/company_items.py `family`), readable CSV of the main tables built from those items, and
`manifest.json` {format, companyId, companyName, country, exportedAt, files: {path: {count,
sha256}}, checksum} (checksum: sha256 of the files' lines "path sha256", sorted by path).

What never goes in: secrets (API keys, users and their passwords, sessions, invitations; inside
company items the DTE signing key and the authority's credentials, gateway and webhook secrets) and
what is transient, not a record (idempotency records, rate windows, outbox events, webhook
deliveries, failed-login windows, leases, import and export jobs), memberships, and payment links
(global items whose ids must be fresh: a restored company makes new links)."""
from __future__ import annotations

import base64
import csv
import hashlib
import io
import json
import zipfile
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Iterable

from chalicelib.domain.import_rows import RowError
from chalicelib.exports.csv_writer import as_text
from chalicelib.messages.phrases import Phrase
from chalicelib.store import keys
from chalicelib.store.company_items import LEASE_FAMILY, family
from chalicelib.store.repositories import archives as stored_archives
from chalicelib.store.table import from_attributes

FORMAT = "business-api/company-archive/1"
MANIFEST = "manifest.json"
ITEMS_FOLDER = "items/"
# transient items, jobs, memberships and the items that are secrets as a whole
EXCLUDED_FAMILIES = frozenset({
    "IDEM", "RATE", "EVT", "WHDLV", "USER", "MEMBER", LEASE_FAMILY,
    "IMPORT", "IMPORTERR", "IMPORTUNIT", "EXPORT", "RESTORE",
    "DTE_SIGNING_KEY", "DTE_AUTHORITY_CREDENTIALS",
})
JOB_KINDS = frozenset({"IMPORT", "EXPORT"})  # their id sequences and counts go with the jobs
# secret attributes inside items that are records: removed, the restored company enters them again
SECRET_ATTRIBUTES = frozenset({"secret", "sealedSecret", "sealedKey", "sealedPassword", "secretFingerprint",
                               "passwordHash", "tokenHash", "inviteTokenHash"})
# a webhook subscription without its signing secret would send unsigned deliveries, a card gateway
# without its secret could verify no notification (issue 43): both arrive inactive
WEBHOOK_FAMILY = "WEBHOOKS"
PAUSED_WITHOUT_SECRET = frozenset({WEBHOOK_FAMILY, stored_archives.PAYMENT_GATEWAY_FAMILY})


class ArchiveInvalid(Exception):
    """The bytes are not an archive of this format, or it is damaged (a checksum, a count)."""

    def __init__(self, error: RowError):
        super().__init__(error.message)
        self.error = error


@dataclass
class Archive:
    manifest: dict[str, Any]
    items: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # family -> typed items

    @property
    def company_id(self) -> int:
        return int(self.manifest["companyId"])


def archived(item: dict[str, Any], company_id: int, now_epoch: int) -> dict[str, Any] | None:
    """The item as the archive holds it (its secrets removed), or None when it stays out."""
    kind = family(item, company_id)
    if kind in EXCLUDED_FAMILIES or (kind in ("SEQ", "COUNT") and stored_archives.last_part_of_sort_key(item) in JOB_KINDS):
        return None
    if "expiresAt" in item and "N" in item["expiresAt"] and int(Decimal(item["expiresAt"]["N"])) <= now_epoch:
        return None
    kept = {name: value for name, value in item.items() if name not in SECRET_ATTRIBUTES}
    if kind in PAUSED_WITHOUT_SECRET and len(kept) != len(item):
        kept["isActive"] = {"BOOL": False}
    return kept


def build(company: dict[str, Any], items: Iterable[dict[str, Any]], exported_at: str) -> tuple[bytes, dict[str, Any]]:
    """The ZIP and its manifest. `company`: the company item as the services read it."""
    company_id = int(company["id"])
    by_family: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for item in items:
        by_family[family(item, company_id)].append(item)
    files: dict[str, tuple[bytes, int]] = {}
    for kind, members in sorted(by_family.items()):
        lines = "".join(json.dumps(_binary(item, _text), sort_keys=True, ensure_ascii=False) + "\n"
                        for item in members)
        files[f"{ITEMS_FOLDER}{kind}.jsonl"] = (lines.encode("utf-8"), len(members))
    for name, rows in readable_tables(by_family, company_id).items():
        files[name] = (_csv(rows), max(len(rows) - 1, 0))
    listed = {path: {"count": count, "sha256": hashlib.sha256(content).hexdigest()}
              for path, (content, count) in sorted(files.items())}
    manifest = {"format": FORMAT, "companyId": company_id, "companyName": company.get("name"),
                "country": company.get("country"), "exportedAt": exported_at, "files": listed,
                "checksum": _checksum(listed)}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(MANIFEST, json.dumps(manifest, indent=2, ensure_ascii=False))
        for path, (content, _) in sorted(files.items()):
            archive.writestr(path, content)
    return buffer.getvalue(), manifest


def _binary(value: Any, convert: Any) -> Any:
    """The typed item with its binary values (`B`, `BS`: a DTE's signed payload) converted: to
    base64 text for JSON, back to bytes when read."""
    if not isinstance(value, dict):
        return value
    converted = {}
    for name, inner in value.items():
        if name == "B" and isinstance(inner, (bytes, str)):
            converted[name] = convert(inner)
        elif name == "BS" and isinstance(inner, list):
            converted[name] = [convert(each) for each in inner]
        elif name == "L":
            converted[name] = [_binary(each, convert) for each in inner]
        else:
            converted[name] = _binary(inner, convert) if isinstance(inner, dict) else inner
    return converted


def _text(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _bytes(text: str) -> bytes:
    return base64.b64decode(text.encode("ascii"), validate=True)


def _checksum(listed: dict[str, dict[str, Any]]) -> str:
    text = "".join(f"{path} {entry['sha256']}\n" for path, entry in sorted(listed.items()))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# the files of an archive, uncompressed, that a restore reads: its items are held parsed in memory
# (about 5 times their text), and a 1024 MB Lambda must hold them; the 4 MB upload of JSON Lines
# (which compress 5-15 times) expands to some 20-60 MB
MAX_EXPANDED_BYTES = 128 * 1024 * 1024
MAX_MANIFEST_BYTES = 1024 * 1024  # a manifest lists some 30 files


def check_container(content: bytes) -> None:
    """What a request can tell at once: the bytes are a ZIP holding a manifest (`read` checks the rest)."""
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            archive.getinfo(MANIFEST)
    except (zipfile.BadZipFile, KeyError) as error:
        raise ArchiveInvalid(RowError(0, None, Phrase("not a company archive (a ZIP with {})", MANIFEST))) from error


def read(content: bytes) -> Archive:
    """The archive's manifest and items, every checksum and count verified."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(content))
        if archive.getinfo(MANIFEST).file_size > MAX_MANIFEST_BYTES:
            raise ValueError("the manifest is too large")
        manifest = json.loads(archive.read(MANIFEST))
    except (zipfile.BadZipFile, KeyError, ValueError) as error:
        raise ArchiveInvalid(RowError(0, None, Phrase("not a company archive (a ZIP with {})", MANIFEST))) from error
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ArchiveInvalid(RowError(0, None, Phrase("not a company archive of format {}", FORMAT)))
    listed = manifest.get("files")
    if not isinstance(listed, dict) or manifest.get("checksum") != _checksum(listed):
        raise ArchiveInvalid(RowError(0, None, "the manifest's checksum does not match its files"))
    result = Archive(manifest)
    names = set(archive.namelist()) - {MANIFEST}
    if names != set(listed):
        raise ArchiveInvalid(RowError(0, None, "the archive's files are not those its manifest lists"))
    # the sizes the files declare bound what reading them yields (zipfile stops there: a file
    # longer than it says fails its CRC), so the archive is measured before any is read
    if sum(info.file_size for info in archive.infolist()) > MAX_EXPANDED_BYTES:
        raise ArchiveInvalid(RowError(0, None, Phrase("the archive expands to more than {} MB: a restore reads at most "
                                                      "that", MAX_EXPANDED_BYTES // (1024 * 1024))))
    for path, entry in sorted(listed.items()):
        try:
            data = archive.read(path)
        except (zipfile.BadZipFile, OSError, EOFError) as error:
            raise ArchiveInvalid(RowError(0, None, Phrase("{}: its checksum does not match the manifest",
                                                          path))) from error
        if hashlib.sha256(data).hexdigest() != entry.get("sha256"):
            raise ArchiveInvalid(RowError(0, None, Phrase("{}: its checksum does not match the manifest", path)))
        if not path.startswith(ITEMS_FOLDER):
            continue
        try:
            items = [_binary(json.loads(line), _bytes) for line in data.decode("utf-8").splitlines() if line]
        except (ValueError, TypeError, AttributeError) as error:
            raise ArchiveInvalid(RowError(0, None, Phrase("{}: not JSON Lines of typed items", path))) from error
        if len(items) != entry.get("count"):
            raise ArchiveInvalid(RowError(0, None, Phrase("{}: {} items, the manifest says {}",
                                                          path, len(items), entry.get('count'))))
        result.items[path[len(ITEMS_FOLDER):-len(".jsonl")]] = items
    return result


def books_problems(archive: Archive) -> list[RowError]:
    """The books' invariants over the archive's items: the month balances' debits equal their
    credits, and each account's postings add up to its month balances. An archive read while the
    company wrote may hold one side of a transaction only (a torn archive): it fails here."""
    balances: dict[int, list[Decimal]] = defaultdict(lambda: [Decimal(0), Decimal(0)])
    for item in archive.items.get("BAL", []):
        plain = from_attributes(item)
        balances[int(plain["accountId"])][0] += Decimal(plain.get("debit", 0))
        balances[int(plain["accountId"])][1] += Decimal(plain.get("credit", 0))
    postings: dict[int, list[Decimal]] = defaultdict(lambda: [Decimal(0), Decimal(0)])
    for item in archive.items.get("ACCT", []):
        plain = from_attributes(item)
        if plain.get("itemType") == keys.POSTING:
            postings[int(plain["accountId"])][0] += Decimal(plain.get("debit", 0))
            postings[int(plain["accountId"])][1] += Decimal(plain.get("credit", 0))
    problems = []
    debits, credits = sum(b[0] for b in balances.values()), sum(b[1] for b in balances.values())
    if debits != credits:
        problems.append(RowError(0, None, Phrase("the balances' debits {} differ from their credits {}",
                                                 debits, credits)))
    for account in sorted(set(balances) | set(postings)):
        (posted_debit, posted_credit), (debit, credit) = postings[account], balances[account]
        if (posted_debit, posted_credit) != (debit, credit):
            problems.append(RowError(0, None, Phrase("account {}: its postings (debit {}, credit {}) differ from its "
                                                     "balances (debit {}, credit {})",
                                                     account, posted_debit, posted_credit, debit, credit)))
    return problems


# --- the readable tables: CSV built from the items (never read back: the items are the archive) ---

def readable_tables(by_family: dict[str, list[dict[str, Any]]], company_id: int) -> dict[str, list[list[Any]]]:
    def plain(kind: str, item_type: str | None = None) -> list[dict[str, Any]]:
        found = [from_attributes(item) for item in by_family.get(kind, [])]
        return [item for item in found if item_type is None or item.get("itemType") == item_type]

    balances: dict[int, Decimal] = defaultdict(Decimal)
    for item in plain("BAL"):
        balances[int(item["accountId"])] += Decimal(item.get("debit", 0)) - Decimal(item.get("credit", 0))
    accounts = sorted(plain("CHART", "ACCT"), key=lambda a: str(a.get("code")))
    codes = {int(a["id"]): a.get("code") for a in accounts}
    partners = sorted(plain("BP", "BP"), key=lambda p: int(p["id"]))
    products = sorted(plain("PROD", "PROD"), key=lambda p: int(p["id"]))
    documents = sorted(plain("DOC", "DOC"), key=lambda d: int(d["id"]))
    entries = sorted(plain("JE", "JE"), key=lambda e: int(e["id"]))
    return {
        "partners.csv": [["id", "name", "type", "taxId", "email", "phone", "receivableBalance", "payableBalance",
                          "isActive"]] + [[p.get(k) for k in ("id", "name", "type", "taxId", "email", "phone",
                                                              "receivableBalance", "payableBalance", "isActive")]
                                          for p in partners],
        "products.csv": [["id", "code", "name", "type", "unit", "unitPrice", "cost", "taxRate", "trackInventory",
                          "isActive"]] + [[p.get(k) for k in ("id", "code", "name", "type", "unit", "unitPrice", "cost",
                                                              "taxRate", "trackInventory", "isActive")]
                                          for p in products],
        "accounts.csv": [["id", "code", "name", "type", "parentCode", "balance"]] + [
            [a["id"], a.get("code"), a.get("name"), a.get("type"), codes.get(a.get("parentId") or 0),
             balances.get(int(a["id"]), Decimal(0))] for a in accounts],
        "documents.csv": [["id", "type", "number", "status", "date", "dueDate", "businessPartnerId", "currency",
                           "exchangeRate", "subtotal", "tax", "total", "pending"]] + [
            [d.get(k) for k in ("id", "type", "number", "status", "date", "dueDate", "businessPartnerId", "currency",
                                "exchangeRate", "subtotal", "tax", "total", "pending")] for d in documents],
        "journal.csv": [["entryId", "date", "status", "entryType", "description", "line", "accountCode", "debit",
                         "credit"]] + [
            [e["id"], e.get("date"), e.get("status"), e.get("entryType"), e.get("description"), number,
             codes.get(int(line.get("chartOfAccountId") or 0)), line.get("debit"), line.get("credit")]
            for e in entries for number, line in enumerate(e.get("lines") or [], start=1)],
    }


def _csv(rows: list[list[Any]]) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    for row in rows:
        writer.writerow(["" if value is None else str(value).lower() if isinstance(value, bool)
                         else as_text(value) if isinstance(value, str) else value for value in row])
    return buffer.getvalue().encode("utf-8-sig")  # with its BOM: Excel reads the accents
