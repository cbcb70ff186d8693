"""mpi4py_ring.py - mpi4py twin of mpi_ring.c: a token goes once around the ring, each rank adds
its rank. Prints "OK mpi4py_ring rank=R size=N got=G from=L" (or FAIL ...); exit 0 only if it
matched."""
import sys
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
right, left = (rank + 1) % size, (rank - 1) % size
if size == 1:
    token = 0
elif rank == 0:
    comm.send(0, dest=right, tag=7)
    token = comm.recv(source=left, tag=7)
else:
    token = comm.recv(source=left, tag=7)
    comm.send(token + rank, dest=right, tag=7)
expected = size * (size - 1) // 2 if rank == 0 else rank * (rank - 1) // 2
ok = token == expected
print("%s mpi4py_ring rank=%d size=%d got=%d from=%d" % ("OK" if ok else "FAIL", rank, size, token,
                                                         left), flush=True)
sys.exit(0 if ok else 1)
