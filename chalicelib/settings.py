"""Environment -> typed settings. Read once per process; tests call `reset_settings()`."""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache

LOCAL_ORIGINS = "http://localhost:8000,http://127.0.0.1:8000"


def _flag(name: str, default: str = "0") -> bool:
    return os.environ.get(name, default).strip().lower() in ("1", "true", "yes", "on")


@dataclass(frozen=True)
class Settings:
    table_name: str
    aws_endpoint_url: str | None
    region: str
    stage: str
    allowed_origins: tuple[str, ...]
    auth_at_gateway: bool
    rate_limit_enabled: bool
    rate_limit_requests: int
    rate_limit_window_seconds: int
    session_ttl_hours: int
    cookie_secure: bool
    webhook_queue_url: str | None
    allow_insecure_webhooks: bool
    webhook_backoff_base_seconds: float
    webhook_timeout_seconds: float
    payment_link_base_url: str
    payment_link_ttl_hours: int
    dte_authority_url: str
    # CloudWatch embedded metrics in the log (the local stack turns them off: they are noise there)
    metrics_enabled: bool
    dte_authority_timeout_seconds: float
    dte_authority_attempts: int
    dte_authority_backoff_seconds: float
    # the master key secrets are sealed with: a KMS key when deployed, else a local one
    secrets_kms_key_id: str | None
    local_secrets_key: str | None
    # the sender of e-mailed documents: an address (or domain) verified in SES
    mail_from: str
    # where the web console is served: invitation links point at its accept page
    app_base_url: str
    invitation_ttl_hours: int
    # local stack only: an invitation's link is a credential, so it is never logged elsewhere
    log_invitation_links: bool
    invitation_links_file: str | None
    # failed logins (services/identity/login_limit.py): per e-mail and source address, the free
    # failures, the longest wait and how long failures are remembered; per address alone, a ceiling
    login_free_failures: int
    login_max_delay_seconds: int
    login_memory_seconds: int
    login_window_seconds: int
    login_max_failures_per_address: int
    # issue 41: jobs. The private bucket of uploaded imports and company exports (store/files.py)
    # and the queue import and export jobs run on; without a queue a job runs in its request
    files_bucket: str | None
    import_queue_url: str | None
    # issue 43: the card gateways' APIs (the local stack and the tests point them at the
    # stand-ins, infra/devstack/pixelpay_standin.py and wompi_standin.py) and where they send
    # their notifications and customers back (this API's public base URL)
    pixelpay_url: str
    pixelpay_sandbox_url: str
    # hosts (and their subdomains) a PixelPay gateway's own `endpoint` may name besides pixelpay.app's
    pixelpay_allowed_hosts: tuple[str, ...]
    wompi_api_url: str
    wompi_id_url: str
    gateway_timeout_seconds: float
    api_base_url: str
    # issue 44: attachments. The bucket of the papers behind records (store/attachments.py): versioned,
    # kept for the tax records' years (infra/deploy/resources.json)
    attachments_bucket: str | None


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    env = os.environ
    stage = env.get("STAGE", "local")
    return Settings(
        table_name=env.get("TABLE_NAME", "business-api"),
        aws_endpoint_url=env.get("AWS_ENDPOINT_URL") or None,
        region=env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION") or "us-east-1",
        stage=stage,
        allowed_origins=tuple(o.strip().rstrip("/") for o in
                              env.get("ALLOWED_ORIGINS", LOCAL_ORIGINS).split(",") if o.strip()),
        auth_at_gateway=_flag("AUTH_AT_GATEWAY"),
        rate_limit_enabled=_flag("RATE_LIMIT_ENABLED"),
        rate_limit_requests=int(env.get("RATE_LIMIT_REQUESTS", "600")),
        rate_limit_window_seconds=int(env.get("RATE_LIMIT_WINDOW_SECONDS", "60")),
        session_ttl_hours=int(env.get("SESSION_TTL_HOURS", "12")),
        cookie_secure=_flag("COOKIE_SECURE", "0" if stage == "local" else "1"),
        webhook_queue_url=env.get("WEBHOOK_QUEUE_URL") or None,
        allow_insecure_webhooks=_flag("ALLOW_INSECURE_WEBHOOKS"),
        webhook_backoff_base_seconds=float(env.get("WEBHOOK_BACKOFF_BASE_S", "30")),
        # the spec's 10 s per attempt; tests of a hanging receiver shorten it
        webhook_timeout_seconds=float(env.get("WEBHOOK_TIMEOUT_S", "10")),
        # a payment link's address is this base and the link id
        payment_link_base_url=env.get("PAYMENT_LINK_BASE_URL", "https://pay.example.com/l/"),
        payment_link_ttl_hours=int(env.get("PAYMENT_LINK_TTL_HOURS", str(7 * 24))),
        # El Salvador's tax authority (Ministerio de Hacienda): its test environment unless told
        # (production: https://api.dtes.mh.gob.sv); the local stack and the tests point it at the
        # stand-in (infra/devstack/dte_authority.py)
        metrics_enabled=_flag("METRICS_ENABLED", "1"),
        dte_authority_url=env.get("DTE_AUTHORITY_URL", "https://apitest.dtes.mh.gob.sv").strip().rstrip("/"),
        dte_authority_timeout_seconds=float(env.get("DTE_AUTHORITY_TIMEOUT_S", "5")),
        # calls that got no answer are made again this many times in all, waiting base, 2 x base, ...
        dte_authority_attempts=int(env.get("DTE_AUTHORITY_ATTEMPTS", "3")),
        dte_authority_backoff_seconds=float(env.get("DTE_AUTHORITY_BACKOFF_S", "0.5")),
        secrets_kms_key_id=env.get("SECRETS_KMS_KEY_ID") or None,
        local_secrets_key=env.get("LOCAL_SECRETS_KEY") or None,
        mail_from=env.get("MAIL_FROM", "facturas@example.com").strip(),
        app_base_url=env.get("APP_BASE_URL", "http://127.0.0.1:8000").strip().rstrip("/"),
        invitation_ttl_hours=int(env.get("INVITATION_TTL_HOURS", str(7 * 24))),
        log_invitation_links=_flag("LOG_INVITATION_LINKS"),
        invitation_links_file=env.get("INVITATION_LINKS_FILE") or None,
        login_free_failures=int(env.get("LOGIN_FREE_FAILURES", "5")),
        login_max_delay_seconds=int(env.get("LOGIN_MAX_DELAY_SECONDS", "900")),
        login_memory_seconds=int(env.get("LOGIN_MEMORY_SECONDS", str(24 * 3600))),
        login_window_seconds=int(env.get("LOGIN_WINDOW_SECONDS", "900")),
        login_max_failures_per_address=int(env.get("LOGIN_MAX_FAILURES_PER_ADDRESS", "200")),
        files_bucket=env.get("FILES_BUCKET") or None,
        import_queue_url=env.get("IMPORT_QUEUE_URL") or None,
        pixelpay_url=env.get("PIXELPAY_URL", "https://pixelpay.app").strip().rstrip("/"),
        pixelpay_sandbox_url=env.get("PIXELPAY_SANDBOX_URL", "https://pixelpay.dev").strip().rstrip("/"),
        pixelpay_allowed_hosts=tuple(host.strip().lower() for host in env.get("PIXELPAY_ALLOWED_HOSTS", "").split(",")
                                     if host.strip()),
        wompi_api_url=env.get("WOMPI_API_URL", "https://api.wompi.sv").strip().rstrip("/"),
        wompi_id_url=env.get("WOMPI_ID_URL", "https://id.wompi.sv").strip().rstrip("/"),
        gateway_timeout_seconds=float(env.get("GATEWAY_TIMEOUT_S", "8")),
        api_base_url=(env.get("API_BASE_URL") or env.get("APP_BASE_URL", "http://127.0.0.1:8000")).strip().rstrip("/"),
        attachments_bucket=env.get("ATTACHMENTS_BUCKET") or None,
    )


def reset_settings() -> None:
    get_settings.cache_clear()
