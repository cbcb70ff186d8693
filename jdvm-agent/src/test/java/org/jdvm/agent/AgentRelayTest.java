package org.jdvm.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jdvm.agent.link.RelayPort;
import org.jdvm.host.LaunchRequest;
import org.jdvm.host.identity.Credentials;
import org.jdvm.pmix.Proc;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code jdvm agent} makes of each launch (docs/protocol.md "Node agents"): the relay it opens
 * at the first launch and names in the process's environment, the pids its relay admits by, and the
 * job directories it makes on its host and removes — all of them when it made them, only its own
 * ranks' when they were there already (a file system shared with the controller).
 */
class AgentRelayTest {
  private static final String CONTROLLER = "dvm-9@0.0;tcp4://127.0.0.1:4711";

  @TempDir Path tmp;
  private final AgentRelay agent =
      (AgentRelay) AgentRelay.hook(Credentials.generate()).apply(new RelayPort());

  @AfterEach
  void close() {
    agent.close();
  }

  private LaunchRequest launch(String nspace, int rank, Path scratch) {
    agent.launching(nspace, rank);
    return agent.apply(
        new LaunchRequest(
            List.of("true"),
            Map.of(
                "PMIX_SERVER_URI41",
                CONTROLLER,
                "PMIX_SERVER_URI61",
                CONTROLLER,
                "JDVM_URI",
                "/home/controller/.jdvm/dvm.json",
                "PMIX_NAMESPACE",
                nspace,
                "PMIX_RANK",
                Integer.toString(rank),
                "PMIX_SERVER_TMPDIR",
                scratch.toString(),
                "KEEP",
                "me"),
            null,
            false));
  }

  @Test
  void everyProcessIsPointedAtTheAgentsOwnRelayForPmixAndForJdvm() {
    LaunchRequest r = launch("dvm-9@1", 0, tmp.resolve("scratch"));
    String relay = agent.relay().uri();
    assertThat(relay).startsWith("dvm-9@0.0;tcp4://127.0.0.1:").isNotEqualTo(CONTROLLER);
    assertThat(r.environment())
        .containsEntry("PMIX_SERVER_URI41", relay)
        .containsEntry("PMIX_SERVER_URI61", relay)
        .containsEntry("JDVM_URI", relay)
        .containsEntry("KEEP", "me");
    LaunchRequest again = launch("dvm-9@1", 1, tmp.resolve("scratch"));
    assertThat(again.environment()).containsEntry("PMIX_SERVER_URI41", relay);
  }

  @Test
  void aLaunchWhoseControllerUriIsNotTheDvmsIsLeftAsItCame() {
    agent.launching("x@1", 0);
    LaunchRequest in =
        new LaunchRequest(List.of("true"), Map.of("PMIX_SERVER_URI41", "junk"), null, false);
    assertThat(agent.apply(in)).isEqualTo(in);
    assertThat(agent.relay()).isNull();
    assertThat(AgentRelay.dvmName("@0.0;tcp4://a:1")).isNull();
    assertThat(AgentRelay.dvmName("a@1.0;tcp4://a:1")).isNull();
    assertThat(AgentRelay.dvmName("my@dvm@0.0;tcp4://a:1")).isEqualTo("my@dvm");
  }

  @Test
  void aPidIsAwaitedFromTheLaunchAndUnknownOnceTheProcessEnded() {
    Proc p = new Proc("dvm-9@1", 0);
    assertThat(agent.awaitPid(p, 0)).isEqualTo(-1);
    launch("dvm-9@1", 0, tmp);
    assertThat(agent.awaitPid(p, 1)).isZero();
    agent.launched("dvm-9@1", 0, 4242);
    assertThat(agent.awaitPid(p, 0)).isEqualTo(4242);
    agent.exited("dvm-9@1", 0);
    assertThat(agent.awaitPid(p, 0)).isEqualTo(-1);
    // an exit that overtook its launch's answer is not brought back by it
    launch("dvm-9@1", 1, tmp);
    agent.exited("dvm-9@1", 1);
    agent.launched("dvm-9@1", 1, 4243);
    assertThat(agent.awaitPid(new Proc("dvm-9@1", 1), 0)).isEqualTo(-1);
  }

  @Test
  void onAHostOfItsOwnTheAgentMakesTheControllersPathsAndRemovesAllOfThem() {
    Path scratch = tmp.resolve("dev-shm-jdvm");
    String ns = "dvm-9@1";
    launch(ns, 0, scratch);
    launch(ns, 1, scratch);
    agent.launched(ns, 0, 100);
    agent.launched(ns, 1, 101);
    agent.prepare(new Proc(ns, 0));
    agent.prepare(new Proc(ns, 1));
    assertThat(scratch.resolve(ns).resolve("0")).isDirectory();
    assertThat(scratch.resolve(ns).resolve("1")).isDirectory();

    agent.exited(ns, 0);
    assertThat(scratch.resolve(ns).resolve("0")).doesNotExist();
    assertThat(scratch.resolve(ns).resolve("1")).isDirectory();
    agent.exited(ns, 1);
    assertThat(scratch.resolve(ns)).doesNotExist();
    assertThat(scratch).isDirectory(); // the DVM's: other jobs may come
    agent.close();
    assertThat(scratch).doesNotExist();
  }

  @Test
  void onASharedFileSystemTheAgentRemovesOnlyItsOwnRanksDirectories() throws Exception {
    Path scratch = Files.createDirectories(tmp.resolve("shared"));
    String ns = "dvm-9@2";
    Path other = Files.createDirectories(scratch.resolve(ns).resolve("5"));
    launch(ns, 0, scratch);
    agent.launched(ns, 0, 100);
    agent.prepare(new Proc(ns, 0));
    assertThat(scratch.resolve(ns).resolve("0")).isDirectory();
    agent.exited(ns, 0);
    assertThat(scratch.resolve(ns).resolve("0")).doesNotExist();
    assertThat(other).isDirectory();
    agent.close();
    assertThat(other).isDirectory();
  }

  @Test
  void aProcessThatIsNotTheAgentsGetsNoDirectory() {
    Path scratch = tmp.resolve("s");
    launch("dvm-9@1", 0, scratch);
    agent.prepare(new Proc("dvm-9@3", 0));
    assertThat(scratch).doesNotExist();
  }
}
