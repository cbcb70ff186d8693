package org.jdvm.endpoint.deliver;

import static org.jdvm.endpoint.deliver.OutputRouter.STDERR_CHANNEL;
import static org.jdvm.endpoint.deliver.OutputRouter.STDOUT_CHANNEL;

import java.util.List;
import org.jdvm.endpoint.transport.Connection;
import org.jdvm.pmix.Proc;

/**
 * An IOF_PULL registration of a connection ({@link OutputRouter}): whose output, on which channels,
 * under which of the peer's ids; {@code untilEnd}: a {@code jdvm output --follow}, which ends with
 * its job ({@link OutputRouter#jobEnded}).
 */
record Pull(
    Connection conn,
    long serverId,
    long localId,
    int channels,
    List<Proc> procs,
    boolean untilEnd) {
  boolean coversJob(String nspace) {
    if ((channels & (STDOUT_CHANNEL | STDERR_CHANNEL)) == 0) {
      return false;
    }
    for (Proc p : procs) {
      if (p.nspace().equals(nspace)) {
        return true;
      }
    }
    return false;
  }

  boolean covers(String nspace, int rank, int channel) {
    if ((channels & channel) == 0) {
      return false;
    }
    for (Proc p : procs) {
      if (p.nspace().equals(nspace) && (p.rank() == Proc.RANK_WILDCARD || p.rank() == rank)) {
        return true;
      }
    }
    return false;
  }
}
