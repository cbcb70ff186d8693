"""The control helper: ``python3 -m jdvm._control`` (started by :class:`jdvm.Dvm` when needed).

A second PMIx tool, in a process of its own, that makes the calls the 4.2.2 bindings make while
keeping the GIL (PMIxTool.job_control, allocation_request, query). In the process that spawns and
waits, such a call deadlocks as soon as a job's end arrives during it: libpmix's progress thread,
which must deliver the call's reply, waits for the GIL to run the Python event handler first
(README.md, "Bugs of the 4.2.2 bindings"). This process registers no handler, so nothing ever
needs its GIL from libpmix's thread.

It connects with the DVM's scheduler credential (``<dir>/scheduler.cred``, docs/protocol.md
"Who a peer is"), since jdvm lets only a job's ancestors or the scheduler control it and only an
allocation's owners or the scheduler extend or release it; a new allocation names the parent's
tool namespace as its owner (PMIX_ALLOC_TARGET), so inheritance follows the parent.

Protocol: the parent writes one JSON request a line on stdin, ``{"op": ..., ...}``; the helper
answers each with one JSON line ``{"rc": STATUS, "results": [...]}``. EOF ends it.
"""

import json
import os
import sys

from . import _pmix
from ._pmix import pmix


def _decode(obj):
    if isinstance(obj, bytes):
        return obj.decode("utf-8", "replace")
    if isinstance(obj, dict):
        return {k: _decode(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_decode(v) for v in obj]
    return obj


def _infos(lst):
    out = []
    for d in lst:
        d = dict(d)
        if d.get("val_type") == pmix.PMIX_STRING and isinstance(d.get("value"), str):
            d["value"] = d["value"].encode("utf-8")
        out.append(d)
    return out


def main():
    _pmix.require()
    init = json.loads(sys.stdin.readline())
    tool = pmix.PMIxTool()
    rc, me = tool.init(_infos(init["infos"]))
    _pmix.stop_ack_thread()
    out = sys.stdout
    out.write(json.dumps({"rc": rc, "results": _decode(me)}) + "\n")
    out.flush()
    if rc != pmix.PMIX_SUCCESS:
        os._exit(1)
    for line in sys.stdin:
        req = json.loads(line)
        op = req["op"]
        if op == "job_control":
            rc, res = tool.job_control(req["targets"], _infos(req["directives"]))
        elif op == "allocate":
            rc, res = tool.allocation_request(req["directive"], _infos(req["infos"]))
        elif op == "query":
            rc, res = tool.query([{"keys": q["keys"], "qualifiers": _infos(q["qualifiers"])}
                                  for q in req["queries"]])
        else:
            rc, res = pmix.PMIX_ERR_BAD_PARAM, []
        out.write(json.dumps({"rc": rc, "results": _decode(res)}) + "\n")
        out.flush()
    # no finalize: nothing to wait for, and the DVM sees the connection close
    os._exit(0)


if __name__ == "__main__":
    main()
