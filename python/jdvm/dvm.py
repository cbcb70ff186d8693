"""A connection to a running jdvm DVM through Debian's python3-pmix bindings."""

import json
import os
import shutil
import subprocess
import sys
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
_EVENT_JOB_END = -145
_RANK_WILDCARD = 0xFFFFFFFE

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
            if self._outdir is not None:
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
        self._early = {}
        self._control = None
        self._control_lock = threading.Lock()
        self._closed = False
        infos = []
        if self.contact.uri:
            infos.append(_pmix.string(pmix.PMIX_SERVER_URI, self.contact.uri))
        self._tool = pmix.PMIxTool()
        rc, me = self._tool.init(infos)
        if rc != pmix.PMIX_SUCCESS:
            raise PmixError(rc, "cannot connect to the DVM (%s)"
                            % (self.contact.uri or "libpmix's rendezvous search"))
        self.namespace = me["nspace"]
        rc, _ = self._tool.register_event_handler([_EVENT_JOB_END], None, self._on_event)
        if rc != pmix.PMIX_SUCCESS:
            raise PmixError(rc, "cannot register for job ends")
        _pmix.add_ack_threads(1)

    # ---- events -----------------------------------------------------------------------------

    def _on_event(self, evid, status, source, infos, results):
        ns, term, code = None, status, 0
        for d in infos:
            k, v = d.get("key"), d.get("value")
            if k == "pmix.evproc" and isinstance(v, dict):
                ns = v.get("nspace")
            elif k == "pmix.job.term.status":
                term = v
            elif k == "pmix.exit.code":
                code = v
        if isinstance(ns, bytes):
            ns = ns.decode("utf-8", "replace")
        if ns is not None:
            with self._lock:
                job = self._jobs.pop(ns, None)
                if job is None:
                    self._early[ns] = (term, code)  # ended before its spawn returned
            if job is not None:
                job._end(term, code)
        return _pmix.pmix.PMIX_EVENT_ACTION_COMPLETE, []

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
        job_infos = [_pmix.boolean(p.PMIX_NOTIFY_COMPLETION, True),
                     _pmix.boolean(p.PMIX_FWD_STDOUT, output == "forward"),
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
        job = Job(self, ns, outdir, int(procs), bool(merge_stderr))
        with self._lock:
            early = self._early.pop(ns, None)
            if early is None:
                self._jobs[ns] = job
        if early is not None:
            job._end(*early)
        return job

    def run(self, argv, **kw):
        """spawn, then wait: the :class:`JobResult`."""
        return self.spawn(argv, **kw).wait()

    def in_flight(self):
        with self._lock:
            return len(self._jobs)

    # ---- control (through the helper process: README.md, bug 1) ------------------------------

    def _call(self, req, scheduler=False):
        """One request to a control helper: the persistent plain one, or, for what only a job's
        ancestors or an allocation's owners may do, a helper connected as the scheduler for
        this one request (jdvm admits one scheduler connection at a time: held briefly)."""
        if scheduler:
            c = self._start_control(True)
            try:
                return self._exchange(c, req)
            finally:
                self._stop(c)
        with self._control_lock:
            if self._closed:
                raise RuntimeError("the connection to the DVM is closed")
            if self._control is None:
                self._control = self._start_control(False)
            return self._exchange(self._control, req)

    @staticmethod
    def _exchange(c, req):
        c.stdin.write(json.dumps(req) + "\n")
        c.stdin.flush()
        line = c.stdout.readline()
        if not line:
            raise PmixError(-1, "the control helper (pid %d) ended" % c.pid)
        reply = json.loads(line)
        return reply["rc"], reply["results"]

    @staticmethod
    def _stop(c):
        try:
            c.stdin.close()
        except OSError:
            pass
        try:
            c.wait(10)
        except subprocess.TimeoutExpired:
            c.kill()
            c.wait()

    def _start_control(self, scheduler):
        infos = [{"key": "pmix.srvr.uri", "value": self.contact.uri, "val_type": 3}]
        if scheduler:
            d = self.contact.dir
            if d is None:
                raise RuntimeError("ending jobs and extending or releasing allocations need the "
                                   "DVM's directory (its scheduler credential): connect with "
                                   "dir= or its contact file")
            from .contact import read_own_file
            cred = read_own_file(os.path.join(d, "scheduler.cred")).strip()
            infos.append({"key": "jdvm.sched.cred", "value": cred, "val_type": 3})
        elif self.contact.uri is None:
            infos = []
        env = dict(os.environ)
        pkg_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env["PYTHONPATH"] = pkg_root + os.pathsep + env.get("PYTHONPATH", "")
        delay, deadline = 0.05, time.monotonic() + 30
        while True:
            c = subprocess.Popen([sys.executable, "-W", "ignore", "-m", "jdvm._control"],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env,
                                 text=True, close_fds=True)
            c.stdin.write(json.dumps({"infos": infos}) + "\n")
            c.stdin.flush()
            line = c.stdout.readline()
            rc = json.loads(line)["rc"] if line else -1
            if rc == 0:
                return c
            self._stop(c)
            # UNREACH for the scheduler role: another process holds it now; try again shortly
            if not scheduler or time.monotonic() > deadline:
                raise PmixError(rc, "the control helper could not connect to the DVM%s"
                                % (" as its scheduler" if scheduler else ""))
            time.sleep(delay)
            delay = min(delay * 2, 1.0)

    def terminate(self, namespace):
        """Ends a job (PMIx_Job_control with PMIX_JOB_CTRL_TERMINATE)."""
        rc, _ = self._call({"op": "job_control",
                            "targets": [{"nspace": namespace, "rank": _RANK_WILDCARD}],
                            "directives": [{"key": "pmix.jctrl.term", "value": True,
                                            "val_type": 1}]}, scheduler=True)
        if rc != 0:
            raise PmixError(rc, "the DVM refused to end job %s" % namespace)

    def allocate(self, nodes=None, node_list=None, inheritance=None, time=None, req_id=None,
                 share=None, required=True, infos=None):
        """PMIx_Allocation_request(PMIX_ALLOC_NEW): an :class:`Allocation` owned by this tool.

        ``inheritance`` ("none", "child", "default", "child_default", or 1–4) is what becomes of
        it when this tool ends (PMIX_ALLOC_INHERITANCE); ``required`` refuses at once what the
        scheduler can never grant rather than queueing it.
        """
        req = [{"key": "pmix.alloc.tgt", "value": self.namespace, "val_type": 3}]
        req += self._alloc_infos(nodes, node_list, inheritance, time, req_id, share, required)
        rc, res = self._allocation(_ALLOC_NEW, req + list(infos or []), "a new allocation")
        values = _pmix.values(res)
        return Allocation(self, values.get("pmix.alloc.id"), values)

    def extend(self, alloc_id, nodes=None, node_list=None, time=None, required=True):
        """PMIX_ALLOC_EXTEND of an allocation: more nodes or time. The reply's values."""
        req = [{"key": "pmix.alloc.id", "value": alloc_id, "val_type": 3}]
        req += self._alloc_infos(nodes, node_list, None, time, None, None, required)
        return _pmix.values(self._allocation(_ALLOC_EXTEND, req, "extending " + alloc_id,
                                             scheduler=True)[1])

    def release(self, alloc_id):
        """PMIX_ALLOC_RELEASE of a whole allocation."""
        req = [{"key": "pmix.alloc.id", "value": alloc_id, "val_type": 3}]
        return _pmix.values(self._allocation(_ALLOC_RELEASE, req, "releasing " + alloc_id,
                                             scheduler=True)[1])

    def _allocation(self, directive, req, what, scheduler=False):
        rc, res = self._call({"op": "allocate", "directive": directive, "infos": req},
                             scheduler)
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
            out.append({"key": "pmix.alloc.nlist", "value": names, "val_type": 3,
                        "flags": reqd})
        if inheritance is not None:
            code = _INHERITANCE.get(inheritance, inheritance)
            if code not in (1, 2, 3, 4):
                raise ValueError("inheritance must be none, child, default or child_default, "
                                 "not %r" % (inheritance,))
            out.append({"key": "pmix.alloc.inhrt", "value": code, "val_type": 12})
        if time is not None:
            out.append({"key": "pmix.alloc.time", "value": str(time), "val_type": 3})
        if req_id is not None:
            out.append({"key": "pmix.alloc.reqid", "value": req_id, "val_type": 3})
        if share is not None:
            out.append({"key": "pmix.alloc.share", "value": bool(share), "val_type": 1})
        return out

    def query(self, key):
        """A jdvm listing (``jobs``, ``nodes``, ``allocs``): what ``jdvm KEY --json`` prints."""
        rc, res = self._call({"op": "query", "queries": [{"keys": ["jdvm.qry." + key],
                                                          "qualifiers": []}]})
        if rc != 0:
            raise PmixError(rc, "the DVM refused the query jdvm.qry." + key)
        return json.loads(_pmix.values(res).get("jdvm.qry." + key, "[]"))

    # ---- end --------------------------------------------------------------------------------

    def close(self):
        """Ends the control helper and leaves the DVM. Jobs still running go on."""
        if self._closed:
            return
        with self._control_lock:
            self._closed = True
            c, self._control = self._control, None
        if c is not None:
            self._stop(c)
        # Workaround (PMIxTool.finalize): finalize keeps the GIL while it waits for the DVM, so
        # it is called only when no job of ours can end meanwhile.
        if self.in_flight() == 0:
            self._tool.finalize()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
