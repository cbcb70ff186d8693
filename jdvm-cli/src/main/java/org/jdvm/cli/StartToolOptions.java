package org.jdvm.cli;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.server.home.ToolRendezvous;
import picocli.CommandLine.Option;

/**
 * {@code jdvm start}'s options for how libpmix tools find the DVM (docs/protocol.md "Tool
 * rendezvous"): by default the session rendezvous files {@code pps} and its kin search for.
 */
final class StartToolOptions {
  @Option(
      names = "--system-server",
      description =
          "Also register as this host's system PMIx server (TMPDIR/pmix.sys.HOST), as prte"
              + " --system-server does; refused when another live server holds it.")
  boolean systemServer;

  @Option(
      names = "--no-tool-rendezvous",
      description = "Write no PMIx tool rendezvous files (tools then need the URI by hand).")
  boolean none;

  ToolRendezvous.Mode mode() {
    if (systemServer && none) {
      throw new IllegalArgumentException(
          "--system-server and --no-tool-rendezvous exclude each other");
    }
    return none
        ? ToolRendezvous.Mode.NONE
        : systemServer ? ToolRendezvous.Mode.SYSTEM : ToolRendezvous.Mode.SESSION;
  }

  /** The same options for a detached DVM's command line. */
  List<String> args() {
    List<String> a = new ArrayList<>(1);
    if (systemServer) {
      a.add("--system-server");
    }
    if (none) {
      a.add("--no-tool-rendezvous");
    }
    return a;
  }
}
