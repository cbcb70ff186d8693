package org.jdvm.pmix.frame;

/**
 * What kind of process is connecting, the one-byte flag of the connect message (pmix-wire.md §9.3,
 * {@code ptl_base_handshake.h}). The flag decides which identity fields follow it and which reply
 * the server sends.
 */
public enum ConnectFlag {
  /** A process the server launched: its nspace and rank follow. */
  SIMPLE_CLIENT(false, true),
  /** Pre-4 tool; no identity fields. */
  LEGACY_TOOL(false, false),
  /** Pre-4 launcher; no identity fields. */
  LEGACY_LAUNCHER(false, false),
  /** A self-started tool asking the server for an identity: uid and gid follow. */
  TOOL_NEEDS_ID(true, false),
  /** A tool that was given its identity: uid, gid, nspace and rank follow. */
  TOOL_GIVEN_ID(true, true),
  /** A tool the server started, and so also its client. */
  TOOL_CLIENT(true, true),
  /** A self-started launcher asking for an identity. */
  LAUNCHER_NEEDS_ID(true, false),
  LAUNCHER_GIVEN_ID(true, true),
  LAUNCHER_CLIENT(true, true),
  /** A process started without a server that now connects to one. */
  SINGLETON_CLIENT(true, true),
  /** Master only: a scheduler with its own identity. */
  SCHEDULER_WITH_ID(true, true);

  private final boolean carriesUidGid;
  private final boolean carriesProc;

  ConnectFlag(boolean carriesUidGid, boolean carriesProc) {
    this.carriesUidGid = carriesUidGid;
    this.carriesProc = carriesProc;
  }

  /** The byte on the wire. */
  public int code() {
    return ordinal();
  }

  /** The flag for a wire byte, or {@code null} for an unknown one. */
  public static ConnectFlag fromCode(int code) {
    ConnectFlag[] all = values();
    return code >= 0 && code < all.length ? all[code] : null;
  }

  /** Whether big-endian uid and gid follow the flag. */
  public boolean carriesUidGid() {
    return carriesUidGid;
  }

  /** Whether an nspace and a big-endian rank follow (after the uid and gid, if any). */
  public boolean carriesProc() {
    return carriesProc;
  }

  /** Whether the connector asks the server to assign it an identity. */
  public boolean needsId() {
    return this == TOOL_NEEDS_ID || this == LAUNCHER_NEEDS_ID;
  }

  /**
   * Whether the server answers with the client reply (status, pindex) rather than the tool reply:
   * only plain clients and singletons do; tools, launchers and schedulers, even those that are also
   * clients, get the tool reply.
   */
  public boolean getsClientReply() {
    return this == SIMPLE_CLIENT || this == SINGLETON_CLIENT;
  }
}
