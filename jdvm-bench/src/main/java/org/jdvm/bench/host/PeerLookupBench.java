package org.jdvm.bench.host;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BiFunction;
import org.jdvm.host.identity.LoopbackPeers;

/**
 * What naming one connecting peer costs as the host's loopback connections grow (docs/protocol.md
 * "Who a peer is"): for each N, N connections are held open (their connecting ends by a child JVM,
 * their accepted ends by this one, so no process passes the 20,000-descriptor limit), then a new
 * connection is made and accepted again and again, and each time its peer is named as a PMIx
 * listener names it — by the kernel's tables ({@code /proc/net/tcp} and {@code tcp6}, what every
 * connect did before) and by one {@code sock_diag} look-up (what it does now) — and, on the same
 * connection, the whole connect, accept and look-up. Prints one line per N and method: the median
 * and the 90th percentile in microseconds, and how many lines the tables held; and first how long
 * the N connections took to be accepted and named as they came, by what connects use here.
 *
 * <p>Run: {@code java --enable-native-access=ALL-UNNAMED -cp "$JDVM_CP"
 * org.jdvm.bench.host.PeerLookupBench 100,1000,10000} (the class path of {@code build/launch.sh}).
 * Benchmarks are not tests: nothing here asserts a time.
 */
public final class PeerLookupBench {
  private static final InetAddress LO = InetAddress.getLoopbackAddress();

  private PeerLookupBench() {}

  public static void main(String[] args) throws Exception {
    List<Integer> sizes =
        Arrays.stream((args.length > 0 ? args[0] : "100,1000,10000").split(","))
            .map(Integer::parseInt)
            .toList();
    if (args.length == 4 && args[1].equals("--hold")) {
      hold(sizes.getFirst(), new InetSocketAddress(args[2], Integer.parseInt(args[3])));
      return;
    }
    PrintStream out = System.out;
    out.println("peer lookup: " + LoopbackPeers.lookup() + " is what connects use here");
    out.println("open-conns  method         median-us      p90-us  table-lines");
    for (int n : sizes) {
      one(n, out);
    }
  }

  private static void one(int n, PrintStream out) throws Exception {
    try (ServerSocketChannel server = ServerSocketChannel.open()) {
      server.bind(new InetSocketAddress(LO, 0), 4096);
      List<SocketChannel> held = new ArrayList<>(n);
      Process child = holder(n, (InetSocketAddress) server.getLocalAddress());
      try {
        long t0 = 0;
        while (held.size() < n) {
          SocketChannel a = server.accept();
          t0 = held.isEmpty() ? System.nanoTime() : t0; // from the first: not the child's start
          held.add(a);
          LoopbackPeers.ownerOf(
              (InetSocketAddress) a.getRemoteAddress(), (InetSocketAddress) a.getLocalAddress());
        }
        double floodMs = (System.nanoTime() - t0) / 1e6;
        out.printf(
            Locale.ROOT,
            "%10d  %s: %d connects, as they came, accepted and named in %.0f ms (%.1f us each)%n",
            n,
            LoopbackPeers.lookup(),
            n,
            floodMs,
            floodMs * 1e3 / n);
        long lines = tableLines();
        int samples = n >= 10_000 ? 60 : 300;
        measure(out, n, "tables", server, samples, LoopbackPeers::ownerFromTables, lines);
        measure(out, n, "sock_diag", server, samples * 4, PeerLookupBench::kernel, lines);
      } finally {
        child.getOutputStream().close();
        child.waitFor();
        for (SocketChannel s : held) {
          s.close();
        }
      }
    }
  }

  private static Optional<LoopbackPeers.SocketOwner> kernel(
      InetSocketAddress peer, InetSocketAddress local) {
    return LoopbackPeers.lookup().equals("sock_diag")
        ? LoopbackPeers.ownerOf(peer, local)
        : Optional.empty();
  }

  /** {@code samples} new connections, each named by {@code lookup}; a warm-up as long first. */
  private static void measure(
      PrintStream out,
      int n,
      String method,
      ServerSocketChannel server,
      int samples,
      BiFunction<InetSocketAddress, InetSocketAddress, Optional<LoopbackPeers.SocketOwner>> lookup,
      long lines)
      throws IOException {
    long[] lookups = new long[samples];
    long[] connects = new long[samples];
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < samples; i++) {
        long t0 = System.nanoTime();
        try (SocketChannel c = SocketChannel.open(server.getLocalAddress());
            SocketChannel a = server.accept()) {
          long t1 = System.nanoTime();
          Optional<LoopbackPeers.SocketOwner> o =
              lookup.apply(
                  (InetSocketAddress) a.getRemoteAddress(),
                  (InetSocketAddress) a.getLocalAddress());
          long t2 = System.nanoTime();
          if (o.isEmpty()) {
            throw new IllegalStateException(method + " did not name a loopback peer");
          }
          lookups[i] = t2 - t1;
          connects[i] = t2 - t0;
        }
      }
    }
    print(out, n, method + " lookup", lookups, lines);
    print(out, n, method + " +connect", connects, lines);
  }

  private static void print(PrintStream out, int n, String what, long[] ns, long lines) {
    long[] s = ns.clone();
    Arrays.sort(s);
    out.printf(
        Locale.ROOT,
        "%10d  %-20s %9.1f %11.1f  %11d%n",
        n,
        what,
        s[s.length / 2] / 1e3,
        s[s.length * 9 / 10] / 1e3,
        lines);
    out.flush();
  }

  private static long tableLines() throws IOException {
    long lines = 0;
    for (String t : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      try (var l = Files.lines(Path.of(t))) {
        lines += l.count() - 1;
      }
    }
    return lines;
  }

  /** A child JVM that opens {@code n} connections to {@code to} and holds them until stdin ends. */
  private static Process holder(int n, InetSocketAddress to) throws IOException {
    return new ProcessBuilder(
            ProcessHandle.current().info().command().orElse("java"),
            "-XX:+UseSerialGC",
            "-cp",
            System.getProperty("java.class.path"),
            PeerLookupBench.class.getName(),
            Integer.toString(n),
            "--hold",
            to.getAddress().getHostAddress(),
            Integer.toString(to.getPort()))
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
  }

  private static void hold(int n, InetSocketAddress to) throws IOException {
    List<SocketChannel> held = new ArrayList<>(n);
    try {
      for (int i = 0; i < n; i++) {
        held.add(SocketChannel.open(to));
      }
      new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII)).readLine();
    } finally {
      for (SocketChannel s : held) {
        s.close();
      }
    }
  }
}
