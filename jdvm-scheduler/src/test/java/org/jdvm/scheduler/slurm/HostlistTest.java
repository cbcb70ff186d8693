package org.jdvm.scheduler.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class HostlistTest {
  @ParameterizedTest
  @CsvSource(
      delimiter = ';',
      value = {
        "node1; node1",
        "node[1-3,5]; node1,node2,node3,node5",
        "a,b; a,b",
        "node[08-11]; node08,node09,node10,node11",
        "rack[1-2]-n[01-02]; rack1-n01,rack1-n02,rack2-n01,rack2-n02",
        "gpu[1,3],cpu[7-8],login; gpu1,gpu3,cpu7,cpu8,login",
        "n[9-10].ib; n9.ib,n10.ib",
      })
  void hostlistsExpandInSlurmsOrder(String expression, String expected) {
    assertThat(Hostlist.expand(expression)).containsExactly(expected.split(","));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "node[",
        "node]",
        "node[1-",
        "node[3-1]",
        "node[a-b]",
        "node[[1]]",
        "a,,b",
        ",a",
        "node[1-3];rm",
        "node[1-2] x",
        "-w",
        "node[0-99999999]",
        "n[1-300]m[1-300]"
      })
  void malformedOrHugeHostlistsAreRefused(String expression) {
    assertThatThrownBy(() -> Hostlist.expand(expression))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = ';',
      value = {"4; 4", "2(x3),1; 2,2,2,1", "4(x2); 4,4", "1,2,3; 1,2,3", "16(x1); 16"})
  void repeatListsExpand(String list, String expected) {
    assertThat(Hostlist.repeatList(list))
        .containsExactlyElementsOf(
            java.util.Arrays.stream(expected.split(",")).map(Integer::valueOf).toList());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"", "0", "2(x0)", "2(3)", "2(x3", "x", "2(x3),", "-1", "2(x99999999)", "1 ,2"})
  void malformedRepeatListsAreRefused(String list) {
    assertThatThrownBy(() -> Hostlist.repeatList(list))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** Seeded: a list of names folded into Slurm's form by ranges expands back to the names. */
  @Test
  void compactedRangesExpandBackToTheirNames() {
    long seed = new Random().nextLong();
    Random r = new Random(seed);
    for (int round = 0; round < 500; round++) {
      List<String> names = new ArrayList<>();
      StringBuilder ranges = new StringBuilder();
      int at = r.nextInt(5);
      for (int g = 0; g < 1 + r.nextInt(4); g++) {
        int len = 1 + r.nextInt(4);
        ranges.append(ranges.isEmpty() ? "" : ",").append(at);
        if (len > 1) {
          ranges.append('-').append(at + len - 1);
        }
        for (int i = 0; i < len; i++) {
          names.add("n" + (at + i));
        }
        at += len + 1 + r.nextInt(3);
      }
      assertThat(Hostlist.expand("n[" + ranges + "]")).as("seed " + seed).isEqualTo(names);
    }
  }
}
