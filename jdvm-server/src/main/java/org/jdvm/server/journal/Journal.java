package org.jdvm.server.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jdvm.core.Command;
import org.jdvm.core.CoreConfig;
import org.jdvm.core.Effect;
import org.jdvm.core.Outcome;
import org.jdvm.core.Report;
import org.jdvm.core.Request;
import org.jdvm.core.engine.Core;
import org.jdvm.core.journal.Entry;
import org.jdvm.core.journal.JournalCodec;
import org.jdvm.pmix.record.Bytes;
import org.jdvm.scheduler.SchedulerJournal;
import org.jdvm.scheduler.SchedulerNotes;
import org.jdvm.server.controller.Controller;

/**
 * The controller's write-ahead journal in the DVM's directory (docs/journal.md). On the controller
 * thread, {@link #record} writes each batch that changed something to the current segment before
 * its effects run; {@link #dispatched} marks them executed (the mark rides with the next write) and
 * now and then takes a snapshot: the core's bytes are made on the controller thread, a new segment
 * starts at once, and the snapshot file is written, forced and renamed into place on a background
 * thread, after which files older than the previous snapshot are removed. {@link #note} may be
 * called from any thread.
 */
public final class Journal implements Controller.Journal, SchedulerJournal, AutoCloseable {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.journal");

  /** Batches between snapshots by default: replay of this many takes well under a second. */
  public static final long DEFAULT_SNAPSHOT_EVERY = 50_000;

  /**
   * Journal bytes between snapshots by default, whatever the count: batches that carry much (large
   * spawns, many notes) would otherwise make the replay after a crash as long as they are large.
   */
  public static final long DEFAULT_SNAPSHOT_BYTES = 16L << 20;

  private final JournalFiles files;
  private final FsyncPolicy policy;
  private final CoreConfig config;
  private final long snapshotEvery;
  private final long snapshotBytes;
  private final Core core;
  private final Bytes.Out buffer = new Bytes.Out(1 << 14);
  private final Map<String, Entry.Note> notes = new LinkedHashMap<>();
  private final List<Entry.Note> pendingNotes = new ArrayList<>();
  private final ExecutorService snapshotter =
      Executors.newSingleThreadExecutor(r -> daemon(r, "jdvm-snapshot"));
  private final ScheduledExecutorService syncer;
  private FileChannel segment;

  /** Where the bytes written to {@link #segment} end: a write cut short is cut back to it. */
  private long segmentLength;

  private final JournalSpace space;

  /**
   * The same file, for writing: a small {@code write} through a stream skips the channel's
   * temporary direct buffer and interruptible-I/O bookkeeping.
   */
  private java.io.FileOutputStream segmentOut;

  private long nextSeq;
  private long lastNowNs;
  private long lastRequestId;
  private long sinceSnapshot;
  private long bytesSinceSnapshot;
  private long undispatched = -1;

  /**
   * Whether {@link #buffer} holds recorded batches not yet written: the controller's group commit
   * writes them in one {@code write} ({@link #commit}), before any of their effects run.
   */
  private boolean holding;

  private boolean dirty;
  private long previousSnapshot = -1;
  private boolean closed;

  /**
   * Opens the journal after recovery: a new segment starting at {@code recovered.nextSeq()}.
   *
   * @param core the core the controller drives (snapshots are taken of it on its thread)
   */
  public Journal(
      Path dir,
      FsyncPolicy policy,
      long snapshotEvery,
      Core core,
      CoreConfig config,
      RecoveredJournal recovered)
      throws IOException {
    this(dir, policy, snapshotEvery, DEFAULT_SNAPSHOT_BYTES, core, config, recovered);
  }

  /**
   * As {@link #Journal(Path, FsyncPolicy, long, Core, CoreConfig, RecoveredJournal)}, with a
   * snapshot also once {@code snapshotBytes} were written since the last one.
   */
  public Journal(
      Path dir,
      FsyncPolicy policy,
      long snapshotEvery,
      long snapshotBytes,
      Core core,
      CoreConfig config,
      RecoveredJournal recovered)
      throws IOException {
    this.files = new JournalFiles(dir);
    this.space = new JournalSpace(files.reserve());
    this.policy = policy;
    this.snapshotEvery = snapshotEvery;
    this.snapshotBytes = snapshotBytes;
    this.core = core;
    this.config = config;
    this.nextSeq = recovered.nextSeq();
    this.lastNowNs = recovered.nowNs();
    this.lastRequestId = recovered.lastRequestId();
    this.previousSnapshot = recovered.snapshotSeq();
    recovered.notes().values().forEach(n -> notes.put(key(n), n));
    if (!recovered.undispatched().isEmpty()) {
      // Recovery executes them again before the controller runs; the mark rides with the first
      // write, so a second crash does not execute them a third time.
      undispatched = nextSeq - 1;
    }
    startSegment();
    this.syncer =
        policy == FsyncPolicy.INTERVAL
            ? Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "jdvm-journal-sync"))
            : null;
    if (syncer != null) {
      syncer.scheduleWithFixedDelay(
          this::syncIfDirty,
          FsyncPolicy.INTERVAL_MILLIS,
          FsyncPolicy.INTERVAL_MILLIS,
          TimeUnit.MILLISECONDS);
    }
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  private static final byte[] NONE = new byte[0];

  private static String key(Entry.Note n) {
    return n.kind() + "\u0000" + n.key();
  }

  /** The highest request id ever handled: the recovered DVM mints above it. */
  public synchronized long lastRequestId() {
    return lastRequestId;
  }

  public FsyncPolicy policy() {
    return policy;
  }

  /** Whether an outcome is journaled: it changed the state or asked the world for something. */
  static boolean journaled(Outcome o) {
    if (!o.changes().isEmpty()) {
      return true;
    }
    for (Effect e : o.effects()) {
      if (!(e instanceof Effect.Reply)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the controller may let the core see {@code command}: always, unless the journal is
   * short of space (docs/journal.md "A full disk"); then a request that starts or grows something
   * is refused before anything changes. Reports, a tool's connection (so that {@code jdvm jobs} and
   * {@code jdvm kill} still work) and requests that end or let go are admitted: they are written
   * into what is left, and the reserve.
   */
  @Override
  public boolean admits(Command command) {
    return !space.refusing() || !(command instanceof Request r) || letsGo(r);
  }

  private static boolean letsGo(Request r) {
    return switch (r) {
      case Request.RegisterTool t -> true;
      case Request.TerminateJob t -> true;
      case Request.AbortJob a -> true;
      case Request.SignalJob s -> true;
      case Request.Allocate a ->
          a.directive() == org.jdvm.pmix.AllocDirective.RELEASE
              || a.directive() == org.jdvm.pmix.AllocDirective.REQ_CANCEL;
      default -> false;
    };
  }

  @Override
  public void record(Command command, Outcome outcome, long nowNs) {
    if (command instanceof Request r) {
      synchronized (this) {
        lastRequestId = Math.max(lastRequestId, r.requestId().value());
      }
    }
    if (!journaled(outcome)) {
      // Notes waiting for a write (a scheduler step whose events this may be) go out before this
      // command's replies do.
      flushPendingNotes();
      return;
    }
    List<Entry.Note> batchNotes = new ArrayList<>(0);
    if (command instanceof Report.SchedulerTimeoutWarning w && !outcome.effects().isEmpty()) {
      // The warning reached the core and went out: a recovery must not send it again.
      batchNotes.add(new Entry.Note(Notes.WARNED, w.allocId(), new byte[] {1}));
    }
    for (org.jdvm.core.Change c : outcome.changes()) {
      if (c instanceof org.jdvm.core.Change.AskClosed a && hasAnswer(a.askId())) {
        // The core has the answer: a restart will not ask again.
        batchNotes.add(
            new Entry.Note(SchedulerNotes.SCHEDULER_ANSWER, Long.toString(a.askId()), NONE));
      }
    }
    append(outcome, nowNs, batchNotes, true);
  }

  /**
   * The effects as a batch keeps them: a launch without its environment's values, which recovery
   * never needs — launches are not sent again (Recovering) — and which may be secrets.
   */
  private static List<Effect> withoutEnvValues(List<Effect> effects) {
    List<Effect> out = null;
    for (int i = 0; i < effects.size(); i++) {
      if (effects.get(i) instanceof Effect.LaunchProcs l) {
        out = out == null ? new ArrayList<>(effects) : out;
        List<Effect.ProcLaunch> procs = new ArrayList<>(l.procs().size());
        for (Effect.ProcLaunch p : l.procs()) {
          org.jdvm.pmix.App a = p.app();
          org.jdvm.pmix.App named =
              new org.jdvm.pmix.App(
                  a.cmd(), a.argv(), a.envNames(), a.cwd(), a.maxprocs(), a.info());
          procs.add(new Effect.ProcLaunch(p.rank(), p.appIndex(), named, p.env(), p.stdin()));
        }
        out.set(i, new Effect.LaunchProcs(l.node(), l.namespace(), procs));
      }
    }
    return out == null ? effects : out;
  }

  /**
   * Always: the controller records the commands waiting in its queue before it commits, so that a
   * busy controller makes one {@code write} (and under {@link FsyncPolicy#ALWAYS} one fsync) for
   * several commands.
   */
  @Override
  public boolean groupsCommits() {
    return true;
  }

  /**
   * Writes the batches recorded since the last commit, in one {@code write}; under {@link
   * FsyncPolicy#ALWAYS} then forces them.
   */
  @Override
  public void commit() {
    synchronized (this) {
      writeHeld();
    }
    if (policy == FsyncPolicy.ALWAYS) {
      synchronized (this) {
        if (!dirty) {
          return;
        }
      }
      force();
    }
  }

  private synchronized boolean hasAnswer(long askId) {
    return notes.containsKey(SchedulerNotes.SCHEDULER_ANSWER + "\u0000" + askId);
  }

  /** Writes what {@link #buffer} holds for the group commit, if anything. */
  private void writeHeld() {
    if (holding) {
      holding = false;
      write(buffer);
      buffer.reset();
    }
  }

  /**
   * Appends a batch to the segment: written at once, or — {@code hold}, the controller's record —
   * kept in {@link #buffer} until {@link #commit}. Whatever is appended meanwhile (a note from
   * another thread) goes after the held batches, and writes them with it.
   */
  private synchronized void append(
      Outcome outcome, long nowNs, List<Entry.Note> batchNotes, boolean hold) {
    if (!pendingNotes.isEmpty()) {
      List<Entry.Note> all = new ArrayList<>(pendingNotes.size() + batchNotes.size());
      all.addAll(pendingNotes);
      all.addAll(batchNotes);
      batchNotes = all;
    }
    lastNowNs = Math.max(lastNowNs, nowNs);
    Entry.Batch batch =
        new Entry.Batch(
            nextSeq,
            lastNowNs,
            System.currentTimeMillis(),
            lastRequestId,
            outcome == null ? List.of() : outcome.changes(),
            outcome == null ? List.of() : withoutEnvValues(outcome.effects()),
            batchNotes);
    if (!holding) {
      buffer.reset();
    }
    if (undispatched >= 0) {
      JournalCodec.frame(new Entry.Dispatched(undispatched), buffer);
      undispatched = -1;
    }
    JournalCodec.frame(batch, buffer);
    holding = true;
    if (!hold) {
      writeHeld();
    }
    pendingNotes.clear();
    for (Entry.Note n : batchNotes) {
      if (n.value().length == 0) {
        notes.remove(key(n));
      } else {
        notes.put(key(n), n);
      }
    }
    nextSeq++;
    sinceSnapshot++;
  }

  /**
   * Journals facts of the shell that outlive a restart (the embedded scheduler's state, ...): a
   * batch with no changes, written and — under {@link FsyncPolicy#ALWAYS} — forced before the
   * caller goes on to act on them. Any thread.
   */
  public void note(Entry.Note note) {
    notes(List.of(note));
  }

  /** {@link #note} for several at once, in one batch. */
  @Override
  public void notes(List<Entry.Note> several) {
    append(null, lastNowNs(), several, false);
    if (policy == FsyncPolicy.ALWAYS) {
      force();
    }
  }

  /**
   * {@link #notes} for facts whose only consequence is a command the controller takes next and
   * journals (the embedded scheduler's step, whose events it hands the controller): they are not
   * written on their own but ride at the head of the next write — the controller's batch for those
   * events, before any of its effects run — which saves a write and an encode on the path of every
   * scheduler answer. Until then they count as noted ({@link #record} sees them). Whatever is still
   * pending is written by the background sync ({@link FsyncPolicy#INTERVAL}), before a snapshot
   * rotates the segment, and at close; {@link #record} writes them even for a command that is not
   * journaled, so they are in the file before the effects of any command the controller takes after
   * this call. Under {@link FsyncPolicy#ALWAYS} this is {@link #notes}.
   */
  @Override
  public void notesWithNextWrite(List<Entry.Note> several) {
    if (policy == FsyncPolicy.ALWAYS) {
      notes(several);
      return;
    }
    synchronized (this) {
      pendingNotes.addAll(several);
      for (Entry.Note n : several) {
        if (n.value().length == 0) {
          notes.remove(key(n));
        } else {
          notes.put(key(n), n);
        }
      }
    }
  }

  /** Writes the notes still waiting for a write, in a batch of their own. */
  private synchronized void flushPendingNotes() {
    if (!pendingNotes.isEmpty()) {
      append(null, lastNowNs, List.of(), false);
    }
  }

  private synchronized long lastNowNs() {
    return lastNowNs;
  }

  @Override
  public void dispatched() {
    boolean snapshot;
    synchronized (this) {
      undispatched = nextSeq - 1;
      // Not while short of space: a snapshot needs room for a new segment and the state's bytes.
      snapshot =
          (sinceSnapshot >= snapshotEvery || bytesSinceSnapshot >= snapshotBytes)
              && !closed
              && !space.refusing();
    }
    if (snapshot) {
      snapshot();
    }
  }

  /**
   * Takes a snapshot now (controller thread): the core's bytes, a new segment, and the file written
   * in the background.
   */
  public void snapshot() {
    long started = System.nanoTime();
    byte[] state = core.snapshot();
    Entry.Snapshot snap;
    synchronized (this) {
      snap =
          new Entry.Snapshot(
              JournalCodec.VOCABULARY,
              config,
              nextSeq,
              lastNowNs,
              System.currentTimeMillis(),
              lastRequestId,
              state,
              new ArrayList<>(notes.values()));
      sinceSnapshot = 0;
      bytesSinceSnapshot = 0;
      writeHeld();
      flushPendingNotes();
      if (undispatched >= 0) {
        buffer.reset();
        JournalCodec.frame(new Entry.Dispatched(undispatched), buffer);
        undispatched = -1;
        write(buffer);
      }
      force();
      closeSegment();
      startSegment();
    }
    long tookNs = System.nanoTime() - started;
    snapshotter.execute(() -> writeSnapshot(snap, tookNs));
  }

  private void writeSnapshot(Entry.Snapshot snap, long coreNs) {
    long started = System.nanoTime();
    try {
      byte[] bytes = JournalCodec.framed(snap);
      files.writeAtomically(files.snapshot(snap.nextSeq()), bytes);
      LOG.log(
          System.Logger.Level.INFO,
          "snapshot="
              + snap.nextSeq()
              + " bytes="
              + bytes.length
              + " state_ms="
              + coreNs / 1_000_000
              + " write_ms="
              + (System.nanoTime() - started) / 1_000_000);
      prune(snap.nextSeq());
    } catch (IOException | RuntimeException e) {
      // The journal still holds everything since the previous snapshot: nothing is lost.
      LOG.log(System.Logger.Level.ERROR, "snapshot " + snap.nextSeq() + " failed: " + e);
    }
  }

  /** Keeps this snapshot and the previous one, and the segments from the previous one on. */
  private void prune(long newest) throws IOException {
    long keepFrom;
    synchronized (this) {
      keepFrom = previousSnapshot < 0 ? 0 : previousSnapshot;
      previousSnapshot = newest;
    }
    for (JournalFiles.Numbered s : files.snapshots()) {
      if (s.seq() < keepFrom) {
        java.nio.file.Files.deleteIfExists(s.path());
      }
    }
    List<JournalFiles.Numbered> segments = files.segments();
    for (int i = 0; i + 1 < segments.size(); i++) {
      if (segments.get(i + 1).seq() <= keepFrom) {
        java.nio.file.Files.deleteIfExists(segments.get(i).path());
      }
    }
  }

  private void startSegment() throws UncheckedIOException {
    try {
      segmentOut = files.openSegment(nextSeq);
      segment = segmentOut.getChannel();
      segmentLength = 0;
      buffer.reset();
      JournalCodec.frame(new Entry.Header(JournalCodec.VOCABULARY, config, nextSeq), buffer);
      write(buffer);
      segment.force(true);
      files.forceDir();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start journal segment " + nextSeq, e);
    }
  }

  private void closeSegment() {
    try {
      segment.close();
    } catch (IOException e) {
      LOG.log(System.Logger.Level.WARNING, "closing a journal segment: " + e);
    }
  }

  /**
   * Writes {@code out} whole to the segment. A write that finds no space is cut back, so no torn
   * record stays between whole ones, and tried again: into the reserve, then, waiting for space
   * (docs/journal.md "A full disk"). Any other failure is thrown: without the journal the next
   * effects would not be recoverable, and the controller stops.
   */
  private void write(Bytes.Out out) {
    boolean ranOut = false;
    while (true) {
      try {
        segmentOut.write(out.array(), 0, out.size());
        segmentLength += out.size();
        bytesSinceSnapshot += out.size();
        dirty = true;
        if (ranOut) {
          space.wrote();
        }
        return;
      } catch (IOException e) {
        cutBack(e);
        if (!JournalSpace.noSpace(e)) {
          throw new UncheckedIOException("journal write failed: " + e.getMessage(), e);
        }
        if (ranOut) {
          space.awaitRetry(e);
        } else {
          space.ranOut();
          ranOut = true;
        }
      }
    }
  }

  /** Cuts what a failed write left of its bytes off the segment. */
  private void cutBack(IOException cause) {
    try {
      segment.truncate(segmentLength);
      segment.position(segmentLength);
    } catch (IOException e) {
      e.addSuppressed(cause);
      throw new UncheckedIOException("journal write failed and cannot be cut back: " + e, e);
    }
  }

  /**
   * Forces the current segment. Not under the journal's lock: the controller goes on writing while
   * an fsync is under way (an fsync holding the lock made every write wait for the disk).
   */
  private void force() {
    FileChannel ch;
    synchronized (this) {
      ch = segment;
      dirty = false;
    }
    try {
      ch.force(false);
    } catch (java.nio.channels.ClosedChannelException e) {
      // A snapshot rotated the segment, and forced it before closing it.
    } catch (IOException e) {
      throw new UncheckedIOException("journal fsync failed: " + e.getMessage(), e);
    }
  }

  private void syncIfDirty() {
    synchronized (this) {
      if (closed) {
        return;
      }
      try {
        flushPendingNotes();
      } catch (UncheckedIOException e) {
        LOG.log(System.Logger.Level.ERROR, e.getMessage());
        return;
      }
      if (!dirty) {
        return;
      }
    }
    try {
      force();
    } catch (UncheckedIOException e) {
      LOG.log(System.Logger.Level.ERROR, e.getMessage());
    }
  }

  /** Whether the journal is closed (the DVM stops): nothing more is recorded. */
  @Override
  public synchronized boolean isClosed() {
    return closed;
  }

  /**
   * Closes the journal. After a clean stop (the DVM tore down) the files are removed: there is
   * nothing to recover, and the next start begins afresh.
   */
  public void close(boolean cleanStop) {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    space.close();
    if (syncer != null) {
      syncer.shutdownNow();
    }
    snapshotter.shutdown();
    try {
      snapshotter.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    synchronized (this) {
      try {
        writeHeld();
        flushPendingNotes();
        if (undispatched >= 0) {
          buffer.reset();
          JournalCodec.frame(new Entry.Dispatched(undispatched), buffer);
          write(buffer);
        }
        segment.force(false);
      } catch (IOException | UncheckedIOException e) {
        LOG.log(System.Logger.Level.WARNING, "closing the journal: " + e);
      }
      closeSegment();
    }
    if (cleanStop) {
      try {
        files.clear();
      } catch (IOException e) {
        LOG.log(System.Logger.Level.WARNING, "removing the journal after a clean stop: " + e);
      }
    }
  }

  @Override
  public void close() {
    close(false);
  }
}
