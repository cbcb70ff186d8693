package org.jdvm.server.pmix;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.jdvm.core.RequestId;
import org.jdvm.pmix.Info;

/**
 * Requests the endpoint handed to the core and not yet answered. The core answers every request
 * exactly once; the answer runs the continuation the endpoint left for it, on the controller
 * thread, where it may only encode and queue. A continuation whose connection has meanwhile closed
 * queues nothing: the reply is dropped, as nobody is left to read it.
 */
final class Pending {
  /** The core's answer to one request. */
  record Answer(int status, List<Info> infos) {
    String info(String key) {
      for (Info i : infos) {
        if (i.key().equals(key)) {
          Object d = i.value().data();
          return d == null ? null : String.valueOf(d);
        }
      }
      return null;
    }
  }

  private final AtomicLong next = new AtomicLong();
  private final ConcurrentHashMap<Long, Consumer<Answer>> waiting = new ConcurrentHashMap<>();

  /** A fresh request id whose answer goes to {@code then}. */
  RequestId open(Consumer<Answer> then) {
    RequestId id = next();
    expect(id, then);
    return id;
  }

  /** A fresh request id, to build a request with before its continuation is known. */
  RequestId next() {
    return new RequestId(next.incrementAndGet());
  }

  /** The answer to {@code id} goes to {@code then}; call before the request is submitted. */
  void expect(RequestId id, Consumer<Answer> then) {
    waiting.put(id.value(), then);
  }

  /** Answers a request; an unknown or already answered id is ignored. */
  void complete(RequestId id, int status, List<Info> infos) {
    Consumer<Answer> then = waiting.remove(id.value());
    if (then != null) {
      then.accept(new Answer(status, infos));
    }
  }

  int size() {
    return waiting.size();
  }
}
