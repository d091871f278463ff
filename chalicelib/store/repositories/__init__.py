"""Intention-named reads and writes per aggregate (issue 45): the services call these and never write a
DynamoDB expression, an index or a key attribute (tests/unit/test_store_boundary.py). A write adds to the
command's unit of work (`Transaction`), so one command stays one transaction; a read takes the `Table`."""
