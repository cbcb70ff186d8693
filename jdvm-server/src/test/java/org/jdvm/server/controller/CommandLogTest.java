package org.jdvm.server.controller;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A command's line shows each field as {@code String.valueOf} renders it, cut at 200 characters —
 * also when a long list or map is rendered only as far as the cut.
 */
class CommandLogTest {

  @Test
  void aFieldIsShownAsItsStringUpToTheCut() {
    Random random = new Random(1125);
    for (int round = 0; round < 2_000; round++) {
      int n = random.nextInt(round % 10 == 0 ? 400 : 12);
      List<String> list = new ArrayList<>();
      Map<String, Object> map = new LinkedHashMap<>();
      for (int i = 0; i < n; i++) {
        String s = "v" + Long.toString(random.nextLong(), 36).repeat(random.nextInt(4));
        list.add(s);
        map.put("k" + i, random.nextBoolean() ? s : List.of(s, i));
      }
      for (Object v : List.of(list, map, List.of(list, map))) {
        String full = String.valueOf(v);
        String shown = CommandLog.shown(v);
        assertThat(full).as("round %d", round).startsWith(shown);
        if (!shown.equals(full)) {
          assertThat(shown.length()).as("round %d", round).isGreaterThan(200);
        }
      }
    }
  }
}
