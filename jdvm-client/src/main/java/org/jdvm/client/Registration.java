package org.jdvm.client;

import java.util.List;
import java.util.function.Consumer;

/**
 * An event handler registered with {@link JdvmClient#onEvents}: close it to stop receiving. The DVM
 * is told to stop sending a code once no registration of this client wants it (DEREGEVENTS).
 */
public final class Registration implements AutoCloseable {
  private final JdvmClient client;
  final List<Integer> codes;
  final Consumer<Event> handler;
  final boolean feed;
  private volatile boolean closed;

  Registration(JdvmClient client, List<Integer> codes, Consumer<Event> handler, boolean feed) {
    this.client = client;
    this.codes = List.copyOf(codes);
    this.handler = handler;
    this.feed = feed;
  }

  /** Whether this registration's handler takes an event with this status. */
  boolean takes(int status) {
    return codes.isEmpty() || codes.contains(status);
  }

  /** Stops the handler; idempotent. */
  @Override
  public void close() {
    if (!closed) {
      closed = true;
      client.deregister(this);
    }
  }
}
