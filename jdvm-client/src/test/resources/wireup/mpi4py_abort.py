"""mpi4py_abort.py - mpi4py twin of mpi_abort.c: after a barrier the last rank calls
COMM_WORLD.Abort(7); the others wait in a barrier that never completes. A launcher passes when it
ends every rank promptly and exits with status 7. Never exits 0 by itself."""
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
comm.Barrier()
if rank == size - 1:
    print("ABORTING mpi4py_abort rank=%d code=7" % rank, flush=True)
    comm.Abort(7)
print("WAITING mpi4py_abort rank=%d" % rank, flush=True)
comm.Barrier()
print("FAIL mpi4py_abort rank=%d passed the second barrier" % rank, flush=True)
raise SystemExit(1)
