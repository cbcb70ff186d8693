package org.jdvm.host;

import java.io.ByteArrayOutputStream;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Collects what an agent reports, and waits (bounded, without sleeping blindly) for it. */
final class RecordingEvents implements NodeEvents {
  final Map<String, ByteArrayOutputStream> stdout = new ConcurrentHashMap<>();
  final Map<String, ByteArrayOutputStream> stderr = new ConcurrentHashMap<>();
  final Map<String, Integer> exits = new ConcurrentHashMap<>();

  static String key(String nspace, int rank) {
    return nspace + "." + rank;
  }

  @Override
  public void output(String node, String nspace, int rank, ProcListener.Stream s, byte[] chunk) {
    (s == ProcListener.Stream.STDOUT ? stdout : stderr)
        .computeIfAbsent(key(nspace, rank), k -> new ByteArrayOutputStream())
        .writeBytes(chunk);
  }

  final Map<String, Integer> signals = new ConcurrentHashMap<>();

  @Override
  public void exited(String node, String nspace, int rank, int exitCode, int signal) {
    signals.put(key(nspace, rank), signal);
    exits.put(key(nspace, rank), signal > 0 ? 128 + signal : exitCode);
  }

  @Override
  public void exited(String node, String nspace, int rank, int exitStatus) {
    exits.put(key(nspace, rank), exitStatus);
  }

  String stdoutOf(String nspace, int rank) {
    ByteArrayOutputStream b = stdout.get(key(nspace, rank));
    return b == null ? "" : b.toString();
  }

  int awaitExit(String nspace, int rank) {
    Await.until(() -> exits.containsKey(key(nspace, rank)), "exit of " + key(nspace, rank));
    return exits.get(key(nspace, rank));
  }
}
