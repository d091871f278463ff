"""Outbound e-mail through Amazon SES (SendRawEmail): the only place that speaks to SES."""
from __future__ import annotations

from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formataddr, make_msgid
from functools import lru_cache
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from chalicelib.domain.mail import MAIL_ADDRESS, header_text
from chalicelib.errors import ApiError
from chalicelib.observability import logger
from chalicelib.settings import get_settings
from chalicelib.store.table import make_client


class MailNotSent(ApiError):
    """SES refused or could not take the message: nothing was sent."""
    code = "EMAIL_NOT_SENT"
    message = "The e-mail service did not accept the message; nothing was sent."


# SES error codes -> what the caller is told. A rejection of the message or sender is the
# service's configuration (an unverified sender, the SES sandbox): 502. Throttling and paused
# sending pass: 503, retry later.
_REJECTED = ("MessageRejected", "MailFromDomainNotVerifiedException", "ConfigurationSetDoesNotExistException",
             "AccessDenied", "AccessDeniedException")
_BUSY = ("Throttling", "ThrottlingException", "SendingPausedException", "AccountSendingPausedException",
         "ServiceUnavailable", "LimitExceeded")


@dataclass(frozen=True)
class Attachment:
    filename: str
    content: bytes
    media_type: str = "application/pdf"


def build_message(*, sender: str, sender_name: str | None, to: str, subject: str, text: str,
                  attachments: tuple[Attachment, ...] = (), reply_to: str | None = None) -> EmailMessage:
    """The text body, then the attachments in order (multipart/mixed); plain text without any."""
    message = EmailMessage()
    name = header_text(sender_name or "")
    message["From"] = formataddr((name, sender)) if name else sender
    message["To"] = to
    if reply_to and MAIL_ADDRESS.fullmatch(reply_to):  # the company's own e-mail: stored, not vetted for mail
        message["Reply-To"] = reply_to
    message["Subject"] = header_text(subject)
    message["Message-ID"] = make_msgid(domain=sender.rsplit("@", 1)[-1])
    # SES takes 7-bit messages: Spanish text travels quoted-printable
    message.set_content(text, cte="quoted-printable")
    for attachment in attachments:
        maintype, subtype = attachment.media_type.split("/", 1)
        message.add_attachment(attachment.content, maintype=maintype, subtype=subtype, filename=attachment.filename)
    return message


class Mailer:
    def __init__(self, client: Any, sender: str) -> None:
        self.client, self.sender = client, sender

    def send(self, message: EmailMessage, recipient: str) -> str:
        """Sends the message to `recipient`; returns SES's message id."""
        try:
            response = self.client.send_raw_email(Source=self.sender, Destinations=[recipient],
                                                  RawMessage={"Data": message.as_bytes()})
        except ClientError as error:
            code = error.response.get("Error", {}).get("Code", "")
            logger.warning("SES refused a message", extra={"sesError": code,
                                                           "sesMessage": error.response.get("Error", {}).get("Message")})
            if code in _BUSY:
                raise ApiError("The e-mail service is busy; nothing was sent. Retry shortly.", code="EMAIL_SERVICE_BUSY") from None
            if code == "InvalidParameterValue":
                raise ApiError("The e-mail service refused the recipient address; nothing was sent.",
                               code="EMAIL_ADDRESS_REFUSED",
                               details=[{"field": "email", "message": "refused by the e-mail service"}]) from None
            if code in _REJECTED:
                raise MailNotSent("The e-mail service rejected the message (is the sender address verified?); "
                                  "nothing was sent.", code="EMAIL_REJECTED") from None
            raise MailNotSent() from None
        except BotoCoreError as error:
            logger.warning("SES unreachable", extra={"sesError": type(error).__name__})
            raise MailNotSent() from None
        return str(response["MessageId"])


@lru_cache(maxsize=1)
def get_mailer() -> Mailer:
    return Mailer(make_client("ses"), get_settings().mail_from)


def reset_mailer() -> None:
    get_mailer.cache_clear()
