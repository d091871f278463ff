"""The local stack's own clients answered by its emulator in the same process, without the socket
(infra/devstack/in_process_aws.py): botocore builds, signs and parses the calls as ever; the app
the stack serves on its port answers them, bodies byte for byte, errors as modeled errors, and
a message sent still wakes the pollers."""
from __future__ import annotations

import boto3
import pytest
from botocore.exceptions import ClientError
from botocore.httpsession import URLLib3Session
from moto.dynamodb.models.table import StreamShard
from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app

from infra.devstack.in_process_aws import without_the_wire
from infra.devstack.local import EmulatedAws


@pytest.fixture
def served(aws, monkeypatch):
    """A client maker whose clients reach a fresh EmulatedAws only in process: any socket fails."""
    monkeypatch.setattr(StreamShard, "add", StreamShard.add)  # (EmulatedAws hooks it: put back afterwards)
    emulator = EmulatedAws(DomainDispatcherApplication(create_backend_app))

    def no_socket(*_args, **_kwargs):
        raise AssertionError("a call went to the socket")

    monkeypatch.setattr(URLLib3Session, "send", no_socket)

    def client(service: str):
        made = boto3.client(service, region_name="us-east-1", endpoint_url="http://127.0.0.1:1")
        return without_the_wire(emulator)(made)
    return client, emulator


def test_a_file_goes_up_and_comes_back_byte_for_byte(served):
    client, _ = served
    s3 = client("s3")
    s3.create_bucket(Bucket="files")
    content = bytes(range(256)) * 40  # every byte value, not text
    s3.put_object(Bucket="files", Key="exports/1.zip", Body=content, ContentType="application/zip")
    got = s3.get_object(Bucket="files", Key="exports/1.zip")
    assert got["Body"].read() == content
    assert (got["ContentType"], got["ContentLength"]) == ("application/zip", len(content))
    with pytest.raises(ClientError) as missing:
        s3.get_object(Bucket="files", Key="exports/2.zip")
    assert missing.value.response["Error"]["Code"] == "NoSuchKey"


def test_a_message_sent_wakes_the_pollers_and_is_received_once(served):
    client, emulator = served
    sqs = client("sqs")
    url = sqs.create_queue(QueueName="jobs")["QueueUrl"]
    woken = emulator.wakeups.subscribe("sqs")
    sqs.send_message(QueueUrl=url, MessageBody='{"job": "import", "id": 7}')
    assert woken.is_set()
    received = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]
    assert [message["Body"] for message in received] == ['{"job": "import", "id": 7}']
    assert sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10).get("Messages", []) == []
    with pytest.raises(ClientError) as unknown:
        sqs.get_queue_url(QueueName="no-such-queue")
    assert unknown.value.response["Error"]["Code"] in ("AWS.SimpleQueueService.NonExistentQueue", "QueueDoesNotExist")
