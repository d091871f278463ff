"""The books through the console: a bank deposit recorded and reconciled against a statement; a
purchase invoice confirmed (its entry appears), returned to draft and deleted."""
from __future__ import annotations

import re
import uuid

from tests.browser.conftest import account_id, api_call, bank_ledger


def amount(text: str) -> float:
    return float(re.sub(r"[^\d.-]", "", text))


def test_deposit_and_reconcile_a_bank_account(console, demo, stack):
    base, key, page = stack[0].base, demo["apiKey"], console.page
    tag = uuid.uuid4().hex[:6]
    name = f"Banco conciliado {tag}"
    status, _, bank = api_call(base, "POST", "/bank-accounts", key, {
        "name": name, "openingBalanceDate": "2026-01-01", "chartOfAccountId": bank_ledger(base, key, tag)})
    assert status == 201, bank
    console.login_to_company(demo["email"], demo["password"], demo["companyId"])
    console.goto(f"/banking/{bank['id']}")

    page.click("text=Depósito o retiro")
    dialog = page.locator("dialog")
    dialog.locator("#f-type").select_option("deposit")
    dialog.locator("#f-amount").fill("1250.50")
    dialog.locator("#f-reference").fill("DEP-001")
    dialog.locator("#f-chartOfAccountId").select_option(str(account_id(base, key, "3101")))
    console.shot("deposit-dialog")
    dialog.locator("button[type=submit]").click()
    dialog.wait_for(state="detached")
    console.wait_loaded()
    page.wait_for_selector("tr:has-text('DEP-001')")
    assert amount(page.inner_text("#bank-balance strong")) == 1250.5
    console.shot("deposit-recorded")

    page.click("text=Nueva conciliación")
    dialog = page.locator("dialog")
    dialog.locator("tr", has_text="DEP-001").locator("input[type=checkbox]").check()
    dialog.locator("#f-statementBalance").fill("1250.50")
    dialog.locator("button[type=submit]").click()
    difference = dialog.locator("#reconciliation-difference")
    difference.wait_for()
    assert amount(difference.inner_text()) == 0
    console.shot("reconciliation-draft")
    dialog.locator("#reconciliation-result button.primary").click()
    dialog.wait_for(state="detached")
    console.wait_loaded()
    page.wait_for_selector("tr:has-text('DEP-001') .badge-true")
    console.shot("reconciled")

    held = api_call(base, "GET", f"/bank-accounts/{bank['id']}", key)[2]
    assert held["balance"] == 1250.5 and held["reconciledBalance"] == 1250.5
    reconciliations = api_call(base, "GET", f"/bank-accounts/{bank['id']}/reconciliations", key)[2]["reconciliations"]
    assert [(r["status"], r["difference"]) for r in reconciliations] == [("completed", 0)]
    transactions = api_call(base, "GET", f"/bank-accounts/{bank['id']}/transactions", key)[2]["transactions"]
    assert [(t["reference"], t["reconciled"]) for t in transactions] == [("DEP-001", True)]
    assert not console.errors


def test_purchase_invoice_is_confirmed_returned_to_draft_and_deleted(console, demo, stack):
    base, key, page = stack[0].base, demo["apiKey"], console.page
    tag = uuid.uuid4().hex[:6]
    status, _, supplier = api_call(base, "POST", "/business-partners", key,
                                   {"name": f"Proveedor {tag}", "type": "supplier"})
    assert status == 201, supplier
    status, _, draft = api_call(base, "POST", "/documents", key, {
        "type": "103", "status": "draft", "businessPartnerId": supplier["id"], "reference": f"FAC-PROV-{tag}",
        "lines": [{"description": "Papelería", "quantity": 4, "unitPrice": 25}]})
    assert status == 201 and draft["status"] == "draft", draft
    console.login_to_company(demo["email"], demo["password"], demo["companyId"])
    console.goto(f"/documents/{draft['id']}")
    assert "Borrador" in page.inner_text(".facts")

    page.click(".page-header button:has-text('Confirmar')")
    console.confirm()
    page.wait_for_selector(".page-header button:has-text('Revertir a borrador')")
    console.wait_loaded()
    assert "Confirmado" in page.inner_text(".facts")
    assert page.locator("text=Partida contable").count() >= 1
    console.shot("purchase-confirmed")
    held = api_call(base, "GET", f"/documents/{draft['id']}", key)[2]
    assert held["status"] == "confirmed" and held["journalEntryId"]

    page.click(".page-header button:has-text('Revertir a borrador')")
    dialog = page.locator("dialog")
    dialog.locator("#f-reason").fill("Monto equivocado")
    dialog.locator("button[type=submit]").click()
    dialog.wait_for(state="detached")
    page.wait_for_selector(".page-header button:has-text('Eliminar')")
    console.wait_loaded()
    console.shot("purchase-draft-again")
    held = api_call(base, "GET", f"/documents/{draft['id']}", key)[2]
    assert held["status"] == "draft" and held["reversalEntryIds"]

    page.click(".page-header button:has-text('Eliminar')")
    console.confirm()
    page.wait_for_function("() => location.hash === '#/documents'")
    console.wait_loaded()
    assert api_call(base, "GET", f"/documents/{draft['id']}", key)[0] == 404
    assert not console.errors
