package org.jdvm.server;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.LongSupplier;
import org.jdvm.core.Feature;
import org.jdvm.core.Limits;
import org.jdvm.core.NodeSpec;
import org.jdvm.scheduler.EmbeddedSchedulerPort;
import org.jdvm.scheduler.NoSchedulerPort;
import org.jdvm.scheduler.NodeGrant;
import org.jdvm.scheduler.SchedulerPort;
import org.jdvm.scheduler.slurm.SlurmSchedulerPort;
import org.jdvm.server.journal.FsyncPolicy;

/**
 * How a DVM is started (architecture.md §5; docs/cli.md "jdvm start").
 *
 * @param name the DVM's name; namespaces are {@code <name>@<n>}
 * @param startupNodes the start-up pool; the first is the controller's own node
 * @param spareNodes the embedded scheduler's pool (ignored by the other schedulers)
 * @param scheduler which scheduler serves requests for new nodes
 * @param disabledFeatures attributes the DVM runs without (decisions.md #16)
 * @param home the DVM's directory: contact file, secrets, log, scratch
 * @param shrinkGraceMillis how long processes get between TERM and KILL whenever jdvm ends them (a
 *     job killed or aborted, a node departing, the DVM stopping); 1 s by default, as {@code mpirun}
 *     ({@code odls_base_sigkill_timeout})
 * @param limits what clients may make the core hold ({@link Limits#DEFAULT} unless set)
 * @param fsync when the journal forces its writes to the disk
 * @param discardJournalAfter what of a damaged journal recovery gives up (docs/journal.md "A
 *     damaged journal"), or {@code null}: nothing
 */
public record DvmConfig(
    String name,
    List<NodeSpec> startupNodes,
    List<NodeGrant> spareNodes,
    SchedulerKind scheduler,
    Set<Feature> disabledFeatures,
    Path home,
    long shrinkGraceMillis,
    Limits limits,
    FsyncPolicy fsync,
    org.jdvm.core.engine.Recovery.Discard discardJournalAfter,
    org.jdvm.server.home.ToolRendezvous.Mode rendezvous) {
  /**
   * Which scheduler a DVM uses, and the one place where each kind's port is opened: everything else
   * speaks to a {@link SchedulerPort} (journaling, restore and recovery included).
   */
  public enum SchedulerKind {
    /** The embedded scheduler, granting from the spare nodes. */
    EMBEDDED,
    /** No scheduler: only the start-up nodes. */
    NONE,
    /** A real Slurm: asks become Slurm jobs ({@code org.jdvm.scheduler.slurm}). */
    SLURM;

    /**
     * This kind's port.
     *
     * @param spareNodes the embedded scheduler's pool (ignored by the other kinds)
     * @param clockNs the DVM's monotonic clock, in which deadlines are given
     */
    public SchedulerPort open(List<NodeGrant> spareNodes, LongSupplier clockNs) {
      return switch (this) {
        case EMBEDDED -> new EmbeddedSchedulerPort(spareNodes, clockNs);
        case SLURM ->
            new SlurmSchedulerPort(
                SlurmSchedulerPort.systemCommands(Map.of()),
                SlurmSchedulerPort.Config.fromEnvironment(System.getenv()),
                clockNs,
                System::currentTimeMillis);
        case NONE -> new NoSchedulerPort();
      };
    }
  }

  public DvmConfig {
    Objects.requireNonNull(name, "name");
    startupNodes = List.copyOf(startupNodes);
    spareNodes = List.copyOf(spareNodes);
    disabledFeatures = Set.copyOf(disabledFeatures);
    Objects.requireNonNull(home, "home");
    Objects.requireNonNull(limits, "limits");
    Objects.requireNonNull(fsync, "fsync");
    Objects.requireNonNull(rendezvous, "rendezvous");
  }

  /**
   * The embedded default: {@code nodes} virtual start-up nodes {@code node0..} and {@code spare}
   * nodes in the scheduler's pool, named on from there, every node with {@code slots} slots.
   */
  public static DvmConfig embedded(String name, int nodes, int slots, int spare, Path home) {
    List<NodeSpec> start = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      start.add(new NodeSpec("node" + i, slots));
    }
    List<NodeGrant> pool = new ArrayList<>();
    for (int i = 0; i < spare; i++) {
      pool.add(new NodeGrant("node" + (nodes + i), slots));
    }
    return new DvmConfig(
        name,
        start,
        pool,
        SchedulerKind.EMBEDDED,
        Set.of(),
        home,
        1000,
        Limits.DEFAULT,
        FsyncPolicy.INTERVAL,
        null,
        org.jdvm.server.home.ToolRendezvous.Mode.SESSION);
  }

  public DvmConfig withName(String n) {
    return edit(e -> e.name = n);
  }

  public DvmConfig withScheduler(SchedulerKind kind) {
    return edit(e -> e.scheduler = kind);
  }

  public DvmConfig without(Set<Feature> features) {
    return edit(e -> e.disabledFeatures = features);
  }

  public DvmConfig withShrinkGrace(long millis) {
    return edit(e -> e.shrinkGraceMillis = millis);
  }

  /** With this journal fsync policy (docs/journal.md "Durability"). */
  public DvmConfig withFsync(FsyncPolicy policy) {
    return edit(e -> e.fsync = policy);
  }

  /** Giving up what {@code discard} names of a damaged journal at recovery. */
  public DvmConfig discardingJournalAfter(org.jdvm.core.engine.Recovery.Discard discard) {
    return edit(e -> e.discardJournalAfter = discard);
  }

  public DvmConfig limitedBy(Limits l) {
    return edit(e -> e.limits = l);
  }

  /** The same configuration with these start-up nodes (a Slurm allocation's, say). */
  public DvmConfig withStartupNodes(List<NodeSpec> nodes) {
    return edit(e -> e.startupNodes = nodes);
  }

  /** Writing these PMIx tool rendezvous files (docs/protocol.md "Tool rendezvous"). */
  public DvmConfig withRendezvous(org.jdvm.server.home.ToolRendezvous.Mode mode) {
    return edit(e -> e.rendezvous = mode);
  }

  /** This configuration with {@code change} applied: every wither in one place. */
  private DvmConfig edit(java.util.function.Consumer<Edit> change) {
    Edit e = new Edit(this);
    change.accept(e);
    return new DvmConfig(
        e.name,
        e.startupNodes,
        e.spareNodes,
        e.scheduler,
        e.disabledFeatures,
        e.home,
        e.shrinkGraceMillis,
        e.limits,
        e.fsync,
        e.discardJournalAfter,
        e.rendezvous);
  }

  /** The components of a configuration being copied with a change. */
  private static final class Edit {
    String name;
    List<NodeSpec> startupNodes;
    List<NodeGrant> spareNodes;
    SchedulerKind scheduler;
    Set<Feature> disabledFeatures;
    Path home;
    long shrinkGraceMillis;
    Limits limits;
    FsyncPolicy fsync;
    org.jdvm.core.engine.Recovery.Discard discardJournalAfter;
    org.jdvm.server.home.ToolRendezvous.Mode rendezvous;

    Edit(DvmConfig c) {
      name = c.name;
      startupNodes = c.startupNodes;
      spareNodes = c.spareNodes;
      scheduler = c.scheduler;
      disabledFeatures = c.disabledFeatures;
      home = c.home;
      shrinkGraceMillis = c.shrinkGraceMillis;
      limits = c.limits;
      fsync = c.fsync;
      discardJournalAfter = c.discardJournalAfter;
      rendezvous = c.rendezvous;
    }
  }
}
