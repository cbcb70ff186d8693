package org.jdvm.core.job;

import java.util.List;
import org.jdvm.core.Change.NamespaceRegistered;
import org.jdvm.core.Effect.Reply;
import org.jdvm.core.JobKind;
import org.jdvm.core.RequestId;
import org.jdvm.core.state.JobTable;
import org.jdvm.core.state.Txn;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;

/**
 * A tool or the scheduler connects and gets its namespace (architecture.md §4; decisions.md #11,
 * #13). Namespaces are minted deterministically as {@code <dvm>@<n>}; a tool may bring its own name
 * if it was never used.
 */
public final class Registration {
  private Registration() {}

  public static void register(RequestId requestId, String chosen, JobKind kind, Txn txn) {
    RegistrationRejection why = check(chosen, kind, txn);
    if (why != null) {
      txn.reject(requestId, why);
      return;
    }
    JobTable jobs = txn.state().jobs();
    String namespace = chosen == null || chosen.isEmpty() ? jobs.nextNamespace() : chosen;
    txn.change(new NamespaceRegistered(namespace, kind));
    List<Info> infos =
        List.of(
            Info.of(PmixKeys.NSPACE, Value.string(namespace)),
            Info.of(PmixKeys.RANK, Value.rank(0)));
    txn.effect(new Reply(requestId, PmixStatus.SUCCESS, infos));
  }

  private static RegistrationRejection check(String chosen, JobKind kind, Txn txn) {
    if (txn.state().tornDown()) {
      return RegistrationRejection.DVM_TORN_DOWN;
    }
    JobTable jobs = txn.state().jobs();
    boolean choosing = chosen != null && !chosen.isEmpty();
    if (choosing && (chosen.length() > Proc.MAX_NSLEN || jobs.isMintedForm(chosen))) {
      return RegistrationRejection.NAMESPACE_NOT_ALLOWED;
    }
    if (choosing && jobs.everUsed(chosen)) {
      return RegistrationRejection.NAMESPACE_IN_USE;
    }
    if (kind == JobKind.SCHEDULER && jobs.scheduler() != null) {
      return RegistrationRejection.SCHEDULER_PRESENT;
    }
    return null;
  }
}
