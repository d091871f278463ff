"""Operator tools against a deployed table, never on a request path: the admin CLI (admin.py), the data
migrations it runs (migrations.py), one company's dump and restore (company_dump.py; table_io.py: scans, writes)."""
