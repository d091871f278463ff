"""10. PDF rendering."""
from __future__ import annotations

import statistics
import time
from typing import Any


def _printable_invoice(lines: int) -> dict[str, Any]:
    """A confirmed sales invoice shaped as the service stores it: lines at the three ISV rates,
    every fifth with a description long enough to wrap, and its CAI block."""
    from decimal import Decimal

    from chalicelib.domain.documents import document_totals, line_amounts

    stored, amounts = [], []
    for index in range(lines):
        rate = (Decimal("0.15"), Decimal("0"), Decimal("0.18"))[index % 3]
        quantity, price, discount = Decimal(index % 4 + 1), Decimal("149.95"), Decimal("5.00")
        figures = line_amounts(quantity, price, discount, rate, f"lines[{index}]")
        description = (f"Silla ergonómica de oficina, modelo {index}, con cojín lumbar y brazos ajustables en altura"
                       if index % 5 == 0 else f"Artículo número {index}")
        stored.append({"description": description, "quantity": quantity, "unitPrice": price, "discount": discount,
                       "taxRate": rate, "subtotal": figures.subtotal, "tax": figures.tax, "total": figures.total})
        amounts.append((figures, rate))
    totals = document_totals(amounts)
    return {"id": 1, "type": "01", "status": "confirmed", "number": "001-001-01-00000001", "date": "2026-11-02",
            "dueDate": "2026-12-02", "currency": "HNL", "lines": stored, "subtotal": totals.subtotal,
            "taxTotal": totals.tax_total, "total": totals.total,
            "cai": {"cai": "35A4E1-6C8E5B-2F49A3-0C6F26-2C3E5A-0A", "rangeStart": "001-001-01-00000001",
                    "rangeEnd": "001-001-01-00001000", "deadline": "2099-12-31"}}


def pdf_rendering(runs: int) -> dict[str, Any]:
    import io
    from decimal import Decimal

    import pypdf

    from chalicelib.pdf import invoice, journal_entry, ticket

    company = {"id": 1, "name": "Compañía Demostración S. de R.L.", "taxId": "08019999000001",
               "address": "Col. Palmira, Tegucigalpa", "currency": "HNL"}
    partner = {"id": 1, "name": "José Peña Muñoz", "taxId": "08011985123456"}
    entry = {"id": 9, "date": "2026-11-02", "status": "posted", "entryType": "manual", "description": "Planilla",
             "lines": [{"chartOfAccountId": n, "debit": Decimal("100.00") if n % 2 else Decimal(0),
                        "credit": Decimal(0) if n % 2 else Decimal("100.00")} for n in range(1, 11)],
             "totalDebit": Decimal("500.00"), "totalCredit": Decimal("500.00")}
    accounts = {n: {"code": f"1101{n:02d}", "name": f"Cuenta {n}"} for n in range(1, 11)}
    short, long = _printable_invoice(5), _printable_invoice(200)
    cases = {"invoice_5_lines": lambda: invoice.render(company, partner, short),
             "invoice_200_lines": lambda: invoice.render(company, partner, long),
             "ticket_5_lines": lambda: ticket.render(company, partner, short),
             "ticket_200_lines": lambda: ticket.render(company, partner, long),
             "journal_entry_10_lines": lambda: journal_entry.render(company, entry, accounts)}
    result: dict[str, Any] = {}
    for name, render in cases.items():
        content = render()  # warm-up: the first render loads fpdf2
        timings = []
        for _ in range(runs):
            start = time.perf_counter()
            render()
            timings.append(time.perf_counter() - start)
        result[name] = {"median_ms": round(statistics.median(timings) * 1000, 1),
                        "max_ms": round(max(timings) * 1000, 1), "pages": len(pypdf.PdfReader(io.BytesIO(content)).pages),
                        "bytes": len(content)}
    return result
