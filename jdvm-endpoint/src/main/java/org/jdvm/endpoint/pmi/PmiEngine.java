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

  /** The longest value over PMI-2 ({@code PMI2_MAX_VALLEN} of its clients). */
  static final int VALLEN_MAX_PMI2 = 1024;

  /** The key every rank finds preloaded: where the job's ranks are. */
  static final String PROCESS_MAPPING = "PMI_process_mapping";

  /** The answer to {@code get_maxes}. */
  private static final String MAXES =
      PmiLine.reply(
          "maxes",
          0,
          "kvsname_max",
          Integer.toString(KVSNAME_MAX),
          "keylen_max",
          Integer.toString(KEYLEN_MAX),
          "vallen_max",
          Integer.toString(VALLEN_MAX));

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

  /**
   * A peer proved: the launched process it is, and its working directory ({@code null} when
   * unknown), where the children it spawns run unless told otherwise.
   */
  record Identified(Proc proc, String cwd) {}

  private final IntFunction<Optional<Identified>> identify;
  private volatile Proc self;
  private String cwd;
  private PmiBackend.Facts facts;

  /**
   * @param identify the launched process holding this connection that claims a {@code pmiid},
   *     proved by the kernel; empty when it proved nothing. Blocks (bounded).
   */
  PmiEngine(PmiBackend backend, IntFunction<Optional<Identified>> identify) {
    this(backend, identify, false);
  }

  /**
   * @param carried whether the lines come through a node agent's relay, which proved the peer on
   *     its host and adds what only it knows: the peer's working directory ({@code jdvm_cwd=<hex>}
   *     on {@code initack}) and its node's other ranks in a barrier ({@code jdvm_for=r,r,...} on
   *     {@code barrier_in}); from a peer of the controller's own these are refused
   */
  PmiEngine(PmiBackend backend, IntFunction<Optional<Identified>> identify, boolean carried) {
    this.backend = backend;
    this.identify = identify;
    this.carried = carried;
  }

  private final boolean carried;

  /** Who the peer proved to be, or {@code null} before {@code initack}. */
  Proc self() {
    return self;
  }

  /** The {@code mcmd=spawn} request being read. */
  private final PmiSpawn spawn = new PmiSpawn();

  /** Answers one line (without its newline). */
  CompletableFuture<Reply> handle(String line) {
    if (spawn.reading() || line.equals("mcmd=spawn")) {
      return spawnLine(line);
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
      // a PMI-2 hello begins its own connection (PmiServer); any other version is refused clearly
      return CompletableFuture.completedFuture(new Reply(List.of(init(in)), true));
    }
    if (self == null) {
      String answer = cmd.equals("init") ? "response_to_init" : cmd;
      return Reply.now(
          PmiLine.error(answer, "not identified: send cmd=initack pmiid=<PMI_ID> first"));
    }
    return switch (cmd) {
      case "init" -> Reply.now(init(in));
      case "get_maxes" -> Reply.now(MAXES);
      case "get_appnum" -> Reply.now(PmiLine.reply("appnum", 0, "appnum", "" + facts.appnum()));
      case "get_my_kvsname" -> Reply.now(PmiLine.reply("my_kvsname", 0, "kvsname", self.nspace()));
      case "get_universe_size" ->
          Reply.now(PmiLine.reply("universe_size", 0, "size", "" + facts.universe()));
      case "put" -> Reply.now(put(in));
      case "get" -> get(in);
      case "barrier_in" -> barrier(in);
      case "finalize" ->
          CompletableFuture.completedFuture(
              new Reply(List.of(PmiLine.reply("finalize_ack", 0)), true));
      case "abort" -> CompletableFuture.completedFuture(abort(in));
      case "publish_name" -> publish(in);
      case "lookup_name" -> lookup(in);
      case "unpublish_name" -> CompletableFuture.completedFuture(unpublish(in));
      default -> Reply.now(PmiLine.error(cmd, "command not served: " + cmd));
    };
  }

  /**
   * A line of an {@code mcmd=spawn} request ({@code MPI_Comm_spawn}, {@link PmiSpawn}): nothing is
   * answered until its last block is read; then {@code cmd=spawn_result rc=0} once every child is
   * launched, or {@code rc=-1} with why not.
   */
  private CompletableFuture<Reply> spawnLine(String line) {
    PmiSpawn.Step step = spawn.add(line);
    return switch (step) {
      case PmiSpawn.More m -> CompletableFuture.completedFuture(new Reply(List.of(), false));
      case PmiSpawn.Refused r ->
          CompletableFuture.completedFuture(
              new Reply(List.of(PmiLine.error("spawn_result", r.why())), r.close()));
      case PmiSpawn.Done d ->
          self == null
              ? Reply.now(PmiLine.error("spawn_result", "not identified"))
              : backend
                  .spawn(self, d.request(), cwd)
                  .thenApply(
                      why ->
                          Reply.of(
                              why == null
                                  ? PmiLine.reply("spawn_result", 0)
                                  : PmiLine.error("spawn_result", why)));
    };
  }

  /** {@code cmd=barrier_in}, from a relay with {@code jdvm_for}: the job's fence. */
  private CompletableFuture<Reply> barrier(Map<String, String> in) {
    String forList = in.get("jdvm_for");
    List<Integer> represented = List.of();
    if (forList != null) {
      represented = carried ? ranks(forList) : null;
      if (represented == null) {
        return Reply.now(
            PmiLine.error(
                "barrier_out",
                carried ? "jdvm_for lists ranks" : "jdvm_for is a node agent's to send"));
      }
    }
    return backend
        .barrier(self, represented)
        .thenApply(
            s ->
                Reply.of(
                    s == PmixStatus.SUCCESS
                        ? PmiLine.reply("barrier_out", 0)
                        : PmiLine.error("barrier_out", "barrier failed, " + PmixStatus.name(s))));
  }

  /** {@code r,r,...} as ranks, at most {@link PmiSpawn#MAX_PROCS}; {@code null} if not that. */
  static List<Integer> ranks(String list) {
    String[] parts = list.isEmpty() ? new String[0] : list.split(",", -1);
    if (parts.length > PmiSpawn.MAX_PROCS) {
      return null;
    }
    List<Integer> out = new java.util.ArrayList<>(parts.length);
    for (String p : parts) {
      Integer r = number(p);
      if (r == null || r < 0) {
        return null;
      }
      out.add(r);
    }
    return out;
  }

  /** {@code cmd=publish_name service=S port=P}. */
  private CompletableFuture<Reply> publish(Map<String, String> in) {
    String service = in.get("service");
    String port = in.get("port");
    String bad = serviceFault(service);
    if (bad == null && (port == null || port.isEmpty())) {
      bad = "publish_name needs a port";
    }
    if (bad != null) {
      return Reply.now(PmiLine.error("publish_result", bad));
    }
    return backend
        .publish(self, service, port)
        .thenApply(
            why ->
                Reply.of(
                    why == null
                        ? PmiLine.reply("publish_result", 0)
                        : PmiLine.error("publish_result", why)));
  }

  /** {@code cmd=lookup_name service=S}: the port, or {@code rc=-1} at once when none is there. */
  private CompletableFuture<Reply> lookup(Map<String, String> in) {
    String service = in.get("service");
    String bad = serviceFault(service);
    if (bad != null) {
      return Reply.now(PmiLine.error("lookup_result", bad));
    }
    return backend
        .lookup(self, service)
        .thenApply(
            g ->
                Reply.of(
                    g.value() != null
                        ? PmiLine.reply("lookup_result", 0, "port", g.value())
                        : PmiLine.error("lookup_result", g.refusal())));
  }

  /** {@code cmd=unpublish_name service=S}. */
  private Reply unpublish(Map<String, String> in) {
    String service = in.get("service");
    String bad = serviceFault(service);
    if (bad == null) {
      bad = backend.unpublish(self, service);
    }
    return Reply.of(
        bad == null
            ? PmiLine.reply("unpublish_result", 0)
            : PmiLine.error("unpublish_result", bad));
  }

  /** Why {@code service} is no name to publish under, or {@code null}. */
  private static String serviceFault(String service) {
    if (service == null || service.isEmpty()) {
      return "a service name is needed";
    }
    return service.length() > KEYLEN_MAX * 4
        ? "a service name is at most " + (KEYLEN_MAX * 4) + " bytes"
        : null;
  }

  /** {@code cmd=initack pmiid=N}: size, rank and debug follow, as MPICH's client reads them. */
  private Reply initack(Map<String, String> in) {
    if (self != null) {
      return Reply.of(PmiLine.error("initack", "already identified as " + self));
    }
    Integer id = number(in.get("pmiid"));
    Optional<Identified> who = id == null ? Optional.empty() : identify.apply(id);
    Optional<PmiBackend.Facts> f =
        who.isEmpty() ? Optional.empty() : backend.facts(who.get().proc()).join();
    if (f.isEmpty()) {
      return new Reply(
          List.of(PmiLine.error("initack", "pmiid not proved by the process holding the socket")),
          true);
    }
    self = who.get().proc();
    cwd = carried ? unhex(in.get("jdvm_cwd")) : who.get().cwd();
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
          "PMI-1_and_PMI-2_are_served");
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

  /** The text {@code hex} spells as hexadecimal UTF-8; {@code null} if it is none. */
  static String unhex(String hex) {
    if (hex == null || hex.isEmpty() || hex.length() % 2 != 0) {
      return null;
    }
    try {
      return new String(
          java.util.HexFormat.of().parseHex(hex), java.nio.charset.StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  static Integer number(String s) {
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
