"""How many of schemathesis's positive cases (requests the OpenAPI document allows) the service
refused, and why, per operation: the measure of how truthful the document is.

A refusal is the document's fault unless the rule depends on stored state (an id that names
nothing, a server-issued cursor, a record's status, the clock) or compares fields in a way JSON
Schema cannot state (an end date before a start date, debits that differ from credits).

    python -m tests.fuzz_report OUTCOMES.jsonl    # the file FUZZ_OUTCOMES wrote (make fuzz)
"""
from __future__ import annotations

import collections
import json
import re
import sys
from typing import Any, Iterable

# The refusals that say the request itself is wrong.
INPUT_CODES = {"VALIDATION_ERROR", "MALFORMED_JSON", "UNSUPPORTED_MEDIA_TYPE", "NOT_ACCEPTABLE",
               "CHANNEL_UNSUPPORTED", "UNBALANCED_ENTRY"}
STATEFUL = re.compile(
    r"no such|invalid or expired cursor|must be in the future|inactive|opening balance date|no source document"
    r"|parent's type|must be a quote|the company's own currency|belongs to another|must be an active \w+ account|default \w+ stays active|can come only from|needs a customer"
    r"|needs a supplier|must be a document of type|for a company in|is with a (customer|supplier)"
    r"|only purchase documents carry it|only a withholding certificate|needs a tax rate above 0|certifies a withholding"
    r"|no average cost yet|are already on hand|are on hand|insufficient stock"
    # a tax id's form is the company's country's (an RTN or a NIT): one document cannot state both
    r"|must be an RTN of|must be a NIT of|check digit does not match"
    # a CSV or XLSX statement reads with the account's saved column mapping
    r"|save it first"
    # a card gateway takes its clearing account's currency (the payment method's stored bank account)
    r"|; (pixelpay|wompi) takes")
# Comparisons between fields or sums over lines: stated in the operation's descriptions, not in a schema.
BEYOND_JSON_SCHEMA = re.compile(
    r"must not be (before|after|below) \w+|must differ from|page \* limit|spans at most|debits"
    r"|at most \d+ calendar years|must not exceed the line amount|together|on another line"
    r"|paged by page, not by cursor"  # q and cursor on GET /documents
    # a key's content (a parseable RSA private key of enough bits) is beyond any pattern
    r"|not an RSA private key|a public key: send the private key|bits; at least"
    # a catalogue of hundreds of codes is a pattern in the document, its list the service's (CAT-019)
    r"|is not in the authority's catalogue CAT-019"
    # an import's date: the opening kinds' changeover date, refused for the others (its description says so)
    r"|is only taken by the opening kinds"
    # a card gateway's fields of one provider (PixelPay's own endpoint) refused for the other: its description says so
    r"|only a PixelPay merchant")
CROSS_FIELD_CODES = {"UNBALANCED_ENTRY"}
THRESHOLD = 0.10


def classify(status: int, answer: dict[str, Any]) -> str:
    """accepted | stateful | cross-field | refused (the document's fault)."""
    code = answer.get("code")
    if status < 400 or code not in INPUT_CODES:
        return "accepted" if status < 400 else "stateful"
    if code in CROSS_FIELD_CODES:
        return "cross-field"
    messages = [str(detail.get("message", "")) for detail in answer.get("details") or []]
    if messages and all(STATEFUL.search(message) for message in messages):
        return "stateful"
    if messages and all(STATEFUL.search(message) or BEYOND_JSON_SCHEMA.search(message) for message in messages):
        return "cross-field"
    return "refused"


def refused_share(kinds: Iterable[str]) -> float:
    kinds = list(kinds)
    return sum(kind == "refused" for kind in kinds) / len(kinds) if kinds else 0.0


def report(lines: Iterable[str]) -> tuple[str, int]:
    """A table of the operations, worst first, and how many exceed the threshold."""
    by_operation: dict[str, list[str]] = collections.defaultdict(list)
    for line in lines:
        row = json.loads(line)
        if row["mode"] == "positive":
            by_operation[f"{row['method']} {row['path']}"].append(row["kind"])
    rows = sorted(by_operation.items(), key=lambda item: -refused_share(item[1]))
    over = sum(refused_share(kinds) >= THRESHOLD for _, kinds in rows)
    total = collections.Counter(kind for _, kinds in rows for kind in kinds)
    out = [f"{len(rows)} operations, {sum(total.values())} positive cases: {dict(total)}",
           f"operations refusing {THRESHOLD:.0%} or more of them (the document's fault): {over}",
           f"{'refused':>8} {'cross':>6} {'state':>6} {'cases':>6}  operation"]
    for name, kinds in rows:
        count = collections.Counter(kinds)
        out.append(f"{refused_share(kinds):8.0%} {count['cross-field']:6} {count['stateful']:6} {len(kinds):6}  {name}")
    return "\n".join(out), over


if __name__ == "__main__":
    with open(sys.argv[1]) as outcomes:
        text, over = report(outcomes)
    print(text)
    sys.exit(1 if over else 0)
