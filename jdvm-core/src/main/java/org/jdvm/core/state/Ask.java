package org.jdvm.core.state;

import java.util.Collections;
import java.util.List;
import org.jdvm.core.AskKind;
import org.jdvm.core.AskTerms;
import org.jdvm.core.RequestId;
import org.jdvm.core.query.PendingView;
import org.jdvm.pmix.Proc;

/** A request waiting for the scheduler (decisions.md #4, #8). */
public final class Ask implements PendingView {
  private final long askId;
  private final AskKind kind;
  private final RequestId replyTo;
  private final Proc requester;
  private final AskTerms terms;
  final List<Node> claimed;
  boolean queued;

  Ask(long askId, AskKind kind, RequestId replyTo, Proc requester, AskTerms terms, List<Node> c) {
    this.askId = askId;
    this.kind = kind;
    this.replyTo = replyTo;
    this.requester = requester;
    this.terms = terms;
    this.claimed = c;
  }

  @Override
  public long askId() {
    return askId;
  }

  @Override
  public AskKind kind() {
    return kind;
  }

  public RequestId replyTo() {
    return replyTo;
  }

  @Override
  public Proc requester() {
    return requester;
  }

  public AskTerms terms() {
    return terms;
  }

  @Override
  public String allocId() {
    return terms.allocId();
  }

  @Override
  public String allocReqId() {
    return terms.allocReqId();
  }

  @Override
  public boolean queued() {
    return queued;
  }

  /** Nodes already in the DVM that this ask holds until the scheduler answers. */
  public List<Node> claimed() {
    return Collections.unmodifiableList(claimed);
  }

  @Override
  public String toString() {
    return "ask" + askId;
  }
}
