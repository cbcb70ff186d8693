package org.jdvm.pmix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The signal table row by row, against Linux's numbering (signal(7), x86-64 and arm64). */
class SignalTest {

  /** Name without SIG and Linux number, as signal(7) lists them. */
  static Stream<Arguments> linux() {
    return Stream.of(
        Arguments.of("HUP", 1),
        Arguments.of("INT", 2),
        Arguments.of("QUIT", 3),
        Arguments.of("ILL", 4),
        Arguments.of("TRAP", 5),
        Arguments.of("ABRT", 6),
        Arguments.of("BUS", 7),
        Arguments.of("FPE", 8),
        Arguments.of("KILL", 9),
        Arguments.of("USR1", 10),
        Arguments.of("SEGV", 11),
        Arguments.of("USR2", 12),
        Arguments.of("PIPE", 13),
        Arguments.of("ALRM", 14),
        Arguments.of("TERM", 15),
        Arguments.of("STKFLT", 16),
        Arguments.of("CHLD", 17),
        Arguments.of("CONT", 18),
        Arguments.of("STOP", 19),
        Arguments.of("TSTP", 20),
        Arguments.of("TTIN", 21),
        Arguments.of("TTOU", 22),
        Arguments.of("URG", 23),
        Arguments.of("XCPU", 24),
        Arguments.of("XFSZ", 25),
        Arguments.of("VTALRM", 26),
        Arguments.of("PROF", 27),
        Arguments.of("WINCH", 28),
        Arguments.of("IO", 29),
        Arguments.of("PWR", 30),
        Arguments.of("SYS", 31));
  }

  @ParameterizedTest(name = "SIG{0} = {1}")
  @MethodSource("linux")
  void eachSignalHasItsLinuxNumberBothWays(String name, int number) {
    Signal s = Signal.valueOf(name);
    assertThat(s.number()).isEqualTo(number);
    assertThat(s.posixName()).isEqualTo("SIG" + name);
    assertThat(Signal.fromNumber(number)).isSameAs(s);
    assertThat(Signal.isSignalNumber(number)).isTrue();
  }

  @ParameterizedTest(name = "SIG{0} parses from its name, SIG name, lower case and number")
  @MethodSource("linux")
  void eachSignalParsesFromEveryWayAUserWritesIt(String name, int number) {
    Signal s = Signal.valueOf(name);
    for (String text :
        new String[] {name, "SIG" + name, name.toLowerCase(), "sig" + name.toLowerCase()}) {
      assertThat(Signal.fromName(text)).as(text).isSameAs(s);
      assertThat(Signal.parse(text)).as(text).isEqualTo(number);
    }
    assertThat(Signal.parse(Integer.toString(number))).isEqualTo(number);
  }

  @Test
  void theTableHasExactlyTheRowsAbove() {
    assertThat(Arrays.stream(Signal.values()).map(Enum::name))
        .containsExactlyElementsOf(linux().map(a -> (String) a.get()[0]).toList());
  }

  @Test
  void aNumberIsTakenAsItIsAndTheReceiverJudgesIt() {
    assertThat(Signal.parse("40")).isEqualTo(40);
    assertThat(Signal.fromNumber(40)).isNull();
    assertThat(Signal.isSignalNumber(40)).isTrue();
    assertThat(Signal.parse("0")).isZero();
    assertThat(Signal.parse("-3")).isEqualTo(-3);
  }

  @ParameterizedTest(name = "\"{0}\" is not a signal")
  @ValueSource(strings = {"BOGUS", "SIG", "", "SIGSIGTERM", "TERM15", "RTMIN"})
  void anUnknownNameIsRefusedWithTheTextInTheMessage(String text) {
    assertThatThrownBy(() -> Signal.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown signal '" + text + "'");
    assertThat(Signal.fromName(text)).isNull();
  }

  @Test
  void signalNumbersRunFromOneToSixtyFour() {
    assertThat(Signal.isSignalNumber(0)).isFalse();
    assertThat(Signal.isSignalNumber(1)).isTrue();
    assertThat(Signal.isSignalNumber(Signal.MAX_NUMBER)).isTrue();
    assertThat(Signal.MAX_NUMBER).isEqualTo(64);
    assertThat(Signal.isSignalNumber(65)).isFalse();
    assertThat(Signal.isSignalNumber(-9)).isFalse();
    for (int n : new int[] {0, -1, 32, 64, 65, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
      assertThat(Signal.fromNumber(n)).as("%d", n).isNull();
    }
  }

  @Test
  void aShellReportsASignalledProcessAs128PlusTheSignal() {
    assertThat(Signal.shellExitStatus(Signal.KILL.number())).isEqualTo(137);
    assertThat(Signal.shellExitStatus(Signal.TERM.number())).isEqualTo(143);
  }
}
