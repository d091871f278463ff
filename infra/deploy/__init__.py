"""What a release builds from the app: the deployment template merged into `chalice package` (resources.json,
resources.py: the same table and queues on moto, the minified package) and the typed clients (sdk.py)."""
