package org.jdvm.endpoint.deliver;

/**
 * What a spawn asked of its job's output beyond where it goes (docs/cli.md "Output").
 *
 * @param files the files the controller writes it to, or {@code null}
 * @param raw {@code PMIX_IOF_OUTPUT_RAW}: forwarded as read, not cut at newlines ({@link
 *     LineCutter})
 * @param formatted the requester's library formats each line (a tag, a time stamp, a label): none
 *     of the job's output reaches it before the spawn's answer, which tells the library the
 *     namespace it formats by ({@link OutcomeWatcher#spawnReplied})
 */
public record JobOutput(OutputFiles.Spec files, boolean raw, boolean formatted) {
  /** Nothing asked: cut at newlines, no files. */
  public static final JobOutput PLAIN = new JobOutput(null, false, false);
}
