package org.jdvm.client;

import java.util.List;
import org.jdvm.pmix.DataRange;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PData;
import org.jdvm.pmix.Persistence;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;

/**
 * A Java rank of a mixed job, the twin of {@code wireup/pmix_mixed.c}: connects as the process jdvm
 * launched, puts {@code wireup.who = "java-<rank>"} (GLOBAL), commits, fences over its namespace
 * collecting data, and gets {@code wireup.who} of every other rank. Prints one {@code OK mixed-java
 * ... peer=P who=W} line per peer; exits 0 only if every get succeeded.
 */
public final class MixedJobRank {
  private MixedJobRank() {}

  public static void main(String[] args) throws Exception {
    int failures = 0;
    try (JdvmClient me = JdvmClient.connector().output(OutputHandler.DISCARD).connect()) {
      WireUp w = me.wireUp();
      Proc self = me.self();
      int size = Integer.parseInt(args[0]);
      w.put(WireUp.Scope.GLOBAL, "wireup.who", Value.string("java-" + self.rank()));
      w.commit();
      w.fence(List.of(), true, 20);
      if (args.length > 1 && args[1].equals("--all")) {
        failures += others(me, w, self);
      }
      for (int r = 0; r < size; r++) {
        if (r == self.rank()) {
          continue;
        }
        try {
          Value who = w.get(new Proc(self.nspace(), r), "wireup.who");
          System.out.println(
              "OK mixed-java ns="
                  + self.nspace()
                  + " rank="
                  + self.rank()
                  + " peer="
                  + r
                  + " who="
                  + who.asString());
        } catch (PmixException e) {
          failures++;
          System.out.println(
              "FAIL mixed-java rank=" + self.rank() + " peer=" + r + " " + e.statusName());
        }
      }
    } catch (PmixException e) {
      System.out.println("FAIL mixed-java " + e.statusName() + " " + PmixStatus.name(e.status()));
      System.exit(2);
    }
    System.exit(failures == 0 ? 0 : 1);
  }

  /**
   * The rest of the wire-up with {@code --all}: publish, a lookup without waiting, unpublish (a
   * lookup then finds nothing), a log line, and a connect and disconnect of this process alone.
   */
  private static int others(JdvmClient me, WireUp w, Proc self) {
    int failures = 0;
    String key = "mixed.port." + self.rank();
    try {
      w.publish(
          List.of(Info.of(key, Value.string("uri-of-" + self.rank()))),
          DataRange.SESSION,
          Persistence.INDEF);
      List<PData> found = w.lookup(List.of(key), false, 0);
      boolean ok =
          found.size() == 1
              && found.get(0).value().asString().equals("uri-of-" + self.rank())
              && found.get(0).proc().equals(self);
      failures += ok ? 0 : 1;
      System.out.println((ok ? "OK" : "FAIL") + " mixed-java lookup " + found);
      w.unpublish(List.of(key));
      try {
        w.lookup(List.of(key), false, 0);
        failures++;
        System.out.println("FAIL mixed-java lookup after unpublish found it");
      } catch (PmixException e) {
        System.out.println("OK mixed-java lookup after unpublish " + e.statusName());
      }
      w.log(List.of(Info.of("pmix.log.stderr", Value.string("log-from-java"))), List.of());
      System.out.println("OK mixed-java log");
      w.connect(List.of(self), 10);
      w.disconnect(List.of(self), 10);
      System.out.println("OK mixed-java connect and disconnect");
    } catch (PmixException e) {
      failures++;
      System.out.println("FAIL mixed-java " + e.statusName() + ": " + e.getMessage());
    }
    return failures;
  }
}
