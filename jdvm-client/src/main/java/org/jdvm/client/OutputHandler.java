package org.jdvm.client;

import org.jdvm.pmix.Proc;

/**
 * Receives the output of jobs the client spawned with forwarding (tag 2, pmix-interop-notes.md §3),
 * chunk by chunk, in the order each process wrote it, before the job's end is reported. Runs on the
 * client's delivery thread.
 */
@FunctionalInterface
public interface OutputHandler {
  /**
   * @param source the process that wrote it
   * @param stderr whether it came from standard error (else standard output)
   * @param bytes the chunk; the handler's to keep
   */
  void output(Proc source, boolean stderr, byte[] bytes);

  /** Writes each chunk to this process's own stdout or stderr, as libpmix does: the default. */
  OutputHandler STDIO =
      (source, stderr, bytes) -> {
        var out = stderr ? System.err : System.out;
        out.write(bytes, 0, bytes.length);
        out.flush();
      };

  /** Drops everything. */
  OutputHandler DISCARD = (source, stderr, bytes) -> {};
}
