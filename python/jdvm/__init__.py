"""jdvm for Python: drive a running jdvm DVM from Python through Debian's python3-pmix 4.2.2.

    from jdvm import Dvm, JdvmExecutor
    with Dvm() as dvm:                          # ~/.jdvm/dvm.json, or libpmix's rendezvous
        print(dvm.run(["hostname"], procs=2, output="capture").stdout)
        with JdvmExecutor(dvm, max_in_flight=8) as ex:
            futures = [ex.submit(["/bin/true"]) for _ in range(1000)]

See python/README.md.
"""

from ._pmix import PmixError, status_name
from .contact import Contact, ContactError
from .dvm import (Allocation, Dvm, Job, JobResult, INHERIT_CHILD, INHERIT_CHILD_DEFAULT,
                  INHERIT_DEFAULT, INHERIT_NONE)
from .executor import JdvmExecutor

__all__ = ["Allocation", "Contact", "ContactError", "Dvm", "Job", "JobResult", "JdvmExecutor",
           "PmixError", "status_name", "INHERIT_NONE", "INHERIT_CHILD", "INHERIT_DEFAULT",
           "INHERIT_CHILD_DEFAULT"]
