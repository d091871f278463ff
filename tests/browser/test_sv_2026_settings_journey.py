"""El Salvador's 2026 formats through the console (issue 40): in the company settings an accountant
sets the date from which the company's DTEs are issued in Hacienda's 2026 formats, its address down
to the district (department, then the municipio of the 2024 division, then the district, each list
following the one before it) and the types of its establishments; a partner's dialog takes its
district the same way and its page names the three places. What the API stored is checked against
the catalogues. Screenshots in Spanish and English, 1280 and 390 px wide."""
from __future__ import annotations

import re
import uuid

from chalicelib.countries.sv.domain import dte_catalogues, dte_formats
from infra.devstack.dte_authority import register_taxpayer
from tests.browser.test_el_salvador_journey import NIT, PASSWORD, RESPONSIBLE, ok, open_sv_company, switch_language
from tests.documents_support import SV_ISSUER
from tests.dte_keys import SIGNING_KEY
from tests.dte_support import CUSTOMER_NIT
from tests.test_console_sv_places import places

WIDTHS = (1280, 390)


def shots(console, name: str) -> None:
    """The page in both languages at both widths, without the notices (read before; a notice stays
    four seconds, which the journey would otherwise wait out before each page's pictures)."""
    page = console.page
    page.evaluate("document.querySelectorAll('#toasts .toast').forEach((note) => note.remove())")
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 860})
        for language in ("es", "en"):
            if page.input_value("#language") != language:
                switch_language(console, language)
            console.shot(f"{name}-{language}-{width}")
    page.set_viewport_size({"width": 1280, "height": 860})
    switch_language(console, "es")


def partner_dialog(console, name: str):
    """The new partner's dialog with its place chosen: 06 San Salvador, 22 San Salvador Este, 17 Soyapango."""
    page = console.page
    page.click(".page-header button.primary")
    dialog = page.locator("dialog")
    dialog.locator("#f-name").fill(name)
    dialog.locator("#f-department").select_option("06")
    dialog.locator("#f-municipality").select_option("22")
    assert options(page, "f-district") == place("06", "22", "17")[1]  # Ilopango, San Martín, Soyapango, Tonacatepeque
    dialog.locator("#f-district").select_option("17")
    dialog.locator("#f-district").scroll_into_view_if_needed()
    return dialog


def place(department: str, municipio: str, district: str) -> tuple[str, list[str]]:
    """How the console names a place ("06 · San Salvador / 23 · SAN SALVADOR CENTRO / 14 · ...", the
    catalogues' names) and the choices of its district's list (empty first)."""
    state = next(one for one in places() if one["code"] == department)
    town = next(one for one in state["municipios"] if one["code"] == municipio)
    named = next(one for one in town["districts"] if one["code"] == district)
    return (f"{department} · {state['name']} / {municipio} · {town['name']} / {district} · {named['name']}",
            [""] + [one["code"] for one in town["districts"]])


def options(page, select_id: str) -> list[str]:
    return page.eval_on_selector(f"[id='{select_id}']", "select => [...select.options].map((o) => o.value)")


def on_new_sv_company(console, name: str, email: str, path: str) -> dict:
    """A new Salvadoran company of the demo user's, the console on its page `path`."""
    company = open_sv_company(console, name, email)
    console.page.reload()
    console.wait_loaded()
    console.goto(path)
    return company


def test_the_company_sets_its_2026_formats_date_and_district(console, demo):
    page, tag = console.page, uuid.uuid4().hex[:6]
    console.login_to_company(demo["email"], demo["password"], demo["companyId"])
    try:
        on_new_sv_company(console, f"Distribuidora Izalco {tag}", "dte@izalco.example", "/settings/company")
        # SV_ISSUER's municipality 14 (before 2024) is the district 14 San Salvador of San Salvador Centro (23)
        assert dte_catalogues.address("06", "14") == ("23", "14")
        assert page.get_attribute("#dte-issuer-place", "data-district") == "14"
        assert page.inner_text("#dte-issuer-place") == place("06", "23", "14")[0]
        assert page.get_attribute("#dte-formats", "data-from") == ""
        assert (page.input_value("[id='f-dteIssuer.department']"), page.input_value("[id='f-dteIssuer.municipality']"),
                page.input_value("[id='f-dteIssuer.district']")) == ("06", "23", "14")
        shots(console, "issuer-legacy")

        # La Libertad: its municipios only, then La Libertad Centro's districts only
        page.select_option("[id='f-dteIssuer.department']", "05")
        municipios = [m["code"] for m in dte_catalogues.catalogue("CAT-013")["departments"]["05"]]
        assert options(page, "f-dteIssuer.municipality") == municipios
        page.select_option("[id='f-dteIssuer.municipality']", "24")
        assert options(page, "f-dteIssuer.district") == place("05", "24", "15")[1]  # Ciudad Arce, San Juan Opico
        page.select_option("[id='f-dteIssuer.district']", "15")
        page.fill("[id='f-dteIssuer.formats2026From']", "2026-12-01")
        page.click("#dte-issuer-form button[type=submit]")
        page.wait_for_selector("#dte-formats[data-from='2026-12-01']")
        console.wait_loaded()
        issuer = ok(console.as_session("GET", "/companies"))["dteIssuer"]
        assert dte_catalogues.address("05", "15") == ("24", "15")
        assert (issuer["department"], issuer["municipality"], issuer["district"]) == ("05", "24", "15")
        assert issuer["formats2026From"] == "2026-12-01"
        # the rest of the issuer kept as it was (dteIssuer is replaced whole)
        assert (issuer["nrc"], issuer["economicActivityCode"], issuer["responsible"]) == (
            SV_ISSUER["nrc"], SV_ISSUER["economicActivityCode"], RESPONSIBLE)
        assert page.inner_text("#dte-issuer-place") == place("05", "24", "15")[0]
        assert page.inner_text("#dte-formats") == "Formatos 2026 (Normativa de Cumplimiento V2.0) desde el 1 dic 2026"
        shots(console, "issuer-2026")
        assert not console.errors
    finally:
        console.as_session("POST", "/auth/switch-company", {"companyId": demo["companyId"]})


def test_the_company_types_its_establishments(console, demo):
    page, tag = console.page, uuid.uuid4().hex[:6]
    console.login_to_company(demo["email"], demo["password"], demo["companyId"])
    try:
        on_new_sv_company(console, f"Bodegas Sonsonate {tag}", "dte@sonsonate.example", "/settings/company")
        page.click("#dte-establishments .establishment-add")
        page.fill("#f-establishment-0-code", "001")
        page.select_option("#f-establishment-0-type", "02")
        page.click("#dte-establishments .establishment-add")
        page.fill("#f-establishment-1-code", "2")  # the EEE of document numbers has three digits
        page.select_option("#f-establishment-1-type", "04")
        page.click("#dte-issuer-form button[type=submit]")
        refusal = page.locator("[data-error-for='dteIssuer.establishments[1].code']")
        refusal.wait_for()
        assert ok(console.as_session("GET", "/companies"))["dteIssuer"]["establishments"] is None  # nothing stored
        refusal.scroll_into_view_if_needed()
        console.shot("establishment-refused", full_page=False)
        page.fill("#f-establishment-1-code", "002")
        page.click("#dte-issuer-form button[type=submit]")
        page.wait_for_selector("#toasts .toast-ok")  # the API took it (the rows were already showing)
        console.wait_loaded()
        issuer = ok(console.as_session("GET", "/companies"))["dteIssuer"]
        assert issuer["establishments"] == [{"code": "001", "type": "02"}, {"code": "002", "type": "04"}]
        assert page.input_value("#f-establishment-1-type") == "04"
        shots(console, "establishments")
        assert not console.errors
    finally:
        console.as_session("POST", "/auth/switch-company", {"companyId": demo["companyId"]})


def test_a_partner_takes_its_district_from_the_lists(console, demo):
    page, tag = console.page, uuid.uuid4().hex[:6]
    console.login_to_company(demo["email"], demo["password"], demo["companyId"])
    try:
        on_new_sv_company(console, f"Comercial Soyapango {tag}", "dte@soyapango.example", "/partners")
        # the dialog as each language and width shows it (a dialog keeps the language it opened in)
        for language in ("en", "es"):
            switch_language(console, language)
            for width in WIDTHS:
                page.set_viewport_size({"width": width, "height": 860})
                partner_dialog(console, "Vista previa")
                console.shot(f"partner-dialog-{language}-{width}", full_page=False)
                page.locator("dialog header button.icon").click()
        page.set_viewport_size({"width": 1280, "height": 860})
        dialog = partner_dialog(console, f"Ferretería El Tornillo {tag}")
        dialog.locator("button[type=submit]").click()
        dialog.wait_for(state="detached")
        (partner,) = ok(console.as_session("GET", f"/business-partners?q=Tornillo+{tag}"))["businessPartners"]
        assert dte_catalogues.address("06", "17") == ("22", "17")
        assert (partner["department"], partner["municipality"], partner["district"]) == ("06", "22", "17")

        console.goto(f"/partners/{partner['id']}")
        assert page.inner_text("#partner-place") == place("06", "22", "17")[0]
        shots(console, "partner-page")
        # the edit dialog shows the three as stored; moved to Ilopango, the same municipio
        page.click(".page-header button:has-text('Editar')")
        dialog = page.locator("dialog")
        assert (dialog.locator("#f-municipality").input_value(), dialog.locator("#f-district").input_value()) == ("22", "17")
        dialog.locator("#f-district").select_option("07")
        dialog.locator("button[type=submit]").click()
        dialog.wait_for(state="detached")
        console.wait_loaded()
        stored = ok(console.as_session("GET", f"/business-partners/{partner['id']}"))
        assert (stored["municipality"], stored["district"]) == ("22", "07")
        assert page.inner_text("#partner-place") == place("06", "22", "07")[0]
        assert not console.errors
    finally:
        console.as_session("POST", "/auth/switch-company", {"companyId": demo["companyId"]})


def test_a_document_shows_the_format_it_was_issued_in(console, demo, stack):
    """A factura issued before the company moves to the 2026 formats (set in the settings form) stays
    "FE v1"; one issued after says "FE v2" and its control number carries the casa matriz's letter."""
    page, tag = console.page, uuid.uuid4().hex[:6]
    console.login_to_company(demo["email"], demo["password"], demo["companyId"])
    try:
        company = open_sv_company(console, f"Librería Santa Tecla {tag}", "dte@tecla.example")
        key = ok(console.as_session("PUT", f"/companies/{company['id']}/dte-signing-key", {"privateKey": SIGNING_KEY}))
        ok(console.as_session("PUT", f"/companies/{company['id']}/dte-authority-credentials", {"password": PASSWORD}))
        authority = re.search(r"El Salvador's tax authority: (\S+)", stack[0].read_log()).group(1)
        register_taxpayer(authority, NIT.replace("-", ""), PASSWORD, key["publicKey"])
        customer = ok(console.as_session("POST", "/business-partners", {
            "name": f"Cliente 2026 {tag}", "type": "customer", "taxId": CUSTOMER_NIT, "email": "cliente@tecla.example",
            "department": "05", "municipality": "15",  # 15 San Juan Opico, district of La Libertad Centro
            "address": "Calle principal 4, San Juan Opico"}))
        sale = {"type": "01", "businessPartnerId": customer["id"],
                "lines": [{"description": "Cuadernos", "quantity": 4, "unitPrice": 2.50, "taxRate": 0.13}]}
        earlier = ok(console.as_session("POST", "/documents", sale))
        assert (earlier["dte"]["version"], earlier["dte"]["status"]) == (1, "accepted")  # fe-fc-v1
        page.reload()
        console.wait_loaded()
        console.goto("/settings/company")
        page.fill("[id='f-dteIssuer.formats2026From']", "2026-11-01")  # before today: today's documents are 2026
        page.click("#dte-issuer-form button[type=submit]")
        page.wait_for_selector("#dte-formats[data-from='2026-11-01']")
        console.wait_loaded()

        document = ok(console.as_session("POST", "/documents", sale))
        # 4 x 2.50 = 10.00; IVA 13 % of 10.00 = 1.30; total 11.30
        assert (document["subtotal"], document["taxTotal"], document["total"]) == (10, 1.3, 11.3)
        dte = document["dte"]
        assert (dte["tipoDte"], dte["version"], dte["status"]) == ("01", 2, "accepted"), dte
        assert dte_formats.version_of("01", dte_formats.EDITION_2026) == 2
        # SV_ISSUER's type: 02 casa matriz (M), document number 001-001-...: establishment M001, point of sale P001
        assert dte["numeroControl"].startswith("DTE-01-M001P001-")
        console.goto(f"/documents/{document['id']}")
        assert page.inner_text("#dte-version") == "FE v2"
        assert page.inner_text("#dte-numero-control") == dte["numeroControl"]
        shots(console, "document-2026")
        # the one issued before keeps its version
        console.goto(f"/documents/{earlier['id']}")
        assert page.inner_text("#dte-version") == "FE v1"
        assert not page.inner_text("#dte-numero-control").startswith("DTE-01-M")
        assert not console.errors
    finally:
        console.as_session("POST", "/auth/switch-company", {"companyId": demo["companyId"]})
