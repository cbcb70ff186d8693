package org.jdvm.endpoint.deliver;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jdvm.core.Change;
import org.jdvm.core.Effect;
import org.jdvm.endpoint.transport.Connection;
import org.jdvm.endpoint.transport.Peer;
import org.jdvm.endpoint.transport.PeerFormat;
import org.jdvm.pmix.DataArray;
import org.jdvm.pmix.DataRange;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.WireException;
import org.jdvm.pmix.frame.Commands;
import org.jdvm.pmix.frame.Tags;

/**
 * Who hears which event (spec §8.2.1.9.5; pmix-interop-notes.md §4). A libpmix 4.2.2 tool runs its
 * handler for any event with a registered code whatever its range says, so the range is enforced
 * here, on the server: a directed event from the core goes only to connections acting for its
 * target that registered its code (or a default handler); an event a peer notifies goes to the
 * registered connections its range covers. Every event travels on tag 0 as {@code COMMAND 12 |
 * STATUS | PROC source | SIZE n | INFO… | DATA_RANGE}.
 *
 * <p>What each connection registered (codes, a default handler, the operator feed, the jobs whose
 * completion it asked to hear of) is kept here, beside the routing that reads it.
 */
public final class EventRouter {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.pmix");

  /** What one connection registered. */
  private static final class Registration {
    private final Set<Integer> codes = new HashSet<>();
    private final Set<String> completionWanted = ConcurrentHashMap.newKeySet();
    private boolean defaultHandler;
    private volatile boolean feed;

    /**
     * Whether it takes an event of this code: registered for the code, or a default handler unless
     * the event is {@code PMIX_EVENT_NON_DEFAULT} (which a default handler never sees).
     */
    synchronized boolean wants(int status, boolean nonDefault) {
      return (defaultHandler && !nonDefault) || codes.contains(status);
    }
  }

  private static final Registration NONE = new Registration();

  private final Proc serverProc;
  private final Map<String, List<Connection>> byNamespace = new ConcurrentHashMap<>();
  private final Map<Connection, Registration> all = new ConcurrentHashMap<>();
  private volatile Connection scheduler;
  private volatile java.util.function.Consumer<String> beforeJobEnd = ns -> {};

  public EventRouter(Proc serverProc) {
    this.serverProc = serverProc;
  }

  /**
   * Called with a job's namespace just before its end is routed ({@link OutputRouter#jobEnded}: its
   * held output goes first).
   */
  public void beforeJobEnd(java.util.function.Consumer<String> flush) {
    beforeJobEnd = java.util.Objects.requireNonNull(flush);
  }

  /** An admitted connection becomes reachable. */
  public void add(Connection c) {
    Peer p = c.peer();
    byNamespace.computeIfAbsent(p.proc().nspace(), k -> new CopyOnWriteArrayList<>()).add(c);
    all.put(c, new Registration());
    if (p.role() == Peer.Role.SCHEDULER) {
      scheduler = c;
    }
    if (c.isClosed()) {
      remove(c);
    }
  }

  /** A connection ended: it hears nothing more, and what it registered is forgotten. */
  public void remove(Connection c) {
    Peer p = c.peer();
    all.remove(c);
    if (p == null) {
      return;
    }
    byNamespace.computeIfPresent(
        p.proc().nspace(),
        (k, list) -> {
          list.remove(c);
          return list.isEmpty() ? null : list;
        });
    if (scheduler == c) {
      scheduler = null;
    }
  }

  /** The open connections acting for {@code target} (a WILDCARD rank: any rank of it). */
  public List<Connection> actingFor(Proc target) {
    List<Connection> list = byNamespace.get(target.nspace());
    if (list == null) {
      return List.of();
    }
    List<Connection> out = new ArrayList<>(list.size());
    for (Connection c : list) {
      if (!c.isClosed() && c.peer().actsFor(target)) {
        out.add(c);
      }
    }
    return out;
  }

  private Registration registration(Connection c) {
    return all.getOrDefault(c, NONE);
  }

  // ---- what a connection registers -----------------------------------------------------------

  /** REGEVENTS: these codes, or (none) a default handler. */
  public void register(Connection c, List<Integer> eventCodes) {
    Registration r = registration(c);
    synchronized (r) {
      if (eventCodes.isEmpty()) {
        r.defaultHandler = true;
      }
      r.codes.addAll(eventCodes);
    }
  }

  /** DEREGEVENTS of one code; {@code Integer.MIN_VALUE} is the last default handler. */
  public void deregister(Connection c, int code) {
    Registration r = registration(c);
    synchronized (r) {
      if (code == Integer.MIN_VALUE) {
        r.defaultHandler = false;
      } else {
        r.codes.remove(code);
      }
      if (code == JdvmProtocol.EVENT_CHANGE) {
        r.feed = false;
      }
    }
  }

  /** How many event codes the connection has registered. */
  public int registeredCodes(Connection c) {
    Registration r = registration(c);
    synchronized (r) {
      return r.codes.size();
    }
  }

  /** A job's end, held back while jobs inheriting its forwarding live; and what was held. */
  private static final class Hold {
    int live;
    final List<Runnable> held = new ArrayList<>(1);
  }

  private final Map<String, Hold> holds = new java.util.HashMap<>();

  /**
   * A job that inherited {@code root}'s forwarding started: {@code root}'s end waits for it (see
   * {@link OutcomeWatcher}).
   */
  public synchronized void inheritorStarted(String root) {
    holds.computeIfAbsent(root, k -> new Hold()).live++;
  }

  /** A job that inherited {@code root}'s forwarding ended: the last one releases root's end. */
  public void inheritorEnded(String root) {
    List<Runnable> release;
    synchronized (this) {
      Hold h = holds.get(root);
      if (h == null || --h.live > 0) {
        return;
      }
      holds.remove(root);
      release = h.held;
    }
    release.forEach(Runnable::run);
  }

  /** The peer spawned this job with PMIX_NOTIFY_COMPLETION: it hears of the job's end. */
  public void wantCompletion(Connection c, String nspace) {
    registration(c).completionWanted.add(nspace);
  }

  // ---- from the core -------------------------------------------------------------------------

  /**
   * A directed event ({@link Effect.NotifyProc}): to the connections acting for the target that
   * registered the code or a default handler; a job's end also to a connection that spawned the job
   * with PMIX_NOTIFY_COMPLETION.
   */
  public void directed(Proc target, int status, Proc source, List<Info> infos) {
    String ended = status == PmixStatus.EVENT_JOB_END ? affected(infos) : null;
    if (ended != null) {
      beforeJobEnd.accept(ended);
    }
    if (ended != null) {
      synchronized (this) {
        Hold h = holds.get(ended);
        if (h != null) {
          h.held.add(() -> deliverDirected(target, status, source, infos, ended));
          return;
        }
      }
    }
    deliverDirected(target, status, source, infos, ended);
  }

  private void deliverDirected(
      Proc target, int status, Proc source, List<Info> infos, String ended) {
    for (Connection c : actingFor(target)) {
      Registration r = registration(c);
      boolean completion = ended != null && r.completionWanted.remove(ended);
      if (completion || r.wants(status, nonDefault(infos))) {
        send(c, status, source, withRange(infos, c.peer().proc()), DataRange.CUSTOM);
      }
    }
  }

  /** {@code PMIX_EVENT_NON_DEFAULT} true among the infos: no default handler may take it. */
  private static boolean nonDefault(List<Info> infos) {
    for (Info i : infos) {
      if (i.key().equals(PmixKeys.EVENT_NON_DEFAULT) && Boolean.TRUE.equals(i.value().data())) {
        return true;
      }
    }
    return false;
  }

  private static String affected(List<Info> infos) {
    for (Info i : infos) {
      if (i.key().equals(PmixKeys.EVENT_AFFECTED_PROC) && i.value().data() instanceof Proc p) {
        return p.nspace();
      }
    }
    return null;
  }

  /** The infos with {@code pmix.evrange} naming the recipient, as a 4.2.2 server sends them. */
  private static List<Info> withRange(List<Info> infos, Proc recipient) {
    List<Info> out = new ArrayList<>(infos.size() + 1);
    out.add(
        Info.of(
            PmixKeys.EVENT_CUSTOM_RANGE,
            Value.array(DataArray.of(DataType.PROC, List.of(recipient)))));
    out.addAll(infos);
    return out;
  }

  /**
   * The end of a job whose output {@code c} followed ({@code jdvm output --follow}): {@code
   * PMIX_EVENT_JOB_END} with the job, its status and exit code, as its spawner hears it, whatever
   * {@code c} registered, since it is the answer to its follow.
   */
  public void followEnded(Connection c, String nspace, int status, int exitCode) {
    if (c.isClosed()) {
      return;
    }
    List<Info> infos =
        List.of(
            Info.of(PmixKeys.EVENT_AFFECTED_PROC, Value.proc(Proc.wildcard(nspace))),
            Info.of(PmixKeys.JOB_TERM_STATUS, Value.status(status)),
            Info.of(PmixKeys.EXIT_CODE, Value.integer(exitCode)));
    send(c, PmixStatus.EVENT_JOB_END, serverProc, infos, DataRange.CUSTOM);
  }

  /**
   * {@code PMIX_SESSION_COMPLETE} to the attached scheduler, once (docs/protocol.md): status {@code
   * PMIX_EVENT_SESSION_END}, whatever it registered, since it is the answer to its session.
   */
  public void sessionComplete(Effect.ReportSessionComplete r) {
    Connection c = scheduler;
    if (c == null || c.isClosed()) {
      LOG.log(
          System.Logger.Level.INFO,
          "session=" + r.sessionId() + " complete=true delivered=false reason=no_scheduler");
      return;
    }
    List<Info> infos = new ArrayList<>();
    infos.add(Info.of(PmixKeys.SESSION_COMPLETE, Value.bool(true)));
    infos.add(Info.of(PmixKeys.SESSION_ID, Value.uint32(r.sessionId())));
    if (r.allocId() != null) {
      infos.add(Info.of(PmixKeys.ALLOC_ID, Value.string(r.allocId())));
    }
    for (Effect.JobStatus j : r.jobs()) {
      List<Info> job =
          List.of(
              Info.of(PmixKeys.NSPACE, Value.string(j.namespace())),
              Info.of(PmixKeys.JOB_TERM_STATUS, Value.status(j.status())));
      infos.add(Info.of(PmixKeys.JOB_INFO_ARRAY, Value.array(DataArray.ofInfos(job))));
    }
    send(c, PmixStatus.EVENT_SESSION_END, serverProc, infos, DataRange.CUSTOM);
  }

  /** How many recent changes a new feed subscriber is shown first. */
  static final int FEED_HISTORY = 1000;

  /** The most recent changes, oldest first; rendered only when someone reads them. */
  private final ArrayDeque<Change> history = new ArrayDeque<>(FEED_HISTORY);

  /**
   * The operator feed: remembers the changes (bounded) and sends them to every connection that
   * subscribed. Called on the controller thread.
   */
  public synchronized void feed(List<Change> changes) {
    for (Change change : changes) {
      if (history.size() == FEED_HISTORY) {
        history.removeFirst();
      }
      history.addLast(change);
      for (Map.Entry<Connection, Registration> e : all.entrySet()) {
        Connection c = e.getKey();
        if (e.getValue().feed && !c.isClosed()) {
          sendChange(c, change);
        }
      }
    }
  }

  /**
   * Subscribes a connection to the feed: the recent history, then a {@link
   * JdvmProtocol#FEED_REPLAYED} marker, then every change as it happens — with nothing lost or
   * repeated in between, because {@link #feed} cannot run while this does.
   */
  public synchronized void subscribeFeed(Connection c, List<Integer> codes) {
    for (Change change : history) {
      sendChange(c, change);
    }
    send(
        c,
        JdvmProtocol.EVENT_CHANGE,
        serverProc,
        List.of(Info.of(JdvmProtocol.FEED_REPLAYED, Value.bool(true))),
        DataRange.CUSTOM);
    Registration r = registration(c);
    synchronized (r) {
      r.codes.addAll(codes);
      r.feed = true;
    }
  }

  private void sendChange(Connection c, Change change) {
    List<Info> infos =
        List.of(
            Info.of(JdvmProtocol.CHANGE, Value.string(ChangeFeed.line(change))),
            Info.of(JdvmProtocol.CHANGE_JSON, Value.string(ChangeFeed.json(change))));
    send(c, JdvmProtocol.EVENT_CHANGE, serverProc, infos, DataRange.CUSTOM);
  }

  // ---- from peers ----------------------------------------------------------------------------

  /**
   * An event a peer notified: to every other registered connection its range covers. CUSTOM names
   * its recipients in {@code pmix.evrange}; NAMESPACE is the sender's job; LOCAL, SESSION and
   * GLOBAL are everyone here; RM and PROC_LOCAL reach no other peer.
   */
  public void fromPeer(
      Connection sender, int status, DataRange range, List<Proc> customRange, List<Info> infos) {
    Proc source = sender.peer().proc();
    List<Connection> targets = new ArrayList<>();
    switch (range) {
      case CUSTOM -> {
        for (Proc p : customRange) {
          targets.addAll(actingFor(p));
        }
      }
      case NAMESPACE -> targets.addAll(actingFor(Proc.wildcard(source.nspace())));
      case UNDEF, LOCAL, SESSION, GLOBAL -> targets.addAll(all.keySet());
      default -> {}
    }
    List<Info> clean = new ArrayList<>(infos.size());
    for (Info i : infos) {
      clean.add(new Info(i.key(), i.flags() & Info.REQUIRED, i.value()));
    }
    List<Connection> done = new ArrayList<>();
    boolean nonDefault = nonDefault(infos);
    for (Connection c : targets) {
      if (c != sender
          && !done.contains(c)
          && !c.isClosed()
          && registration(c).wants(status, nonDefault)) {
        done.add(c);
        send(c, status, source, clean, range);
      }
    }
  }

  // ---- the wire ------------------------------------------------------------------------------

  private static void send(
      Connection c, int status, Proc source, List<Info> infos, DataRange range) {
    Peer p = c.peer();
    try {
      byte[] body =
          new Packer(p.format())
              .packCommand(Commands.NOTIFY_CMD)
              .packStatus(status)
              .packProc(source)
              .packInfos(PeerFormat.infos(infos, p.format()))
              .packInteger(DataType.DATA_RANGE, range.code())
              .toByteArray();
      c.send(Tags.NOTIFY, body);
    } catch (WireException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "event " + PmixStatus.name(status) + " cannot be packed for " + c + ": " + e);
    }
  }
}
