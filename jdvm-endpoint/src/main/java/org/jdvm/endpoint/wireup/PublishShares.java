package org.jdvm.endpoint.wireup;

/**
 * What one job (the publishers of one namespace) may hold, beside the totals of {@link
 * PublishedData.Limits}; counted for as long as an entry of the job is held, also after it ended.
 *
 * @param jobEntries entries of one job, whatever their persistence
 * @param jobBytes the keys and packed values of one job's entries
 * @param lastingPerJob entries of one job that may outlive it (INDEF, SESSION, FIRST_READ)
 * @param lastingBytesPerJob their keys and packed values
 * @param lastingEntries such entries of all jobs together
 * @param lastingBytes their keys and packed values
 * @param jobWaiting lookups the processes of one job may have parked at once
 * @param jobWaitingKeys the keys they wait for, together
 */
public record PublishShares(
    int jobEntries,
    long jobBytes,
    int lastingPerJob,
    long lastingBytesPerJob,
    int lastingEntries,
    long lastingBytes,
    int jobWaiting,
    int jobWaitingKeys) {
  /**
   * A sixteenth of the table per job (4,096 entries, 4 MiB); of that, 256 entries and 1 MiB may
   * outlive the job; a quarter of the table (16,384 entries, 16 MiB) for what may outlive jobs, of
   * all jobs together; a quarter of the waiting lookups (1,024, 16,384 keys) per job.
   */
  public static final PublishShares DEFAULT =
      new PublishShares(4096, 4L << 20, 256, 1L << 20, 16_384, 16L << 20, 1024, 16_384);

  public PublishShares {
    if (jobEntries < 1
        || jobBytes < 1
        || lastingPerJob < 1
        || lastingBytesPerJob < 1
        || lastingEntries < 1
        || lastingBytes < 1
        || jobWaiting < 1
        || jobWaitingKeys < 1) {
      throw new IllegalArgumentException("every published-data share must be at least 1");
    }
  }
}
