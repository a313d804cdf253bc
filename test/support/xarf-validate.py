# Parses each XARF report named on the command line with the XARF project's Python library (xarf,
# which validates against the xarf-spec schemas it ships) and prints one JSON line per report:
# {"file", "valid", "errors": [{"field", "message"}], "type"}.
import json
import sys

import xarf

out = []
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        result = xarf.parse(f.read(), strict=False)
    out.append({
        "file": path,
        "valid": not result.errors,
        "errors": [{"field": e.field, "message": e.message} for e in result.errors],
        "type": type(result.report).__name__ if result.report is not None else None,
    })
print(json.dumps(out))
