package org.jdvm.cli;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jdvm.agent.AgentDaemon;
import org.jdvm.agent.AgentRelay;
import org.jdvm.host.identity.Credentials;
import org.jdvm.server.agents.AgentStarter;

/**
 * Starts each agent of a DVM in this JVM, with the relay {@code jdvm agent} opens, for tests that
 * need a node agent's relay or link without a host to ssh to; {@link #relays} are the relays the
 * agents opened.
 */
final class InJvmAgents implements AgentStarter {
  final List<AgentRelay> relays = new java.util.concurrent.CopyOnWriteArrayList<>();

  @Override
  public Handle start(String host, List<String> argv, byte[] secret) {
    String controller = argv.get(argv.indexOf("--controller") + 1);
    int colon = controller.lastIndexOf(':');
    Credentials credentials =
        Credentials.fromSecretHex(new String(secret, StandardCharsets.US_ASCII));
    AgentDaemon daemon =
        new AgentDaemon(
            new AgentDaemon.Options(
                new InetSocketAddress(
                    controller.substring(0, colon),
                    Integer.parseInt(controller.substring(colon + 1))),
                argv.get(argv.indexOf("--node") + 1),
                host,
                Integer.parseInt(argv.get(argv.indexOf("--slots") + 1)),
                60_000,
                port -> {
                  AgentRelay relay = (AgentRelay) AgentRelay.hook(credentials).apply(port);
                  relays.add(relay);
                  return relay;
                }),
            credentials,
            System::nanoTime);
    CompletableFuture<Integer> exit = new CompletableFuture<>();
    Thread.ofPlatform()
        .daemon()
        .name("test-agent-" + host)
        .start(() -> exit.complete(daemon.run().code));
    return new Handle() {
      @Override
      public long pid() {
        return ProcessHandle.current().pid();
      }

      @Override
      public CompletableFuture<Integer> onExit() {
        return exit;
      }

      @Override
      public String lastOutput() {
        return "";
      }

      @Override
      public void stop() {
        daemon.stop();
      }
    };
  }
}
