package org.jdvm.endpoint.pmi;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;

/**
 * One connection's side of the simple PMI-1 wire protocol (docs/protocol.md "Simple PMI"), as
 * MPICH's simple PMI client speaks it: a line in, its reply lines out. The client waits for each
 * reply before it writes again, and the server reads the next line only after replying, so a
 * connection has at most one request in flight (the bound on pending gets and barriers).
 *
 * <p>Until {@code cmd=initack pmiid=N} proved who the peer is, nothing else is served. A malformed
 * line, an unknown command or a bad argument is answered {@code rc=-1 msg=...} and changes nothing;
 * the connection stays open.
 */
final class PmiEngine {
  /** The longest job name a rank is told to expect. */
  static final int KVSNAME_MAX = 256;

  /** The longest key a rank may put. */
  static final int KEYLEN_MAX = 64;

  /**
   * The longest value: what fits a {@code put} line of {@link PmiLine#MAX_LINE} bytes beside the
   * longest name and key (MPICH's client computes the same and lowers a larger one).
   */
  static final int VALLEN_MAX = PmiLine.MAX_LINE - KVSNAME_MAX - KEYLEN_MAX - 30;

  /** The key every rank finds preloaded: where the job's ranks are. */
  static final String PROCESS_MAPPING = "PMI_process_mapping";

  /** The replies to one line, and whether the connection ends after them. */
  record Reply(List<String> lines, boolean close) {
    static Reply of(String line) {
      return new Reply(List.of(line), false);
    }

    static CompletableFuture<Reply> now(String line) {
      return CompletableFuture.completedFuture(of(line));
    }
  }

  private final PmiBackend backend;
  private final IntFunction<Optional<Proc>> identify;
  private volatile Proc self;
  private PmiBackend.Facts facts;

  /**
   * @param identify the launched process holding this connection that claims a {@code pmiid},
   *     proved by the kernel; empty when it proved nothing. Blocks (bounded).
   */
  PmiEngine(PmiBackend backend, IntFunction<Optional<Proc>> identify) {
    this.backend = backend;
    this.identify = identify;
  }

  /** Who the peer proved to be, or {@code null} before {@code initack}. */
  Proc self() {
    return self;
  }

  /** The most lines one {@code mcmd=spawn} block may have before the connection is ended. */
  static final int MAX_SPAWN_LINES = 4096;

  /** Lines read of the {@code mcmd=spawn} block being skipped; -1 outside one. */
  private int spawnLines = -1;

  private boolean lastSpawnSegment;

  private String totSpawns = "";

  /** Answers one line (without its newline). */
  CompletableFuture<Reply> handle(String line) {
    if (spawnLines >= 0 || line.equals("mcmd=spawn")) {
      return CompletableFuture.completedFuture(spawnLine(line));
    }
    Map<String, String> in;
    try {
      in = PmiLine.parse(line);
    } catch (PmiLine.Malformed e) {
      return Reply.now(PmiLine.error("error", e.getMessage()));
    }
    String cmd = in.get("cmd");
    if (cmd.equals("initack")) {
      return CompletableFuture.completedFuture(initack(in));
    }
    if (cmd.equals("init") && !"1".equals(in.get("pmi_version"))) {
      // MPICH's PMI-2 client says hello this way first, without an initack: refuse it clearly
      return CompletableFuture.completedFuture(new Reply(List.of(init(in)), true));
    }
    if (self == null) {
      String answer = cmd.equals("init") ? "response_to_init" : cmd;
      return Reply.now(
          PmiLine.error(answer, "not identified: send cmd=initack pmiid=<PMI_ID> first"));
    }
    return switch (cmd) {
      case "init" -> Reply.now(init(in));
      case "get_maxes" ->
          Reply.now(
              PmiLine.reply(
                  "maxes",
                  0,
                  "kvsname_max",
                  Integer.toString(KVSNAME_MAX),
                  "keylen_max",
                  Integer.toString(KEYLEN_MAX),
                  "vallen_max",
                  Integer.toString(VALLEN_MAX)));
      case "get_appnum" -> Reply.now(PmiLine.reply("appnum", 0, "appnum", "" + facts.appnum()));
      case "get_my_kvsname" -> Reply.now(PmiLine.reply("my_kvsname", 0, "kvsname", self.nspace()));
      case "get_universe_size" ->
          Reply.now(PmiLine.reply("universe_size", 0, "size", "" + facts.universe()));
      case "put" -> Reply.now(put(in));
      case "get" -> get(in);
      case "barrier_in" ->
          backend
              .barrier(self)
              .thenApply(
                  s ->
                      Reply.of(
                          s == PmixStatus.SUCCESS
                              ? PmiLine.reply("barrier_out", 0)
                              : PmiLine.error("barrier_out", "barrier failed, PMIx status " + s)));
      case "finalize" ->
          CompletableFuture.completedFuture(
              new Reply(List.of(PmiLine.reply("finalize_ack", 0)), true));
      case "abort" -> CompletableFuture.completedFuture(abort(in));
      default -> Reply.now(PmiLine.error(cmd, "command not served: " + cmd));
    };
  }

  /**
   * A line of an {@code mcmd=spawn} block ({@code MPI_Comm_spawn}): one block per app, each {@code
   * key=value} on its own line and closed by {@code endcmd}; the client reads one answer after the
   * last app's block ({@code spawnssofar} equal to {@code totspawns}). Spawning is not served yet:
   * the blocks are read to their end, so the connection stays in step, and answered {@code
   * cmd=spawn_result rc=-1} once.
   */
  private Reply spawnLine(String line) {
    if (spawnLines < 0) {
      spawnLines = 0;
      lastSpawnSegment = false;
      return new Reply(List.of(), false);
    }
    if (++spawnLines > MAX_SPAWN_LINES) {
      return new Reply(
          List.of(
              PmiLine.error("spawn_result", "a spawn of more than " + MAX_SPAWN_LINES + " lines")),
          true);
    }
    if (line.startsWith("spawnssofar=") || line.startsWith("totspawns=")) {
      String so = line.startsWith("spawnssofar=") ? line.substring(12) : null;
      if (so != null) {
        lastSpawnSegment = so.equals(totSpawns);
      } else {
        totSpawns = line.substring(10);
      }
    }
    if (!line.equals("endcmd")) {
      return new Reply(List.of(), false);
    }
    spawnLines = -1;
    if (!lastSpawnSegment) {
      return new Reply(List.of(), false);
    }
    return Reply.of(
        PmiLine.error("spawn_result", "MPI_Comm_spawn is not served over simple PMI yet"));
  }

  /** {@code cmd=initack pmiid=N}: size, rank and debug follow, as MPICH's client reads them. */
  private Reply initack(Map<String, String> in) {
    if (self != null) {
      return Reply.of(PmiLine.error("initack", "already identified as " + self));
    }
    Integer id = number(in.get("pmiid"));
    Optional<Proc> proc = id == null ? Optional.empty() : identify.apply(id);
    Optional<PmiBackend.Facts> f =
        proc.isEmpty() ? Optional.empty() : backend.facts(proc.get()).join();
    if (f.isEmpty()) {
      return new Reply(
          List.of(PmiLine.error("initack", "pmiid not proved by the process holding the socket")),
          true);
    }
    self = proc.get();
    facts = f.get();
    return new Reply(
        List.of(
            PmiLine.reply("initack", 0),
            "cmd=set size=" + facts.size() + "\n",
            "cmd=set rank=" + self.rank() + "\n",
            "cmd=set debug=0\n"),
        false);
  }

  /** {@code cmd=init pmi_version=1 pmi_subversion=1}: only PMI-1 is served. */
  private static String init(Map<String, String> in) {
    if (!"1".equals(in.get("pmi_version"))) {
      return PmiLine.reply(
          "response_to_init",
          -1,
          "pmi_version",
          "1",
          "pmi_subversion",
          "1",
          "msg",
          "only_PMI-1_is_served_here");
    }
    return PmiLine.reply("response_to_init", 0, "pmi_version", "1", "pmi_subversion", "1");
  }

  private String put(Map<String, String> in) {
    String kvs = in.get("kvsname");
    String key = in.get("key");
    String value = in.get("value");
    if (kvs == null || key == null || value == null) {
      return PmiLine.error("put_result", "put needs kvsname, key and value");
    }
    String bad = checkKvs(kvs);
    if (bad == null && (key.isEmpty() || key.length() > KEYLEN_MAX)) {
      bad = "a key is 1 to " + KEYLEN_MAX + " bytes";
    } else if (bad == null && value.length() > VALLEN_MAX) {
      bad = "a value is at most " + VALLEN_MAX + " bytes";
    } else if (bad == null && key.startsWith("PMI_")) {
      bad = "keys starting PMI_ are the server's";
    }
    if (bad == null) {
      bad = backend.put(self, key, value);
    }
    return bad == null ? PmiLine.reply("put_result", 0) : PmiLine.error("put_result", bad);
  }

  private CompletableFuture<Reply> get(Map<String, String> in) {
    String kvs = in.get("kvsname");
    String key = in.get("key");
    if (kvs == null || key == null) {
      return Reply.now(PmiLine.error("get_result", "get needs kvsname and key"));
    }
    String bad = checkKvs(kvs);
    if (bad != null) {
      return Reply.now(PmiLine.error("get_result", bad));
    }
    if (key.equals(PROCESS_MAPPING)) {
      return Reply.now(PmiLine.reply("get_result", 0, "value", facts.mapping()));
    }
    return backend
        .get(self, key)
        .thenApply(
            g ->
                Reply.of(
                    g.value() != null
                        ? PmiLine.reply("get_result", 0, "value", g.value())
                        : PmiLine.error("get_result", g.refusal())));
  }

  private String checkKvs(String kvs) {
    return kvs.equals(self.nspace()) ? null : "no such kvsname for " + self + ": " + kvs;
  }

  /**
   * {@code cmd=abort exitcode=N}: the job ends with N. Nothing is answered and the connection stays
   * open: MPICH's client waits for an answer that Hydra never sends either, until the job's end
   * kills it; an answer or a close would let {@code PMI_Abort} return, and the rank run on past
   * {@code MPI_Abort} until it is killed.
   */
  private Reply abort(Map<String, String> in) {
    Integer code = number(in.getOrDefault("exitcode", "1"));
    if (code == null) {
      return Reply.of(PmiLine.error("abort", "exitcode is no number"));
    }
    backend.abort(self, code, in.getOrDefault("msg", ""));
    return new Reply(List.of(), false);
  }

  private static Integer number(String s) {
    if (s == null || s.isEmpty() || s.length() > 11) {
      return null;
    }
    try {
      return Integer.parseInt(s);
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
