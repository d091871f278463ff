"""Every key of the single table is built here. Company-scoped keys start with C#{companyId}#
(or are exactly C#{companyId}) so that no query can cross companies by construction."""
from __future__ import annotations

from typing import Dict

Key = Dict[str, str]


def pair(key: Key) -> tuple[str, str]:
    """How Table.batch_get indexes what it found."""
    return key["PK"], key["SK"]

# Entity kinds of company-scoped resources: used in keys, counters and list indexes.
PARTNER = "BP"
PRODUCT = "PROD"
API_KEY = "APIKEY"
PAYMENT_CONDITION = "PCOND"
PAYMENT_METHOD = "PMETHOD"
BANK_ACCOUNT = "BANK"
CHART_ACCOUNT = "ACCT"
JOURNAL_ENTRY = "JE"
ACCOUNTING_PERIOD = "PERIOD"
DETERMINATION_RULE = "RULE"


def company_prefix(company_id: int) -> str:
    return f"C#{company_id}"


def company(company_id: int) -> Key:
    return {"PK": company_prefix(company_id), "SK": "COMPANY"}


def entity(company_id: int, kind: str, entity_id: int) -> Key:
    return {"PK": f"C#{company_id}#{kind}#{entity_id}", "SK": kind}


def collection_index(company_id: int, kind: str, entity_id: int) -> Dict[str, str]:
    """GSI1 attributes that list a company's entities of one kind in id order."""
    return {"GSI1PK": collection_partition(company_id, kind), "GSI1SK": sortable_id(entity_id)}


def collection_partition(company_id: int, kind: str) -> str:
    return f"C#{company_id}#{kind}"


def sortable_id(entity_id: int) -> str:
    return f"{entity_id:012d}"


def id_sequence(company_id: int, kind: str) -> Key:
    """Per-company id allocator (UpdateItem ADD, outside transactions, gaps allowed)."""
    return {"PK": company_prefix(company_id), "SK": f"SEQ#{kind}"}


def entity_count(company_id: int, kind: str) -> Key:
    """How many entities of a kind exist: updated inside the creating transaction."""
    return {"PK": company_prefix(company_id), "SK": f"COUNT#{kind}"}


# The count item also sits in its collection's GSI1 partition, sorted before every id, so
# the first page of a list and its `total` come back from one Query.
COUNT_SORT_KEY = "#COUNT"


def entity_count_index(company_id: int, kind: str) -> Dict[str, str]:
    return {"GSI1PK": collection_partition(company_id, kind), "GSI1SK": COUNT_SORT_KEY}


def global_sequence(kind: str) -> Key:
    return {"PK": "GLOBAL", "SK": f"SEQ#{kind}"}


def unique_value(company_id: int, kind: str, value: str) -> Key:
    """Reserves a value (a product code, ...) inside one company."""
    return {"PK": f"C#{company_id}#UNIQUE#{kind}", "SK": value}


def idempotency(company_id: int, idempotency_key: str) -> Key:
    return {"PK": f"C#{company_id}#IDEM", "SK": idempotency_key}


def outbox_event(company_id: int, occurred_at: str, event_id: str) -> Key:
    return {"PK": f"C#{company_id}#EVT", "SK": f"{occurred_at}#{event_id}"}


def rate_window(company_id: int, key_id: str, window_start: int) -> Key:
    return {"PK": f"C#{company_id}#RATE", "SK": f"{key_id}#{window_start}"}


def user(user_id: int) -> Key:
    return {"PK": f"USER#{user_id}", "SK": "USER"}


def user_email(email: str) -> Key:
    return {"PK": f"EMAIL#{email.strip().lower()}", "SK": "EMAIL"}


def user_company_link(user_id: int, company_id: int) -> Key:
    """Lets /auth/me list a user's companies with one Query on USER#{id}."""
    return {"PK": f"USER#{user_id}", "SK": f"COMPANY#{company_id:012d}"}


def membership(company_id: int, user_id: int) -> Key:
    return {"PK": f"C#{company_id}#USER#{user_id}", "SK": "MEMBER"}


def members_partition(company_id: int) -> str:
    return f"C#{company_id}#MEMBER"


def membership_index(company_id: int, user_id: int) -> Dict[str, str]:
    """GSI1 attributes that list a company's members (and invitations) with one Query."""
    return {"GSI1PK": members_partition(company_id), "GSI1SK": sortable_id(user_id)}


def invitation(token_hash: str) -> Key:
    """Found from the invitation link's token alone (like a session), and naming its company."""
    return {"PK": f"INVITE#{token_hash}", "SK": "INVITE"}


def login_failures(scope: str, value: str, window_start: int) -> Key:
    """Failed logins of one e-mail or source address in one window; expires with it."""
    return {"PK": f"LOGINFAIL#{scope}#{value.strip().lower()}", "SK": str(window_start)}


AUDIT = "AUDIT"  # the audit log's count item is entity_count(company, AUDIT)


def audit_partition(company_id: int) -> str:
    return f"C#{company_id}#{AUDIT}"


def audit_entry(company_id: int, occurred_at: str, entry_id: str) -> Key:
    """Sorted by time in the company's audit partition: read backwards, newest first."""
    return {"PK": audit_partition(company_id), "SK": f"{occurred_at}#{entry_id}"}


def api_key(key_id: str) -> Key:
    return {"PK": f"KEY#{key_id}", "SK": "KEY"}


def session(token_hash: str) -> Key:
    return {"PK": f"SESSION#{token_hash}", "SK": "SESSION"}


# --- payment gateways ----------------------------------------------------------------------------

PAYMENT_GATEWAY = "PGATEWAY"  # small records: a handful per company


def payment_link(link_id: str) -> Key:
    """A gateway's callback names only the link: like an API key, the link is found from its id
    alone and names its company."""
    return {"PK": f"PAYLINK#{link_id}", "SK": "PAYLINK"}


def payment_link_index(company_id: int, created_at: str, link_id: str) -> Dict[str, str]:
    """GSI1 attributes that list a company's payment links by creation time."""
    return {"GSI1PK": f"C#{company_id}#PAYLINK", "GSI1SK": f"{created_at}#{link_id}"}


def gateway_callback(company_id: int, provider: str, transaction_id: str) -> Key:
    """What was decided about one transaction of a gateway (accepted or refused): a repeated
    notification finds it and gets the same answer."""
    return {"PK": f"C#{company_id}#GWCALLBACK", "SK": f"{provider}#{transaction_id}"}


def gateway_decisions_partition(company_id: int, gateway_id: int) -> str:
    return f"C#{company_id}#GWDECISION#{gateway_id}"


def gateway_decision_index(company_id: int, gateway_id: int, received_at: str, transaction_id: str) -> Dict[str, str]:
    """GSI1 attributes that list one gateway's decisions by the time their notification came."""
    return {"GSI1PK": gateway_decisions_partition(company_id, gateway_id), "GSI1SK": f"{received_at}#{transaction_id}"}


def gateway_decision_count(company_id: int, gateway_id: int) -> Key:
    """How many decisions a gateway has: kept in their transactions (list totals). Sorts apart
    from the decisions, whose sort keys start with the provider."""
    return {"PK": f"C#{company_id}#GWCALLBACK", "SK": f"#COUNT#{gateway_id}"}


# --- accounting ---------------------------------------------------------------------------------
# An account's partition holds, in sort-key order, the account item ("ACCT"), its monthly
# balances ("BAL#{month}") and its postings ("P#{date}#{entryId}#{line}"): the ledger of one
# account is read without touching any other account's items.

def chart_index(company_id: int, code: str) -> Dict[str, str]:
    """GSI1 attributes that list a company's chart of accounts in code order."""
    return {"GSI1PK": collection_partition(company_id, CHART_ACCOUNT), "GSI1SK": code}


def account_partition(company_id: int, account_id: int) -> str:
    return entity(company_id, CHART_ACCOUNT, account_id)["PK"]


ACCOUNT_BALANCE_PREFIX = "BAL#"
POSTING_PREFIX = "P#"


def account_month_balance(company_id: int, account_id: int, month: str) -> Key:
    return {"PK": account_partition(company_id, account_id), "SK": f"{ACCOUNT_BALANCE_PREFIX}{month}"}


def balance_index(company_id: int, account_id: int, month: str) -> Dict[str, str]:
    """GSI1 attributes that list every account's monthly balances by month (trial balance)."""
    return {"GSI1PK": f"C#{company_id}#BAL", "GSI1SK": f"{month}#{sortable_id(account_id)}"}


def balances_partition(company_id: int) -> str:
    return f"C#{company_id}#BAL"


def posting_sort_key(date: str, entry_id: int, line: int) -> str:
    return f"{POSTING_PREFIX}{date}#{sortable_id(entry_id)}#{line:03d}"


def posting(company_id: int, account_id: int, date: str, entry_id: int, line: int) -> Key:
    return {"PK": account_partition(company_id, account_id), "SK": posting_sort_key(date, entry_id, line)}


def entry_index(company_id: int, date: str, entry_id: int) -> Dict[str, str]:
    """GSI1 attributes that list journal entries by date."""
    return {"GSI1PK": collection_partition(company_id, JOURNAL_ENTRY),
            "GSI1SK": f"{date}#{sortable_id(entry_id)}"}


def entry_day_count(company_id: int, date: str) -> Key:
    """How many journal entries of each status and type carry this date: list totals for any
    date range and filter come from one Query over these."""
    return {"PK": f"C#{company_id}#JEDAY", "SK": date}


def period_index(company_id: int, start_date: str, period_id: int) -> Dict[str, str]:
    return {"GSI1PK": collection_partition(company_id, ACCOUNTING_PERIOD),
            "GSI1SK": f"{start_date}#{sortable_id(period_id)}"}


def period_lock(company_id: int, year: str) -> Key:
    """The closed days ("MM-DD") of one year: every write dated that year checks it in its
    transaction, so no posting slips into a period while it is being closed."""
    return {"PK": f"C#{company_id}#PLOCK", "SK": year}


def guard(company_id: int, name: str) -> Key:
    """A version item that serializes changes whose invariant spans several items (period
    overlaps, the shape of the account tree)."""
    return {"PK": company_prefix(company_id), "SK": f"GUARD#{name}"}


def determination_rule(company_id: int, operation: str, document_type: str | None) -> Key:
    return {"PK": f"C#{company_id}#{DETERMINATION_RULE}", "SK": f"{operation}#{document_type or '*'}"}


def determination_rules_partition(company_id: int) -> str:
    return f"C#{company_id}#{DETERMINATION_RULE}"


# --- documents, fiscal numbering and inventory ---------------------------------------------------

DOCUMENT = "DOC"
BRANCH = "BRANCH"
CAI_RANGE = "CAI"
WAREHOUSE = "WH"


def document_index(company_id: int, date: str, document_id: int) -> Dict[str, str]:
    """GSI1 lists a company's documents by date; GSI2 lists one partner's."""
    return {"GSI1PK": collection_partition(company_id, DOCUMENT),
            "GSI1SK": f"{date}#{sortable_id(document_id)}"}


def partner_documents_partition(company_id: int, partner_id: int) -> str:
    return f"C#{company_id}#BPDOC#{partner_id}"


def partner_document_index(company_id: int, partner_id: int, date: str, document_id: int) -> Dict[str, str]:
    return {"GSI2PK": partner_documents_partition(company_id, partner_id),
            "GSI2SK": f"{date}#{sortable_id(document_id)}"}


# The sort key of the count of every day: it sorts after every date.
ALL_DAYS = "ALL"


def document_day_count(company_id: int, date: str, partner_id: int | None = None) -> Key:
    """How many documents of each status and type carry this date (or, with ALL_DAYS, any
    date), for the company or for one partner: list totals come from these."""
    scope = "" if partner_id is None else f"#BP{partner_id}"
    return {"PK": f"C#{company_id}#DOCDAY{scope}", "SK": date}


def small_collection(company_id: int, kind: str) -> str:
    """Branches, CAI ranges and warehouses: a few records per company, kept in one partition
    read whole (strongly consistent) and ordered by id."""
    return f"C#{company_id}#{kind}S"


def small_record(company_id: int, kind: str, record_id: int) -> Key:
    return {"PK": small_collection(company_id, kind), "SK": sortable_id(record_id)}


def document_sequence(company_id: int, document_type: str) -> Key:
    """Gap-free numbers of a document type without a CAI range: advanced in the document's
    own transaction."""
    return {"PK": company_prefix(company_id), "SK": f"DOCSEQ#{document_type}"}


def stock(company_id: int, product_id: int, warehouse_id: int) -> Key:
    return {"PK": f"C#{company_id}#STOCK", "SK": f"{sortable_id(product_id)}#{sortable_id(warehouse_id)}"}


def stock_partition(company_id: int) -> str:
    return f"C#{company_id}#STOCK"


def stock_by_warehouse_index(company_id: int, warehouse_id: int, product_id: int) -> Dict[str, str]:
    return {"GSI1PK": f"C#{company_id}#STOCKWH#{warehouse_id}", "GSI1SK": sortable_id(product_id)}


def stock_movement(company_id: int, product_id: int, date: str, document_id: int, version: int,
                   line: int) -> Key:
    """A product's movements sort by date in its own partition (its kardex); GSI1 lists every
    product's movements by date."""
    return {"PK": f"C#{company_id}#STKMV#{product_id}",
            "SK": f"{date}#{sortable_id(document_id)}#{version:05d}#{line:03d}"}


def product_movements_partition(company_id: int, product_id: int) -> str:
    return f"C#{company_id}#STKMV#{product_id}"


def movement_index(company_id: int, sort_key: str, product_id: int) -> Dict[str, str]:
    return {"GSI1PK": f"C#{company_id}#STKMV", "GSI1SK": f"{sort_key}#{sortable_id(product_id)}"}


# The side of an open document: owed to us (receivable, sales) or by us (payable, purchases).
RECEIVABLE_SIDE, PAYABLE_SIDE = "R", "P"


def open_documents_partition(company_id: int, partner_id: int, side: str) -> str:
    return f"C#{company_id}#BPOPEN#{partner_id}#{side}"


def open_document(company_id: int, partner_id: int, side: str, due_date: str, document_id: int) -> Key:
    """A partner's open document (one that still owes) by due date, per side: the oldest is the
    first item of the partition, and the open ones are read without touching paid history."""
    return {"PK": open_documents_partition(company_id, partner_id, side),
            "SK": f"{due_date}#{sortable_id(document_id)}"}


# A partner's balance per side as a ledger of its own: monthly totals (with per-day figures)
# sort before its movements, so a statement reads the months and one page of movements.
PARTNER_BALANCE_PREFIX, PARTNER_MOVEMENT_PREFIX = "BAL#", "M#"


def partner_ledger_partition(company_id: int, partner_id: int, side: str) -> str:
    return f"C#{company_id}#BPLEDGER#{partner_id}#{side}"


def partner_month_balance(company_id: int, partner_id: int, side: str, month: str) -> Key:
    return {"PK": partner_ledger_partition(company_id, partner_id, side), "SK": f"{PARTNER_BALANCE_PREFIX}{month}"}


def partner_movement(company_id: int, partner_id: int, side: str, date: str, origin: str, origin_id: int,
                     version: int) -> Key:
    """One change of the balance: a document (origin "D") or payment ("P") at one of its
    versions, so confirming again after an unconfirm is a movement of its own."""
    return {"PK": partner_ledger_partition(company_id, partner_id, side),
            "SK": f"{PARTNER_MOVEMENT_PREFIX}{date}#{origin}{sortable_id(origin_id)}#{version:05d}"}


WEBHOOK = "WEBHOOK"  # subscriptions: small records, the fan-out reads the company's whole set


def webhook_deliveries_partition(company_id: int, webhook_id: int) -> str:
    return f"C#{company_id}#WHDLV#{webhook_id}"


def webhook_delivery(company_id: int, webhook_id: int, delivery_id: str) -> Key:
    """A delivery of one event to one subscription, with its attempts; delivery ids sort by the
    event's time, so the partition read backwards lists the newest first."""
    return {"PK": webhook_deliveries_partition(company_id, webhook_id), "SK": delivery_id}


# --- scheduled invoices --------------------------------------------------------------------------

SCHEDULED_INVOICE = "SCHED"  # scheduled invoices: small records (C#{c}#SCHEDS / id)

# Scheduled invoices waiting for a run, of every company, by next run date: the hourly run reads
# these partitions up to today instead of scanning the table. Not scoped to a company, on
# purpose (only the scheduler reads it, like the DTE retry below); spread over shards so that no
# single index partition takes every schedule's writes. Only active, unfinished schedules carry
# the attributes (a sparse index).
SCHEDULE_DUE_SHARDS = 8


def schedule_due_partitions() -> list[str]:
    return [f"SCHEDULE_DUE#{shard}" for shard in range(SCHEDULE_DUE_SHARDS)]


def schedule_due_index(company_id: int, schedule_id: int, next_run_date: str) -> Dict[str, str]:
    shard = (company_id + schedule_id) % SCHEDULE_DUE_SHARDS
    return {"GSI2PK": f"SCHEDULE_DUE#{shard}",
            "GSI2SK": f"{next_run_date}#{sortable_id(company_id)}#{sortable_id(schedule_id)}"}


# --- El Salvador electronic tax documents (DTE) ---------------------------------------------------

def dte_transmission(company_id: int, document_id: int) -> Key:
    """A DTE's transmission to the tax authority, in its document's partition."""
    return {"PK": entity(company_id, DOCUMENT, document_id)["PK"], "SK": "DTE"}


def dte_control_sequence(company_id: int, tipo_dte: str) -> Key:
    """The DTE control numbers of one DTE type: advanced in the confirming transaction."""
    return {"PK": company_prefix(company_id), "SK": f"DTESEQ#{tipo_dte}"}


# Transmissions still pending, of every company, oldest first: the hourly retry reads these
# partitions instead of scanning. Not scoped to a company on purpose (only the retry reads it),
# spread over shards like the schedules above; only pending transmissions carry the attributes.
DTE_PENDING_SHARDS = 8


def dte_pending_partitions() -> list[str]:
    return [f"DTE_PENDING#{shard}" for shard in range(DTE_PENDING_SHARDS)]


def dte_pending_index(company_id: int, document_id: int, since: str) -> Dict[str, str]:
    shard = (company_id + document_id) % DTE_PENDING_SHARDS
    return {"GSI1PK": f"DTE_PENDING#{shard}",
            "GSI1SK": f"{since}#{sortable_id(company_id)}#{sortable_id(document_id)}"}


# --- document sendings (a document e-mailed) -------------------------------------------------------

DOCUMENT_SENDING_PREFIX = "SEND#"


def document_sending(company_id: int, document_id: int, sent_at: str, message_id: str) -> Key:
    """One sending of a document, in the document's own partition (beside its payments)."""
    return {"PK": entity(company_id, DOCUMENT, document_id)["PK"],
            "SK": f"{DOCUMENT_SENDING_PREFIX}{sent_at}#{message_id}"}


def document_sendings_partition(company_id: int, document_id: int) -> str:
    return f"C#{company_id}#DOCSEND#{document_id}"


def document_sending_index(company_id: int, document_id: int, sent_at: str, message_id: str) -> Dict[str, str]:
    """GSI1 attributes that list a document's sendings by time."""
    return {"GSI1PK": document_sendings_partition(company_id, document_id), "GSI1SK": f"{sent_at}#{message_id}"}


def document_sending_count(company_id: int, document_id: int) -> Key:
    """How many times a document was sent: kept in the sendings' transactions (list totals)."""
    return {"PK": entity(company_id, DOCUMENT, document_id)["PK"], "SK": "SENDCOUNT"}
