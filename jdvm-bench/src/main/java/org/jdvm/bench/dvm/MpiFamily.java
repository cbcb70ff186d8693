package org.jdvm.bench.dvm;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jdvm.client.LocalCommand;

/**
 * One MPI family of {@code jdvm bench}'s MPI launch measures ({@link MpiLaunchBench}): the family's
 * own compiler and launcher, always named by the family's binary (never a bare {@code mpicc} or
 * {@code mpirun}, which the alternatives system may point at either family), and what a singleton
 * of it needs to run with no launcher at all.
 *
 * @param name the family as the rows name it
 * @param compiler the family's {@code mpicc}
 * @param launcher the family's own launcher binary
 * @param launcherName the launcher as the rows name it
 * @param launcherFlags the launcher's flags before {@code -n N}
 * @param singletonEnv what a singleton gets in its environment
 */
record MpiFamily(
    String name,
    String compiler,
    String launcher,
    String launcherName,
    List<String> launcherFlags,
    Map<String, String> singletonEnv) {

  /**
   * MPICH (Debian's 4.0.2: simple PMI-1, Hydra) and Open MPI (Debian's 4.1.4: PMIx). An Open MPI
   * 4.1 singleton starts an {@code orted} of its own unless {@code ess_singleton_isolated} says not
   * to: that is a launcher too (it made a singleton slower than {@code mpirun -n 2}), so the floor
   * runs isolated. As root, {@code mpirun} runs only with {@code --allow-run-as-root}; on this
   * project's 2-core machine 8 ranks need {@code --oversubscribe}, which Hydra never asks for.
   */
  static List<MpiFamily> both(boolean root) {
    List<String> ompi = new ArrayList<>(List.of("--oversubscribe"));
    if (root) {
      ompi.add("--allow-run-as-root");
    }
    return List.of(
        new MpiFamily(
            "MPICH", "mpicc.mpich", "mpiexec.mpich", "mpiexec.mpich (Hydra)", List.of(), Map.of()),
        new MpiFamily(
            "Open MPI",
            "mpicc.openmpi",
            "mpirun.openmpi",
            "mpirun.openmpi",
            ompi,
            Map.of("OMPI_MCA_ess_singleton_isolated", "1")));
  }

  /** The short name of the family's program, e.g. {@code mpich_hello}. */
  String program() {
    return name.equals("MPICH") ? "mpich_hello" : "ompi_hello";
  }

  /** The launcher's command line for {@code n} ranks of {@code exe}. */
  List<String> launch(int n, Path exe) {
    List<String> cmd = new ArrayList<>();
    cmd.add(launcher);
    cmd.addAll(launcherFlags);
    cmd.addAll(List.of("-n", Integer.toString(n), exe.toString()));
    return cmd;
  }

  /**
   * Whether a variable of the bench's own environment is kept out of every process started without
   * jdvm: a bench run inside a job (jdvm's, Hydra's, mpirun's) must not hand its own wire-up to a
   * singleton or a launcher.
   */
  static boolean wireUp(String variable) {
    return variable.startsWith("PMI_")
        || variable.startsWith("PMIX_")
        || variable.startsWith("OMPI_")
        || variable.startsWith("JDVM_")
        || variable.startsWith("HYDRA_")
        || variable.startsWith("MPIR_");
  }

  /** {@code name} on the PATH, or {@code null}. */
  static Path onPath(String name) {
    for (String d : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
      Path p = Path.of(d.isEmpty() ? "." : d, name);
      if (Files.isExecutable(p)) {
        return p;
      }
    }
    return null;
  }

  /** The family's program, or why there is none. */
  record Built(Path exe, String whyNot) {
    static Built not(String why) {
      return new Built(null, why);
    }
  }

  /**
   * Compiles {@code mpi_hello.c} (this jar's resource) with the family's compiler into {@code dir}:
   * the program, or why not when the compiler is missing or fails.
   */
  Built compile(Path dir) throws InterruptedException {
    if (onPath(compiler) == null) {
      return Built.not("no " + compiler + " on PATH (the family's -dev package)");
    }
    Path src = dir.resolve(program() + ".c");
    Path exe = dir.resolve(program());
    try (InputStream in = MpiFamily.class.getResourceAsStream("mpi_hello.c")) {
      if (in == null) {
        return Built.not("mpi_hello.c is missing from the build");
      }
      Files.write(src, in.readAllBytes());
    } catch (IOException e) {
      return Built.not("cannot write mpi_hello.c: " + e.getMessage());
    }
    String out =
        LocalCommand.output(List.of(compiler, "-O2", "-o", exe.toString(), src.toString()), 120);
    return out == null || !Files.isExecutable(exe)
        ? Built.not(compiler + " failed on mpi_hello.c")
        : new Built(exe, "");
  }
}
