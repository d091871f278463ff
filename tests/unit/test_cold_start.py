"""A cold Lambda imports only what every request needs: the models, PDF, gateway and DTE code
load on the first request that uses them (`make bench` measures the import time itself)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFERRED = ("pydantic", "fpdf", "chalicelib.models", "chalicelib.services.integrations.gateway_notifications",
            "chalicelib.countries.sv.services.dte", "chalicelib.services.sales_purchases.printing",
            "chalicelib.services.sales_purchases.documents")


def test_importing_the_app_loads_no_model_pdf_gateway_or_dte_code():
    code = ("import json, sys; import app; from chalicelib.store.table import get_table; get_table(); "
            "print(json.dumps(sorted(sys.modules)))")
    env = {**os.environ, "AWS_DEFAULT_REGION": "us-east-1"}
    loaded = json.loads(subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True,
                                       capture_output=True, text=True).stdout)
    early = [name for name in loaded if name.startswith(DEFERRED)]
    assert early == [], "imported at cold start"
