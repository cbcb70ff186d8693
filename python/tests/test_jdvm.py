"""The jdvm Python package against a running DVM: ``JDVM_TEST_DIR`` names its directory.

Run by jdvm-cli's PythonPackageTest (which starts the DVM, with spare scheduler nodes for the
allocations) or by hand: ``PYTHONPATH=python JDVM_TEST_DIR=~/.jdvm python3 -m unittest
discover -s python/tests``. The 4.2.2 bindings hold one PMIx tool per process, so the whole
module shares one connection; what must end a tool runs in a child interpreter.
"""

import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest

import jdvm

DIR = os.environ.get("JDVM_TEST_DIR")
dvm = None


def setUpModule():
    global dvm
    if not DIR:
        raise unittest.SkipTest("JDVM_TEST_DIR names no DVM directory")
    dvm = jdvm.Dvm(dir=DIR)


def tearDownModule():
    if dvm is not None:
        dvm.close()


def child(code):
    """Runs ``code`` in another interpreter (a tool of its own) and returns its stdout lines."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    r = subprocess.run([sys.executable, "-W", "ignore", "-c", textwrap.dedent(code)],
                       capture_output=True, text=True, env=env, timeout=120)
    if r.returncode != 0:
        raise AssertionError("child failed (%d): %s %s" % (r.returncode, r.stdout, r.stderr))
    return r.stdout.split()


def app_jobs():
    return {j["nspace"] for j in dvm.query("jobs") if j["kind"] == "application"}


class SpawnAndWait(unittest.TestCase):
    def test_every_rank_runs_and_its_output_and_exit_code_come_back(self):
        r = dvm.run(["/bin/echo", "hello"], procs=2, output="capture")
        self.assertEqual((r.status, r.status_name, r.exit_code), (0, "PMIX_SUCCESS", 0))
        self.assertEqual(r.stdout, b"hello\nhello\n")
        self.assertTrue(r.ok)

    def test_a_failing_job_reports_its_exit_code_and_status(self):
        r = dvm.run(["/bin/sh", "-c", "echo oops >&2; exit 3"], output="capture")
        self.assertEqual(r.exit_code, 3)
        self.assertEqual(r.status_name, "PMIX_ERR_EXIT_NONZERO_TERM")
        self.assertEqual(r.stderr, b"oops\n")
        self.assertFalse(r.ok)

    def test_environment_and_working_directory_reach_the_processes(self):
        with tempfile.TemporaryDirectory() as wd:
            r = dvm.run(["/bin/sh", "-c", 'echo "$GREETING $(pwd)"'], output="capture",
                        env={"GREETING": "grüß dich"}, wdir=wd)
            self.assertEqual(r.stdout.decode(), "grüß dich %s\n" % os.path.realpath(wd))

    def test_spawn_returns_before_the_job_ends(self):
        job = dvm.spawn(["/bin/sleep", "2"])
        self.assertFalse(job.done())
        with self.assertRaises(TimeoutError):
            job.wait(0.1)
        self.assertEqual(job.wait(60).exit_code, 0)


class Allocations(unittest.TestCase):
    """Each disposition, as the DVM applies it when the owning tool (a child interpreter) ends.

    none: the node goes back to the scheduler; default: it stays in the DVM, unreserved; child
    and child_default: the allocation lasts while a job the owner spawned into it runs, then
    goes as none or default does.
    """

    def owner_ends(self, inheritance, with_child):
        # The child job outlives its owner and then nothing but the DVM's scheduler may end it
        # (only a job's ancestors may), a role this package never takes: it ends by itself once
        # the test creates the file it waits for (end_children).
        self.flag = os.path.join(tempfile.mkdtemp(prefix="jdvm-test-"), "end")
        out = child("""
            import jdvm
            d = jdvm.Dvm(dir=%r)
            a = d.allocate(nodes=1, inheritance=%r)
            if %r:
                d.spawn(["/bin/sh", "-c", "while [ ! -e %s ]; do sleep 0.05; done"],
                        target=a.id)
            print(a.id, a.values["pmix.alloc.nlist"], d.namespace)
            d.close()
            """ % (DIR, inheritance, with_child, self.flag))
        return out[0], out[1], out[2]

    def alloc(self, alloc_id):
        return next((a for a in dvm.query("allocs") if a["allocId"] == alloc_id), None)

    def node(self, name):
        return next((n for n in dvm.query("nodes") if n["name"] == name), None)

    def await_gone(self, alloc_id):
        for _ in range(600):
            if self.alloc(alloc_id) is None:
                return
            time.sleep(0.05)
        self.fail("allocation %s still there: %s" % (alloc_id, self.alloc(alloc_id)))

    def end_children_of(self, owner):
        running = [j["nspace"] for j in dvm.query("jobs")
                   if j["parent"] == owner and j["state"] != "terminated"]
        self.assertEqual(len(running), 1)
        # not this connection's job, and this connection is not the scheduler: refused
        with self.assertRaises(jdvm.PmixError) as e:
            dvm.terminate(running[0])
        self.assertEqual(e.exception.name, "PMIX_ERR_NO_PERMISSIONS")
        open(self.flag, "w").close()

    def test_none_returns_the_node_to_the_scheduler_when_its_owner_ends(self):
        alloc_id, node, _ = self.owner_ends("none", False)
        self.await_gone(alloc_id)
        self.assertIsNone(self.node(node))

    def test_default_leaves_the_node_in_the_dvm_unreserved(self):
        alloc_id, node, _ = self.owner_ends("default", False)
        self.await_gone(alloc_id)
        n = self.node(node)
        self.assertIsNotNone(n)
        self.assertFalse(n["reserved"])

    def test_child_lasts_while_a_child_job_runs_then_returns_the_node(self):
        alloc_id, node, owner = self.owner_ends("child", True)
        self.assertEqual(self.alloc(alloc_id)["inheritance"], "CHILD")
        self.end_children_of(owner)
        self.await_gone(alloc_id)
        self.assertIsNone(self.node(node))

    def test_child_default_lasts_while_a_child_job_runs_then_stays_unreserved(self):
        alloc_id, node, owner = self.owner_ends("child_default", True)
        self.assertEqual(self.alloc(alloc_id)["inheritance"], "CHILD_DEFAULT")
        self.end_children_of(owner)
        self.await_gone(alloc_id)
        self.assertFalse(self.node(node)["reserved"])

    def test_a_job_runs_in_my_allocation_which_i_extend_and_release(self):
        a = dvm.allocate(nodes=1, inheritance="none")
        self.assertEqual(self.alloc(a.id)["owner"], dvm.namespace)
        node = a.values["pmix.alloc.nlist"]
        job = dvm.spawn(["/bin/true"], target=a.id)
        job.wait(60)
        placed = [j for j in dvm.query("jobs") if j["nspace"] == job.namespace][0]
        self.assertEqual({p["node"] for p in placed["procs"]}, {node})
        self.assertEqual(a.extend(time=120)["pmix.alloc.time"], 120)
        a.release()
        self.await_gone(a.id)


class Executor(unittest.TestCase):
    def test_a_thousand_true_tasks_with_eight_in_flight(self):
        with jdvm.JdvmExecutor(dvm, max_in_flight=8) as ex:
            futures = [ex.submit(["/bin/true"]) for _ in range(1000)]
            codes = [f.result(timeout=600) for f in futures]
        self.assertEqual(codes, [0] * 1000)
        self.assertEqual(ex.peak_in_flight, 8)
        self.assertEqual(len({f.namespace for f in futures}), 1000)

    def test_results_are_exit_codes_or_whole_results(self):
        with jdvm.JdvmExecutor(dvm, max_in_flight=2) as ex:
            self.assertEqual(ex.submit(["/bin/sh", "-c", "exit 5"]).result(60), 5)
            r = ex.submit(["/bin/echo", "x"], output="capture").result(60)
            self.assertEqual((r.exit_code, r.stdout), (0, b"x\n"))

    def test_cancel_ends_a_running_task_and_a_pending_one_never_starts(self):
        ex = jdvm.JdvmExecutor(dvm, max_in_flight=1)
        try:
            running = ex.submit(["/bin/sleep", "600"])
            pending = ex.submit(["/bin/sleep", "600"])
            while running.namespace is None:
                time.sleep(0.01)
            self.assertTrue(pending.cancel())
            self.assertTrue(running.cancel())
            self.assertTrue(running.cancelled())
            end = running.job.wait(60)  # the DVM ended it: well before the 600 s
            self.assertEqual(end.status_name, "PMIX_ERR_JOB_CANCELED")
            self.assertIsNone(pending.namespace)
        finally:
            ex.shutdown(wait=True)

    def test_cancel_during_a_flood_of_job_ends_does_not_hang(self):
        with jdvm.JdvmExecutor(dvm, max_in_flight=8) as ex:
            for _ in range(5):
                long = ex.submit(["/bin/sleep", "600"])
                short = [ex.submit(["/bin/true"]) for _ in range(50)]
                while long.namespace is None:
                    time.sleep(0.01)
                self.assertTrue(long.cancel())
                self.assertEqual([f.result(120) for f in short], [0] * 50)

    def test_shutdown_with_cancel_futures_cancels_what_was_not_started(self):
        ex = jdvm.JdvmExecutor(dvm, max_in_flight=1)
        first = ex.submit(["/bin/sleep", "1"])
        rest = [ex.submit(["/bin/true"]) for _ in range(20)]
        while first.namespace is None:
            time.sleep(0.01)
        ex.shutdown(wait=True, cancel_futures=True)
        self.assertEqual(first.result(), 0)
        self.assertTrue(all(f.cancelled() for f in rest))
        self.assertTrue(all(f.namespace is None for f in rest))
        with self.assertRaises(RuntimeError):
            ex.submit(["/bin/true"])


class Polling(unittest.TestCase):
    """Job ends are learned by polling, on this one connection, with no event handler."""

    def test_one_query_per_poll_carries_every_job_in_flight(self):
        calls = []

        class Counting:
            def __init__(self, tool):
                self.tool = tool

            def query(self, queries):
                calls.append([(q["keys"], [i["key"] for i in q["qualifiers"]]) for q in queries])
                return self.tool.query(queries)

            def __getattr__(self, name):
                return getattr(self.tool, name)

        real = dvm._tool
        dvm._tool = Counting(real)
        try:
            jobs = [dvm.spawn(["/bin/sleep", "2"]) for _ in range(3)]
            for j in jobs:
                self.assertEqual(j.wait(60).exit_code, 0)
        finally:
            dvm._tool = real
        self.assertTrue(calls)
        self.assertEqual(max(len(c) for c in calls), 3)  # all three in one round trip
        for c in calls:
            self.assertEqual(set(map(repr, c)), {repr((["jdvm.qry.jobs"], ["pmix.nspace"]))})

    def test_the_package_never_names_the_scheduler_credential(self):
        # PythonPackageTest also moves scheduler.cred out of the DVM's directory before these run
        pkg = os.path.dirname(jdvm.__file__)
        for name in os.listdir(pkg):
            if name.endswith(".py"):
                with open(os.path.join(pkg, name)) as f:
                    self.assertNotIn("scheduler.cred", f.read(), name)
        self.assertFalse(os.path.exists(os.path.join(pkg, "_control.py")))


class Refusals(unittest.TestCase):
    def test_a_spawn_into_an_unknown_allocation_names_its_status_and_starts_nothing(self):
        before = app_jobs()
        with self.assertRaises(jdvm.PmixError) as e:
            dvm.spawn(["/bin/true"], target="no-such-allocation")
        self.assertEqual(e.exception.name, "PMIX_ERR_NOT_FOUND")
        self.assertIn("PMIX_ERR_NOT_FOUND", str(e.exception))
        self.assertEqual(app_jobs(), before)

    def test_the_executor_hands_the_refusal_to_the_future(self):
        with jdvm.JdvmExecutor(dvm, max_in_flight=1) as ex:
            f = ex.submit(["/bin/true"], target="no-such-allocation")
            self.assertEqual(f.exception(60).name, "PMIX_ERR_NOT_FOUND")

    def test_an_allocation_the_scheduler_can_never_grant(self):
        with self.assertRaises(jdvm.PmixError) as e:
            dvm.allocate(nodes=1000)
        self.assertEqual(e.exception.name, "PMIX_ERR_OUT_OF_RESOURCE")

    def test_bad_arguments_are_refused_before_anything_is_sent(self):
        before = app_jobs()
        for bad in (lambda: dvm.spawn("/bin/true"), lambda: dvm.spawn([]),
                    lambda: dvm.spawn(["/bin/true"], procs=0),
                    lambda: dvm.spawn(["/bin/true"], output="tty"),
                    lambda: dvm.spawn(["/bin/trüe"]),
                    lambda: dvm.allocate(nodes=1, inheritance="parent")):
            with self.assertRaises(ValueError):
                bad()
        self.assertEqual(app_jobs(), before)


class Contacts(unittest.TestCase):
    def test_a_contact_file_through_a_link_is_not_read(self):
        with tempfile.TemporaryDirectory() as d:
            os.symlink(os.path.join(DIR, "dvm.json"), os.path.join(d, "dvm.json"))
            with self.assertRaises(jdvm.ContactError) as e:
                jdvm.contact.discover(dir=d)
            self.assertIn("symbolic link", str(e.exception))

    @unittest.skipUnless(os.getuid() == 0, "needs root to give a file to another uid")
    def test_another_users_contact_file_is_not_read(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "dvm.json")
            with open(os.path.join(DIR, "dvm.json")) as src, open(path, "w") as dst:
                dst.write(src.read())
            os.chown(path, 4321, -1)
            with self.assertRaises(jdvm.ContactError) as e:
                jdvm.contact.discover(dir=d)
            self.assertIn("uid 4321", str(e.exception))

    def test_the_contact_file_names_this_dvm(self):
        c = jdvm.contact.discover(dir=DIR)
        with open(os.path.join(DIR, "dvm.json")) as f:
            self.assertEqual(c.uri, json.load(f)["uri"])

    def test_libpmix_finds_the_dvm_by_its_rendezvous_with_no_contact_given(self):
        """Dvm(rendezvous=True): no URI, libpmix's own search. The DVM's rendezvous directory
        ('tools' in dvm.json) when it writes one, else a file written here as a DVM writes it
        (pmix.HOST.tool: its URI, then v4.2.2) in a private directory."""
        with open(os.path.join(DIR, "dvm.json")) as f:
            contact = json.load(f)
        with tempfile.TemporaryDirectory() as home:
            tools = contact.get("tools")
            if not tools:
                tools = os.path.join(home, "rendezvous")
                os.mkdir(tools, 0o700)
                path = os.path.join(tools, "pmix.%s.tool" % os.uname().nodename)
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                with os.fdopen(fd, "w") as f:
                    f.write("%s\nv4.2.2\n" % contact["uri"])
            env = {"PMIX_SYSTEM_TMPDIR": tools, "HOME": home}  # no ~/.jdvm to find
            out = child("""
                import os
                os.environ.update(%r)
                os.environ.pop("JDVM_URI", None)
                import jdvm
                d = jdvm.Dvm(rendezvous=True)
                print(d.contact.uri, d.run(["/bin/sh", "-c", "exit 7"]).exit_code)
                """ % env)
        self.assertEqual(out, ["None", "7"])

    def test_a_second_connection_in_one_process_is_refused_clearly(self):
        with self.assertRaises(RuntimeError) as e:
            jdvm.Dvm(dir=DIR)
        self.assertIn("one PMIx tool per process", str(e.exception))


if __name__ == "__main__":
    unittest.main()
