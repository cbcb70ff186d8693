package org.jdvm.cli;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Runs the CLI in-process with its standard output and error captured, and an empty standard input
 * (so {@code jdvm run}, which forwards its stdin to rank 0, never reads the test JVM's).
 */
public record CliRun(int status, String out, String err) {
  public static synchronized CliRun of(String... args) {
    PrintStream savedOut = System.out;
    PrintStream savedErr = System.err;
    InputStream savedIn = System.in;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      System.setIn(InputStream.nullInputStream());
      int status = Main.run(args);
      return new CliRun(
          status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(savedOut);
      System.setErr(savedErr);
      System.setIn(savedIn);
    }
  }
}
