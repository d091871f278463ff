"""Issue 44, item 7 (records): cost centres and the papers behind a record, in the console. In a fresh
Honduran company the accountant creates the dimension "Sucursal" with two values on the cost-centres
page (a value renamed, a second dimension deactivated: no longer offered on lines), issues a draft
invoice of 2 x L 100.00 whose line carries "Centro", a manual entry whose debit line carries "Norte",
attaches a supplier's PDF to the invoice draft (the browser PUTs it to S3 itself, at the presigned
address), downloads it byte for byte, and deletes it; a file of the wrong type or over 10 MB is refused
before anything is sent; a bank statement line carries the bank's receipt (a PNG) from the reconciliation
page. Screenshots in Spanish and English at 1280 and 390 px wide."""
from __future__ import annotations

import base64
import uuid
from pathlib import Path

from tests.browser.conftest import created, fresh_company, read
from tests.browser.conftest import shot_without_notices as shot
from tests.browser.reports_support import switch_language, today
from tests.browser.test_year_close_journey import account_ids

WIDTHS = (1280, 390)
# a small but real PDF: what a supplier's scanned invoice is, byte for byte
SUPPLIER_PDF = (b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n"
                b"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"
                + bytes(range(256)))  # every byte value: nothing may be re-encoded on the way


def dimensions_of(console) -> list[dict]:
    answer = read(console, "/dimensions")
    return answer.get("dimensions") or answer.get("data") or []


def in_dialog(page, field: str, value: str) -> None:
    page.locator(f"dialog[open] #f-{field}").fill(value)


def submit_dialog(console) -> None:
    console.page.locator("dialog[open] button[type=submit]").click()
    console.page.wait_for_selector("dialog[open]", state="detached")
    console.wait_loaded()


def attachments_of(console, record_type: str, record_id: int) -> list[dict]:
    answer = read(console, f"/attachments?recordType={record_type}&recordId={record_id}")
    return answer.get("data") or answer.get("attachments") or []


def test_cost_centres_on_lines_and_a_pdf_behind_the_invoice(console, demo, stack, tmp_path):
    page = console.page
    tag = uuid.uuid4().hex[:4].upper()
    with fresh_company(console, demo, f"Centros {tag}"):
        accounts = account_ids(console)
        customer = created(console, "/business-partners", {"name": f"Ferretería Norte {tag}", "type": "customer",
                                                           "taxId": "08011999000125"})

        # --- the cost-centres page: a dimension, two values (one renamed), another deactivated --------------
        console.goto("/settings/cost-centres")
        page.locator("text=Aún no hay dimensiones").wait_for()
        page.click(".new-dimension")
        in_dialog(page, "name", "Sucursal")
        submit_dialog(console)
        card = page.locator(".dimension-card", has_text="Sucursal")
        for name, code in (("Centro", "CC-01"), ("Norte", "CC-02")):
            card.locator(".add-value").click()
            in_dialog(page, "name", name)
            in_dialog(page, "code", code)
            submit_dialog(console)
        card = page.locator(".dimension-card", has_text="Sucursal")
        card.locator("tbody tr", has_text="Norte").locator(".edit-value").click()
        in_dialog(page, "name", "Zona Norte")
        submit_dialog(console)
        page.click(".new-dimension")
        in_dialog(page, "name", "Proyeto")
        submit_dialog(console)
        page.locator(".dimension-card", has_text="Proyeto").locator(".rename-dimension").click()
        in_dialog(page, "name", "Proyecto")
        submit_dialog(console)
        page.locator(".dimension-card", has_text="Proyecto").locator(".toggle-dimension").click()
        console.confirm()
        page.locator(".dimension-card", has_text="Proyecto").locator(".badge-inactive").wait_for()
        dimensions = {d["name"]: d for d in dimensions_of(console)}
        assert set(dimensions) == {"Sucursal", "Proyecto"} and dimensions["Proyecto"]["isActive"] is False
        branch = dimensions["Sucursal"]
        values = {v["name"]: v for v in branch["values"]}
        assert {(v["name"], v["code"], v["isActive"]) for v in values.values()} == {
            ("Centro", "CC-01", True), ("Zona Norte", "CC-02", True)}
        centre, north = values["Centro"], values["Zona Norte"]
        shot(console, "cost-centres-es-1280")

        # --- a manual entry whose debit line carries "Zona Norte" -----------------------------------------
        console.goto("/accounting/entries")
        page.locator(".page-actions button", has_text="Nueva partida").click()
        form = page.locator("dialog form")
        form.locator("[data-field=date]").fill(today().isoformat())
        form.locator("[data-field=description]").fill("Combustible de la sucursal norte")
        # L 350.00 of fuel (6203) paid from the cash box (110101): the expense carries the branch
        form.locator("[data-field='lines[0].chartOfAccountId']").select_option(str(accounts["6203"]))
        form.locator("[data-field='lines[0].debit']").fill("350")
        form.locator("[data-field='lines[1].chartOfAccountId']").select_option(str(accounts["110101"]))
        form.locator("[data-field='lines[1].credit']").fill("350")
        form.locator(".entry-line").first.locator(".line-dims select").select_option(str(north["id"]))
        shot(console, "entry-form-es-1280")
        form.locator("button[type=submit]").click()
        page.wait_for_selector("dialog[open]", state="detached")
        console.wait_loaded()
        entry_id = int(page.evaluate("location.hash").rsplit("/", 1)[1])
        entry = read(console, f"/journal-entries/{entry_id}")
        assert entry["lines"][0]["dimensions"] == [{"dimensionId": branch["id"], "valueId": north["id"]}]
        assert not entry["lines"][1].get("dimensions")
        assert page.locator("td.line-dimensions").first.inner_text() == "Sucursal: CC-02 · Zona Norte"
        assert page.locator(".attachments").is_visible()
        shot(console, "entry-es-1280")

        # --- a draft invoice whose line carries "Centro" ---------------------------------------------------
        console.goto("/documents/new?type=01")
        console.pick("businessPartnerId", customer)
        page.fill("#f-lines-0-description", "Cemento gris")
        page.fill("#f-lines-0-quantity", "2")
        page.fill("#f-lines-0-unitPrice", "100")
        pickers = page.locator("#document-form .line .line-dims select")
        # the inactive dimension is not offered: one select, Sucursal's
        assert pickers.count() == 1
        assert pickers.first.get_attribute("data-dimension") == str(branch["id"])
        pickers.first.select_option(str(centre["id"]))
        page.check("#f-draft")
        shot(console, "invoice-form-es-1280")
        page.click("#document-form button[type=submit]")
        page.wait_for_selector("#doc-number")
        console.wait_loaded()
        document_id = int(page.evaluate("location.hash").rsplit("/", 1)[1])
        invoice = read(console, f"/documents/{document_id}")
        assert invoice["status"] == "draft"
        assert invoice["lines"][0]["dimensions"] == [{"dimensionId": branch["id"], "valueId": centre["id"]}]
        assert page.locator("td.line-dimensions").first.inner_text() == "Sucursal: CC-01 · Centro"

        # --- papers: the wrong kind and the too big refused before anything is sent -----------------------
        panel = page.locator(".attachments")
        wrong = tmp_path / "notas.txt"
        wrong.write_text("no")
        panel.locator(".attachment-file").set_input_files(str(wrong))
        panel.locator(".attachment-upload").click()
        assert panel.locator(".attachment-problem").inner_text() == "Solo se adjuntan archivos PDF, JPEG, PNG o XML."
        big = tmp_path / "escaneo-grande.pdf"
        big.write_bytes(b"%PDF-1.4\n" + b"0" * (12 * 1024 * 1024))  # 12 MB (and 9 bytes): over the 10 MB
        panel.locator(".attachment-file").set_input_files(str(big))
        panel.locator(".attachment-upload").click()
        assert panel.locator(".attachment-problem").inner_text() == "El archivo pesa 12 MB: el máximo es 10 MB."
        assert attachments_of(console, "document", document_id) == []

        # --- the supplier's PDF attached: announced to the API, PUT to S3 by the browser ------------------
        pdf = tmp_path / "factura-proveedor.pdf"
        pdf.write_bytes(SUPPLIER_PDF)
        panel.locator(".attachment-file").set_input_files(str(pdf))
        panel.locator(".attachment-upload").click()
        row = panel.locator("tbody tr", has_text="factura-proveedor.pdf")
        row.wait_for()
        listed = attachments_of(console, "document", document_id)
        assert [(a["fileName"], a["contentType"], a["size"]) for a in listed] == [
            ("factura-proveedor.pdf", "application/pdf", len(SUPPLIER_PDF))]
        shot(console, "invoice-attachment-es-1280")

        # downloaded from the presigned address: the very bytes uploaded
        with page.expect_download() as downloading:
            row.locator(".attachment-download").click()
        assert Path(downloading.value.path()).read_bytes() == SUPPLIER_PDF

        # --- both languages, both widths, no page wider than the screen -----------------------------------
        pages = {"cost-centres": "/settings/cost-centres", "invoice": f"/documents/{document_id}",
                 "entry": f"/accounting/entries/{entry_id}"}
        for language in ("es", "en"):
            switch_language(console, language)
            for width in WIDTHS:
                page.set_viewport_size({"width": width, "height": 860})
                for name, route in pages.items():
                    console.goto(route)
                    page.locator(".attachments tbody, .attachments .empty, .dimension-card").first.wait_for()
                    assert page.evaluate("document.documentElement.scrollWidth") <= width, (language, width, name)
                    shot(console, f"{name}-{language}-{width}")
        page.set_viewport_size({"width": 1280, "height": 860})
        switch_language(console, "es")

        # --- deleted while the invoice is a draft ---------------------------------------------------------
        console.goto(f"/documents/{document_id}")
        page.locator(".attachments tbody tr", has_text="factura-proveedor.pdf").locator(".attachment-delete").click()
        console.confirm()
        page.locator(".attachments .empty").wait_for()
        assert attachments_of(console, "document", document_id) == []

        # --- a value deactivated; at 5 dimensions no sixth is offered ------------------------------------
        console.goto("/settings/cost-centres")
        page.locator(".dimension-card", has_text="Sucursal").locator("tbody tr", has_text="Centro").locator(
            ".toggle-value").click()
        console.confirm()
        # the card is drawn again from the answer: the value's button is no longer the red one
        page.locator(".dimension-card", has_text="Sucursal").locator("tbody tr", has_text="Centro").locator(
            ".toggle-value:not(.danger)").wait_for()
        branch = next(d for d in dimensions_of(console) if d["name"] == "Sucursal")
        assert {v["name"]: v["isActive"] for v in branch["values"]} == {"Centro": False, "Zona Norte": True}
        for name in ("Departamento", "Vehículo", "Cliente"):  # 2 + 3 = 5, the most a company has
            created(console, "/dimensions", {"name": name})
        console.goto("/settings/cost-centres")
        assert page.locator(".new-dimension").is_disabled()
        assert page.inner_text("#dimensions-intro") == (
            "La empresa ya tiene las 5 dimensiones que se permiten: desactive o renombre una.")
    assert not console.errors


# a 1 x 1 PNG (the bank's stamped receipt, photographed)
RECEIPT_PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
                            "0000000d49444154789c6360f8cfc000000301010018dd8db00000000049454e44ae426082")


def test_a_bank_line_carries_its_receipt(console, demo, stack, tmp_path):
    """A statement line's papers, from the reconciliation page: the bank's receipt of its monthly charge
    attached (a PNG), listed, and deleted while the line is not matched."""
    page = console.page
    tag = uuid.uuid4().hex[:4].upper()
    with fresh_company(console, demo, f"Recibos {tag}"):
        accounts = account_ids(console)
        bank = created(console, "/bank-accounts", {"name": f"BAC {tag}", "currency": "HNL", "openingBalance": "1000.00",
                                                   "openingBalanceDate": "2020-01-01",
                                                   "chartOfAccountId": accounts["110103"]})
        status, _, mapping = console.as_session("PUT", f"/bank-accounts/{bank['id']}/statement-mapping", {
            "dateColumn": "Fecha", "dateFormat": "DD/MM/YYYY", "descriptionColumn": "Descripción",
            "amountColumn": "Monto"})
        assert status == 200, mapping
        day = today().strftime("%d/%m/%Y")
        statement = f"Fecha,Descripción,Monto\r\n{day},COMISION MANEJO DE CUENTA {tag},-57.50\r\n".encode()
        created(console, f"/bank-accounts/{bank['id']}/statements", {
            "fileName": "estado.csv", "content": base64.b64encode(statement).decode()})
        line = read(console, f"/bank-accounts/{bank['id']}/statement-lines")["statementLines"][0]

        console.goto(f"/banking/{bank['id']}/statements")
        page.locator(".rec-row", has_text="COMISION MANEJO").locator(".rec-attachments").click()
        dialog = page.locator("dialog[open]")
        dialog.locator(".attachments .empty").wait_for()
        receipt = tmp_path / "recibo-comision.png"
        receipt.write_bytes(RECEIPT_PNG)
        dialog.locator(".attachment-file").set_input_files(str(receipt))
        assert dialog.locator(".attachment-chosen").inner_text() == "recibo-comision.png (70 B)"
        dialog.locator(".attachment-upload").click()
        dialog.locator("tbody tr", has_text="recibo-comision.png").wait_for()
        listed = read(console, f"/attachments?recordType=statementLine&recordId={line['id']}")["data"]
        assert [(a["fileName"], a["contentType"], a["size"], a["status"]) for a in listed] == [
            ("recibo-comision.png", "image/png", len(RECEIPT_PNG), "uploaded")]
        for language in ("es", "en"):
            for width in WIDTHS:
                page.set_viewport_size({"width": width, "height": 860})
                shot(console, f"bank-line-{language}-{width}")
            if language == "es":
                page.locator("dialog button.icon").click()
                switch_language(console, "en")
                page.locator(".rec-row", has_text="COMISION MANEJO").locator(".rec-attachments").click()
                dialog.locator("tbody tr", has_text="recibo-comision.png").wait_for()
        page.set_viewport_size({"width": 1280, "height": 860})
        dialog.locator(".attachment-delete").click()
        page.locator("dialog button.primary.danger").click()  # the confirmation, over the papers' dialog
        page.locator("dialog[open] .attachments .empty").wait_for()
        assert read(console, f"/attachments?recordType=statementLine&recordId={line['id']}")["data"] == []
        page.locator("dialog button.icon").click()
        switch_language(console, "es")
    assert not console.errors


def test_a_viewer_only_reads_papers_and_an_upload_never_made_leaves_a_posted_entry(console_factory, demo, stack):
    """Upload and delete are shown to the roles that may write only (a viewer would get 403); a paper
    whose file never arrived (pending) is deletable from a posted entry (a stored one is not)."""
    from tests.browser.test_access_journey import accept, invitation_link, invite

    owner = console_factory()
    owner.login_to_company(demo["email"], demo["password"], demo["companyId"])
    accounts = account_ids(owner)
    entry = created(owner, "/journal-entries", {"date": today().isoformat(), "description": "Combustible",
                                                "status": "posted", "lines": [
                                                    {"chartOfAccountId": accounts["6203"], "debit": 80},
                                                    {"chartOfAccountId": accounts["110101"], "credit": 80}]})
    route = f"/accounting/entries/{entry['id']}"
    created(owner, "/attachments", {"recordType": "journalEntry", "recordId": entry["id"],
                                    "fileName": "nunca-llego.pdf", "contentType": "application/pdf",
                                    "size": 100})
    owner.goto(route)
    row = owner.page.locator(".attachments tbody tr", has_text="nunca-llego.pdf")
    row.wait_for()
    assert row.locator("[data-status=pending]").count() == 1
    shot(owner, "posted-entry-pending-paper-es-1280")
    row.locator(".attachment-delete").click()
    owner.confirm()
    owner.page.locator(".attachments .empty").wait_for()
    assert attachments_of(owner, "journalEntry", entry["id"]) == []

    # a viewer: the list and the download, no upload, no delete
    created(owner, "/attachments", {"recordType": "journalEntry", "recordId": entry["id"],
                                    "fileName": "pendiente.pdf", "contentType": "application/pdf", "size": 100})
    email = f"lector-{uuid.uuid4().hex[:8]}@example.com"
    invite(owner, email, "Luis Lector", "viewer")
    viewer = console_factory()
    accept(viewer, invitation_link(stack[0], email), "clave-lector-123", "Luis Lector")
    viewer.goto(route)
    panel = viewer.page.locator(".attachments")
    panel.locator("tbody tr", has_text="pendiente.pdf").wait_for()
    assert panel.locator(".attachment-download").count() == 1
    assert (panel.locator(".attachment-upload").count(), panel.locator(".attachment-file").count(),
            panel.locator(".attachment-delete").count()) == (0, 0, 0)
    for language in ("es", "en"):
        switch_language(viewer, language)
        viewer.goto(route)
        panel.locator("tbody tr").first.wait_for()
        for width in WIDTHS:
            viewer.page.set_viewport_size({"width": width, "height": 860})
            shot(viewer, f"viewer-entry-papers-{language}-{width}")
    switch_language(viewer, "es")
    assert not owner.errors and not viewer.errors
