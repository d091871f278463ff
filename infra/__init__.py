"""Everything that is not the Lambda's code (chalicelib never imports it): deploy/ (template, packaging, clients),
ops/ (operator tools), devstack/ (local stack and stand-ins), bench/ (benchmarks over the devstack)."""
