"""Plays the AWS event sources for the local stack, generically from the Chalice app's
registered handlers: DynamoDB stream records, SQS messages and schedules. A handler added to
app.py later is wired without touching this file."""
from __future__ import annotations

import datetime as dt
import re
import threading
import time
import traceback
import uuid
from typing import Any, Callable

from chalice.app import DynamoDBEventConfig, ScheduledEventConfig, SQSEventConfig
from chalice.local import LambdaContext

from chalicelib import clock

REGION = "us-east-1"
ACCOUNT = "123456789012"
_RATE = re.compile(r"rate\((\d+)\s+(minute|minutes|hour|hours|day|days)\)")
_UNIT_SECONDS = {"minute": 60, "hour": 3600, "day": 86400}
# A schedule first fires this soon after the stack starts (work that came due while it was down
# is not left waiting for an hour), then once per its interval.
FIRST_SCHEDULE_DELAY_S = 2.0
# With wake-ups, an idle poller still looks this often (a write the signal missed, a message whose
# visibility timeout ended); without them it sleeps its own short interval. Of a queue's receivers
# only the first looks at that pace: the others wait for a send, or for a receive that came back
# full (it wakes them: more may wait), and look only every HELPER_RECHECK_S meanwhile. Eight
# receivers per queue each looking every second were 16 calls a second to the emulator from an
# idle stack, about 6 % of a core for as long as the test session kept the stack.
IDLE_RECHECK_S = 1.0
HELPER_RECHECK_S = 30.0
RECEIVE_AT_MOST = 10  # SQS's own maximum per receive
# The stream's shards are listed again this often (and whenever one has ended), not at every look:
# a table's stream keeps its shard for hours.
SHARDS_RECHECK_S = 30.0
# Lambda runs many deliverers at once for a busy queue; locally, this many threads receive from
# each queue (each handles one batch at a time, like one concurrent invocation).
QUEUE_CONCURRENCY = 8


class Wakeups:
    """Tells the pollers that there is something to read: the embedded moto notifies "dynamodb"
    after every table write and "sqs" after every message sent, so a poller waits on its signal
    instead of polling on a fixed sleep (what AWS's own event source mappings do, long-polling)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._signals: dict[str, list[threading.Event]] = {}

    def subscribe(self, kind: str) -> threading.Event:
        signal = threading.Event()
        with self._lock:
            self._signals.setdefault(kind, []).append(signal)
        return signal

    def notify(self, kind: str) -> None:
        with self._lock:
            signals = list(self._signals.get(kind, ()))
        for signal in signals:
            signal.set()

    def notify_all(self) -> None:
        for kind in list(self._signals):
            self.notify(kind)


def wake_on_stream_records(wakeups: Wakeups) -> None:
    """Wakes the stream poller where moto adds a record to a table's stream, not after the HTTP
    call that wrote: a write that reaches moto another way (in process, without HTTP) wakes it
    too, instead of waiting for its next look a second later."""
    from moto.dynamodb.models.table import StreamShard

    add = getattr(StreamShard.add, "unwoken", StreamShard.add)  # (once: a second call replaces the first)

    def add_and_wake(self: Any, old: Any, new: Any) -> None:
        add(self, old, new)
        wakeups.notify("dynamodb")

    add_and_wake.unwoken = add  # type: ignore[attr-defined]
    StreamShard.add = add_and_wake  # type: ignore[method-assign]


def _context(name: str) -> LambdaContext:
    return LambdaContext(function_name=name, memory_size=512, max_runtime_ms=900_000)


def _plain(value: Any) -> Any:
    """Stream records from boto3 carry datetimes; Lambda events carry epoch seconds."""
    if isinstance(value, dt.datetime):
        return int(value.timestamp())
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


def schedule_seconds(expression: Any, override: float | None) -> float:
    if override:
        return override
    text = expression if isinstance(expression, str) else expression.to_string()
    match = _RATE.fullmatch(text.strip())
    if match:
        return int(match.group(1)) * _UNIT_SECONDS[match.group(2).rstrip("s")]
    return 60.0  # cron expressions: checked every minute locally


class Pollers:
    def __init__(self, app: Any, *, dynamodb_streams: Any, sqs: Any, table_stream_arn: str | None,
                 schedule_override_seconds: float | None = None, log: Callable[[str], None] = print,
                 wakeups: Wakeups | None = None) -> None:
        self.app = app
        self.wakeups = wakeups
        self.streams = dynamodb_streams
        self.sqs = sqs
        self.stream_arn = table_stream_arn
        self.schedule_override = schedule_override_seconds
        self.log = log
        self.stop_event = threading.Event()
        self.threads: list[threading.Thread] = []

    def _handler(self, name: str) -> Callable[[dict[str, Any], Any], Any]:
        return self.app.handler_map[name]

    def start(self) -> "Pollers":
        for source in self.app.event_sources:
            if isinstance(source, DynamoDBEventConfig) and self.stream_arn:
                target = self._poll_stream
            elif isinstance(source, SQSEventConfig):
                for index in range(1, QUEUE_CONCURRENCY):
                    thread = threading.Thread(target=self._poll_queue, args=(source, HELPER_RECHECK_S), daemon=True,
                                              name=f"poller-{source.name}-{index}")
                    thread.start()
                    self.threads.append(thread)
                target = self._poll_queue
            elif isinstance(source, ScheduledEventConfig):
                target = self._run_schedule
            else:
                continue
            thread = threading.Thread(target=target, args=(source,), daemon=True, name=f"poller-{source.name}")
            thread.start()
            self.threads.append(thread)
        return self

    def stop(self) -> None:
        self.stop_event.set()
        if self.wakeups is not None:
            self.wakeups.notify_all()
        for thread in self.threads:
            thread.join(timeout=5)

    def _signal(self, kind: str) -> threading.Event | None:
        return self.wakeups.subscribe(kind) if self.wakeups is not None else None

    def _idle(self, signal: threading.Event | None, fallback_s: float, recheck_s: float = IDLE_RECHECK_S) -> None:
        """Waits for the next write (or `recheck_s`); without wake-ups, `fallback_s`."""
        if signal is None:
            self.stop_event.wait(fallback_s)
        else:
            signal.wait(recheck_s)

    def _invoke(self, name: str, event: dict[str, Any]) -> Any:
        return self._handler(name)(event, _context(name))

    # --- DynamoDB stream ------------------------------------------------------------------------
    def _poll_stream(self, source: DynamoDBEventConfig) -> None:
        iterators: dict[str, str] = {}
        signal = self._signal("dynamodb")
        listed_at = -SHARDS_RECHECK_S
        while not self.stop_event.is_set():
            if signal is not None:
                signal.clear()  # before reading: a write from now on wakes the next wait
            try:
                if time.monotonic() - listed_at >= SHARDS_RECHECK_S:
                    shards = self.streams.describe_stream(StreamArn=self.stream_arn)["StreamDescription"]["Shards"]
                    listed_at = time.monotonic()
                    for shard in shards:
                        if shard["ShardId"] not in iterators:
                            iterators[shard["ShardId"]] = self.streams.get_shard_iterator(
                                StreamArn=self.stream_arn, ShardId=shard["ShardId"],
                                ShardIteratorType="LATEST")["ShardIterator"]
                busy = False
                for shard_id, iterator in list(iterators.items()):
                    response = self.streams.get_records(ShardIterator=iterator, Limit=source.batch_size)
                    if not response.get("NextShardIterator"):
                        listed_at = -SHARDS_RECHECK_S  # the shard ended: its successor is listed at once
                    iterators[shard_id] = response.get("NextShardIterator") or iterator
                    records = response.get("Records", [])
                    busy = busy or len(records) >= source.batch_size
                    if records:
                        event = {"Records": [{**_plain(record), "eventSourceARN": self.stream_arn,
                                              "awsRegion": REGION} for record in records]}
                        self._invoke(source.name, event)
            except Exception:  # a failing handler must not stop the local stack
                self.log(f"stream handler {source.name} failed:\n{traceback.format_exc()}")
                busy = False
            if not busy:  # a full batch means more is waiting: read on at once
                self._idle(signal, 0.5)

    # --- SQS ------------------------------------------------------------------------------------
    def _queue_url(self, source: SQSEventConfig) -> str | None:
        wanted = source.queue or (source.queue_arn or "").rsplit(":", 1)[-1]
        for url in self.sqs.list_queues().get("QueueUrls", []):
            name = url.rsplit("/", 1)[-1]
            if name == wanted or name.endswith(f"-{wanted}"):
                return url
        return None

    def _poll_queue(self, source: SQSEventConfig, recheck_s: float = IDLE_RECHECK_S) -> None:
        url = arn = None
        signal = self._signal("sqs")
        while not self.stop_event.is_set():
            if signal is not None:
                signal.clear()  # before receiving: a message sent from now on wakes the next wait
            try:
                url = url or self._queue_url(source)
                if url is None:
                    self.stop_event.wait(2)
                    continue
                arn = arn or self.sqs.get_queue_attributes(QueueUrl=url,
                                                           AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
                # no long poll: moto would wait holding the stack's lock, stalling every other call.
                # Ten at a time, handed to the handler in batches of its batch size (Lambda's
                # pollers also receive more than one invocation takes).
                messages = self.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=RECEIVE_AT_MOST,
                                                    AttributeNames=["All"], MessageAttributeNames=["All"],
                                                    WaitTimeSeconds=0).get("Messages", [])
                if not messages:
                    self._idle(signal, 0.2, recheck_s)
                    continue
                if self.wakeups is not None and len(messages) == RECEIVE_AT_MOST:
                    self.wakeups.notify("sqs")  # a full receive: more may wait, the other receivers look too
                for start in range(0, len(messages), source.batch_size):
                    self._deliver_batch(source, url, arn, messages[start:start + source.batch_size])
            except Exception:
                self.log(f"queue poller {source.name} failed:\n{traceback.format_exc()}")
                self.stop_event.wait(1)

    def _deliver_batch(self, source: SQSEventConfig, url: str, arn: str, messages: list[dict[str, Any]]) -> None:
        event = {"Records": [{"messageId": m["MessageId"], "receiptHandle": m["ReceiptHandle"],
                              "body": m["Body"], "attributes": m.get("Attributes", {}),
                              "messageAttributes": m.get("MessageAttributes", {}),
                              "md5OfBody": m.get("MD5OfBody"), "eventSource": "aws:sqs",
                              "eventSourceARN": arn, "awsRegion": REGION} for m in messages]}
        try:
            result = self._invoke(source.name, event)
        except Exception:
            # left on the queue: it comes back after its visibility timeout and the redrive
            # policy moves it to the DLQ after maxReceiveCount receives
            self.log(f"queue handler {source.name} failed:\n{traceback.format_exc()}")
            return
        failed = {item["itemIdentifier"] for item in (result or {}).get("batchItemFailures", [])} \
            if isinstance(result, dict) else set()
        for message in messages:
            if message["MessageId"] not in failed:
                self.sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])

    # --- schedules ------------------------------------------------------------------------------
    def _run_schedule(self, source: ScheduledEventConfig) -> None:
        interval = schedule_seconds(source.schedule_expression, self.schedule_override)
        wait = min(interval, FIRST_SCHEDULE_DELAY_S)
        while not self.stop_event.wait(wait):
            wait = interval
            event = {"version": "0", "id": str(uuid.uuid4()), "detail-type": "Scheduled Event",
                     "source": "aws.events", "account": ACCOUNT,
                     "time": clock.now().strftime("%Y-%m-%dT%H:%M:%SZ"),  # (DEVSTACK_NOW's too)
                     "region": REGION, "resources": [f"arn:aws:events:{REGION}:{ACCOUNT}:rule/{source.name}"],
                     "detail": {}}
            try:
                self._invoke(source.name, event)
            except Exception:
                self.log(f"scheduled handler {source.name} failed:\n{traceback.format_exc()}")
