package org.jdvm.cli;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.OutputHandler;
import org.jdvm.client.PmixException;
import org.jdvm.pmix.json.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The state views {@code jdvm nodes}, {@code jdvm allocs} and {@code jdvm jobs} (docs/cli.md): the
 * server's JSON listing printed as it is with {@code --json}, or as a table.
 */
final class ListCommands {
  private ListCommands() {}

  abstract static class Listing implements Callable<Integer> {
    @Mixin DvmOptions dvm = new DvmOptions();

    @Option(names = "--json", description = "Print the JSON array documented in docs/cli.md.")
    boolean json;

    PrintStream out = System.out;
    PrintStream err = System.err;

    abstract String fetch(JdvmClient client) throws PmixException;

    abstract void table(List<Map<String, Object>> rows);

    @Override
    public Integer call() {
      return dvm.run(OutputHandler.DISCARD, json, out, err, this::show);
    }

    private int show(JdvmClient client) throws PmixException {
      String text = fetch(client);
      if (json) {
        out.println(text);
      } else {
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> rows = (List<Map<String, Object>>) Json.parse(text);
        table(rows);
      }
      return Main.EXIT_OK;
    }

    static String list(Object v) {
      return v instanceof List<?> l
          ? (l.isEmpty() ? "-" : String.join(",", l.stream().map(String::valueOf).toList()))
          : String.valueOf(v);
    }
  }

  @Command(description = "The DVM's nodes and where they belong.", mixinStandardHelpOptions = true)
  static final class Nodes extends Listing {
    @Override
    String fetch(JdvmClient c) throws PmixException {
      return c.nodesJson();
    }

    @Override
    void table(List<Map<String, Object>> rows) {
      Table t = new Table("NODE", "SLOTS", "IN USE", "ALLOCATION", "RESERVED", "ORIGIN");
      for (Map<String, Object> r : rows) {
        t.row(
            r.get("name"),
            r.get("slots"),
            r.get("slotsInUse"),
            r.get("allocId") == null ? "default" : r.get("allocId"),
            Boolean.TRUE.equals(r.get("reserved")) ? "yes" : "no",
            r.get("origin"));
      }
      t.print(out);
    }
  }

  @Command(description = "The DVM's allocations.", mixinStandardHelpOptions = true)
  static final class Allocs extends Listing {
    @Override
    String fetch(JdvmClient c) throws PmixException {
      return c.allocsJson();
    }

    @Override
    void table(List<Map<String, Object>> rows) {
      Table t =
          new Table(
              "ALLOCATION",
              "REQUEST",
              "SESSION",
              "OWNER",
              "INHERIT",
              "RESERVED",
              "NODES",
              "STATE",
              "OWNERS");
      for (Map<String, Object> r : rows) {
        t.row(
            r.get("allocId"),
            r.get("reqId"),
            r.get("sessionId"),
            r.get("owner"),
            r.get("inheritance"),
            Boolean.TRUE.equals(r.get("reserved")) ? "yes" : "no",
            list(r.get("nodes")),
            r.get("state"),
            list(r.get("owners")));
      }
      t.print(out);
    }
  }

  @Command(description = "The DVM's jobs and their processes.", mixinStandardHelpOptions = true)
  static final class Jobs extends Listing {
    @Override
    String fetch(JdvmClient c) throws PmixException {
      return c.jobsJson();
    }

    @Override
    void table(List<Map<String, Object>> rows) {
      Table t = new Table("NAMESPACE", "KIND", "STATE", "PARENT", "ALLOCATION", "PROCS");
      for (Map<String, Object> r : rows) {
        Object procs = r.get("procs");
        t.row(
            r.get("nspace"),
            r.get("kind"),
            r.get("state"),
            r.get("parent"),
            r.get("allocId") == null ? "default" : r.get("allocId"),
            summary(procs));
      }
      t.print(out);
    }

    /** e.g. {@code 0@node4:4711,1@node5:4712}. */
    @SuppressWarnings("unchecked")
    private static String summary(Object procs) {
      if (!(procs instanceof List<?> list) || list.isEmpty()) {
        return "-";
      }
      StringBuilder sb = new StringBuilder();
      for (Object o : list) {
        Map<String, Object> p = (Map<String, Object>) o;
        if (!sb.isEmpty()) {
          sb.append(',');
        }
        sb.append(p.get("rank")).append('@').append(p.get("node"));
        Object exit = p.get("exitStatus");
        if (exit != null) {
          sb.append(" exit ").append(exit);
        }
      }
      return sb.toString();
    }
  }
}
