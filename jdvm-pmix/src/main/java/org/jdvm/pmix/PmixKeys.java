package org.jdvm.pmix;

/**
 * Attribute keys that jdvm's own code reads or writes. Keys travel as these strings (never as the
 * numeric dictionary ids); the full dictionary with types and descriptions is {@code
 * org.jdvm.pmix.dict.AttributeDictionary}, which holds every key here. Each constant is named after
 * the key's C name without {@code PMIX_}.
 *
 * <p>This class and {@link JdvmProtocol} (jdvm's own keys) are the registry: main code everywhere
 * else names a key only through their constants, never as a {@code "pmix.…"} or {@code "jdvm.…"}
 * literal, which {@code KeyLiteralsTest} checks.
 *
 * <p>Sources: spec §8.2.1.4, prrte-behavior.md §5.3, pmix-wire.md §10.
 */
public final class PmixKeys {
  private PmixKeys() {}

  // Allocation requests (rfc0005-allocation-api.txt "Description", spec §8.2.1.4)
  public static final String ALLOC_ID = "pmix.alloc.id";
  public static final String ALLOC_REQ_ID = "pmix.alloc.reqid";
  public static final String ALLOC_TARGET = "pmix.alloc.tgt";
  public static final String ALLOC_SHARE = "pmix.alloc.share";
  public static final String ALLOC_INHERITANCE = "pmix.alloc.inhrt";
  public static final String ALLOC_WARN_TIMEOUT = "pmix.alloc.wtmo";
  public static final String ALLOC_TIME = "pmix.alloc.time";
  public static final String ALLOC_NODE_LIST = "pmix.alloc.nlist";
  public static final String ALLOC_NUM_NODES = "pmix.alloc.nnodes";
  public static final String ALLOC_NUM_CPUS = "pmix.alloc.ncpus";
  public static final String ALLOC_NUM_CPU_LIST = "pmix.alloc.ncpulist";
  public static final String ALLOC_CPU_LIST = "pmix.alloc.cpulist";
  public static final String ALLOC_MEM_SIZE = "pmix.alloc.msize";
  public static final String ALLOC_FABRIC = "pmix.alloc.net";
  public static final String ALLOC_QUEUE = "pmix.alloc.queue";
  public static final String ALLOC_EXCLUDE = "pmix.alloc.exclude";
  public static final String ALLOC_PROPERTY = "pmix.alloc.property";
  public static final String ALLOC_RELEASABLE = "pmix.alloc.releasable";
  public static final String ALLOC_CHILD_SEP = "pmix.alloc.sep";
  public static final String ALLOC_STATUS = "pmix.alloc.status";
  public static final String ALLOC_NOT_WAITING = "pmix.alloc.notwait";
  public static final String ALLOC_LEND = "pmix.alloc.lend";

  // Spawn, sessions, identity
  public static final String SPAWN_TARGET = "pmix.spwn.tgt";
  public static final String SESSION_ID = "pmix.session.id";
  public static final String NSPACE = "pmix.nspace";
  public static final String RANK = "pmix.rank";
  public static final String REQUESTOR = "pmix.requestor";
  public static final String USERID = "pmix.euid";
  public static final String GRPID = "pmix.egid";
  public static final String TIMEOUT = "pmix.timeout";
  public static final String TIME_REMAINING = "pmix.time.remaining";
  public static final String NOTIFY_COMPLETION = "pmix.notecomp";
  public static final String ADD_HOST = "pmix.addhost";
  public static final String ADD_HOSTFILE = "pmix.addhostfile";
  public static final String PERSONALITY = "pmix.pers";
  public static final String MAPBY = "pmix.mapby";
  // Placement and binding: spawn directives, and what each process is told of its place
  public static final String RANKBY = "pmix.rankby";
  public static final String BINDTO = "pmix.bindto";
  public static final String PPR = "pmix.ppr";
  public static final String CPUS_PER_PROC = "pmix.cpuperproc";
  public static final String NO_OVERSUBSCRIBE = "pmix.noover";
  public static final String REPORT_BINDINGS = "pmix.repbind";
  public static final String LOCALITY_STRING = "pmix.locstr";
  public static final String CPUSET = "pmix.cpuset";
  public static final String TOPOLOGY_SIGNATURE = "pmix.toposig";
  public static final String WDIR = "pmix.wdir";

  // A spawn's environment directives (pmix_envar_t values but UNSET's, a string) and time limits
  public static final String SET_ENVAR = "pmix.envar.set";
  public static final String ADD_ENVAR = "pmix.envar.add";
  public static final String UNSET_ENVAR = "pmix.envar.unset";
  public static final String PREPEND_ENVAR = "pmix.envar.prepnd";
  public static final String APPEND_ENVAR = "pmix.envar.appnd";
  public static final String FIRST_ENVAR = "pmix.envar.first";
  public static final String JOB_TIMEOUT = "pmix.job.time";
  public static final String SPAWN_TIMEOUT = "pmix.sp.time";

  public static final String SERVER_SCHEDULER = "pmix.srv.sched";
  public static final String CONNECT_TO_SCHEDULER = "pmix.cnct.sched";

  // Events and results
  public static final String EVENT_CUSTOM_RANGE = "pmix.evrange";
  public static final String JOB_TERM_STATUS = "pmix.job.term.status";
  public static final String JOB_INFO_ARRAY = "pmix.job.arr";
  public static final String EVENT_AFFECTED_PROC = "pmix.evproc";
  public static final String EVENT_NON_DEFAULT = "pmix.evnondef";
  public static final String EXIT_CODE = "pmix.exit.code";

  // Job-level information a launched process reads at PMIx init
  public static final String JOB_SIZE = "pmix.job.size";
  public static final String APPNUM = "pmix.appnum";
  public static final String LOCAL_PEERS = "pmix.lpeers";
  public static final String LOCAL_SIZE = "pmix.local.size";
  public static final String JOBID = "pmix.jobid";
  public static final String UNIV_SIZE = "pmix.univ.size";
  public static final String LOCALLDR = "pmix.lldr";
  public static final String NODE_LIST = "pmix.nlist";
  public static final String NODEID = "pmix.nodeid";
  public static final String LOCAL_RANK = "pmix.lrank";
  public static final String NODE_RANK = "pmix.nrank";
  public static final String NUM_NODES = "pmix.num.nodes";
  public static final String PROC_PID = "pmix.ppid";
  public static final String PROC_INFO_ARRAY = "pmix.pdata";

  // The rest of the job data a wire-up needs (docs/wireup.md §b)
  public static final String MAX_PROCS = "pmix.max.size";
  public static final String JOB_NUM_APPS = "pmix.job.napps";
  public static final String APP_SIZE = "pmix.app.size";
  public static final String APPLDR = "pmix.aldr";
  public static final String APP_RANK = "pmix.apprank";
  public static final String APP_INFO_ARRAY = "pmix.app.arr";
  public static final String GLOBAL_RANK = "pmix.grank";
  public static final String NODE_INFO_ARRAY = "pmix.node.arr";
  public static final String NODE_SIZE = "pmix.node.size";
  public static final String NODE_MAP = "pmix.nmap";
  public static final String PROC_MAP = "pmix.pmap";
  public static final String TMPDIR = "pmix.tmpdir";
  public static final String NSDIR = "pmix.nsdir";
  public static final String PROCDIR = "pmix.pdir";
  public static final String TDIR_RMCLEAN = "pmix.tdir.rmclean";
  public static final String PARENT_ID = "pmix.parent";
  public static final String SPAWNED = "pmix.spawned";

  // Fence and get directives (docs/wireup.md §c.2, §c.3)
  public static final String COLLECT_DATA = "pmix.collect";
  public static final String IMMEDIATE = "pmix.immediate";

  // Output forwarding (spawn)
  public static final String FWD_STDOUT = "pmix.fwd.stdout";
  public static final String FWD_STDERR = "pmix.fwd.stderr";

  /** The processes' stderr is their stdout (one stream, in order), forwarded as stdout. */
  public static final String IOF_MERGE_STDERR_STDOUT = "pmix.iof.mrg";

  /** The older name of {@link #IOF_MERGE_STDERR_STDOUT}, still in libpmix 4.2.2's dictionary. */
  public static final String MERGE_STDERR_STDOUT = "pmix.mergeerrout";

  // Output formatting and files (spawn; docs/cli.md "Output"): a tool's library formats what it
  // receives by the first five (libpmix 4.2.2's pmix_iof_write_output), the DVM writes the files.
  public static final String IOF_TAG_OUTPUT = "pmix.iof.tag";
  public static final String IOF_TAG_DETAILED_OUTPUT = "pmix.iof.tagdet";
  public static final String IOF_TAG_FULLNAME_OUTPUT = "pmix.iof.tagfull";
  public static final String IOF_RANK_OUTPUT = "pmix.iof.rank";
  public static final String IOF_TIMESTAMP_OUTPUT = "pmix.iof.ts";
  public static final String IOF_XML_OUTPUT = "pmix.iof.xml";
  public static final String IOF_OUTPUT_TO_FILE = "pmix.iof.file";
  public static final String IOF_OUTPUT_TO_DIRECTORY = "pmix.iof.dir";
  public static final String IOF_FILE_ONLY = "pmix.iof.fonly";
  public static final String IOF_FILE_PATTERN = "pmix.iof.fpt";
  public static final String IOF_OUTPUT_RAW = "pmix.iof.raw";

  // Published data, connect, log (docs/wireup.md §c.4–§c.6)
  public static final String RANGE = "pmix.range";
  public static final String PERSISTENCE = "pmix.persist";
  public static final String WAIT = "pmix.wait";
  public static final String LOG_STDERR = "pmix.log.stderr";
  public static final String LOG_STDOUT = "pmix.log.stdout";
  public static final String LOG_SYSLOG = "pmix.log.syslog";
  public static final String LOG_LOCAL_SYSLOG = "pmix.log.lsys";
  public static final String LOG_GLOBAL_SYSLOG = "pmix.log.gsys";
  public static final String LOG_MSG = "pmix.log.msg";
  public static final String LOG_SOURCE = "pmix.log.source";
  public static final String LOG_TIMESTAMP = "pmix.log.tstmp";
  public static final String LOG_GENERATE_TIMESTAMP = "pmix.log.gtstmp";
  public static final String LOG_ONCE = "pmix.log.once";

  // Standard input and what a failing process does to its job (spawn; docs/wireup.md §c.7, §c.8)
  public static final String FWD_STDIN = "pmix.fwd.stdin";
  public static final String STDIN_TGT = "pmix.stdin";
  public static final String JOB_RECOVERABLE = "pmix.recover";
  public static final String ABORT_NON_ZERO_TERM = "pmix.abnz";

  // Files a job registers for removal at its end (PMIx_Job_control; docs/wireup.md §c.9)
  public static final String REGISTER_CLEANUP = "pmix.reg.cleanup";
  public static final String REGISTER_CLEANUP_DIR = "pmix.reg.cleanupdir";
  public static final String CLEANUP_RECURSIVE = "pmix.clnup.recurse";
  public static final String CLEANUP_EMPTY = "pmix.clnup.empty";
  public static final String CLEANUP_IGNORE = "pmix.clnup.ignore";
  public static final String CLEANUP_LEAVE_TOPDIR = "pmix.clnup.lvtop";

  // Job control (PMIx_Job_control)
  public static final String JOB_CTRL_PAUSE = "pmix.jctrl.pause";
  public static final String JOB_CTRL_RESUME = "pmix.jctrl.resume";
  public static final String JOB_CTRL_CANCEL = "pmix.jctrl.cancel";
  public static final String JOB_CTRL_KILL = "pmix.jctrl.kill";
  public static final String JOB_CTRL_RESTART = "pmix.jctrl.restart";
  public static final String JOB_CTRL_CHECKPOINT = "pmix.jctrl.ckpt";
  public static final String JOB_CTRL_SIGNAL = "pmix.jctrl.sig";
  public static final String JOB_CTRL_PROVISION = "pmix.jctrl.pvn";
  public static final String JOB_CTRL_TERMINATE = "pmix.jctrl.term";
  public static final String JOB_CTRL_DEFINE_PSET = "pmix.jctrl.defpset";

  // Queries
  public static final String QUERY_NAMESPACES = "pmix.qry.ns";
  public static final String QUERY_ATTRIBUTE_SUPPORT = "pmix.qry.attrs";
  public static final String HOST_FUNCTIONS = "pmix.host.fns";
  public static final String HOST_ATTRIBUTES = "pmix.host.attrs";
  public static final String QUERY_JOB_STATUS = "pmix.qry.jst";
  public static final String QUERY_ALLOC_STATUS = "pmix.query.alloc";
  public static final String QUERY_ALLOCATION = "pmix.query.allc";
  public static final String QUERY_ALLOC_IDS = "pmix.query.alloc.ids";
  public static final String QUERY_ALLOC_PROPERTIES = "pmix.query.alloc.prop";
  public static final String NUM_SLOTS = "pmix.num.slots";
  public static final String NODE_INFO = "pmix.node.info";
  public static final String HOSTNAME = "pmix.hname";

  // Session control (scheduler role)
  public static final String SESSION_CTRL_ID = "pmix.ssnctrl.id";
  public static final String SESSION_INSTANTIATE = "pmix.ssn.inst";
  public static final String SESSION_RESOURCES = "pmix.ssn.res";
  public static final String SESSION_JOB = "pmix.ssn.job";
  public static final String SESSION_APP = "pmix.ssn.app";
  public static final String SESSION_PROVISION_NODES = "pmix.ssn.pvnnds";
  public static final String SESSION_PROVISION_IMAGE = "pmix.ssn.pvnimg";
  public static final String SESSION_PAUSE = "pmix.ssn.pause";
  public static final String SESSION_RESUME = "pmix.ssn.resume";
  public static final String SESSION_TERMINATE = "pmix.ssn.terminate";
  public static final String SESSION_PREEMPT = "pmix.ssn.preempt";
  public static final String SESSION_RESTORE = "pmix.ssn.restore";
  public static final String SESSION_SIGNAL = "pmix.ssn.sig";
  public static final String SESSION_SEP = "pmix.ssn.sep";
  public static final String SESSION_EXTEND = "pmix.ssn.xtend";
  public static final String SESSION_COMPLETE = "pmix.ssn.complete";
}
