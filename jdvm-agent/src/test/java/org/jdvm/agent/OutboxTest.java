package org.jdvm.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import org.jdvm.agent.link.Link;
import org.jdvm.agent.link.LinkMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An exit written to a link the controller never read (it was killed with the write in its socket)
 * is named again in the next hello; one the hello carried is not named twice.
 */
class OutboxTest {
  private final ServerSocket server;
  private final Socket agentSide;
  private final Socket controllerSide;

  OutboxTest() throws Exception {
    server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    agentSide = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
    controllerSide = server.accept();
  }

  @AfterEach
  void close() throws Exception {
    agentSide.close();
    controllerSide.close();
    server.close();
  }

  @Test
  void anExitSentOnALinkThatThenDiedIsNamedAgainInTheNextHello() throws Exception {
    Outbox outbox = new Outbox();
    Link link = new Link(agentSide, System::nanoTime, "controller");
    outbox.attach(link);
    LinkMessage.Exited sent = new LinkMessage.Exited("d@1", 1, 7, 0);
    outbox.send(sent); // the write succeeds: the controller's socket took it
    assertThat(outbox.heldExits()).as("it went out").isEmpty();
    controllerSide.close(); // the controller dies without reading it
    outbox.detach(link);
    LinkMessage.Exited held = new LinkMessage.Exited("d@1", 3, 0, 11);
    outbox.send(held);

    List<LinkMessage.Exited> hello = outbox.exitsForHello();
    assertThat(hello).containsExactly(sent, held);

    outbox.forget(hello); // the next controller has both from the hello
    assertThat(outbox.exitsForHello()).isEmpty();
  }

  @Test
  void theExitsNamedAgainAreBounded() throws Exception {
    Outbox outbox = new Outbox();
    Link link = new Link(agentSide, System::nanoTime, "controller");
    outbox.attach(link);
    Thread.ofVirtual().start(this::drain);
    for (int rank = 0; rank < Outbox.RECENT_EXITS + 10; rank++) {
      outbox.send(new LinkMessage.Exited("d@1", rank, 0, 0));
    }
    List<LinkMessage.Exited> hello = outbox.exitsForHello();
    assertThat(hello).hasSize(Outbox.RECENT_EXITS);
    assertThat(hello.getFirst().rank()).as("the oldest go first").isEqualTo(10);
  }

  private void drain() {
    try {
      controllerSide.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
    } catch (java.io.IOException e) {
      // closed by the test
    }
  }
}
