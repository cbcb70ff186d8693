package org.jdvm.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.DataRange;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.codec.WireException;

/**
 * What the DVM pushes to a client, and where it goes: events (tag 0) to the registered handlers,
 * output (tag 2) to the output handler, and job ends to the jobs this client spawned. Decoding runs
 * on the reading thread; handing over runs in arrival order on one delivery thread, started at the
 * first push, so a job's output always reaches the handler before its end completes the job, and a
 * handler may make blocking calls. A job's end that finds no delivery pending releases {@link
 * Job#awaitEnd} on the reading thread at once, one thread hand-off sooner, and goes to the delivery
 * thread only if its {@link Job#end()} was asked for.
 */
final class Inbox implements Wire.Listener {
  private static final Runnable STOP = () -> {};

  /** The jobs this client spawned and has not seen end. */
  final Map<String, Job> jobs = new ConcurrentHashMap<>();

  /**
   * How many ends of jobs not (yet) known here are kept: a job's end can arrive before the reply to
   * its spawn (a process that exits before its launch is reported), and ends of other jobs this
   * client hears of must not grow without bound.
   */
  static final int EARLY_ENDS = 1024;

  /**
   * Ends that came before their job's spawn reply, oldest first; reading thread only (events and
   * replies are both decoded there).
   */
  private final java.util.LinkedHashMap<String, JobEnd> early =
      new java.util.LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, JobEnd> eldest) {
          return size() > EARLY_ENDS;
        }
      };

  final List<Registration> registrations = new CopyOnWriteArrayList<>();

  /** Completes, after every earlier delivery, once the connection is gone (closed or lost). */
  final CompletableFuture<Void> gone = new CompletableFuture<>();

  private final LinkedBlockingQueue<Runnable> deliveries = new LinkedBlockingQueue<>();

  /** Deliveries queued or running: zero means every one handed over so far has run. */
  private final java.util.concurrent.atomic.AtomicInteger pending =
      new java.util.concurrent.atomic.AtomicInteger();

  private volatile OutputHandler output;
  private Thread deliverer;

  Inbox(OutputHandler output) {
    this.output = output;
  }

  void output(OutputHandler handler) {
    this.output = handler;
  }

  @Override
  public void event(Unpacker in) {
    Event e;
    try {
      in.unpackCommand();
      int status = in.unpackStatus();
      Proc source = in.unpackProc();
      List<Info> infos = in.unpackInfos();
      DataRange range =
          in.hasRemaining() ? range((int) in.unpackInteger(DataType.DATA_RANGE)) : DataRange.LOCAL;
      e = new Event(status, source, infos, range);
    } catch (WireException bad) {
      return;
    }
    if (e.status() == PmixStatus.EVENT_JOB_END) {
      JobEnd end = jobEnd(e);
      Job job = end == null ? null : jobs.remove(end.nspace());
      if (job != null) {
        end(job, end);
      } else if (end != null) {
        early.put(end.nspace(), end);
      }
    }
    for (Registration r : registrations) {
      if (r.takes(e.status())) {
        deliver(() -> r.handler.accept(e));
      }
    }
  }

  /** How the output of each job this client spawned is shown ({@link OutputFormat}). */
  private final Map<String, OutputFormat> formats = new ConcurrentHashMap<>();

  /**
   * A spawned job's format, from its spawn reply on the reading thread, so before any of its output
   * is decoded (the DVM sends the reply first); {@code null}: as it comes.
   */
  void format(String nspace, OutputFormat format) {
    if (format != null) {
      formats.put(nspace, format);
    }
  }

  /**
   * A job this client spawned, from its spawn reply (on the reading thread): from now on its end
   * completes it; if its end came first, it completes now.
   */
  void spawned(Job job) {
    JobEnd already = early.remove(job.nspace());
    if (already != null) {
      end(job, already);
    } else {
      jobs.put(job.nspace(), job);
    }
  }

  private void end(Job job, JobEnd end) {
    formats.remove(job.nspace());
    // Every earlier output has reached its handler: a waiter may go on at once, one thread
    // hand-off sooner; the job's end() future, if it was asked for, still completes on the
    // delivery thread, and if not, nothing is left to deliver.
    if (pending.get() == 0 && !job.reached(end)) {
      return;
    }
    deliver(() -> job.ended(end));
  }

  /** Tag 2: {@code PROC | IOF_CHANNEL | SIZE id | SIZE n | INFO | BYTE_OBJECT}. */
  @Override
  public void output(Unpacker in) {
    Proc source;
    boolean stderr;
    ByteObject bytes;
    try {
      source = in.unpackProc();
      stderr = in.unpackInteger(DataType.IOF_CHANNEL) == 0x04;
      in.unpackSize();
      in.unpackInfos();
      bytes = (ByteObject) in.unpackOne(DataType.BYTE_OBJECT);
    } catch (WireException bad) {
      return;
    }
    OutputHandler h = output;
    OutputFormat f = formats.get(source.nspace());
    deliver(
        () -> {
          byte[] b = bytes.toByteArray();
          h.output(source, stderr, f == null ? b : f.apply(source, stderr, b));
        });
  }

  @Override
  public void lost(PmixException why) {
    List<Job> open = new ArrayList<>(jobs.values());
    jobs.clear();
    synchronized (this) {
      if (deliverer == null && open.isEmpty()) {
        // Nothing was ever delivered: no thread to start just to say so.
        gone.complete(null);
        return;
      }
    }
    deliver(
        () -> {
          for (Job j : open) {
            j.lost(why);
          }
          gone.complete(null);
        });
  }

  /** The range a wire code names; a code PMIx does not define becomes {@link DataRange#INVALID}. */
  private static DataRange range(int code) {
    DataRange r = DataRange.fromCode(code);
    return r == null ? DataRange.INVALID : r;
  }

  static JobEnd jobEnd(Event e) {
    String nspace = null;
    int status = PmixStatus.SUCCESS;
    int exit = 0;
    for (Info i : e.infos()) {
      Object d = i.value().data();
      switch (i.key()) {
        case PmixKeys.EVENT_AFFECTED_PROC -> nspace = d instanceof Proc p ? p.nspace() : nspace;
        case PmixKeys.JOB_TERM_STATUS -> status = d instanceof Long l ? (int) (long) l : status;
        case PmixKeys.EXIT_CODE -> exit = d instanceof Long l ? (int) (long) l : exit;
        default -> {}
      }
    }
    return nspace == null ? null : new JobEnd(nspace, status, exit);
  }

  private void deliver(Runnable r) {
    synchronized (this) {
      if (deliverer == null) {
        deliverer = new Thread(this::deliveryLoop, "jdvm-client-delivery");
        deliverer.setDaemon(true);
        deliverer.start();
      }
    }
    pending.incrementAndGet();
    deliveries.add(r);
  }

  private void deliveryLoop() {
    while (true) {
      Runnable r;
      try {
        r = deliveries.take();
      } catch (InterruptedException e) {
        return;
      }
      if (r == STOP) {
        return;
      }
      try {
        r.run();
      } catch (RuntimeException e) {
        System.getLogger("org.jdvm.client").log(System.Logger.Level.WARNING, "a handler failed", e);
      } finally {
        pending.decrementAndGet();
      }
    }
  }

  /** Completes once every delivery handed over so far has run. */
  CompletableFuture<Void> drained() {
    if (pending.get() == 0) {
      return CompletableFuture.completedFuture(null);
    }
    CompletableFuture<Void> done = new CompletableFuture<>();
    deliver(() -> done.complete(null));
    return done;
  }

  /** Whether the delivery thread was ever started (tests). */
  synchronized boolean delivered() {
    return deliverer != null;
  }

  /** Lets the delivery thread finish what is queued, then end. */
  synchronized void stop() {
    if (deliverer != null) {
      deliveries.add(STOP);
    }
  }
}
