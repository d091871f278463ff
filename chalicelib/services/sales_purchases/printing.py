"""Printing documents and journal entries with a report template, and e-mailing a document's
PDF. A print reads and renders (nothing is stored); a sending renders, hands the message to SES
and records the sending in the document's partition in one transaction."""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

from chalicelib import clock, countries
from chalicelib.domain.records import DocumentRecord
from chalicelib.errors import ApiError, NotFound
from chalicelib.events import mail
from chalicelib.messages.phrases import Phrase
from chalicelib.observability import logger
from chalicelib.pdf import catalog, content
from chalicelib.services import idempotency
from chalicelib.services.accounting import chart
from chalicelib.services.accounting.posting import get_entry
from chalicelib.services.commands import Command
from chalicelib.services.sales_purchases import documents
from chalicelib.store import keys
from chalicelib.store.listing import Page
from chalicelib.store.repositories import documents as document_store
from chalicelib.store.table import Table
from chalicelib.store.transaction import LostRace

EMAIL_CHANNEL = "email"
DEFAULT_MESSAGE = "Estimado cliente:\n\nAdjuntamos {title} No. {number}.\n\nSaludos cordiales,\n{company}"


@dataclass(frozen=True)
class Printout:
    filename: str
    content: bytes


def list_templates() -> list[dict[str, Any]]:
    return [template.view() for template in catalog.TEMPLATES.values()]


def find_template(template_id: int | None, resource: str) -> catalog.ReportTemplate:
    """The template named (a 400 when it does not exist or prints another resource), else the
    resource's default."""
    if template_id is None:
        return catalog.DEFAULTS[resource]
    template = catalog.TEMPLATES.get(template_id)
    if template is None:
        raise ApiError(Phrase("There is no report template {}; GET /report-templates lists them.", template_id),
                       code="REPORT_TEMPLATE_NOT_FOUND", details=_template_detail("no such report template"))
    if template.resource != resource:
        raise ApiError(Phrase("Report template {} ({}) prints a {}, not a {}.",
                              template_id, template.key, template.resource, resource),
                       code="REPORT_TEMPLATE_MISMATCH",
                       details=_template_detail(Phrase("prints a {}, not a {}", template.resource, resource)))
    return template


def _template_detail(message: str) -> list[dict[str, str]]:
    return [{"field": "templateId", "message": message}]


# --- documents ------------------------------------------------------------------------------------

def _document_renderer(template: catalog.ReportTemplate) -> Callable[..., bytes]:
    # the PDF library loads with the first print, not with the API
    if template is catalog.TICKET:
        from chalicelib.pdf import ticket
        return ticket.render
    from chalicelib.pdf import invoice
    return invoice.render


Record = dict[str, Any]


def _document_parts(table: Table, company_id: int, document_id: int) -> tuple[Record, Record, DocumentRecord]:
    """The company, the partner and the document: one GetItem and one BatchGetItem."""
    document = documents.get_document(table, company_id, document_id)
    partner_key = keys.entity(company_id, keys.PARTNER, document["businessPartnerId"])
    found = table.batch_get([keys.company(company_id), partner_key])
    company = found.get(keys.pair(keys.company(company_id)))
    if company is None:
        raise NotFound("Company not found.")
    return company, found.get(keys.pair(partner_key)) or {}, document


def document_filename(document: DocumentRecord) -> str:
    return f"{document['number']}.pdf" if document.get("number") else f"documento-{int(document['id'])}.pdf"


def print_document(table: Table, company_id: int, document_id: int, template_id: int | None) -> Printout:
    template = find_template(template_id, catalog.DOCUMENT)
    company, partner, document = _document_parts(table, company_id, document_id)
    return Printout(document_filename(document), _document_renderer(template)(company, partner, document))


# --- journal entries ------------------------------------------------------------------------------

def print_entry(table: Table, company_id: int, entry_id: int, template_id: int | None) -> Printout:
    find_template(template_id, catalog.JOURNAL_ENTRY)
    entry = get_entry(table, company_id, entry_id)
    account_keys = {line["chartOfAccountId"]: chart.account_key(company_id, line["chartOfAccountId"])
                    for line in entry["lines"]}
    found = table.batch_get([keys.company(company_id), *account_keys.values()])
    company = found.get(keys.pair(keys.company(company_id))) or {}
    accounts = {account_id: found[keys.pair(key)] for account_id, key in account_keys.items()
                if keys.pair(key) in found}
    from chalicelib.pdf import journal_entry
    return Printout(f"asiento-{entry_id}.pdf", journal_entry.render(company, entry, accounts))


# --- sending --------------------------------------------------------------------------------------

def send_document(command: Command, fields: dict[str, Any]) -> dict[str, Any]:
    """Renders the document with the template, e-mails it as an attachment and records the
    sending. SES refusing the message changes nothing (a 4xx/5xx JSON error)."""
    if fields.get("sendFrom", EMAIL_CHANNEL) != EMAIL_CHANNEL:
        raise ApiError(Phrase("Documents can only be sent by e-mail (\"{}\"), not \"{}\".",
                              EMAIL_CHANNEL, fields['sendFrom']), code="CHANNEL_UNSUPPORTED",
                       details=[{"field": "sendFrom", "message": Phrase("only \"{}\" is supported", EMAIL_CHANNEL)}])
    template = find_template(fields.get("templateId"), catalog.DOCUMENT)
    company_id, document_id = command.company_id, int(fields["documentId"])
    company, partner, document = _document_parts(command.table, company_id, document_id)
    title, number = content.title(document, company, partner), content.number(document, company)
    pdf = _document_renderer(template)(company, partner, document)
    attachments = _attachments(command.table, company, document, pdf)
    subject = fields.get("subject") or f"{title.capitalize()} No. {number} - {company.get('name', '')}"
    text = fields.get("message") or DEFAULT_MESSAGE.format(title=title.lower(), number=number,
                                                           company=company.get("name", ""))
    mailer = mail.get_mailer()
    message = mail.build_message(sender=mailer.sender, sender_name=company.get("name"), to=fields["email"],
                                 subject=subject, text=text, attachments=attachments, reply_to=company.get("email"))
    message_id = mailer.send(message, fields["email"])

    sent_at = clock.now_iso()
    record = {**keys.document_sending(company_id, document_id, sent_at, message_id),
              **keys.document_sending_index(company_id, document_id, sent_at, message_id),
              "itemType": "DOCUMENT_SENDING", "documentId": document_id, "channel": EMAIL_CHANNEL,
              "email": fields["email"], "subject": subject, "templateId": template.id,
              "attachment": attachments[0].filename, "attachments": [attachment.filename for attachment in attachments],
              "messageId": message_id, "sentAt": sent_at,
              "sentBy": command.principal.user_id}
    return _record_sending(command, record)


def _attachments(table: Table, company: dict[str, Any], document: DocumentRecord,
                 pdf: bytes) -> tuple[mail.Attachment, ...]:
    """The PDF, or what the company's country hands the receiver with it (El Salvador: a DTE the
    authority has answered goes with its JSON, each named by its generation code)."""
    return (countries.pack_of_document(document, company).hooks.mail_attachments(table, company, document, pdf)
            or (mail.Attachment(document_filename(document), pdf),))


# The message is gone once SES took it: a lost race while recording it retries the recording
# only. Running the whole command again (what a LostRace does) would send it a second time.
RECORD_ATTEMPTS = 5


def _record_sending(command: Command, record: dict[str, Any]) -> dict[str, Any]:
    attempt = 0
    while True:
        transaction = command.transaction()
        transaction.put_new(record)
        transaction.increment(keys.document_sending_count(command.company_id, int(record["documentId"])), "total")
        try:
            return command.commit(transaction, view_sending(record))
        except LostRace:
            attempt += 1
            # a concurrent twin with the same Idempotency-Key recorded its answer first: the
            # command runs again, finds that answer and replays it without sending
            twin = command.idempotency is not None and idempotency.find_answer(
                command.table, command.company_id, command.idempotency) is not None
            if twin:
                raise
            if attempt == RECORD_ATTEMPTS:  # still answered as sent: an error would make the client send again
                logger.error("document e-mailed but its sending not recorded",
                             extra={"companyId": command.company_id, "record": view_sending(record)})
                return view_sending(record)
            time.sleep(0.01 * 2 ** attempt)


def view_sending(item: dict[str, Any]) -> dict[str, Any]:
    shown = {name: value for name, value in item.items() if name not in keys.INDEX_ATTRIBUTES and name != "itemType"}
    shown.setdefault("attachments", [item["attachment"]])  # recorded when a sending had one attachment
    return shown


def list_sendings(table: Table, company_id: int, document_id: int, page: int, limit: int,
                  cursor: str | None) -> Page:
    """A document's sendings, newest first."""
    documents.get_document(table, company_id, document_id)
    counter = table.get(keys.document_sending_count(company_id, document_id)) or {}
    listed = document_store.sendings_page(table, company_id, document_id, page, limit, cursor,
                                          int(counter.get("total", 0)))
    return Page(items=[view_sending(item) for item in listed.items], total=listed.total, page=listed.page,
                limit=listed.limit, next_cursor=listed.next_cursor)
