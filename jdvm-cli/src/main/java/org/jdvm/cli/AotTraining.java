package org.jdvm.cli;

/**
 * The workload the launcher trains the JVM's ahead-of-time cache on after each build (JDK 25's AOT
 * cache, or a CDS archive on older JDKs): the commands people run most, against a scratch DVM.
 * Whatever classes these load and link are ready at the next start, which is what gets a fresh
 * {@code jdvm run -n 1 /bin/true} under 100 ms. Not a user command, so not a {@link Subcommand}:
 * {@link Main} runs it for the arguments {@code __aot-train CONTACT}, which scripts/lib.sh passes.
 */
final class AotTraining {
  /** The argument that selects the training. */
  static final String COMMAND = "__aot-train";

  private AotTraining() {}

  static int run(String contact) {
    // jdvm run forwards its stdin to rank 0: the training's runs must not read the launcher's.
    java.io.InputStream saved = System.in;
    System.setIn(java.io.InputStream.nullInputStream());
    try {
      int status = 0;
      for (int i = 0; i < 3; i++) {
        status |= Main.run("run", "--dvm", contact, "-n", "1", "/bin/true");
      }
      status |= Main.run("nodes", "--dvm", contact);
      status |= Main.run("jobs", "--dvm", contact, "--json");
      status |= Main.run("alloc", "new", "--dvm", contact, "--nodes", "1", "--json");
      return status == 0 ? Main.EXIT_OK : Main.EXIT_FAILURE;
    } finally {
      System.setIn(saved);
    }
  }
}
