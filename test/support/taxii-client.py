"""Pages the platform's TAXII 2.1 server with the OASIS taxii2-client, as a partner does, and
prints what it saw as JSON (the test asserts on it).

    taxii-client.py PLAN_JSON

PLAN: {"url": discovery URL, "user", "password" (the API key), "page_sizes": [1, 5, 50],
       "filtered": [{"collection": id, "per_request": n, "filters": {"type": "indicator", ...}}],
       "objects": [{"collection": id, "id": STIX id}], "wrong_password": "..."}
"""
import json
import sys

import requests
from taxii2client.v21 import Collection, Server, as_pages

plan = json.loads(sys.argv[1])
out = {"collections": {}, "filtered": [], "objects": []}


def counting(conn):
    """Counts the HTTP requests a connection sends and keeps the last answer's headers (a response
    hook on its requests session: taxii2-client 2.3.0 answers plain dicts)."""
    seen = {"requests": 0, "headers": {}}

    def hook(response, *args, **kwargs):
        seen["requests"] += 1
        seen["headers"] = response.headers

    conn.session.hooks["response"].append(hook)
    return seen


server = Server(plan["url"], user=plan["user"], password=plan["password"])
api_root = server.api_roots[0]
out["server"] = {"title": server.title, "api_roots": [r.url for r in server.api_roots]}

for collection in api_root.collections:
    seen = counting(collection._conn)
    per_size = {}
    for size in plan["page_sizes"]:
        seen["requests"] = 0
        ids, lasts, largest = [], [], 0
        for envelope in as_pages(collection.get_objects, per_request=size):
            objects = envelope.get("objects", [])
            ids.extend(o["id"] for o in objects)
            largest = max(largest, len(objects))
            last = seen["headers"].get("X-TAXII-Date-Added-Last")
            if last:
                lasts.append(last)
        per_size[str(size)] = {"ids": ids, "requests": seen["requests"], "largest_page": largest, "last_added": lasts[-1] if lasts else None}
    last_added = per_size[str(plan["page_sizes"][-1])]["last_added"]
    poll = collection.get_objects(added_after=last_added) if last_added else {}
    manifest = []
    for page in as_pages(collection.get_manifest, per_request=plan["page_sizes"][-1]):
        manifest.extend(page.get("objects", []))
    out["collections"][collection.id] = {
        "title": collection.title,
        "pages": per_size,
        "poll_after_last": {"added_after": last_added, "objects": [o["id"] for o in poll.get("objects", [])], "more": poll.get("more")},
        "manifest": manifest,
    }

for f in plan.get("filtered", []):
    collection = Collection(plan["url"].rstrip("/") + "/api/collections/" + f["collection"] + "/", user=plan["user"], password=plan["password"])
    collection.refresh()
    seen = counting(collection._conn)
    pages = []
    for envelope in as_pages(collection.get_objects, per_request=f["per_request"], **f["filters"]):
        pages.append([o["id"] for o in envelope.get("objects", [])])
    out["filtered"].append({"filters": f["filters"], "per_request": f["per_request"], "pages": pages, "requests": seen["requests"]})

for o in plan.get("objects", []):
    collection = Collection(plan["url"].rstrip("/") + "/api/collections/" + o["collection"] + "/", user=plan["user"], password=plan["password"])
    seen = counting(collection._conn)
    got = collection.get_object(o["id"])
    date_added_last = seen["headers"].get("X-TAXII-Date-Added-Last")
    versions = collection.object_versions(o["id"])
    out["objects"].append({"id": o["id"], "objects": got.get("objects", []), "versions": versions.get("versions", []), "date_added_last": date_added_last})

try:
    Server(plan["url"], user="partner", password=plan["wrong_password"]).title
    out["wrong_password"] = {"status": 200}
except requests.exceptions.HTTPError as e:
    r = e.response
    out["wrong_password"] = {"status": r.status_code, "www_authenticate": r.headers.get("WWW-Authenticate"), "content_type": r.headers.get("Content-Type"), "body": r.json()}

print(json.dumps(out))
