package org.jdvm.agent.link;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jdvm.host.LaunchException;

/**
 * What a node agent and the controller say to each other on their link (docs/protocol.md "Agent
 * link"; architecture.md §5). The link opens with a versioned, mutually authenticated handshake
 * ({@link Challenge}, {@link Hello}, {@link Welcome} or {@link Refused}); after it, the controller
 * asks for launches, signals, stdin and cleanups, the agent reports what its processes do, both
 * sides send {@link Heartbeat}s, and {@link RelayOpened}/{@link RelayFrame}/{@link RelayClosed}
 * carry the PMIx connections of the agent's local processes in both directions ({@link
 * RelayChannel}).
 *
 * <p>A message's layout on the wire is its record's components in order ({@link LinkCodec}): a
 * change to a record here changes the wire, and the {@link #VERSION} with it. Every field is
 * required (none is {@code null}), and what crosses is values, never a Java name: an enum crosses
 * as a code of its own ({@link LaunchFailed#code}).
 */
public sealed interface LinkMessage {
  /**
   * The link's version; a {@link Hello} of another version is refused. 2: {@link Hello#ended}. 3:
   * {@link Launch#mergeStderr}. 4: {@link LaunchFailed#code}, a code where the kind's name was. 5:
   * {@link OutputCredit}, without which an agent's output is not paced. 6: a relayed peer may be a
   * simple PMI peer ({@code relay.PeerIdentity.Kind#PMI}), whose frames are lines. 7: {@link
   * Hello#topology} and {@link Launch#cpus}: the controller binds an agent's processes from its
   * host's topology, and the agent applies the binding at the start. 8: {@link Exited} carries what
   * the process used (CPU times, peak memory, wall time).
   */
  int VERSION = 8;

  // ---- handshake -------------------------------------------------------------------------------

  /** Controller → agent, first: the link version and a fresh nonce the agent must sign. */
  record Challenge(int version, byte[] nonce) implements LinkMessage {}

  /**
   * Agent → controller: who it is and the proof that it holds the DVM's secret.
   *
   * @param host the host name the agent runs on
   * @param node the node name the controller started it as (its host-list entry), or "" if it joins
   *     on its own
   * @param slots the slots it offers (0: let the controller decide)
   * @param resources free-form facts about the host (cpus, memory), for listings
   * @param running the processes it still runs from an earlier link (empty on a first join)
   * @param ended the processes that ended while it had no link, with their exit status (their
   *     {@link Exited} reports, which it then does not send)
   * @param nonce a fresh nonce the controller must sign back
   * @param proof HMAC of the controller's nonce, the node and the host, with the DVM secret
   * @param topology the cpus the agent may run processes on, as {@code Topology.encode} writes them
   *     (read from its host's /sys, within its own affinity), or "" when it cannot tell
   */
  record Hello(
      int version,
      String host,
      String node,
      int slots,
      Map<String, String> resources,
      List<Running> running,
      List<Exited> ended,
      byte[] nonce,
      byte[] proof,
      String topology)
      implements LinkMessage {
    public Hello {
      resources = Map.copyOf(resources);
      running = List.copyOf(running);
      ended = List.copyOf(ended);
    }
  }

  /** One process an agent still runs when it joins again after a broken link. */
  record Running(String nspace, int rank, long pid) {}

  /**
   * Controller → agent: joined as {@code node}.
   *
   * @param heartbeatMillis how often each side sends a {@link Heartbeat}
   * @param missedHeartbeats after how many silent intervals a side gives the other up
   * @param keep which of the {@link Hello#running} processes the DVM still counts (the others the
   *     agent ends)
   * @param proof HMAC of the agent's nonce with the DVM secret
   */
  record Welcome(
      String node, long heartbeatMillis, int missedHeartbeats, List<Running> keep, byte[] proof)
      implements LinkMessage {
    public Welcome {
      keep = List.copyOf(keep);
    }
  }

  /** Controller → agent: not joined, and why; the link closes. */
  record Refused(String reason) implements LinkMessage {}

  // ---- both directions -------------------------------------------------------------------------

  /** I am alive; {@code sequence} counts this side's heartbeats. */
  record Heartbeat(long sequence) implements LinkMessage {}

  /** Controller → agent: the DVM ends; end every process and exit. */
  record Bye(String reason) implements LinkMessage {}

  // ---- controller → agent ----------------------------------------------------------------------

  /**
   * Start one process; answered by {@link Launched} or {@link LaunchFailed} with the same id.
   * {@code mergeStderr}: its stderr is its stdout (node.LaunchRequest#mergeStderr); {@code cpus}:
   * the cpu list it is bound to before it runs, "" when not bound (node.LaunchRequest#cpus).
   */
  record Launch(
      long requestId,
      String nspace,
      int rank,
      List<String> argv,
      Map<String, String> environment,
      String workingDirectory,
      boolean stdin,
      boolean mergeStderr,
      String cpus)
      implements LinkMessage {
    public Launch {
      argv = List.copyOf(argv);
      environment = Map.copyOf(environment);
      Objects.requireNonNull(workingDirectory, "workingDirectory");
    }
  }

  /** A signal to every process of a job ({@code rank} < 0) or to one. */
  record Signal(String nspace, int rank, int signal) implements LinkMessage {}

  /** A chunk of stdin (empty: end of file); answered by {@link Done}. */
  record Stdin(long requestId, String nspace, int rank, byte[] chunk, long maxWaitMillis)
      implements LinkMessage {}

  /** A cleanup registration; answered by {@link Done} whose error is the refusal. */
  record Cleanup(
      long requestId,
      String nspace,
      String path,
      boolean directory,
      boolean recursive,
      boolean leaveTop,
      boolean emptyOnly,
      List<String> ignore,
      boolean keep)
      implements LinkMessage {
    public Cleanup {
      ignore = List.copyOf(ignore);
    }
  }

  /** End every process (TERM, KILL after the grace); answered by {@link Done}. */
  record TerminateAll(long requestId, long graceMillis) implements LinkMessage {}

  /**
   * The controller passed on {@code bytes} more of {@code nspace}'s {@link Output} (its readers are
   * not behind), so the agent may send that much more (docs/ARCHITECTURE.md "Output
   * back-pressure"). An agent stops reading a job's pipes while the job's output it sent on this
   * link and was not credited back is {@link #WINDOW_BYTES} or more: withholding credit is the
   * pause, sending it the resume. Credit for a job the agent owes nothing is ignored, and a new
   * link starts every job with a full window.
   */
  record OutputCredit(String nspace, long bytes) implements LinkMessage {
    /**
     * A job's output an agent sends ahead of the controller's credit: what a stopped reader can
     * still be sent of one job from one agent past its connection's high-water mark, plus one 64
     * KiB read per process (the agent asks after each chunk).
     */
    public static final int WINDOW_BYTES = 1 << 20;
  }

  // ---- agent → controller ----------------------------------------------------------------------

  /** A {@link Launch} started the process {@code pid}. */
  record Launched(long requestId, long pid) implements LinkMessage {}

  /**
   * A {@link Launch} failed; {@code code} says why, as a code of this link's own (never the name or
   * the ordinal of the {@link LaunchException.Kind} it stands for): 1 the command was not found, 2
   * the system refused to start it, 3 the launch was interrupted, 4 the node has left, 5 the host
   * is out of resources. A code this build does not know reads as {@code START_REFUSED}.
   */
  record LaunchFailed(long requestId, int code, String message) implements LinkMessage {
    /** The failure of a launch for {@code kind}. */
    public static LaunchFailed of(long requestId, LaunchException.Kind kind, String message) {
      return new LaunchFailed(requestId, code(kind), message);
    }

    /** Why the launch failed. */
    public LaunchException.Kind kind() {
      return switch (code) {
        case 1 -> LaunchException.Kind.EXE_NOT_FOUND;
        case 3 -> LaunchException.Kind.INTERRUPTED;
        case 4 -> LaunchException.Kind.NODE_GONE;
        case 5 -> LaunchException.Kind.OUT_OF_RESOURCE;
        default -> LaunchException.Kind.START_REFUSED; // 2, and any code of a later build
      };
    }

    /** The code of {@code kind} on the link (never renumber one). */
    static int code(LaunchException.Kind kind) {
      return switch (kind) {
        case EXE_NOT_FOUND -> 1;
        case START_REFUSED -> 2;
        case INTERRUPTED -> 3;
        case NODE_GONE -> 4;
        case OUT_OF_RESOURCE -> 5;
      };
    }
  }

  /** A request other than a launch is done; {@code error} is empty when it succeeded. */
  record Done(long requestId, String error) implements LinkMessage {}

  /** Output of a process; {@code stderr} tells the stream. */
  record Output(String nspace, int rank, boolean stderr, byte[] chunk) implements LinkMessage {}

  /**
   * A process ended: it exited with {@code exitCode}, or {@code signal} (non-zero) killed it; with
   * what it used ({@code org.jdvm.host.Rusage}: CPU microseconds in user mode and in the kernel,
   * peak resident KiB, wall microseconds), each {@code -1} when the agent's host could not tell
   * (the peak alone may be {@code -1}: {@code Rusage#maxRssKiB}).
   */
  record Exited(
      String nspace,
      int rank,
      int exitCode,
      int signal,
      long userMicros,
      long systemMicros,
      long maxRssKiB,
      long wallMicros)
      implements LinkMessage {
    /** An end whose usage is not known. */
    public Exited(String nspace, int rank, int exitCode, int signal) {
      this(nspace, rank, exitCode, signal, -1, -1, -1, -1);
    }

    /** An end with what it used ({@code null}: not known). */
    public static Exited of(
        String nspace, int rank, int exitCode, int signal, org.jdvm.host.Rusage u) {
      return u == null
          ? new Exited(nspace, rank, exitCode, signal)
          : new Exited(
              nspace,
              rank,
              exitCode,
              signal,
              u.userMicros(),
              u.systemMicros(),
              u.maxRssKiB(),
              u.wallMicros());
    }

    /** What it used, or {@code null} when not known. */
    public org.jdvm.host.Rusage usage() {
      return wallMicros < 0
          ? null
          : new org.jdvm.host.Rusage(userMicros, systemMicros, maxRssKiB, wallMicros);
    }

    /** The status as a shell reports it: 128 + the signal if one killed it. */
    public int exitStatus() {
      return signal != 0 ? 128 + signal : exitCode;
    }
  }

  // ---- the relay (both directions; ids are the agent's) ----------------------------------------

  /** A local peer of the agent connected; what {@code identity} holds is the relay's business. */
  record RelayOpened(long id, byte[] identity) implements LinkMessage {}

  /** One PMIx frame, header and body as on the wire, of connection {@code id}. */
  record RelayFrame(long id, byte[] frame) implements LinkMessage {}

  /** Connection {@code id} closed. */
  record RelayClosed(long id) implements LinkMessage {}
}
