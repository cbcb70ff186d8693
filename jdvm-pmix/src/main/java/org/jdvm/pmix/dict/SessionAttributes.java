package org.jdvm.pmix.dict;

import java.util.List;

/**
 * Sessions, session control by the scheduler, and where jobs are spawned
 * (session-and-job-objects.txt §7.2.2, prrte-behavior.md §1.14, §5.3).
 *
 * <p>Data, not code: one attribute per line, "key | C name[, aliases] | type in master | type in
 * 4.2.2 (or absent) | description". Keys, names and types come from libpmix 4.2.2's dictionary and
 * the master headers (jdvm-pmix's test resources {@code wire/dict_422.json} and {@code
 * wire/attr_diff.txt}, pmix-wire.md §10–§11); the descriptions are jdvm's own. "varies" is a type
 * that depends on the use.
 */
final class SessionAttributes {
  private SessionAttributes() {}

  static final String TITLE = "Sessions and the scheduler";

  static final List<Attribute> ALL =
      AttributeTable.parse(
          """
          pmix.session.id | PMIX_SESSION_ID | UINT32 | UINT32 | The numeric identifier of a session.
          pmix.ssn.info | PMIX_SESSION_INFO | BOOL | BOOL | Ask a get or query for session-level information.
          pmix.ssn.arr | PMIX_SESSION_INFO_ARRAY | DATA_ARRAY | DATA_ARRAY | An array of session-level infos, the first of which names the session.
          pmix.spwn.tgt | PMIX_SPAWN_TARGET | varies | absent | Where to spawn: one allocation id or an array of them; an empty or invalid namespace means the default allocation.
          pmix.spchildsep | PMIX_SPAWN_CHILD_SEP | BOOL | absent | Start the new job detached from its parent, so the parent's termination does not end it.
          pmix.jctrl.sep | PMIX_JOB_CTRL_SEP | BOOL | absent | Detach an existing job from its parent.
          pmix.srv.sched | PMIX_SERVER_SCHEDULER | BOOL | BOOL | The server is the system scheduler, or is connected to it.
          pmix.cnct.sched | PMIX_CONNECT_TO_SCHEDULER | BOOL | absent | Connect to the system scheduler rather than a local server.
          pmix.srv.ctrlr | PMIX_SERVER_SYS_CONTROLLER | BOOL | absent | The server is the system controller.
          pmix.cnct.ctrlr | PMIX_CONNECT_TO_SYS_CONTROLLER | BOOL | absent | Connect to the system controller.
          pmix.ssnctrl.id | PMIX_SESSION_CTRL_ID | STRING | absent | The scheduler's name for a session-control request, returned with its result.
          pmix.ssn.inst | PMIX_SESSION_INSTANTIATE | BOOL | absent | Create a session; with applications it runs them, without it stands as a reservation.
          pmix.ssn.res | PMIX_SESSION_RESOURCES | DATA_ARRAY | absent | An array of infos describing the resources of a session being created.
          pmix.ssn.job | PMIX_SESSION_JOB | DATA_ARRAY | absent | An array of job-level infos for a job to start in a new session.
          pmix.ssn.app | PMIX_SESSION_APP | DATA_ARRAY | absent | An array of applications (pmix_app_t) to start in a new session.
          pmix.ssn.pvnnds | PMIX_SESSION_PROVISION_NODES | STRING | absent | Nodes to provision before the session starts.
          pmix.ssn.pvnimg | PMIX_SESSION_PROVISION_IMAGE | STRING | absent | The image to provision those nodes with.
          pmix.ssn.pause | PMIX_SESSION_PAUSE | BOOL | absent | Stop every process of the session until it is resumed.
          pmix.ssn.resume | PMIX_SESSION_RESUME | BOOL | absent | Let the processes of a paused session continue.
          pmix.ssn.terminate | PMIX_SESSION_TERMINATE | BOOL | absent | Terminate the session and every job in it.
          pmix.ssn.preempt | PMIX_SESSION_PREEMPT | BOOL | absent | Suspend the session so that its resources can be used elsewhere.
          pmix.ssn.restore | PMIX_SESSION_RESTORE | BOOL | absent | Bring a preempted session back.
          pmix.ssn.sig | PMIX_SESSION_SIGNAL | INT | absent | Send this signal to every process of the session.
          pmix.ssn.sep | PMIX_SESSION_SEP | BOOL | absent | Separate the session from its parent, so the parent's end does not end it.
          pmix.ssn.xtend | PMIX_SESSION_EXTEND | BOOL | absent | Extend the session in time or resources.
          pmix.ssn.complete | PMIX_SESSION_COMPLETE | BOOL | absent | Reported to the scheduler, once, when a session ends, with its jobs' termination status.
          """);
}
