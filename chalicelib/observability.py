"""Structured logging (Powertools Logger) with a correlation id per request."""
from __future__ import annotations

from aws_lambda_powertools import Logger

logger = Logger(service="business-api")
