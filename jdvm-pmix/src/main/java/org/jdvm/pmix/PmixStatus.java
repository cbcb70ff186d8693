package org.jdvm.pmix;

import java.util.HashMap;
import java.util.Map;

/**
 * PMIx status codes ({@code pmix_status_t}) and their names, the equivalent of {@code
 * PMIx_Error_string}.
 *
 * <p>Generated once from {@code docs/spec/wire/status_table.md} (OpenPMIx master headers, 168
 * rows). No value differs between 4.2.2 and master; master only adds the eight codes marked "master
 * only" below. Where a deprecated alias shares a value with a current name, {@link #name(int)}
 * returns the current name.
 */
public final class PmixStatus {
  private PmixStatus() {}

  public static final int SUCCESS = 0;

  public static final int ERROR = -1;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_SILENT = -2;

  public static final int DEBUGGER_RELEASE = -3;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_DEBUGGER_RELEASE = -3;

  public static final int ERR_PROC_RESTART = -4;

  public static final int ERR_PROC_CHECKPOINT = -5;

  public static final int ERR_PROC_MIGRATE = -6;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_PROC_ABORTED = -7;

  public static final int ERR_PROC_REQUESTED_ABORT = -8;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_PROC_ABORTING = -9;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_SERVER_FAILED_REQUEST = -10;

  public static final int ERR_EXISTS = -11;

  /** Deprecated alias kept for peers that still send it. */
  public static final int EXISTS = -11;

  public static final int ERR_INVALID_CRED = -12;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_HANDSHAKE_FAILED = -13;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_READY_FOR_HANDSHAKE = -14;

  public static final int ERR_WOULD_BLOCK = -15;

  public static final int ERR_UNKNOWN_DATA_TYPE = -16;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_PROC_ENTRY_NOT_FOUND = -17;

  public static final int ERR_TYPE_MISMATCH = -18;

  public static final int ERR_UNPACK_INADEQUATE_SPACE = -19;

  public static final int ERR_UNPACK_FAILURE = -20;

  public static final int ERR_PACK_FAILURE = -21;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_PACK_MISMATCH = -22;

  public static final int ERR_NO_PERMISSIONS = -23;

  public static final int ERR_TIMEOUT = -24;

  public static final int ERR_UNREACH = -25;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_IN_ERRNO = -26;

  public static final int ERR_BAD_PARAM = -27;

  public static final int ERR_RESOURCE_BUSY = -28;

  public static final int ERR_OUT_OF_RESOURCE = -29;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_DATA_VALUE_NOT_FOUND = -30;

  public static final int ERR_INIT = -31;

  public static final int ERR_NOMEM = -32;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_INVALID_ARG = -33;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_INVALID_KEY = -34;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_INVALID_KEY_LENGTH = -35;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_INVALID_VAL = -36;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_INVALID_VAL_LENGTH = -37;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_INVALID_LENGTH = -38;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_INVALID_NUM_ARGS = -39;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_INVALID_ARGS = -40;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_INVALID_NUM_PARSED = -41;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_INVALID_KEYVALP = -42;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_INVALID_SIZE = -43;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_INVALID_NAMESPACE = -44;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_SERVER_NOT_AVAIL = -45;

  public static final int ERR_NOT_FOUND = -46;

  public static final int ERR_NOT_SUPPORTED = -47;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_NOT_IMPLEMENTED = -48;

  public static final int ERR_COMM_FAILURE = -49;

  public static final int ERR_UNPACK_READ_PAST_END_OF_BUFFER = -50;

  public static final int ERR_CONFLICTING_CLEANUP_DIRECTIVES = -51;

  public static final int ERR_PARTIAL_SUCCESS = -52;

  public static final int ERR_DUPLICATE_KEY = -53;

  public static final int PROCESS_SET_DEFINE = -55;

  public static final int PROCESS_SET_DELETE = -56;

  public static final int READY_FOR_DEBUG = -58;

  /** Deprecated alias kept for peers that still send it. */
  public static final int DEBUG_WAITING_FOR_NOTIFY = -58;

  public static final int ERR_PARAM_VALUE_NOT_SUPPORTED = -59;

  public static final int ERR_EMPTY = -60;

  public static final int ERR_LOST_CONNECTION = -61;

  public static final int ERR_EXISTS_OUTSIDE_SCOPE = -62;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_FATAL = -63;

  public static final int ERR_NOT_AVAILABLE = -64;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_VALUE_OUT_OF_BOUNDS = -65;

  /** Master only: absent from 4.2.2 headers. */
  public static final int ERR_NOT_A_MEMBER = -66;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_FILE_OPEN_FAILURE = -67;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_FILE_READ_FAILURE = -68;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_FILE_WRITE_FAILURE = -69;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_SYS_LIMITS_PIPES = -70;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_SYS_LIMITS_CHILDREN = -71;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_PIPE_SETUP_FAILURE = -72;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_EXE_NOT_ACCESSIBLE = -73;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_JOB_WDIR_NOT_ACCESSIBLE = -74;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_SYS_LIMITS_FILES = -75;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_LOST_CONNECTION_TO_SERVER = -101;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_LOST_PEER_CONNECTION = -102;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_LOST_CONNECTION_TO_CLIENT = -103;

  /** Deprecated alias kept for peers that still send it. */
  public static final int QUERY_PARTIAL_SUCCESS = -104;

  /** Deprecated alias kept for peers that still send it. */
  public static final int NOTIFY_ALLOC_COMPLETE = -105;

  public static final int JCTRL_CHECKPOINT = -106;

  public static final int JCTRL_CHECKPOINT_COMPLETE = -107;

  public static final int JCTRL_PREEMPT_ALERT = -108;

  public static final int MONITOR_HEARTBEAT_ALERT = -109;

  public static final int MONITOR_FILE_ALERT = -110;

  public static final int PROC_TERMINATED = -111;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_INVALID_TERMINATION = -112;

  public static final int FABRIC_UPDATE_ENDPOINTS = -113;

  /** Master only: absent from 4.2.2 headers. */
  public static final int MONITOR_RESUSAGE_UPDATE = -114;

  public static final int ERR_EVENT_REGISTRATION = -144;

  public static final int EVENT_JOB_END = -145;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_JOB_TERMINATED = -145;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_UPDATE_ENDPOINTS = -146;

  public static final int MODEL_DECLARED = -147;

  /** Deprecated alias kept for peers that still send it. */
  public static final int GDS_ACTION_COMPLETE = -148;

  /** Deprecated alias kept for peers that still send it. */
  public static final int PROC_HAS_CONNECTED = -149;

  /** Deprecated alias kept for peers that still send it. */
  public static final int CONNECT_REQUESTED = -150;

  public static final int MODEL_RESOURCES = -151;

  public static final int OPENMP_PARALLEL_ENTERED = -152;

  public static final int OPENMP_PARALLEL_EXITED = -153;

  public static final int LAUNCHER_READY = -155;

  public static final int OPERATION_IN_PROGRESS = -156;

  public static final int OPERATION_SUCCEEDED = -157;

  public static final int ERR_INVALID_OPERATION = -158;

  public static final int GROUP_INVITED = -159;

  public static final int GROUP_LEFT = -160;

  public static final int GROUP_INVITE_ACCEPTED = -161;

  public static final int GROUP_INVITE_DECLINED = -162;

  public static final int GROUP_INVITE_FAILED = -163;

  public static final int GROUP_MEMBERSHIP_UPDATE = -164;

  public static final int GROUP_CONSTRUCT_ABORT = -165;

  public static final int GROUP_CONSTRUCT_COMPLETE = -166;

  public static final int GROUP_LEADER_SELECTED = -167;

  public static final int GROUP_LEADER_FAILED = -168;

  /** Deprecated alias kept for peers that still send it. */
  public static final int GROUP_CONTEXT_ID_ASSIGNED = -169;

  public static final int GROUP_MEMBER_FAILED = -170;

  public static final int ERR_REPEAT_ATTR_REGISTRATION = -171;

  public static final int ERR_IOF_FAILURE = -172;

  public static final int ERR_IOF_COMPLETE = -173;

  public static final int LAUNCH_COMPLETE = -174;

  public static final int FABRIC_UPDATED = -175;

  public static final int FABRIC_UPDATE_PENDING = -176;

  public static final int ERR_JOB_APP_NOT_EXECUTABLE = -177;

  public static final int ERR_JOB_NO_EXE_SPECIFIED = -178;

  public static final int ERR_JOB_FAILED_TO_MAP = -179;

  public static final int ERR_JOB_CANCELED = -180;

  public static final int ERR_JOB_FAILED_TO_LAUNCH = -181;

  public static final int ERR_JOB_ABORTED = -182;

  public static final int ERR_JOB_KILLED_BY_CMD = -183;

  public static final int ERR_JOB_ABORTED_BY_SIG = -184;

  public static final int ERR_JOB_TERM_WO_SYNC = -185;

  public static final int ERR_JOB_SENSOR_BOUND_EXCEEDED = -186;

  public static final int ERR_JOB_NON_ZERO_TERM = -187;

  public static final int ERR_JOB_ALLOC_FAILED = -188;

  public static final int ERR_JOB_ABORTED_BY_SYS_EVENT = -189;

  public static final int ERR_JOB_EXE_NOT_FOUND = -190;

  public static final int EVENT_JOB_START = -191;

  public static final int EVENT_SESSION_START = -192;

  public static final int EVENT_SESSION_END = -193;

  /** Master only: absent from 4.2.2 headers. */
  public static final int ALLOC_TIMEOUT_WARNING = -194;

  /** Master only: absent from 4.2.2 headers. */
  public static final int DVM_IS_READY = -195;

  /** Master only: absent from 4.2.2 headers. */
  public static final int ERR_DVM_MOD = -196;

  public static final int ERR_PROC_TERM_WO_SYNC = -200;

  public static final int EVENT_PROC_TERMINATED = -201;

  /** Master only: absent from 4.2.2 headers. */
  public static final int ERR_LOST_PRECISION = -202;

  /** Master only: absent from 4.2.2 headers. */
  public static final int ERR_CHANGE_SIGN = -203;

  public static final int EVENT_SYS_BASE = -230;

  public static final int EVENT_NODE_DOWN = -231;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_NODE_DOWN = -231;

  public static final int EVENT_NODE_OFFLINE = -232;

  /** Deprecated alias kept for peers that still send it. */
  public static final int ERR_NODE_OFFLINE = -232;

  public static final int ERR_JOB_WDIR_NOT_FOUND = -233;

  public static final int ERR_JOB_INSUFFICIENT_RESOURCES = -234;

  public static final int ERR_JOB_SYS_OP_FAILED = -235;

  public static final int EVENT_SYS_OTHER = -330;

  public static final int EVENT_NO_ACTION_TAKEN = -331;

  public static final int EVENT_PARTIAL_ACTION_TAKEN = -332;

  public static final int EVENT_ACTION_DEFERRED = -333;

  public static final int EVENT_ACTION_COMPLETE = -334;

  public static final int ERR_PROC_KILLED_BY_CMD = -400;

  public static final int ERR_PROC_FAILED_TO_START = -401;

  public static final int ERR_PROC_ABORTED_BY_SIG = -402;

  public static final int ERR_PROC_SENSOR_BOUND_EXCEEDED = -403;

  public static final int ERR_EXIT_NONZERO_TERM = -404;

  /** Master only: absent from 4.2.2 headers. */
  public static final int ERR_IOF_XOFF = -405;

  public static final int EXTERNAL_ERR_BASE = -3000;

  private static final Map<Integer, String> NAMES = new HashMap<>();

  static {
    NAMES.put(0, "PMIX_SUCCESS");
    NAMES.put(-1, "PMIX_ERROR");
    NAMES.put(-2, "PMIX_ERR_SILENT");
    NAMES.put(-3, "PMIX_DEBUGGER_RELEASE");
    NAMES.put(-4, "PMIX_ERR_PROC_RESTART");
    NAMES.put(-5, "PMIX_ERR_PROC_CHECKPOINT");
    NAMES.put(-6, "PMIX_ERR_PROC_MIGRATE");
    NAMES.put(-7, "PMIX_ERR_PROC_ABORTED");
    NAMES.put(-8, "PMIX_ERR_PROC_REQUESTED_ABORT");
    NAMES.put(-9, "PMIX_ERR_PROC_ABORTING");
    NAMES.put(-10, "PMIX_ERR_SERVER_FAILED_REQUEST");
    NAMES.put(-11, "PMIX_ERR_EXISTS");
    NAMES.put(-12, "PMIX_ERR_INVALID_CRED");
    NAMES.put(-13, "PMIX_ERR_HANDSHAKE_FAILED");
    NAMES.put(-14, "PMIX_ERR_READY_FOR_HANDSHAKE");
    NAMES.put(-15, "PMIX_ERR_WOULD_BLOCK");
    NAMES.put(-16, "PMIX_ERR_UNKNOWN_DATA_TYPE");
    NAMES.put(-17, "PMIX_ERR_PROC_ENTRY_NOT_FOUND");
    NAMES.put(-18, "PMIX_ERR_TYPE_MISMATCH");
    NAMES.put(-19, "PMIX_ERR_UNPACK_INADEQUATE_SPACE");
    NAMES.put(-20, "PMIX_ERR_UNPACK_FAILURE");
    NAMES.put(-21, "PMIX_ERR_PACK_FAILURE");
    NAMES.put(-22, "PMIX_ERR_PACK_MISMATCH");
    NAMES.put(-23, "PMIX_ERR_NO_PERMISSIONS");
    NAMES.put(-24, "PMIX_ERR_TIMEOUT");
    NAMES.put(-25, "PMIX_ERR_UNREACH");
    NAMES.put(-26, "PMIX_ERR_IN_ERRNO");
    NAMES.put(-27, "PMIX_ERR_BAD_PARAM");
    NAMES.put(-28, "PMIX_ERR_RESOURCE_BUSY");
    NAMES.put(-29, "PMIX_ERR_OUT_OF_RESOURCE");
    NAMES.put(-30, "PMIX_ERR_DATA_VALUE_NOT_FOUND");
    NAMES.put(-31, "PMIX_ERR_INIT");
    NAMES.put(-32, "PMIX_ERR_NOMEM");
    NAMES.put(-33, "PMIX_ERR_INVALID_ARG");
    NAMES.put(-34, "PMIX_ERR_INVALID_KEY");
    NAMES.put(-35, "PMIX_ERR_INVALID_KEY_LENGTH");
    NAMES.put(-36, "PMIX_ERR_INVALID_VAL");
    NAMES.put(-37, "PMIX_ERR_INVALID_VAL_LENGTH");
    NAMES.put(-38, "PMIX_ERR_INVALID_LENGTH");
    NAMES.put(-39, "PMIX_ERR_INVALID_NUM_ARGS");
    NAMES.put(-40, "PMIX_ERR_INVALID_ARGS");
    NAMES.put(-41, "PMIX_ERR_INVALID_NUM_PARSED");
    NAMES.put(-42, "PMIX_ERR_INVALID_KEYVALP");
    NAMES.put(-43, "PMIX_ERR_INVALID_SIZE");
    NAMES.put(-44, "PMIX_ERR_INVALID_NAMESPACE");
    NAMES.put(-45, "PMIX_ERR_SERVER_NOT_AVAIL");
    NAMES.put(-46, "PMIX_ERR_NOT_FOUND");
    NAMES.put(-47, "PMIX_ERR_NOT_SUPPORTED");
    NAMES.put(-48, "PMIX_ERR_NOT_IMPLEMENTED");
    NAMES.put(-49, "PMIX_ERR_COMM_FAILURE");
    NAMES.put(-50, "PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER");
    NAMES.put(-51, "PMIX_ERR_CONFLICTING_CLEANUP_DIRECTIVES");
    NAMES.put(-52, "PMIX_ERR_PARTIAL_SUCCESS");
    NAMES.put(-53, "PMIX_ERR_DUPLICATE_KEY");
    NAMES.put(-55, "PMIX_PROCESS_SET_DEFINE");
    NAMES.put(-56, "PMIX_PROCESS_SET_DELETE");
    NAMES.put(-58, "PMIX_READY_FOR_DEBUG");
    NAMES.put(-59, "PMIX_ERR_PARAM_VALUE_NOT_SUPPORTED");
    NAMES.put(-60, "PMIX_ERR_EMPTY");
    NAMES.put(-61, "PMIX_ERR_LOST_CONNECTION");
    NAMES.put(-62, "PMIX_ERR_EXISTS_OUTSIDE_SCOPE");
    NAMES.put(-63, "PMIX_ERR_FATAL");
    NAMES.put(-64, "PMIX_ERR_NOT_AVAILABLE");
    NAMES.put(-65, "PMIX_ERR_VALUE_OUT_OF_BOUNDS");
    NAMES.put(-66, "PMIX_ERR_NOT_A_MEMBER");
    NAMES.put(-67, "PMIX_ERR_FILE_OPEN_FAILURE");
    NAMES.put(-68, "PMIX_ERR_FILE_READ_FAILURE");
    NAMES.put(-69, "PMIX_ERR_FILE_WRITE_FAILURE");
    NAMES.put(-70, "PMIX_ERR_SYS_LIMITS_PIPES");
    NAMES.put(-71, "PMIX_ERR_SYS_LIMITS_CHILDREN");
    NAMES.put(-72, "PMIX_ERR_PIPE_SETUP_FAILURE");
    NAMES.put(-73, "PMIX_ERR_EXE_NOT_ACCESSIBLE");
    NAMES.put(-74, "PMIX_ERR_JOB_WDIR_NOT_ACCESSIBLE");
    NAMES.put(-75, "PMIX_ERR_SYS_LIMITS_FILES");
    NAMES.put(-101, "PMIX_ERR_LOST_CONNECTION_TO_SERVER");
    NAMES.put(-102, "PMIX_ERR_LOST_PEER_CONNECTION");
    NAMES.put(-103, "PMIX_ERR_LOST_CONNECTION_TO_CLIENT");
    NAMES.put(-104, "PMIX_QUERY_PARTIAL_SUCCESS");
    NAMES.put(-105, "PMIX_NOTIFY_ALLOC_COMPLETE");
    NAMES.put(-106, "PMIX_JCTRL_CHECKPOINT");
    NAMES.put(-107, "PMIX_JCTRL_CHECKPOINT_COMPLETE");
    NAMES.put(-108, "PMIX_JCTRL_PREEMPT_ALERT");
    NAMES.put(-109, "PMIX_MONITOR_HEARTBEAT_ALERT");
    NAMES.put(-110, "PMIX_MONITOR_FILE_ALERT");
    NAMES.put(-111, "PMIX_PROC_TERMINATED");
    NAMES.put(-112, "PMIX_ERR_INVALID_TERMINATION");
    NAMES.put(-113, "PMIX_FABRIC_UPDATE_ENDPOINTS");
    NAMES.put(-114, "PMIX_MONITOR_RESUSAGE_UPDATE");
    NAMES.put(-144, "PMIX_ERR_EVENT_REGISTRATION");
    NAMES.put(-145, "PMIX_EVENT_JOB_END");
    NAMES.put(-146, "PMIX_ERR_UPDATE_ENDPOINTS");
    NAMES.put(-147, "PMIX_MODEL_DECLARED");
    NAMES.put(-148, "PMIX_GDS_ACTION_COMPLETE");
    NAMES.put(-149, "PMIX_PROC_HAS_CONNECTED");
    NAMES.put(-150, "PMIX_CONNECT_REQUESTED");
    NAMES.put(-151, "PMIX_MODEL_RESOURCES");
    NAMES.put(-152, "PMIX_OPENMP_PARALLEL_ENTERED");
    NAMES.put(-153, "PMIX_OPENMP_PARALLEL_EXITED");
    NAMES.put(-155, "PMIX_LAUNCHER_READY");
    NAMES.put(-156, "PMIX_OPERATION_IN_PROGRESS");
    NAMES.put(-157, "PMIX_OPERATION_SUCCEEDED");
    NAMES.put(-158, "PMIX_ERR_INVALID_OPERATION");
    NAMES.put(-159, "PMIX_GROUP_INVITED");
    NAMES.put(-160, "PMIX_GROUP_LEFT");
    NAMES.put(-161, "PMIX_GROUP_INVITE_ACCEPTED");
    NAMES.put(-162, "PMIX_GROUP_INVITE_DECLINED");
    NAMES.put(-163, "PMIX_GROUP_INVITE_FAILED");
    NAMES.put(-164, "PMIX_GROUP_MEMBERSHIP_UPDATE");
    NAMES.put(-165, "PMIX_GROUP_CONSTRUCT_ABORT");
    NAMES.put(-166, "PMIX_GROUP_CONSTRUCT_COMPLETE");
    NAMES.put(-167, "PMIX_GROUP_LEADER_SELECTED");
    NAMES.put(-168, "PMIX_GROUP_LEADER_FAILED");
    NAMES.put(-169, "PMIX_GROUP_CONTEXT_ID_ASSIGNED");
    NAMES.put(-170, "PMIX_GROUP_MEMBER_FAILED");
    NAMES.put(-171, "PMIX_ERR_REPEAT_ATTR_REGISTRATION");
    NAMES.put(-172, "PMIX_ERR_IOF_FAILURE");
    NAMES.put(-173, "PMIX_ERR_IOF_COMPLETE");
    NAMES.put(-174, "PMIX_LAUNCH_COMPLETE");
    NAMES.put(-175, "PMIX_FABRIC_UPDATED");
    NAMES.put(-176, "PMIX_FABRIC_UPDATE_PENDING");
    NAMES.put(-177, "PMIX_ERR_JOB_APP_NOT_EXECUTABLE");
    NAMES.put(-178, "PMIX_ERR_JOB_NO_EXE_SPECIFIED");
    NAMES.put(-179, "PMIX_ERR_JOB_FAILED_TO_MAP");
    NAMES.put(-180, "PMIX_ERR_JOB_CANCELED");
    NAMES.put(-181, "PMIX_ERR_JOB_FAILED_TO_LAUNCH");
    NAMES.put(-182, "PMIX_ERR_JOB_ABORTED");
    NAMES.put(-183, "PMIX_ERR_JOB_KILLED_BY_CMD");
    NAMES.put(-184, "PMIX_ERR_JOB_ABORTED_BY_SIG");
    NAMES.put(-185, "PMIX_ERR_JOB_TERM_WO_SYNC");
    NAMES.put(-186, "PMIX_ERR_JOB_SENSOR_BOUND_EXCEEDED");
    NAMES.put(-187, "PMIX_ERR_JOB_NON_ZERO_TERM");
    NAMES.put(-188, "PMIX_ERR_JOB_ALLOC_FAILED");
    NAMES.put(-189, "PMIX_ERR_JOB_ABORTED_BY_SYS_EVENT");
    NAMES.put(-190, "PMIX_ERR_JOB_EXE_NOT_FOUND");
    NAMES.put(-191, "PMIX_EVENT_JOB_START");
    NAMES.put(-192, "PMIX_EVENT_SESSION_START");
    NAMES.put(-193, "PMIX_EVENT_SESSION_END");
    NAMES.put(-194, "PMIX_ALLOC_TIMEOUT_WARNING");
    NAMES.put(-195, "PMIX_DVM_IS_READY");
    NAMES.put(-196, "PMIX_ERR_DVM_MOD");
    NAMES.put(-200, "PMIX_ERR_PROC_TERM_WO_SYNC");
    NAMES.put(-201, "PMIX_EVENT_PROC_TERMINATED");
    NAMES.put(-202, "PMIX_ERR_LOST_PRECISION");
    NAMES.put(-203, "PMIX_ERR_CHANGE_SIGN");
    NAMES.put(-230, "PMIX_EVENT_SYS_BASE");
    NAMES.put(-231, "PMIX_EVENT_NODE_DOWN");
    NAMES.put(-232, "PMIX_EVENT_NODE_OFFLINE");
    NAMES.put(-233, "PMIX_ERR_JOB_WDIR_NOT_FOUND");
    NAMES.put(-234, "PMIX_ERR_JOB_INSUFFICIENT_RESOURCES");
    NAMES.put(-235, "PMIX_ERR_JOB_SYS_OP_FAILED");
    NAMES.put(-330, "PMIX_EVENT_SYS_OTHER");
    NAMES.put(-331, "PMIX_EVENT_NO_ACTION_TAKEN");
    NAMES.put(-332, "PMIX_EVENT_PARTIAL_ACTION_TAKEN");
    NAMES.put(-333, "PMIX_EVENT_ACTION_DEFERRED");
    NAMES.put(-334, "PMIX_EVENT_ACTION_COMPLETE");
    NAMES.put(-400, "PMIX_ERR_PROC_KILLED_BY_CMD");
    NAMES.put(-401, "PMIX_ERR_PROC_FAILED_TO_START");
    NAMES.put(-402, "PMIX_ERR_PROC_ABORTED_BY_SIG");
    NAMES.put(-403, "PMIX_ERR_PROC_SENSOR_BOUND_EXCEEDED");
    NAMES.put(-404, "PMIX_ERR_EXIT_NONZERO_TERM");
    NAMES.put(-405, "PMIX_ERR_IOF_XOFF");
    NAMES.put(-3000, "PMIX_EXTERNAL_ERR_BASE");
  }

  /**
   * The macro name of a status, e.g. {@code "PMIX_ERR_NOT_FOUND"} for -46, as {@code
   * PMIx_Error_string} returns it; {@code "UNKNOWN STATUS <code>"} for a code PMIx does not define
   * (implementer codes lie below {@link #EXTERNAL_ERR_BASE}).
   */
  public static String name(int status) {
    String n = NAMES.get(status);
    return n != null ? n : "UNKNOWN STATUS " + status;
  }

  /** Whether PMIx defines this code. */
  public static boolean isKnown(int status) {
    return NAMES.containsKey(status);
  }
}
