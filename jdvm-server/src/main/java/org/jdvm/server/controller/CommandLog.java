package org.jdvm.server.controller;

import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.Collection;
import java.util.Map;
import org.jdvm.core.Command;
import org.jdvm.core.Outcome;

/**
 * The controller's structured log: one {@code key=value} line per command (house-style.md
 * "Logging"). The core never logs; what it decided is in the outcome, so the line says the command,
 * how it was decided, how many changes and effects it made, and how long it took.
 */
public final class CommandLog {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.controller");

  private CommandLog() {}

  /** Logs one handled command at INFO. */
  public static void handled(Command command, Outcome outcome, long tookNs) {
    if (!LOG.isLoggable(System.Logger.Level.INFO)) {
      return;
    }
    StringBuilder line = new StringBuilder(160);
    line.append("cmd=").append(command.getClass().getSimpleName());
    appendFields(line, command);
    if (outcome.rejected()) {
      line.append(" outcome=rejected reason=").append(outcome.rejection());
    } else {
      line.append(" outcome=ok");
    }
    line.append(" changes=").append(outcome.changes().size());
    line.append(" effects=").append(outcome.effects().size());
    line.append(" us=").append(tookNs / 1000);
    LOG.log(System.Logger.Level.INFO, line.toString());
  }

  /** Logs a command the core threw on, with the row of {@link Failure} that decided about it. */
  static void failed(Command command, Failure kind, Throwable e) {
    StringBuilder line = new StringBuilder("cmd=").append(command.getClass().getSimpleName());
    appendFields(line, command);
    line.append(kind.verdict() == Failure.Verdict.REFUSE ? " outcome=refused" : " outcome=stopped");
    line.append(" failure=").append(kind);
    line.append(" error=").append(quote(String.valueOf(e)));
    LOG.log(System.Logger.Level.ERROR, line.toString(), e);
  }

  /** A record component's name and accessor, looked up once per command type. */
  private record Field(String name, Method accessor) {}

  private static final ClassValue<Field[]> FIELDS =
      new ClassValue<>() {
        @Override
        protected Field[] computeValue(Class<?> type) {
          if (!type.isRecord()) {
            return new Field[0];
          }
          RecordComponent[] components = type.getRecordComponents();
          Field[] fields = new Field[components.length];
          for (int i = 0; i < components.length; i++) {
            Method accessor = components[i].getAccessor();
            try {
              accessor.setAccessible(true);
            } catch (RuntimeException e) {
              // A public accessor of a public record needs none.
            }
            fields[i] = new Field(components[i].getName(), accessor);
          }
          return fields;
        }
      };

  private static void appendFields(StringBuilder line, Object record) {
    // The accessors are kept: a fresh Method per call made a new reflective accessor each time,
    // which showed as a seventh of the controller's CPU under load.
    for (Field f : FIELDS.get(record.getClass())) {
      Object v;
      try {
        v = f.accessor().invoke(record);
      } catch (ReflectiveOperationException | RuntimeException e) {
        continue;
      }
      if (v == null || (v instanceof Collection<?> col && col.isEmpty())) {
        continue;
      }
      line.append(' ').append(f.name()).append('=').append(quote(shown(v)));
    }
  }

  /**
   * {@code String.valueOf(v)}, except that a collection or map stops being rendered once its text
   * is longer than {@link #quote} keeps: a spawn's whole environment is not turned into a string to
   * be cut at 200 characters.
   */
  static String shown(Object v) {
    if (v instanceof Collection<?> col) {
      StringBuilder b = new StringBuilder().append('[');
      boolean first = true;
      for (Object e : col) {
        if (!first) {
          b.append(", ");
        }
        first = false;
        b.append(e == col ? "(this Collection)" : String.valueOf(e));
        if (b.length() > SHOWN) {
          return b.toString();
        }
      }
      return b.append(']').toString();
    }
    if (v instanceof Map<?, ?> map) {
      StringBuilder b = new StringBuilder().append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (!first) {
          b.append(", ");
        }
        first = false;
        b.append(e.getKey() == map ? "(this Map)" : String.valueOf(e.getKey()))
            .append('=')
            .append(e.getValue() == map ? "(this Map)" : String.valueOf(e.getValue()));
        if (b.length() > SHOWN) {
          return b.toString();
        }
      }
      return b.append('}').toString();
    }
    return String.valueOf(v);
  }

  /** How much of a value a line shows. */
  private static final int SHOWN = 200;

  private static String quote(String v) {
    if (v.length() > SHOWN) {
      v = v.substring(0, SHOWN - 3) + "...";
    }
    boolean plain = !v.isEmpty();
    for (int i = 0; i < v.length() && plain; i++) {
      char ch = v.charAt(i);
      plain = ch > ' ' && ch != '"' && ch != '=';
    }
    return plain ? v : '"' + v.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }
}
