package org.jdvm.scheduler.slurm;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.scheduler.NodeGrant;

/**
 * The Slurm 22.05 command lines the port runs and what it reads back, as pure functions: argv lists
 * built only from validated names and numbers, and strict parsers of {@code squeue} and {@code
 * scontrol show job} output (printed with {@code SLURM_TIME_FORMAT=%s}, so times are epoch
 * seconds). Slurm's errors map to PMIx statuses here.
 */
final class SlurmCli {
  /** States in which a job still holds its nodes. */
  static final Set<String> LIVE_STATES =
      Set.of("RUNNING", "SUSPENDED", "CONFIGURING", "RESIZING", "SIGNALING", "STAGE_OUT");

  /** squeue's format for {@link #parseSqueue}. */
  static final String SQUEUE_FORMAT = "%i|%T|%e|%l|%N";

  /** The most minutes a time limit may have (Slurm's limits are whole minutes). */
  static final long MAX_MINUTES = 366L * 24 * 60;

  private SlurmCli() {}

  /** Whole minutes covering {@code seconds} (Slurm rounds time limits up to minutes). */
  static long minutes(long seconds) {
    if (seconds < 1) {
      throw new IllegalArgumentException("a time limit of " + seconds + " s is not positive");
    }
    long m = Math.ceilDiv(seconds, 60);
    if (m > MAX_MINUTES) {
      throw new IllegalArgumentException("a time limit of " + seconds + " s is over a year");
    }
    return m;
  }

  /**
   * {@code salloc --no-shell} for {@code count} nodes, or for exactly {@code names}, with an
   * optional time limit in minutes; {@code immediate} refuses rather than queue.
   */
  static List<String> salloc(
      int count, List<String> names, Long minutes, boolean immediate, String partition) {
    return salloc(count, names, minutes, immediate, partition, "jdvm");
  }

  /** As above, the job named {@code jobName} ({@link #jobName}: the DVM's jobs carry its tag). */
  static List<String> salloc(
      int count,
      List<String> names,
      Long minutes,
      boolean immediate,
      String partition,
      String jobName) {
    List<String> argv =
        new ArrayList<>(
            List.of("salloc", "--no-shell", "--job-name=" + SlurmNames.jobName(jobName)));
    if (names.isEmpty()) {
      if (count < 1) {
        throw new IllegalArgumentException("ask for at least one node");
      }
      argv.add("--nodes=" + count);
    } else {
      names.forEach(SlurmNames::node);
      argv.add("--nodes=" + names.size());
      argv.add("--nodelist=" + String.join(",", names));
    }
    if (minutes != null) {
      argv.add("--time=" + minutes);
    }
    if (immediate) {
      argv.add("--immediate");
    }
    if (partition != null) {
      argv.add("--partition=" + SlurmNames.partition(partition));
    }
    return argv;
  }

  static List<String> scancel(List<String> jobIds) {
    List<String> argv = new ArrayList<>(List.of("scancel"));
    jobIds.forEach(j -> argv.add(SlurmNames.jobId(j)));
    return argv;
  }

  /** Shrinks a running job to {@code keep} (Slurm lets a job's owner give nodes back). */
  static List<String> shrink(String jobId, List<String> keep) {
    keep.forEach(SlurmNames::node);
    return List.of(
        "scontrol",
        "update",
        "JobId=" + SlurmNames.jobId(jobId),
        "NodeList=" + String.join(",", keep));
  }

  static List<String> addTime(String jobId, long minutes) {
    return List.of(
        "scontrol", "update", "JobId=" + SlurmNames.jobId(jobId), "TimeLimit=+" + minutes);
  }

  static List<String> showJob(String jobId) {
    return List.of("scontrol", "--details", "--oneliner", "show", "job", SlurmNames.jobId(jobId));
  }

  static List<String> squeue(List<String> jobIds) {
    jobIds.forEach(SlurmNames::jobId);
    return List.of(
        "squeue",
        "--noheader",
        "--states=all",
        "--jobs=" + String.join(",", jobIds),
        "--format=" + SQUEUE_FORMAT);
  }

  /**
   * The name every Slurm job of one DVM carries, {@code jdvm-TAG}: a restarted controller finds by
   * it the jobs its predecessor made, also those it died before journaling.
   */
  static String jobName(String tag) {
    if (tag == null || !tag.matches("[a-z0-9]{1,32}")) {
      throw new IllegalArgumentException("'" + SlurmNames.shown(tag) + "' is not a DVM's job tag");
    }
    return "jdvm-" + tag;
  }

  /** Every job named {@code jobName}, in any state still known to Slurm. */
  static List<String> squeueNamed(String jobName) {
    return List.of(
        "squeue",
        "--noheader",
        "--states=all",
        "--name=" + SlurmNames.jobName(jobName),
        "--format=" + SQUEUE_FORMAT);
  }

  /** A job as squeue or scontrol shows it; {@code endEpochSeconds} is null without a limit. */
  record JobRow(String id, String state, Long endEpochSeconds, List<String> nodes) {}

  /** squeue's lines in {@link #SQUEUE_FORMAT}, by job id; malformed lines are skipped. */
  static Map<String, JobRow> parseSqueue(String out) {
    Map<String, JobRow> rows = new LinkedHashMap<>();
    for (String line : out.split("\n")) {
      String[] f = line.strip().split("\\|", -1);
      if (f.length != 5 || !f[0].matches("[1-9][0-9]{0,17}")) {
        continue;
      }
      rows.put(f[0], new JobRow(f[0], f[1], end(f[2], f[3]), nodes(f[4])));
    }
    return rows;
  }

  /** A granted job: its nodes with their slots and its end. */
  record GrantedJob(String id, String state, Long endEpochSeconds, List<NodeGrant> nodes) {}

  /**
   * {@code scontrol --details --oneliner show job} output: state, end, node list, and slots per
   * node from the detail pairs {@code Nodes=… CPU_IDs=…} (else NumCPUs spread evenly).
   */
  static GrantedJob parseShowJob(String out) {
    String[] tokens = out.strip().split("\\s+");
    Map<String, String> first = new HashMap<>();
    Map<String, Integer> slots = new HashMap<>();
    for (int i = 0; i < tokens.length; i++) {
      int eq = tokens[i].indexOf('=');
      if (eq <= 0) {
        continue;
      }
      String key = tokens[i].substring(0, eq);
      String value = tokens[i].substring(eq + 1);
      first.putIfAbsent(key, value);
      if (key.equals("Nodes") && i + 1 < tokens.length && tokens[i + 1].startsWith("CPU_IDs=")) {
        int cpus = countIds(tokens[i + 1].substring("CPU_IDs=".length()));
        for (String n : Hostlist.expand(value)) {
          slots.put(n, cpus);
        }
      }
    }
    String id = first.get("JobId");
    List<String> names = nodes(first.getOrDefault("NodeList", ""));
    if (id == null || names.isEmpty()) {
      throw new IllegalArgumentException("scontrol show job printed no job with nodes");
    }
    int even = Math.max(1, parseInt(first.get("NumCPUs"), 1) / names.size());
    List<NodeGrant> grants = new ArrayList<>();
    for (String n : names) {
      grants.add(new NodeGrant(n, Math.max(1, slots.getOrDefault(n, even))));
    }
    return new GrantedJob(
        SlurmNames.jobId(id),
        first.getOrDefault("JobState", "UNKNOWN"),
        end(first.getOrDefault("EndTime", ""), first.getOrDefault("TimeLimit", "")),
        grants);
  }

  private static List<String> nodes(String hostlist) {
    return hostlist.isEmpty() || hostlist.equals("(null)") ? List.of() : Hostlist.expand(hostlist);
  }

  /** The end as epoch seconds, or null for no limit or an unknown end. */
  private static Long end(String endTime, String limit) {
    if (limit.equals("UNLIMITED") || limit.equals("INFINITE") || !endTime.matches("[0-9]{1,18}")) {
      return null;
    }
    return Long.parseLong(endTime);
  }

  private static int countIds(String ids) {
    int n = 0;
    for (String r : ids.split(",")) {
      int dash = r.indexOf('-');
      if (dash < 0) {
        n += r.matches("[0-9]{1,9}") ? 1 : 0;
      } else {
        int lo = parseInt(r.substring(0, dash), 0);
        int hi = parseInt(r.substring(dash + 1), -1);
        n += Math.max(0, hi - lo + 1);
      }
    }
    return n;
  }

  private static int parseInt(String s, int otherwise) {
    return s != null && s.matches("[0-9]{1,9}") ? Integer.parseInt(s) : otherwise;
  }

  /** A Slurm failure as a PMIx status and a one-line reason. */
  record Failure(int status, String reason) {}

  /** Maps what a Slurm command printed last to the status the requester sees. */
  static Failure failure(String what, String lastLine) {
    String line = lastLine.replaceFirst("^(salloc|scontrol|squeue|scancel|srun): (error: )?", "");
    if (line.length() > 200) {
      line = line.substring(0, 200) + "…";
    }
    String l = line.toLowerCase(java.util.Locale.ROOT);
    int status;
    if (l.contains("invalid node name") || l.contains("invalid partition")) {
      status = PmixStatus.ERR_NOT_FOUND;
    } else if (l.contains("configuration is not available")
        || l.contains("configuration not available")
        || l.contains("unable to allocate resources")
        || l.contains("immediate")) {
      status = PmixStatus.ERR_OUT_OF_RESOURCE;
    } else if (l.contains("unable to contact")
        || l.contains("configuration source")
        || l.contains("connection refused")
        || l.contains("timed out")
        || l.contains("cannot run")) {
      status = PmixStatus.ERR_UNREACH;
    } else if (l.contains("access denied")
        || l.contains("permission denied")
        || l.contains("not permitted")) {
      status = PmixStatus.ERR_NO_PERMISSIONS;
    } else if (l.contains("invalid") || l.contains("time limit")) {
      status = PmixStatus.ERR_BAD_PARAM;
    } else {
      status = PmixStatus.ERROR;
    }
    return new Failure(status, "Slurm " + what + ": " + SlurmNames.shown(line.strip()));
  }
}
