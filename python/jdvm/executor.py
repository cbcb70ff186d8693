"""JdvmExecutor: a concurrent.futures.Executor whose tasks are jobs of a jdvm DVM."""

import queue
import threading
from concurrent.futures import Executor, Future
from concurrent.futures._base import CANCELLED_AND_NOTIFIED, FINISHED, RUNNING

from ._pmix import PmixError
from .dvm import Dvm

_STOP = object()


class JobFuture(Future):
    """A Future whose task is a job. Unlike a thread's, a running job can be cancelled:
    :meth:`cancel` ends it (PMIx_Job_control, PMIX_JOB_CTRL_TERMINATE) and the future is
    cancelled at once; the executor's slot is free once the DVM reports the job's end."""

    def __init__(self, executor):
        super().__init__()
        self._executor = executor
        self.job = None  # the jdvm.Job once spawned
        self._cancel_asked = False

    @property
    def namespace(self):
        return self.job.namespace if self.job is not None else None

    def cancel(self):
        if super().cancel():
            return True
        with self._condition:
            if self._state != RUNNING:
                return False
            self._cancel_asked = True
            job = self.job
        if job is not None:
            try:
                job.terminate()
            except PmixError:
                if job.done():
                    return False  # it ended by itself meanwhile
                raise
        # else: being spawned; the worker ends it as soon as the spawn returns
        with self._condition:
            if self._state != RUNNING:
                return self._state in (CANCELLED_AND_NOTIFIED,)
            self._state = CANCELLED_AND_NOTIFIED
            self._condition.notify_all()
        self._invoke_callbacks()
        return True

    def _finish(self, value=None, exc=None):
        with self._condition:
            if self._state != RUNNING:
                return  # cancelled meanwhile
        try:
            if exc is not None:
                self.set_exception(exc)
            else:
                self.set_result(value)
        except Exception:  # InvalidStateError: cancelled between the check and the set
            pass


class JdvmExecutor(Executor):
    """Runs each submitted command line as a job of the DVM, ``max_in_flight`` at a time.

    ``submit(argv, **opts)`` returns a :class:`JobFuture` whose result is the job's exit code,
    or its :class:`jdvm.JobResult` with ``output="capture"`` or ``result="job"``; a job the DVM
    refuses raises :class:`jdvm.PmixError` (its PMIx status name) from ``result()``. ``opts``
    are those of :meth:`jdvm.Dvm.spawn` (procs, target, env, wdir, output, timeout, ...);
    ``defaults`` apply to every task. ``dvm`` is a :class:`jdvm.Dvm`, or None to connect as
    ``Dvm()`` does (closed again by :meth:`shutdown`).
    """

    def __init__(self, dvm=None, max_in_flight=8, **defaults):
        if int(max_in_flight) < 1:
            raise ValueError("max_in_flight must be at least 1, not %r" % (max_in_flight,))
        self._own = dvm is None
        self.dvm = Dvm() if dvm is None else dvm
        self._defaults = defaults
        self._queue = queue.SimpleQueue()
        self._shutdown = False
        self._lock = threading.Lock()
        self._running = 0
        self.peak_in_flight = 0  # the most jobs this executor had running at once
        self._workers = [threading.Thread(target=self._work, name="jdvm-task-%d" % i,
                                          daemon=True) for i in range(int(max_in_flight))]
        for w in self._workers:
            w.start()

    def submit(self, argv, /, **opts):
        if isinstance(argv, str) or not argv:
            raise ValueError("argv must be a non-empty list of strings, e.g. ['/bin/true']")
        with self._lock:
            if self._shutdown:
                raise RuntimeError("cannot submit after shutdown")
            f = JobFuture(self)
            self._queue.put((f, list(argv), {**self._defaults, **opts}))
        return f

    def _work(self):
        while True:
            item = self._queue.get()
            if item is _STOP:
                return
            f, argv, opts = item
            if not f.set_running_or_notify_cancel():
                continue
            whole = opts.pop("result", None) == "job" or opts.get("output") == "capture"
            with self._lock:
                self._running += 1
                self.peak_in_flight = max(self.peak_in_flight, self._running)
            try:
                self._run(f, argv, opts, whole)
            finally:
                with self._lock:
                    self._running -= 1

    def _run(self, f, argv, opts, whole):
        try:
            job = self.dvm.spawn(argv, **opts)
        except BaseException as e:  # a refusal: PmixError with the status name
            f._finish(exc=e)
            return
        with f._condition:
            f.job = job
            ask = f._cancel_asked
        if ask:
            try:
                job.terminate()
            except Exception:
                pass
        try:
            r = job.wait()
        except BaseException as e:
            f._finish(exc=e)
            return
        f._finish(r if whole else r.exit_code)

    def shutdown(self, wait=True, *, cancel_futures=False):
        with self._lock:
            if self._shutdown:
                return
            self._shutdown = True
            if cancel_futures:
                while True:
                    try:
                        item = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    item[0].cancel()
            for _ in self._workers:
                self._queue.put(_STOP)
        if wait:
            for w in self._workers:
                w.join()
            if self._own:
                self.dvm.close()
