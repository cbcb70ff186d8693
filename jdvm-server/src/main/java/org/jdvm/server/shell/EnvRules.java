package org.jdvm.server.shell;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Envar;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;

/**
 * Applies a spawn's environment directives to a process's environment, in the order the app's info
 * holds them (the job's first, then the app's own: {@code endpoint.serve.EnvDirectives}), as PRRTE
 * applies them: {@code PMIX_SET_ENVAR} sets, {@code PMIX_ADD_ENVAR} sets unless already set, {@code
 * PMIX_UNSET_ENVAR} removes, {@code PMIX_PREPEND_ENVAR} / {@code PMIX_APPEND_ENVAR} put the value
 * in front of / after what is there with the separator between (the value alone when nothing is
 * there), {@code PMIX_FIRST_ENVAR} moves or puts the value in front. Anything else in the info is
 * left alone. The launch sets jdvm's own variables after these, so they always win.
 */
final class EnvRules {
  private EnvRules() {}

  /** Applies every directive in {@code info} to {@code env}, in order. */
  static void apply(Map<String, String> env, List<Info> info) {
    for (Info i : info) {
      if (i.key().equals(PmixKeys.UNSET_ENVAR)) {
        if (i.value().type() == DataType.STRING) {
          env.remove(i.value().asString());
        }
        continue;
      }
      if (i.value().type() != DataType.ENVAR) {
        continue;
      }
      Envar e = (Envar) i.value().data();
      String name = e.envar();
      String value = e.value() == null ? "" : e.value();
      String sep = Character.toString((char) (e.separator() & 0xff));
      String old = env.get(name);
      switch (i.key()) {
        case PmixKeys.SET_ENVAR -> env.put(name, value);
        case PmixKeys.ADD_ENVAR -> env.putIfAbsent(name, value);
        case PmixKeys.PREPEND_ENVAR ->
            env.put(name, old == null || old.isEmpty() ? value : value + sep + old);
        case PmixKeys.APPEND_ENVAR ->
            env.put(name, old == null || old.isEmpty() ? value : old + sep + value);
        case PmixKeys.FIRST_ENVAR -> env.put(name, first(old, value, sep));
        default -> {}
      }
    }
  }

  /** {@code value} first among {@code old}'s separated parts, and only once. */
  private static String first(String old, String value, String sep) {
    if (old == null || old.isEmpty()) {
      return value;
    }
    List<String> parts = new ArrayList<>();
    parts.add(value);
    for (String p : old.split(java.util.regex.Pattern.quote(sep), -1)) {
      if (!p.equals(value)) {
        parts.add(p);
      }
    }
    return String.join(sep, parts);
  }
}
