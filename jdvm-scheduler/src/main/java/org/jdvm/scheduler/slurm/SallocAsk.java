package org.jdvm.scheduler.slurm;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import org.jdvm.scheduler.Ask;

/**
 * An ask whose {@code salloc --no-shell} is running: salloc tells, on stderr, that the request is
 * pending (with its job id) and later that it is granted, then exits. The fields are the port's,
 * touched only on its thread; {@link #read} runs on a thread of its own.
 */
final class SallocAsk {
  /** The most lines of salloc's stderr read, and the longest line kept. */
  private static final int MAX_LINES = 1000;

  private static final int MAX_LINE = 500;

  final Ask ask;
  final Process salloc;
  String jobId;
  String lastError;
  boolean queued;
  boolean never;
  boolean cancelled;
  boolean answered;

  SallocAsk(Ask ask, Process salloc) {
    this.ask = ask;
    this.salloc = salloc;
  }

  /** Hands each line of salloc's stderr to {@code line}, bounded, then its exit status. */
  void read(Consumer<String> line, IntConsumer exit) {
    try (BufferedReader r =
        new BufferedReader(
            new InputStreamReader(salloc.getErrorStream(), StandardCharsets.UTF_8))) {
      String l;
      int lines = 0;
      while ((l = r.readLine()) != null && lines++ < MAX_LINES) {
        line.accept(l.length() > MAX_LINE ? l.substring(0, MAX_LINE) : l);
      }
    } catch (IOException e) {
      // salloc ended or was ended
    }
    int status;
    try {
      salloc.getInputStream().close();
      status = salloc.waitFor();
    } catch (InterruptedException | IOException e) {
      status = -1;
    }
    exit.accept(status);
  }
}
