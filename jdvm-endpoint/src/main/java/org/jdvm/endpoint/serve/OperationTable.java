package org.jdvm.endpoint.serve;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.frame.Commands;

/**
 * The PMIx commands the endpoint serves: one row per command, naming the family file that serves it
 * and the shape of its error reply. A command without a row is answered {@code
 * PMIX_ERR_NOT_SUPPORTED} at once. Adding an operation is a file (or a method in its family's file)
 * and a row here.
 */
public final class OperationTable {
  /** One command: how it is served, and how its errors are shaped. */
  public record Row(int command, Operation.ErrorShape errorShape, Operation operation) {}

  private final Map<Integer, Row> rows = new HashMap<>();

  private OperationTable(List<Row> rows) {
    for (Row r : rows) {
      if (this.rows.put(r.command(), r) != null) {
        throw new IllegalArgumentException("two rows for command " + r.command());
      }
    }
  }

  /**
   * The wire-up families (docs/wireup.md §c): the modex (commit, fence; peers' data is read with
   * GETNB), published data, connect, log.
   */
  public record Wireup(WireupOps modex, DataOps data, ConnectOps connects, LogOps log) {}

  /** The table of the DVM's endpoint, from its operation families. */
  public static OperationTable of(
      PeerOps peers,
      AllocationOps allocations,
      JobOps jobs,
      QueryOps queries,
      EventOps events,
      Wireup wireup) {
    return new OperationTable(
        List.of(
            // the peer's own life: finalize, stop the DVM
            new Row(Commands.FINALIZE_CMD, Operation.ErrorShape.STATUS, peers::finalizeTool),
            new Row(JdvmProtocol.STOP_CMD, Operation.ErrorShape.STATUS, peers::stop),
            // allocation and session control
            new Row(Commands.ALLOC_CMD, Operation.ErrorShape.STATUS_INFOS, allocations::allocate),
            new Row(
                Commands.SESSION_CTRL_CMD,
                Operation.ErrorShape.STATUS_INFOS,
                allocations::sessionControl),
            // jobs
            new Row(Commands.SPAWNNB_CMD, Operation.ErrorShape.STATUS_NSPACE, jobs::spawn),
            new Row(Commands.JOB_CONTROL_CMD, Operation.ErrorShape.STATUS_INFOS, jobs::jobControl),
            new Row(Commands.ABORT_CMD, Operation.ErrorShape.STATUS, jobs::abort),
            // queries: query, job data, get
            new Row(Commands.QUERY_CMD, Operation.ErrorShape.STATUS_INFOS, queries::query),
            new Row(Commands.REQ_CMD, Operation.ErrorShape.STATUS, queries::jobData),
            new Row(Commands.GETNB_CMD, Operation.ErrorShape.STATUS, queries::get),
            // events and I/O forwarding
            new Row(Commands.NOTIFY_CMD, Operation.ErrorShape.STATUS, events::notify),
            new Row(Commands.REGEVENTS_CMD, Operation.ErrorShape.STATUS, events::register),
            new Row(Commands.DEREGEVENTS_CMD, Operation.ErrorShape.NONE, events::deregister),
            new Row(Commands.IOF_PULL_CMD, Operation.ErrorShape.STATUS, events::iofPull),
            new Row(Commands.IOF_DEREG_CMD, Operation.ErrorShape.STATUS, events::iofDeregister),
            new Row(Commands.IOF_PUSH_CMD, Operation.ErrorShape.STATUS, events::iofPush),
            // wire-up: commit, fence (peers' data is read with GETNB)
            new Row(Commands.COMMIT_CMD, Operation.ErrorShape.STATUS, wireup.modex()::commit),
            new Row(Commands.FENCENB_CMD, Operation.ErrorShape.STATUS, wireup.modex()::fence),
            // wire-up: published data, connect and disconnect, log
            new Row(Commands.PUBLISHNB_CMD, Operation.ErrorShape.STATUS, wireup.data()::publish),
            new Row(Commands.LOOKUPNB_CMD, Operation.ErrorShape.STATUS, wireup.data()::lookup),
            new Row(
                Commands.UNPUBLISHNB_CMD, Operation.ErrorShape.STATUS, wireup.data()::unpublish),
            new Row(
                Commands.CONNECTNB_CMD, Operation.ErrorShape.STATUS, wireup.connects()::connect),
            new Row(
                Commands.DISCONNECTNB_CMD,
                Operation.ErrorShape.STATUS,
                wireup.connects()::disconnect),
            new Row(Commands.LOG_CMD, Operation.ErrorShape.STATUS, wireup.log()::log)));
  }

  /**
   * The commands a libpmix 4.2.2 client can send (codes 0–32) that have no row. Each is answered
   * {@code PMIX_ERR_NOT_SUPPORTED} at once as a lone {@code STATUS}: every 4.2.2 client parser of
   * these reads the status first and stops at an error (docs/protocol.md "How jdvm reads the
   * standard commands").
   */
  public List<Integer> unserved() {
    List<Integer> out = new java.util.ArrayList<>();
    for (int c = 0; Commands.inV422(c); c++) {
      if (!rows.containsKey(c)) {
        out.add(c);
      }
    }
    return out;
  }

  /** The row serving {@code command}; {@code null} when it is not served. */
  public Row row(int command) {
    return rows.get(command);
  }
}
