package org.jdvm.cli;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.Job;
import org.jdvm.client.JobEnd;
import org.jdvm.client.OutputHandler;
import org.jdvm.client.PmixException;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.json.Json;
import org.jdvm.server.home.DvmHome;

/**
 * When the DVM's controller dies under a waiting {@code jdvm run} or {@code jdvm alloc new -- CMD}
 * (docs/journal.md "Clients"): reconnect to the recovered DVM as the same tool namespace — which
 * gives the tool back its allocations and jobs — and keep waiting for the job; or say plainly that
 * it cannot. A recovered DVM keeps a tool's namespace for 60 s; this tries for as long.
 */
final class Reattach {
  /** How long to try to reconnect: the recovered DVM's grace period for tools. */
  static final long RECONNECT_MS = 60_000;

  private static final long POLL_MS = 200;

  private Reattach() {}

  /**
   * Waits for {@code job}'s end on {@code client}; if the connection is lost first, reconnects and
   * waits on the recovered DVM. Returns the exit status for the command.
   */
  static int awaitEnd(
      DvmOptions dvm, JdvmClient client, Job job, OutputHandler output, PrintStream err)
      throws PmixException, InterruptedException {
    return awaitEnd(dvm, client, job, output, err, end -> {});
  }

  /**
   * As {@link #awaitEnd(DvmOptions, JdvmClient, Job, OutputHandler, PrintStream)}, and tells {@code
   * seen} how the job ended when its own connection saw the end.
   */
  /**
   * Lets the output that arrived before the job's end reach the handler before the command returns:
   * the end completes on the connection's reader while output goes to its handler in turn, and a
   * rank's last partial line is sent only at the rank's end (docs/ARCHITECTURE.md "Output lines"),
   * so it could be left unprinted. Bounded: a stuck handler does not hold the exit.
   */
  private static void outputFirst(JdvmClient client) throws InterruptedException {
    try {
      client.delivered().get(2, java.util.concurrent.TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      // Nothing more will arrive in time; exit with what was printed.
    }
  }

  static int awaitEnd(
      DvmOptions dvm,
      JdvmClient client,
      Job job,
      OutputHandler output,
      PrintStream err,
      java.util.function.Consumer<org.jdvm.client.JobEnd> seen)
      throws PmixException, InterruptedException {
    try {
      org.jdvm.client.JobEnd end = job.awaitEnd();
      outputFirst(client);
      seen.accept(end);
      return end.exitCode();
    } catch (PmixException e) {
      if (!lost(client, e)) {
        throw e;
      }
    }
    String tool = client.self().nspace();
    err.println(
        "jdvm: lost the connection to the DVM; reconnecting as "
            + tool
            + " to wait for job "
            + job.nspace());
    long deadline = System.nanoTime() + RECONNECT_MS * 1_000_000L;
    PmixException last = null;
    while (System.nanoTime() < deadline) {
      JdvmClient again;
      try {
        again = dvm.reconnect(tool, output);
      } catch (PmixException e) {
        last = e;
        if (stoppedCleanly(client.contact().dir())) {
          err.println(
              "jdvm: the DVM was stopped; job "
                  + job.nspace()
                  + " was ended with it (its exit status is unknown)");
          return Main.EXIT_FAILURE;
        }
        Thread.sleep(POLL_MS);
        continue;
      }
      try (again) {
        Integer status = awaitOn(again, job.nspace(), err);
        if (status != null) {
          return status;
        }
        deadline = System.nanoTime() + RECONNECT_MS * 1_000_000L; // lost again: try again
      }
    }
    err.println(
        "jdvm: could not reconnect to the DVM within "
            + RECONNECT_MS / 1000
            + " s"
            + (last == null ? "" : " (" + last.getMessage() + ")")
            + "; job "
            + job.nspace()
            + "'s end is unknown");
    return Main.EXIT_FAILURE;
  }

  /**
   * Whether the DVM in {@code dir} was stopped rather than killed: {@code jdvm stop} removes the
   * contact file, a killed controller leaves it, and a {@code jdvm start} that recovers it removes
   * it only while it holds the directory's lock (docs/journal.md "Clients"). So no contact file and
   * nobody holding the lock means nothing will come back.
   */
  static boolean stoppedCleanly(java.nio.file.Path dir) {
    if (dir == null || java.nio.file.Files.exists(dir.resolve(DvmHome.CONTACT))) {
      return false;
    }
    try {
      return !DvmHome.locked(dir);
    } catch (java.io.IOException | RuntimeException e) {
      return false; // cannot tell: keep trying for the grace period
    }
  }

  /**
   * Whether the job's wait failed because the connection is gone. The job's future may fail a
   * moment before the client marks itself disconnected, so a lost-connection status counts too.
   */
  private static boolean lost(JdvmClient client, PmixException e) {
    int s = e.status();
    return client.disconnected().isDone()
        || s == PmixStatus.ERR_LOST_CONNECTION_TO_SERVER
        || s == PmixStatus.ERR_LOST_CONNECTION
        || s == PmixStatus.ERR_UNREACH;
  }

  /** Waits on a reconnected client; {@code null} if its connection is lost too. */
  private static Integer awaitOn(JdvmClient c, String nspace, PrintStream err)
      throws InterruptedException {
    boolean seenRunning = false;
    while (!c.disconnected().isDone()) {
      Map<String, Object> j;
      try {
        j = job(c, nspace);
      } catch (PmixException e) {
        return null;
      }
      if (j == null) {
        err.println("jdvm: the recovered DVM does not know job " + nspace);
        return Main.EXIT_FAILURE;
      }
      if ("terminated".equals(j.get("state"))) {
        JobEnd end = new JobEnd(nspace, number(j.get("status")), number(j.get("exitCode")));
        if (seenRunning) {
          return end.exitCode(); // it ended on the recovered DVM, as it would have anyway
        }
        err.println(
            "jdvm: job "
                + nspace
                + " ended while the DVM was away (exit status "
                + end.exitCode()
                + ")");
        return end.exitCode();
      }
      if (!seenRunning) {
        // Its processes outlived the controller on agents that rejoined (docs/journal.md).
        err.println("jdvm: reconnected; job " + nspace + " still runs");
        seenRunning = true;
      }
      Thread.sleep(POLL_MS);
    }
    return null;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> job(JdvmClient c, String nspace) throws PmixException {
    for (Object o : (List<Object>) Json.parse(c.jobsJson())) {
      Map<String, Object> j = (Map<String, Object>) o;
      if (nspace.equals(j.get("nspace"))) {
        return j;
      }
    }
    return null;
  }

  private static int number(Object o) {
    return o instanceof Number n ? n.intValue() : 0;
  }
}
