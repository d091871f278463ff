"""Issue 42, point 7: the accountant's daily loop in the console. In a fresh Honduran company (the demo
company is shared) with one open invoice of L 1,150.00 (1,000.00 + 15 % ISV), the owner opens the bank
account's "Conciliación bancaria", uploads the bank's CSV (a BAC-style cp1252 download: two rows of
account details above the heading, DD/MM/YYYY dates, separate debit and credit columns, a running
balance), fills the column mapping, previews the first lines (nothing stored), saves and imports; then
accepts the deposit's suggestion (the invoice, paid), creates the bank charge with its ISV while making
a rule from it, ignores a line, undoes the deposit's match (the invoice open again), makes a rule on the
rules page and accepts its suggestion for the interest, edits one rule and deletes the other, matches a
transfer to the company's savings account, matches the deposit again through "Buscar" and starts a
reconciliation from the statement (its difference: the ignored line). Screenshots in Spanish and English at 1280 and 390 px wide."""
from __future__ import annotations

import datetime
import uuid
from decimal import Decimal

from tests.browser.conftest import created, fresh_company, read
from tests.browser.conftest import shot_without_notices as shot
from tests.browser.reports_support import switch_language, today
from tests.browser.test_year_close_journey import account_ids

CAI_CODE = "F1E2D3-C4B5A6-0F1E2D-3C4B5A-6F7E8D-9C"
WIDTHS = (1280, 390)


def bank_csv(days: list[datetime.date], tag: str) -> bytes:
    """The bank's download: 10,000.00 before the first line, then
    +1,150.00 = 11,150.00 (the customer's deposit), -57.50 = 11,092.50 (the monthly charge, ISV included),
    -200.00 = 10,892.50 (a returned cheque's charge), +12.34 = 10,904.84 (interest), -500.00 = 10,404.84 (to the
    company's savings account): the closing balance."""
    d = [day.strftime("%d/%m/%Y") for day in days]
    rows = [
        "BANCO DE AMERICA CENTRAL HONDURAS,,,,,",
        "Cuenta,730123456,Moneda,HNL,,",
        "Fecha,Descripción,Referencia,Débito,Crédito,Saldo",
        f'{d[0]},DEPOSITO FERRETERIA LOS PINOS {tag},DEP-771,,"1,150.00","11,150.00"',
        f'{d[1]},COMISION MANEJO DE CUENTA,,57.50,,"11,092.50"',
        f'{d[2]},CARGO POR CHEQUE DEVUELTO,CHQ-12,200.00,,"10,892.50"',
        f'{d[3]},INTERESES GANADOS,,,12.34,"10,904.84"',
        f'{d[3]},TRASPASO A CUENTA DE AHORRO,TR-88,500.00,,"10,404.84"',
    ]
    return ("\r\n".join(rows) + "\r\n").encode("cp1252")


def row_of(page, description: str):
    return page.locator(".rec-row", has_text=description)


def open_tab(console, tab: str) -> None:
    console.page.click(f"#tab-{tab}")
    console.page.wait_for_selector(f"#tab-{tab}[aria-selected=true]")
    console.wait_loaded()


def wait_gone(console, description: str) -> None:
    """The line leaves the unmatched list (a refusal shows as a notice: it is the failure's message)."""
    try:
        console.page.wait_for_function(
            "text => ![...document.querySelectorAll('.rec-row')].some(r => r.textContent.includes(text))", arg=description)
    except Exception as error:
        raise AssertionError(console.page.inner_text("#toasts") or "no notice") from error
    console.wait_loaded()


def lines_by_description(console, bank_id: int) -> dict[str, dict]:
    answer = read(console, f"/bank-accounts/{bank_id}/statement-lines?limit=100")
    return {line["description"]: line for line in answer["statementLines"]}


def test_a_statement_imported_matched_and_reconciled(console, demo, stack, tmp_path):
    page = console.page
    tag = uuid.uuid4().hex[:4].upper()
    now = today()
    days = [now - datetime.timedelta(days=back) for back in (4, 3, 2, 1)]
    with fresh_company(console, demo, f"Conciliación {tag}"):
        accounts = account_ids(console)
        created(console, "/cai", {"cai": CAI_CODE, "branchId": 1, "emissionPoint": "001", "documentType": "01",
                                  "rangeStart": 1, "rangeEnd": 500, "deadline": "2099-12-31"})
        customer = created(console, "/business-partners", {"name": f"Ferretería Los Pinos {tag}", "type": "customer",
                                                           "taxId": "08011999000123"})
        # 10 x 100.00 = 1,000.00 + 15 % ISV 150.00 = 1,150.00
        invoice = created(console, "/documents", {
            "type": "01", "businessPartnerId": customer["id"], "date": (now - datetime.timedelta(days=6)).isoformat(),
            "lines": [{"description": "Cemento gris", "quantity": 10, "unitPrice": 100, "taxRate": "0.15"}]})
        assert Decimal(str(invoice["total"])) == Decimal("1150.00") and Decimal(str(invoice["pending"])) == Decimal("1150.00")
        bank = created(console, "/bank-accounts", {"name": f"BAC {tag}", "bankName": "BAC Credomatic", "currency": "HNL",
                                                   "openingBalance": "10000.00", "openingBalanceDate": "2020-01-01",
                                                   "chartOfAccountId": accounts["110103"]})
        savings = created(console, "/bank-accounts", {
            "name": f"Ahorros {tag}", "currency": "HNL", "openingBalance": "0.00", "openingBalanceDate": "2020-01-01",
            "chartOfAccountId": created(console, "/chart-of-accounts", {"code": "110104", "name": "Bancos, ahorro",
                                                                        "type": "asset", "parentId": accounts["1101"]})["id"]})
        # a customer's deposit is a payment: the method that moves money through this account
        created(console, "/payments/methods", {"name": f"Depósito BAC {tag}", "bankAccountId": bank["id"]})

        # --- the account's page leads to its reconciliation page --------------------------------------
        console.goto(f"/banking/{bank['id']}")
        page.click("#open-statements")
        console.wait_loaded()
        assert page.inner_text("h1") == f"Conciliación bancaria · BAC {tag}"
        assert "Todavía no se ha importado ningún estado de cuenta." in page.inner_text("#statements")

        # --- the file, the mapping, the preview --------------------------------------------------------
        path = tmp_path / "bac-estado.csv"
        path.write_bytes(bank_csv(days, tag))
        page.set_input_files("#statement-file", str(path))
        assert page.locator("#statement-mapping").is_visible()       # a CSV is read through the mapping
        page.select_option("#f-encoding", "cp1252")
        page.select_option("#f-delimiter", ",")
        page.fill("#f-skipRows", "2")
        page.fill("#f-dateColumn", "Fecha")
        page.select_option("#f-dateFormat", "DD/MM/YYYY")
        page.fill("#f-descriptionColumn", "Descripción")
        page.fill("#f-referenceColumn", "Referencia")
        page.fill("#f-debitColumn", "Débito")
        page.fill("#f-creditColumn", "Crédito")
        page.fill("#f-balanceColumn", "Saldo")
        page.click("#statement-preview-button")
        page.wait_for_selector("#statement-preview tbody tr")
        preview_rows = page.locator("#statement-preview tbody tr")
        assert preview_rows.count() == 5
        assert "DEPOSITO FERRETERIA LOS PINOS" in preview_rows.nth(0).inner_text()
        assert "L 1,150.00" in preview_rows.nth(0).inner_text().replace("\xa0", " ")
        assert "-L 57.50" in preview_rows.nth(1).inner_text().replace("\xa0", " ")
        assert read(console, f"/bank-accounts/{bank['id']}/statement-lines")["total"] == 0   # nothing stored
        shot(console, "preview")

        page.click("#statement-save-import")
        page.wait_for_selector("#statement-imported")
        console.wait_loaded()
        assert page.inner_text("#statement-lines-imported") == "5"
        assert page.inner_text("#statement-lines-skipped") == "0"
        assert page.inner_text("#statement-closing").replace("\xa0", " ") == "L 10,404.84"
        saved = read(console, f"/bank-accounts/{bank['id']}/statement-mapping")
        assert (saved["skipRows"], saved["debitColumn"], saved["creditColumn"], saved["encoding"]) == (2, "Débito", "Crédito", "cp1252")
        page.wait_for_selector(".rec-row")
        assert page.locator(".rec-row").count() == 5
        shot(console, "imported")

        # --- OK: the deposit's best suggestion is the open invoice -------------------------------------
        deposit = row_of(page, "DEPOSITO FERRETERIA LOS PINOS")
        suggested = deposit.locator(".rec-suggested[data-kind=document]")
        assert invoice["number"] in suggested.inner_text() and customer["name"] in suggested.inner_text()
        assert "amount" in [chip.get_attribute("data-reason") for chip in deposit.locator(".chip").all()]
        deposit.locator(".rec-ok").click()
        wait_gone(console, "DEPOSITO FERRETERIA LOS PINOS")
        paid = read(console, f"/documents/{invoice['id']}")
        assert Decimal(str(paid["pending"])) == 0 and paid["paymentStatus"] == "paid"   # 1,150.00 - 1,150.00
        lines = lines_by_description(console, bank["id"])
        deposit_line = lines[f"DEPOSITO FERRETERIA LOS PINOS {tag}"]
        assert deposit_line["status"] == "matched" and deposit_line["match"]["kind"] == "documents"
        # the bank's balance: 10,000.00 + 1,150.00
        assert Decimal(str(read(console, f"/bank-accounts/{bank['id']}")["balance"])) == Decimal("11150.00")

        # --- Crear: the monthly charge, 57.50 with its ISV, and a rule made from it -------------------------
        charge = row_of(page, "COMISION MANEJO DE CUENTA")
        charge.locator(".rec-create").click()
        dialog = page.locator("dialog[open]")
        dialog.locator("#f-chartOfAccountId option[value='%d']" % accounts["6302"]).wait_for(state="attached")
        dialog.locator("#f-chartOfAccountId").select_option(str(accounts["6302"]))
        dialog.locator("#f-taxRate").select_option("0.15")
        shot(console, "create")
        dialog.locator("#rec-create-rule").click()
        rule_form = page.locator("#rule-form")
        rule_form.wait_for()
        assert rule_form.locator("#f-name").input_value() == "COMISION MANEJO DE"
        assert rule_form.locator(".rule-condition .rule-value").first.input_value() == "COMISION MANEJO DE"
        rule_form.locator("#f-actionChartOfAccountId option[value='%d']" % accounts["6302"]).wait_for(state="attached")
        assert rule_form.locator("#f-actionChartOfAccountId").input_value() == str(accounts["6302"])
        rule_form.locator("#f-name").fill("Comisión de manejo")
        shot(console, "rule-from-line")
        rule_form.locator("button[type=submit]").click()
        rule_form.wait_for(state="detached")
        page.locator("#rec-create-form button[type=submit]").click()
        page.locator("#rec-create-form").wait_for(state="detached")
        wait_gone(console, "COMISION MANEJO DE CUENTA")
        rules = read(console, "/bank-rules")["bankRules"]
        assert [(r["name"], r["action"]["chartOfAccountId"]) for r in rules] == [("Comisión de manejo", accounts["6302"])]
        assert rules[0]["conditions"] == [{"field": "description", "operator": "contains", "value": "COMISION MANEJO DE"},
                                          {"field": "direction", "operator": "equals", "value": "out"}]
        charge_line = lines_by_description(console, bank["id"])["COMISION MANEJO DE CUENTA"]
        assert charge_line["status"] == "matched" and charge_line["match"]["kind"] == "create"
        assert charge_line["match"]["ruleId"] == rules[0]["id"]
        # 57.50 includes 15 % ISV: 57.50 / 1.15 = 50.00 to bank charges, 7.50 to ISV; the bank 11,150.00 - 57.50
        assert Decimal(str(read(console, f"/bank-accounts/{bank['id']}")["balance"])) == Decimal("11092.50")
        # the page's balance follows the match
        page.wait_for_function("() => document.getElementById('statement-account-balance').textContent.includes('11,092.50')")
        entry = read(console, f"/journal-entries/{charge_line['match']['journalEntryId']}")
        debits = {line["chartOfAccountId"]: Decimal(str(line["debit"])) for line in entry["lines"] if Decimal(str(line["debit"]))}
        assert debits[accounts["6302"]] == Decimal("50.00") and sum(debits.values()) == Decimal("57.50"), entry["lines"]

        # --- Ignorar: the returned cheque's charge ------------------------------------------------------
        row_of(page, "CARGO POR CHEQUE DEVUELTO").locator(".rec-ignore").click()
        wait_gone(console, "CARGO POR CHEQUE DEVUELTO")
        assert lines_by_description(console, bank["id"])["CARGO POR CHEQUE DEVUELTO"]["status"] == "ignored"
        open_tab(console, "ignored")
        assert "CARGO POR CHEQUE DEVUELTO" in page.inner_text("#statement-lines")
        shot(console, "ignored")

        # --- Deshacer: the deposit's match undone, the invoice open again ---------------------------------
        open_tab(console, "matched")
        assert page.locator("#statement-lines tbody tr").count() == 2
        shot(console, "matched")
        page.locator("#statement-lines tbody tr", has_text="DEPOSITO FERRETERIA").locator(".rec-unmatch").click()
        console.confirm()
        page.wait_for_function("() => document.querySelectorAll('#statement-lines tbody tr').length === 1")
        console.wait_loaded()
        reopened = read(console, f"/documents/{invoice['id']}")
        assert Decimal(str(reopened["pending"])) == Decimal("1150.00")
        assert lines_by_description(console, bank["id"])[f"DEPOSITO FERRETERIA LOS PINOS {tag}"]["status"] == "unmatched"
        # back where it was before the match: 11,092.50 - 1,150.00
        assert Decimal(str(read(console, f"/bank-accounts/{bank['id']}")["balance"])) == Decimal("9942.50")
        open_tab(console, "unmatched")
        assert page.locator(".rec-row").count() == 3
        # 5 lines: the charge matched, the cheque ignored, the deposit, the interest and the transfer to match
        assert page.inner_text("#statement-lines .pager span") == "Página 1 de 1 · 3 registros"

        # --- the rules page lists the rule ---------------------------------------------------------------
        console.goto("/bank-rules")
        assert "Comisión de manejo" in page.inner_text("#bank-rules")
        assert "Descripción contiene «COMISION MANEJO DE»" in page.inner_text("#bank-rules")
        shot(console, "rules")

        # --- a rule made on the rules page: three conditions, all of them ------------------------------------
        page.click("text=Nueva regla")
        rule_form = page.locator("#rule-form")
        rule_form.wait_for()
        rule_form.locator("#f-name").fill("Intereses ganados")
        first = rule_form.locator(".rule-condition").nth(0)
        first.locator(".rule-value").fill("INTERESES")
        rule_form.locator(".rule-add").click()
        second = rule_form.locator(".rule-condition").nth(1)
        second.locator(".rule-field").select_option("amount")
        second.locator(".rule-operator").select_option("between")
        second.locator(".rule-value").nth(0).fill("0.01")
        second.locator(".rule-value").nth(1).fill("100")
        rule_form.locator(".rule-add").click()
        third = rule_form.locator(".rule-condition").nth(2)
        third.locator(".rule-field").select_option("direction")
        third.locator(".rule-value").select_option("in")
        rule_form.locator("#f-actionChartOfAccountId option[value='%d']" % accounts["4201"]).wait_for(state="attached")
        rule_form.locator("#f-actionChartOfAccountId").select_option(str(accounts["4201"]))
        rule_form.locator("#f-actionDescription").fill("Intereses de la cuenta")
        shot(console, "rule-new")
        rule_form.locator("button[type=submit]").click()
        rule_form.wait_for(state="detached")
        console.wait_loaded()
        page.wait_for_selector("#bank-rules tbody tr:nth-child(2)")
        interest_rule = next(r for r in read(console, "/bank-rules")["bankRules"] if r["name"] == "Intereses ganados")
        assert [(c["field"], c["operator"], c["value"]) for c in interest_rule["conditions"]] == [
            ("description", "contains", "INTERESES"), ("amount", "between", [0.01, 100]),
            ("direction", "equals", "in")]
        assert interest_rule["match"] == "all" and interest_rule["action"]["chartOfAccountId"] == accounts["4201"]

        # --- OK on a rule's suggestion: the interest created by the rule -------------------------------------
        console.goto(f"/banking/{bank['id']}/statements")
        interest = row_of(page, "INTERESES GANADOS")
        assert "Intereses ganados" in interest.locator(".rec-suggested[data-kind=rule]").inner_text()
        interest.locator(".rec-ok").click()
        wait_gone(console, "INTERESES GANADOS")
        interest_line = lines_by_description(console, bank["id"])["INTERESES GANADOS"]
        assert (interest_line["match"]["kind"], interest_line["match"]["ruleId"]) == ("create", interest_rule["id"])
        # 9,942.50 + 12.34
        assert Decimal(str(read(console, f"/bank-accounts/{bank['id']}")["balance"])) == Decimal("9954.84")

        # --- edit one rule (created without asking from now on), delete the other ----------------------------
        console.goto("/bank-rules")
        page.locator("#bank-rules tbody tr", has_text="Comisión de manejo").locator("button", has_text="Editar").click()
        rule_form = page.locator("#rule-form")
        rule_form.wait_for()
        # the form shows the rule as it is once the chart's accounts have arrived
        page.wait_for_function("id => document.getElementById('f-actionChartOfAccountId').value === String(id)",
                               arg=accounts["6302"])
        rule_form.locator("#f-autoCreate").check()
        rule_form.locator("button[type=submit]").click()
        rule_form.wait_for(state="detached")
        console.wait_loaded()
        page.locator("#bank-rules tbody tr", has_text="Intereses ganados").locator("button", has_text="Eliminar").click()
        console.confirm()
        page.wait_for_function("() => document.querySelectorAll('#bank-rules tbody tr').length === 1")
        console.wait_loaded()
        rules = read(console, "/bank-rules")["bankRules"]
        assert [(r["name"], r["autoCreate"]) for r in rules] == [("Comisión de manejo", True)]
        assert "Sí" in page.inner_text("#bank-rules tbody tr")

        # --- the screens in both languages, at both widths -----------------------------------------------
        for language in ("es", "en"):
            switch_language(console, language)
            for width in WIDTHS:
                page.set_viewport_size({"width": width, "height": 860})
                console.goto(f"/banking/{bank['id']}/statements")
                page.wait_for_selector(".rec-row .rec-suggested")
                assert page.evaluate("document.documentElement.scrollWidth") <= width, (language, width)
                shot(console, f"lines-{language}-{width}")
                page.locator(".rec-row", has_text="DEPOSITO").locator(".rec-search").click()
                page.wait_for_function("() => document.getElementById('rec-remaining')?.textContent.includes('0.00')")
                shot(console, f"search-{language}-{width}")
                page.locator("dialog[open] header button.icon").click()
                console.goto("/bank-rules")
                assert page.evaluate("document.documentElement.scrollWidth") <= width, (language, width)
                shot(console, f"rules-{language}-{width}")
        page.set_viewport_size({"width": 1280, "height": 860})
        switch_language(console, "es")

        # --- Transferencia: the other side is the company's savings account -----------------------------------
        console.goto(f"/banking/{bank['id']}/statements")
        row_of(page, "TRASPASO A CUENTA DE AHORRO").locator(".rec-transfer").click()
        page.locator(f"#f-transferToAccountId option[value='{savings['id']}']").wait_for(state="attached")
        assert page.locator(f"#f-transferToAccountId option[value='{bank['id']}']").count() == 0   # not itself
        page.select_option("#f-transferToAccountId", str(savings["id"]))
        page.locator("dialog[open] button[type=submit]").click()
        wait_gone(console, "TRASPASO A CUENTA DE AHORRO")
        transfer_line = lines_by_description(console, bank["id"])["TRASPASO A CUENTA DE AHORRO"]
        assert (transfer_line["match"]["kind"], transfer_line["match"]["transferToAccountId"]) == ("transfer", savings["id"])
        # savings 0.00 + 500.00; the account 9,954.84 - 500.00
        assert Decimal(str(read(console, f"/bank-accounts/{savings['id']}")["balance"])) == Decimal("500.00")
        assert Decimal(str(read(console, f"/bank-accounts/{bank['id']}")["balance"])) == Decimal("9454.84")

        # --- Buscar: the deposit matched again by picking the invoice ------------------------------------------
        console.goto(f"/banking/{bank['id']}/statements")
        row_of(page, "DEPOSITO FERRETERIA").locator(".rec-search").click()
        page.fill("#rec-search", invoice["number"][-8:])
        found = page.locator(f"#rec-search-results input.rec-pick[data-document='{invoice['id']}']")
        found.wait_for()
        assert found.is_checked()                                  # the suggestion's invoice comes chosen
        found.uncheck()
        page.wait_for_function("() => document.getElementById('rec-remaining').textContent.includes('1,150.00')")
        assert page.locator("#rec-search-match").is_disabled()     # 1,150.00 left to assign
        found.check()
        page.wait_for_function("() => !document.getElementById('rec-search-match').disabled")
        page.click("#rec-search-match")
        wait_gone(console, "DEPOSITO FERRETERIA")
        assert Decimal(str(read(console, f"/documents/{invoice['id']}")["pending"])) == 0

        # --- Conciliar con este estado de cuenta: a reconciliation at the statement's closing balance --------------
        console.goto(f"/banking/{bank['id']}/statements")
        page.locator("#statements .reconcile-statement").first.click()
        page.wait_for_selector("dialog[open] #f-statementBalance")
        console.wait_loaded()
        assert page.url.endswith(f"#/banking/{bank['id']}") or "reconciliation=" in page.url
        assert Decimal(page.input_value("dialog[open] #f-statementBalance")) == Decimal("10404.84")
        assert page.input_value("dialog[open] #f-statementDate") == days[-1].isoformat()
        # cleared: the statement's matched lines, deposit, charge, interest and transfer (the cheque ignored):
        # 10,000.00 + 1,150.00 - 57.50 + 12.34 - 500.00 = 10,604.84; the bank says 10,404.84:
        # 10,404.84 - 10,604.84 = -200.00, the ignored cheque's charge, which the books do not have
        assert page.inner_text("#reconciliation-difference").replace("\xa0", " ") == "-L 200.00"
        shot(console, "reconciliation")
    assert not console.errors
