#!/usr/bin/env bash
# Python command-line tools the tests and CI use (Schemathesis today; later validators such as
# stix2-validator or wacz belong here too), each pinned and installed once into its own virtual
# environment: ~/.cache/fip/venv/<tool>-<version> (FIP_CACHE_DIR overrides ~/.cache/fip).
# Idempotent and safe to run concurrently (a lock per environment). Prints the tool's executable.
#
#   scripts/python-tools.sh schemathesis     -> .../venv/schemathesis-4.32.5/bin/schemathesis
#   scripts/python-tools.sh stix2-validator  -> .../venv/stix2-validator-3.2.0/bin/stix2_validator
#   scripts/python-tools.sh pymisp           -> .../venv/pymisp-2.5.34.4/bin/python
#   scripts/python-tools.sh taxii2-client    -> .../venv/taxii2-client-2.3.0/bin/python (a library: its python)
#   scripts/python-tools.sh xarf             -> .../venv/xarf-1.0.0/bin/python (a library: its python)
#
# A missing Python 3 (with venv) is an error, never a silent skip.
set -euo pipefail

tool="${1:?usage: scripts/python-tools.sh <tool>   (tools: schemathesis, wacz, wacz-auth, stix2-validator, pymisp, openapi-spec-validator, openapi-python-client, taxii2-client, xarf)}"
case "$tool" in
  schemathesis) version="4.32.5"; package="schemathesis==${version}"; executable="schemathesis" ;;
  # Webrecorder's WACZ validator (`wacz validate -f bundle.wacz`): the independent check of evidence bundles.
  wacz) version="0.6.0"; package="wacz==${version}"; executable="wacz" ;;
  # The same validator with Webrecorder's authsign, so `wacz validate --verify-auth` checks the
  # wacz-auth signature of datapackage-digest.json (what `pip install wacz[signing]` adds).
  wacz-auth) version="0.6.0"; package="wacz==${version} authsign==0.6.1"; executable="wacz" ;;
  # 3.2.0: the 3.3.1 package on PyPI ships without its JSON schemas and rejects every bundle.
  stix2-validator) version="3.2.0"; package="stix2-validator==${version}"; executable="stix2_validator" ;;
  # PyMISP is a library, not a command: its environment's python runs the tests' scripts (test/support/pymisp-load.py).
  pymisp) version="2.5.34.4"; package="pymisp==${version}"; executable="python" ;;
  # The OpenAPI 3.1 validator of the Python ecosystem (openapi-spec-validator <file>): /openapi.json must pass it.
  openapi-spec-validator) version="0.9.0"; package="openapi-spec-validator==${version}"; executable="openapi-spec-validator" ;;
  # Generates a Python client from /openapi.json; python-dateutil beside it runs the generated code
  # (httpx and attrs come with the generator).
  openapi-python-client) version="0.29.1"; package="openapi-python-client==${version} python-dateutil==2.9.0.post0"; executable="openapi-python-client" ;;
  # The OASIS TAXII 2.1 client (a library, no command: the tests run test/support/taxii-client.py
  # with this environment's python), and requests pinned with it: the same python submits intakes
  # the way a Python integrator does (requests' files=).
  taxii2-client) version="2.3.0"; package="taxii2-client==${version} requests==2.34.2"; executable="python" ;;
  # The XARF project's Python library (it ships the xarf-spec schemas, v4.2.0): the takedown tests
  # parse every XARF report with it (test/support/xarf-validate.py).
  xarf) version="1.0.0"; package="xarf==${version}"; executable="python" ;;
  *) echo "python-tools: unknown tool '${tool}' (known: schemathesis, wacz, wacz-auth, stix2-validator, pymisp, openapi-spec-validator, openapi-python-client, taxii2-client, xarf)" >&2; exit 2 ;;
esac

python="${FIP_PYTHON:-python3}"
if ! command -v "$python" >/dev/null 2>&1; then
  echo "python-tools: ${python} not found; install Python 3.10+ with venv (Debian: apt-get install python3 python3-venv)" >&2
  exit 3
fi

cache="${FIP_CACHE_DIR:-${HOME}/.cache/fip}"
venv="${cache}/venv/${tool}-${version}"
marker="${venv}/.fip-installed"
mkdir -p "${cache}/venv"

exec 9>"${venv}.lock"
flock 9
if [ ! -f "$marker" ]; then
  rm -rf "$venv"
  echo "python-tools: installing ${package} into ${venv}" >&2
  "$python" -m venv "$venv" >&2
  # shellcheck disable=SC2086 # $package may name several requirements
  "${venv}/bin/python" -m pip install --quiet --disable-pip-version-check --no-input $package >&2
  # stix2_validator has no --version (its --version takes the STIX version to check against).
  # PyMISP, taxii2-client and xarf are libraries: their version is what pip shows.
  case "$tool" in
    stix2-validator|pymisp|taxii2-client|xarf) "${venv}/bin/python" -m pip show "$tool" >&2 ;;
    *) "${venv}/bin/${executable}" --version >&2 ;;
  esac
  echo "$package" >"$marker"
fi
echo "${venv}/bin/${executable}"
