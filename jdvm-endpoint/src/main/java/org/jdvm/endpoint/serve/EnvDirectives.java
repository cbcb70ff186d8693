package org.jdvm.endpoint.serve;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.pmix.App;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Envar;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;

/**
 * A spawn's environment directives (docs/cli.md "Environment, working directory, time limit"):
 * {@code PMIX_SET_ENVAR}, {@code PMIX_ADD_ENVAR}, {@code PMIX_PREPEND_ENVAR}, {@code
 * PMIX_APPEND_ENVAR}, {@code PMIX_FIRST_ENVAR} (a {@code pmix_envar_t} each) and {@code
 * PMIX_UNSET_ENVAR} (the name, a string), in the job's info or an app's. Each app leaves here with
 * the job's directives in front of its own, in the order they were given, in its info: that is what
 * the launch applies, in that order, to the process's environment before jdvm's own variables
 * ({@code shell.EnvRules}), on whichever node starts it.
 *
 * <p>A directive for a variable jdvm sets itself ({@code PMIX_*}, {@code PMI_*}, {@code JDVM_*}:
 * the wire-up and the DVM's contact) is refused {@code PMIX_ERR_BAD_PARAM}, as is one without a
 * name, a name with {@code =}, or a value of another type: jdvm's own variables always win, and a
 * rule that could not be honoured is said at once rather than ignored.
 */
final class EnvDirectives {
  private EnvDirectives() {}

  /** Whether {@code key} is one of the directives. */
  static boolean isDirective(String key) {
    return switch (key) {
      case PmixKeys.SET_ENVAR,
          PmixKeys.ADD_ENVAR,
          PmixKeys.UNSET_ENVAR,
          PmixKeys.PREPEND_ENVAR,
          PmixKeys.APPEND_ENVAR,
          PmixKeys.FIRST_ENVAR ->
          true;
      default -> false;
    };
  }

  /** The apps with the job's directives put in front of each app's own, every one checked. */
  static List<App> apply(List<Info> jobInfos, List<App> apps) throws BadRequest {
    List<Info> job = new ArrayList<>();
    for (Info i : jobInfos) {
      if (isDirective(i.key())) {
        job.add(check(i));
      }
    }
    List<App> out = new ArrayList<>(apps.size());
    for (App a : apps) {
      List<Info> own = new ArrayList<>();
      List<Info> rest = new ArrayList<>(a.info().size());
      for (Info i : a.info()) {
        if (isDirective(i.key())) {
          own.add(check(i));
        } else {
          rest.add(i);
        }
      }
      if (job.isEmpty() && own.isEmpty()) {
        out.add(a);
        continue;
      }
      List<Info> info = new ArrayList<>(job);
      info.addAll(own);
      info.addAll(rest);
      out.add(new App(a.cmd(), a.argv(), a.env(), a.cwd(), a.maxprocs(), info));
    }
    return out;
  }

  private static Info check(Info i) throws BadRequest {
    String name;
    if (i.key().equals(PmixKeys.UNSET_ENVAR)) {
      name = Values.string(i);
    } else {
      if (i.value().type() != DataType.ENVAR) {
        throw Values.wrongType(i, "a pmix_envar_t");
      }
      Envar e = (Envar) i.value().data();
      if (e.value() == null && !i.key().equals(PmixKeys.SET_ENVAR)) {
        throw BadRequest.param(i.key() + " for " + e.envar() + " without a value");
      }
      name = e.envar();
    }
    if (name == null || name.isEmpty() || name.indexOf('=') >= 0) {
      throw BadRequest.param(i.key() + " names no variable: \"" + name + "\"");
    }
    if (reserved(name)) {
      throw BadRequest.param(
          i.key() + " for " + name + ": jdvm sets PMIX_*, PMI_* and JDVM_* itself");
    }
    return i;
  }

  /** A variable jdvm's launch sets or leaves out itself, which no directive may touch. */
  static boolean reserved(String name) {
    return name.startsWith("PMIX_") || name.startsWith("PMI_") || name.startsWith("JDVM_");
  }
}
