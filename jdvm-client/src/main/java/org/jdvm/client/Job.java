package org.jdvm.client;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * A job this client spawned: its namespace, and its end once the DVM reports it. The end is
 * reported after every chunk of the job's forwarded output was handed to the output handler.
 *
 * <pre>{@code
 * Job job = client.spawn(SpawnRequest.of("/bin/hostname").procs(2).build());
 * JobEnd end = job.awaitEnd();
 * System.exit(end.exitCode());
 * }</pre>
 */
public final class Job {
  private final String nspace;

  /**
   * {@link #end()}'s future, made at its first call (guarded by this): a job whose end no one asked
   * for needs no hand-off to the delivery thread to complete it.
   */
  private CompletableFuture<JobEnd> end;

  /** The end, or why it will never come, once known (guarded by this). */
  private JobEnd result;

  private PmixException failure;

  /**
   * What {@link #awaitEnd} waits for: completed with {@link #end}, or earlier, on the reading
   * thread, when the end arrives with no earlier delivery pending ({@link #reached}). It has no
   * dependent stages of the user's, so completing it on the reading thread runs nothing there.
   */
  private final CompletableFuture<JobEnd> reached = new CompletableFuture<>();

  Job(String nspace) {
    this.nspace = nspace;
  }

  /** The job's namespace, e.g. {@code jdvm-4711@3}. */
  public String nspace() {
    return nspace;
  }

  /**
   * Completes with the job's end; fails with a {@link PmixException} if the connection is lost
   * first. Dependent stages run on the client's delivery thread: do not block in them.
   */
  public synchronized CompletableFuture<JobEnd> end() {
    if (end == null) {
      end = new CompletableFuture<>();
      if (result != null) {
        end.complete(result);
      } else if (failure != null) {
        end.completeExceptionally(failure);
      }
    }
    return end;
  }

  /**
   * Waits for the job's end. The DVM reports it because the spawn asked for completion notice
   * ({@link SpawnRequest.Builder#notifyCompletion}, on by default); without it, this waits until
   * the connection is lost.
   */
  public JobEnd awaitEnd() throws PmixException {
    try {
      return reached.get();
    } catch (ExecutionException e) {
      throw JdvmClient.unwrap(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PmixException(org.jdvm.pmix.PmixStatus.ERR_TIMEOUT, "interrupted");
    }
  }

  /** The end, on the delivery thread: {@link #end()}'s stages run there. */
  void ended(JobEnd e) {
    CompletableFuture<JobEnd> f;
    synchronized (this) {
      result = e;
      f = end;
    }
    if (f != null) {
      f.complete(e);
    }
    reached.complete(e);
  }

  /**
   * The end arrived and every earlier output was handed over already: a thread waiting in {@link
   * #awaitEnd} goes on now, without waiting for the delivery thread. Returns whether {@link #end()}
   * was asked for, and so still needs {@link #ended} on the delivery thread; if not, a later call
   * finds the end known.
   */
  boolean reached(JobEnd e) {
    boolean asked;
    synchronized (this) {
      result = e;
      asked = end != null;
    }
    reached.complete(e);
    return asked;
  }

  void lost(PmixException why) {
    CompletableFuture<JobEnd> f;
    synchronized (this) {
      if (result == null) {
        failure = why;
      }
      f = end;
    }
    if (f != null) {
      f.completeExceptionally(why);
    }
    reached.completeExceptionally(why);
  }

  @Override
  public String toString() {
    return "Job[" + nspace + "]";
  }
}
