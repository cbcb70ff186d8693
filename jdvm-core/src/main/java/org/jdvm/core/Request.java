package org.jdvm.core;

import java.util.List;
import java.util.Objects;
import org.jdvm.pmix.AllocDirective;
import org.jdvm.pmix.App;
import org.jdvm.pmix.Proc;

/**
 * A client's request. The shell has authenticated the connection and passes the {@code requester}
 * it speaks for; the core decides from its own job table what that namespace is (tool, application
 * or scheduler) and refuses an unknown or terminated one. Fields are already parsed: the shell
 * refuses values of the wrong PMIx type with {@code PMIX_ERR_BAD_PARAM} before they get here. An
 * absent attribute is {@code null}.
 */
public sealed interface Request extends Command {
  /** The shell's id for the request; the one {@link Effect.Reply} carries it back. */
  RequestId requestId();

  /**
   * A tool connects. It gets a fresh namespace ({@code <dvm>@<n>}) unless it brings its own, which
   * must be unused and not of the minted form. Reply: {@code PMIX_NSPACE}, {@code PMIX_RANK} 0.
   */
  record RegisterTool(RequestId requestId, String namespace) implements Request {
    public RegisterTool {
      Objects.requireNonNull(requestId, "requestId");
    }
  }

  /**
   * The scheduler connects (decisions.md #13). Like a tool, but it is the implicit owner of every
   * session; there is at most one live scheduler.
   */
  record RegisterScheduler(RequestId requestId, String namespace) implements Request {
    public RegisterScheduler {
      Objects.requireNonNull(requestId, "requestId");
    }
  }

  /**
   * {@code PMIx_Allocation_request} with any of the five directives (rfc0005-allocation-api.txt
   * "Description", spec §8.2.1.5, decisions.md #1–#9).
   *
   * @param targetNamespace {@code PMIX_ALLOC_TARGET}
   * @param share {@code PMIX_ALLOC_SHARE}
   * @param inheritance {@code PMIX_ALLOC_INHERITANCE} as the raw number, so 0 or 5+ can be refused
   * @param allocId {@code PMIX_ALLOC_ID}
   * @param allocReqId {@code PMIX_ALLOC_REQ_ID}, the requester's own name for the request
   * @param nodeCount {@code PMIX_ALLOC_NUM_NODES}
   * @param nodeList {@code PMIX_ALLOC_NODE_LIST}, already split into node names
   * @param timeLimitSeconds {@code PMIX_ALLOC_TIME}, forwarded to the scheduler
   * @param warnTimeoutSeconds {@code PMIX_ALLOC_WARN_TIMEOUT}, forwarded to the scheduler
   * @param required the REQUIRED flag on the count or node list: a scheduler that can never satisfy
   *     a required request refuses it, a not-required one may queue
   * @param lendSeconds {@code PMIX_ALLOC_LEND} on a RELEASE: lend the nodes for this long
   * @param childSeparated {@code PMIX_ALLOC_CHILD_SEP}: the new session does not end with the
   *     session the requester runs in
   */
  record Allocate(
      RequestId requestId,
      Proc requester,
      AllocDirective directive,
      String targetNamespace,
      Boolean share,
      Integer inheritance,
      String allocId,
      String allocReqId,
      Integer nodeCount,
      List<String> nodeList,
      Long timeLimitSeconds,
      Long warnTimeoutSeconds,
      boolean required,
      Long lendSeconds,
      boolean childSeparated)
      implements Request {
    public Allocate {
      Objects.requireNonNull(requestId, "requestId");
      Objects.requireNonNull(requester, "requester");
      Objects.requireNonNull(directive, "directive");
      nodeList = nodeList == null ? null : List.copyOf(nodeList);
    }

    public static Builder builder(RequestId requestId, Proc requester, AllocDirective directive) {
      return new Builder(requestId, requester, directive);
    }

    /**
     * Builds an {@link Allocate}; every attribute starts absent and the request required. An
     * attribute the request did not carry is simply not set (no setter takes a null).
     */
    public static final class Builder {
      private final RequestId requestId;
      private final Proc requester;
      private final AllocDirective directive;
      private String targetNamespace;
      private Boolean share;
      private Integer inheritance;
      private String allocId;
      private String allocReqId;
      private Integer nodeCount;
      private List<String> nodeList;
      private Long timeLimitSeconds;
      private Long warnTimeoutSeconds;
      private boolean required = true;
      private Long lendSeconds;
      private boolean childSeparated;

      private Builder(RequestId requestId, Proc requester, AllocDirective directive) {
        this.requestId = requestId;
        this.requester = requester;
        this.directive = directive;
      }

      public Builder target(String namespace) {
        this.targetNamespace = namespace;
        return this;
      }

      public Builder share(boolean share) {
        this.share = share;
        return this;
      }

      public Builder inheritance(int raw) {
        this.inheritance = raw;
        return this;
      }

      public Builder allocId(String allocId) {
        this.allocId = allocId;
        return this;
      }

      public Builder allocReqId(String allocReqId) {
        this.allocReqId = allocReqId;
        return this;
      }

      public Builder nodeCount(int count) {
        this.nodeCount = count;
        return this;
      }

      public Builder nodeList(List<String> names) {
        this.nodeList = names;
        return this;
      }

      public Builder timeLimitSeconds(long seconds) {
        this.timeLimitSeconds = seconds;
        return this;
      }

      public Builder warnTimeoutSeconds(long seconds) {
        this.warnTimeoutSeconds = seconds;
        return this;
      }

      public Builder required(boolean required) {
        this.required = required;
        return this;
      }

      public Builder lendSeconds(long seconds) {
        this.lendSeconds = seconds;
        return this;
      }

      public Builder childSeparated(boolean separated) {
        this.childSeparated = separated;
        return this;
      }

      public Allocate build() {
        return new Allocate(
            requestId,
            requester,
            directive,
            targetNamespace,
            share,
            inheritance,
            allocId,
            allocReqId,
            nodeCount,
            nodeList,
            timeLimitSeconds,
            warnTimeoutSeconds,
            required,
            lendSeconds,
            childSeparated);
      }
    }
  }

  /**
   * {@code PMIx_Spawn} (spec §8.2.1.6–§8.2.1.7, decisions.md #15). The reply carries {@code
   * PMIX_NSPACE} once every process is launched, or an error status.
   *
   * @param spawnTarget {@code PMIX_SPAWN_TARGET} as a list of allocation ids, {@code ""} being the
   *     default session; {@code null} when absent
   * @param sessionId {@code PMIX_SESSION_ID} (uint32)
   * @param allocId {@code PMIX_ALLOC_ID}, the legacy single-session target
   * @param allocReqId {@code PMIX_ALLOC_REQ_ID}, the legacy single-session target
   * @param fill {@code -N}/{@code ppr:n:node} and {@code --oversubscribe}; {@code null} for neither
   */
  record Spawn(
      RequestId requestId,
      Proc requester,
      List<App> apps,
      List<String> spawnTarget,
      Long sessionId,
      String allocId,
      String allocReqId,
      MapBy mapBy,
      boolean recoverable,
      Integer stdinRank,
      NodeFill fill)
      implements Request {
    public Spawn {
      Objects.requireNonNull(requestId, "requestId");
      Objects.requireNonNull(requester, "requester");
      apps = List.copyOf(apps);
      spawnTarget = spawnTarget == null ? null : List.copyOf(spawnTarget);
      mapBy = mapBy == null ? MapBy.SLOT : mapBy;
    }

    /** A spawn whose job ends when one of its processes fails, with no process reading stdin. */
    public Spawn(
        RequestId requestId,
        Proc requester,
        List<App> apps,
        List<String> spawnTarget,
        Long sessionId,
        String allocId,
        String allocReqId,
        MapBy mapBy) {
      this(
          requestId,
          requester,
          apps,
          spawnTarget,
          sessionId,
          allocId,
          allocReqId,
          mapBy,
          false,
          null,
          null);
    }

    /** A spawn of these apps with no targeting attribute, mapped by slot. */
    public static Spawn of(RequestId requestId, Proc requester, List<App> apps) {
      return new Spawn(requestId, requester, apps, null, null, null, null, MapBy.SLOT);
    }

    public Spawn withTarget(List<String> target) {
      return new Spawn(
          requestId,
          requester,
          apps,
          target,
          sessionId,
          allocId,
          allocReqId,
          mapBy,
          recoverable,
          stdinRank,
          fill);
    }

    public Spawn withLegacy(Long session, String alloc, String allocReq) {
      return new Spawn(
          requestId,
          requester,
          apps,
          spawnTarget,
          session,
          alloc,
          allocReq,
          mapBy,
          recoverable,
          stdinRank,
          fill);
    }

    public Spawn withMapBy(MapBy by) {
      return new Spawn(
          requestId,
          requester,
          apps,
          spawnTarget,
          sessionId,
          allocId,
          allocReqId,
          by,
          recoverable,
          stdinRank,
          fill);
    }

    /**
     * {@code PMIX_JOB_RECOVERABLE} (or {@code PMIX_ABORT_NON_ZERO_TERM} false): a process that ends
     * abnormally does not end the others. Without it the job is aborted as {@code mpirun} does.
     */
    public Spawn withRecoverable(boolean on) {
      return new Spawn(
          requestId,
          requester,
          apps,
          spawnTarget,
          sessionId,
          allocId,
          allocReqId,
          mapBy,
          on,
          stdinRank,
          fill);
    }

    /**
     * {@code PMIX_STDIN_TGT}: the rank whose standard input is a pipe the spawner may write to
     * ({@code IOF_PUSH}); {@code Proc.RANK_WILDCARD} for every rank, {@code null} for none (every
     * process reads {@code /dev/null}).
     */
    public Spawn withStdin(Integer rank) {
      return new Spawn(
          requestId,
          requester,
          apps,
          spawnTarget,
          sessionId,
          allocId,
          allocReqId,
          mapBy,
          recoverable,
          rank,
          fill);
    }

    /**
     * {@code -N n} / {@code ppr:n:node} and {@code --oversubscribe} ({@link NodeFill}); {@code
     * null} for neither.
     */
    public Spawn withFill(NodeFill f) {
      return new Spawn(
          requestId,
          requester,
          apps,
          spawnTarget,
          sessionId,
          allocId,
          allocReqId,
          mapBy,
          recoverable,
          stdinRank,
          f);
    }
  }

  /**
   * Signal every running process of a job. Allowed for the job itself, any of its ancestors, and
   * the scheduler.
   */
  record SignalJob(RequestId requestId, Proc requester, String namespace, int signal)
      implements Request {
    public SignalJob {
      Objects.requireNonNull(requestId, "requestId");
      Objects.requireNonNull(requester, "requester");
      Objects.requireNonNull(namespace, "namespace");
    }
  }

  /** Kill every process of a job; same authorisation as {@link SignalJob}. */
  record TerminateJob(RequestId requestId, Proc requester, String namespace) implements Request {
    public TerminateJob {
      Objects.requireNonNull(requestId, "requestId");
      Objects.requireNonNull(requester, "requester");
      Objects.requireNonNull(namespace, "namespace");
    }
  }

  /**
   * {@code PMIx_Abort} of a job (docs/wireup.md §c.8): kill every process of it, and let {@code
   * exitCode} (the status the caller passed, e.g. {@code MPI_Abort}'s error code) be the job's exit
   * code whichever process ends first. Same authorisation as {@link SignalJob}. A job already being
   * ended keeps its status and exit code.
   */
  record AbortJob(RequestId requestId, Proc requester, String namespace, int exitCode)
      implements Request {
    public AbortJob {
      Objects.requireNonNull(requestId, "requestId");
      Objects.requireNonNull(requester, "requester");
      Objects.requireNonNull(namespace, "namespace");
    }
  }

  /**
   * {@code PMIx_Session_control} (decisions.md #13–#14, prrte-behavior.md §1.14). The shell
   * collects every directive; the core checks them all before acting.
   *
   * @param sessionId the API's session id argument ({@code UINT32_MAX}: every session the requester
   *     may act on, never the default pool)
   * @param operations every operation the directives named (more than one is refused)
   * @param separate {@code PMIX_SESSION_SEP}
   * @param nodes node names with slots, directly or inside {@code PMIX_SESSION_RESOURCES}
   * @param nodeCount a resource directive asking the DVM to choose nodes (refused NOT_SUPPORTED)
   * @param provision {@code PMIX_SESSION_PROVISION_NODES} or {@code _IMAGE} (refused NOT_SUPPORTED)
   * @param apps {@code PMIX_SESSION_APP}
   * @param allocTimeSeconds {@code PMIX_ALLOC_TIME}, in seconds (the endpoint reads its "M:D:H:M:S"
   *     form as it does for an allocation request)
   * @param timeoutSeconds {@code PMIX_TIMEOUT}
   * @param inheritance {@code PMIX_ALLOC_INHERITANCE}, raw
   * @param signal {@code PMIX_SESSION_SIGNAL}
   * @param namespaces {@code PMIX_NSPACE} qualifiers of PREEMPT/RESTORE
   * @param ctrlId {@code PMIX_SESSION_CTRL_ID}, echoed in the reply
   */
  record SessionControl(
      RequestId requestId,
      Proc requester,
      long sessionId,
      List<SessionOp> operations,
      Boolean separate,
      String allocId,
      String allocReqId,
      List<NodeSpec> nodes,
      Integer nodeCount,
      boolean provision,
      List<App> apps,
      Long allocTimeSeconds,
      Long timeoutSeconds,
      Integer inheritance,
      Integer signal,
      List<String> namespaces,
      String ctrlId)
      implements Request {
    /** {@code UINT32_MAX}: the default session's id, and "every session" in an operation. */
    public static final long ALL_SESSIONS = 0xFFFF_FFFFL;

    public SessionControl {
      Objects.requireNonNull(requestId, "requestId");
      Objects.requireNonNull(requester, "requester");
      operations = List.copyOf(operations);
      nodes = nodes == null ? List.of() : List.copyOf(nodes);
      apps = apps == null ? List.of() : List.copyOf(apps);
      namespaces = namespaces == null ? List.of() : List.copyOf(namespaces);
    }

    public static Builder builder(RequestId requestId, Proc requester, long sessionId) {
      return new Builder(requestId, requester, sessionId);
    }

    /** The one operation, or {@code null} when only {@code PMIX_SESSION_SEP} was given. */
    public SessionOp operation() {
      return operations.isEmpty() ? null : operations.get(0);
    }

    /**
     * Builds a {@link SessionControl}; everything starts absent, and an attribute the request did
     * not carry is simply not set (no setter takes a null).
     */
    public static final class Builder {
      private final RequestId requestId;
      private final Proc requester;
      private final long sessionId;
      private List<SessionOp> operations = List.of();
      private Boolean separate;
      private String allocId;
      private String allocReqId;
      private List<NodeSpec> nodes;
      private Integer nodeCount;
      private boolean provision;
      private List<App> apps;
      private Long allocTimeSeconds;
      private Long timeoutSeconds;
      private Integer inheritance;
      private Integer signal;
      private List<String> namespaces;
      private String ctrlId;

      private Builder(RequestId requestId, Proc requester, long sessionId) {
        this.requestId = requestId;
        this.requester = requester;
        this.sessionId = sessionId;
      }

      public Builder operations(SessionOp... ops) {
        this.operations = List.of(ops);
        return this;
      }

      public Builder separate(boolean separate) {
        this.separate = separate;
        return this;
      }

      public Builder allocId(String allocId) {
        this.allocId = allocId;
        return this;
      }

      public Builder allocReqId(String allocReqId) {
        this.allocReqId = allocReqId;
        return this;
      }

      public Builder nodes(List<NodeSpec> nodes) {
        this.nodes = nodes;
        return this;
      }

      public Builder nodeCount(int count) {
        this.nodeCount = count;
        return this;
      }

      public Builder provision(boolean provision) {
        this.provision = provision;
        return this;
      }

      public Builder apps(List<App> apps) {
        this.apps = apps;
        return this;
      }

      public Builder allocTimeSeconds(long seconds) {
        this.allocTimeSeconds = seconds;
        return this;
      }

      public Builder timeoutSeconds(long seconds) {
        this.timeoutSeconds = seconds;
        return this;
      }

      public Builder inheritance(int raw) {
        this.inheritance = raw;
        return this;
      }

      public Builder signal(int signal) {
        this.signal = signal;
        return this;
      }

      public Builder namespaces(List<String> namespaces) {
        this.namespaces = namespaces;
        return this;
      }

      public Builder ctrlId(String ctrlId) {
        this.ctrlId = ctrlId;
        return this;
      }

      public SessionControl build() {
        return new SessionControl(
            requestId,
            requester,
            sessionId,
            operations,
            separate,
            allocId,
            allocReqId,
            nodes,
            nodeCount,
            provision,
            apps,
            allocTimeSeconds,
            timeoutSeconds,
            inheritance,
            signal,
            namespaces,
            ctrlId);
      }
    }
  }
}
