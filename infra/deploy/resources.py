"""Creates the deployed resources (table, queues, files and attachments buckets) from infra/deploy/resources.json, the same
definitions `chalice package --merge-template` deploys, for the local stack and the tests."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

TEMPLATE = Path(__file__).with_name("resources.json")
WEBHOOK_QUEUE = "WebhookDeliveriesQueue"
WEBHOOK_DLQ = "WebhookDeliveriesDLQ"
IMPORT_QUEUE = "ImportJobsQueue"
IMPORT_DLQ = "ImportJobsDLQ"
# each queue and its dead-letter queue
QUEUES = ((WEBHOOK_QUEUE, WEBHOOK_DLQ), (IMPORT_QUEUE, IMPORT_DLQ))
FILES_BUCKET = "FilesBucket"
ATTACHMENTS_BUCKET = "AttachmentsBucket"


def template() -> dict[str, Any]:
    return json.loads(TEMPLATE.read_text())


def table_properties() -> dict[str, Any]:
    return template()["Resources"]["AppTable"]["Properties"]


def create_table(dynamodb: Any, table_name: str, *, stream: bool = True) -> None:
    """The table as the template makes it; without its stream where nothing reads it (`stream=False`:
    DynamoDB Local's stream bookkeeping slows every write)."""
    properties = table_properties()
    streams = {"StreamSpecification": {"StreamEnabled": True, **properties["StreamSpecification"]}} if stream else {}
    dynamodb.create_table(
        TableName=table_name, BillingMode=properties["BillingMode"],
        AttributeDefinitions=properties["AttributeDefinitions"], KeySchema=properties["KeySchema"],
        GlobalSecondaryIndexes=properties["GlobalSecondaryIndexes"], **streams)
    dynamodb.get_waiter("table_exists").wait(TableName=table_name)
    ttl = properties["TimeToLiveSpecification"]
    dynamodb.update_time_to_live(TableName=table_name, TimeToLiveSpecification={
        "AttributeName": ttl["AttributeName"], "Enabled": ttl["Enabled"]})


def create_queues(sqs: Any, prefix: str) -> dict[str, str]:
    """Returns {resource name: queue URL} with the redrive policy of the template."""
    resources = template()["Resources"]
    urls = {}
    for queue_name, dlq_name in QUEUES:
        dlq_url = sqs.create_queue(QueueName=f"{prefix}-{dlq_name}", Attributes={
            "MessageRetentionPeriod": str(resources[dlq_name]["Properties"]["MessageRetentionPeriod"])
        })["QueueUrl"]
        dlq_arn = sqs.get_queue_attributes(QueueUrl=dlq_url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        queue = resources[queue_name]["Properties"]
        urls[queue_name] = sqs.create_queue(QueueName=f"{prefix}-{queue_name}", Attributes={
            "VisibilityTimeout": str(queue["VisibilityTimeout"]),
            "RedrivePolicy": json.dumps({"deadLetterTargetArn": dlq_arn,
                                         "maxReceiveCount": queue["RedrivePolicy"]["maxReceiveCount"]}),
        })["QueueUrl"]
        urls[dlq_name] = dlq_url
    return urls


def _private_bucket(s3: Any, bucket: str, properties: dict[str, Any]) -> None:
    s3.create_bucket(Bucket=bucket)
    s3.put_public_access_block(Bucket=bucket, PublicAccessBlockConfiguration=properties["PublicAccessBlockConfiguration"])
    s3.put_bucket_encryption(Bucket=bucket, ServerSideEncryptionConfiguration={"Rules": [
        {"ApplyServerSideEncryptionByDefault": rule["ServerSideEncryptionByDefault"]}
        for rule in properties["BucketEncryption"]["ServerSideEncryptionConfiguration"]]})


def create_bucket(s3: Any, bucket: str) -> None:
    """The files bucket as the template makes it: private, encrypted, objects expiring."""
    properties = template()["Resources"][FILES_BUCKET]["Properties"]
    _private_bucket(s3, bucket, properties)
    s3.put_bucket_lifecycle_configuration(Bucket=bucket, LifecycleConfiguration={"Rules": [
        {"ID": rule["Id"], "Status": rule["Status"], "Filter": {"Prefix": ""},
         "Expiration": {"Days": rule["ExpirationInDays"]}}
        for rule in properties["LifecycleConfiguration"]["Rules"]]})


def create_attachments_bucket(s3: Any, bucket: str, origins: list[str]) -> None:
    """The attachments bucket as the template makes it (issue 44): private, encrypted, versioned,
    replaced and deleted versions kept ten years, CORS letting `origins` (the console's: the
    template's AllowedOrigins) PUT and GET through presigned links."""
    properties = template()["Resources"][ATTACHMENTS_BUCKET]["Properties"]
    _private_bucket(s3, bucket, properties)
    s3.put_bucket_versioning(Bucket=bucket, VersioningConfiguration=properties["VersioningConfiguration"])
    rules = []
    for rule in properties["LifecycleConfiguration"]["Rules"]:
        made: dict[str, Any] = {"ID": rule["Id"], "Status": rule["Status"], "Filter": {"Prefix": ""}}
        if "NoncurrentVersionExpiration" in rule:
            made["NoncurrentVersionExpiration"] = {"NoncurrentDays": rule["NoncurrentVersionExpiration"]["NoncurrentDays"]}
        if "ExpiredObjectDeleteMarker" in rule:
            made["Expiration"] = {"ExpiredObjectDeleteMarker": rule["ExpiredObjectDeleteMarker"]}
        rules.append(made)
    s3.put_bucket_lifecycle_configuration(Bucket=bucket, LifecycleConfiguration={"Rules": rules})
    s3.put_bucket_cors(Bucket=bucket, CORSConfiguration={"CORSRules": [
        {"AllowedMethods": rule["AllowedMethods"], "AllowedOrigins": origins, "AllowedHeaders": rule["AllowedHeaders"],
         "ExposeHeaders": rule["ExposedHeaders"], "MaxAgeSeconds": rule["MaxAge"]}
        for rule in properties["CorsConfiguration"]["CorsRules"]]})


def verify_mail_sender(ses: Any, address: str) -> None:
    """SES sends only from a verified identity (an address or its domain): the local stack and
    the tests verify the sender of e-mailed documents (MAIL_FROM) in moto, as an operator does
    once in the deployed account."""
    ses.verify_email_identity(EmailAddress=address)


def minify_template(path: Path) -> int:
    """Rewrites a packaged template without indentation, returning its size: CloudFormation takes
    templates of at most 1 MB, and chalice writes the OpenAPI definition of every route indented
    (about 2.3 times the size)."""
    compact = json.dumps(json.loads(path.read_text()), separators=(",", ":"))
    path.write_text(compact)
    return len(compact.encode())


if __name__ == "__main__":
    import sys

    if len(sys.argv) != 3 or sys.argv[1] != "minify":
        raise SystemExit("usage: python -m infra.deploy.resources minify build/sam.json")
    print(f"{sys.argv[2]}: {minify_template(Path(sys.argv[2]))} bytes")
