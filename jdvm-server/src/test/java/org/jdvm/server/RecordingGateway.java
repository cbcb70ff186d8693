package org.jdvm.server;

import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jdvm.core.Effect;
import org.jdvm.core.RequestId;
import org.jdvm.endpoint.PeerGateway;
import org.jdvm.host.Await;
import org.jdvm.host.ProcListener;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.Proc;

/** A gateway that records what the DVM addresses to peers, with bounded waits. */
final class RecordingGateway implements PeerGateway {
  record Reply(int status, List<Info> infos) {
    String info(String key) {
      return infos.stream()
          .filter(i -> i.key().equals(key))
          .findFirst()
          .map(i -> String.valueOf(i.value().data()))
          .orElse(null);
    }
  }

  record Event(Proc target, int status, Proc source, List<Info> infos) {}

  final Map<RequestId, Reply> replies = new ConcurrentHashMap<>();
  final List<Event> events = new CopyOnWriteArrayList<>();
  final Map<String, ByteArrayOutputStream> output = new ConcurrentHashMap<>();
  final List<Effect.ReportSessionComplete> completions = new CopyOnWriteArrayList<>();

  @Override
  public void reply(RequestId requestId, int status, List<Info> infos) {
    replies.put(requestId, new Reply(status, infos));
  }

  @Override
  public void notify(Proc target, int status, Proc source, List<Info> infos) {
    events.add(new Event(target, status, source, infos));
  }

  @Override
  public void output(String nspace, int rank, ProcListener.Stream stream, byte[] chunk) {
    output.computeIfAbsent(nspace + "." + rank, k -> new ByteArrayOutputStream()).writeBytes(chunk);
  }

  @Override
  public void sessionComplete(Effect.ReportSessionComplete report) {
    completions.add(report);
  }

  Reply awaitReply(RequestId id) {
    Await.until(() -> replies.containsKey(id), "reply to " + id);
    return replies.get(id);
  }

  String outputOf(String nspace, int rank) {
    ByteArrayOutputStream b = output.get(nspace + "." + rank);
    return b == null ? "" : b.toString();
  }
}
