"""A connection to a running jdvm DVM through Debian's python3-pmix bindings."""

import json
import os
import shutil
import tempfile
import threading
import time

from . import _pmix
from ._pmix import PmixError
from .contact import discover

# PMIX_ALLOC_INHERITANCE (jdvm's "pmix.alloc.inhrt", not in the 4.2.2 bindings): sent as a
# PMIX_UINT8, as jdvm's Java client sends it to a 4.2-era DVM.
INHERIT_NONE, INHERIT_CHILD, INHERIT_DEFAULT, INHERIT_CHILD_DEFAULT = 1, 2, 3, 4
_INHERITANCE = {"none": 1, "child": 2, "default": 3, "child_default": 4, "child-default": 4}

_ALLOC_NEW, _ALLOC_EXTEND, _ALLOC_RELEASE = 1, 2, 3
_RANK_WILDCARD = 0xFFFFFFFE
_QUERY_JOBS = "jdvm.qry.jobs"

# A job's end is learned by polling (README.md, "How it is built"): the first poll 0.5 ms after a
# spawn or an end, then twice as long each time nothing ended, up to 5 ms; after 2 s with nothing
# ending, up to 50 ms.
_POLL_FIRST, _POLL_BUSY_MAX, _POLL_IDLE_MAX, _POLL_IDLE_AFTER = 0.0005, 0.005, 0.05, 2.0

# a job retired before a poll saw its end (10,000 later ends in a poll interval), and a job still
# running when its Dvm was closed: no status is known
_RETIRED = (-46, -1)        # PMIX_ERR_NOT_FOUND
_CLOSED = (-25, -1)         # PMIX_ERR_UNREACH

_connected = threading.Lock()  # the bindings hold one tool per process (README.md, bug 6)


class JobResult:
    """How a job ended: ``status`` (PMIx, 0 = success) and its ``status_name``, ``exit_code``
    as a shell reports it, and, when asked for, ``stdout``/``stderr`` (bytes, ranks in order)."""

    def __init__(self, namespace, status, exit_code, stdout=None, stderr=None):
        self.namespace = namespace
        self.status = status
        self.status_name = _pmix.status_name(status)
        self.exit_code = exit_code
        self.stdout = stdout
        self.stderr = stderr

    @property
    def ok(self):
        return self.status == 0 and self.exit_code == 0

    def __repr__(self):
        return "JobResult(%s, %s, exit_code=%d)" % (self.namespace, self.status_name,
                                                    self.exit_code)


class Job:
    """A spawned job: ``namespace``; :meth:`wait` for its :class:`JobResult`."""

    def __init__(self, dvm, namespace, outdir=None, procs=1, merged=False):
        self.dvm = dvm
        self.namespace = namespace
        self._outdir = outdir
        self._procs = procs
        self._merged = merged
        self._ended = threading.Event()
        self._status = None
        self._exit = None
        self._result = None

    def _end(self, status, exit_code):
        self._status, self._exit = status, exit_code
        self._ended.set()

    def done(self):
        return self._ended.is_set()

    def wait(self, timeout=None):
        """The job's result once it ended; TimeoutError if it did not within ``timeout`` s."""
        if not self._ended.wait(timeout):
            raise TimeoutError("job %s still running after %s s" % (self.namespace, timeout))
        if self._result is None:
            out = err = None
            if self._outdir is not None and self._exit != -1:  # -1: no end was seen
                _await_files(self._outdir, self.namespace, self._procs, self._merged)
                out, err = _read_output(self._outdir, self.namespace)
                shutil.rmtree(self._outdir, ignore_errors=True)
            self._result = JobResult(self.namespace, self._status, self._exit, out, err)
        return self._result

    def terminate(self):
        """Ends the job (PMIx_Job_control, PMIX_JOB_CTRL_TERMINATE)."""
        self.dvm.terminate(self.namespace)


def _await_files(outdir, namespace, procs, merged, limit=10.0):
    """Waits until the DVM has written every rank's files (bounded).

    The job's end can reach this tool before the DVM has written the last output it read from
    the ranks (README.md, "Seen in jdvm"); the DVM creates both files of a rank, empty or not,
    when it has handled that rank's end, so their presence says the rank's output is complete.
    """
    width = len(str(max(procs - 1, 0)))
    names = []
    for r in range(procs):
        base = os.path.join(outdir, "out.%s.%0*d" % (namespace, width, r))
        names.append(base + ".out")
        if not merged:
            names.append(base + ".err")
    deadline = time.monotonic() + limit
    delay = 0.001
    while not all(os.path.exists(n) for n in names) and time.monotonic() < deadline:
        time.sleep(delay)
        delay = min(delay * 2, 0.05)


def _read_output(outdir, namespace):
    """The files the DVM wrote for PMIX_IOF_OUTPUT_TO_FILE: PREFIX.NSPACE.RANK.out/.err."""
    out, err = [], []
    prefix = "out." + namespace + "."
    ranks = sorted(int(f[len(prefix):].split(".")[0]) for f in os.listdir(outdir)
                   if f.startswith(prefix) and f.endswith(".out"))
    for r in ranks:
        for suffix, acc in ((".out", out), (".err", err)):
            p = os.path.join(outdir, prefix + str(r) + suffix)
            if os.path.exists(p):
                with open(p, "rb") as f:
                    acc.append(f.read())
    return b"".join(out), b"".join(err)


class Allocation:
    """A reservation the DVM granted: ``id`` (PMIX_ALLOC_ID) and the reply's other ``values``."""

    def __init__(self, dvm, alloc_id, values):
        self.dvm = dvm
        self.id = alloc_id
        self.values = values

    def extend(self, **kw):
        return self.dvm.extend(self.id, **kw)

    def release(self):
        return self.dvm.release(self.id)

    def __repr__(self):
        return "Allocation(%r)" % self.id


class Dvm:
    """A connection to a running DVM, as a PMIx tool.

    ``Dvm()`` finds it as ``jdvm`` does (``$JDVM_URI``, ``~/.jdvm/dvm.json``), falling back to
    libpmix's own rendezvous; ``Dvm(dir=D)``, ``Dvm(contact=FILE)``, ``Dvm(uri=URI)`` or
    ``Dvm(rendezvous=True)`` choose. Use it as a context manager, or call :meth:`close`.
    """

    def __init__(self, uri=None, dir=None, contact=None, rendezvous=False):
        pmix = _pmix.require()
        self.contact = discover(uri=uri, dir=dir, contact=contact, rendezvous=rendezvous)
        if not _connected.acquire(blocking=False):
            raise RuntimeError("this process is already connected to a DVM: the 4.2.2 bindings "
                               "hold one PMIx tool per process, for the process's life")
        self._lock = threading.Lock()
        self._jobs = {}
        self._closed = False
        infos = []
        if self.contact.uri:
            infos.append(_pmix.string(pmix.PMIX_SERVER_URI, self.contact.uri))
        self._tool = pmix.PMIxTool()
        rc, me = self._tool.init(infos)
        if rc != pmix.PMIX_SUCCESS:
            _connected.release()
            raise PmixError(rc, "cannot connect to the DVM (%s)"
                            % (self.contact.uri or "libpmix's rendezvous search"))
        self.namespace = me["nspace"]
        if isinstance(self.namespace, bytes):
            self.namespace = self.namespace.decode("utf-8")
        # No event handler, ever: nothing of ours runs on libpmix's progress thread, so the
        # bindings' calls that keep the GIL cannot deadlock (README.md, bug 1); the thread that
        # acknowledges handlers' answers has nothing to do.
        _pmix.stop_ack_thread()
        self._kick = threading.Event()
        self._poller = threading.Thread(target=self._poll_loop, name="jdvm-poll", daemon=True)
        self._poller.start()

    # ---- job ends, by polling ----------------------------------------------------------------

    def _poll_loop(self):
        interval, quiet_since = _POLL_FIRST, time.monotonic()
        while True:
            with self._lock:
                idle = not self._jobs
            kicked = self._kick.wait(None if idle and not self._closed else interval)
            if self._closed:
                return
            if kicked:  # a spawn: its job's first poll 0.5 ms from now
                self._kick.clear()
                interval, quiet_since = _POLL_FIRST, time.monotonic()
                time.sleep(_POLL_FIRST)
            if self._poll_once():
                interval, quiet_since = _POLL_FIRST, time.monotonic()
            else:
                cap = (_POLL_IDLE_MAX if time.monotonic() - quiet_since > _POLL_IDLE_AFTER
                       else _POLL_BUSY_MAX)
                interval = min(interval * 2, cap)

    def _poll_once(self):
        """One PMIx_Query_info with one ``jdvm.qry.jobs`` query per job in flight, each
        qualified by its PMIX_NSPACE: one round trip whatever their number. Each answer names
        its job; a job with no answer was retired (NOT_FOUND) before a poll saw it end. Returns
        whether any job ended."""
        with self._lock:
            jobs = dict(self._jobs)
        if not jobs:
            return False
        p = _pmix.pmix
        queries = [{"keys": [_QUERY_JOBS], "qualifiers": [_pmix.string(p.PMIX_NSPACE, ns)]}
                   for ns in jobs]
        rc, res = self._tool.query(queries)
        ended = {}
        if rc == p.PMIX_SUCCESS:
            seen = set()
            for d in res or []:
                v = d.get("value")
                if d.get("key") != _QUERY_JOBS or v is None:
                    continue
                for j in json.loads(v.decode("utf-8") if isinstance(v, bytes) else v):
                    ns = j.get("nspace")
                    seen.add(ns)
                    if j.get("state") == "terminated" and ns in jobs:
                        ended[ns] = (j.get("status") or 0, j.get("exitCode") or 0)
            for ns in jobs:
                if ns not in seen:
                    ended[ns] = _RETIRED
        elif rc == p.PMIX_ERR_NOT_FOUND:
            ended = {ns: _RETIRED for ns in jobs}
        else:
            ended = {ns: (rc, -1) for ns in jobs}  # the DVM is gone or refuses: say so
        for ns, (status, code) in ended.items():
            with self._lock:
                job = self._jobs.pop(ns, None)
            if job is not None:
                job._end(status, code)
        return bool(ended)

    # ---- spawn ------------------------------------------------------------------------------

    def spawn(self, argv, procs=1, target=None, env=None, wdir=None, output=None,
              timeout=None, map_by=None, recoverable=None, merge_stderr=False, infos=None):
        """Starts a job and returns its :class:`Job` once the DVM launched it.

        ``argv`` the command line; ``procs`` its processes (``jdvm run -n``); ``target`` an
        allocation id or a list of them (PMIX_SPAWN_TARGET, ``""`` the default session; ``jdvm
        run --target``); ``env`` a dict set in the processes (PMIX_SET_ENVAR, ``--setenv``);
        ``wdir`` their working directory (default this process's, ``--wdir``); ``output``
        None (dropped), ``"forward"`` (to this process's stdout/stderr, as ``jdvm run``) or
        ``"capture"`` (into the JobResult); ``timeout`` seconds (PMIX_JOB_TIMEOUT,
        ``--timeout``); ``map_by`` (PMIX_MAPBY, ``--map-by``); ``recoverable``
        (PMIX_JOB_RECOVERABLE, ``--keep-going``); ``merge_stderr``; ``infos`` more job infos as
        the bindings take them.
        """
        if self._closed:
            raise RuntimeError("the connection to the DVM is closed")
        if isinstance(argv, str) or not argv:
            raise ValueError("argv must be a non-empty list of strings, e.g. ['/bin/true']")
        if int(procs) < 1:
            raise ValueError("procs must be at least 1, not %r" % procs)
        p = _pmix.pmix
        job_infos = [_pmix.boolean(p.PMIX_FWD_STDOUT, output == "forward"),
                     _pmix.boolean(p.PMIX_FWD_STDERR, output == "forward")]
        if output not in (None, "forward", "capture"):
            raise ValueError("output must be None, 'forward' or 'capture', not %r" % (output,))
        outdir = None
        if output == "capture":
            outdir = tempfile.mkdtemp(prefix="jdvm-out-")
            job_infos.append(_pmix.string("pmix.iof.file", os.path.join(outdir, "out")))
            job_infos.append(_pmix.boolean("pmix.iof.fonly", True))
        if target is not None:
            if isinstance(target, str):
                job_infos.append(_pmix.string("pmix.spwn.tgt", target))
            else:
                job_infos.append(_pmix.strings("pmix.spwn.tgt", list(target)))
        if timeout is not None:
            job_infos.append(_pmix.info(p.PMIX_JOB_TIMEOUT, int(timeout), p.PMIX_INT))
        if map_by is not None:
            job_infos.append(_pmix.string(p.PMIX_MAPBY, map_by))
        if recoverable is not None:
            job_infos.append(_pmix.boolean(p.PMIX_JOB_RECOVERABLE, recoverable))
        if merge_stderr:
            job_infos.append(_pmix.boolean(p.PMIX_IOF_MERGE_STDERR_STDOUT, True))
        job_infos.extend(infos or [])
        app_infos = [_pmix.envar(p.PMIX_SET_ENVAR, k, str(v)) for k, v in (env or {}).items()]
        cwd = wdir if wdir is not None else os.getcwd()
        app = _pmix.app([os.fspath(a) for a in argv], procs, cwd, app_infos)
        rc, ns = self._tool.spawn(job_infos, [app])
        if rc != p.PMIX_SUCCESS:
            if outdir:
                shutil.rmtree(outdir, ignore_errors=True)
            raise PmixError(rc, "the DVM refused to spawn %s" % " ".join(map(str, argv)))
        if isinstance(ns, bytes):
            ns = ns.decode("utf-8")
        job = Job(self, ns, outdir, int(procs), bool(merge_stderr))
        with self._lock:
            self._jobs[ns] = job
        self._kick.set()
        return job

    def run(self, argv, **kw):
        """spawn, then wait: the :class:`JobResult`."""
        return self.spawn(argv, **kw).wait()

    def in_flight(self):
        with self._lock:
            return len(self._jobs)

    # ---- control: this connection's own identity ---------------------------------------------
    # It spawned the jobs (their parent) and requested the allocations (their owner), which is
    # what jdvm asks of whoever ends a job or extends or releases an allocation. These calls keep
    # the GIL in the 4.2.2 bindings; with no event handler registered that is harmless.

    def _check_open(self):
        if self._closed:
            raise RuntimeError("the connection to the DVM is closed")

    def terminate(self, namespace):
        """Ends a job (PMIx_Job_control with PMIX_JOB_CTRL_TERMINATE)."""
        self._check_open()
        out = self._tool.job_control([{"nspace": namespace, "rank": _RANK_WILDCARD}],
                                     [_pmix.boolean("pmix.jctrl.term", True)])
        rc = out if isinstance(out, int) else out[0]  # a bare int: README.md, bug 11
        if rc != 0:
            raise PmixError(rc, "the DVM refused to end job %s" % namespace)

    def allocate(self, nodes=None, node_list=None, inheritance=None, time=None, req_id=None,
                 share=None, required=True, infos=None):
        """PMIx_Allocation_request(PMIX_ALLOC_NEW): an :class:`Allocation` owned by this tool.

        ``inheritance`` ("none", "child", "default", "child_default", or 1–4) is what becomes of
        it when this tool ends (PMIX_ALLOC_INHERITANCE); ``required`` refuses at once what the
        scheduler can never grant rather than queueing it.
        """
        req = self._alloc_infos(nodes, node_list, inheritance, time, req_id, share, required)
        rc, res = self._allocation(_ALLOC_NEW, req + list(infos or []), "a new allocation")
        values = _pmix.values(res)
        return Allocation(self, values.get("pmix.alloc.id"), values)

    def extend(self, alloc_id, nodes=None, node_list=None, time=None, required=True):
        """PMIX_ALLOC_EXTEND of an allocation: more nodes or time. The reply's values."""
        req = [_pmix.string("pmix.alloc.id", alloc_id)]
        req += self._alloc_infos(nodes, node_list, None, time, None, None, required)
        return _pmix.values(self._allocation(_ALLOC_EXTEND, req, "extending " + alloc_id)[1])

    def release(self, alloc_id):
        """PMIX_ALLOC_RELEASE of a whole allocation."""
        req = [_pmix.string("pmix.alloc.id", alloc_id)]
        return _pmix.values(self._allocation(_ALLOC_RELEASE, req, "releasing " + alloc_id)[1])

    def _allocation(self, directive, req, what):
        self._check_open()
        out = self._tool.allocation_request(directive, req)
        rc, res = (out, []) if isinstance(out, int) else out
        if rc != 0:
            raise PmixError(rc, "the DVM refused %s" % what)
        return rc, res

    @staticmethod
    def _alloc_infos(nodes, node_list, inheritance, time, req_id, share, required):
        reqd = 1 if required else 0
        out = []
        if nodes is not None:
            out.append({"key": "pmix.alloc.nnodes", "value": int(nodes), "val_type": 15,
                        "flags": reqd})
        if node_list is not None:
            names = node_list if isinstance(node_list, str) else ",".join(node_list)
            out.append(_pmix.string("pmix.alloc.nlist", names, required=bool(reqd)))
        if inheritance is not None:
            code = _INHERITANCE.get(inheritance, inheritance)
            if code not in (1, 2, 3, 4):
                raise ValueError("inheritance must be none, child, default or child_default, "
                                 "not %r" % (inheritance,))
            out.append({"key": "pmix.alloc.inhrt", "value": code, "val_type": 12})
        if time is not None:
            out.append(_pmix.string("pmix.alloc.time", str(time)))
        if req_id is not None:
            out.append(_pmix.string("pmix.alloc.reqid", req_id))
        if share is not None:
            out.append({"key": "pmix.alloc.share", "value": bool(share), "val_type": 1})
        return out

    def query(self, key):
        """A jdvm listing (``jobs``, ``nodes``, ``allocs``): what ``jdvm KEY --json`` prints."""
        self._check_open()
        rc, res = self._tool.query([{"keys": ["jdvm.qry." + key], "qualifiers": []}])
        if rc != 0:
            raise PmixError(rc, "the DVM refused the query jdvm.qry." + key)
        return json.loads(_pmix.values(res).get("jdvm.qry." + key, "[]"))

    # ---- end --------------------------------------------------------------------------------

    def close(self):
        """Stops polling and leaves the DVM. Jobs still running go on; nothing learns their end
        any more, so their :meth:`Job.wait` answers PMIX_ERR_UNREACH with exit code -1."""
        if self._closed:
            return
        self._closed = True
        self._kick.set()
        if self._poller is not threading.current_thread():
            self._poller.join()
        with self._lock:
            left, self._jobs = list(self._jobs.values()), {}
        for job in left:
            job._end(_CLOSED[0], _CLOSED[1])
        self._tool.finalize()  # keeps the GIL, harmless with no event handler (bug 1)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
