"""mpi4py_spawn_patterns.py - mpi4py twin of mpi_spawn_patterns.c: dynamic processes as mpi4py's
own test_spawn.py uses them, in one program, every spawn disconnected before the next:
  self      every parent rank spawns 1 child from COMM_SELF, at the same time;
  world M   COMM_WORLD spawns M = 1, 2, 3 children collectively, root 0 (the other ranks pass no
            command, as only the root's arguments count);
  multiple  Spawn_multiple of two apps with their own argv and info: app 0 (1 process) info
            "wdir"=WDIR, app 1 (2 processes) info "env"="SPAWN_PATTERN_ENV=app1";
  many      NMANY (argv[1], default 5) more spawns of 1 child from COMM_WORLD.
A child ("child TAG [WDIR|-] [ENV|-]") checks its working directory and SPAWN_PATTERN_ENV when
given, and under jdvm that its shared-memory segment directory is its own, and sends (TAG, rank, appnum) (TAG -1 if a check failed) to the parents' root through the
intercommunicator, which checks every child's answer. Parent ranks print
"OK mpi4py_spawn_patterns <pattern> rank=R children=C" per pattern and
"OK mpi4py_spawn_patterns done rank=R spawns=S"; anything wrong prints FAIL and exits 1.
Every process ends itself by SIGALRM after 60 s, so a hang is an error, not a stuck test."""
import os
import signal
import sys

signal.alarm(60)
from mpi4py import MPI  # noqa: E402

NAME = "mpi4py_spawn_patterns"
SCRIPT = os.path.abspath(__file__)
world = MPI.COMM_WORLD
rank = world.Get_rank()


def child(argv):
    parent = MPI.Comm.Get_parent()
    if parent == MPI.COMM_NULL:
        print("FAIL %s child has no parent" % NAME, flush=True)
        sys.exit(1)
    appnum = world.Get_attr(MPI.APPNUM)
    msg = [int(argv[2]), rank, -1 if appnum is None else appnum]
    if len(argv) > 3 and argv[3] != "-" and os.getcwd() != argv[3]:
        print("FAIL %s child tag=%s cwd=%s wanted=%s" % (NAME, argv[2], os.getcwd(), argv[3]),
              flush=True)
        msg[0] = -1
    env = os.environ.get("SPAWN_PATTERN_ENV")
    if len(argv) > 4 and argv[4] != "-" and env != argv[4]:
        print("FAIL %s child tag=%s env=%s wanted=%s" % (NAME, argv[2], env, argv[4]), flush=True)
        msg[0] = -1
    # under jdvm: Open MPI's shared-memory segment in the child's own directory, whatever directory
    # the parent's environment passed on (two children of a job on two virtual nodes would
    # otherwise share one segment file)
    shm = os.environ.get("OMPI_MCA_btl_vader_backing_directory")
    ns = os.environ.get("PMIX_NAMESPACE")
    if shm and ns and "JDVM_NODE" in os.environ and not shm.endswith("/%s/%d" % (ns, rank)):
        print("FAIL %s child tag=%s segment directory=%s" % (NAME, argv[2], shm), flush=True)
        msg[0] = -1
    parent.send(msg, dest=0, tag=21)
    parent.Disconnect()
    sys.exit(0 if msg[0] >= 0 else 1)


def collect(comm, inter, tags, per_app):
    """Root of comm: every child's (tag, rank, appnum); child r of app a must say tags[a]."""
    ok = True
    if comm.Get_rank() == 0:
        seen = set()
        for _ in range(inter.Get_remote_size()):
            tag, crank, appnum = inter.recv(source=MPI.ANY_SOURCE, tag=21)
            app, first = 0, 0
            while crank >= first + per_app[app]:
                first += per_app[app]
                app += 1
            if tag != tags[app] or appnum != app or crank in seen:
                print("FAIL %s answer tag=%d rank=%d appnum=%d wanted tag=%d"
                      % (NAME, tag, crank, appnum, tags[app]), flush=True)
                ok = False
            seen.add(crank)
    return comm.bcast(ok, root=0)


def finish(comm, inter, pattern, wanted, tags, per_app):
    remote = inter.Get_remote_size()
    ok = collect(comm, inter, tags, per_app) and remote == wanted
    inter.Disconnect()
    print("%s %s %s rank=%d children=%d" % ("OK" if ok else "FAIL", NAME, pattern, rank, remote),
          flush=True)
    return ok


def spawn_world(m, tag, pattern):
    if rank == 0:
        inter = world.Spawn(sys.executable, [SCRIPT, "child", str(tag)], maxprocs=m, root=0)
    else:
        inter = world.Spawn(None, None, -1, root=0)
    return finish(world, inter, pattern, m, [tag], [m])


def spawn_self():
    inter = MPI.COMM_SELF.Spawn(sys.executable, [SCRIPT, "child", "1"], maxprocs=1)
    return finish(MPI.COMM_SELF, inter, "self", 1, [1], [1])


def spawn_multiple(wdir):
    infos = [MPI.Info.Create(), MPI.Info.Create()]
    infos[0].Set("wdir", wdir)
    infos[1].Set("env", "SPAWN_PATTERN_ENV=app1")
    inter = world.Spawn_multiple(
        [sys.executable, sys.executable],
        [[SCRIPT, "child", "40", wdir, "-"], [SCRIPT, "child", "41", "-", "app1"]],
        [1, 2], info=infos, root=0)
    for i in infos:
        i.Free()
    return finish(world, inter, "multiple", 3, [40, 41], [1, 2])


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "child":
        child(sys.argv)
    nmany = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    # a directory that is not the parent's own: the script's
    wdir = os.path.dirname(SCRIPT)
    ok = spawn_self()
    spawns = 1
    for m in (1, 2, 3):
        ok = spawn_world(m, 10 + m, "world%d" % m) and ok
        spawns += 1
    ok = spawn_multiple(wdir) and ok
    spawns += 1
    for i in range(nmany):
        ok = spawn_world(1, 50 + i, "many") and ok
        spawns += 1
    print("%s %s done rank=%d spawns=%d" % ("OK" if ok else "FAIL", NAME, rank, spawns), flush=True)
    sys.exit(0 if ok else 1)


main()
