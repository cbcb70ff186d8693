package org.jdvm.scheduler;

/** A node of the embedded scheduler's pool: who holds it, and a lender's claim on it. */
final class PoolNode {
  final NodeGrant grant;
  String holder; // allocation holding it, or null if free
  String lender; // allocation with a claim on it, or null
  long claimAtNs;
  boolean claimDue;

  PoolNode(NodeGrant grant) {
    this.grant = grant;
  }

  /** Free, and not held back for a lender whose claim has fallen due (unless it is theirs). */
  boolean grantableTo(String allocation) {
    return holder == null && (!claimDue || lender.equals(allocation));
  }

  void clearClaim() {
    lender = null;
    claimAtNs = 0;
    claimDue = false;
  }
}
