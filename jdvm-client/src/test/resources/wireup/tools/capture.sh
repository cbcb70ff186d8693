#!/bin/bash
# capture.sh PROGRAM [ARGS...] - runs one PMIx client behind a logging TCP proxy, so the messages it
# exchanges with its server can be decoded (wirecap.py decode). Use it as the program a launcher
# starts, e.g.  mpirun -n 2 tools/capture.sh ./pmix_put_get ; jdvm run -n 2 tools/capture.sh ...
# Every PMIX_SERVER_URI* is pointed at the proxy; the log goes to $WIRECAP_DIR (default
# /tmp/wirecap) as <program>.<nspace>.<rank>.jsonl. PMIX_GDS_MODULE=hash makes the client keep job
# data on the wire (as under jdvm) even under a server that offers shared memory.
set -u
here=$(cd "$(dirname "$0")" && pwd)
dir=${WIRECAP_DIR:-/tmp/wirecap}
mkdir -p "$dir"
uri=${PMIX_SERVER_URI41:?no PMIX_SERVER_URI41: not started by a PMIx server}
log="$dir/$(basename "$1").${PMIX_NAMESPACE:-x}.${PMIX_RANK:-x}.jsonl"
portfile=$(mktemp)
python3 "$here/wirecap.py" proxy "${uri##*:}" "$log" "$portfile" &
proxy=$!
for _ in $(seq 100); do [ -s "$portfile" ] && break; sleep 0.02; done
port=$(cat "$portfile"); rm -f "$portfile"
for v in $(env | grep -o '^PMIX_SERVER_URI[0-9]*'); do export "$v=${uri%:*}:$port"; done
export PMIX_GDS_MODULE=hash
"$@"
rc=$?
sleep 0.2
kill "$proxy" 2>/dev/null
exit $rc
