package org.jdvm.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jdvm.pmix.AllocDirective;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.Value;

/**
 * A {@code PMIx_Allocation_request}: one of the five directives and its attributes
 * (rfc0005-allocation-api.txt "Description", spec §8.2.1.4, decisions.md #1–#9), built with a
 * {@link Builder}.
 *
 * <pre>{@code
 * // two scheduler nodes, reserved to me, kept for my children after I end, with a warning
 * AllocationRequest r = AllocationRequest.newAllocation()
 *     .nodes(2).inheritance(AllocInheritance.CHILD).time("10:00").warnTimeout(60)
 *     .reqId("my-batch").build();
 * AllocationRequest more = AllocationRequest.extend().reqId("my-batch").nodes(1).build();
 * AllocationRequest done = AllocationRequest.release().allocId(result.allocId()).build();
 * }</pre>
 *
 * <p>The node count and node list are marked REQUIRED unless {@link Builder#notRequired()} is
 * called: a request the scheduler can never satisfy is then refused ({@code
 * PMIX_ERR_OUT_OF_RESOURCE}) rather than queued.
 *
 * @param directive NEW, EXTEND, RELEASE, REAQUIRE or REQ_CANCEL
 * @param infos the attributes, as sent (inheritance as {@code PMIX_ALLOC_INHERIT}; the client sends
 *     it as {@code PMIX_UINT8} to a 4.2-era DVM)
 */
public record AllocationRequest(AllocDirective directive, List<Info> infos) {
  public AllocationRequest {
    Objects.requireNonNull(directive, "directive");
    infos = List.copyOf(infos);
  }

  /** {@code PMIX_ALLOC_NEW}: a fresh allocation. */
  public static Builder newAllocation() {
    return new Builder(AllocDirective.NEW);
  }

  /** {@code PMIX_ALLOC_EXTEND}: more nodes or time for an allocation named by id or request id. */
  public static Builder extend() {
    return new Builder(AllocDirective.EXTEND);
  }

  /** {@code PMIX_ALLOC_RELEASE}: a whole allocation (by id) or some of its nodes. */
  public static Builder release() {
    return new Builder(AllocDirective.RELEASE);
  }

  /** {@code PMIX_ALLOC_REAQUIRE}: get lent nodes back. */
  public static Builder reacquire() {
    return new Builder(AllocDirective.REAQUIRE);
  }

  /** {@code PMIX_ALLOC_REQ_CANCEL}: withdraw a queued request, named by its request id. */
  public static Builder cancel() {
    return new Builder(AllocDirective.REQ_CANCEL);
  }

  /** Builds a request; every attribute starts absent. */
  public static final class Builder {
    private final AllocDirective directive;
    private final List<Info> infos = new ArrayList<>();
    private boolean required = true;

    private Builder(AllocDirective directive) {
      this.directive = directive;
    }

    /** {@code PMIX_ALLOC_NUM_NODES}: how many nodes (the scheduler picks them). */
    public Builder nodes(long count) {
      return put(PmixKeys.ALLOC_NUM_NODES, Value.uint64(count));
    }

    /** {@code PMIX_ALLOC_NODE_LIST}: these nodes by name. */
    public Builder nodeList(List<String> names) {
      return put(PmixKeys.ALLOC_NODE_LIST, Value.string(String.join(",", names)));
    }

    public Builder nodeList(String... names) {
      return nodeList(List.of(names));
    }

    /** {@code PMIX_ALLOC_SHARE}: true puts the nodes in the default session from the start. */
    public Builder share(boolean share) {
      return put(PmixKeys.ALLOC_SHARE, Value.bool(share));
    }

    /** {@code PMIX_ALLOC_TARGET} (tools only): reserve for this namespace, which owns it. */
    public Builder target(String nspace) {
      return put(PmixKeys.ALLOC_TARGET, Value.string(nspace));
    }

    /** {@code PMIX_ALLOC_INHERITANCE}: what becomes of it when its owner ends. */
    public Builder inheritance(AllocInheritance inheritance) {
      return put(PmixKeys.ALLOC_INHERITANCE, Value.inheritance(inheritance));
    }

    /** {@code PMIX_ALLOC_ID}: the allocation an EXTEND, RELEASE or REAQUIRE is for. */
    public Builder allocId(String allocId) {
      return put(PmixKeys.ALLOC_ID, Value.string(allocId));
    }

    /** {@code PMIX_ALLOC_REQ_ID}: my own name for the request, usable instead of its id. */
    public Builder reqId(String reqId) {
      return put(PmixKeys.ALLOC_REQ_ID, Value.string(reqId));
    }

    /** {@code PMIX_ALLOC_TIME}: how long, as "M:D:H:M:S" read from the right ("90", "1:30"). */
    public Builder time(String duration) {
      return put(PmixKeys.ALLOC_TIME, Value.string(duration));
    }

    /** {@code PMIX_ALLOC_TIME} in seconds. */
    public Builder timeSeconds(long seconds) {
      return time(Long.toString(seconds));
    }

    /** {@code PMIX_ALLOC_WARN_TIMEOUT}: warn me this many seconds before it expires. */
    public Builder warnTimeout(long seconds) {
      return put(PmixKeys.ALLOC_WARN_TIMEOUT, Value.uint32(seconds));
    }

    /** {@code PMIX_ALLOC_LEND} on a RELEASE: lend the nodes for this long ("M:D:H:M:S"). */
    public Builder lend(String duration) {
      return put(PmixKeys.ALLOC_LEND, Value.string(duration));
    }

    /** {@code PMIX_ALLOC_CHILD_SEP}: the new session does not end with the one I run in. */
    public Builder childSeparated(boolean separated) {
      return put(PmixKeys.ALLOC_CHILD_SEP, Value.bool(separated));
    }

    /** The count or list may wait in the scheduler's queue instead of being refused. */
    public Builder notRequired() {
      this.required = false;
      return this;
    }

    /** Any other attribute, as given. */
    public Builder info(Info info) {
      infos.add(Objects.requireNonNull(info, "info"));
      return this;
    }

    private Builder put(String key, Value value) {
      infos.removeIf(i -> i.key().equals(key));
      infos.add(Info.of(key, value));
      return this;
    }

    public AllocationRequest build() {
      List<Info> out = new ArrayList<>(infos.size());
      for (Info i : infos) {
        boolean amount =
            i.key().equals(PmixKeys.ALLOC_NUM_NODES) || i.key().equals(PmixKeys.ALLOC_NODE_LIST);
        out.add(amount && required ? Info.required(i.key(), i.value()) : i);
      }
      return new AllocationRequest(directive, out);
    }
  }
}
