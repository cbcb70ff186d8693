package org.jdvm.pmix.dict;

import java.util.List;

/**
 * How PMIx_Spawn lays out, starts and reports on a job (pmix-wire.md §4.4).
 *
 * <p>Data, not code: one attribute per line, "key | C name[, aliases] | type in master | type in
 * 4.2.2 (or absent) | description". Keys, names and types come from libpmix 4.2.2's dictionary and
 * the master headers (jdvm-pmix's test resources {@code wire/dict_422.json} and {@code
 * wire/attr_diff.txt}, pmix-wire.md §10–§11); the descriptions are jdvm's own. "varies" is a type
 * that depends on the use.
 */
final class SpawnAttributes {
  private SpawnAttributes() {}

  static final String TITLE = "Spawn and launch";

  static final List<Attribute> ALL =
      AttributeTable.parse(
          """
          pmix.pers | PMIX_PERSONALITY | STRING | STRING | The programming-model personality the launcher applies to the job.
          pmix.host | PMIX_HOST | STRING | STRING | Hosts to place the application on, comma-separated.
          pmix.hostfile | PMIX_HOSTFILE | STRING | STRING | A file listing the hosts to place the application on.
          pmix.addhost | PMIX_ADD_HOST | STRING | STRING | Hosts to add to the job's allocation before launching.
          pmix.addhostfile | PMIX_ADD_HOSTFILE | STRING | STRING | A file of hosts to add to the job's allocation before launching.
          pmix.prefix | PMIX_PREFIX | STRING | STRING | The installation prefix to use on the remote nodes.
          pmix.wdir | PMIX_WDIR | STRING | STRING | The working directory of the spawned processes.
          pmix.ssncwd | PMIX_SET_SESSION_CWD | BOOL | BOOL | Use the session's working directory for the spawned processes.
          pmix.ppr | PMIX_PPR | STRING | STRING | Processes per resource, as "n:resource".
          pmix.mapby | PMIX_MAPBY | STRING | STRING | How to map processes onto resources.
          pmix.rankby | PMIX_RANKBY | STRING | STRING | How to assign ranks to mapped processes.
          pmix.bindto | PMIX_BINDTO | STRING | STRING | What to bind each process to.
          pmix.cpuperproc | PMIX_CPUS_PER_PROC | UINT32 | UINT32 | How many CPUs to give each process.
          pmix.nolocal | PMIX_NO_PROCS_ON_HEAD | BOOL | BOOL | Place no process on the node the launcher runs on.
          pmix.noover | PMIX_NO_OVERSUBSCRIBE | BOOL | BOOL | Refuse to put more processes on a node than it has slots.
          pmix.repbind | PMIX_REPORT_BINDINGS | BOOL | BOOL | Report how each process was bound.
          pmix.cpulist | PMIX_CPU_LIST | STRING | STRING | The CPUs to use for the job.
          pmix.dispmap | PMIX_DISPLAY_MAP | BOOL | BOOL | Show the process map before launching.
          pmix.mapper | PMIX_MAPPER | STRING | STRING | The mapper component to use.
          pmix.fwd.stdin | PMIX_FWD_STDIN | BOOL | BOOL | Forward the launcher's standard input to the job.
          pmix.stdin | PMIX_STDIN_TGT | PROC | PROC | The process (its rank; WILDCARD for all) whose standard input receives what the launcher forwards.
          pmix.fwd.stdout | PMIX_FWD_STDOUT | BOOL | BOOL | Forward the job's standard output to the requester.
          pmix.fwd.stderr | PMIX_FWD_STDERR | BOOL | BOOL | Forward the job's standard error to the requester.
          pmix.fwd.stddiag | PMIX_FWD_STDDIAG | BOOL | BOOL | Forward the job's diagnostic channel to the requester.
          pmix.spwn.tool | PMIX_SPAWN_TOOL | BOOL | BOOL | The job being spawned is a tool.
          pmix.cmd.line | PMIX_CMD_LINE | STRING | STRING | The command line a process was started with.
          pmix.app.argv | PMIX_APP_ARGV | STRING | STRING | The command line of an application, as one string.
          pmix.job.time | PMIX_JOB_TIMEOUT | INT | INT | Seconds the job may run before it is terminated.
          pmix.sp.time | PMIX_SPAWN_TIMEOUT | INT | INT | Seconds the launch may take before it is abandoned.
          pmix.notecomp | PMIX_NOTIFY_COMPLETION | BOOL | BOOL | Notify the requester when the job completes.
          pmix.note.jev | PMIX_NOTIFY_JOB_EVENTS | BOOL | BOOL | Send the requester the job's life-cycle events.
          pmix.noteproc | PMIX_NOTIFY_PROC_TERMINATION | BOOL | BOOL | Notify the requester when each process terminates.
          pmix.noteabproc | PMIX_NOTIFY_PROC_ABNORMAL_TERMINATION | BOOL | BOOL | Notify the requester when a process terminates abnormally.
          pmix.note.lnch | PMIX_NOTIFY_LAUNCH | BOOL | BOOL | Notify the requester when the job has been launched.
          pmix.evar.hvstd | PMIX_ENVARS_HARVESTED | BOOL | BOOL | The launcher has already collected the environment variables to forward.
          pmix.envar.set | PMIX_SET_ENVAR | ENVAR | ENVAR | Set an environment variable in the spawned processes.
          pmix.envar.add | PMIX_ADD_ENVAR | ENVAR | ENVAR | Set an environment variable unless it is already set.
          pmix.envar.unset | PMIX_UNSET_ENVAR | STRING | STRING | Remove an environment variable from the spawned processes.
          pmix.envar.prepnd | PMIX_PREPEND_ENVAR | ENVAR | ENVAR | Put a value in front of an environment variable, with a separator.
          pmix.envar.appnd | PMIX_APPEND_ENVAR | ENVAR | ENVAR | Put a value at the end of an environment variable, with a separator.
          pmix.envar.first | PMIX_FIRST_ENVAR | ENVAR | ENVAR | Make sure a value comes first in an environment variable.
          pmix.fwdenv | PMIX_FWD_ENVIRONMENT | BOOL | absent | Forward the requester's environment to the spawned processes.
          pmix.maxrestarts | PMIX_MAX_RESTARTS | UINT32 | UINT32 | How many times a failed process may be restarted.
          pmix.recover | PMIX_JOB_RECOVERABLE | BOOL | BOOL | The application can recover from failed processes.
          pmix.continuous | PMIX_JOB_CONTINUOUS | BOOL | BOOL | Restart processes that terminate.
          pmix.abnz | PMIX_ABORT_NON_ZERO_TERM | BOOL | BOOL | Terminate the job when a process exits with a non-zero status.
          pmix.dnl | PMIX_DO_NOT_LAUNCH | BOOL | BOOL | Go through mapping without starting anything.
          pmix.showprog | PMIX_SHOW_LAUNCH_PROGRESS | BOOL | BOOL | Report progress while launching.
          pmix.runopt | PMIX_RUNTIME_OPTIONS | STRING | STRING | Options for the runtime environment, comma-separated.
          pmix.spawn.pty | PMIX_SPAWN_PTY | BOOL | absent | Give the spawned processes a pseudo-terminal.
          pmix.dbg.exec | PMIX_DEBUG_STOP_ON_EXEC | INT | INT | Stop the processes at their first instruction so a debugger can attach.
          pmix.dbg.init | PMIX_DEBUG_STOP_IN_INIT | INT | INT | Stop the processes in their PMIx initialization.
          pmix.dbg.notify | PMIX_DEBUG_STOP_IN_APP | INT | INT | Stop the processes at an application-defined point.
          """);
}
