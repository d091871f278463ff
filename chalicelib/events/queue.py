"""The queues (SQS): webhook deliveries and import/export jobs. The only place that speaks to them."""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from chalicelib.settings import get_settings
from chalicelib.store.table import make_client


class DeliveryQueue:
    def __init__(self, client: Any, url: str) -> None:
        self.client, self.url = client, url

    def send(self, message: dict[str, Any]) -> None:
        self.client.send_message(QueueUrl=self.url, MessageBody=json.dumps(message, separators=(",", ":")))

    def send_batch(self, messages: list[dict[str, Any]]) -> None:
        """Up to 10 messages in one call; any refused raises (the stream then retries the batch)."""
        answer = self.client.send_message_batch(QueueUrl=self.url, Entries=[
            {"Id": str(index), "MessageBody": json.dumps(message, separators=(",", ":"))}
            for index, message in enumerate(messages)])
        if answer.get("Failed"):
            raise RuntimeError(f"SQS refused {len(answer['Failed'])} of {len(messages)} messages: "
                               f"{answer['Failed'][0].get('Code')}")

    def delay(self, receipt_handle: str, seconds: int) -> None:
        """The message comes back after `seconds`: the backoff before its next attempt."""
        self.client.change_message_visibility(QueueUrl=self.url, ReceiptHandle=receipt_handle,
                                              VisibilityTimeout=seconds)


@lru_cache(maxsize=1)
def get_queue() -> DeliveryQueue:
    url = get_settings().webhook_queue_url
    if not url:
        raise RuntimeError("WEBHOOK_QUEUE_URL is not set")
    return DeliveryQueue(make_client("sqs"), url)


def reset_queue() -> None:
    get_queue.cache_clear()


# issue 41: jobs
@lru_cache(maxsize=1)
def get_jobs_queue() -> DeliveryQueue | None:
    """The import and export jobs' queue; None when none is configured (the unit tests): a job
    then runs in the request that made it."""
    url = get_settings().import_queue_url
    return DeliveryQueue(make_client("sqs"), url) if url else None


def reset_jobs_queue() -> None:
    get_jobs_queue.cache_clear()
