#!/usr/bin/env bash
# Build the Linux-kernel reference harness: the TUN delay line (C, not a workspace member)
# and check the tools the harness calls. Needs root for the runs, not for this build.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$here/build"
cc -O2 -Wall -Wextra -pthread -o "$here/build/delayline" "$here/delayline.c"
echo "built $here/build/delayline"
missing=0
for tool in ip tc ping nstat; do
    if ! command -v "$tool" >/dev/null; then
        echo "missing: $tool (Debian: iproute2 / iputils-ping)" >&2
        missing=1
    fi
done
[ -e /dev/net/tun ] || { echo "missing: /dev/net/tun" >&2; missing=1; }
avail=$(cat /proc/sys/net/ipv4/tcp_available_congestion_control)
echo "kernel $(uname -r); congestion controls: $avail"
exit $missing
