package org.jdvm.server.upstream;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jdvm.core.RequestId;
import org.jdvm.endpoint.serve.Upstream;
import org.jdvm.pmix.Info;

/**
 * Requests the endpoint handed to the core and not yet answered. The core answers every request
 * exactly once, on the controller thread, which completes the request's future; its continuation
 * may only pack and queue.
 */
final class Pending {
  private final AtomicLong next = new AtomicLong();
  private final ConcurrentHashMap<Long, CompletableFuture<Upstream.Answer>> waiting =
      new ConcurrentHashMap<>();

  /**
   * Mints from {@code first} on: after a restart, above every id the journal knows, so a late reply
   * to a request of the DVM that died never reaches a request of this one.
   */
  void mintFrom(long first) {
    next.accumulateAndGet(first - 1, Math::max);
  }

  RequestId next() {
    return new RequestId(next.incrementAndGet());
  }

  /** The future that the answer to {@code id} completes; call before the request is submitted. */
  CompletableFuture<Upstream.Answer> expect(RequestId id) {
    CompletableFuture<Upstream.Answer> f = new CompletableFuture<>();
    waiting.put(id.value(), f);
    return f;
  }

  /** Answers a request; an unknown or already answered id is ignored. */
  void complete(RequestId id, int status, List<Info> infos) {
    CompletableFuture<Upstream.Answer> f = waiting.remove(id.value());
    if (f != null) {
      f.complete(new Upstream.Answer(status, infos));
    }
  }

  int size() {
    return waiting.size();
  }
}
