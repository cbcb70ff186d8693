package org.jdvm.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import org.jdvm.agent.AgentDaemon;
import org.jdvm.agent.AgentRelay;
import org.jdvm.host.identity.Credentials;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jdvm agent}: the node agent of one host, as {@code jdvm start --hosts} starts it through
 * ssh (docs/cli.md). It reads the DVM's secret from its standard input — one line of hex — so the
 * secret is on no command line and in no environment.
 */
@Command(
    description = "Run this host's node agent for a DVM (started by jdvm start --hosts).",
    mixinStandardHelpOptions = true)
public final class AgentCommand implements Callable<Integer> {
  /** The longest secret line read from standard input. */
  static final int MAX_SECRET_CHARS = 1024;

  /** How long a TERMed agent may take to end its processes before its JVM exits anyway. */
  static final long STOP_MILLIS = 10_000;

  @Option(
      names = "--controller",
      required = true,
      paramLabel = "HOST:PORT",
      description = "Where the controller listens for agents.")
  String controller;

  @Option(
      names = "--node",
      paramLabel = "NAME",
      description = "The node this agent joins as (default: this host's name).")
  String node = "";

  @Option(
      names = "--slots",
      paramLabel = "N",
      description = "Slots offered (default 0: the host list decides, else the cpus).")
  int slots;

  @Option(
      names = "--reconnect-ms",
      paramLabel = "MS",
      description =
          "How long to keep running and try to join again after the link broke, also across a"
              + " controller restart (default 60000).")
  long reconnectMillis = 60_000;

  InputStream in = System.in;
  PrintStream err = System.err;

  @Override
  public Integer call() {
    InetSocketAddress address;
    Credentials credentials;
    try {
      address = address(controller);
      credentials = Credentials.fromSecretHex(readSecret(in));
    } catch (IllegalArgumentException e) {
      err.println("jdvm agent: " + e.getMessage());
      return Main.EXIT_USAGE;
    }
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      host = "localhost";
    }
    AgentDaemon agent =
        new AgentDaemon(
            new AgentDaemon.Options(
                address, node, host, slots, reconnectMillis, AgentRelay.hook(credentials)),
            credentials,
            System::nanoTime);
    // A TERM ends the processes before the JVM exits: the hook waits for run() to finish them.
    Runtime.getRuntime()
        .addShutdownHook(
            Thread.ofPlatform()
                .unstarted(
                    () -> {
                      agent.stop();
                      try {
                        agent.awaitEnd(STOP_MILLIS);
                      } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                      }
                    }));
    AgentDaemon.Exit exit = agent.run();
    if (exit != AgentDaemon.Exit.BYE) {
      err.println("jdvm agent: " + exit.name().toLowerCase(java.util.Locale.ROOT) + " (see log)");
    }
    return exit.code;
  }

  static InetSocketAddress address(String hostPort) {
    int colon = hostPort.lastIndexOf(':');
    if (colon <= 0) {
      throw new IllegalArgumentException("--controller takes HOST:PORT, not '" + hostPort + "'");
    }
    int port;
    try {
      port = Integer.parseInt(hostPort.substring(colon + 1));
    } catch (NumberFormatException e) {
      port = -1;
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("--controller " + hostPort + ": bad port");
    }
    return new InetSocketAddress(hostPort.substring(0, colon), port);
  }

  /** One line of hex from standard input, read byte by byte so nothing past it is consumed. */
  static String readSecret(InputStream in) {
    StringBuilder b = new StringBuilder();
    try {
      int c;
      while ((c = in.read()) >= 0 && c != '\n') {
        if (b.length() >= MAX_SECRET_CHARS) {
          throw new IllegalArgumentException("the secret on standard input is too long");
        }
        b.append((char) c);
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read the secret from standard input: " + e);
    }
    String s = b.toString().trim();
    if (s.isEmpty() || !s.matches("[0-9a-fA-F]+") || s.length() % 2 != 0) {
      throw new IllegalArgumentException(
          "expected the DVM's secret (hex) as the first line of standard input");
    }
    return new String(s.getBytes(StandardCharsets.US_ASCII), StandardCharsets.US_ASCII);
  }
}
