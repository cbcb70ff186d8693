package org.jdvm.endpoint.pmi;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;

/**
 * One connection's side of the PMI-2 wire protocol (docs/protocol.md "Simple PMI"), as Slurm's
 * {@code libpmi2} and MPICH's PMI-2 client speak it after {@code cmd=init pmi_version=2}: a command
 * in ({@link Pmi2Wire}), its answer out, over the same {@link PmiBackend} as PMI-1 (one store, one
 * fence, one name service per job). Answers echo the request's {@code thrid}.
 *
 * <p>Until {@code fullinit} proved who the peer is ({@code srcid}, the {@code PMI_ID} the kernel
 * proves), nothing else is served. A malformed command, an unknown one or a bad argument is
 * answered {@code rc=1} with an {@code errmsg} and changes nothing. {@code spawn} is answered
 * {@code rc=1}: jdvm spawns over PMI-1 only (no PMI-2 client here spawns).
 */
final class Pmi2Engine {
  private final PmiBackend backend;
  private final IntFunction<Optional<PmiEngine.Identified>> identify;
  private final boolean carried;
  private volatile Proc self;
  private PmiBackend.Facts facts;

  /** As {@link PmiEngine#PmiEngine(PmiBackend, IntFunction, boolean)}. */
  Pmi2Engine(
      PmiBackend backend, IntFunction<Optional<PmiEngine.Identified>> identify, boolean carried) {
    this.backend = backend;
    this.identify = identify;
    this.carried = carried;
  }

  /** Who the peer proved to be, or {@code null} before {@code fullinit}. */
  Proc self() {
    return self;
  }

  /** Answers one command (its bytes, without the length); the replies are commands too. */
  CompletableFuture<PmiEngine.Reply> handle(String command) {
    Map<String, String> in;
    try {
      in = Pmi2Wire.parse(command);
    } catch (PmiLine.Malformed e) {
      return now(Pmi2Wire.command("error-response", "rc", "1", "errmsg", msg(e.getMessage())));
    }
    String cmd = in.get("cmd");
    String thrid = in.get("thrid");
    if (cmd.equals("fullinit")) {
      return CompletableFuture.completedFuture(fullinit(in));
    }
    if (self == null) {
      return now(refusal(cmd, thrid, "not identified: send fullinit with srcid first"));
    }
    return switch (cmd) {
      case "job-getid" -> now(ok(cmd, thrid, "jobid", self.nspace()));
      case "info-getjobattr" -> now(jobAttr(in, thrid));
      case "info-putnodeattr" -> now(putNodeAttr(in, thrid));
      case "info-getnodeattr" -> nodeAttr(in, thrid);
      case "kvs-put" -> now(put(in, thrid));
      case "kvs-get" -> get(in, thrid);
      case "kvs-fence" -> fence(in, thrid);
      case "name-publish" -> publish(in, thrid);
      case "name-lookup" -> lookup(in, thrid);
      case "name-unpublish" -> now(unpublish(in, thrid));
      case "finalize" ->
          CompletableFuture.completedFuture(new PmiEngine.Reply(List.of(ok(cmd, thrid)), true));
      case "abort" -> {
        backend.abort(self, 1, in.getOrDefault("msg", ""));
        // as PMI-1's abort: the caller waits until the job's end kills it
        yield CompletableFuture.completedFuture(new PmiEngine.Reply(List.of(), false));
      }
      case "spawn" -> now(refusal(cmd, thrid, "jdvm spawns over PMI-1 only"));
      default -> now(refusal(cmd, thrid, "command not served: " + cmd));
    };
  }

  private static CompletableFuture<PmiEngine.Reply> now(String command) {
    return CompletableFuture.completedFuture(new PmiEngine.Reply(List.of(command), false));
  }

  /** {@code cmd=<cmd>-response;[thrid;]rc=0;} and {@code pairs}. */
  private static String ok(String cmd, String thrid, String... pairs) {
    List<String> all = new ArrayList<>(java.util.Arrays.asList("thrid", thrid));
    all.addAll(List.of(pairs));
    all.addAll(List.of("rc", "0"));
    return Pmi2Wire.command(cmd + "-response", all.toArray(String[]::new));
  }

  private static String refusal(String cmd, String thrid, String why) {
    return Pmi2Wire.command(cmd + "-response", "thrid", thrid, "rc", "1", "errmsg", msg(why));
  }

  private static String msg(String why) {
    return why.replace(' ', '_');
  }

  /** {@code fullinit}: the peer claims its {@code PMI_ID}; rank, size and appnum come back. */
  private PmiEngine.Reply fullinit(Map<String, String> in) {
    if (self != null) {
      return new PmiEngine.Reply(
          List.of(refusal("fullinit", in.get("thrid"), "already identified as " + self)), false);
    }
    // PMI_ID, as Slurm's libpmi2 and MPICH's PMI-2 client send it (SRCID_KEY)
    Integer id = PmiEngine.number(in.get("srcid"));
    Optional<PmiEngine.Identified> who = id == null ? Optional.empty() : identify.apply(id);
    Optional<PmiBackend.Facts> f =
        who.isEmpty() ? Optional.empty() : backend.facts(who.get().proc()).join();
    if (f.isEmpty()) {
      return new PmiEngine.Reply(
          List.of(
              refusal(
                  "fullinit",
                  in.get("thrid"),
                  "pmiid not proved by the process holding the socket")),
          true);
    }
    self = who.get().proc();
    facts = f.get();
    return new PmiEngine.Reply(
        List.of(
            Pmi2Wire.command(
                "fullinit-response",
                "pmi-version",
                "2",
                "pmi-subversion",
                "0",
                "rank",
                "" + self.rank(),
                "size",
                "" + facts.size(),
                "appnum",
                "" + facts.appnum(),
                "debugged",
                "FALSE",
                "pmiverbose",
                "FALSE",
                "rc",
                "0")),
        false);
  }

  private String jobAttr(Map<String, String> in, String thrid) {
    String key = in.getOrDefault("key", "");
    String value =
        switch (key) {
          case PmiEngine.PROCESS_MAPPING -> facts.mapping();
          case "universeSize" -> "" + facts.universe();
          default -> null;
        };
    return value == null
        ? ok("info-getjobattr", thrid, "found", "FALSE")
        : ok("info-getjobattr", thrid, "found", "TRUE", "value", value);
  }

  private String putNodeAttr(Map<String, String> in, String thrid) {
    String bad = keyFault(in.get("key"), in.get("value"));
    if (bad == null) {
      bad = backend.putNodeAttr(self, in.get("key"), in.get("value"));
    }
    return bad == null ? ok("info-putnodeattr", thrid) : refusal("info-putnodeattr", thrid, bad);
  }

  private CompletableFuture<PmiEngine.Reply> nodeAttr(Map<String, String> in, String thrid) {
    String key = in.get("key");
    String bad = keyFault(key, "");
    if (bad != null) {
      return now(refusal("info-getnodeattr", thrid, bad));
    }
    return backend
        .nodeAttr(self, key, "TRUE".equals(in.get("wait")))
        .thenApply(g -> found("info-getnodeattr", thrid, g));
  }

  private static PmiEngine.Reply found(String cmd, String thrid, PmiBackend.Got g) {
    return new PmiEngine.Reply(
        List.of(
            g.value() == null
                ? ok(cmd, thrid, "found", "FALSE")
                : ok(cmd, thrid, "found", "TRUE", "value", g.value())),
        false);
  }

  private static String keyFault(String key, String value) {
    if (key == null || key.isEmpty() || key.length() > PmiEngine.KEYLEN_MAX) {
      return "a key is 1 to " + PmiEngine.KEYLEN_MAX + " bytes";
    }
    if (value == null || value.length() > PmiEngine.VALLEN_MAX_PMI2) {
      return "a value is at most " + PmiEngine.VALLEN_MAX_PMI2 + " bytes";
    }
    return null;
  }

  private String put(Map<String, String> in, String thrid) {
    String key = in.get("key");
    String bad = keyFault(key, in.get("value"));
    if (bad == null && key.startsWith("PMI_")) {
      bad = "keys starting PMI_ are the server's";
    }
    if (bad == null) {
      bad = backend.put(self, key, in.get("value"));
    }
    return bad == null ? ok("kvs-put", thrid) : refusal("kvs-put", thrid, bad);
  }

  private CompletableFuture<PmiEngine.Reply> get(Map<String, String> in, String thrid) {
    String key = in.get("key");
    String job = in.get("jobid");
    String bad = keyFault(key, "");
    if (bad == null && job != null && !job.isEmpty() && !job.equals(self.nspace())) {
      bad = "no such jobid for " + self + ": " + job;
    }
    if (bad != null) {
      return now(refusal("kvs-get", thrid, bad));
    }
    return backend.get(self, key).thenApply(g -> found("kvs-get", thrid, g));
  }

  /** {@code kvs-fence}, from a relay with {@code jdvm_for}: the job's fence. */
  private CompletableFuture<PmiEngine.Reply> fence(Map<String, String> in, String thrid) {
    List<Integer> represented = List.of();
    String forList = in.get("jdvm_for");
    if (forList != null) {
      represented = carried ? PmiEngine.ranks(forList) : null;
      if (represented == null) {
        return now(
            refusal(
                "kvs-fence",
                thrid,
                carried ? "jdvm_for lists ranks" : "jdvm_for is a node agent's to send"));
      }
    }
    return backend
        .barrier(self, represented)
        .thenApply(
            s ->
                new PmiEngine.Reply(
                    List.of(
                        s == PmixStatus.SUCCESS
                            ? ok("kvs-fence", thrid)
                            : refusal("kvs-fence", thrid, "fence failed, " + PmixStatus.name(s))),
                    false));
  }

  private CompletableFuture<PmiEngine.Reply> publish(Map<String, String> in, String thrid) {
    String name = in.get("name");
    String port = in.get("port");
    if (name == null || name.isEmpty() || port == null || port.isEmpty()) {
      return now(refusal("name-publish", thrid, "name-publish needs a name and a port"));
    }
    return backend
        .publish(self, name, port)
        .thenApply(
            why ->
                new PmiEngine.Reply(
                    List.of(
                        why == null
                            ? ok("name-publish", thrid)
                            : refusal("name-publish", thrid, why)),
                    false));
  }

  private CompletableFuture<PmiEngine.Reply> lookup(Map<String, String> in, String thrid) {
    String name = in.get("name");
    if (name == null || name.isEmpty()) {
      return now(refusal("name-lookup", thrid, "name-lookup needs a name"));
    }
    return backend
        .lookup(self, name)
        .thenApply(
            g ->
                new PmiEngine.Reply(
                    List.of(
                        g.value() != null
                            // Hydra says port=, Slurm's libpmi2 reads value=: both
                            ? ok(
                                "name-lookup",
                                thrid,
                                "port",
                                g.value(),
                                "value",
                                g.value(),
                                "found",
                                "TRUE")
                            : Pmi2Wire.command(
                                "name-lookup-response",
                                "thrid",
                                thrid,
                                "found",
                                "FALSE",
                                "rc",
                                "1",
                                "errmsg",
                                msg(g.refusal()))),
                    false));
  }

  private String unpublish(Map<String, String> in, String thrid) {
    String name = in.get("name");
    String bad =
        name == null || name.isEmpty()
            ? "name-unpublish needs a name"
            : backend.unpublish(self, name);
    return bad == null ? ok("name-unpublish", thrid) : refusal("name-unpublish", thrid, bad);
  }
}
