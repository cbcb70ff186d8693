package org.jdvm.endpoint.wireup;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.jdvm.endpoint.wireup.PublishedData.PublishRefusal;
import org.jdvm.pmix.Persistence;

/**
 * Each job's part of the published data (docs/wireup.md "What one job may hold"): its entries and
 * bytes, the part of them that may outlive it ({@link #lasting}), and its waiting lookups; and the
 * lasting entries of all jobs together. Counted by the publishing process's namespace, also after
 * its job ended, for as long as an entry of it is held. Guarded by the {@link PublishedData} that
 * owns it.
 */
final class JobShares {
  /** What one job holds now. */
  private static final class Use {
    int entries;
    long bytes;
    int lasting;
    long lastingBytes;
    int waiting;
    int waitingKeys;

    boolean empty() {
      return entries == 0 && waiting == 0;
    }
  }

  private final PublishShares shares;
  private final Map<String, Use> byJob = new HashMap<>();
  private int lasting;
  private long lastingBytes;

  JobShares(PublishShares shares) {
    this.shares = shares;
  }

  /**
   * Whether an entry of this persistence may outlive its job: INDEF, SESSION, and FIRST_READ (until
   * read). PROC and APP entries go with their job.
   */
  static boolean lasting(Persistence p) {
    return p == Persistence.INDEF || p == Persistence.SESSION || p == Persistence.FIRST_READ;
  }

  /** Whether {@code job} may publish {@code n} more entries of {@code bytes} in all. */
  Optional<PublishRefusal> check(String job, int n, long bytes, Persistence p) {
    Use u = byJob.get(job);
    int entries = u == null ? 0 : u.entries;
    long held = u == null ? 0 : u.bytes;
    if (entries + n > shares.jobEntries() || held + bytes > shares.jobBytes()) {
      return Optional.of(PublishRefusal.JOB_FULL);
    }
    if (!lasting(p)) {
      return Optional.empty();
    }
    int jobLasting = u == null ? 0 : u.lasting;
    long jobLastingBytes = u == null ? 0 : u.lastingBytes;
    if (jobLasting + n > shares.lastingPerJob()
        || jobLastingBytes + bytes > shares.lastingBytesPerJob()) {
      return Optional.of(PublishRefusal.JOB_LASTING_FULL);
    }
    if (lasting + n > shares.lastingEntries() || lastingBytes + bytes > shares.lastingBytes()) {
      return Optional.of(PublishRefusal.LASTING_FULL);
    }
    return Optional.empty();
  }

  void added(String job, long bytes, Persistence p) {
    Use u = byJob.computeIfAbsent(job, j -> new Use());
    u.entries++;
    u.bytes += bytes;
    if (lasting(p)) {
      u.lasting++;
      u.lastingBytes += bytes;
      lasting++;
      lastingBytes += bytes;
    }
  }

  void removed(String job, long bytes, Persistence p) {
    Use u = byJob.get(job);
    if (u == null) {
      throw new IllegalStateException("no entry of " + job + " is held");
    }
    u.entries--;
    u.bytes -= bytes;
    if (lasting(p)) {
      u.lasting--;
      u.lastingBytes -= bytes;
      lasting--;
      lastingBytes -= bytes;
    }
    forgetIfEmpty(job, u);
  }

  /** Whether {@code job} may park one more lookup of {@code keys} keys. */
  boolean mayWait(String job, int keys) {
    Use u = byJob.get(job);
    int waiting = u == null ? 0 : u.waiting;
    int waitingKeys = u == null ? 0 : u.waitingKeys;
    return waiting < shares.jobWaiting() && waitingKeys + keys <= shares.jobWaitingKeys();
  }

  void parked(String job, int keys) {
    Use u = byJob.computeIfAbsent(job, j -> new Use());
    u.waiting++;
    u.waitingKeys += keys;
  }

  void unparked(String job, int keys) {
    Use u = byJob.get(job);
    if (u == null) {
      throw new IllegalStateException("no lookup of " + job + " is parked");
    }
    u.waiting--;
    u.waitingKeys -= keys;
    forgetIfEmpty(job, u);
  }

  private void forgetIfEmpty(String job, Use u) {
    if (u.empty()) {
      byJob.remove(job);
    }
  }

  /** The entries {@code job} holds (0 if none). */
  int entriesOf(String job) {
    Use u = byJob.get(job);
    return u == null ? 0 : u.entries;
  }

  /** The entries of every job that may outlive it. */
  int lastingEntries() {
    return lasting;
  }

  /** A refusal in words, with the bound it met: what the DVM's log says of it. */
  static String explain(PublishedData.Limits limits, PublishRefusal why) {
    PublishShares s = limits.shares();
    return switch (why) {
      case JOB_FULL ->
          "the job holds its share of the published data ("
              + s.jobEntries()
              + " entries, "
              + s.jobBytes()
              + " bytes)";
      case JOB_LASTING_FULL ->
          "the job holds its share of published data that outlives it (INDEF, SESSION, FIRST_READ: "
              + s.lastingPerJob()
              + " entries, "
              + s.lastingBytesPerJob()
              + " bytes)";
      case LASTING_FULL ->
          "the published data that outlives its jobs is at its bound ("
              + s.lastingEntries()
              + " entries, "
              + s.lastingBytes()
              + " bytes)";
      case PUBLISHER_FULL ->
          "the process holds its " + limits.keysPerPublisher() + " published entries";
      case STORE_FULL ->
          "the published data is at its bound ("
              + limits.entries()
              + " entries, "
              + limits.storeBytes()
              + " bytes)";
      case VALUE_TOO_LARGE -> "a value is larger than " + limits.valueBytes() + " bytes";
      default -> why.name();
    };
  }
}
