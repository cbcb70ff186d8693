package org.jdvm.endpoint.deliver;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdvm.core.Change;
import org.jdvm.core.RequestId;
import org.jdvm.pmix.App;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.Envar;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.json.Json;

/**
 * The operator feed's rendering of a {@link Change} (docs/protocol.md "Operator feed"): one human
 * line, {@code JobSpawned namespace=jdvm@3 parent=jdvm@1 ...}, and a JSON object whose first key
 * {@code change} names the change and whose other keys are the change's fields in declaration
 * order. Changes are records, so both come from the record's components; processes print as {@code
 * nspace.rank}, enums by name, infos as key and value; the line shows a list's first {@link
 * #LINE_ENTRIES} entries and how many more there are. An application's environment shows its
 * variables' names, never their values (nor an {@code Envar}'s value): those may be secrets, and
 * every tool of the DVM's user may read the feed.
 */
final class ChangeFeed {
  private ChangeFeed() {}

  static String line(Change change) {
    StringBuilder sb = new StringBuilder(change.getClass().getSimpleName());
    for (RecordComponent rc : change.getClass().getRecordComponents()) {
      Object v = component((Record) change, rc);
      if (v == null || v instanceof Collection<?> c && c.isEmpty()) {
        continue;
      }
      sb.append(' ').append(rc.getName()).append('=').append(top(v));
    }
    return sb.toString();
  }

  /**
   * How many entries of a list the human line shows (a job's placements, its started processes):
   * the line of a job of 20,000 processes stays short; the JSON form holds every entry.
   */
  static final int LINE_ENTRIES = 16;

  /** A component of the human line: a long list shortened to its first entries and a count. */
  private static String top(Object v) {
    if (v instanceof Collection<?> c && c.size() > LINE_ENTRIES) {
      List<String> parts = new ArrayList<>(LINE_ENTRIES + 1);
      for (Object o : c) {
        if (parts.size() == LINE_ENTRIES) {
          break;
        }
        parts.add(text(o));
      }
      parts.add("... (" + (c.size() - LINE_ENTRIES) + " more of " + c.size() + "; --json: all)");
      return String.join(",", parts);
    }
    return text(v);
  }

  static String json(Change change) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("change", change.getClass().getSimpleName());
    for (RecordComponent rc : change.getClass().getRecordComponents()) {
      m.put(rc.getName(), tree(component((Record) change, rc)));
    }
    return Json.write(m);
  }

  private static Object component(Record r, RecordComponent rc) {
    try {
      return rc.getAccessor().invoke(r);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("a record component is readable", e);
    }
  }

  private static String text(Object v) {
    if (v instanceof Collection<?> c) {
      List<String> parts = new ArrayList<>(c.size());
      for (Object o : c) {
        parts.add(text(o));
      }
      return String.join(",", parts);
    }
    if (v instanceof Info i) {
      return i.key() + ":" + text(i.value().data());
    }
    if (v instanceof Record r && !(v instanceof Proc) && !(v instanceof RequestId)) {
      return Json.write(tree(r));
    }
    return String.valueOf(v);
  }

  /** A JSON tree of a value found in a change. */
  static Object tree(Object v) {
    return switch (v) {
      case null -> null;
      case String s -> s;
      case Boolean b -> b;
      case Number n -> n;
      case Enum<?> e -> e.name();
      case Proc p -> p.toString();
      case RequestId id -> id.value();
      case Value val -> tree(val.data());
      case Info i -> {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("key", i.key());
        m.put("value", tree(i.value().data()));
        yield m;
      }
      case ByteObject b -> b.toString();
      case App a -> {
        // The environment's names only: its values may be secrets, and the feed goes to any tool.
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cmd", a.cmd());
        m.put("argv", a.argv());
        m.put("env", a.envNames());
        m.put("cwd", a.cwd());
        m.put("maxprocs", a.maxprocs());
        m.put("info", tree(a.info()));
        yield m;
      }
      case Envar e -> {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("envar", e.envar());
        m.put("separator", (int) e.separator());
        yield m;
      }
      case Collection<?> c -> {
        List<Object> out = new ArrayList<>(c.size());
        for (Object o : c) {
          out.add(tree(o));
        }
        yield out;
      }
      case Record r -> {
        Map<String, Object> m = new LinkedHashMap<>();
        for (RecordComponent rc : r.getClass().getRecordComponents()) {
          m.put(rc.getName(), tree(component(r, rc)));
        }
        yield m;
      }
      default -> String.valueOf(v);
    };
  }
}
