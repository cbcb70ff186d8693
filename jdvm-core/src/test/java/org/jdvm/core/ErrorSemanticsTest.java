package org.jdvm.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jdvm.core.TestDvm.proc;

import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.jdvm.pmix.AllocDirective;
import org.jdvm.pmix.PmixStatus;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The error table of spec §8.2.1.8, row by row: each condition gets its status, and leaves no
 * observable partial effect (the state digest is unchanged and the only effect is the reply).
 */
class ErrorSemanticsTest {

  /** A fixture: tool {@code a} owns allocation "A" with application {@code job} in it. */
  record Fixture(TestDvm dvm, String a, String b, String job) {
    static Fixture create() {
      TestDvm dvm = TestDvm.withNodes(1, 4);
      String a = dvm.tool();
      String b = dvm.tool();
      dvm.allocateGranted(
          dvm.allocate(a, AllocDirective.NEW).nodeCount(1).allocId("A").build(),
          List.of(new NodeSpec("s1", 4)));
      String job = dvm.spawnLaunched(a, 1, "A");
      return new Fixture(dvm, a, b, job);
    }
  }

  record Row(String condition, Function<Fixture, Command> command, int status) {
    @Override
    public String toString() {
      return condition;
    }
  }

  static List<Row> rows() {
    return List.of(
        new Row(
            "Application request carries PMIX_ALLOC_TARGET",
            f -> f.dvm().allocate(f.job(), AllocDirective.NEW).nodeCount(1).target(f.a()).build(),
            PmixStatus.ERR_NO_PERMISSIONS),
        new Row(
            "PMIX_ALLOC_EXTEND names an allocation the requester does not own",
            f -> f.dvm().allocate(f.b(), AllocDirective.EXTEND).allocId("A").nodeCount(1).build(),
            PmixStatus.ERR_NO_PERMISSIONS),
        new Row(
            "PMIX_ALLOC_EXTEND names an allocation that does not exist",
            f -> f.dvm().allocate(f.a(), AllocDirective.EXTEND).allocId("Z").nodeCount(1).build(),
            PmixStatus.ERR_NOT_FOUND),
        new Row(
            "PMIX_ALLOC_EXTEND carries neither PMIX_ALLOC_ID nor PMIX_ALLOC_REQ_ID",
            f -> f.dvm().allocate(f.a(), AllocDirective.EXTEND).nodeCount(1).build(),
            PmixStatus.ERR_BAD_PARAM),
        new Row(
            "PMIX_SPAWN_TARGET names an allocation that resolves to no session",
            f ->
                Request.Spawn.of(f.dvm().rid(), proc(f.a()), TestDvm.apps(1))
                    .withTarget(List.of("A", "Z")),
            PmixStatus.ERR_NOT_FOUND),
        new Row(
            "PMIX_SPAWN_TARGET names a session the requester does not own",
            f ->
                Request.Spawn.of(f.dvm().rid(), proc(f.b()), TestDvm.apps(1))
                    .withTarget(List.of("", "A")),
            PmixStatus.ERR_NO_PERMISSIONS),
        new Row(
            "PMIX_ALLOC_INHERITANCE carries a non-default value the host does not support",
            f -> f.dvm().allocate(f.a(), AllocDirective.NEW).nodeCount(1).inheritance(5).build(),
            PmixStatus.ERR_NOT_SUPPORTED));
  }

  static Stream<Row> table() {
    return rows().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("table")
  void eachConditionOfTheTableIsRefusedWithItsStatusAndChangesNothing(Row row) {
    assertRowRefusedWithoutEffect(row);
  }

  static void assertRowRefusedWithoutEffect(Row row) {
    Fixture f = Fixture.create();
    String before = f.dvm().digest();
    Command command = row.command().apply(f);
    Outcome o = f.dvm().handle(command);
    assertThat(o.rejected()).as(row.condition()).isTrue();
    assertThat(o.rejection().status()).as(row.condition()).isEqualTo(row.status());
    assertThat(o.changes()).isEmpty();
    assertThat(o.effects()).as(row.condition()).hasSize(1);
    Effect.Reply reply = TestDvm.reply(o);
    assertThat(reply.status()).isEqualTo(row.status());
    assertThat(reply.requestId()).isEqualTo(((Request) command).requestId());
    assertThat(f.dvm().digest()).as(row.condition()).isEqualTo(before);
  }
}
