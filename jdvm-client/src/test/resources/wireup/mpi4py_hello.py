"""mpi4py_hello.py - mpi4py twin of mpi_hello.c: rank, size, a barrier.
Every rank prints "OK mpi4py_hello rank=R size=N host=H"; exit 0."""
from mpi4py import MPI

comm = MPI.COMM_WORLD
comm.Barrier()
print("OK mpi4py_hello rank=%d size=%d host=%s"
      % (comm.Get_rank(), comm.Get_size(), MPI.Get_processor_name()), flush=True)
