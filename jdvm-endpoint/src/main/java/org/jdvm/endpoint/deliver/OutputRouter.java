package org.jdvm.endpoint.deliver;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jdvm.endpoint.transport.Connection;
import org.jdvm.host.ProcListener;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.frame.Tags;

/**
 * Where a process's output goes (pmix-interop-notes.md §3): to the connection that spawned its job,
 * with requester id 0, on the channels it asked for; and to every IOF_PULL registration that covers
 * it, with the id the puller chose. Each chunk reaches each (connection, id) once. Output is queued
 * on the same connection queue as the job's end, and the agent reports an exit only after the
 * process's output was handed over, so a peer sees a job's output before its end.
 *
 * <p>A job's forwarding is known once the core has accepted its spawn (the endpoint learns it from
 * the outcome); output that an agent reads before that is held, bounded, and released then.
 *
 * <p>Back-pressure (docs/ARCHITECTURE.md "Output back-pressure"): after each chunk the host asks
 * {@link #holdOutput}; while any connection that receives the job's output (its spawner's, every
 * IOF pull that covers it) holds more than {@link Connection#OUTPUT_HIGH_WATER} unwritten, or the
 * output held for a job not known yet passes {@link #EARLY_HOLD_BYTES}, the process's pipes are not
 * read, so the slowest reader paces the job and nothing is dropped.
 */
public final class OutputRouter {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.pmix");

  /**
   * The logger of what peers log (their {@code PMIx_Log} text nobody receives, their syslog lines):
   * a detached DVM keeps it in a bounded file of its own ({@code peers.log}), so that a rank's
   * logging cannot push the DVM's own lines out of {@code dvm.log}.
   */
  public static final String PEER_LOGGER = "org.jdvm.peers";

  private static final System.Logger PEER_LOG = System.getLogger(PEER_LOGGER);

  /** The IOF channel bits ({@code pmix_iof_channel_t}). */
  public static final int STDIN_CHANNEL = 0x01;

  public static final int STDOUT_CHANNEL = 0x02;
  public static final int STDERR_CHANNEL = 0x04;

  /** Output held for jobs whose forwarding is not known yet, across all of them. */
  public static final int MAX_EARLY_BYTES = 4 << 20;

  /**
   * Output held for one job not known yet past which its processes are paused until it is: below
   * {@link #MAX_EARLY_BYTES}, so that each process's one chunk more still fits.
   */
  public static final int EARLY_HOLD_BYTES = 1 << 20;

  /** Retired jobs remembered, so that late output of theirs is not held for a spawn to come. */
  static final int RETIRED_KEPT = 1024;

  /** The spawner's forwarding of one job; {@code conn} is null when nobody forwards it. */
  public record Forward(Connection conn, int channels) {
    public static final Forward NONE = new Forward(null, 0);
  }

  /** Output held until its job's forwarding is known; {@code log}: a PMIx_Log line. */
  private record Chunk(int rank, int channel, byte[] bytes, boolean log) {}

  private final LogBudget logBudget = new LogBudget(System::nanoTime);
  private final Map<String, Forward> forwards = new HashMap<>();
  private final Map<String, JobLines> lines = new HashMap<>();
  private final Map<String, List<Chunk>> early = new HashMap<>();
  private final List<Pull> pulls = new ArrayList<>();
  private final Map<String, List<Runnable>> earlyWaiters = new HashMap<>();
  private final Map<String, Long> earlyByJob = new HashMap<>();

  /**
   * Ranks that ended before their job's forwarding was known (a formatted spawn's output waits for
   * its answer, and a quick rank ends before it): applied once it is, after the output held for it.
   * Only the core adds to it, one entry per live job at most; retirement removes it.
   */
  private final Map<String, List<Integer>> endedEarly = new HashMap<>();

  private final java.util.SequencedSet<String> retired = new java.util.LinkedHashSet<>();
  private final OutputStore store = new OutputStore();
  private long earlyBytes;
  private long nextServerId;
  private boolean warned;

  /** The core accepted the spawn of {@code nspace}: from now on its output goes here. */
  public void jobSpawned(String nspace, Forward forward) {
    jobSpawned(nspace, forward, JobOutput.PLAIN);
  }

  /** As {@link #jobSpawned(String, Forward)}, with what the spawn asked of the output. */
  public void jobSpawned(String nspace, Forward forward, JobOutput asked) {
    List<Runnable> due;
    synchronized (this) {
      forwards.put(nspace, forward);
      store.started(nspace);
      lines.put(
          nspace,
          new JobLines(
              asked.raw() ? null : new LineCutter(),
              asked.files() == null ? null : new OutputFiles(nspace, asked.files())));
      retired.remove(nspace);
      earlyByJob.remove(nspace);
      List<Chunk> held = early.remove(nspace);
      if (held != null) {
        for (Chunk c : held) {
          earlyBytes -= c.bytes.length;
          if (!c.log) {
            cut(nspace, c.rank, c.channel, c.bytes);
          } else if (!route(nspace, c.rank, c.channel, c.bytes)) {
            toDvmLog(new Proc(nspace, c.rank), c.bytes);
          }
        }
      }
      List<Integer> ended = endedEarly.remove(nspace);
      if (ended != null) {
        procsEnded(nspace, ended);
      }
      due = earlyWaiters.remove(nspace);
    }
    resume(due);
  }

  private static void resume(List<Runnable> due) {
    if (due != null) {
      due.forEach(Runnable::run);
    }
  }

  /** Where a job's output goes now ({@link Forward#NONE} when nowhere, or not known yet). */
  public synchronized Forward forwardOf(String nspace) {
    return forwards.getOrDefault(nspace, Forward.NONE);
  }

  /**
   * The core forgot the job (it retired). Until then late output, from descendants that kept the
   * job's pipes open after its end, still reaches its spawner.
   */
  public void jobRetired(String nspace) {
    List<Runnable> due;
    synchronized (this) {
      JobLines jl = lines.remove(nspace);
      if (jl != null) {
        for (LineCutter.Piece p : jl.endAll()) {
          send(nspace, jl, p);
        }
        if (jl.files() != null) {
          jl.files().closeAll();
        }
      }
      forwards.remove(nspace);
      store.retired(nspace);
      endedEarly.remove(nspace);
      retired.add(nspace);
      if (retired.size() > RETIRED_KEPT) {
        retired.removeFirst();
      }
      earlyByJob.remove(nspace);
      List<Chunk> held = early.remove(nspace);
      if (held != null) {
        for (Chunk c : held) {
          earlyBytes -= c.bytes.length;
          if (c.log) {
            toDvmLog(new Proc(nspace, c.rank), c.bytes);
          }
        }
      }
      due = earlyWaiters.remove(nspace);
    }
    logBudget.forget(nspace);
    resume(due);
  }

  /**
   * Whether a line of {@code bytes} that {@code source} logs may go out now: within its job's
   * {@link LogBudget}, and, on the output {@code channels} (a mask; 0 for none), no receiver of it
   * behind on output (a logging rank is not paced the way its pipes are, so its lines are dropped
   * instead of piling up for a reader that does not read). A line refused is counted in the job's
   * dropped lines.
   */
  public boolean admitLog(Proc source, int channels, long bytes) {
    if (behind(source.nspace(), channels)) {
      logBudget.drop(source.nspace(), bytes);
      return false;
    }
    return logBudget.admit(source.nspace(), bytes);
  }

  private synchronized boolean behind(String nspace, int channel) {
    if (channel == 0) {
      return false;
    }
    Forward f = forwards.get(nspace);
    if (f != null
        && f.conn != null
        && (f.channels & channel) != 0
        && f.conn.outputQueued() > Connection.OUTPUT_HIGH_WATER) {
      return true;
    }
    for (Pull p : pulls) {
      if ((p.channels() & channel) != 0
          && p.coversJob(nspace)
          && p.conn().outputQueued() > Connection.OUTPUT_HIGH_WATER) {
        return true;
      }
    }
    return false;
  }

  /**
   * Asked by the host after each chunk of a process of {@code nspace}: whether to stop reading its
   * pipes. True while a connection that receives the job's output is behind, or while the output
   * held for the job (not known yet) passes {@link #EARLY_HOLD_BYTES}; {@code resume} then runs
   * once when the host may read them again.
   */
  public synchronized boolean holdOutput(String nspace, Runnable resume) {
    Forward f = forwards.get(nspace);
    if (f == null) {
      if (retired.contains(nspace) || earlyByJob.getOrDefault(nspace, 0L) < EARLY_HOLD_BYTES) {
        return false;
      }
      earlyWaiters.computeIfAbsent(nspace, k -> new ArrayList<>()).add(resume);
      return true;
    }
    if (f.conn != null && f.channels != 0 && f.conn.holdOutput(resume)) {
      return true;
    }
    for (Pull p : pulls) {
      if (p.coversJob(nspace) && p.conn().holdOutput(resume)) {
        return true;
      }
    }
    return false;
  }

  public synchronized void output(
      String nspace, int rank, ProcListener.Stream stream, byte[] chunk) {
    int channel = stream == ProcListener.Stream.STDOUT ? STDOUT_CHANNEL : STDERR_CHANNEL;
    if (forwards.containsKey(nspace)) {
      cut(nspace, rank, channel, chunk);
      return;
    }
    if (retired.contains(nspace)) {
      return; // late output of a retired job nobody follows any more
    }
    if (!hold(nspace, new Chunk(rank, channel, chunk, false)) && !warned) {
      warned = true;
      LOG.log(System.Logger.Level.WARNING, "output of jobs not yet known is being dropped");
    }
  }

  /**
   * A line a launched process logged ({@code PMIx_Log}, docs/wireup.md §c.6): delivered as its own
   * output on {@code channel} would be; when nobody receives it, it goes to the DVM's log.
   */
  public synchronized void log(Proc source, int channel, byte[] bytes) {
    if (forwards.containsKey(source.nspace())) {
      if (!route(source.nspace(), source.rank(), channel, bytes)) {
        toDvmLog(source, bytes);
      }
    } else if (!hold(source.nspace(), new Chunk(source.rank(), channel, bytes, true))) {
      toDvmLog(source, bytes);
    }
  }

  /** A logged line nobody receives: the DVM's log, where an operator finds it. */
  public static void toDvmLog(Proc source, byte[] bytes) {
    String text = new String(bytes, java.nio.charset.StandardCharsets.UTF_8).stripTrailing();
    // What a peer logs is quoted: a line break in it cannot forge a log line of its own.
    PEER_LOG.log(
        System.Logger.Level.WARNING,
        "proc=" + source + " log=" + org.jdvm.pmix.json.Json.quote(text));
  }

  /**
   * Processes of a job ended (after their output was handed over): what their lines still hold goes
   * out, and their files are complete. Before the job's forwarding is known, that waits for it.
   */
  public synchronized void procsEnded(String nspace, List<Integer> ranks) {
    JobLines jl = lines.get(nspace);
    if (jl == null) {
      if (!retired.contains(nspace)) {
        endedEarly.computeIfAbsent(nspace, k -> new ArrayList<>()).addAll(ranks);
      }
      return;
    }
    for (int rank : ranks) {
      for (LineCutter.Piece p : jl.end(rank)) {
        send(nspace, jl, p);
      }
      if (jl.files() != null) {
        jl.files().ended(rank);
      }
    }
  }

  /**
   * The job ended, its end about to be sent: its held partial lines go first (effects, the end
   * among them, are sent before the changes that end ranks are observed; JobEndAfterOutputTest).
   */
  public synchronized void jobEnded(String nspace) {
    JobLines jl = lines.get(nspace);
    if (jl != null) {
      jl.jobEnded().forEach(p -> send(nspace, jl, p));
    }
  }

  /** A chunk of a known job's pipe: cut at newlines (docs/ARCHITECTURE.md "Output lines"). */
  private void cut(String nspace, int rank, int channel, byte[] chunk) {
    JobLines jl = lines.get(nspace);
    if (jl == null) {
      route(nspace, rank, channel, chunk);
      return;
    }
    for (LineCutter.Piece p : jl.accept(rank, channel, chunk)) {
      send(nspace, jl, p);
    }
  }

  /**
   * A cut piece: to the job's stored output, to its files, and to its receivers unless it goes to
   * the files only.
   */
  private void send(String nspace, JobLines jl, LineCutter.Piece p) {
    store.add(nspace, p);
    if (jl.files() != null) {
      jl.files().write(p.rank(), p.channel(), p.bytes());
      if (jl.files().fileOnly()) {
        return;
      }
    }
    route(nspace, p.rank(), p.channel(), p.bytes());
  }

  /** Holds output of a job whose forwarding is not known yet; false when over the bound. */
  private boolean hold(String nspace, Chunk c) {
    if (earlyBytes + c.bytes.length > MAX_EARLY_BYTES) {
      return false;
    }
    earlyBytes += c.bytes.length;
    earlyByJob.merge(nspace, (long) c.bytes.length, Long::sum);
    early.computeIfAbsent(nspace, k -> new ArrayList<>()).add(c);
    return true;
  }

  /** Sends a chunk wherever it goes; whether anyone received it. */
  private boolean route(String nspace, int rank, int channel, byte[] bytes) {
    Proc source = new Proc(nspace, rank);
    List<Connection> sentTo = new ArrayList<>(2);
    List<Long> sentIds = new ArrayList<>(2);
    Forward f = forwards.get(nspace);
    if (f != null && f.conn != null && (f.channels & channel) != 0) {
      deliver(f.conn, source, channel, 0, bytes);
      sentTo.add(f.conn);
      sentIds.add(0L);
    }
    for (Pull p : pulls) {
      if (!p.covers(nspace, rank, channel) || delivered(sentTo, sentIds, p.conn(), p.localId())) {
        continue;
      }
      deliver(p.conn(), source, channel, p.localId(), bytes);
      sentTo.add(p.conn());
      sentIds.add(p.localId());
    }
    return !sentTo.isEmpty();
  }

  private static boolean delivered(List<Connection> to, List<Long> ids, Connection c, long id) {
    for (int k = 0; k < to.size(); k++) {
      if (to.get(k) == c && ids.get(k) == id) {
        return true;
      }
    }
    return false;
  }

  /** Tag 2: {@code PROC | IOF_CHANNEL | SIZE requester id | SIZE 0 | BYTE_OBJECT}. */
  private static void deliver(Connection c, Proc source, int channel, long id, byte[] bytes) {
    if (c.isClosed()) {
      return;
    }
    byte[] body =
        new Packer(c.peer().format(), bytes.length + 64)
            .packProc(source)
            .packInteger(DataType.IOF_CHANNEL, channel)
            .packSize(id)
            .packSize(0)
            .pack(DataType.BYTE_OBJECT, ByteObject.of(bytes))
            .toByteArray();
    c.sendOutput(Tags.IOF, body);
  }

  /** From now on, keeps jobs' output within {@code bounds} ({@link OutputStore}). */
  public synchronized void keep(OutputStore.Bounds bounds) {
    store.bound(bounds);
  }

  /**
   * What a replay found ({@code jdvm output}): the facts its reply carries.
   *
   * @param serverId the follow's registration, 0 when there is none (no follow, or the job ended)
   */
  public record Replayed(
      long serverId,
      long droppedBytes,
      long writtenBytes,
      boolean ended,
      int status,
      int exitCode) {}

  /**
   * IOF_PULL with {@code jdvm.iof.replay} ({@code jdvm output JOB [--follow]}): sends {@code c}
   * what is kept of the job's output, each piece as the IOF message a pull would have carried
   * ({@code localId} its id), and with {@code follow} and the job not ended yet registers a pull of
   * the job's output from here on that ends with the job ({@link #jobEnded}). Both under this
   * router's lock, so a follower sees each piece once, none missing between the replay and the
   * pull. {@code null} when the job's output is not known (never spawned, retired, a tool).
   */
  public synchronized Replayed replay(Connection c, String nspace, long localId, boolean follow) {
    OutputStore.Replay r = store.replay(nspace);
    if (r == null) {
      return null;
    }
    for (LineCutter.Piece p : r.pieces()) {
      deliver(c, new Proc(nspace, p.rank()), p.channel(), localId, p.bytes());
    }
    long serverId = 0;
    if (follow && !r.ended()) {
      serverId = ++nextServerId;
      List<Proc> job = List.of(new Proc(nspace, Proc.RANK_WILDCARD));
      pulls.add(new Pull(c, serverId, localId, STDOUT_CHANNEL | STDERR_CHANNEL, job, true));
    }
    return new Replayed(
        serverId, r.droppedBytes(), r.writtenBytes(), r.ended(), r.status(), r.exitCode());
  }

  /**
   * The job terminated ({@code Change.JobTerminated}, after its processes' ends flushed their
   * lines): its stored output records the end, and the follows of it are over; returns their
   * connections, each to be told of the end after the output queued for it.
   */
  public synchronized List<Connection> jobEnded(String nspace, int status, int exitCode) {
    store.ended(nspace, status, exitCode);
    List<Connection> followers = new ArrayList<>();
    pulls.removeIf(
        p -> {
          boolean over = p.untilEnd() && p.coversJob(nspace);
          if (over) {
            followers.add(p.conn());
          }
          return over;
        });
    return followers;
  }

  /** What the stored output costs now (for tests). */
  synchronized long storedBytes() {
    return store.cost();
  }

  /** IOF_PULL: returns the server's id, which the peer sends back in IOF_DEREG. */
  public synchronized long pull(Connection c, List<Proc> procs, int channels, long localId) {
    long serverId = ++nextServerId;
    pulls.add(new Pull(c, serverId, localId, channels, List.copyOf(procs), false));
    return serverId;
  }

  /** How many IOF_PULL registrations the connection holds. */
  public synchronized int pulls(Connection c) {
    int n = 0;
    for (Pull p : pulls) {
      n += p.conn() == c ? 1 : 0;
    }
    return n;
  }

  /** IOF_DEREG of one of the connection's pulls. */
  public synchronized boolean deregister(Connection c, long serverId) {
    return pulls.removeIf(p -> p.conn() == c && p.serverId() == serverId);
  }

  public synchronized void connectionClosed(Connection c) {
    pulls.removeIf(p -> p.conn() == c);
    forwards.replaceAll((ns, f) -> f.conn == c ? Forward.NONE : f);
  }

  /** Ranks ended, by job, whose job's forwarding was not known yet. */
  synchronized int endsHeld() {
    return endedEarly.size();
  }

  /** Output held for jobs whose spawn the endpoint has not seen accepted yet. */
  public synchronized int heldBytes() {
    return (int) earlyBytes;
  }
}
