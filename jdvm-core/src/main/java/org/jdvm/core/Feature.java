package org.jdvm.core;

import org.jdvm.pmix.PmixKeys;

/**
 * The five optional attributes of spec §8.2.1.4. A DVM may run with any of them disabled
 * (decisions.md #16); the core then behaves exactly as spec §8.2.1.10 prescribes for a PMIx that
 * lacks the attribute.
 */
public enum Feature {
  /** Without it an allocation is always reserved to the requester's own namespace. */
  TARGET(PmixKeys.ALLOC_TARGET),
  /**
   * Without it the "reserve" default applies: no dynamic request routes nodes to the default pool.
   */
  SHARE(PmixKeys.ALLOC_SHARE),
  /** Without it every reservation takes DEFAULT; a non-default value is refused NOT_SUPPORTED. */
  INHERITANCE(PmixKeys.ALLOC_INHERITANCE),
  /** Without it no advance warning is requested from the scheduler, and none is relayed. */
  WARN_TIMEOUT(PmixKeys.ALLOC_WARN_TIMEOUT),
  /** Without it a spawn uses the single-session attributes, the parent's or the default session. */
  SPAWN_TARGET(PmixKeys.SPAWN_TARGET);

  private final String key;

  Feature(String key) {
    this.key = key;
  }

  /** The PMIx attribute key this feature stands for. */
  public String key() {
    return key;
  }
}
