package org.jdvm.pmix.dict;

import java.util.List;

/**
 * What a server tells its clients about themselves, their job and their node, and the identity of
 * requesters (pmix-wire.md §9.5).
 *
 * <p>Data, not code: one attribute per line, "key | C name[, aliases] | type in master | type in
 * 4.2.2 (or absent) | description". Keys, names and types come from libpmix 4.2.2's dictionary and
 * the master headers (jdvm-pmix's test resources {@code wire/dict_422.json} and {@code
 * wire/attr_diff.txt}, pmix-wire.md §10–§11); the descriptions are jdvm's own. "varies" is a type
 * that depends on the use.
 */
final class JobAttributes {
  private JobAttributes() {}

  static final String TITLE = "Process and job identity";

  static final List<Attribute> ALL =
      AttributeTable.parse(
          """
          pmix.nspace | PMIX_NSPACE | STRING | STRING | The namespace of a job.
          pmix.jobid | PMIX_JOBID | STRING | STRING | The job's identifier as the resource manager names it.
          pmix.rank | PMIX_RANK | PROC_RANK | PROC_RANK | A process's rank within its job.
          pmix.grank | PMIX_GLOBAL_RANK | PROC_RANK | PROC_RANK | A process's rank across all jobs of the session.
          pmix.apprank | PMIX_APP_RANK | PROC_RANK | PROC_RANK | A process's rank within its application.
          pmix.appnum | PMIX_APPNUM | UINT32 | UINT32 | The number of the application a process belongs to.
          pmix.lrank | PMIX_LOCAL_RANK | UINT16 | UINT16 | A process's rank among its job's processes on the same node.
          pmix.nrank | PMIX_NODE_RANK | UINT16 | UINT16 | A process's rank among all processes, of every job, on the same node.
          pmix.lldr | PMIX_LOCALLDR | PROC_RANK | PROC_RANK | The lowest rank of the job on this node.
          pmix.aldr | PMIX_APPLDR | PROC_RANK | PROC_RANK | The lowest rank of the application.
          pmix.procid | PMIX_PROCID | PROC | PROC | A process's namespace and rank.
          pmix.parent | PMIX_PARENT_ID | PROC | PROC | The process that spawned this job.
          pmix.ppid | PMIX_PROC_PID | PID | PID | The operating-system pid of a process.
          pmix.hname | PMIX_HOSTNAME | STRING | STRING | The name of the node a process runs on.
          pmix.nodeid | PMIX_NODEID | UINT32 | UINT32 | The numeric identifier of a node.
          pmix.lpeers | PMIX_LOCAL_PEERS | STRING | STRING | The ranks of the job's processes on this node, comma-separated.
          pmix.lprocs | PMIX_LOCAL_PROCS | DATA_ARRAY | DATA_ARRAY | An array of the processes on this node.
          pmix.lcpus | PMIX_LOCAL_CPUSETS | STRING | STRING | The cpusets of the local processes, in the order of the local peers.
          pmix.cpuset | PMIX_CPUSET | STRING | STRING | The cpuset a process is bound to.
          pmix.locstr | PMIX_LOCALITY_STRING | STRING | STRING | Where a process is bound: the objects its cpus touch, as "SK0:L30:CR0:HT0".
          pmix.toposig | PMIX_TOPOLOGY_SIGNATURE | STRING | STRING | The signature of a node's topology.
          pmix.univ.size | PMIX_UNIV_SIZE | UINT32 | UINT32 | How many processes the universe (the session) can hold.
          pmix.job.size | PMIX_JOB_SIZE | UINT32 | UINT32 | How many processes the job has.
          pmix.job.napps | PMIX_JOB_NUM_APPS | UINT32 | UINT32 | How many applications the job has.
          pmix.app.size | PMIX_APP_SIZE | UINT32 | UINT32 | How many processes the application has.
          pmix.local.size | PMIX_LOCAL_SIZE | UINT32 | UINT32 | How many of the job's processes run on this node.
          pmix.node.size | PMIX_NODE_SIZE | UINT32 | UINT32 | How many processes of all jobs run on this node.
          pmix.max.size | PMIX_MAX_PROCS | UINT32 | UINT32 | The most processes the job may have.
          pmix.num.slots | PMIX_NUM_SLOTS | UINT32 | UINT32 | How many slots are allocated.
          pmix.num.nodes | PMIX_NUM_NODES | UINT32 | UINT32 | How many nodes the job, or the session, spans.
          pmix.num.anodes | PMIX_NUM_ALLOCATED_NODES | UINT32 | UINT32 | How many nodes the allocation holds.
          pmix.nlist | PMIX_NODE_LIST | STRING | STRING | The names of the nodes a job uses, comma-separated.
          pmix.alist | PMIX_ALLOCATED_NODELIST | STRING | STRING | The names of the nodes in the allocation, comma-separated.
          pmix.nmap | PMIX_NODE_MAP | STRING | STRING | A regular expression of the job's nodes.
          pmix.pmap | PMIX_PROC_MAP | STRING | STRING | A regular expression of where the job's processes are placed.
          pmix.tmpdir | PMIX_TMPDIR | STRING | STRING | The session's top-level temporary directory.
          pmix.nsdir | PMIX_NSDIR | STRING | STRING | The namespace's temporary directory.
          pmix.pdir | PMIX_PROCDIR | STRING | STRING | The process's temporary directory.
          pmix.tdir.rmclean | PMIX_TDIR_RMCLEAN | BOOL | BOOL | The resource manager removes the temporary directories.
          pmix.spawned | PMIX_SPAWNED | BOOL | BOOL | The process was started by a spawn rather than at job launch.
          pmix.reinc | PMIX_REINCARNATION | UINT32 | UINT32 | How many times the process has been restarted.
          pmix.exit.code | PMIX_EXIT_CODE | INT | INT | A process's exit code.
          pmix.job.term.status | PMIX_JOB_TERM_STATUS | STATUS | STATUS | The status a job terminated with.
          pmix.proc.term.status | PMIX_PROC_TERM_STATUS | STATUS | STATUS | The status a process terminated with.
          pmix.proc.state | PMIX_PROC_STATE_STATUS | PROC_STATE | PROC_STATE | A process's state.
          pmix.euid | PMIX_USERID | UINT32 | UINT32 | The effective uid of a process or requester.
          pmix.egid | PMIX_GRPID | UINT32 | UINT32 | The effective gid of a process or requester.
          pmix.ruid | PMIX_REALUID | UINT32 | absent | The real uid of a connecting process.
          pmix.rgid | PMIX_REALGID | UINT32 | absent | The real gid of a connecting process.
          pmix.requestor | PMIX_REQUESTOR | PROC | absent | The process on whose behalf a request is made.
          pmix.req.tool | PMIX_REQUESTOR_IS_TOOL | BOOL | BOOL | The requester is a tool.
          pmix.req.client | PMIX_REQUESTOR_IS_CLIENT | BOOL | BOOL | The requester is a client the server launched.
          pmix.timeout | PMIX_TIMEOUT | INT | INT | Seconds to wait for an operation before it fails with PMIX_ERR_TIMEOUT.
          pmix.time.remaining | PMIX_TIME_REMAINING | UINT32 | UINT32 | Seconds left before an allocation or job expires.
          pmix.job.info | PMIX_JOB_INFO | BOOL | BOOL | Ask a get or query for job-level information.
          pmix.app.info | PMIX_APP_INFO | BOOL | BOOL | Ask a get or query for application-level information.
          pmix.node.info | PMIX_NODE_INFO | BOOL | BOOL | Ask a get or query for node-level information.
          pmix.job.arr | PMIX_JOB_INFO_ARRAY | DATA_ARRAY | DATA_ARRAY | An array of job-level infos, the first of which names the job.
          pmix.app.arr | PMIX_APP_INFO_ARRAY | DATA_ARRAY | DATA_ARRAY | An array of application-level infos, the first of which names the application.
          pmix.node.arr | PMIX_NODE_INFO_ARRAY | DATA_ARRAY | DATA_ARRAY | An array of node-level infos, the first of which names the node.
          pmix.pdata | PMIX_PROC_INFO_ARRAY, PMIX_PROC_DATA | DATA_ARRAY | DATA_ARRAY | An array of process-level infos, the first of which names the process by its rank.
          pmix.srv.arr | PMIX_SERVER_INFO_ARRAY | DATA_ARRAY | DATA_ARRAY | An array of infos about a server.
          pmix.collect | PMIX_COLLECT_DATA | BOOL | BOOL | Collect the data processes posted while taking part in a fence.
          pmix.range | PMIX_RANGE | UINT8 | UINT8 | The range of processes data or an event is meant for.
          pmix.persist | PMIX_PERSISTENCE | UINT8 | UINT8 | How long published data persists.
          pmix.scope | PMIX_DATA_SCOPE | UINT8 | UINT8 | Which processes may see posted data: local, remote or global.
          pmix.optional | PMIX_OPTIONAL | BOOL | BOOL | Look only locally and fail at once rather than ask the server.
          pmix.immediate | PMIX_IMMEDIATE | BOOL | BOOL | Answer at once with what is known instead of waiting for the data.
          """);
}
