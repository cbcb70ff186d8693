package org.jdvm.cli.pmix;

import java.io.PrintWriter;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import org.jdvm.pmix.AllocDirective;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.DataPrinter;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.codec.WireException;
import org.jdvm.pmix.frame.Commands;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code jdvm pmix demo}: a short tour of the codec jdvm speaks. It packs an allocation request as
 * libpmix does, for a master-era ({@code v61}) peer and for a 4.2.2 ({@code v41}) one side by side,
 * shows the bytes unit by unit, and unpacks them again.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = "Show the PMIx codec: an allocation request packed for v61 and v41, and back.")
public final class PmixDemoCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  /** The six infos of a typical request; the inheritance is the only field the peers differ on. */
  static List<Info> infos(boolean typedInheritance) {
    AllocInheritance child = AllocInheritance.CHILD;
    return List.of(
        Info.of(PmixKeys.ALLOC_NUM_NODES, Value.uint64(2)),
        Info.of(PmixKeys.ALLOC_REQ_ID, Value.string("demo-1")),
        Info.of(
            PmixKeys.ALLOC_INHERITANCE,
            typedInheritance ? Value.inheritance(child) : Value.uint8(child.code())),
        Info.of(PmixKeys.ALLOC_SHARE, Value.bool(false)),
        Info.of(PmixKeys.ALLOC_WARN_TIMEOUT, Value.uint32(300)),
        Info.of(PmixKeys.ALLOC_TIME, Value.string("1:00:00")));
  }

  /** COMMAND, ALLOC_DIRECTIVE, SIZE and INFO units, as PMIx_Allocation_request_nb packs them. */
  static byte[] request(WireFormat format, List<Info> infos) {
    return new Packer(format)
        .packCommand(Commands.ALLOC_CMD)
        .packInteger(DataType.ALLOC_DIRECTIVE, AllocDirective.NEW.code())
        .packInfos(infos)
        .toByteArray();
  }

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    out.println("jdvm demo: the PMIx wire codec (the DVM itself arrives with later issues)");
    out.println();
    out.println("An allocation request, packed as PMIx_Allocation_request_nb does:");
    out.println("  COMMAND ALLOC_CMD (17), ALLOC_DIRECTIVE NEW, then SIZE 6 and six infos:");
    for (Info info : infos(true)) {
      out.printf("    %-18s %s%n", info.key(), DataPrinter.render(DataType.VALUE, info.value()));
    }
    byte[] v61 = request(WireFormat.V61, infos(true));
    byte[] v41 = request(WireFormat.V41, infos(false));
    out.println();
    showBytes(out, "v61, a master-era peer", v61);
    showBytes(out, "v41, a libpmix 4.2.2 peer (no type 75: the inheritance goes as UINT8)", v41);
    out.println(
        "  The two differ in one byte of the inheritance info: type 4b (75) vs 0c (UINT8).");
    out.println();
    decodeBack(out, v61);
    out.println();
    out.println("A v41 packer refuses type 75 as libpmix 4.2.2 does:");
    refusal(out, "  directly:      ", DataType.ALLOC_INHERIT, (long) AllocInheritance.CHILD.code());
    refusal(out, "  inside an info:", DataType.INFO, infos(true).get(2));
    out.println();
    out.println(
        "Try: ./jdvm pmix decode --type PMIX_INFO --component v61 --hex " + inheritanceInfoHex());
    return PmixCommand.EXIT_OK;
  }

  private static void refusal(PrintWriter out, String label, DataType type, Object datum) {
    try {
      new Packer(WireFormat.V41).pack(type, datum);
      out.println(label + " packed?!");
    } catch (WireException e) {
      out.println(label + " " + e.getMessage());
    }
  }

  private static void showBytes(PrintWriter out, String title, byte[] body) {
    out.println(title + ", " + body.length + " bytes:");
    Unpacker u = new Unpacker(WireFormat.V61, body);
    int start = u.position();
    u.unpackCommand();
    line(out, "COMMAND", body, start, u.position());
    start = u.position();
    u.unpackInteger(DataType.ALLOC_DIRECTIVE);
    line(out, "DIRECTIVE", body, start, u.position());
    start = u.position();
    u.unpackSize();
    line(out, "SIZE", body, start, u.position());
    line(out, "INFO x6", body, u.position(), body.length);
  }

  /** One unit's bytes, 24 to a line. */
  private static void line(PrintWriter out, String label, byte[] body, int from, int to) {
    HexFormat hex = HexFormat.of();
    for (int at = from; at < to; at += 24) {
      String bytes = hex.formatHex(body, at, Math.min(to, at + 24));
      out.printf("  %-10s %s%n", at == from ? label : "", bytes.replaceAll("(..)", "$1 ").strip());
    }
  }

  private static void decodeBack(PrintWriter out, byte[] v61) {
    Unpacker body = new Unpacker(WireFormat.V61, v61);
    int command = body.unpackCommand();
    long directive = body.unpackInteger(DataType.ALLOC_DIRECTIVE);
    List<Info> infos = body.unpackInfos();
    body.expectEnd();
    out.printf(
        "Unpacked from the v61 bytes: %s, %s, %d infos%n",
        Commands.name(command), AllocDirective.toString((int) directive), infos.size());
    for (Info info : infos) {
      out.println("  " + DataPrinter.print(DataType.INFO, info).replace('\t', ' '));
    }
  }

  /** The inheritance info packed alone for a v61 peer: count 1, then the info's body. */
  private static String inheritanceInfoHex() {
    byte[] one = new Packer(WireFormat.V61).pack(DataType.INFO, infos(true).get(2)).toByteArray();
    return HexFormat.of().formatHex(one);
  }
}
