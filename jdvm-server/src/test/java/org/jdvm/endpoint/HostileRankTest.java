package org.jdvm.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jdvm.endpoint.serve.EndpointLimits;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.body.KeysRequest;
import org.jdvm.pmix.body.PublishRequest;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.frame.Commands;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seeded hostile rank (docs/protocol.md "What one peer may cost"): a rank does random PMIx
 * operations with random sizes, up to past the bounds (commit, fence, get, publish, lookup, log,
 * query), from a printed seed ({@code -Dhostile.seed=N} repeats a run), while the owner's tool
 * lists the namespaces and measures each call. Asserted: the DVM stays alive, the owner's calls
 * complete (within the peer's 10 s read timeout: liveness, not speed), every refusal carries a
 * status the operation documents, and the committed bytes stay within {@link EndpointLimits}'s
 * bounds. The owner's latencies (p50/p99/max) are printed.
 */
class HostileRankTest {
  private static final int OPERATIONS = 1500;
  private static final EndpointLimits LIMITS = EndpointLimits.DEFAULT;

  /** What each operation may answer; anything else is a bug. */
  private static final Map<String, Set<Integer>> ALLOWED =
      Map.of(
          "commit", Set.of(PmixStatus.SUCCESS, PmixStatus.ERR_OUT_OF_RESOURCE),
          "fence", Set.of(PmixStatus.SUCCESS),
          "get", Set.of(PmixStatus.SUCCESS, PmixStatus.ERR_NOT_FOUND),
          "publish",
              Set.of(
                  PmixStatus.SUCCESS,
                  PmixStatus.ERR_OUT_OF_RESOURCE,
                  PmixStatus.ERR_DUPLICATE_KEY,
                  PmixStatus.ERR_BAD_PARAM),
          "lookup", Set.of(PmixStatus.SUCCESS, PmixStatus.ERR_NOT_FOUND),
          "log", Set.of(PmixStatus.SUCCESS),
          "query", Set.of(PmixStatus.SUCCESS, PmixStatus.ERR_NOT_FOUND));

  @TempDir Path home;

  @Test
  void aRankDoingRandomOperationsLeavesTheOwnerServedAndTheBoundsKept() throws Exception {
    long seed = Long.getLong("hostile.seed", System.nanoTime());
    System.out.println("hostile rank seed " + seed + " (-Dhostile.seed=" + seed + " repeats it)");
    Random random = new Random(seed);
    try (EndpointFixture f = new EndpointFixture(home, 1, 2, 2);
        RawPeer spawner = RawPeer.tool(f.endpoint.tcpAddress())) {
      String job = OneRankFloodTest.spawnSleepers(spawner, 2);
      Proc self = new Proc(job, 0);
      List<Double> ms = Collections.synchronizedList(new ArrayList<>());
      AtomicBoolean over = new AtomicBoolean();
      Map<String, Integer> seen = new ConcurrentHashMap<>();
      Thread owner = Thread.ofPlatform().start(() -> ownerAsks(f, over, ms));
      try (RawPeer rank = OneRankFloodTest.rank(f, job, 0)) {
        for (int k = 0; k < OPERATIONS; k++) {
          String op = pick(random);
          int status = status(rank, op, random);
          seen.merge(op + "=" + PmixStatus.name(status), 1, Integer::sum);
          assertThat(ALLOWED.get(op)).as(op + " answered " + status).contains(status);
          assertThat(f.modex.bytesOf(self)).isLessThanOrEqualTo(LIMITS.modexBytesPerRank());
          assertThat(f.modex.bytesOfJob(job)).isLessThanOrEqualTo(LIMITS.modexBytesPerJob());
        }
      } finally {
        over.set(true);
        owner.join(TimeUnit.SECONDS.toMillis(30));
      }
      System.out.println("hostile rank answers: " + new java.util.TreeMap<>(seen));
      System.out.println("hostile rank: " + OneRankFloodTest.latencies(ms));
      assertThat(ms).as("the owner's calls").isNotEmpty().allMatch(m -> m >= 0);
      assertThat(ms.size()).isGreaterThan(1);
    }
  }

  /** The owner lists the namespaces until the rank is done; a failure ends the list early. */
  private static void ownerAsks(EndpointFixture f, AtomicBoolean over, List<Double> ms) {
    try (RawPeer owner = RawPeer.tool(f.endpoint.tcpAddress())) {
      while (!over.get()) {
        long t0 = System.nanoTime();
        int tag = owner.send(OneRankFloodTest.queryNamespaces(owner.format));
        if (owner.reply(tag).body().unpackStatus() != PmixStatus.SUCCESS) {
          ms.add(-1.0);
          return;
        }
        ms.add((System.nanoTime() - t0) / 1e6);
        Thread.sleep(20);
      }
    } catch (IOException | InterruptedException e) {
      ms.add(-1.0);
    }
  }

  private static String pick(Random random) {
    String[] ops = {"commit", "commit", "fence", "get", "publish", "lookup", "log", "query"};
    return ops[random.nextInt(ops.length)];
  }

  /** Sends one random {@code op} and returns the reply's status. */
  private static int status(RawPeer rank, String op, Random random) throws IOException {
    byte[] body =
        switch (op) {
          case "commit" ->
              OneRankFloodTest.commit(
                  rank, "h" + random.nextInt(16), text(random, sizeUpTo(random, 400 << 10)));
          case "fence" ->
              new Packer(rank.format)
                  .packCommand(Commands.FENCENB_CMD)
                  .packSize(1)
                  .pack(DataType.PROC, List.of(rank.self()))
                  .packInfos(List.of())
                  .toByteArray();
          case "get" ->
              new Packer(rank.format)
                  .packCommand(Commands.GETNB_CMD)
                  .packString(rank.self().nspace())
                  .packInteger(DataType.PROC_RANK, random.nextInt(2))
                  .packInfos(List.of(Info.of(PmixKeys.IMMEDIATE, Value.bool(true))))
                  .packString("h" + random.nextInt(16))
                  .toByteArray();
          case "publish" ->
              new PublishRequest(
                      0,
                      List.of(
                          Info.of(
                              "p" + random.nextInt(64),
                              Value.string(text(random, sizeUpTo(random, 64 << 10))))))
                  .write(rank.format);
          case "lookup" ->
              new KeysRequest(
                      Commands.LOOKUPNB_CMD, 0, List.of("p" + random.nextInt(64)), List.of())
                  .write(rank.format);
          case "log" ->
              new Packer(rank.format)
                  .packCommand(Commands.LOG_CMD)
                  .packInteger(DataType.TIME, 0)
                  .packInfos(
                      List.of(
                          Info.of(
                              PmixKeys.LOG_STDERR,
                              Value.string(text(random, sizeUpTo(random, 8 << 10))))))
                  .packInfos(List.of())
                  .toByteArray();
          default -> OneRankFloodTest.queryNamespaces(rank.format);
        };
    return rank.reply(rank.send(body)).body().unpackStatus();
  }

  /** Mostly small, sometimes large: half the sizes below 1 KiB, the rest up to {@code max}. */
  private static int sizeUpTo(Random random, int max) {
    return random.nextBoolean() ? random.nextInt(1024) : random.nextInt(max);
  }

  private static String text(Random random, int n) {
    char c = (char) ('a' + random.nextInt(26));
    return String.valueOf(c).repeat(n);
  }
}
