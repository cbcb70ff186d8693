package org.jdvm.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jdvm.core.engine.Core;
import org.jdvm.core.query.CoreView;
import org.jdvm.pmix.AllocDirective;
import org.junit.jupiter.api.Test;

/**
 * The shell can change the core's state only through {@code handle} (architecture.md §1): {@link
 * Core} hands out nothing that leads to the live state but read-only views, and nothing a view
 * returns, even cast to the entity behind it, lets a caller change the state.
 */
class CoreSurfaceTest {
  private static final Set<String> API_PACKAGES =
      Set.of("org.jdvm.core", "org.jdvm.core.engine", "org.jdvm.core.query", "org.jdvm.pmix");

  @Test
  void corePublicMethodsSpeakOnlyTheApiPackages() {
    for (Method m : Core.class.getMethods()) {
      if (m.getDeclaringClass() != Core.class) {
        continue;
      }
      List<Class<?>> types = new ArrayList<>(List.of(m.getParameterTypes()));
      types.add(m.getReturnType());
      for (Class<?> t : types) {
        if (!t.isPrimitive()) {
          String pkg = t.getPackageName();
          assertThat(pkg.startsWith("java.") || API_PACKAGES.contains(pkg))
              .as("Core.%s uses %s", m.getName(), t.getName())
              .isTrue();
        }
      }
    }
  }

  @Test
  void nothingAViewHandsOutChangesTheStateWhenMutated() throws Exception {
    TestDvm dvm = TestDvm.withNodes(2, 4);
    String tool = dvm.tool();
    String a = dvm.reserve(tool, 2, "s1", "s2");
    String job = dvm.spawnLaunched(tool, 3, a, "");
    dvm.handle(dvm.allocate(tool, AllocDirective.NEW).nodeCount(1).build());
    String before = dvm.digest();
    CoreView view = dvm.core.view();
    List<Object> reached = new ArrayList<>();
    reached.addAll(view.nodes());
    reached.addAll(view.allocations());
    reached.addAll(view.jobs());
    reached.addAll(view.pending());
    reached.add(view.allocationIds());
    view.job(job).orElseThrow().procs().forEach(reached::add);
    int tried = 0;
    for (Object o : reached) {
      tried += tryToMutate(o);
      if (!Modifier.isPublic(o.getClass().getModifiers())) {
        continue;
      }
      for (Method m : o.getClass().getMethods()) {
        if (m.getParameterCount() == 0
            && !Modifier.isStatic(m.getModifiers())
            && m.getDeclaringClass() != Object.class) {
          tried += tryToMutate(m.invoke(o));
        }
      }
    }
    assertThat(tried).as("collections and arrays reached").isGreaterThan(20);
    assertThat(dvm.digest()).isEqualTo(before);
  }

  /** Tries to empty a collection, map or array; returns 1 if it was one. */
  private static int tryToMutate(Object value) {
    try {
      switch (value) {
        case Collection<?> c -> c.clear();
        case Map<?, ?> m -> m.clear();
        case Object array when array.getClass().isArray() && Array.getLength(array) > 0 -> {
          Array.set(array, 0, Array.get(array, Array.getLength(array) - 1));
        }
        case null, default -> {
          return 0;
        }
      }
    } catch (UnsupportedOperationException refused) {
      // an unmodifiable view: what we want
    }
    return 1;
  }
}
