package org.jdvm.client;

import java.util.List;
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
}
