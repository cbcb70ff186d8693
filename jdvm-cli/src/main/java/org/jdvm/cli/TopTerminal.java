package org.jdvm.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The terminal of {@code jdvm top}: raw mode through {@code /bin/stty} (no terminal library), the
 * alternate screen and a hidden cursor through ANSI escapes, and all of it undone by {@link #close}
 * (also from a shutdown hook, so a SIGTERM leaves the terminal as it found it).
 */
final class TopTerminal implements AutoCloseable {
  private static final String STTY = "/bin/stty";
  private static final String ESC = "\u001b[";

  private final PrintStream out;
  private final String saved;
  private final Thread hook = new Thread(this::restore, "jdvm-top-restore");
  private boolean restored;

  private TopTerminal(PrintStream out, String saved) {
    this.out = out;
    this.saved = saved;
  }

  /** Saves the terminal's settings, then enters raw mode and the alternate screen. */
  static TopTerminal open(PrintStream out) throws IOException {
    String saved = stty("-g").strip();
    stty("raw", "-echo");
    TopTerminal t = new TopTerminal(out, saved);
    Runtime.getRuntime().addShutdownHook(t.hook);
    out.print(ESC + "?1049h" + ESC + "?25l");
    out.flush();
    return t;
  }

  /** The terminal's size as {rows, columns}, or {@code null} when {@code stty} cannot tell. */
  static int[] size() {
    try {
      String[] rc = stty("size").strip().split("\\s+");
      int rows = Integer.parseInt(rc[0]);
      int cols = Integer.parseInt(rc[1]);
      return rows > 0 && cols > 0 ? new int[] {rows, cols} : null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** Draws the lines from the top left, clearing what each line and the screen's rest held. */
  void draw(List<String> lines) {
    StringBuilder s = new StringBuilder(ESC + "H");
    for (int i = 0; i < lines.size(); i++) {
      s.append(lines.get(i)).append(ESC).append('K');
      if (i + 1 < lines.size()) {
        s.append("\r\n");
      }
    }
    s.append(ESC).append('J');
    out.print(s);
    out.flush();
  }

  @Override
  public void close() {
    restore();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // the hook runs, or has run, restore itself
    }
  }

  private synchronized void restore() {
    if (restored) {
      return;
    }
    restored = true;
    out.print(ESC + "?25h" + ESC + "?1049l");
    out.flush();
    try {
      stty(saved);
    } catch (IOException e) {
      out.println("jdvm top: could not restore the terminal (stty " + saved + "): " + e);
    }
  }

  /** Runs {@code stty -F /dev/tty ARGS} and returns what it prints. */
  private static String stty(String... args) throws IOException {
    List<String> cmd = new java.util.ArrayList<>(List.of(STTY, "-F", "/dev/tty"));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    try {
      String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (p.waitFor() != 0) {
        throw new IOException("stty " + String.join(" ", args) + " failed: " + text.strip());
      }
      return text;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while running stty", e);
    }
  }
}
