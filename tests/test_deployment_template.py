"""`chalice package --merge-template infra/deploy/resources.json` yields a template with the table, the
webhook queue and DLQ, the REQUEST authorizer on every route and the JSON gateway responses;
cfn-lint accepts it. Runs offline: the copy it packages has no requirements to download."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from infra.deploy.resources import minify_template

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> dict:
    work = tmp_path_factory.mktemp("package")
    shutil.copy(ROOT / "app.py", work / "app.py")
    shutil.copytree(ROOT / "chalicelib", work / "chalicelib", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / ".chalice", work / ".chalice", ignore=shutil.ignore_patterns("deployments"))
    (work / "infra" / "deploy").mkdir(parents=True)
    shutil.copy(ROOT / "infra" / "deploy" / "resources.json", work / "infra" / "deploy" / "resources.json")
    (work / "requirements.txt").write_text("")
    env = {**os.environ, "AWS_DEFAULT_REGION": "us-east-1"}
    subprocess.run([str(BIN / "chalice"), "package", "--merge-template", "infra/deploy/resources.json", "out"],
                   cwd=work, env=env, check=True, capture_output=True, text=True)
    # as `make package` does: CloudFormation takes templates of 1 MB at most
    assert minify_template(work / "out" / "sam.json") < 1_000_000
    lint = subprocess.run([str(BIN / "cfn-lint"), "out/sam.json"], cwd=work, capture_output=True, text=True)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    return json.loads((work / "out" / "sam.json").read_text())


def test_table_has_keys_indexes_stream_and_ttl(template):
    table = template["Resources"]["AppTable"]["Properties"]
    assert table["KeySchema"] == [{"AttributeName": "PK", "KeyType": "HASH"},
                                  {"AttributeName": "SK", "KeyType": "RANGE"}]
    assert {index["IndexName"]: index["Projection"]["ProjectionType"] for index in table["GlobalSecondaryIndexes"]} == {
        "GSI1": "ALL", "GSI2": "ALL", "GSI3": "KEYS_ONLY"}  # GSI3: documents by number, 1 WRU when numbered
    assert table["StreamSpecification"]["StreamViewType"] == "NEW_AND_OLD_IMAGES"
    assert table["TimeToLiveSpecification"] == {"AttributeName": "expiresAt", "Enabled": True}
    assert table["BillingMode"] == "PAY_PER_REQUEST"


def test_webhook_queue_redrives_to_its_dlq_after_four_receives(template):
    queue = template["Resources"]["WebhookDeliveriesQueue"]["Properties"]
    assert queue["RedrivePolicy"] == {"deadLetterTargetArn": {"Fn::GetAtt": ["WebhookDeliveriesDLQ", "Arn"]},
                                      "maxReceiveCount": 4}


# Routes that run before anyone is known (with their 405 answers to other methods): logging in, accepting
# an invitation, the gateways' signed callbacks, the OpenAPI document (built from the code alone, for
# client generators); and the console's static files, which hold no data.
PUBLIC_PATHS = {"/auth/login", "/auth/accept-invitation", "/webhooks/gateway-a", "/webhooks/gateway-b", "/openapi.json"}
PUBLIC_OPERATIONS = {("/app", "get"), ("/app/{asset}", "get"), ("/app/pages/{asset}", "get"), ("/app/locales/{asset}", "get"),
                     ("/docs", "get")}


def test_every_route_but_login_and_gateway_callbacks_is_behind_the_request_authorizer(template):
    body = template["Resources"]["RestAPI"]["Properties"]["DefinitionBody"]
    operations = [(path, method, operation) for path, methods in body["paths"].items()
                  for method, operation in methods.items() if method != "options"]
    assert len(operations) > 50
    for path, method, operation in operations:
        if path in PUBLIC_PATHS or (path, method) in PUBLIC_OPERATIONS:
            assert "security" not in operation, (path, method)
        else:
            assert operation["security"] == [{"RequestAuthorizer": []}], (path, method)
    authorizer = body["securityDefinitions"]["RequestAuthorizer"]["x-amazon-apigateway-authorizer"]
    assert authorizer["type"] == "request"
    assert authorizer["authorizerResultTtlInSeconds"] == 0
    assert "identitySource" not in authorizer  # a cookie or X-API-Key may carry the credential
    assert "${Authorizer.Arn}" in authorizer["authorizerUri"]["Fn::Sub"]
    assert template["Resources"]["Authorizer"]["Properties"]["Handler"] == "app.authorizer"
    permission = template["Resources"]["AuthorizerInvokePermission"]["Properties"]
    assert permission["Principal"] == "apigateway.amazonaws.com"


def test_gateway_responses_render_the_api_errors(template):
    responses = template["Resources"]["RestAPI"]["Properties"]["DefinitionBody"][
        "x-amazon-apigateway-gateway-responses"]

    def rendered(kind):
        return responses[kind]["statusCode"], json.loads(responses[kind]["responseTemplates"]["application/json"])

    assert rendered("MISSING_AUTHENTICATION_TOKEN") == ("404", {"message": "Route not found.", "code": "NOT_FOUND"})
    assert rendered("ACCESS_DENIED") == ("401", {"message": "$context.authorizer.message",
                                                 "code": "$context.authorizer.code"})
    assert rendered("AUTHORIZER_FAILURE")[0] == "403"
    assert rendered("AUTHORIZER_FAILURE")[1]["code"] == "CSRF_API_KEY_ERROR"


def test_functions_get_their_configuration(template):
    api = template["Resources"]["APIHandler"]["Properties"]["Environment"]["Variables"]
    assert api["AUTH_AT_GATEWAY"] == "1"
    assert api["TABLE_NAME"] == {"Ref": "AppTable"}
    assert api["WEBHOOK_QUEUE_URL"] == {"Ref": "WebhookDeliveriesQueue"}
    assert api["ALLOWED_ORIGINS"] == {"Ref": "AllowedOrigins"}
    assert api["MAIL_FROM"] == {"Ref": "MailFrom"} and api["PAYMENT_LINK_BASE_URL"] == {"Ref": "PaymentLinkBaseUrl"}
    assert api["APP_BASE_URL"] == {"Ref": "AppBaseUrl"} and "LOG_INVITATION_LINKS" not in api
    assert template["Resources"]["MailSenderIdentity"]["Properties"]["EmailIdentity"] == {"Ref": "MailFrom"}
    authorizer = template["Resources"]["Authorizer"]["Properties"]["Environment"]["Variables"]
    assert "AUTH_AT_GATEWAY" not in authorizer and authorizer["TABLE_NAME"] == {"Ref": "AppTable"}
    statements = template["Resources"]["DefaultRole"]["Properties"]["Policies"][0]["PolicyDocument"]["Statement"]
    table_access = next(s for s in statements if s.get("Sid") == "Table")
    assert "dynamodb:TransactWriteItems" in table_access["Action"]
    assert "ses:SendRawEmail" in next(s for s in statements if s.get("Sid") == "Email")["Action"]
    assert {"Fn::GetAtt": ["AppTable", "Arn"]} in table_access["Resource"]
    # secrets (DTE signing keys) are sealed under a KMS key the functions may use and nothing deletes
    for function in ("APIHandler", "ScheduledInvoices"):
        variables = template["Resources"][function]["Properties"]["Environment"]["Variables"]
        assert variables["SECRETS_KMS_KEY_ID"] == {"Ref": "SecretsKey"} and "LOCAL_SECRETS_KEY" not in variables
        # both send DTEs (on confirmation, and the hourly retry) to the configured authority
        assert variables["DTE_AUTHORITY_URL"] == {"Ref": "DteAuthorityUrl"}
    secrets = next(s for s in statements if s.get("Sid") == "Secrets")
    assert secrets["Action"] == ["kms:GenerateDataKey", "kms:Decrypt"]
    assert secrets["Resource"] == {"Fn::GetAtt": ["SecretsKey", "Arn"]}
    key = template["Resources"]["SecretsKey"]
    assert key["DeletionPolicy"] == key["UpdateReplacePolicy"] == "Retain" and key["Properties"]["EnableKeyRotation"]


def test_webhook_functions_read_the_stream_and_the_queue_with_partial_batch_failures(template):
    resources = template["Resources"]
    fanout = resources["WebhookFanout"]["Properties"]
    stream = fanout["Events"]["WebhookFanoutDynamodbEventSource"]["Properties"]
    assert stream["Stream"] == {"Fn::GetAtt": ["AppTable", "StreamArn"]}
    assert json.loads(stream["FilterCriteria"]["Filters"][0]["Pattern"]) == {
        "eventName": ["INSERT"], "dynamodb": {"NewImage": {"itemType": {"S": ["EVENT"]}}}}
    deliverer = resources["WebhookDeliverer"]["Properties"]
    queue = deliverer["Events"]["WebhookDelivererSqsEventSource"]["Properties"]
    assert queue["Queue"] == {"Fn::GetAtt": ["WebhookDeliveriesQueue", "Arn"]}
    assert queue["BatchSize"] == 1 and queue["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    # no batching window: it would add its length to every single event's latency
    assert stream.get("MaximumBatchingWindowInSeconds", 0) == 0 and queue.get("MaximumBatchingWindowInSeconds", 0) == 0
    # a message stays invisible while its attempt (10 s timeout) runs in a 30 s function
    assert resources["WebhookDeliveriesQueue"]["Properties"]["VisibilityTimeout"] >= deliverer["Timeout"]
    for function in (fanout, deliverer):
        variables = function["Environment"]["Variables"]
        assert variables["TABLE_NAME"] == {"Ref": "AppTable"}
        assert variables["WEBHOOK_QUEUE_URL"] == {"Ref": "WebhookDeliveriesQueue"}
        assert "ALLOW_INSECURE_WEBHOOKS" not in variables


def test_local_test_config_does_not_trust_a_gateway():
    config = json.loads((ROOT / ".chalice" / "config.json").read_text())
    for stage in config["stages"].values():
        assert "AUTH_AT_GATEWAY" not in stage.get("environment_variables", {})


def test_scheduled_invoices_run_every_hour(template):
    function = template["Resources"]["ScheduledInvoices"]["Properties"]
    assert function["Handler"] == "app.scheduled_invoices_run"
    events = list(function["Events"].values())
    assert events == [{"Type": "Schedule", "Properties": {"Schedule": "rate(1 hour)"}}]


def test_scheduled_invoices_function_gets_the_table_and_time_to_run(template):
    function = template["Resources"]["ScheduledInvoices"]["Properties"]
    assert function["Environment"]["Variables"]["TABLE_NAME"] == {"Ref": "AppTable"}
    assert function["Timeout"] >= 300  # a run makes every due invoice of every company


def test_the_api_answers_pdf_as_binary(template):
    """API Gateway decodes the base64 body the print routes return only for binaryMediaTypes."""
    body = template["Resources"]["RestAPI"]["Properties"]["DefinitionBody"]
    assert "application/pdf" in body["x-amazon-apigateway-binary-media-types"]
    assert "application/json" not in body["x-amazon-apigateway-binary-media-types"]


# Resource types that hold data: deleting or replacing the stack must leave them (and their data) behind.
STATEFUL_TYPES = {"AWS::DynamoDB::Table", "AWS::SQS::Queue", "AWS::KMS::Key", "AWS::S3::Bucket",
                  "AWS::Logs::LogGroup", "AWS::RDS::DBInstance", "AWS::EFS::FileSystem"}


def test_every_stateful_resource_survives_deleting_or_replacing_the_stack(template):
    stateful = {name: resource for name, resource in template["Resources"].items()
                if resource["Type"] in STATEFUL_TYPES}
    assert {"AppTable", "WebhookDeliveriesQueue", "WebhookDeliveriesDLQ", "SecretsKey", "ImportJobsQueue", "ImportJobsDLQ",
            "FilesBucket", "AttachmentsBucket"} <= set(stateful)
    for name, resource in stateful.items():
        assert (resource.get("DeletionPolicy"), resource.get("UpdateReplacePolicy")) == ("Retain", "Retain"), name
    table = template["Resources"]["AppTable"]["Properties"]
    assert table["DeletionProtectionEnabled"] is True
    assert table["PointInTimeRecoverySpecification"] == {"PointInTimeRecoveryEnabled": True}


def test_alarms_watch_what_fails_and_notify_the_topic(template):
    resources = template["Resources"]
    alarms = {name: resource["Properties"] for name, resource in resources.items()
              if resource["Type"] == "AWS::CloudWatch::Alarm"}
    watched = {(alarm["Namespace"], alarm["MetricName"], json.dumps(alarm["Dimensions"][0]["Value"]))
               for alarm in alarms.values()}
    functions = ("APIHandler", "Authorizer", "WebhookFanout", "WebhookDeliverer", "ScheduledInvoices", "ImportWorker")
    expected = {("AWS/SQS", "ApproximateNumberOfMessagesVisible",
                 json.dumps({"Fn::GetAtt": ["WebhookDeliveriesDLQ", "QueueName"]})),
                ("AWS/SQS", "ApproximateNumberOfMessagesVisible",
                 json.dumps({"Fn::GetAtt": ["ImportJobsDLQ", "QueueName"]})),
                ("AWS/ApiGateway", "5XXError", json.dumps({"Ref": "AWS::StackName"})),
                ("AWS/DynamoDB", "ReadThrottleEvents", json.dumps({"Ref": "AppTable"})),
                ("AWS/DynamoDB", "WriteThrottleEvents", json.dumps({"Ref": "AppTable"})),
                ("AWS/DynamoDB", "TransactionConflict", json.dumps({"Ref": "AppTable"})),
                ("BusinessApi", "ScheduledInvoicesErrored", json.dumps("business-api")),
                ("BusinessApi", "DteTransmissionsOverdue", json.dumps("business-api"))}
    expected |= {("AWS/Lambda", metric, json.dumps({"Ref": function}))
                 for function in functions for metric in ("Errors", "Throttles")}
    assert watched == expected
    for name, alarm in alarms.items():
        assert alarm["AlarmActions"] == [{"Ref": "AlarmTopic"}], name
        assert "docs/operations.md#" in alarm["AlarmDescription"], name  # what it means and what to do
    assert alarms["Api5xxAlarm"]["Statistic"] == "Average" and alarms["Api5xxAlarm"]["Threshold"] == 0.01
    assert alarms["WebhookDeadLettersAlarm"]["Threshold"] == 0
    assert template["Parameters"]["AlarmEmail"]["Default"] == ""
    subscription = resources["AlarmEmailSubscription"]
    assert subscription["Condition"] == "HasAlarmEmail" and subscription["Properties"]["Endpoint"] == {"Ref": "AlarmEmail"}
    operations = (ROOT / "docs" / "operations.md").read_text()
    for alarm in alarms.values():  # each alarm's anchor is a section of the runbook
        anchor = alarm["AlarmDescription"].split("docs/operations.md#")[1].rstrip(").")
        assert f'<a id="{anchor}"></a>' in operations, anchor


def test_the_stage_is_throttled_and_every_function_traced(template):
    api = template["Resources"]["RestAPI"]["Properties"]
    # no per-method metrics (a few hundred billed series nothing reads): the stage's own are enough
    assert api["MethodSettings"] == [{"ResourcePath": "/*", "HttpMethod": "*",
                                      "ThrottlingRateLimit": {"Ref": "ApiThrottlingRateLimit"},
                                      "ThrottlingBurstLimit": {"Ref": "ApiThrottlingBurstLimit"}}]
    assert api["Name"] == {"Ref": "AWS::StackName"}  # the 5xx alarm's ApiName
    for function in ("APIHandler", "Authorizer", "WebhookFanout", "WebhookDeliverer", "ScheduledInvoices", "ImportWorker"):
        assert template["Resources"][function]["Properties"]["Tracing"] == "Active", function
    statements = template["Resources"]["DefaultRole"]["Properties"]["Policies"][0]["PolicyDocument"]["Statement"]
    assert next(s for s in statements if s.get("Sid") == "Tracing")["Action"] == [
        "xray:PutTraceSegments", "xray:PutTelemetryRecords"]


def test_the_dashboard_charts_every_metric_the_service_publishes(template):
    import re

    dashboard = template["Resources"]["Dashboard"]["Properties"]
    body = json.loads(re.sub(r"\$\{[^}]+\}", "x", dashboard["DashboardBody"]["Fn::Sub"]))  # as after Fn::Sub
    charted = json.dumps(body)
    published = ("Requests", "RequestLatency", "DocumentsCreated", "PaymentsCreated", "WebhookDeliveryAttempts",
                 "WebhookDeliveryFailures", "WebhookDeliveryLatency", "ScheduledInvoicesCreated",
                 "ScheduledInvoicesFailed", "ScheduledInvoicesErrored", "DteTransmissionsOverdue")
    for metric in published:
        assert f'"{metric}"' in charted or f'\\"{metric}\\"' in charted, metric
    for aws_metric in ("5XXError", "Latency", "Errors", "Throttles", "TransactionConflict", "WriteThrottleEvents",
                       "ApproximateNumberOfMessagesVisible"):
        assert f'"{aws_metric}"' in charted, aws_metric
    assert all(widget["properties"]["metrics"] for widget in body["widgets"])


# issue 41: jobs
def test_the_files_bucket_is_private_encrypted_tls_only_and_forgets_after_seven_days(template):
    resources = template["Resources"]
    bucket = resources["FilesBucket"]["Properties"]
    assert bucket["PublicAccessBlockConfiguration"] == {"BlockPublicAcls": True, "BlockPublicPolicy": True,
                                                        "IgnorePublicAcls": True, "RestrictPublicBuckets": True}
    assert bucket["OwnershipControls"] == {"Rules": [{"ObjectOwnership": "BucketOwnerEnforced"}]}  # no ACLs at all
    encryption = bucket["BucketEncryption"]["ServerSideEncryptionConfiguration"][0]
    assert encryption["ServerSideEncryptionByDefault"] == {"SSEAlgorithm": "AES256"}
    assert [(rule["Status"], rule["ExpirationInDays"]) for rule in bucket["LifecycleConfiguration"]["Rules"]] == [
        ("Enabled", 7)]
    policy = resources["FilesBucketPolicy"]["Properties"]
    assert policy["Bucket"] == {"Ref": "FilesBucket"}
    [statement] = policy["PolicyDocument"]["Statement"]
    assert (statement["Effect"], statement["Principal"], statement["Action"]) == ("Deny", "*", "s3:*")
    assert statement["Condition"] == {"Bool": {"aws:SecureTransport": "false"}}
    assert {"Fn::Sub": "${FilesBucket.Arn}/*"} in statement["Resource"]
    statements = resources["DefaultRole"]["Properties"]["Policies"][0]["PolicyDocument"]["Statement"]
    files = next(s for s in statements if s.get("Sid") == "Files")
    assert files["Action"] == ["s3:GetObject", "s3:PutObject", "s3:DeleteObject"]
    assert files["Resource"] == {"Fn::Sub": "${FilesBucket.Arn}/*"}  # objects only: no listing, no bucket changes


def test_the_import_worker_reads_the_jobs_queue_which_outlasts_its_runs(template):
    resources = template["Resources"]
    worker = resources["ImportWorker"]["Properties"]
    assert worker["Handler"] == "app.import_worker"
    assert (worker["Timeout"], worker["MemorySize"]) == (900, 1024)
    source = worker["Events"]["ImportWorkerSqsEventSource"]["Properties"]
    assert source["Queue"] == {"Fn::GetAtt": ["ImportJobsQueue", "Arn"]} and source["BatchSize"] == 1
    queue = resources["ImportJobsQueue"]["Properties"]
    # AWS's advice: a visibility timeout of at least six times the function's timeout (6 x 900 s = 5,400 s)
    assert queue["VisibilityTimeout"] >= 6 * worker["Timeout"]
    assert queue["RedrivePolicy"] == {"deadLetterTargetArn": {"Fn::GetAtt": ["ImportJobsDLQ", "Arn"]},
                                      "maxReceiveCount": 4}
    for function in ("APIHandler", "ImportWorker"):
        variables = resources[function]["Properties"]["Environment"]["Variables"]
        assert variables["FILES_BUCKET"] == {"Ref": "FilesBucket"}
        assert variables["IMPORT_QUEUE_URL"] == {"Ref": "ImportJobsQueue"}
    statements = resources["DefaultRole"]["Properties"]["Policies"][0]["PolicyDocument"]["Statement"]
    access = next(s for s in statements if s.get("Sid") == "ImportQueue")
    assert access["Resource"] == [{"Fn::GetAtt": ["ImportJobsQueue", "Arn"]}] and "sqs:SendMessage" in access["Action"]


# issue 44: attachments
def test_the_attachments_bucket_is_private_encrypted_versioned_and_keeps_the_papers_ten_years(template):
    resources = template["Resources"]
    bucket = resources["AttachmentsBucket"]["Properties"]
    assert bucket["PublicAccessBlockConfiguration"] == {"BlockPublicAcls": True, "BlockPublicPolicy": True,
                                                        "IgnorePublicAcls": True, "RestrictPublicBuckets": True}
    assert bucket["OwnershipControls"] == {"Rules": [{"ObjectOwnership": "BucketOwnerEnforced"}]}
    encryption = bucket["BucketEncryption"]["ServerSideEncryptionConfiguration"][0]
    assert encryption["ServerSideEncryptionByDefault"] == {"SSEAlgorithm": "AES256"}
    assert bucket["VersioningConfiguration"] == {"Status": "Enabled"}
    rules = bucket["LifecycleConfiguration"]["Rules"]
    # a current object never expires (the books keep it); a replaced or deleted one stays 10 x 365 = 3,650 days
    assert not any("ExpirationInDays" in rule for rule in rules)
    assert [rule["NoncurrentVersionExpiration"] for rule in rules if "NoncurrentVersionExpiration" in rule] == [
        {"NoncurrentDays": 3650}]
    [cors] = bucket["CorsConfiguration"]["CorsRules"]
    assert sorted(cors["AllowedMethods"]) == ["GET", "PUT"]
    assert cors["AllowedOrigins"] == {"Fn::Split": [",", {"Ref": "AllowedOrigins"}]}  # the console's origins only
    [statement] = resources["AttachmentsBucketPolicy"]["Properties"]["PolicyDocument"]["Statement"]
    assert (statement["Effect"], statement["Condition"]) == ("Deny", {"Bool": {"aws:SecureTransport": "false"}})
    statements = resources["DefaultRole"]["Properties"]["Policies"][0]["PolicyDocument"]["Statement"]
    objects = next(s for s in statements if s.get("Sid") == "Attachments")
    assert objects["Action"] == ["s3:GetObject", "s3:PutObject", "s3:DeleteObject"]
    assert objects["Resource"] == {"Fn::Sub": "${AttachmentsBucket.Arn}/*"}
    # without ListBucket, S3 answers a missing object's HEAD 403, not 404: a pending upload would be an error
    listing = next(s for s in statements if s.get("Sid") == "AttachmentsMissingIsNotFound")
    assert listing["Action"] == ["s3:ListBucket"]
    variables = resources["APIHandler"]["Properties"]["Environment"]["Variables"]
    assert variables["ATTACHMENTS_BUCKET"] == {"Ref": "AttachmentsBucket"}
