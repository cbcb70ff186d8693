package org.jdvm.server.controller;

import java.lang.reflect.RecordComponent;
import java.util.Collection;
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

  private static void appendFields(StringBuilder line, Object record) {
    if (!record.getClass().isRecord()) {
      return;
    }
    for (RecordComponent c : record.getClass().getRecordComponents()) {
      Object v;
      try {
        v = c.getAccessor().invoke(record);
      } catch (ReflectiveOperationException e) {
        continue;
      }
      if (v == null || (v instanceof Collection<?> col && col.isEmpty())) {
        continue;
      }
      line.append(' ').append(c.getName()).append('=').append(quote(String.valueOf(v)));
    }
  }

  private static String quote(String v) {
    if (v.length() > 200) {
      v = v.substring(0, 197) + "...";
    }
    boolean plain = !v.isEmpty();
    for (int i = 0; i < v.length() && plain; i++) {
      char ch = v.charAt(i);
      plain = ch > ' ' && ch != '"' && ch != '=';
    }
    return plain ? v : '"' + v.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }
}
