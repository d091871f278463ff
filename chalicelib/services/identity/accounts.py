"""Users, companies and memberships: the web app's sign-up side and the admin CLI share these."""
from __future__ import annotations

from typing import Any

from chalicelib import clock, countries
from chalicelib.auth.secrets import hash_password
from chalicelib.domain.currency import DEFAULT_TOLERANCE_PERCENT
from chalicelib.domain.members import ACTIVE, LastOwner, owner_delta
from chalicelib.domain.roles import OWNER, ROLES
from chalicelib.errors import Conflict, NotFound, ValidationFailed
from chalicelib.messages.phrases import Phrase
from chalicelib.services.commands import Command
from chalicelib.services.records import update_item
from chalicelib.store import keys
from chalicelib.store.repositories import ledger
from chalicelib.store.repositories import users as stored_users
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

DEFAULT_BRANCH = {"name": "Casa matriz", "code": "001"}
DEFAULT_WAREHOUSE = {"name": "Principal", "isActive": True}


def find_user_by_email(table: Table, email: str) -> dict[str, Any] | None:
    pointer = table.get(keys.user_email(email))
    return table.get(keys.user(pointer["userId"])) if pointer else None


MIN_PASSWORD_LENGTH = 8


def check_password_rules(password: str, field: str = "password") -> None:
    if not MIN_PASSWORD_LENGTH <= len(password) <= 200:
        raise ValidationFailed.for_field(field, Phrase("{} to 200 characters", MIN_PASSWORD_LENGTH))


def create_user(table: Table, email: str, password: str, name: str | None = None) -> dict[str, Any]:
    check_password_rules(password)
    user_id = table.next_id(keys.global_sequence("USER"))
    now = clock.now_iso()
    user = {**keys.user(user_id), "itemType": "USER", "id": user_id, "email": email.strip().lower(),
            "name": name or email.split("@")[0], "passwordHash": hash_password(password),
            "isActive": True, "createdAt": now, "updatedAt": now}
    taken = Conflict("A user with this e-mail already exists.", code="EMAIL_TAKEN",
                     details=[{"field": "email", "message": "already registered"}])
    Transaction(table).put_new(user).put_new(
        {**keys.user_email(email), "userId": user_id}, on_fail=taken).commit()
    return user


def membership_items(company_id: int, user_id: int, role: str, **fields: Any) -> list[dict[str, Any]]:
    """The membership (active unless `fields` say otherwise) and the user's link to the company."""
    now = clock.now_iso()
    return [{**keys.membership(company_id, user_id), **keys.membership_index(company_id, user_id),
             "itemType": "MEMBER", "companyId": company_id, "userId": user_id, "role": role,
             "isActive": True, "status": ACTIVE, "version": 1, "createdAt": now, "updatedAt": now,
             **fields},
            {**keys.user_company_link(user_id, company_id), "itemType": "USER_COMPANY",
             "companyId": company_id}]


def already_member() -> Conflict:
    return Conflict("This user is already a member of the company.", code="USER_ALREADY_MEMBER",
                    details=[{"field": "email", "message": "already a member of this company"}])


def count_owners(transaction: Transaction, company_id: int, delta: int) -> None:
    """Keeps the company's `activeOwnerCount` in the membership change's own transaction; the
    condition on a decrement is what makes the last active owner impossible to lose."""
    if delta > 0:
        stored_users.gain_active_owner(transaction, company_id, NotFound("Company not found."))
    elif delta < 0:
        stored_users.lose_active_owner(transaction, company_id, LastOwner())


def create_company(table: Table, owner_user_id: int, fields: dict[str, Any]) -> dict[str, Any]:
    """A new company with its creator as owner, in one transaction."""
    company, transaction = plan_company(table, owner_user_id, fields)
    transaction.commit()
    return company


def plan_company(table: Table, owner_user_id: int,
                 fields: dict[str, Any]) -> tuple[dict[str, Any], Transaction]:
    """The new company's items, in a transaction the caller commits."""
    company_id = table.next_id(keys.global_sequence("COMPANY"))
    now = clock.now_iso()
    country = fields.get("country") or countries.DEFAULT
    fields = countries.pack(country).hooks.settled_company_changes(None, fields)
    company = {"country": country, "currency": countries.pack(country).currency, "creditLimitPolicy": "off",
               "allowNegativeStock": False, "exchangeRateTolerancePercent": DEFAULT_TOLERANCE_PERCENT,
               **{name: value for name, value in fields.items() if value is not None},
               **keys.company(company_id), "itemType": "COMPANY", "id": company_id,
               "ownerUserId": owner_user_id, "activeOwnerCount": 1, "version": 1, "createdAt": now,
               "updatedAt": now}
    transaction = Transaction(table)
    _add_default_branch_and_warehouse(transaction, company)
    transaction.put_new(company)
    transaction.require(keys.user(owner_user_id), NotFound("User not found."))
    for item in membership_items(company_id, owner_user_id, OWNER):
        transaction.put_new(item)
    return company, transaction


def _add_default_branch_and_warehouse(transaction: Transaction, company: dict[str, Any]) -> None:
    """Every company starts with branch 1 (establishment 001) and warehouse 1 in it, as
    documents need an establishment for their numbers and a warehouse for their stock."""
    company_id, now = company["id"], company["createdAt"]
    for kind, fields in ((keys.BRANCH, {**DEFAULT_BRANCH, "isActive": True}),
                         (keys.WAREHOUSE, {**DEFAULT_WAREHOUSE, "branchId": 1})):
        transaction.put_new({**keys.small_record(company_id, kind, 1), "itemType": kind, "id": 1, **fields,
                             "version": 1, "createdAt": now, "updatedAt": now})
        transaction.put_new({**keys.id_sequence(company_id, kind), "value": 1})
    transaction.put_new({**keys.unique_value(company_id, "BRANCH_CODE", DEFAULT_BRANCH["code"]), "branchId": 1})
    company.update({"defaultBranchId": 1, "defaultWarehouseId": 1})


def default_branch_and_warehouse_keys(company_id: int) -> list[keys.Key]:
    """The keys of what `_add_default_branch_and_warehouse` writes: a restored archive replaces them."""
    return [*(key for kind in (keys.BRANCH, keys.WAREHOUSE)
              for key in (keys.small_record(company_id, kind, 1), keys.id_sequence(company_id, kind))),
            keys.unique_value(company_id, "BRANCH_CODE", DEFAULT_BRANCH["code"])]


def create_company_for(command: Command, fields: dict[str, Any]) -> dict[str, Any]:
    """POST /companies: the caller becomes the owner; Idempotency-Key applies."""
    company, transaction = plan_company(command.table, command.principal.user_id, fields)
    return command.commit(transaction, company)


def add_member(table: Table, company_id: int, user_id: int, role: str) -> None:
    if role not in ROLES:
        raise ValidationFailed.for_field("role", Phrase("one of {}", ', '.join(ROLES)))
    transaction = Transaction(table)
    transaction.require(keys.user(user_id), NotFound("User not found."))
    member, link = membership_items(company_id, user_id, role)
    transaction.put_new(member, on_fail=already_member())
    transaction.put(link)
    if role == OWNER:
        count_owners(transaction, company_id, owner_delta(None, member))
    else:
        transaction.require(keys.company(company_id), NotFound("Company not found."))
    transaction.commit()


def company_country(table: Table, company_id: int) -> str:
    return countries.pack_of(table.get(keys.company(company_id))).code


def get_company(table: Table, company_id: int) -> dict[str, Any]:
    company = table.get(keys.company(company_id))
    if company is None:
        raise NotFound("Company not found.")
    return company


def update_company(command: Command, company_id: int, changes: dict[str, Any],
                   expected_version: int | None) -> dict[str, Any]:
    if company_id != command.company_id:
        raise NotFound("Company not found.")
    current = get_company(command.table, company_id)
    changes = countries.pack(changes.get("country") or current.get("country")).hooks.settled_company_changes(
        current, changes)
    fixed = [name for name in FIXED_ONCE_POSTED if name in changes and changes[name] != current.get(name)]
    if fixed and has_posted(command.table, company_id):
        raise Conflict(Phrase("{}: {}", fixed[0], FIXED_DETAIL), code="COMPANY_HAS_POSTINGS",
                       details=[{"field": name, "message": FIXED_DETAIL} for name in fixed])
    return update_item(command, keys.company(company_id), current, changes, expected_version)


# The figures of the books and the stock are in the company's currency, and its country says what
# taxes they carry: once anything is posted, changing either would add lempiras to dollars.
FIXED_ONCE_POSTED = ("currency", "country")
FIXED_DETAIL = "cannot change once the company has posted to its books or moved stock"


def has_posted(table: Table, company_id: int) -> bool:
    """Whether the company has posted anything: every posting (an entry of a document, payment,
    bank transaction, opening balance, adjustment) adds to a monthly balance item of the books'
    one partition, and every stock movement writes its product's position in the positions' one
    partition; neither is ever deleted (a reversal adds the opposite figures). Two strongly
    consistent Queries of one item each, only when a request changes the currency or country: no
    posting writes anything more for it (a flag on the company would be one hot item).
    Accepted rather than a check in every posting: a change committed while the company's very
    first posting command is running (it reads the company, currency and country, at its start and
    commits its entry at its end) passes both reads, and that first posting then stands in the
    old currency or country. The window is that whole command, its retries included, and only
    while nothing has posted yet."""
    return ledger.anything_posted(table, company_id)


def user_companies(table: Table, user_id: int) -> list[dict[str, Any]]:
    """Every company a user belongs to (active membership), with name and role, by name: one
    Query of the user's links and BatchGets of 50 companies with their memberships. An accounting
    firm keeping 500 clients' books reads 10 of them, a few hundred milliseconds."""
    links = stored_users.company_links(table, user_id)
    memberships: list[dict[str, Any]] = []
    company_ids = [link["companyId"] for link in links]
    found = table.batch_get([key for cid in company_ids for key in (keys.company(cid), keys.membership(cid, user_id))])
    for cid in company_ids:
        membership = _membership(found, cid, user_id)
        if membership is not None:
            memberships.append(membership)
    return sorted(memberships, key=lambda membership: (membership["name"].casefold(), membership["companyId"]))


def user_company(table: Table, user_id: int, company_id: int) -> dict[str, Any] | None:
    """One of the user's companies (name and role), or None when the user is not an active member."""
    return _membership(table.batch_get([keys.company(company_id), keys.membership(company_id, user_id)]),
                       company_id, user_id)


def _membership(found: dict[tuple[str, str], dict[str, Any]], company_id: int, user_id: int) -> dict[str, Any] | None:
    company = found.get(keys.pair(keys.company(company_id)))
    member = found.get(keys.pair(keys.membership(company_id, user_id)))
    if company and member and member.get("isActive"):
        return {"companyId": company_id, "name": company["name"], "role": member["role"]}
    return None


def today_of(table: Table, company_id: int) -> str:
    """The company's today (where it is, not UTC: a report asked for at 7 p.m. in Tegucigalpa is
    of that day), without reading the company while every country's today is the same date
    (Honduras and El Salvador share their clock): the company is read only when they differ."""
    todays = {clock.today_in(code) for code in countries.CODES}
    if len(todays) == 1:
        return todays.pop()
    return clock.company_today(table.get(keys.company(company_id)) or {})
