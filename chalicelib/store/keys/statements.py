"""Bank statements imported into a bank account, their lines, the identities that keep a line
from being imported twice, the account's column mapping and the company's bank rules."""
from __future__ import annotations

import hashlib
import json

from chalicelib.store.keys.base import Key, sortable_id

BANK_STATEMENT = "BANKSTMT"
STATEMENT_LINE = "BANKLINE"
STATEMENT_LINE_IDENTITY = "BANKLINEKEY"
STATEMENT_MAPPING = "BANKMAP"
BANK_RULE = "BANKRULE"   # a small record (keys.small_record): one partition holds the company's rules
LINE_STATUSES = ("unmatched", "matched", "ignored")


def statements_partition(company_id: int, account_id: int) -> str:
    return f"C#{company_id}#{BANK_STATEMENT}#{account_id}"


def bank_statement(company_id: int, account_id: int, statement_id: int) -> Key:
    """Ids from the company's BANKSTMT sequence; newest first by reading the partition backwards."""
    return {"PK": statements_partition(company_id, account_id), "SK": sortable_id(statement_id)}


def statement_lines_partition(company_id: int, account_id: int) -> str:
    return f"C#{company_id}#{STATEMENT_LINE}#{account_id}"


def statement_line(company_id: int, account_id: int, line_id: int) -> Key:
    """A line by its id (ids from the company's BANKLINE sequence, given in the file's order)."""
    return {"PK": statement_lines_partition(company_id, account_id), "SK": sortable_id(line_id)}


def statement_line_index(company_id: int, account_id: int, status: str, date: str, line_id: int) -> dict[str, str]:
    """GSI1 lists an account's lines of one status by date; GSI2 lists all of them by date. A
    change of status rewrites GSI1PK in the same transaction as the change."""
    sort = f"{date}#{sortable_id(line_id)}"
    return {"GSI1PK": f"{statement_lines_partition(company_id, account_id)}#{status}", "GSI1SK": sort,
            "GSI2PK": f"{statement_lines_partition(company_id, account_id)}#ALL", "GSI2SK": sort}


def statement_line_identity(company_id: int, account_id: int, identity: tuple[str, ...]) -> Key:
    """One item per line ever imported into the account, put with the line under a condition that
    it does not exist: the same line in a second (or overlapping, or concurrent) file is skipped.
    The sort key is the SHA-256 of the identity's parts (64 characters, whatever the length of the
    bank's id or reference: DynamoDB refuses a sort key past 1024 bytes); the parts are joined as a
    JSON list, so no two identities join alike."""
    joined = json.dumps(list(identity), ensure_ascii=False, separators=(",", ":"))
    return {"PK": f"C#{company_id}#{STATEMENT_LINE_IDENTITY}#{account_id}",
            "SK": hashlib.sha256(joined.encode("utf-8")).hexdigest()}


def statement_mapping(company_id: int, account_id: int) -> Key:
    """The CSV/XLSX column mapping saved for one bank account."""
    return {"PK": f"C#{company_id}#{STATEMENT_MAPPING}", "SK": sortable_id(account_id)}


def statement_line_counts(company_id: int, account_id: int) -> Key:
    """An account's lines counted by status (`unmatched`, `matched`, `ignored`, and `all`), also
    per statement (`<status>#<statementId>`), and its statements (`statements`): the exact
    `total` of a listing. An import adds to it in each of its transactions, a change of status
    moves one line between two of them (services/statements/lines.count_status_change). Read with
    its shards (keys.shards: every write of a concurrent import adds to it)."""
    return {"PK": f"C#{company_id}#{STATEMENT_LINE}COUNT#{account_id}", "SK": "COUNT"}


def line_count_name(status: str, statement_id: int | None = None) -> str:
    """The attribute of statement_line_counts that counts one status (or `all`), of the account or of
    one of its statements."""
    return status if statement_id is None else f"{status}#{statement_id}"
