#!/usr/bin/env bash
# Python command-line tools the tests and CI use (Schemathesis today; later validators such as
# stix2-validator or wacz belong here too), each pinned and installed once into its own virtual
# environment: ~/.cache/fip/venv/<tool>-<version> (FIP_CACHE_DIR overrides ~/.cache/fip).
# Idempotent and safe to run concurrently (a lock per environment). Prints the tool's executable.
#
#   scripts/python-tools.sh schemathesis     -> .../venv/schemathesis-4.32.5/bin/schemathesis
#
# A missing Python 3 (with venv) is an error, never a silent skip.
set -euo pipefail

tool="${1:?usage: scripts/python-tools.sh <tool>   (tools: schemathesis, wacz)}"
case "$tool" in
  schemathesis) version="4.32.5"; package="schemathesis==${version}"; executable="schemathesis" ;;
  # Webrecorder's WACZ validator (`wacz validate -f bundle.wacz`): the independent check of evidence bundles.
  wacz) version="0.6.0"; package="wacz==${version}"; executable="wacz" ;;
  *) echo "python-tools: unknown tool '${tool}' (known: schemathesis, wacz)" >&2; exit 2 ;;
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
  "${venv}/bin/python" -m pip install --quiet --disable-pip-version-check --no-input "$package" >&2
  "${venv}/bin/${executable}" --version >&2
  echo "$package" >"$marker"
fi
echo "${venv}/bin/${executable}"
