package org.jdvm.cli.pmix;

import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.codec.WireException;
import org.jdvm.pmix.json.Json;
import org.jdvm.pmix.json.ValueJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code jdvm pmix decode}: the hex of one pack call in, its value(s) as JSON out. */
@Command(
    name = "decode",
    mixinStandardHelpOptions = true,
    description = {
      "Print the value(s) of one PMIx_Data_pack call, given in hex, as JSON:",
      "one value, or an array when the call held several."
    })
public final class PmixDecodeCommand implements Callable<Integer> {
  @Mixin WireOptions wire = new WireOptions();

  @Option(
      names = "--hex",
      required = true,
      paramLabel = "HEX",
      description = "The bytes, count unit first; spaces and colons are ignored.")
  String hex;

  @Override
  public Integer call() {
    try {
      byte[] bytes = HexFormat.of().parseHex(hex.replaceAll("[\\s:]", ""));
      Unpacker unpacker = new Unpacker(wire.format(), bytes);
      List<Object> values = unpacker.unpack(wire.type);
      unpacker.expectEnd();
      return wire.printed(Json.write(ValueJson.unitToJson(wire.type, values)));
    } catch (IllegalArgumentException e) {
      return wire.refused("not hex: " + e.getMessage());
    } catch (WireException e) {
      return wire.refused(e.getMessage());
    }
  }
}
