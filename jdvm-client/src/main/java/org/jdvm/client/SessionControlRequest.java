package org.jdvm.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.App;
import org.jdvm.pmix.DataArray;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.Value;

/**
 * A {@code PMIx_Session_control} request of the scheduler (decisions.md #13–#14): one operation on
 * a session, and its directives. {@link #ALL_SESSIONS} as the id acts on every session the
 * requester may act on.
 *
 * <pre>{@code
 * // a standing reservation of two new nodes for an hour, then pause and end it
 * scheduler.sessionControl(SessionControlRequest.instantiate(42)
 *     .nodes("big0:8,big1:8").time("1:00:00").allocId("batch-42").build());
 * scheduler.sessionControl(SessionControlRequest.pause(42).build());
 * scheduler.sessionControl(SessionControlRequest.terminate(42).build());
 * }</pre>
 *
 * @param sessionId the session, or {@link #ALL_SESSIONS}
 */
public record SessionControlRequest(long sessionId, List<Info> directives) {
  /** {@code UINT32_MAX}: every session. */
  public static final long ALL_SESSIONS = 0xFFFF_FFFFL;

  public SessionControlRequest {
    directives = List.copyOf(directives);
  }

  /** Creates a session: a standing reservation, or with {@link Builder#apps} a running one. */
  public static Builder instantiate(long sessionId) {
    return new Builder(sessionId).flag(PmixKeys.SESSION_INSTANTIATE);
  }

  /** Terminates every job of the session; the session ends with its last job. */
  public static Builder terminate(long sessionId) {
    return new Builder(sessionId).flag(PmixKeys.SESSION_TERMINATE);
  }

  /** Adds nodes, re-arms the time limit (0 disarms) or replaces the inheritance. */
  public static Builder extend(long sessionId) {
    return new Builder(sessionId).flag(PmixKeys.SESSION_EXTEND);
  }

  /** Stops every job of the session (SIGSTOP). */
  public static Builder pause(long sessionId) {
    return new Builder(sessionId).flag(PmixKeys.SESSION_PAUSE);
  }

  /** Continues the paused jobs (SIGCONT). */
  public static Builder resume(long sessionId) {
    return new Builder(sessionId).flag(PmixKeys.SESSION_RESUME);
  }

  /** Suspends the session's jobs (or those {@link Builder#namespaces} names), keeping the nodes. */
  public static Builder preempt(long sessionId) {
    return new Builder(sessionId).flag(PmixKeys.SESSION_PREEMPT);
  }

  /** Brings preempted jobs back. */
  public static Builder restore(long sessionId) {
    return new Builder(sessionId).flag(PmixKeys.SESSION_RESTORE);
  }

  /** Sends a signal to every job of the session. */
  public static Builder signal(long sessionId, int signal) {
    return new Builder(sessionId).put(PmixKeys.SESSION_SIGNAL, Value.integer(signal));
  }

  /** {@code PMIX_SESSION_SEP} alone: (de)tach the session from its requester and parent. */
  public static Builder separate(long sessionId, boolean separate) {
    return new Builder(sessionId).separated(separate);
  }

  /** Builds a session-control request. */
  public static final class Builder {
    private final long sessionId;
    private final List<Info> directives = new ArrayList<>();

    private Builder(long sessionId) {
      this.sessionId = sessionId;
    }

    private Builder flag(String key) {
      return put(key, Value.bool(true));
    }

    private Builder put(String key, Value value) {
      directives.add(Info.of(key, value));
      return this;
    }

    /** {@code PMIX_ALLOC_NODE_LIST}: {@code name[:slots],...} (a bare name has one slot). */
    public Builder nodes(String list) {
      return put(PmixKeys.ALLOC_NODE_LIST, Value.string(list));
    }

    /** {@code PMIX_SESSION_APP}: apps to run in a new session, which ends with them. */
    public Builder apps(List<App> apps) {
      return put(PmixKeys.SESSION_APP, Value.array(DataArray.of(DataType.APP, apps)));
    }

    /** {@code PMIX_ALLOC_ID} of a new session. */
    public Builder allocId(String allocId) {
      return put(PmixKeys.ALLOC_ID, Value.string(allocId));
    }

    /** {@code PMIX_ALLOC_REQ_ID} of a new session. */
    public Builder reqId(String reqId) {
      return put(PmixKeys.ALLOC_REQ_ID, Value.string(reqId));
    }

    /** {@code PMIX_ALLOC_TIME}: the time limit, "M:D:H:M:S" read from the right. */
    public Builder time(String duration) {
      return put(PmixKeys.ALLOC_TIME, Value.string(duration));
    }

    /** {@code PMIX_TIMEOUT}: the time limit in seconds. */
    public Builder timeoutSeconds(int seconds) {
      return put(PmixKeys.TIMEOUT, Value.integer(seconds));
    }

    /** {@code PMIX_ALLOC_INHERITANCE}. */
    public Builder inheritance(AllocInheritance inheritance) {
      return put(PmixKeys.ALLOC_INHERITANCE, Value.inheritance(inheritance));
    }

    /** {@code PMIX_SESSION_SEP}. */
    public Builder separated(boolean separate) {
      return put(PmixKeys.SESSION_SEP, Value.bool(separate));
    }

    /** {@code PMIX_NSPACE} qualifiers of PREEMPT and RESTORE. */
    public Builder namespaces(String... nspaces) {
      for (String ns : nspaces) {
        put(PmixKeys.NSPACE, Value.string(ns));
      }
      return this;
    }

    /** {@code PMIX_SESSION_CTRL_ID}, echoed in the answer. */
    public Builder ctrlId(String id) {
      return put(PmixKeys.SESSION_CTRL_ID, Value.string(id));
    }

    /** Any other directive. */
    public Builder info(Info info) {
      directives.add(Objects.requireNonNull(info, "info"));
      return this;
    }

    public SessionControlRequest build() {
      return new SessionControlRequest(sessionId, directives);
    }
  }
}
