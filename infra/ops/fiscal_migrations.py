"""The migrations about fiscal identity and numbering (the country packs' rules): SAR's series and
its CAI ranges, El Salvador's 2024 municipalities, documents numbered without a CAI, and partners'
tax ids and their reservations. Run by infra/ops/migrations.py (its docstring says why each exists)."""
from __future__ import annotations

from typing import Any

from chalicelib.countries.sv.domain import dte_catalogues
from chalicelib.observability import logger
from chalicelib.store import keys
from chalicelib.store.table import Table, to_attributes
from infra.ops.table_io import scan_types


def overlapping_ranges_of_one_sar_series(table: Table) -> int:
    """Deactivates each active CAI range of a Honduran company whose numbers still to come would
    print, under the SAR code its type now shares with another (113 with 01: both SAR's Factura), a
    number the other type's range printed already or is still to print: of an active range its whole
    span, of an inactive one what it issued. Only the borrowing type's range yields; the range of
    the type whose code SAR's is (01) always keeps numbering. Numbers issued before keep the code
    they printed, so they collide with nothing. Conditioned on the range's version: a concurrent
    change wins. Returns the ranges deactivated."""
    from chalicelib.domain.document_types import number_segment
    from chalicelib.services.sales_purchases.fiscal import same_series

    items = scan_types(table, {"COMPANY", keys.CAI_RANGE})
    countries = {int(item["id"]): item.get("country", "HN") for item in items if item["itemType"] == "COMPANY"}
    ranges = [item for item in items if item["itemType"] == keys.CAI_RANGE]

    def taken(other: dict[str, Any]) -> tuple[int, int]:
        last = int(other["rangeEnd"]) if other.get("isActive", True) else int(other["nextNumber"]) - 1
        return int(other["rangeStart"]), last

    deactivated = 0
    for item in ranges:
        country = countries.get(int(item["PK"].split("#")[1]), "HN")
        if not item.get("isActive", True) or number_segment(country, item["documentType"]) == item["documentType"]:
            continue
        first, last = int(item["nextNumber"]), int(item["rangeEnd"])
        clash = first <= last and any(
            other["PK"] == item["PK"] and other["documentType"] != item["documentType"]
            and same_series(country, other, item) and taken(other)[0] <= last and first <= taken(other)[1]
            for other in ranges)
        if not clash:
            continue
        try:
            table.client.update_item(
                TableName=table.name, Key=to_attributes({"PK": item["PK"], "SK": item["SK"]}),
                UpdateExpression="SET isActive = :no ADD version :one", ConditionExpression="version = :v",
                ExpressionAttributeValues=to_attributes({":no": False, ":one": 1, ":v": item["version"]}))
            deactivated += 1
        except table.client.exceptions.ConditionalCheckFailedException:
            pass
    return deactivated


def sv_addresses_to_2024_division(table: Table) -> int:
    """Moves partners' and companies' Salvadoran addresses to the 2024 division's municipios (and one
    whose district is in another municipio to that one: July 2026 swapped Cabañas' 10 and 11);
    conditioned on the municipality read (a concurrent edit wins). Returns the items moved."""
    moved = 0
    for item in scan_types(table, {keys.PARTNER, "COMPANY"}):
        inside = "dteIssuer" if item["itemType"] == "COMPANY" else None
        place = item.get(inside) if inside else item
        if inside is None and item["SK"] != keys.PARTNER:  # a partner's other items
            continue
        if not isinstance(place, dict) or not place.get("department") or not place.get("municipality"):
            continue
        department, code = str(place["department"]), str(place["municipality"])
        current, district = dte_catalogues.municipio(department, code), code
        if current == code:  # a 2024 municipio: its district's, if stored under an earlier reading of CAT-013
            district = str(place.get("district") or "")
            current = dte_catalogues.municipio(department, district) if district else None
            if current is None or current == code:
                continue
        elif current is None:
            logger.warning("address not in CAT-013: left as it is", extra={"PK": item["PK"], "SK": item["SK"]})
            continue
        prefix = f"#{inside}." if inside else ""
        names = {"#m": "municipality", "#d": "district", **({f"#{inside}": inside} if inside else {})}
        try:
            table.client.update_item(
                TableName=table.name, Key=to_attributes({"PK": item["PK"], "SK": item["SK"]}),
                UpdateExpression=f"SET {prefix}#m = :new, {prefix}#d = :district",
                ConditionExpression=f"{prefix}#m = :old", ExpressionAttributeNames=names,
                ExpressionAttributeValues=to_attributes({":new": current, ":old": code, ":district": district}))
        except table.client.exceptions.ConditionalCheckFailedException:
            continue
        moved += 1
    return moved


def documents_numbered_without_cai(table: Table) -> int:
    """Reports (logs, changes nothing) each numbered document of a company whose pack says its type
    needs an authorized range but that carries no CAI; returns how many."""
    from chalicelib import countries

    items = scan_types(table, {"COMPANY", keys.DOCUMENT})
    company_packs = {int(item["id"]): countries.pack_of(item) for item in items if item["itemType"] == "COMPANY"}
    found = 0
    for document in (item for item in items if item["itemType"] == keys.DOCUMENT):
        company_id = int(document["PK"].split("#")[1])
        pack = company_packs.get(company_id)
        if pack is None or not document.get("number") or document.get("cai"):
            continue
        if pack.hooks.requires_authorized_range(document["type"], document):
            logger.warning("document numbered without a CAI: annul it and reissue it under an authorized range",
                           extra={"companyId": company_id, "documentId": document["id"], "type": document["type"],
                                  "number": document["number"]})
            found += 1
    return found


def _partners_tax_ids(table: Table) -> list[tuple[dict[str, Any], str | None]]:
    """Each partner with a tax id, by company and id, with the id as its country's rule keeps it
    (services/sales_purchases/partners.py; None: the rule refuses it)."""
    from chalicelib import countries
    from chalicelib.errors import ValidationFailed
    from chalicelib.services.sales_purchases.partners import stored_tax_id

    items = scan_types(table, {"COMPANY", keys.PARTNER})
    company_countries = {int(item["id"]): countries.pack_of(item).code for item in items if item["itemType"] == "COMPANY"}
    partners = sorted((item for item in items if item["itemType"] == keys.PARTNER and item["SK"] == keys.PARTNER
                       and item.get("taxId")), key=lambda item: (item["PK"], int(item["id"])))
    found: list[tuple[dict[str, Any], str | None]] = []
    for partner in partners:
        country = partner.get("country") or company_countries.get(int(partner["PK"].split("#")[1]), countries.DEFAULT)
        try:
            found.append((partner, stored_tax_id(str(partner["taxId"]), country)))
        except ValidationFailed:
            found.append((partner, None))
    return found


def partner_tax_ids_reserved(table: Table) -> int:
    """Writes the reservation of each partner's tax id that has none (conditioned on its absence:
    another partner's, or a command's meanwhile, wins); returns how many it wrote."""
    from chalicelib.services.sales_purchases.partners import tax_id_key, tax_id_reservation

    written = 0
    for partner, tax_id in _partners_tax_ids(table):
        company_id = int(partner["PK"].split("#")[1])
        if tax_id is None or table.get(tax_id_key(company_id, tax_id)) is not None:
            continue
        try:
            table.client.put_item(TableName=table.name, ConditionExpression="attribute_not_exists(PK)",
                                  Item=to_attributes(tax_id_reservation(company_id, tax_id, int(partner["id"]))))
        except table.client.exceptions.ConditionalCheckFailedException:
            continue
        written += 1
    return written


def partner_tax_ids_duplicated(table: Table) -> int:
    """Reports (logs, changes nothing) each partner whose tax id another partner of its company
    holds; returns how many. Run after `partner_tax_ids_reserved`."""
    from chalicelib.services.sales_purchases.partners import tax_id_key

    found = 0
    for partner, tax_id in _partners_tax_ids(table):
        company_id = int(partner["PK"].split("#")[1])
        held = table.get(tax_id_key(company_id, tax_id)) if tax_id else None
        if held is not None and int(held["partnerId"]) != int(partner["id"]):
            logger.warning("partner with another partner's tax id: make them one partner or correct the id",
                           extra={"companyId": company_id, "partnerId": partner["id"], "taxId": partner["taxId"],
                                  "heldBy": held["partnerId"]})
            found += 1
    return found


def partner_tax_ids_refused(table: Table) -> int:
    """Reports (logs, changes nothing) each partner whose tax id, stored before the check, its
    country's rule refuses; returns how many."""
    found = 0
    for partner, tax_id in _partners_tax_ids(table):
        if tax_id is None:
            logger.warning("partner's tax id refused by its country's rule: correct it",
                           extra={"companyId": int(partner["PK"].split("#")[1]), "partnerId": partner["id"],
                                  "taxId": partner["taxId"]})
            found += 1
    return found


# (the figure `python -m infra.ops.admin migrate` prints, the migration), in the order they run
