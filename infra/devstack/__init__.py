"""The local stack (`make run`: local.py, its state on disk, API Gateway and the pollers played locally) and the
stand-ins it and the tests run on: moto made fast and faithful to DynamoDB, the SV tax authority, the SV demo."""
