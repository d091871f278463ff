"""What the hourly job reads across companies: scheduled invoices and pending DTE transmissions."""
from __future__ import annotations

from typing import Dict

from chalicelib.store.keys.base import DOCUMENT, Key, company_prefix, entity, sortable_id

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


def dte_transmission(company_id: int, document_id: int) -> Key:
    """A DTE's transmission to the tax authority, in its document's partition."""
    return {"PK": entity(company_id, DOCUMENT, document_id)["PK"], "SK": "DTE"}


def dte_control_sequence(company_id: int, tipo_dte: str, point: str | None = None) -> Key:
    """The DTE control numbers of one DTE type at one establishment and point of sale (EEEEPPPP):
    advanced in the confirming transaction. Without a point: the company-wide sequence kept before
    sequences were per point, after which every point starts."""
    return {"PK": company_prefix(company_id), "SK": f"DTESEQ#{tipo_dte}" + (f"#{point}" if point else "")}


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


def dte_lot(company_id: int, id_envio: str) -> Key:
    """A lot of DTEs sent together after a contingency (`recepcionlote`), by the id we gave it."""
    return {"PK": company_prefix(company_id), "SK": f"DTELOT#{id_envio}"}


# Lots not yet answered for every document, of every company: the hourly run sends and polls them
# from here (sparse: a lot leaves when its documents are all answered), sharded like the above.
DTE_LOT_SHARDS = 8


def dte_open_lot_partitions() -> list[str]:
    return [f"DTE_LOT_OPEN#{shard}" for shard in range(DTE_LOT_SHARDS)]


def dte_open_lot_index(company_id: int, id_envio: str, since: str) -> Dict[str, str]:
    return {"GSI1PK": f"DTE_LOT_OPEN#{company_id % DTE_LOT_SHARDS}",
            "GSI1SK": f"{since}#{sortable_id(company_id)}#{id_envio}"}


# issue 40: returns
def dte_returns(company_id: int, document_id: int) -> Key:
    """What the return events (DTE 18) of a DTE have returned so far, per line, in its document's
    partition: read and written in each return's confirming transaction."""
    return {"PK": entity(company_id, DOCUMENT, document_id)["PK"], "SK": "DTERET"}
