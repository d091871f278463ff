"""scratch: not committed. The page against mocked statement routes."""
import json
import uuid

from tests.browser.conftest import fresh_company
from tests.browser.reports_support import switch_language
from tests.browser.test_year_close_journey import account_ids

CAI_CODE = "F1E2D3-C4B5A6-0F1E2D-3C4B5A-6F7E8D-9C"


def created(console, path, body):
    status, _, answer = console.as_session("POST", path, body)
    assert status == 201, (path, answer)
    return answer


def test_scratch(console, demo, stack):
    tag = uuid.uuid4().hex[:6]
    page = console.page
    with fresh_company(console, demo, f"Scratch {tag}"):
        accounts = account_ids(console)
        created(console, "/cai", {"cai": CAI_CODE, "branchId": 1, "emissionPoint": "001", "documentType": "01",
                                  "rangeStart": 1, "rangeEnd": 500, "deadline": "2099-12-31"})
        customer = created(console, "/business-partners", {"name": f"Ferretería Los Pinos {tag}", "type": "customer", "taxId": "08011999000123"})
        invoice = created(console, "/documents", {"type": "01", "businessPartnerId": customer["id"],
                                                  "lines": [{"description": "Cemento", "quantity": 10, "unitPrice": 100, "taxRate": 0.15}]})
        bank = created(console, "/bank-accounts", {"name": f"Banco Atlántida {tag}", "currency": "HNL", "openingBalance": 10000,
                                                   "openingBalanceDate": "2020-01-01", "chartOfAccountId": accounts["110103"]})
        rule = created(console, "/bank-rules", {"name": "Comisiones", "conditions": [{"field": "description", "operator": "contains", "value": "COMISION"}],
                                                "action": {"chartOfAccountId": accounts["6302"], "taxRate": 0.15, "description": "Comisión bancaria"}})
        lines = [
            {"id": 1, "bankAccountId": bank["id"], "statementId": 1, "date": "2026-11-02", "amount": 1150, "description": f"DEPOSITO FERRETERIA LOS PINOS {invoice['number']}", "reference": "DEP001", "status": "unmatched", "version": 1,
             "suggestions": [{"kind": "document", "score": 92, "reasons": ["amount", "partner", "reference"], "documents": [{"documentId": invoice["id"], "amount": 1150}]},
                             {"kind": "transaction", "score": 40, "reasons": ["amount"], "transactionId": 999}]},
            {"id": 2, "bankAccountId": bank["id"], "statementId": 1, "date": "2026-11-03", "amount": -57.5, "description": "COMISION MANEJO DE CUENTA NOV", "reference": None, "status": "unmatched", "version": 1,
             "suggestions": [{"kind": "rule", "score": 80, "reasons": ["rule"], "ruleId": rule["id"]}]},
            {"id": 3, "bankAccountId": bank["id"], "statementId": 1, "date": "2026-11-04", "amount": -200, "description": "CARGO DUPLICADO", "reference": "X9", "status": "unmatched", "version": 1, "suggestions": []},
        ]
        def fulfil(route, body):
            route.fulfill(status=200, content_type="application/json", body=json.dumps(body))
        page.route("**/statement-lines?*", lambda route: fulfil(route, {"statementLines": lines, "total": 3, "page": 1, "limit": 20}))
        page.route("**/statements?*", lambda route: fulfil(route, {"statements": [{"id": 1, "bankAccountId": bank["id"], "fileName": "bac-noviembre.csv", "format": "csv", "linesImported": 3, "linesSkipped": 0, "linesAutoMatched": 0, "periodStart": "2026-11-02", "periodEnd": "2026-11-04", "openingBalance": 10000, "closingBalance": 10892.5, "currency": "HNL", "createdAt": "2026-11-28T10:00:00Z"}], "total": 1, "page": 1, "limit": 10}))
        page.route("**/statement-mapping", lambda route: fulfil(route, {"encoding": "cp1252", "delimiter": ",", "skipRows": 2, "dateColumn": "Fecha", "dateFormat": "DD/MM/YYYY", "descriptionColumn": "Descripción", "debitColumn": "Débito", "creditColumn": "Crédito", "balanceColumn": "Saldo", "decimalSeparator": ".", "thousandsSeparator": ","}))
        page.route("**/statement-mapping/preview", lambda route: fulfil(route, {"format": "csv", "currency": "HNL", "openingBalance": 10000, "closingBalance": 10892.5, "periodStart": "2026-11-02", "periodEnd": "2026-11-04", "lineCount": 3, "lines": [{"line": 4, "date": l["date"], "amount": l["amount"], "description": l["description"], "reference": l["reference"], "balance": 10000} for l in lines]}))
        for language in ("es", "en"):
            switch_language(console, language)
            for width in (1280, 390):
                page.set_viewport_size({"width": width, "height": 860})
                console.goto(f"/banking/{bank['id']}/statements")
                page.wait_for_selector(".rec-row")
                p = "/tmp/scratch/c.csv"
                open(p, "w").write("a,b\n")
                page.set_input_files("#statement-file", p)
                page.click("#statement-preview-button")
                page.wait_for_selector("#statement-preview")
                console.page.screenshot(path=f"/tmp/scratch/page-{language}-{width}.png", full_page=True)
                print(language, width, page.evaluate("document.documentElement.scrollWidth"))
                page.click(".rec-row[data-line='1'] .rec-search")
                page.wait_for_timeout(1500)
                print(page.evaluate("[...document.querySelectorAll('dialog')].map(d => d.open + ' ' + d.textContent.slice(0, 200))"))
                page.wait_for_timeout(500)
                console.page.screenshot(path=f"/tmp/scratch/search-{language}-{width}.png")
                page.locator("dialog[open] header button.icon").last.click()
                page.click(".rec-row[data-line='2'] .rec-create")
                page.wait_for_selector("#rec-create-rule")
                page.wait_for_timeout(500)
                page.click("#rec-create-rule")
                page.wait_for_selector("#rule-form")
                page.wait_for_timeout(500)
                console.page.screenshot(path=f"/tmp/scratch/rule-{language}-{width}.png")
                page.locator("dialog[open] header button.icon").last.click()
                page.locator("dialog[open] header button.icon").last.click()
                console.goto("/bank-rules")
                console.page.screenshot(path=f"/tmp/scratch/rules-{language}-{width}.png", full_page=True)
        switch_language(console, "es")
    print(console.errors)
    assert not console.errors
