"""1. Cold import time of the API module against a bare chalice + boto3 client import."""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
from typing import Any

from infra.bench.common import ROOT

BASELINE = ("import time; t = time.perf_counter(); import chalice, boto3; "
            "boto3.client('dynamodb', region_name='us-east-1'); print(time.perf_counter() - t)")


API = ("import time; t = time.perf_counter(); import app; from chalicelib.store.table import get_table; "
       "get_table(); print(time.perf_counter() - t)")


def _time_import(code: str, runs: int) -> list[float]:
    env = {**os.environ, "AWS_DEFAULT_REGION": "us-east-1", "PYTHONDONTWRITEBYTECODE": "0"}
    return [float(subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True,
                                 capture_output=True, text=True).stdout) for _ in range(runs)]


def import_times(runs: int) -> dict[str, Any]:
    _time_import(API, 1)  # compile bytecode once so every measured run is alike
    baseline, api = [], []
    for _ in range(runs):  # interleaved, so machine noise hits both alike
        baseline += _time_import(BASELINE, 1)
        api += _time_import(API, 1)
    result = {"baseline_median_s": round(statistics.median(baseline), 4),
              "api_median_s": round(statistics.median(api), 4)}
    result["ratio"] = round(result["api_median_s"] / result["baseline_median_s"], 3)
    return result
