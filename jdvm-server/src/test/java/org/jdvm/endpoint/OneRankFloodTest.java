package org.jdvm.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.jdvm.pmix.App;
import org.jdvm.pmix.BufferType;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PackedBuffer;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Query;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One rank cannot slow everyone (docs/protocol.md "What one peer may cost"): a rank that sends one
 * kind of request as fast as its socket takes them, never waiting for a reply, while the owner's
 * tool lists the namespaces again and again. Every one of the owner's queries must be answered
 * within the peer's read timeout (10 s, a liveness bound, not a speed assertion); the latencies are
 * printed. Before the pacing, a query flood queued its reads on the controller thread ahead of the
 * owner's, without bound, and the owner's query waited longer the longer the flood went on.
 */
class OneRankFloodTest {
  /** How long the owner keeps asking during the flood. */
  private static final long OWNER_SECONDS = 5;

  /**
   * The most the controller's queue may hold during one rank's flood: the rank's bound of requests
   * in flight ({@code EndpointLimits.DEFAULT}, 16), the owner's one, and room for the DVM's own
   * reports and timers.
   */
  private static final int QUEUE_BOUND = 16 + 1 + 64;

  @TempDir Path home;
  private EndpointFixture f;
  private RawPeer spawner;
  private final AtomicBoolean stop = new AtomicBoolean();
  private final List<Thread> threads = new ArrayList<>();

  @BeforeEach
  void start() throws IOException {
    f = new EndpointFixture(home, 1, 2, 2);
    spawner = RawPeer.tool(f.endpoint.tcpAddress());
  }

  @AfterEach
  void stop() throws Exception {
    stop.set(true);
    spawner.close();
    f.close();
    for (Thread t : threads) {
      t.join(TimeUnit.SECONDS.toMillis(20));
    }
  }

  @Test
  void aCommitFloodLeavesTheOwnersQueriesAnswered() throws Exception {
    flood("commit", r -> commit(r, "x".repeat(1000)));
  }

  @Test
  void aGetFloodLeavesTheOwnersQueriesAnswered() throws Exception {
    flood(
        "get",
        r ->
            new Packer(r.format)
                .packCommand(Commands.GETNB_CMD)
                .packString(r.self().nspace())
                .packInteger(DataType.PROC_RANK, 1)
                .packInfos(List.of(Info.of(PmixKeys.IMMEDIATE, Value.bool(true))))
                .packString("never.committed")
                .toByteArray());
  }

  @Test
  void aQueryFloodLeavesTheOwnersQueriesAnswered() throws Exception {
    flood("query", r -> queryNamespaces(r.format));
  }

  @Test
  void aLogFloodLeavesTheOwnersQueriesAnswered() throws Exception {
    flood(
        "log",
        r ->
            new Packer(r.format)
                .packCommand(Commands.LOG_CMD)
                .packInteger(DataType.TIME, 0)
                .packInfos(List.of(Info.of(PmixKeys.LOG_STDERR, Value.string("flood"))))
                .packInfos(List.of())
                .toByteArray());
  }

  /** What one flooding frame is, for the rank that sends it. */
  interface Frame {
    byte[] of(RawPeer rank);
  }

  private void flood(String what, Frame frame) throws Exception {
    RawPeer rank = rank0();
    byte[] body = frame.of(rank);
    AtomicLong sent = new AtomicLong();
    AtomicLong answered = new AtomicLong();
    drain(spawner, new AtomicLong());
    drain(rank, answered);
    threads.add(
        Thread.ofPlatform()
            .daemon()
            .start(
                () -> {
                  try (rank) {
                    while (!stop.get()) {
                      rank.send(body);
                      sent.incrementAndGet();
                    }
                  } catch (IOException e) {
                    // the test is over: the socket was closed
                  }
                }));
    List<Double> ms = new ArrayList<>();
    int mostQueued = 0;
    try (RawPeer owner = RawPeer.tool(f.endpoint.tcpAddress())) {
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(OWNER_SECONDS);
      while (System.nanoTime() < end) {
        long t0 = System.nanoTime();
        int tag = owner.send(queryNamespaces(owner.format));
        assertThat(owner.reply(tag).body().unpackStatus()).isEqualTo(PmixStatus.SUCCESS);
        ms.add((System.nanoTime() - t0) / 1e6);
        mostQueued = Math.max(mostQueued, f.dvm.queued());
        Thread.sleep(50);
      }
    }
    System.out.println(
        what
            + " flood: "
            + latencies(ms)
            + "; rank sent "
            + sent
            + ", answered "
            + answered
            + "; most waiting for the controller "
            + mostQueued);
    assertThat(ms).isNotEmpty();
    // what the rank may have waiting for the controller (and the owner, and the DVM's own work)
    assertThat(mostQueued)
        .as("requests waiting for the controller thread during the flood")
        .isLessThanOrEqualTo(QUEUE_BOUND);
  }

  /** p50, p99 and max of the owner's latencies, as the report gives them. */
  static String latencies(List<Double> ms) {
    List<Double> sorted = new ArrayList<>(ms);
    Collections.sort(sorted);
    return String.format(
        "owner's %d calls p50 %.1f ms, p99 %.1f ms, max %.1f ms",
        sorted.size(),
        sorted.get(sorted.size() / 2),
        sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(sorted.size() * 0.99) - 1)),
        sorted.get(sorted.size() - 1));
  }

  /** Reads and drops what {@code peer} is sent until the test stops, counting it. */
  private void drain(RawPeer peer, AtomicLong count) {
    threads.add(
        Thread.ofPlatform()
            .daemon()
            .start(
                () -> {
                  try {
                    while (!stop.get()) {
                      try {
                        peer.read();
                        count.incrementAndGet();
                      } catch (java.net.SocketTimeoutException e) {
                        // nothing this while: ask again unless stopped
                      }
                    }
                  } catch (IOException e) {
                    // closed
                  }
                }));
  }

  static byte[] queryNamespaces(org.jdvm.pmix.WireFormat format) {
    return new Packer(format)
        .packCommand(Commands.QUERY_CMD)
        .packQueries(List.of(new Query(List.of("pmix.qry.ns"), List.of())))
        .toByteArray();
  }

  static byte[] commit(RawPeer rank, String value) {
    return commit(rank, "flood", value);
  }

  static byte[] commit(RawPeer rank, String key, String value) {
    byte[] kvals =
        new Packer(rank.format)
            .pack(DataType.KVAL, new KVal(key, Value.string(value)))
            .toByteArray();
    return new Packer(rank.format)
        .packCommand(Commands.COMMIT_CMD)
        .packInteger(DataType.SCOPE, 3)
        .packBuffer(new PackedBuffer(BufferType.NON_DESCRIBED, ByteObject.of(kvals)))
        .toByteArray();
  }

  /** Rank 0 of a fresh job of two sleeping ranks, spawned by {@link #spawner}. */
  private RawPeer rank0() throws IOException {
    String job = spawnSleepers(spawner, 2);
    return rank(f, job, 0);
  }

  static String spawnSleepers(RawPeer tool, int n) throws IOException {
    int tag =
        tool.request(
            Commands.SPAWNNB_CMD,
            p ->
                p.packInfos(List.of())
                    .packApps(
                        List.of(
                            new App(
                                "sleep", List.of("sleep", "120"), List.of(), null, n, List.of()))));
    Unpacker r = tool.reply(tag).body();
    assertThat(r.unpackStatus()).isEqualTo(PmixStatus.SUCCESS);
    return r.unpackString();
  }

  static RawPeer rank(EndpointFixture f, String job, int rank) throws IOException {
    Info cred =
        Info.of(JdvmProtocol.CREDENTIAL, Value.string(f.credentials.procCredential(job, rank)));
    RawPeer peer = RawPeer.client(f.endpoint.tcpAddress(), new Proc(job, rank), List.of(cred));
    assertThat(peer).as("rank " + rank + " admitted").isNotNull();
    return peer;
  }
}
