package org.jdvm.cli.pmix;

import org.jdvm.pmix.BufferType;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.WireComponent;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.json.JsonException;
import org.jdvm.pmix.json.ValueJson;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** The options both subcommands share: the data type and the wire format of the one pack call. */
final class WireOptions {
  @Option(
      names = "--type",
      required = true,
      paramLabel = "TYPE",
      converter = TypeConverter.class,
      description = "The data type of the pack call, e.g. PMIX_INFO (PMIX_ optional, or its code).")
  DataType type;

  @Option(
      names = "--fully-described",
      description = "A fully-described buffer: each unit carries type tags (default: not).")
  boolean fullyDescribed;

  @Option(
      names = "--component",
      paramLabel = "v41|v61",
      defaultValue = "v41",
      converter = ComponentConverter.class,
      description = "The bfrops component: v41 (libpmix 4.2-5.0, the default) or v61 (master).")
  WireComponent component;

  WireFormat format() {
    return new WireFormat(
        component, fullyDescribed ? BufferType.FULLY_DESCRIBED : BufferType.NON_DESCRIBED);
  }

  static final class TypeConverter implements ITypeConverter<DataType> {
    @Override
    public DataType convert(String value) {
      try {
        return ValueJson.parseType(value);
      } catch (JsonException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  static final class ComponentConverter implements ITypeConverter<WireComponent> {
    @Override
    public WireComponent convert(String value) {
      WireComponent c = WireComponent.fromWireName(value);
      if (c == null) {
        throw new TypeConversionException("unknown component \"" + value + "\" (v41 or v61)");
      }
      return c;
    }
  }
}
