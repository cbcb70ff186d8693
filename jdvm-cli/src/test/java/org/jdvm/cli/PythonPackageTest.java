package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.assembly.DvmServer;
import org.jdvm.server.home.DvmHome;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Python package ({@code python/jdvm}, on Debian's python3-pmix 4.2.2) against a DVM this test
 * starts: its own tests ({@code python/tests}, {@code python3 -m unittest}) run in Debian's
 * interpreter with {@code PYTHONPATH=python} and {@code JDVM_TEST_DIR} naming the DVM's directory.
 * They cover spawn and wait, allocations with each disposition, 1,000 {@code /bin/true} tasks
 * through the executor with 8 in flight, cancel, and refused requests; see python/README.md.
 * Without {@code import pmix} in {@code /usr/bin/python3} the test is skipped, saying why. The
 * interpreter and every process the DVM started are ended by pid. The DVM's scheduler credential is
 * moved out of its directory first: the package must never need it.
 */
class PythonPackageTest {
  private static final String PYTHON = "/usr/bin/python3";
  private static final Path PACKAGE = Path.of("../python").toAbsolutePath().normalize();

  @TempDir static Path dir;
  @TempDir static Path scratch;
  private static DvmServer server;
  private static String noBindings;
  private static Set<Long> jobPids = ConcurrentHashMap.newKeySet();
  private static Process python;

  @BeforeAll
  static void start() throws Exception {
    // a missing package is this checkout's fault, not a missing Debian package: fail, do not skip
    assertThat(PACKAGE.resolve("jdvm/__init__.py")).exists();
    assertThat(PACKAGE.resolve("tests/test_jdvm.py")).exists();
    if (!MpiJobs.succeeds(List.of(PYTHON, "-c", "import pmix"))) {
      noBindings = PYTHON + " cannot import pmix (Debian's python3-pmix)";
      return;
    }
    // 16 slots: 8 tasks in flight and more; 4 spare scheduler nodes for the allocations
    server = DvmServer.start(DvmConfig.embedded("pytest", 2, 8, 4, dir));
    jobPids = StoppedReader.watchJobPids(server);
  }

  @AfterAll
  static void stop() {
    if (python != null) {
      python.descendants().forEach(ProcessHandle::destroyForcibly);
      python.destroyForcibly();
    }
    for (long pid : jobPids) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void thePackagesOwnTestsPassAgainstARunningDvm() throws Exception {
    assumeTrue(noBindings == null, noBindings);
    Path log = scratch.resolve("unittest.log");
    // The package ends jobs and extends and releases allocations as their parent and owner, never
    // as the DVM's scheduler: with the credential gone from the DVM's directory (unreadability is
    // no test as root), the terminate, extend and release tests still pass.
    Path cred = dir.resolve(DvmHome.SCHEDULER_CREDENTIAL);
    assertThat(cred).exists();
    Files.move(cred, scratch.resolve("scheduler.cred.moved"));
    ProcessBuilder pb =
        new ProcessBuilder(
                PYTHON, "-W", "ignore", "-m", "unittest", "discover", "-v", "-s", "tests")
            .directory(PACKAGE.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    Map<String, String> env = pb.environment();
    env.put("PYTHONPATH", PACKAGE.toString());
    env.put("JDVM_TEST_DIR", dir.toString());
    env.remove("JDVM_URI");
    python = pb.start();
    boolean ended = python.waitFor(10, TimeUnit.MINUTES);
    String out = read(log);
    assertThat(ended).as("the Python tests did not end within 10 minutes:\n" + out).isTrue();
    assertThat(python.exitValue()).as(out).isZero();
    Matcher ran = Pattern.compile("Ran (\\d+) tests").matcher(out);
    assertThat(ran.find()).as(out).isTrue();
    // every test of python/tests ran: an import error would make a discovery of none pass
    assertThat(Integer.parseInt(ran.group(1))).as(out).isGreaterThanOrEqualTo(23);
    assertThat(out)
        .as(out)
        .contains("test_a_thousand_true_tasks_with_eight_in_flight")
        .doesNotContain("FAIL:", "ERROR:");
  }

  private static String read(Path p) throws IOException {
    return Files.exists(p) ? Files.readString(p) : "";
  }
}
