"""mpi4py_allreduce.py - mpi4py twin of mpi_allreduce.c: allreduce of rank+1, checked against
N(N+1)/2. Prints "OK mpi4py_allreduce rank=R size=N sum=S" (or FAIL ...); exit 0 only if it matched."""
import sys
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
total = comm.allreduce(rank + 1, op=MPI.SUM)
ok = total == size * (size + 1) // 2
print("%s mpi4py_allreduce rank=%d size=%d sum=%d" % ("OK" if ok else "FAIL", rank, size, total),
      flush=True)
sys.exit(0 if ok else 1)
