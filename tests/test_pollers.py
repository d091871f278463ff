"""The local stack plays AWS event sources generically from a Chalice app's handlers."""
from __future__ import annotations

import json
import os
import threading

import boto3
import pytest
from chalice import Chalice, Rate

from infra.deploy.resources import create_queues
from infra.devstack.pollers import QUEUE_CONCURRENCY, Pollers, Wakeups, schedule_seconds, wake_on_stream_records


def wait_for(event, seconds=20):
    assert event.wait(seconds), "handler was not invoked in time"


@pytest.mark.reads_table_stream
def test_stream_queue_and_schedule_handlers_are_invoked(table):
    app = Chalice("throwaway")
    seen = {"stream": [], "sqs": [], "schedule": 0}
    got_stream, got_message, got_tick = threading.Event(), threading.Event(), threading.Event()

    @app.on_dynamodb_record(stream_arn="arn:aws:dynamodb:us-east-1:123456789012:table/x/stream/1")
    def on_record(event):
        for record in event:
            seen["stream"].append((record.event_name, record.new_image.get("PK", {}).get("S")))
        got_stream.set()

    @app.on_sqs_message(queue="WebhookDeliveriesQueue")
    def on_message(event):
        seen["sqs"].extend(json.loads(record.body) for record in event)
        got_message.set()

    @app.schedule(Rate(1, unit=Rate.HOURS))
    def every_hour(event):
        seen["schedule"] += 1
        got_tick.set()

    dynamodb, sqs = table.client, boto3.client("sqs")
    queues = create_queues(sqs, "test")
    stream_arn = dynamodb.describe_table(TableName=table.name)["Table"]["LatestStreamArn"]
    # moto's in-process mock matches the streams endpoint only with its trailing slash (DynamoDB Local's
    # own: tests/dynamodb_local.py)
    streams = boto3.client("dynamodbstreams", endpoint_url=os.environ.get(
        "AWS_ENDPOINT_URL_DYNAMODB_STREAMS", "https://streams.dynamodb.us-east-1.amazonaws.com/"))
    pollers = Pollers(app, dynamodb_streams=streams, sqs=sqs,
                      table_stream_arn=stream_arn, schedule_override_seconds=0.2, log=print).start()
    try:
        # records written before the pollers' first look are history, not new events
        threading.Event().wait(1.0)
        dynamodb.put_item(TableName=table.name, Item={"PK": {"S": "C#1#EVT"}, "SK": {"S": "t#1"}})
        sqs.send_message(QueueUrl=queues["WebhookDeliveriesQueue"], MessageBody=json.dumps({"n": 1}))
        wait_for(got_stream)
        wait_for(got_message)
        wait_for(got_tick)
    finally:
        pollers.stop()
    assert ("INSERT", "C#1#EVT") in seen["stream"]
    assert seen["sqs"] == [{"n": 1}]
    assert seen["schedule"] >= 1
    assert sqs.get_queue_attributes(QueueUrl=queues["WebhookDeliveriesQueue"],
                                    AttributeNames=["ApproximateNumberOfMessages"])["Attributes"][
        "ApproximateNumberOfMessages"] == "0"


def test_schedule_intervals():
    assert schedule_seconds(Rate(5, unit=Rate.MINUTES), None) == 300
    assert schedule_seconds("rate(1 hour)", None) == 3600
    assert schedule_seconds("cron(0 6 * * ? *)", None) == 60
    assert schedule_seconds("rate(1 day)", 2.0) == 2.0


class QueueWithoutAws:
    """An SQS client's calls the queue pollers make, counted; `appear` puts a message on the queue
    without a send (as one whose visibility timeout ended comes back), so no wake-up tells of it."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.messages: list[dict] = []
        self.receives = 0

    def list_queues(self):
        return {"QueueUrls": ["http://sqs/123456789012/test-WebhookDeliveriesQueue"]}

    def get_queue_attributes(self, QueueUrl, AttributeNames):
        return {"Attributes": {"QueueArn": "arn:aws:sqs:us-east-1:123456789012:test-WebhookDeliveriesQueue"}}

    def receive_message(self, **_):
        with self.lock:
            self.receives += 1
            taken, self.messages = self.messages[:10], self.messages[10:]
        return {"Messages": taken}

    def delete_message(self, **_):
        pass

    def appear(self, body: str) -> None:
        with self.lock:
            self.messages.append({"MessageId": body, "ReceiptHandle": body, "Body": body})


def test_an_idle_queue_is_looked_at_by_one_receiver_and_a_returning_message_still_arrives():
    """Of a queue's eight receivers only the first looks again every second while nothing is sent
    (eight every second made an idle local stack spend ~6 % of a core); a message that comes back
    without a send (its visibility timeout ended) is still found within about a second."""
    app = Chalice("throwaway")
    delivered = threading.Event()

    @app.on_sqs_message(queue="WebhookDeliveriesQueue")
    def on_message(event):
        delivered.set()

    queue = QueueWithoutAws()
    pollers = Pollers(app, dynamodb_streams=None, sqs=queue, table_stream_arn=None, log=print,
                      wakeups=Wakeups()).start()
    try:
        threading.Event().wait(0.5)  # each receiver's first look
        first_looks = queue.receives
        threading.Event().wait(2.2)
        # the first receiver's two or three looks, none of the seven others'
        assert first_looks == QUEUE_CONCURRENCY and queue.receives - first_looks <= 3, queue.receives
        queue.appear("came back")
        wait_for(delivered, 3)
    finally:
        pollers.stop()


class StreamWithoutAws:
    """A DynamoDB stream's calls the stream poller makes, counted; `end_shard` makes the next read
    answer as a shard that has ended (no next iterator)."""

    def __init__(self) -> None:
        self.listings = self.reads = 0
        self.ended = False

    def describe_stream(self, StreamArn):
        self.listings += 1
        return {"StreamDescription": {"Shards": [{"ShardId": "shard-1"}]}}

    def get_shard_iterator(self, **_):
        return {"ShardIterator": "it-0"}

    def get_records(self, ShardIterator, Limit):
        self.reads += 1
        if self.ended:
            self.ended = False
            return {"Records": []}
        return {"Records": [], "NextShardIterator": f"it-{self.reads}"}


def test_the_stream_poller_lists_the_shards_once_until_one_ends():
    """An idle stream is read every second, its shards listed once (they last for hours), again at
    once when a shard has ended."""
    app = Chalice("throwaway")

    @app.on_dynamodb_record(stream_arn="arn:aws:dynamodb:us-east-1:123456789012:table/x/stream/1")
    def on_record(event):
        pass

    stream = StreamWithoutAws()
    pollers = Pollers(app, dynamodb_streams=stream, sqs=None, table_stream_arn="arn:stream", log=print,
                      wakeups=Wakeups()).start()
    try:
        threading.Event().wait(2.5)
        assert stream.listings == 1 and stream.reads >= 3, (stream.listings, stream.reads)
        stream.ended = True
        threading.Event().wait(2.2)
        assert stream.listings == 2, stream.listings
    finally:
        pollers.stop()


def test_a_full_receive_wakes_the_other_receivers_to_share_the_work():
    """Thirty messages back at once without a send: the first receiver takes ten (a full receive),
    wakes the others, and they deliver side by side (one receiver alone: 30 x 0.3 s = 9 s)."""
    app = Chalice("throwaway")
    delivered: list[str] = []
    done = threading.Event()

    @app.on_sqs_message(queue="WebhookDeliveriesQueue", batch_size=1)
    def on_message(event):
        threading.Event().wait(0.3)  # a slow delivery
        for record in event:
            delivered.append(record.body)
        if len(delivered) == 30:
            done.set()

    queue = QueueWithoutAws()
    pollers = Pollers(app, dynamodb_streams=None, sqs=queue, table_stream_arn=None, log=print,
                      wakeups=Wakeups()).start()
    try:
        threading.Event().wait(0.5)  # each receiver's first look, then they wait
        for number in range(30):
            queue.appear(f"m{number}")
        wait_for(done, 6.5)
    finally:
        pollers.stop()
    assert sorted(delivered) == sorted(f"m{number}" for number in range(30))


@pytest.mark.reads_table_stream
def test_a_write_in_process_wakes_the_stream_poller(table, monkeypatch):
    """The local stack wakes its stream poller where moto adds the stream record, so a write that
    reaches moto without the stack's HTTP endpoint (an in-process client) wakes it as well."""
    from moto.dynamodb.models.table import StreamShard

    monkeypatch.setattr(StreamShard, "add", StreamShard.add)  # put back after the test
    wakeups = Wakeups()
    signal = wakeups.subscribe("dynamodb")
    wake_on_stream_records(wakeups)
    assert not signal.is_set()
    table.client.put_item(TableName=table.name, Item={"PK": {"S": "C#1#EVT"}, "SK": {"S": "t#2"}})
    assert signal.is_set()
