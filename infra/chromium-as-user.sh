#!/bin/sh
# Started by Playwright in Chromium's place when the platform runs as root (infra/chromium-sandbox.ts):
# hands the fresh browser profile Playwright made to the unprivileged user, then becomes that user
# (no supplementary groups, no capabilities, none to gain) and execs Chromium with Playwright's
# arguments. The exec keeps the process id and the pipe (fds 3 and 4) Playwright talks through.
# Chromium then starts its own sandbox (user namespaces and seccomp) as that user.
set -eu
uid="${FIP_CHROMIUM_UID:?set by infra/chromium-sandbox.ts}"
gid="${FIP_CHROMIUM_GID:?set by infra/chromium-sandbox.ts}"
exe="${FIP_CHROMIUM_EXECUTABLE:?set by infra/chromium-sandbox.ts}"
unset FIP_CHROMIUM_UID FIP_CHROMIUM_GID FIP_CHROMIUM_EXECUTABLE
for arg in "$@"; do
  case "$arg" in
    --user-data-dir=*)
      profile="${arg#--user-data-dir=}"
      chown -R "$uid:$gid" "$profile"
      HOME="$profile"
      export HOME
      ;;
  esac
done
exec setpriv --reuid="$uid" --regid="$gid" --clear-groups --inh-caps=-all --bounding-set=-all --no-new-privs -- "$exe" "$@"
