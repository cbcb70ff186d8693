package org.jdvm.endpoint.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.frame.ConnectRequest;
import org.jdvm.pmix.frame.FrameHeader;
import org.jdvm.pmix.frame.NativeCredential;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a connection writes reaches the peer whole and in order, whether a producer sent it straight
 * to the socket or the writer wrote it from the queue after the socket had filled — a peer that
 * reads slowly, stops and resumes loses nothing and sees nothing out of order.
 */
class ConnectionTest {
  @TempDir Path dir;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
  private ServerSocketChannel server;
  private SocketChannel peerSide;
  private Connection connection;

  @AfterEach
  void close() throws IOException {
    if (connection != null) {
      connection.close("test over");
    }
    if (peerSide != null) {
      peerSide.close();
    }
    if (server != null) {
      server.close();
    }
    timer.shutdownNow();
  }

  @Test
  void theTestJvmsLetConnectionsSendWithoutTheirWriter() {
    // Else the tests below would only ever see the writer's path (pom.xml's argLine gives it).
    assertThat(SocketFd.available()).isTrue();
  }

  @Test
  void messagesArriveInOrderWhileThePeerStallsAndResumes() throws Exception {
    admitted();
    int count = 3_000;
    Random random = new Random(1124);
    Thread producer =
        Thread.ofPlatform()
            .start(
                () -> {
                  for (int i = 0; i < count; i++) {
                    // 1 byte to 40 KiB: some fit the socket at once, some only in part.
                    byte[] body = new byte[4 + random.nextInt(40 << 10)];
                    ByteBuffer.wrap(body).putInt(i);
                    connection.send(7, body);
                    if (i % 500 == 0) {
                      Thread.onSpinWait();
                    }
                  }
                });
    Random pauses = new Random(2411);
    for (int i = 0; i < count; i++) {
      if (pauses.nextInt(200) == 0) {
        Thread.sleep(20); // the peer stalls: the socket fills and the queue takes over
      }
      byte[] header = read(FrameHeader.BYTES);
      FrameHeader h = FrameHeader.decode(header, 0);
      assertThat(h.tag()).isEqualTo(7);
      byte[] body = read(h.nbytes());
      assertThat(ByteBuffer.wrap(body).getInt()).as("message %d", i).isEqualTo(i);
    }
    producer.join(TimeUnit.SECONDS.toMillis(60));
    assertThat(connection.isClosed()).isFalse();
  }

  /**
   * Output is paced, not cut off (docs/ARCHITECTURE.md "Output back-pressure"): a producer that
   * stops when told ({@link Connection#holdOutput}) and goes on when resumed sends more than the 64
   * MiB after which a peer that did not read was cut off, to a peer that stalls for a second; the
   * connection holds no more than the high-water mark and one message, and every byte arrives.
   */
  @Test
  void outputIsPacedByTheReaderAndNeverCutsItOff() throws Exception {
    admitted();
    int messages = 1_300; // 1,300 x 64 KiB: 85 MB
    int size = 64 << 10;
    java.util.concurrent.atomic.AtomicLong most = new java.util.concurrent.atomic.AtomicLong();
    Thread producer =
        Thread.ofPlatform()
            .start(
                () -> {
                  for (int i = 0; i < messages; i++) {
                    java.util.concurrent.CountDownLatch resumed =
                        new java.util.concurrent.CountDownLatch(1);
                    if (connection.holdOutput(resumed::countDown)) {
                      try {
                        resumed.await();
                      } catch (InterruptedException e) {
                        return;
                      }
                    }
                    byte[] body = new byte[size];
                    ByteBuffer.wrap(body).putInt(i);
                    connection.sendOutput(2, body);
                    most.accumulateAndGet(connection.outputQueued(), Math::max);
                  }
                });
    Thread.sleep(1000); // the peer stalls: the producer must be paused
    assertThat(producer.isAlive()).as("paused, not done").isTrue();
    for (int i = 0; i < messages; i++) {
      FrameHeader h = FrameHeader.decode(read(FrameHeader.BYTES), 0);
      byte[] body = read(h.nbytes());
      assertThat(ByteBuffer.wrap(body).getInt()).as("message %d", i).isEqualTo(i);
    }
    producer.join(TimeUnit.SECONDS.toMillis(60));
    assertThat(connection.isClosed()).isFalse();
    assertThat(most.get())
        .isLessThanOrEqualTo(Connection.OUTPUT_HIGH_WATER + size + FrameHeader.BYTES);
  }

  private void admitted() throws Exception {
    Path socket = dir.resolve("s");
    server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    server.bind(UnixDomainSocketAddress.of(socket));
    peerSide = SocketChannel.open(UnixDomainSocketAddress.of(socket));
    SocketChannel accepted = server.accept();
    Peer peer = new Peer(new Proc("t@1", 0), Peer.Role.APPLICATION, WireFormat.V41);
    connection =
        new Connection(
            new Connection.Handler() {
              @Override
              public Peer admit(Connection c, ConnectRequest request) {
                c.admitted(peer);
                return peer;
              }

              @Override
              public void message(Connection c, int tag, byte[] body) {}

              @Override
              public void closed(Connection c) {}
            },
            timer,
            new Connection.Link(accepted, true, 1));
    Thread.ofVirtual().start(connection::run);
    ConnectRequest hello =
        ConnectRequest.simpleClient(
            new Proc("t@1", 0), new NativeCredential(0, 0), WireFormat.V41, "4.2.2");
    peerSide.write(ByteBuffer.wrap(hello.encode()));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (connection.peer() == null && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    assertThat(connection.peer()).isEqualTo(peer);
  }

  private byte[] read(int n) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(n);
    while (b.hasRemaining()) {
      if (peerSide.read(b) < 0) {
        throw new IOException("end of stream after " + b.position() + " of " + n);
      }
    }
    return b.array();
  }
}
