package org.jdvm.pmix.dict;

import java.util.List;

/**
 * Server setup, tool connections and the rendezvous between them (pmix-wire.md §9.1, §9.3).
 *
 * <p>Data, not code: one attribute per line, "key | C name[, aliases] | type in master | type in
 * 4.2.2 (or absent) | description". Keys, names and types come from libpmix 4.2.2's dictionary and
 * the master headers (jdvm-pmix's test resources {@code wire/dict_422.json} and {@code
 * wire/attr_diff.txt}, pmix-wire.md §10–§11); the descriptions are jdvm's own. "varies" is a type
 * that depends on the use.
 */
final class ServerAttributes {
  private ServerAttributes() {}

  static final String TITLE = "Servers, tools and connections";

  static final List<Attribute> ALL =
      AttributeTable.parse(
          """
          pmix.srvr.tool | PMIX_SERVER_TOOL_SUPPORT | BOOL | BOOL | The server accepts connections from tools.
          pmix.srvr.remote | PMIX_SERVER_REMOTE_CONNECTIONS | BOOL | BOOL | The server accepts connections from other hosts.
          pmix.srvr.sys | PMIX_SERVER_SYSTEM_SUPPORT | BOOL | BOOL | The server is the system-level server of its node.
          pmix.srvr.sess | PMIX_SERVER_SESSION_SUPPORT | BOOL | BOOL | The server is the session-level server.
          pmix.srvr.tmpdir | PMIX_SERVER_TMPDIR | STRING | STRING | The server's temporary directory, where its rendezvous files go.
          pmix.sys.tmpdir | PMIX_SYSTEM_TMPDIR | STRING | STRING | The system temporary directory, where system-level rendezvous files go.
          pmix.srv.nspace | PMIX_SERVER_NSPACE | STRING | STRING | The server's namespace.
          pmix.srv.rank | PMIX_SERVER_RANK | PROC_RANK | PROC_RANK | The server's rank.
          pmix.srv.gway | PMIX_SERVER_GATEWAY | BOOL | BOOL | The server relays requests between its clients and the system.
          pmix.srv.strtime | PMIX_SERVER_START_TIME | STRING | STRING | When the server started.
          pmix.srvr.uri | PMIX_SERVER_URI | STRING | STRING | The URI a process uses to reach a server: "nspace.rank;tcp4://address:port".
          pmix.mysrvr.uri | PMIX_MYSERVER_URI | STRING | STRING | The URI of the server this process is connected to.
          pmix.srvr.host | PMIX_SERVER_HOSTNAME | STRING | STRING | The host the server runs on.
          pmix.srvr.pidinfo | PMIX_SERVER_PIDINFO | PID | PID | The pid of the server to connect to.
          pmix.tool.nspace | PMIX_TOOL_NSPACE | STRING | STRING | The namespace of a tool.
          pmix.tool.rank | PMIX_TOOL_RANK | UINT32 | UINT32 | The rank of a tool.
          pmix.tool.nocon | PMIX_TOOL_DO_NOT_CONNECT | BOOL | BOOL | Initialize the tool without connecting to any server.
          pmix.tool.conopt | PMIX_TOOL_CONNECT_OPTIONAL | BOOL | BOOL | Initialize the tool even if no server can be reached.
          pmix.tool.attach | PMIX_TOOL_ATTACHMENT_FILE | STRING | STRING | A file that tells the tool how to connect.
          pmix.cnct.sys | PMIX_CONNECT_TO_SYSTEM | BOOL | BOOL | Connect to the system-level server.
          pmix.cnct.sys.first | PMIX_CONNECT_SYSTEM_FIRST | BOOL | BOOL | Try the system-level server before any other.
          pmix.tool.mretries | PMIX_CONNECT_MAX_RETRIES | UINT32 | UINT32 | How many times to try connecting.
          pmix.tool.retry | PMIX_CONNECT_RETRY_DELAY | UINT32 | UINT32 | Seconds to wait between connection attempts.
          pmix.cnct.recon | PMIX_RECONNECT_SERVER | BOOL | BOOL | Drop the current server connection and connect to another.
          pmix.cnct.ord | PMIX_CONNECTION_ORDER | STRING | absent | The order in which to try the kinds of server.
          pmix.pri.srvr | PMIX_PRIMARY_SERVER | BOOL | BOOL | This server is the tool's primary one.
          pmix.tool.launcher | PMIX_LAUNCHER | BOOL | BOOL | The tool is a launcher.
          pmix.tool.lncrnd | PMIX_LAUNCHER_RENDEZVOUS_FILE | STRING | STRING | A file where the launcher writes how to connect to it.
          pmix.srvr.ftools | PMIX_SERVER_ALLOW_FOREIGN_TOOLS | BOOL | absent | The server accepts tools of other users.
          pmix.singleton | PMIX_SINGLETON | STRING | STRING | The process started without a server; the value names it.
          pmix.version | PMIX_VERSION_INFO | STRING | STRING | The library's version string.
          pmix.vers.num | PMIX_VERSION_NUMERIC | UINT32 | absent | The library's version as a number.
          pmix.bfrops.mod | PMIX_BFROPS_MODULE | STRING | STRING | The bfrops component a peer uses, as its job-info reply reports it.
          pmix.gds.mod | PMIX_GDS_MODULE | STRING | STRING | The gds modules a peer may use.
          pmix.cred | PMIX_CREDENTIAL | STRING | STRING | A security credential.
          pmix.sec.ctype | PMIX_CRED_TYPE | STRING | STRING | The kind of credential wanted.
          """);
}
