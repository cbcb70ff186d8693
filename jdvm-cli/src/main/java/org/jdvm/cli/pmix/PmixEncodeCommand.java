package org.jdvm.cli.pmix;

import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.WireException;
import org.jdvm.pmix.json.Json;
import org.jdvm.pmix.json.JsonException;
import org.jdvm.pmix.json.ValueJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code jdvm pmix encode}: JSON in, the hex of one pack call out (count unit first). */
@Command(
    name = "encode",
    mixinStandardHelpOptions = true,
    description = {
      "Print the bytes of one PMIx_Data_pack call, count unit first, in hex.",
      "A JSON array packs that many values in the one call."
    })
public final class PmixEncodeCommand implements Callable<Integer> {
  @Mixin WireOptions wire = new WireOptions();

  @Option(
      names = "--json",
      required = true,
      paramLabel = "JSON",
      description =
          "The value(s) in the JSON form of the golden vectors (docs/spec/pmix-wire.md §12.2).")
  String json;

  @Override
  public Integer call() {
    try {
      List<Object> values = ValueJson.unitFromJson(wire.type, Json.parse(json));
      return wire.printed(
          HexFormat.of()
              .formatHex(new Packer(wire.format()).pack(wire.type, values).toByteArray()));
    } catch (JsonException | WireException e) {
      return wire.refused(e.getMessage());
    }
  }
}
