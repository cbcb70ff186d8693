package org.jdvm.cli.pmix;

import org.jdvm.pmix.BufferType;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.WireComponent;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.json.JsonException;
import org.jdvm.pmix.json.ValueJson;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * What encode and decode share: the data type and wire format of the one pack call, and how the
 * command answers — one line of output, or one line saying why the input is malformed (exit 3).
 */
final class WireOptions {
  @Spec(Spec.Target.MIXEE)
  CommandSpec command;

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

  /** Prints the conversion's one line; exit status 0. */
  int printed(String line) {
    command.commandLine().getOut().println(line);
    return PmixCommand.EXIT_OK;
  }

  /** Malformed input: one line on standard error naming the command; exit status 3. */
  int refused(String message) {
    command.commandLine().getErr().println("jdvm pmix " + command.name() + ": " + message);
    return PmixCommand.EXIT_REFUSED;
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
