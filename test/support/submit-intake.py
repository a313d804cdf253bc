"""Submits an intake the way a Python integrator does: requests' files= (the payload part typed
application/json as the spec's form shows it, with or without a file name) and prints the status
and the JSON answer.

    submit-intake.py URL API_KEY MODE PAYLOAD_JSON
    MODE: typed (no file name), typed-named (payload.json), untyped (requests' data=)
"""
import json
import sys

import requests

url, key, mode, payload = sys.argv[1:5]
headers = {"X-API-KEY": key}
evidence = ("statement.txt", b"Sent 0.5 BTC to the broker", "text/plain")
if mode == "typed":
    files = {"payload": (None, payload, "application/json"), "files": evidence}
    res = requests.post(url, headers=headers, files=files, timeout=60)
elif mode == "typed-named":
    files = {"payload": ("payload.json", payload.encode("utf-8"), "application/json; charset=utf-8"), "files": evidence}
    res = requests.post(url, headers=headers, files=files, timeout=60)
elif mode == "untyped":
    res = requests.post(url, headers=headers, data={"payload": payload}, files={"files": evidence}, timeout=60)
else:
    raise SystemExit("unknown mode " + mode)
print(json.dumps({"status": res.status_code, "content_type": res.headers.get("Content-Type"), "body": res.json()}))
