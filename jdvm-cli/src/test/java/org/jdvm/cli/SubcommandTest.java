package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The registration table ({@link Subcommand}): a command is reached the same way whether {@code
 * jdvm} builds the full model, the model of that command alone, or takes the lean path — and no
 * command class is left out of it.
 */
class SubcommandTest {
  private static List<String> names() {
    return Arrays.stream(Subcommand.values()).map(Subcommand::commandName).toList();
  }

  @Test
  void theFullModelHoldsEveryRegisteredCommandInTableOrderAndNothingElse() {
    assertThat(Main.commandLine().getSubcommands().keySet()).containsExactlyElementsOf(names());
  }

  @Test
  void aCommandBuiltAloneIsTheCommandOfTheFullModelDownToItsLastSubcommand() {
    CommandLine full = Main.commandLine();
    for (Subcommand c : Subcommand.values()) {
      if (c.runsAlone()) {
        assertThat(tree(c.alone()))
            .as(c.commandName())
            .isEqualTo(tree(full.getSubcommands().get(c.commandName())));
      }
    }
  }

  /** Every command's parsing stops at its first positional argument, however it is reached. */
  @Test
  void everyCommandInEitherModelLeavesTheArgumentsAfterItsCommandAlone() {
    List<CommandLine> all = new ArrayList<>();
    collect(Main.commandLine(), all);
    for (Subcommand c : Subcommand.values()) {
      if (c.runsAlone()) {
        collect(c.alone(), all);
      }
    }
    assertThat(all).hasSizeGreaterThan(Subcommand.values().length * 2);
    assertThat(all)
        .allSatisfy(cl -> assertThat(cl.isStopAtPositional()).as(cl.getCommandName()).isTrue());
  }

  /** Through {@link Main#run}: {@code jdvm NAME --help} and {@code jdvm help NAME} agree. */
  @Test
  void everyNameReachesTheSameCommandByItsOwnPathAndThroughHelp() {
    for (String name : names()) {
      CliRun own = CliRun.of(name, "--help");
      CliRun viaHelp = CliRun.of("help", name);
      assertThat(own.status()).as(name).isZero();
      assertThat(own.out()).as(name).isNotBlank().isEqualTo(viaHelp.out());
      assertThat(own.out()).as(name).contains("Usage: jdvm " + name + " ");
    }
  }

  @Test
  void aNameThatIsNotRegisteredIsAMistakeThatTheFullModelExplains() {
    assertThat(Subcommand.named("runn")).isNull();
    CliRun r = CliRun.of("runn", "--", "true");
    assertThat(r.status()).isEqualTo(Main.EXIT_USAGE);
    assertThat(r.err()).contains("Unmatched argument").contains("Did you mean: jdvm run?");
  }

  @Test
  void theLeanPathLeavesHelpAndMistakesToPicocli() {
    for (String[] args :
        new String[][] {
          {"run", "--help"}, {"run", "-h"}, {"run", "-V"}, {"run"}, {"run", "--bogus", "true"}
        }) {
      assertThat(RunCommand.runLean(args)).as(String.join(" ", args)).isNull();
    }
    assertThat(CliRun.of("run", "--help").out()).startsWith("Usage: jdvm run ");
  }

  /**
   * A class that declares a picocli command but is in no model is a command nobody can run: every
   * one in this module must be reachable from {@link Main#commandLine}.
   */
  @Test
  void everyCommandClassOfTheModuleIsReachableFromTheFullModel() throws Exception {
    Set<Class<?>> reachable = new HashSet<>();
    List<CommandLine> all = new ArrayList<>();
    collect(Main.commandLine(), all);
    for (CommandLine cl : all) {
      if (!(cl.getCommandSpec().userObject() instanceof Method)) {
        reachable.add(cl.getCommand().getClass());
      }
    }
    List<Class<?>> declared = commandClasses();
    assertThat(declared).contains(Main.class, RunCommand.class, AllocCommand.New.class);
    assertThat(reachable).containsAll(declared);
  }

  /** Name → (class, usage) for a command and, recursively, its subcommands. */
  private static Map<String, String> tree(CommandLine cl) {
    Map<String, String> m = new LinkedHashMap<>();
    List<CommandLine> all = new ArrayList<>();
    collect(cl, all);
    for (CommandLine c : all) {
      StringWriter usage = new StringWriter();
      c.usage(new PrintWriter(usage), CommandLine.Help.Ansi.OFF);
      String qualified = c.getCommandSpec().qualifiedName();
      m.put(qualified, c.getCommandSpec().userObject().getClass().getName() + "\n" + usage);
    }
    return m;
  }

  private static void collect(CommandLine cl, List<CommandLine> into) {
    into.add(cl);
    for (CommandLine sub : cl.getSubcommands().values()) {
      collect(sub, into);
    }
  }

  /** The classes of this module (as compiled) that carry {@link Command}. */
  private static List<Class<?>> commandClasses() throws IOException, URISyntaxException {
    Path root = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    List<Class<?>> found = new ArrayList<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
        String name = root.relativize(f).toString().replace('/', '.').replaceAll("\\.class$", "");
        try {
          Class<?> cls = Class.forName(name, false, Main.class.getClassLoader());
          if (cls.isAnnotationPresent(Command.class)) {
            found.add(cls);
          }
        } catch (ClassNotFoundException | LinkageError e) {
          throw new AssertionError("cannot load " + name, e);
        }
      }
    }
    return found;
  }
}
