package org.jdvm.cli;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.OutputHandler;
import org.jdvm.client.PmixException;
import org.jdvm.pmix.json.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The state views {@code jdvm nodes}, {@code jdvm allocs} and {@code jdvm jobs} (docs/cli.md): the
 * server's JSON listing printed as it is with {@code --json}, or as a table whose columns each view
 * declares.
 */
final class ListCommands {
  private ListCommands() {}

  /** How a view asks the DVM for its listing. */
  @FunctionalInterface
  interface Fetch {
    String from(JdvmClient client) throws PmixException;
  }

  /** A column of a table: its header, and the cell of a row (a missing value prints as "-"). */
  record Column(String header, Function<Map<String, Object>, Object> cell) {
    /** A field of the row as it is. */
    static Column field(String header, String key) {
      return new Column(header, r -> r.get(key));
    }

    /** A boolean field as yes or no. */
    static Column yesNo(String header, String key) {
      return new Column(header, r -> Boolean.TRUE.equals(r.get(key)) ? "yes" : "no");
    }

    /** A list field comma-separated, "-" when empty. */
    static Column list(String header, String key) {
      return new Column(
          header,
          r ->
              r.get(key) instanceof List<?> l
                  ? (l.isEmpty() ? "-" : String.join(",", l.stream().map(String::valueOf).toList()))
                  : String.valueOf(r.get(key)));
    }

    /** {@code lastHeartbeat} as its age ("0.4s ago"), "-" for a node without heartbeats. */
    static Column heartbeat() {
      return new Column(
          "HEARTBEAT",
          r -> {
            if (!(r.get("lastHeartbeat") instanceof String at)) {
              return "-";
            }
            try {
              long ms =
                  java.time.Duration.between(java.time.Instant.parse(at), java.time.Instant.now())
                      .toMillis();
              return String.format(java.util.Locale.ROOT, "%.1fs ago", Math.max(0, ms) / 1000.0);
            } catch (java.time.format.DateTimeParseException e) {
              return at;
            }
          });
    }

    /** The {@code allocId} field, where none means the default session. */
    static Column allocation() {
      return new Column("ALLOCATION", r -> r.get("allocId") == null ? "default" : r.get("allocId"));
    }
  }

  abstract static class Listing extends DvmCommand implements Callable<Integer> {
    @Option(names = "--json", description = "Print the JSON array documented in docs/cli.md.")
    boolean json;

    private final Fetch fetch;
    private final List<Column> columns;

    Listing(Fetch fetch, Column... columns) {
      this.fetch = fetch;
      this.columns = List.of(columns);
    }

    @Override
    public Integer call() {
      return connected(OutputHandler.DISCARD, json, this::show);
    }

    private int show(JdvmClient client) throws PmixException {
      String text = fetch(client);
      if (json) {
        out.println(text);
        return Main.EXIT_OK;
      }
      @SuppressWarnings("unchecked")
      List<Map<String, Object>> rows = prepare((List<Map<String, Object>>) Json.parse(text));
      print(rows);
      return Main.EXIT_OK;
    }

    /** The listing's JSON: what {@code --json} prints, and what the table is made of. */
    String fetch(JdvmClient client) throws PmixException {
      return fetch.from(client);
    }

    /** The table of {@code rows}, one line each. */
    void print(List<Map<String, Object>> rows) {
      Table t = new Table(columns.stream().map(Column::header).toArray(String[]::new));
      for (Map<String, Object> r : rows) {
        t.row(columns.stream().map(c -> c.cell().apply(r)).toArray());
      }
      t.print(out);
    }

    /** The rows as the table shows them; a view may add what only the whole listing tells. */
    List<Map<String, Object>> prepare(List<Map<String, Object>> rows) {
      return rows;
    }
  }

  @Command(description = "The DVM's nodes and where they belong.", mixinStandardHelpOptions = true)
  static final class Nodes extends Listing {
    Nodes() {
      super(
          JdvmClient::nodesJson,
          Column.field("NODE", "name"),
          Column.field("SLOTS", "slots"),
          Column.field("IN USE", "slotsInUse"),
          Column.allocation(),
          Column.yesNo("RESERVED", "reserved"),
          Column.field("ORIGIN", "origin"),
          Column.field("HOST", "host"),
          Column.field("AGENT", "agent"),
          Column.heartbeat());
    }
  }

  @Command(description = "The DVM's allocations.", mixinStandardHelpOptions = true)
  static final class Allocs extends Listing {
    Allocs() {
      super(
          JdvmClient::allocsJson,
          Column.field("ALLOCATION", "allocId"),
          Column.field("REQUEST", "reqId"),
          Column.field("SESSION", "sessionId"),
          Column.field("OWNER", "owner"),
          Column.field("INHERIT", "inheritance"),
          Column.yesNo("RESERVED", "reserved"),
          Column.list("NODES", "nodes"),
          Column.field("STATE", "state"),
          Column.list("OWNERS", "owners"));
    }
  }

  @Command(description = "The DVM's jobs and their processes.", mixinStandardHelpOptions = true)
  static final class Jobs extends Listing {
    Jobs() {
      super(
          JdvmClient::jobsJson,
          Column.field("NAMESPACE", "nspace"),
          Column.field("KIND", "kind"),
          Column.field("STATE", "state"),
          new Column(
              "PARENT",
              r ->
                  r.get("parent") == null
                      ? null
                      : r.get("parent") + (Boolean.TRUE.equals(r.get(GONE)) ? " (gone)" : "")),
          Column.allocation(),
          new Column("PROCS", JobsOptions::procsCell),
          new Column("USAGE", r -> usage(r.get("usage"))));
    }

    @picocli.CommandLine.Mixin JobsOptions options = new JobsOptions();

    @Override
    public Integer call() {
      if (options.limit < 1) {
        err.println("jdvm jobs: --limit takes a number of processes of at least 1");
        return Main.EXIT_USAGE;
      }
      return super.call();
    }

    /**
     * The summary ({@code jdvm.qry.jobsum}) for the table, whose size does not grow with the
     * processes; every process for {@code --json} and {@code --procs}.
     */
    @Override
    String fetch(JdvmClient client) throws PmixException {
      return json || options.procs ? client.jobsJson() : client.jobsSummaryJson();
    }

    @Override
    void print(List<Map<String, Object>> rows) {
      if (options.procs) {
        options.printProcs(rows, out);
      } else {
        super.print(rows);
      }
    }

    /**
     * The job's total CPU time (user + system) and its largest process's peak memory, e.g. {@code
     * cpu 0.31s rss 3.2MiB} ({@code rss -}: not known); "-" before any of its processes ended.
     */
    static String usage(Object usage) {
      if (!(usage instanceof Map<?, ?> u)) {
        return "-";
      }
      double cpu = (number(u.get("userCpuMicros")) + number(u.get("systemCpuMicros"))) / 1e6;
      String rss =
          u.get("maxRssKiB") instanceof Number n
              ? String.format(java.util.Locale.ROOT, "%.1fMiB", n.longValue() / 1024.0)
              : "-";
      return String.format(java.util.Locale.ROOT, "cpu %.2fs rss %s", cpu, rss);
    }

    private static long number(Object o) {
      return o instanceof Number n ? n.longValue() : 0;
    }

    /**
     * A job still running whose parent has terminated, e.g. the job of a {@code jdvm run} that was
     * killed with SIGKILL (docs/spec/decisions.md #11), shows its parent as {@code NSPACE (gone)}.
     */
    private static final String GONE = "parentGone";
  }
}
