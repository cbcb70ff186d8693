package org.jdvm.pmix.dict;

import java.util.List;

/**
 * Requests of PMIx_Job_control.
 *
 * <p>Data, not code: one attribute per line, "key | C name[, aliases] | type in master | type in
 * 4.2.2 (or absent) | description". Keys, names and types come from libpmix 4.2.2's dictionary and
 * the master headers (jdvm-pmix's test resources {@code wire/dict_422.json} and {@code
 * wire/attr_diff.txt}, pmix-wire.md §10–§11); the descriptions are jdvm's own. "varies" is a type
 * that depends on the use.
 */
final class JobControlAttributes {
  private JobControlAttributes() {}

  static final String TITLE = "Job control";

  static final List<Attribute> ALL =
      AttributeTable.parse(
          """
          pmix.jctrl.id | PMIX_JOB_CTRL_ID | STRING | STRING | The requester's name for a job-control request.
          pmix.jctrl.pause | PMIX_JOB_CTRL_PAUSE | BOOL | BOOL | Pause the targets.
          pmix.jctrl.resume | PMIX_JOB_CTRL_RESUME | BOOL | BOOL | Resume the paused targets.
          pmix.jctrl.cancel | PMIX_JOB_CTRL_CANCEL | STRING | STRING | Cancel the pending request with this id.
          pmix.jctrl.kill | PMIX_JOB_CTRL_KILL | BOOL | BOOL | Kill the targets forcibly.
          pmix.jctrl.restart | PMIX_JOB_CTRL_RESTART | STRING | STRING | Restart the targets from this checkpoint.
          pmix.jctrl.ckpt | PMIX_JOB_CTRL_CHECKPOINT | STRING | STRING | Checkpoint the targets to this location.
          pmix.jctrl.ckpttime | PMIX_JOB_CTRL_CHECKPOINT_TIMEOUT | INT | absent | Seconds a checkpoint may take; its key was pmix.jctrl.ckptsig in 4.2.2, the same as the checkpoint signal's.
          pmix.jctrl.sig | PMIX_JOB_CTRL_SIGNAL | INT | INT | Send this signal to the targets.
          pmix.jctrl.pvn | PMIX_JOB_CTRL_PROVISION | STRING | STRING | Provision these nodes.
          pmix.jctrl.pvnimg | PMIX_JOB_CTRL_PROVISION_IMAGE | STRING | STRING | The image to provision them with.
          pmix.jctrl.preempt | PMIX_JOB_CTRL_PREEMPTIBLE | BOOL | BOOL | The job may be preempted.
          pmix.jctrl.term | PMIX_JOB_CTRL_TERMINATE | BOOL | BOOL | Terminate the targets in an orderly way.
          pmix.jctrl.defpset | PMIX_JOB_CTRL_DEFINE_PSET | STRING | absent | Define a process set made of the targets.
          pmix.reg.cleanup | PMIX_REGISTER_CLEANUP | STRING | STRING | Remove this file when the job ends.
          pmix.reg.cleanupdir | PMIX_REGISTER_CLEANUP_DIR | STRING | STRING | Remove this directory when the job ends.
          pmix.clnup.recurse | PMIX_CLEANUP_RECURSIVE | BOOL | BOOL | Remove the directory's contents too.
          pmix.clnup.empty | PMIX_CLEANUP_EMPTY | BOOL | BOOL | Remove only empty directories.
          pmix.clnup.ignore | PMIX_CLEANUP_IGNORE | STRING | STRING | Comma-separated file names to leave in place.
          pmix.clnup.lvtop | PMIX_CLEANUP_LEAVE_TOPDIR | BOOL | BOOL | Remove what the directory holds but not the directory itself.
          """);
}
