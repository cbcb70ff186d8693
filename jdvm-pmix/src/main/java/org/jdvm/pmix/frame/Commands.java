package org.jdvm.pmix.frame;

/**
 * The command codes ({@code pmix_cmd_t}, one byte, packed as a COMMAND unit) that start every
 * client request body (pmix-wire.md §9.4). Codes 0–32 are the same in 4.2.2 and master; 33–39 exist
 * only in master. A server answers an unknown code with {@code PMIX_ERR_NOT_SUPPORTED}.
 */
public final class Commands {
  private Commands() {}

  public static final int REQ_CMD = 0;
  public static final int ABORT_CMD = 1;
  public static final int COMMIT_CMD = 2;
  public static final int FENCENB_CMD = 3;
  public static final int GETNB_CMD = 4;
  public static final int FINALIZE_CMD = 5;
  public static final int PUBLISHNB_CMD = 6;
  public static final int LOOKUPNB_CMD = 7;
  public static final int UNPUBLISHNB_CMD = 8;
  public static final int SPAWNNB_CMD = 9;
  public static final int CONNECTNB_CMD = 10;
  public static final int DISCONNECTNB_CMD = 11;
  public static final int NOTIFY_CMD = 12;
  public static final int REGEVENTS_CMD = 13;
  public static final int DEREGEVENTS_CMD = 14;
  public static final int QUERY_CMD = 15;
  public static final int LOG_CMD = 16;
  public static final int ALLOC_CMD = 17;
  public static final int JOB_CONTROL_CMD = 18;
  public static final int MONITOR_CMD = 19;
  public static final int GET_CREDENTIAL_CMD = 20;
  public static final int VALIDATE_CRED_CMD = 21;
  public static final int IOF_PULL_CMD = 22;
  public static final int IOF_PUSH_CMD = 23;
  public static final int GROUP_CONSTRUCT_CMD = 24;
  public static final int GROUP_JOIN_CMD = 25;
  public static final int GROUP_INVITE_CMD = 26;
  public static final int GROUP_LEAVE_CMD = 27;
  public static final int GROUP_DESTRUCT_CMD = 28;
  public static final int IOF_DEREG_CMD = 29;
  public static final int FABRIC_REGISTER_CMD = 30;
  public static final int FABRIC_UPDATE_CMD = 31;
  public static final int COMPUTE_DEVICE_DISTANCES_CMD = 32;

  /** Master only, from here on. */
  public static final int REFRESH_CACHE = 33;

  public static final int RESBLK_CMD = 34;
  public static final int SESSION_CTRL_CMD = 35;
  public static final int REQ_SYSINFO_CMD = 36;
  public static final int RESOLVE_PEERS_CMD = 37;
  public static final int RESOLVE_NODE_CMD = 38;
  public static final int GDS_FALLBACK_CMD = 39;

  private static final String[] NAMES = {
    "REQ_CMD",
    "ABORT_CMD",
    "COMMIT_CMD",
    "FENCENB_CMD",
    "GETNB_CMD",
    "FINALIZE_CMD",
    "PUBLISHNB_CMD",
    "LOOKUPNB_CMD",
    "UNPUBLISHNB_CMD",
    "SPAWNNB_CMD",
    "CONNECTNB_CMD",
    "DISCONNECTNB_CMD",
    "NOTIFY_CMD",
    "REGEVENTS_CMD",
    "DEREGEVENTS_CMD",
    "QUERY_CMD",
    "LOG_CMD",
    "ALLOC_CMD",
    "JOB_CONTROL_CMD",
    "MONITOR_CMD",
    "GET_CREDENTIAL_CMD",
    "VALIDATE_CRED_CMD",
    "IOF_PULL_CMD",
    "IOF_PUSH_CMD",
    "GROUP_CONSTRUCT_CMD",
    "GROUP_JOIN_CMD",
    "GROUP_INVITE_CMD",
    "GROUP_LEAVE_CMD",
    "GROUP_DESTRUCT_CMD",
    "IOF_DEREG_CMD",
    "FABRIC_REGISTER_CMD",
    "FABRIC_UPDATE_CMD",
    "COMPUTE_DEVICE_DISTANCES_CMD",
    "REFRESH_CACHE",
    "RESBLK_CMD",
    "SESSION_CTRL_CMD",
    "REQ_SYSINFO_CMD",
    "RESOLVE_PEERS_CMD",
    "RESOLVE_NODE_CMD",
    "GDS_FALLBACK_CMD"
  };

  /** The name of a command code, e.g. "ALLOC_CMD", or "UNKNOWN COMMAND n". */
  public static String name(int command) {
    return command >= 0 && command < NAMES.length ? NAMES[command] : "UNKNOWN COMMAND " + command;
  }

  /** Whether a 4.2.2 peer knows the command (codes up to 32). */
  public static boolean inV422(int command) {
    return command >= 0 && command <= COMPUTE_DEVICE_DISTANCES_CMD;
  }
}
