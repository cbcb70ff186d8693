package org.jdvm.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jdvm.scheduler.slurm.SlurmAllocation;
import org.jdvm.scheduler.slurm.SlurmCommands;
import org.jdvm.scheduler.slurm.SlurmSchedulerPort;
import org.jdvm.server.agents.AgentHub;
import org.jdvm.server.agents.HostList;
import org.jdvm.server.agents.ListenAddress;
import org.jdvm.server.agents.RemoteHosts;
import org.jdvm.server.agents.SrunAgentStarter;
import org.jdvm.server.agents.SshAgentStarter;

/**
 * The agents {@code jdvm start} starts (docs/cli.md "jdvm start"): on {@code --hosts} by ssh, on
 * the nodes of the Slurm allocation it runs in by {@code srun}, or, under {@code --scheduler slurm}
 * outside one, only on the nodes Slurm grants later; and the address they connect back to.
 */
final class StartAgents {
  /** How long {@code sinfo} may take to list the nodes' addresses. */
  static final long SINFO_TIMEOUT_MS = 15_000;

  private final String listen;
  private final String agentCommand;
  private final AgentHub.Settings settings;
  private final long joinTimeoutMillis;
  private final Consumer<String> progress;
  SlurmCommands slurmCommands = SlurmSchedulerPort.systemCommands(Map.of());

  StartAgents(
      String listen,
      String agentCommand,
      AgentHub.Settings settings,
      long joinTimeoutMillis,
      Consumer<String> progress) {
    this.listen = listen;
    this.agentCommand = agentCommand;
    this.settings = settings;
    this.joinTimeoutMillis = joinTimeoutMillis;
    this.progress = progress;
  }

  /** Agents on {@code hosts}, started by {@code launcher} (ssh). */
  RemoteHosts bySsh(List<HostList.Host> hosts, List<String> launcher) {
    List<String> others =
        hosts.stream().map(HostList.Host::name).filter(h -> !RemoteHosts.isThisHost(h)).toList();
    return remote(hosts, new SshAgentStarter(launcher), listenAddress(() -> others));
  }

  /** One agent per node of the allocation, each an {@code srun --overlap} step of its job. */
  RemoteHosts inSlurm(SlurmAllocation allocation) {
    List<String> nodes =
        allocation.nodes().stream()
            .map(n -> n.name())
            .filter(h -> !RemoteHosts.isThisHost(h))
            .toList();
    return remote(
        allocation.nodes().stream().map(n -> new HostList.Host(n.name(), n.slots())).toList(),
        SrunAgentStarter.inJob(slurmCommands, allocation.jobId()),
        listenAddress(() -> slurmNodeAddresses(nodes)));
  }

  /**
   * No start-up hosts; the nodes Slurm grants later each get an agent as a step of the job that
   * holds it (jdvm-server's {@code DvmServer} starts them), connecting back to an address that
   * routes to Slurm's nodes.
   */
  RemoteHosts slurmGrants() {
    SrunAgentStarter none =
        new SrunAgentStarter(
            slurmCommands,
            host -> {
              throw new IllegalArgumentException("no start-up node runs an agent");
            });
    return remote(List.of(), none, listenAddress(() -> slurmNodeAddresses(List.of())));
  }

  /**
   * An embedded DVM's virtual nodes each in a local agent, a child of the controller connecting
   * back over loopback ({@code jdvm start --node-agents}).
   */
  RemoteHosts local(List<org.jdvm.core.NodeSpec> pool) {
    List<String> command = new ArrayList<>(thisJdvm());
    command.addAll(1, StartCommand.DVM_JVM_ACCESS);
    return new RemoteHosts(
        pool.stream().map(n -> new HostList.Host(n.name(), n.slots())).toList(),
        new org.jdvm.server.agents.LocalAgentStarter(),
        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
        command,
        settings,
        joinTimeoutMillis,
        progress);
  }

  private RemoteHosts remote(
      List<HostList.Host> hosts,
      org.jdvm.server.agents.AgentStarter starter,
      InetSocketAddress address) {
    return new RemoteHosts(
        hosts,
        starter,
        address,
        agentCommand != null ? words(agentCommand, "--agent-command") : thisJdvm(),
        settings,
        joinTimeoutMillis,
        progress);
  }

  /**
   * {@code --listen}, else this host's name's address, or when that is loopback the address of the
   * interface that routes to {@code hosts} ({@link ListenAddress}); asked only then.
   */
  InetSocketAddress listenAddress(Supplier<List<String>> hosts) {
    try {
      if (listen != null) {
        return new InetSocketAddress(InetAddress.getByName(listen), 0);
      }
      InetAddress own = InetAddress.getLocalHost();
      if (!own.isLoopbackAddress()) {
        return new InetSocketAddress(own, 0);
      }
      return new InetSocketAddress(
          ListenAddress.pick(own, hosts.get(), InetAddress::getByName, ListenAddress.KERNEL), 0);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException(
          (listen != null ? "--listen: unknown host " : "this host's name does not resolve: ")
              + e.getMessage());
    }
  }

  /**
   * The addresses Slurm reaches {@code nodes} at (all its nodes when empty): their {@code
   * NodeAddr}, as {@code sinfo} lists them.
   */
  List<String> slurmNodeAddresses(List<String> nodes) {
    List<String> argv = new ArrayList<>(List.of("sinfo", "--noheader", "--Node", "--format=%o"));
    if (!nodes.isEmpty()) {
      argv.add("--nodes=" + String.join(",", nodes));
    }
    SlurmCommands.Result r;
    try {
      r = slurmCommands.run(argv, SINFO_TIMEOUT_MS);
    } catch (IOException e) {
      r = new SlurmCommands.Result(-1, "", e.getMessage());
    }
    LinkedHashSet<String> addresses = new LinkedHashSet<>();
    r.out().lines().map(String::strip).filter(l -> !l.isEmpty()).forEach(addresses::add);
    if (r.exit() != 0 || addresses.isEmpty()) {
      throw new IllegalArgumentException(
          "this host's name resolves to a loopback address and Slurm's node addresses are"
              + " unknown (sinfo: "
              + (r.exit() != 0 ? r.lastLine() : "no nodes")
              + "); give --listen ADDR");
    }
    return List.copyOf(addresses);
  }

  static List<String> words(String command, String option) {
    List<String> w = new ArrayList<>();
    for (String s : command.trim().split("\\s+")) {
      if (!s.isEmpty()) {
        w.add(s);
      }
    }
    if (w.isEmpty()) {
      throw new IllegalArgumentException(option + " is empty");
    }
    return w;
  }

  /** This JVM with this class path: hosts that share this file system run the same jdvm. */
  private static List<String> thisJdvm() {
    return List.of(
        ProcessHandle.current().info().command().orElse("java"),
        "-XX:TieredStopAtLevel=1",
        "-XX:+UseSerialGC",
        "-Xmx256m",
        "-cp",
        System.getProperty("java.class.path"),
        Main.class.getName());
  }
}
