package org.jdvm.server.agents;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The address agents connect back to when {@code --listen} is not given (docs/cli.md "jdvm start"):
 * this host's name's address, unless it is a loopback address (a common {@code /etc/hosts} line);
 * then the address of the interface that routes to the hosts, as the kernel picks it for a
 * connected UDP socket (no packet is sent). When the hosts are reached through different addresses,
 * or one cannot be resolved or routed to, there is no single answer and the caller is told to give
 * {@code --listen}.
 */
public final class ListenAddress {
  private ListenAddress() {}

  /** Name to address, as {@link InetAddress#getByName}. */
  @FunctionalInterface
  public interface Resolver {
    InetAddress resolve(String host) throws UnknownHostException;
  }

  /** The local address this host sends from to reach {@code to}. */
  @FunctionalInterface
  public interface Route {
    InetAddress from(InetAddress to) throws IOException;
  }

  /** The kernel's answer: the source address of a UDP socket connected to {@code to}. */
  public static final Route KERNEL =
      to -> {
        try (DatagramSocket s = new DatagramSocket()) {
          s.connect(to, 9); // discard port; connect() only looks the route up
          return s.getLocalAddress();
        }
      };

  /**
   * The address to listen on.
   *
   * @param own this host's name's address
   * @param hosts the other hosts, by name or address (this host's own entries left out)
   * @throws IllegalArgumentException one line saying why there is no single answer, ending with
   *     "give --listen ADDR"
   */
  public static InetAddress pick(
      InetAddress own, List<String> hosts, Resolver resolver, Route route) {
    if (!own.isLoopbackAddress() || hosts.isEmpty()) {
      return own;
    }
    Map<InetAddress, String> byLocal = new LinkedHashMap<>();
    for (String host : hosts) {
      InetAddress local = localFor(host, resolver, route);
      byLocal.merge(local, host, (a, b) -> a + "," + b);
    }
    if (byLocal.size() == 1) {
      return byLocal.keySet().iterator().next();
    }
    StringJoiner via = new StringJoiner("; ");
    byLocal.forEach((local, names) -> via.add(names + " via " + local.getHostAddress()));
    throw new IllegalArgumentException(
        "this host's name resolves to "
            + own.getHostAddress()
            + " and the hosts are reached through different addresses ("
            + via
            + "); give --listen ADDR");
  }

  private static InetAddress localFor(String host, Resolver resolver, Route route) {
    String why;
    try {
      InetAddress to = resolver.resolve(host);
      InetAddress local = to.isLoopbackAddress() ? to : route.from(to);
      if (local != null && !local.isAnyLocalAddress()) {
        return local;
      }
      why = "no route to " + host + " (" + to.getHostAddress() + ")";
    } catch (UnknownHostException e) {
      why = host + " does not resolve";
    } catch (IOException e) {
      why = "no route to " + host + " (" + e.getMessage() + ")";
    }
    throw new IllegalArgumentException(
        "this host's name resolves to a loopback address and "
            + why
            + ", so the address the hosts reach this host by is unknown; give --listen ADDR");
  }
}
