"""The OpenAPI document makes a whole client: openapi-python-client generates every operation and
every model without a warning (infra/deploy/sdk.py, `make sdk`), and the README's walkthrough runs
through that client against the app in-process. Generated once per worker, unformatted (a
second or two)."""
from __future__ import annotations

import datetime
import importlib
import sys
from pathlib import Path

import httpx
import pytest

from infra.deploy.sdk import PACKAGE, generate_python_client, write_document


@pytest.fixture(scope="session")
def generated(tmp_path_factory):
    """(the generated package, the document it was generated from)."""
    out = tmp_path_factory.mktemp("sdk")
    document = write_document(out / "openapi.json")
    generate_python_client(out / "openapi.json", out / "python", formatted=False)  # raises on any warning
    sys.path.insert(0, str(out / "python"))
    try:
        yield importlib.import_module(PACKAGE), document
    finally:
        sys.path.remove(str(out / "python"))


def test_every_operation_and_model_is_generated(generated):
    package, document = generated
    def plain(name: str) -> str:  # the generator snake-cases operationIds (documentId: document_id)
        return name.replace("_", "").lower()

    operations = {plain(operation["operationId"]) for methods in document["paths"].values()
                  for operation in methods.values()}
    modules = {plain(path.stem) for path in Path(package.__path__[0]).glob("api/*/*.py") if path.stem != "__init__"}
    assert modules == operations
    models = importlib.import_module(f"{PACKAGE}.models")
    assert [name for name in document["components"]["schemas"] if not hasattr(models, name)] == []


def in_process(api) -> httpx.MockTransport:
    """The generated client's requests, answered by the app through the local gateway (tests/support.py)."""
    def send(request: httpx.Request) -> httpx.Response:
        answer = api.http.request(request.method, request.url.raw_path.decode(), headers=dict(request.headers),
                                  body=request.content)
        return httpx.Response(answer.status_code, headers=answer.headers, content=answer.body)

    return httpx.MockTransport(send)


def test_the_readme_walkthrough_through_the_generated_client(generated, api, company_a):
    package, _ = generated
    models = importlib.import_module(f"{PACKAGE}.models")
    client = package.AuthenticatedClient(base_url="http://api.local", token=company_a.api_key,
                                         raise_on_unexpected_status=True, httpx_args={"transport": in_process(api)})

    def call(operation: str, status: int, **arguments):
        """An operation by tag module and operationId; its answer must be `status` (an unlisted one raises)."""
        answer = importlib.import_module(f"{PACKAGE}.api.{operation}").sync_detailed(client=client, **arguments)
        assert answer.status_code == status, answer.content[:500]
        return answer.parsed

    today = datetime.date.today().isoformat()
    customer = call("business_partners.post_business_partners", 201, idempotency_key="partner-0001",
                    body=models.PartnerCreate.from_dict({
                        "name": "Distribuidora Lenca", "type": "customer", "taxId": "08011999012345",
                        "credit_limit": 25000, "credit_block_days": 30}))
    found = call("business_partners.get_business_partners", 200, q="lenca")
    assert [partner.id for partner in found.business_partners] == [customer.id]

    product = call("products.post_products", 201, body=models.ProductCreate.from_dict(
        {"code": "CAF-500", "name": "Café molido 500 g", "unitPrice": 120.00, "taxRate": 0.15}))
    product = call("products.put_products_id", 200, id=product.id,
                   body=models.ProductUpdate.from_dict({"unitPrice": 19.99}))
    assert (product.unit_price, product.tax_rate) == (19.99, 0.15)
    assert isinstance(product.created_at, datetime.datetime)

    # the second import creates nothing: 200, listed beside the first one's 201
    call("chart_of_accounts.post_chart_of_accounts_import_default", 201)
    call("chart_of_accounts.post_chart_of_accounts_import_default", 200)
    accounts = {account.code: account.id for kind in ("asset", "equity") for account in call(
        "chart_of_accounts.get_chart_of_accounts", 200, type_=models.GetChartOfAccountsType(kind), limit=100).accounts}
    entry = call("journal_entries.post_journal_entries", 201, body=models.EntryCreate.from_dict({
        "date": today, "description": "Aporte de capital", "status": "posted",
        "lines": [{"chartOfAccountId": accounts["110101"], "debit": 50000.00},
                  {"chartOfAccountId": accounts["3101"], "credit": 50000.00}]}))
    assert entry.date == datetime.date.today()

    call("fiscal_numbering.post_cai", 201, body=models.CaiRangeCreate.from_dict({
        "cai": "35A4E1-6C8E5B-2F49A3-0C6F26-2C3E5A-0A", "branchId": 1, "emissionPoint": "001",
        "documentType": "01", "rangeStart": 1, "rangeEnd": 5000, "deadline": "2099-12-31"}))
    call("payment_conditions_and_methods.post_payment_conditions", 201, body=models.ConditionCreate.from_dict(
        {"name": "Crédito 30 días", "type": "credit", "creditDays": 30}))
    supplier = call("business_partners.post_business_partners", 201, body=models.PartnerCreate.from_dict(
        {"name": "Importadora Maya", "type": "supplier", "paymentConditionId": 1}))
    purchase = call("documents.post_documents", 201, body=models.DocumentCreate.from_dict({
        "type": "103", "businessPartnerId": supplier.id, "supplierDocumentNumber": "000-001-01-00004711",
        "lines": [{"productId": product.id, "quantity": 40, "unitPrice": 70.00}]}))
    invoice = call("documents.post_documents", 201, body=models.DocumentCreate.from_dict({
        "type": "01", "businessPartnerId": customer.id,
        "lines": [{"productId": product.id, "quantity": 3, "unitPrice": 125.50, "discount": 10.00}]}))
    assert (invoice.number, invoice.status) == ("001-001-01-00000001", "confirmed")
    draft = call("documents.post_documents", 201, body=models.DocumentCreate.from_dict({
        "type": "01", "businessPartnerId": customer.id, "status": "draft",
        "lines": [{"description": "Servicio de catering", "quantity": 1, "unitPrice": 900.00, "taxRate": 0.15}]}))
    call("documents.put_documents_id", 200, id=draft.id,
         body=models.DocumentUpdate.from_dict({"notes": "Evento del 30 de noviembre"}))
    call("documents.post_documents_id_confirm", 200, id=draft.id)
    refused = call("documents.post_documents_id_unconfirm", 400, id=purchase.id)
    assert refused.code.value == "INSUFFICIENT_STOCK"

    bank = call("banking.post_bank_accounts", 201, body=models.BankAccountCreate.from_dict({
        "name": "Cuenta corriente", "bankName": "Banco Atlántida", "accountNumber": "0101-22",
        "openingBalanceDate": today, "chartOfAccountId": accounts["110103"]}))
    method = call("payment_conditions_and_methods.post_payments_methods", 201, body=models.MethodCreate.from_dict(
        {"name": "Transferencia", "bankAccountId": bank.id}))
    payment = call("payments.post_payments_documents_document_id_payments", 201, document_id=invoice.id,
                   body=models.PaymentCreate.from_dict({"paymentMethodId": method.id, "amount": 200.00,
                                                        "paymentDate": today, "reference": "TRF-5521"}))
    assert payment.amount == 200.00
    summary = call("credits_.get_credits_client_business_partner_id_summary", 200, business_partner_id=customer.id)
    assert summary.pending_balance > 0

    printed = call("printing_and_sending.post_documents_id_print", 200, id=invoice.id, accept="application/pdf",
                   body=models.PrintRequest.from_dict({"templateId": 1}))
    assert printed.startswith(b"%PDF")
