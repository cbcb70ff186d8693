package org.jdvm.endpoint;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.jdvm.core.query.JobView;
import org.jdvm.host.Await;
import org.jdvm.pmix.App;
import org.jdvm.pmix.BufferType;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PackedBuffer;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Query;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.DataPrinter;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;

/**
 * Runs a protocol file against a real endpoint in front of a real DVM: blocks of a line, a {@code
 * ----} line and the expected output up to a blank line, like the core's scenario files. Peers
 * speak fully described buffers, so every reply prints generically, unit by unit, as {@code
 * TYPE:value}, a GETNB blob decoded. The DVM's name prints as {@code $dvm}, its directory as {@code
 * $home}, a pid as {@code <pid>}, and what depends on this host's cpus (a process's locality and
 * cpuset, a node's topology signature) as {@code <host>}, so a file holds on any machine. With
 * {@code -Djdvm.rewrite=true} the file is rewritten with the actual output (review the diff).
 *
 * <p>Lines: {@code config nodes=N slots=N spare=N} (first); {@code open NAME tool [v41|v61]};
 * {@code open NAME client NS.RANK} (a launched process, admitted with its own credential once its
 * job runs); {@code NAME COMMAND token…} sends a request (COMMAND is a {@link Commands} name
 * without {@code _CMD}, or a number) and prints its reply; {@code NAME send COMMAND token…} sends
 * without waiting; {@code NAME next} prints the next frame, whatever its tag. Tokens pack in order:
 * {@code status:N}, {@code size:N}, {@code u8:N}, {@code u32:N}, {@code u64:N}, {@code rank:N},
 * {@code directive:N}, {@code range:N}, {@code channel:N}, {@code str:TEXT} ({@code str:~} is
 * NULL), {@code scope:N}, {@code infos:[key=TOKEN,…]}, {@code procs:[NS.RANK,…]} (SIZE then the
 * PROCs), {@code buffer:[key=TOKEN,…]} (a PMIX_BUFFER of one KVAL unit per entry, as COMMIT sends),
 * {@code apps:[ARGV0|ARG…@NP,…]}, {@code queries:[KEY+KEY?QKEY=TYPE:V&…,…]}, {@code persist:N},
 * {@code time:N}, {@code bo:HEX} (a BYTE_OBJECT), {@code bytes:TEXT} (a BYTE_OBJECT of TEXT's
 * UTF-8; {@code bytes:} is empty). A BYTE_OBJECT in a reply prints as the units it holds, in
 * brackets.
 */
final class ProtocolRunner implements AutoCloseable {
  /** The values of the keys that depend on this host's cpus and their split among nodes. */
  private static final java.util.regex.Pattern HOST_TOPOLOGY =
      java.util.regex.Pattern.compile(
          "(key=pmix\\.(?:locstr|cpuset|toposig), (?:flags=NONE, value=)?PMIX_STRING )[^,}]+");

  private final Path home;
  private EndpointFixture fixture;
  private final Map<String, RawPeer> peers = new HashMap<>();

  ProtocolRunner(Path home) {
    this.home = home;
  }

  String run(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < lines.size()) {
      String line = lines.get(i++);
      out.append(line).append('\n');
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      if (i < lines.size() && lines.get(i).equals("----")) {
        i++;
        while (i < lines.size() && !lines.get(i).isBlank()) {
          i++;
        }
      }
      List<String> actual;
      try {
        actual = execute(line.trim());
      } catch (IOException | RuntimeException e) {
        throw new AssertionError(file.getFileName() + ":" + i + ": " + line + ": " + e, e);
      }
      if (actual == null) {
        continue;
      }
      out.append("----\n");
      for (String a : actual) {
        out.append(
                HOST_TOPOLOGY
                    .matcher(
                        a.replace(home.toAbsolutePath().toString(), "$home")
                            .replace(fixture.endpoint.dvmName(), "$dvm"))
                    .replaceAll("$1<host>")
                    .replaceAll("pid=[0-9]+", "pid=<pid>"))
            .append('\n');
      }
      if (i >= lines.size() || !lines.get(i).isBlank()) {
        out.append('\n');
      }
    }
    return out.toString();
  }

  private List<String> execute(String line) throws IOException {
    List<String> words = List.of(line.split("\\s+"));
    if (words.get(0).equals("config")) {
      Map<String, Integer> c = new HashMap<>(Map.of("nodes", 2, "slots", 2, "spare", 2));
      for (String w : words.subList(1, words.size())) {
        String[] kv = w.split("=", 2);
        c.put(kv[0], Integer.parseInt(kv[1]));
      }
      fixture = new EndpointFixture(home, c.get("nodes"), c.get("slots"), c.get("spare"));
      return null;
    }
    if (words.get(0).equals("open") && words.get(2).equals("client")) {
      Proc proc = proc(words.get(3).replace("$dvm", fixture.endpoint.dvmName()));
      Await.until(
          () ->
              fixture.read(
                  v ->
                      v.job(proc.nspace())
                          .map(j -> j.state() == JobView.State.RUNNING)
                          .orElse(false)),
          "the launch of " + proc.nspace());
      Info cred =
          Info.of(
              JdvmProtocol.CREDENTIAL,
              Value.string(fixture.credentials.procCredential(proc.nspace(), proc.rank())));
      RawPeer p =
          RawPeer.client(
              fixture.endpoint.tcpAddress(),
              proc,
              List.of(cred),
              WireFormat.V41.withBufferType(BufferType.FULLY_DESCRIBED));
      if (p == null) {
        return List.of("refused");
      }
      peers.put(words.get(1), p);
      return List.of("admitted " + p.self());
    }
    if (words.get(0).equals("open")) {
      WireFormat base =
          words.size() > 3 && words.get(3).equals("v61") ? WireFormat.V61 : WireFormat.V41;
      RawPeer p =
          RawPeer.tool(
              fixture.endpoint.tcpAddress(), base.withBufferType(BufferType.FULLY_DESCRIBED));
      peers.put(words.get(1), p);
      return List.of("admitted " + p.self());
    }
    RawPeer peer = peers.get(words.get(0));
    if (peer == null) {
      throw new IllegalArgumentException("no peer " + words.get(0));
    }
    String verb = words.get(1);
    if (verb.equals("next")) {
      RawPeer.Frame f = peer.read();
      return List.of("frame tag=" + f.tag() + " " + render(f));
    }
    boolean wait = !verb.equals("send");
    List<String> rest = words.subList(wait ? 1 : 2, words.size());
    int command = command(rest.get(0));
    int tag =
        peer.request(
            command,
            p -> {
              for (String token : rest.subList(1, rest.size())) {
                pack(p, token.replace("$dvm", fixture.endpoint.dvmName()));
              }
            });
    if (!wait) {
      return null;
    }
    return List.of("reply " + render(peer.reply(tag)));
  }

  private static int command(String name) {
    if (name.matches("-?\\d+")) {
      return Integer.parseInt(name);
    }
    for (int c = 0; c < 256; c++) {
      if (Commands.name(c).equalsIgnoreCase(name + "_CMD")
          || Commands.name(c).equalsIgnoreCase(name)) {
        return c;
      }
    }
    return switch (name) {
      case "JDVM_STOP" -> org.jdvm.pmix.JdvmProtocol.STOP_CMD;
      default -> throw new IllegalArgumentException("no command " + name);
    };
  }

  // ---- packing -------------------------------------------------------------------------------

  private static void pack(Packer p, String token) {
    String[] tv = token.split(":", 2);
    String v = tv[1];
    switch (tv[0]) {
      case "infos" -> p.packInfos(infos(list(v)));
      case "buffer" -> {
        Packer kvals = new Packer(p.format());
        for (Info i : infos(list(v))) {
          kvals.pack(DataType.KVAL, new KVal(i.key(), i.value()));
        }
        p.packBuffer(new PackedBuffer(p.format().bufferType(), ByteObject.of(kvals.toByteArray())));
      }
      case "procs" -> {
        List<Proc> procs = new ArrayList<>();
        for (String s : list(v)) {
          procs.add(proc(s));
        }
        p.packSize(procs.size());
        if (!procs.isEmpty()) {
          p.pack(DataType.PROC, procs);
        }
      }
      case "apps" -> {
        List<App> apps = new ArrayList<>();
        for (String s : list(v)) {
          String[] an = s.split("@", 2);
          List<String> argv = List.of(an[0].split("\\|"));
          apps.add(new App(argv.get(0), argv, List.of(), null, Integer.parseInt(an[1]), List.of()));
        }
        p.packApps(apps);
      }
      case "queries" -> {
        List<Query> queries = new ArrayList<>();
        for (String s : list(v)) {
          String[] kq = s.split("\\?", 2);
          List<Info> qualifiers = kq.length > 1 ? infos(List.of(kq[1].split("&"))) : List.of();
          queries.add(new Query(List.of(kq[0].split("\\+")), qualifiers));
        }
        p.packQueries(queries);
      }
      case "str" -> p.packString(v.equals("~") ? null : v);
      default -> {
        Value value = value(token);
        p.pack(value.type(), value.data());
      }
    }
  }

  private static List<String> list(String bracketed) {
    String inner = bracketed.substring(1, bracketed.length() - 1);
    return inner.isEmpty() ? List.of() : List.of(inner.split(","));
  }

  private static List<Info> infos(List<String> entries) {
    List<Info> infos = new ArrayList<>();
    for (String e : entries) {
      String[] kv = e.split("=", 2);
      infos.add(Info.of(kv[0], value(kv[1])));
    }
    return infos;
  }

  private static Proc proc(String s) {
    int dot = s.lastIndexOf('.');
    String rank = s.substring(dot + 1);
    return new Proc(
        s.substring(0, dot), rank.equals("*") ? Proc.RANK_WILDCARD : Integer.parseInt(rank));
  }

  /** A typed token as a value; packed with its type (the reader checks the type it expects). */
  private static Value value(String token) {
    String[] tv = token.split(":", 2);
    String v = tv[1];
    return switch (tv[0]) {
      case "status" -> Value.status(Integer.parseInt(v));
      case "size" -> Value.size(Long.parseLong(v));
      case "u8" -> Value.uint8(Integer.parseInt(v));
      case "u32" -> Value.uint32(Long.parseLong(v));
      case "u64" -> Value.uint64(Long.parseLong(v));
      case "rank" -> Value.rank(v.equals("*") ? Proc.RANK_WILDCARD : Integer.parseInt(v));
      case "directive" -> Value.of(DataType.ALLOC_DIRECTIVE, Long.parseLong(v));
      case "range" -> Value.of(DataType.DATA_RANGE, Long.parseLong(v));
      case "channel" -> Value.of(DataType.IOF_CHANNEL, Long.parseLong(v));
      case "str" -> Value.string(v.equals("~") ? null : v);
      case "bool" -> Value.bool(Boolean.parseBoolean(v));
      case "proc" -> Value.proc(proc(v));
      case "int" -> Value.integer(Integer.parseInt(v));
      case "scope" -> Value.of(DataType.SCOPE, Long.parseLong(v));
      case "persist" -> Value.of(DataType.PERSIST, Long.parseLong(v));
      case "time" -> Value.of(DataType.TIME, Long.parseLong(v));
      case "bo" -> new Value(DataType.BYTE_OBJECT, ByteObject.of(HexFormat.of().parseHex(v)));
      case "bytes" ->
          new Value(DataType.BYTE_OBJECT, ByteObject.of(v.getBytes(StandardCharsets.UTF_8)));
      default -> throw new IllegalArgumentException("no token type " + tv[0]);
    };
  }

  // ---- rendering -----------------------------------------------------------------------------

  /** A fully described body, unit by unit: {@code TYPE:value TYPE:value …}. */
  private static String render(RawPeer.Frame f) {
    return render(f.bytes(), f.format());
  }

  private static String render(byte[] b, WireFormat format) {
    Unpacker in = new Unpacker(format, b);
    List<String> units = new ArrayList<>();
    while (in.hasRemaining()) {
      DataType type = DataType.fromCode(declaredType(b, in.position()));
      for (Object datum : in.unpack(type)) {
        String blob = type == DataType.BYTE_OBJECT ? blob(format, (ByteObject) datum) : null;
        units.add(blob != null ? blob : type.name() + ":" + inner(type, datum, format));
      }
    }
    return String.join(" ", units);
  }

  /** A BYTE_OBJECT that holds units (a connect's job data) prints them. */
  private static String inner(DataType type, Object datum, WireFormat format) {
    if (type == DataType.BYTE_OBJECT) {
      byte[] bytes = ((ByteObject) datum).toByteArray();
      try {
        return "[" + render(bytes, format) + "]";
      } catch (RuntimeException notUnits) {
        // Plain bytes: printed as they are.
      }
    }
    return DataPrinter.render(type, datum);
  }

  /**
   * The declared type of the unit at {@code at} in a fully described buffer: the INT32 tag, the
   * count and the type tag, each a varint (pmix-wire.md §2.2, §2.3).
   */
  private static int declaredType(byte[] b, int at) {
    int k = at + 1;
    while ((b[k] & 0x80) != 0) {
      k++;
    }
    k++;
    int code = 0;
    for (int shift = 0; ; shift += 7) {
      code |= (b[k] & 0x7f) << shift;
      if ((b[k++] & 0x80) == 0) {
        return code;
      }
    }
  }

  /**
   * A GETNB blob ({@code PROC | KVAL…}, docs/wireup.md §c.3) as {@code BLOB:ns.rank{key=…, …}};
   * {@code null} when the bytes are not one.
   */
  private static String blob(WireFormat format, ByteObject bytes) {
    try {
      Unpacker in = new Unpacker(format, bytes.toByteArray());
      Proc proc = in.unpackProc();
      List<String> kvals = new ArrayList<>();
      while (in.hasRemaining()) {
        KVal k = (KVal) in.unpackOne(DataType.KVAL);
        kvals.add(
            k.key().equals(PmixKeys.PROC_PID)
                ? "{key=" + k.key() + ", <pid>}"
                : DataPrinter.render(DataType.KVAL, k));
      }
      String rank = proc.rank() == Proc.RANK_WILDCARD ? "*" : Integer.toString(proc.rank());
      return "BLOB:" + proc.nspace() + "." + rank + String.join("", kvals);
    } catch (RuntimeException e) {
      return null;
    }
  }

  @Override
  public void close() throws IOException {
    for (RawPeer p : peers.values()) {
      p.close();
    }
    if (fixture != null) {
      fixture.close();
    }
  }
}
