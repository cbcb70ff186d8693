"""mpi4py_stdin.py - mpi4py twin of mpi_stdin.c: rank 0 reads stdin to end of file and broadcasts
the byte count and the sum of the bytes. Every rank prints
"OK mpi4py_stdin rank=R size=N bytes=B sum=S"; exit 0."""
import sys
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
counts = None
if rank == 0:
    data = sys.stdin.buffer.read()
    counts = (len(data), sum(data))
counts = comm.bcast(counts, root=0)
print("OK mpi4py_stdin rank=%d size=%d bytes=%d sum=%d" % (rank, size, counts[0], counts[1]),
      flush=True)
