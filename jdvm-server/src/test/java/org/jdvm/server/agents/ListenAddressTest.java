package org.jdvm.server.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The address agents connect back to when {@code --listen} is not given. */
class ListenAddressTest {
  private static final InetAddress LOOPBACK = ip("127.0.1.1");

  /** A network of two interfaces: 10.1.0.0/16 through 10.1.0.1, 192.168.5.0/24 through .1. */
  private static final ListenAddress.Route ROUTES =
      to -> {
        String a = to.getHostAddress();
        if (a.startsWith("10.1.")) {
          return ip("10.1.0.1");
        }
        if (a.startsWith("192.168.5.")) {
          return ip("192.168.5.1");
        }
        throw new IOException("Network is unreachable");
      };

  private static final Map<String, String> NAMES =
      Map.of(
          "n1", "10.1.0.11",
          "n2", "10.1.0.12",
          "gpu1", "192.168.5.20",
          "far", "172.31.0.9",
          "lo", "127.0.0.1");

  private static InetAddress resolve(String host) throws UnknownHostException {
    String a = NAMES.get(host);
    if (a == null && !host.matches("[0-9.]+")) {
      throw new UnknownHostException(host);
    }
    return InetAddress.getByName(a != null ? a : host);
  }

  private static InetAddress pick(InetAddress own, String... hosts) {
    return ListenAddress.pick(own, List.of(hosts), ListenAddressTest::resolve, ROUTES);
  }

  @Test
  void aNameThatResolvesToAReachableAddressIsKept() {
    InetAddress own = ip("10.1.0.1");
    assertThat(pick(own, "gpu1")).isEqualTo(own);
  }

  @Test
  void aLoopbackNameGivesWayToTheInterfaceThatRoutesToTheHosts() {
    assertThat(pick(LOOPBACK, "n1", "n2")).isEqualTo(ip("10.1.0.1"));
    assertThat(pick(LOOPBACK, "10.1.0.77")).isEqualTo(ip("10.1.0.1"));
    assertThat(pick(LOOPBACK, "gpu1")).isEqualTo(ip("192.168.5.1"));
  }

  @Test
  void hostsOnThisHostsLoopbackAreReachedThere() {
    // Slurm's test cluster: every node's address is 127.0.0.1
    assertThat(pick(LOOPBACK, "lo", "127.0.0.1")).isEqualTo(ip("127.0.0.1"));
  }

  @Test
  void noOtherHostKeepsThisHostsOwnAddress() {
    assertThat(pick(LOOPBACK)).isEqualTo(LOOPBACK);
  }

  @Test
  void hostsBehindDifferentInterfacesAskForListenNamingEach() {
    assertThatThrownBy(() -> pick(LOOPBACK, "n1", "gpu1", "n2"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "this host's name resolves to 127.0.1.1 and the hosts are reached through different"
                + " addresses (n1,n2 via 10.1.0.1; gpu1 via 192.168.5.1); give --listen ADDR");
  }

  @Test
  void aHostThatDoesNotResolveOrRouteAsksForListen() {
    assertThatThrownBy(() -> pick(LOOPBACK, "n1", "nowhere"))
        .hasMessageContaining("nowhere does not resolve")
        .hasMessageEndingWith("give --listen ADDR");
    assertThatThrownBy(() -> pick(LOOPBACK, "far"))
        .hasMessageContaining("no route to far (Network is unreachable)")
        .hasMessageEndingWith("give --listen ADDR");
  }

  @Test
  void theKernelsRouteToLoopbackIsLoopback() throws IOException {
    assertThat(ListenAddress.KERNEL.from(ip("127.0.0.1")).isLoopbackAddress()).isTrue();
  }

  private static InetAddress ip(String literal) {
    try {
      return InetAddress.getByName(literal);
    } catch (UnknownHostException e) {
      throw new AssertionError(e);
    }
  }
}
