package org.jdvm.core;

import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What the core is started with.
 *
 * @param dvmName the DVM's name; namespaces are minted as {@code <dvmName>@<n>}, and {@code
 *     <dvmName>@0} is the controller's own namespace, the source of the events the core relays
 * @param startupPool the nodes found at start-up; they form the default session, and the first is
 *     the controller's own node, which is never shrunk out of the DVM
 * @param disabledFeatures the attributes this DVM runs without (decisions.md #16)
 * @param retainedTerminatedJobs how many terminated jobs stay visible to queries once nothing needs
 *     them any more; older ones are retired, so a long-lived DVM's job table stays bounded
 * @param limits the bounds on everything a client can make the core hold; the start-up pool must
 *     fit in {@link Limits#nodesInDvm()}
 */
public record CoreConfig(
    String dvmName,
    List<NodeSpec> startupPool,
    Set<Feature> disabledFeatures,
    int retainedTerminatedJobs,
    Limits limits) {

  public static final int DEFAULT_RETAINED_TERMINATED_JOBS = 10_000;

  public CoreConfig {
    Objects.requireNonNull(dvmName, "dvmName");
    if (dvmName.isEmpty() || dvmName.contains("@")) {
      throw new IllegalArgumentException("a DVM name is non-empty and has no '@': " + dvmName);
    }
    startupPool = List.copyOf(startupPool);
    if (startupPool.isEmpty()) {
      throw new IllegalArgumentException("the start-up pool holds at least the controller's node");
    }
    Set<String> names = new HashSet<>();
    for (NodeSpec n : startupPool.subList(1, startupPool.size())) {
      if (n.slots() < 1) {
        throw new IllegalArgumentException("node " + n.name() + " needs at least one slot");
      }
    }
    for (NodeSpec n : startupPool) {
      if (!names.add(n.name())) {
        throw new IllegalArgumentException("node " + n.name() + " is listed twice");
      }
    }
    disabledFeatures =
        disabledFeatures.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(disabledFeatures));
    if (retainedTerminatedJobs < 0) {
      throw new IllegalArgumentException("retainedTerminatedJobs < 0");
    }
    Objects.requireNonNull(limits, "limits");
    if (startupPool.size() > limits.nodesInDvm()) {
      throw new IllegalArgumentException(
          "the start-up pool has "
              + startupPool.size()
              + " nodes, above the limit of "
              + limits.nodesInDvm());
    }
  }

  /** A configuration with every feature enabled, the default job retention and default limits. */
  public static CoreConfig of(String dvmName, List<NodeSpec> startupPool) {
    return new CoreConfig(
        dvmName, startupPool, Set.of(), DEFAULT_RETAINED_TERMINATED_JOBS, Limits.DEFAULT);
  }

  /** The same configuration without these features. */
  public CoreConfig without(Set<Feature> features) {
    Set<Feature> all = EnumSet.noneOf(Feature.class);
    all.addAll(disabledFeatures);
    all.addAll(features);
    return new CoreConfig(dvmName, startupPool, all, retainedTerminatedJobs, limits);
  }

  /** The same configuration with another retention bound. */
  public CoreConfig retaining(int terminatedJobs) {
    return new CoreConfig(dvmName, startupPool, disabledFeatures, terminatedJobs, limits);
  }

  /** The same configuration with these limits. */
  public CoreConfig limitedBy(Limits newLimits) {
    return new CoreConfig(
        dvmName, startupPool, disabledFeatures, retainedTerminatedJobs, newLimits);
  }

  public boolean enabled(Feature feature) {
    return !disabledFeatures.contains(feature);
  }

  /** The controller's own node: the first of the start-up pool. */
  public String controllerNode() {
    return startupPool.get(0).name();
  }

  /** The controller's own namespace, the source of every event the core emits. */
  public String controllerNamespace() {
    return dvmName + "@0";
  }
}
