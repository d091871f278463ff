"""Cost centres (issue 44): up to 5 dimensions per company (branch, project, department...),
each with its values. A document line or a journal line may carry one value per dimension; the
value ids travel to the line's postings (`dimensionValueIds`), which the reports filter and group
by. Value ids are unique across the company's dimensions (one sequence)."""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from chalicelib import clock
from chalicelib.errors import Conflict, NotFound, ValidationFailed
from chalicelib.messages.phrases import Phrase
from chalicelib.services import records
from chalicelib.services.commands import Command
from chalicelib.store import keys
from chalicelib.store.repositories import dimensions as dimension_store
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction


def dimension_items(table: Table, company_id: int) -> list[dict[str, Any]]:
    """Every dimension and value item of the company, dimensions each followed by their values:
    one strongly consistent Query of a small partition."""
    return dimension_store.items(table, company_id)


def values_by_id(items: Iterable[Mapping[str, Any]]) -> dict[int, Mapping[str, Any]]:
    return {int(item["id"]): item for item in items if item.get("itemType") == keys.DIMENSION_VALUE}


def dimensions_by_id(items: Iterable[Mapping[str, Any]]) -> dict[int, Mapping[str, Any]]:
    return {int(item["id"]): item for item in items if item.get("itemType") == keys.DIMENSION}


def checked_line_dimensions(items: list[dict[str, Any]], requested: Iterable[Mapping[str, Any]] | None,
                            field: str, kept: frozenset[tuple[int, int]] = frozenset()) -> list[dict[str, int]]:
    """A line's `dimensions` ([{dimensionId, valueId}]) checked against the company's `items`
    (dimension_items, read once per command): each dimension exists and is active, each value is one
    of its dimension's and active, at most one value per dimension. Answered in dimension order.
    `kept`: the pairs the stored record already carried (carried_pairs): one made inactive since
    stays acceptable on it (a draft or budget saved again), never newly chosen."""
    if not requested:
        return []
    dimensions, values = dimensions_by_id(items), values_by_id(items)
    chosen: dict[int, int] = {}
    for position, pair in enumerate(requested):
        where = f"{field}[{position}]"
        dimension_id, value_id = int(pair["dimensionId"]), int(pair["valueId"])
        carried = (dimension_id, value_id) in kept
        dimension = dimensions.get(dimension_id)
        if dimension is None or not (dimension.get("isActive", True) or carried):
            raise ValidationFailed.for_field(f"{where}.dimensionId", "no such active dimension")
        value = values.get(value_id)
        if value is None or int(value["dimensionId"]) != dimension_id or not (value.get("isActive", True) or carried):
            raise ValidationFailed.for_field(f"{where}.valueId", "not an active value of this dimension")
        if dimension_id in chosen:
            raise ValidationFailed.for_field(f"{where}.dimensionId", "one value per dimension on a line")
        chosen[dimension_id] = value_id
    return [{"dimensionId": dimension_id, "valueId": chosen[dimension_id]} for dimension_id in sorted(chosen)]


def carried_pairs(lines: Iterable[Mapping[str, Any]] | None) -> frozenset[tuple[int, int]]:
    """The (dimension, value) pairs a stored record's lines carry, for checked_line_dimensions' `kept`."""
    return frozenset((int(pair["dimensionId"]), int(pair["valueId"]))
                     for line in lines or () for pair in line.get("dimensions") or ())


def value_ids(line_dimensions: Iterable[Mapping[str, Any]] | None) -> list[int]:
    """What a posting carries of its line's dimensions: the value ids, in dimension order."""
    return [int(pair["valueId"]) for pair in sorted(line_dimensions or (), key=lambda pair: int(pair["dimensionId"]))]


# --- managing dimensions and their values (GET/POST/PUT /dimensions) ------------------------------
# No DELETE: postings keep the value ids they carry, so a dimension or value is made inactive.
# Names are unique per company (values: names and codes per dimension), blind to case, each held
# by a unique-value item; the count of dimensions is an item of the partition whose condition
# keeps it at MAX_DIMENSIONS whatever the concurrent creators.

def _not_found() -> NotFound:
    return NotFound("Dimension not found.")


def _value_not_found() -> NotFound:
    return NotFound("Dimension value not found.")


def _folded(text: str) -> str:
    return " ".join(str(text).split()).casefold()


def _name_key(company_id: int, name: str) -> keys.Key:
    return keys.dimension_name(company_id, _folded(name))


def _value_name_key(company_id: int, dimension_id: int, name: str) -> keys.Key:
    return keys.dimension_value_name(company_id, dimension_id, _folded(name))


def _value_code_key(company_id: int, dimension_id: int, code: str) -> keys.Key:
    return keys.dimension_value_code(company_id, dimension_id, _folded(code))


def _name_taken(name: str) -> Conflict:
    return Conflict(Phrase("Another dimension is already named {}.", repr(name)), code="DIMENSION_NAME_TAKEN",
                    details=[{"field": "name", "message": "already used by another dimension"}])


def _value_taken(field: str, text: str, where: str | None = None) -> Conflict:
    details = [{"field": where or field, "message": "already used by another value of the dimension"}]
    if field == "name":
        return Conflict(Phrase("Another value of the dimension is already named {}.",
                               repr(text)), code="DIMENSION_VALUE_TAKEN",
                        details=details)
    return Conflict(Phrase("Another value of the dimension already has the code {}.",
                           repr(text)), code="DIMENSION_VALUE_TAKEN",
                    details=details)


def _limit_reached() -> Conflict:
    return Conflict(Phrase("A company has at most {} dimensions: make one inactive and reuse it.", keys.MAX_DIMENSIONS),
                    code="DIMENSION_LIMIT_REACHED",
                    details=[{"field": "name", "message": Phrase("at most {} dimensions per company",
                                                                 keys.MAX_DIMENSIONS)}])


def value_view(item: Mapping[str, Any]) -> dict[str, Any]:
    return {"id": int(item["id"]), "dimensionId": int(item["dimensionId"]), "code": item.get("code"),
            "name": item["name"], "isActive": item.get("isActive", True), "version": item["version"],
            "createdAt": item["createdAt"], "updatedAt": item["updatedAt"]}


def dimension_view(dimension: Mapping[str, Any], values: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    return {"id": int(dimension["id"]), "name": dimension["name"], "isActive": dimension.get("isActive", True),
            "values": [value_view(value) for value in values if int(value["dimensionId"]) == int(dimension["id"])],
            "version": dimension["version"], "createdAt": dimension["createdAt"], "updatedAt": dimension["updatedAt"]}


def list_dimensions(table: Table, company_id: int) -> list[dict[str, Any]]:
    """Every dimension of the company with its values (active or not), in creation order."""
    items = dimension_items(table, company_id)
    values = list(values_by_id(items).values())
    return [dimension_view(dimension, values) for _, dimension in sorted(dimensions_by_id(items).items())]


def get_dimension(table: Table, company_id: int, dimension_id: int) -> dict[str, Any]:
    items = dimension_items(table, company_id)
    dimension = dimensions_by_id(items).get(int(dimension_id))
    if dimension is None:
        raise _not_found()
    return dimension_view(dimension, values_by_id(items).values())


def _new_value(command: Command, dimension_id: int, fields: Mapping[str, Any], now: str) -> dict[str, Any]:
    value_id = command.table.next_id(keys.id_sequence(command.company_id, keys.DIMENSION_VALUE))
    return {**keys.dimension_value(command.company_id, dimension_id, value_id), "itemType": keys.DIMENSION_VALUE,
            "id": value_id, "dimensionId": dimension_id, "name": fields["name"],
            **({"code": fields["code"]} if fields.get("code") is not None else {}),
            "isActive": fields.get("isActive", True), "version": 1, "createdAt": now, "updatedAt": now}


def _reserve_value(transaction: Transaction, company_id: int, value: Mapping[str, Any], where: str = "") -> None:
    dimension_id = int(value["dimensionId"])
    transaction.put_new({**_value_name_key(company_id, dimension_id, value["name"]), "valueId": value["id"]},
                        on_fail=_value_taken("name", value["name"], f"{where}name"))
    if value.get("code") is not None:
        transaction.put_new({**_value_code_key(company_id, dimension_id, value["code"]), "valueId": value["id"]},
                            on_fail=_value_taken("code", value["code"], f"{where}code"))


def _check_distinct(values: list[Mapping[str, Any]]) -> None:
    """The values sent together differ in name and code (the guards would only say "taken")."""
    for field in ("name", "code"):
        seen: set[str] = set()
        for position, value in enumerate(values):
            if value.get(field) is None:
                continue
            if _folded(value[field]) in seen:
                raise ValidationFailed.for_field(f"values[{position}].{field}", "the same as another value sent")
            seen.add(_folded(value[field]))


def create_dimension(command: Command, fields: dict[str, Any]) -> dict[str, Any]:
    """A dimension (and the values sent with it) in one transaction."""
    table, company_id = command.table, command.company_id
    if len(dimensions_by_id(dimension_items(table, company_id))) >= keys.MAX_DIMENSIONS:
        raise _limit_reached()
    requested = list(fields.get("values") or [])
    _check_distinct(requested)
    dimension_id = table.next_id(keys.id_sequence(company_id, keys.DIMENSION))
    now = clock.now_iso()
    dimension = {**keys.dimension(company_id, dimension_id), "itemType": keys.DIMENSION, "id": dimension_id,
                 "name": fields["name"], "isActive": fields.get("isActive", True), "version": 1,
                 "createdAt": now, "updatedAt": now}
    transaction = command.transaction()
    transaction.put_new(dimension)
    dimension_store.count_new(transaction, company_id, _limit_reached())
    transaction.put_new({**_name_key(company_id, fields["name"]), "dimensionId": dimension_id},
                        on_fail=_name_taken(fields["name"]))
    values = [_new_value(command, dimension_id, value, now) for value in requested]
    for position, value in enumerate(values):
        transaction.put_new(value)
        _reserve_value(transaction, company_id, value, f"values[{position}].")
    return command.commit(transaction, dimension_view(dimension, values))


def update_dimension(command: Command, dimension_id: int, changes: dict[str, Any],
                     expected_version: int | None) -> dict[str, Any]:
    """Sparse: `name`, `isActive` (no DELETE: inactive, its values stay on the postings)."""
    table, company_id = command.table, command.company_id
    items = dimension_items(table, company_id)
    current = dimensions_by_id(items).get(int(dimension_id))
    if current is None:
        raise _not_found()
    for required in ("name", "isActive"):
        if required in changes and changes[required] is None:
            raise ValidationFailed.for_field(required, "required")
    renamed = "name" in changes and _folded(changes["name"]) != _folded(current["name"])

    def add_effects(transaction: Transaction, _: dict[str, Any]) -> None:
        if renamed:
            transaction.put_new({**_name_key(company_id, changes["name"]), "dimensionId": int(dimension_id)},
                                on_fail=_name_taken(changes["name"]))
            transaction.delete(_name_key(company_id, current["name"]))

    updated = records.update_item(command, keys.dimension(company_id, int(dimension_id)), dict(current), changes,
                                  expected_version, add_effects)
    return dimension_view(updated, values_by_id(items).values())


def add_value(command: Command, dimension_id: int, fields: dict[str, Any]) -> dict[str, Any]:
    table, company_id = command.table, command.company_id
    if table.get(keys.dimension(company_id, int(dimension_id))) is None:
        raise _not_found()
    value = _new_value(command, int(dimension_id), fields, clock.now_iso())
    transaction = command.transaction()
    transaction.require(keys.dimension(company_id, int(dimension_id)), _not_found())
    transaction.put_new(value)
    _reserve_value(transaction, company_id, value)
    return command.commit(transaction, value_view(value))


def update_value(command: Command, dimension_id: int, value_id: int, changes: dict[str, Any],
                 expected_version: int | None) -> dict[str, Any]:
    """Sparse: `name`, `code` (null removes it), `isActive`."""
    table, company_id = command.table, command.company_id
    key = keys.dimension_value(company_id, int(dimension_id), int(value_id))
    current = table.get(key)
    if current is None:
        raise _value_not_found()
    for required in ("name", "isActive"):
        if required in changes and changes[required] is None:
            raise ValidationFailed.for_field(required, "required")
    renamed = "name" in changes and _folded(changes["name"]) != _folded(current["name"])
    old_code, new_code = current.get("code"), changes.get("code", current.get("code"))
    recoded = (None if old_code is None else _folded(old_code)) != (None if new_code is None else _folded(new_code))

    def add_effects(transaction: Transaction, _: dict[str, Any]) -> None:
        if renamed:
            transaction.put_new({**_value_name_key(company_id, int(dimension_id), changes["name"]),
                                 "valueId": int(value_id)}, on_fail=_value_taken("name", changes["name"]))
            transaction.delete(_value_name_key(company_id, int(dimension_id), current["name"]))
        if recoded:
            if new_code is not None:
                transaction.put_new({**_value_code_key(company_id, int(dimension_id), new_code),
                                     "valueId": int(value_id)}, on_fail=_value_taken("code", new_code))
            if old_code is not None:
                transaction.delete(_value_code_key(company_id, int(dimension_id), old_code))

    return value_view(records.update_item(command, key, current, changes, expected_version, add_effects))
