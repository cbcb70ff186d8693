"""mpi4py_spawn.py - mpi4py twin of mpi_spawn.c: the parent job spawns NCHILD (argv[1], default 2)
copies of this script (argument "child"); each child sends rank+100 to parent rank 0 over the
intercommunicator and waits for an acknowledgement; all disconnect.
Parents print "OK mpi4py_spawn parent rank=R size=N children=C sum=S", children
"OK mpi4py_spawn child rank=R size=C parents=N ack=A"; exit 0 only if everything matched."""
import sys
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
if len(sys.argv) > 1 and sys.argv[1] == "child":
    parent = comm.Get_parent()
    if parent == MPI.COMM_NULL:
        print("FAIL mpi4py_spawn child has no parent", flush=True)
        sys.exit(1)
    parent.send(rank + 100, dest=0, tag=11)
    ack = parent.recv(source=0, tag=12)
    ok = ack == rank
    print("%s mpi4py_spawn child rank=%d size=%d parents=%d ack=%d"
          % ("OK" if ok else "FAIL", rank, size, parent.Get_remote_size(), ack), flush=True)
    parent.Disconnect()
    sys.exit(0 if ok else 1)

nchild = int(sys.argv[1]) if len(sys.argv) > 1 else 2
inter = comm.Spawn(sys.executable, args=[__file__, "child"], maxprocs=nchild, root=0)
remote = inter.Get_remote_size()
total = 0
if rank == 0:
    status = MPI.Status()
    for _ in range(remote):
        total += inter.recv(source=MPI.ANY_SOURCE, tag=11, status=status)
        inter.send(status.Get_source(), dest=status.Get_source(), tag=12)
total = comm.bcast(total, root=0)
ok = remote == nchild and total == sum(range(100, 100 + remote))
print("%s mpi4py_spawn parent rank=%d size=%d children=%d sum=%d"
      % ("OK" if ok else "FAIL", rank, size, remote, total), flush=True)
inter.Disconnect()
sys.exit(0 if ok else 1)
