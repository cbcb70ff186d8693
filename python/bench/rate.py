"""Tasks per second on one running DVM: the Python executor (1, 8, 32 in flight), the Java client
(8 in flight) and `jdvm run` in a shell loop, all `/bin/true`. A benchmark, not a test.

    PYTHONPATH=python /usr/bin/python3 python/bench/rate.py --dir DVM_DIR [--seconds 5]

The DVM needs 32 free slots (e.g. `jdvm start --detach --dir D --nodes 4 --slots 8`). The Java
client's figure comes from bench/JavaClientRate.java, run on jdvm-cli's class path (built by
`./dev build`); `jdvm run` is the repository's launcher.
"""

import argparse
import glob
import os
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))

import jdvm  # noqa: E402


def executor_rate(dvm, in_flight, warm, seconds):
    """Completions per second in a window of `seconds`, after `warm` seconds of the same load."""
    done = []
    lock = threading.Lock()
    stop = threading.Event()
    start = time.monotonic()

    def finished(f):
        with lock:
            done.append(time.monotonic())
        if not stop.is_set():
            submit()

    ex = jdvm.JdvmExecutor(dvm, max_in_flight=in_flight)

    def submit():
        try:
            ex.submit(["/bin/true"]).add_done_callback(finished)
        except RuntimeError:
            pass  # shut down

    for _ in range(2 * in_flight):
        submit()
    time.sleep(warm + seconds)
    stop.set()
    ex.shutdown(wait=True, cancel_futures=True)
    lo, hi = start + warm, start + warm + seconds
    return sum(1 for t in done if lo <= t < hi) / seconds


def java_rate(dvm_dir, in_flight, seconds):
    jars = glob.glob(os.path.join(ROOT, "jdvm-cli/target/jdvm-cli-*.jar")) + sorted(
        glob.glob(os.path.join(ROOT, "jdvm-cli/target/lib/*.jar")))
    if not jars:
        return None
    java = os.path.join(os.environ.get("JAVA_HOME", "/usr/lib/jvm/temurin-25-jdk-amd64"),
                        "bin", "java")
    out = subprocess.run([java, "--enable-native-access=ALL-UNNAMED", "-cp", ":".join(jars),
                          os.path.join(HERE, "JavaClientRate.java"), dvm_dir, str(in_flight),
                          str(seconds)], capture_output=True, text=True, check=True).stdout
    n, s = out.split()
    return int(n) / float(s)


def jdvm_run_rate(dvm_dir, runs):
    launcher = os.path.join(ROOT, "jdvm")
    t0 = time.monotonic()
    subprocess.run(["/bin/sh", "-c", 'i=0; while [ $i -lt %d ]; do "%s" run --dir "%s" -- '
                    '/bin/true || exit 1; i=$((i+1)); done' % (runs, launcher, dvm_dir)],
                   check=True)
    return runs / (time.monotonic() - t0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", required=True, help="the DVM's directory")
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--warm", type=float, default=2.0)
    ap.add_argument("--cli-runs", type=int, default=20)
    a = ap.parse_args()
    rows = []
    with jdvm.Dvm(dir=a.dir) as dvm:
        for n in (1, 8, 32):
            rows.append(("python executor, %d in flight" % n,
                         executor_rate(dvm, n, a.warm, a.seconds)))
    j = java_rate(a.dir, 8, a.seconds)
    if j is not None:
        rows.append(("java client, 8 in flight", j))
    rows.append(("jdvm run in a shell loop", jdvm_run_rate(a.dir, a.cli_runs)))
    for name, rate in rows:
        print("%-32s %8.1f tasks/s" % (name, rate))


if __name__ == "__main__":
    main()
