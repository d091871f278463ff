"""Benchmarks (not part of `make test`): `python -m infra.bench` or `make bench`.

1. Cold import time of the API module against a bare chalice + boto3 client import, measured in
   the same run, in fresh interpreters (median of N). Target: ratio <= 1.3.
2. DynamoDB calls per request for each route, as deployed: the REQUEST authorizer's calls and
   the API Lambda's calls are counted apart. Target: one GetItem/Query per read, one
   TransactWriteItems per write.
3. General ledger, first page, of one account with 50 postings, while the company's OTHER
   accounts hold 100 and then 10,000 postings: DynamoDB calls and median latency (in-process,
   over the embedded moto). Target: latency ratio <= 1.2, the same calls.
4. POST /documents, a confirmed sales invoice (01) with 1 and with 20 stocked lines: DynamoDB
   calls, items in its one transaction and median latency (in-process, over the embedded moto).
5. GET /documents, first page (limit 20), while the company holds 100 and then 10,000 other
   documents (seeded straight into the table, shaped as the service stores them, spread over a
   year): DynamoDB calls and median latency. Target: latency ratio <= 1.2, the same calls.
6. POST /payments/documents/{id}/payments, a partial payment of a confirmed sales invoice by a
   method without a bank account (cash) and by one with a bank account: DynamoDB calls by
   operation, items in its one transaction and median latency (in-process, over the embedded moto).
7. GET /credits/client/{id}/summary of a customer with 10, 100 and 5,000 confirmed open invoices
   (beyond the first 10, seeded straight into the table as the service stores them: the
   documents, their open-document index items, the partner's openReceivables and
   receivableBalance, the per-day counts): DynamoDB calls and median latency. Target: the same
   calls whatever the history.
8. Webhooks through the real local stack (`python -m infra.devstack.local --fresh` in a subprocess,
   WEBHOOK_BACKOFF_BASE_S=1): one subscription to business_partner.created, 500 partners created
   over HTTP by 4 client threads, a receiver on 127.0.0.1 that fails the first attempt of about
   30 % of the deliveries (by their id); until every event is delivered or dead-lettered: counts
   (delivered, duplicates, injected failures, dead-lettered, invalid signatures), commit-to-
   delivery latency (p50/p95/max), wall time and deliveries per second. Target: every event
   delivered once, none dead-lettered, no invalid signature.
9. Scheduler: 1,000 scheduled invoices due today across 50 companies (in-process, over the embedded
   moto), one hourly run: its wall time, the invoices it made (must be 1,000) and its DynamoDB
   calls, in all and per invoice.
10. PDF rendering (pure, no AWS): the "invoice" template for a 5-line and a 200-line sales
   invoice, the 80 mm "ticket" for the same two and the "journal-entry" template for a 10-line
   entry; median of N renders after one warm-up (which loads fpdf2), with pages and bytes.
   Target: the 200-line invoice well under a second.
11. The balance sheet and the income statement of a year of 100 and then 10,000 posted entries:
   DynamoDB calls and median latency. Target: the same calls whatever the year holds.
12. The inventory valuation of 20 and then 200 stocked products, at a date after every movement
   and at a date before a month of them: DynamoDB calls and median latency.
13. Contention (`--only contention`): 1, 8 and 32 concurrent clients creating one-line sales
   invoices for `--contention-seconds`, all for one company (one series; and a branch with its
   own CAI range per client, selling to one customer or each to its own) and each for its own
   company, on the faithful DynamoDB layer with `--latency-ms` (default 10) on every call: one
   JSON record per run (clients, companies, series, customers, invoicesPerSecond, failed, p50,
   p99, retriesPerRequest). Target: one company at 32 clients
   reaches 80 % of 32 companies' throughput with none failed.
14. Moving in (`--only data-imports`, `--import-rows`, default 10,000): a CSV of partners and one of
   products imported (POST /imports, the job run in the request as the worker runs it): wall time, rows
   per second, DynamoDB calls and transactions, write and read units per row (on 1,000 more rows,
   metered). Target: each within 60 s.
15. Bank statements (`--only bank-statements`, `--statement-lines`, default 10,000): a BAC-style CSV
   imported into a bank account, then every page of its unmatched lines listed with suggestions:
   seconds and DynamoDB calls per 100 lines of each. Target: each within 30 s.

Persistence of the local stack (`--only local-state`, not part of the default run: a few minutes
and about 5 GB of memory): a state of `--local-state-documents` documents (100,000: five items
each, about 470 MB), its restore, a compaction while a thread reads (GetItem latency before and
during it), the real stack's time to ready and SIGTERM-to-exit, idle and during a compaction."""
from __future__ import annotations

import argparse
import json
import sys

from infra.bench.calls import calls_per_request
from infra.bench.capacity import print_report as print_capacity_report
from infra.bench.common import ROOT
from infra.bench.contention import contention_runs
from infra.bench.bank_statements import bank_statements
from infra.bench.data_imports import data_imports
from infra.bench.documents import credit_summary_scaling, document_list_scaling, document_writes, payment_writes
from infra.bench.imports import import_times
from infra.bench.ledger import ledger_scaling
from infra.bench.local_state import local_state_figures
from infra.bench.pdf import pdf_rendering
from infra.bench.scheduler import scheduler_run
from infra.bench.statements import statements_scaling
from infra.bench.valuation import valuation_scaling
from infra.bench.webhooks import webhook_delivery

SECTIONS = ("import", "calls", "ledger", "documents", "document-list", "payments", "credits", "webhook-single",
            "webhooks", "scheduler", "pdf", "statements", "valuation", "contention",
            "capacity", "data-imports", "local-state", "bank-statements")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--ledger-samples", type=int, default=50)
    parser.add_argument("--document-samples", type=int, default=20)
    parser.add_argument("--webhook-events", type=int, default=500)
    parser.add_argument("--webhook-clients", type=int, default=4)
    parser.add_argument("--webhook-timeout", type=float, default=600.0,
                        help="seconds from the first create to give up waiting for deliveries")
    parser.add_argument("--latency-ms", type=float, default=10.0, help="contention: simulated time of each DynamoDB call")
    parser.add_argument("--contention-seconds", type=float, default=15.0)
    parser.add_argument("--contention-clients", type=int, nargs="+", default=[1, 8, 32])
    parser.add_argument("--import-rows", type=int, default=10_000, help="data-imports: rows of each file")
    parser.add_argument("--statement-lines", type=int, default=10_000, help="bank-statements: lines of the file")
    parser.add_argument("--local-state-documents", type=int, default=100_000)
    parser.add_argument("--only", choices=SECTIONS, action="append",
                        help="run only this section (repeatable); default: all of them but local-state")
    args = parser.parse_args()
    sections = set(args.only or set(SECTIONS) - {"local-state"})
    sys.path.insert(0, str(ROOT))
    if "import" in sections:
        print("import time (fresh interpreter, median of", args.runs, "runs)")
        print(json.dumps(import_times(args.runs), indent=2))
    if "calls" in sections:
        print("\nDynamoDB calls per request (authorizer | API Lambda)")
        for row in calls_per_request():
            print(f"  {row['route']:<34} {row['status']}  authorizer {row['authorizer_calls']}  "
                  f"api {row['api_calls']}")
    if "ledger" in sections:
        print("\nGeneral ledger first page: 50 postings of the account, 100 vs 10,000 on other accounts")
        print(json.dumps(ledger_scaling(args.ledger_samples), indent=2))
    if "documents" in sections:
        print("\nPOST /documents: confirmed sales invoice (01), 1 vs 20 stocked lines")
        print(json.dumps(document_writes(args.document_samples), indent=2))
    if "document-list" in sections:
        print("\nGET /documents first page (limit 20): 100 vs 10,000 other documents in the company")
        print(json.dumps(document_list_scaling(args.document_samples), indent=2))
    if "payments" in sections:
        print("\nPOST /payments/documents/{id}/payments: a partial payment of a sales invoice (01), "
              "method without vs with a bank account")
        print(json.dumps(payment_writes(args.document_samples), indent=2))
    if "credits" in sections:
        print("\nGET /credits/client/{id}/summary: a customer with 10, 100 and 5,000 open invoices")
        print(json.dumps(credit_summary_scaling(args.document_samples), indent=2))
    if "webhook-single" in sections:
        print("\nWebhooks over the local stack: 20 single business_partner.created events, each created after "
              "the previous one arrived, no failure injected (targets: p50 < 1 s, p95 < 1.5 s)")
        print(json.dumps(webhook_delivery(20, 1, 120.0, settle=1.0, one_at_a_time=True), indent=2))
    if "webhooks" in sections:
        print(f"\nWebhooks over the local stack: {args.webhook_events} business_partner.created events, "
              f"{args.webhook_clients} client threads, first attempt of ~30 % failed by the receiver")
        print(json.dumps(webhook_delivery(args.webhook_events, args.webhook_clients, args.webhook_timeout), indent=2))
    if "scheduler" in sections:
        print("\nScheduler: one hourly run, 1,000 scheduled invoices due today across 50 companies")
        print(json.dumps(scheduler_run(50, 20), indent=2))
    if "pdf" in sections:
        print(f"\nPDF rendering (median of {args.runs} renders after a warm-up): invoice and ticket of 5 and 200 "
              "lines, a 10-line journal entry")
        print(json.dumps(pdf_rendering(args.runs), indent=2))
    if "statements" in sections:
        print("\nBalance sheet and income statement of a year of 100 vs 10,000 posted entries")
        print(json.dumps(statements_scaling(args.document_samples), indent=2))
    if "contention" in sections:
        print(f"\nContention: clients creating invoices for {args.contention_seconds:g} s, one company (one series, "
              "a series per client) vs one each, "
              f"{args.latency_ms:g} ms per DynamoDB call")
        for record in contention_runs(tuple(args.contention_clients), args.contention_seconds, args.latency_ms):
            print(json.dumps(record), flush=True)
    if "valuation" in sections:
        print("\nInventory valuation: 20 vs 200 stocked products, at the month's end and a month before")
        print(json.dumps(valuation_scaling(args.document_samples), indent=2))
    if "capacity" in sections:
        print_capacity_report()
    if "data-imports" in sections:
        print(f"\nMoving in: {args.import_rows:,} partners and {args.import_rows:,} products from a CSV each (target <= 60 s each)")
        print(json.dumps(data_imports(args.import_rows), indent=2))
    if "bank-statements" in sections:
        print(f"\nBank statements: {args.statement_lines:,} lines imported from a CSV, then every page of "
              "unmatched lines with suggestions (target <= 30 s each)")
        print(json.dumps(bank_statements(args.statement_lines), indent=2))
    if "local-state" in sections:
        print(f"\nLocal stack persistence at {args.local_state_documents:,} documents: restore, a compaction "
              "under reads, SIGTERM-to-exit of the real stack")
        print(json.dumps(local_state_figures(args.local_state_documents), indent=2))


if __name__ == "__main__":
    main()
