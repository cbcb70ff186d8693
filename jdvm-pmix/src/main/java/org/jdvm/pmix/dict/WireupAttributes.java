package org.jdvm.pmix.dict;

import java.util.List;

/**
 * Published data, waiting lookups and logging (docs/wireup.md §c.4, §c.6).
 *
 * <p>Data, not code: one attribute per line, "key | C name[, aliases] | type in master | type in
 * 4.2.2 (or absent) | description". Keys, names and types come from libpmix 4.2.2's dictionary and
 * the master headers (jdvm-pmix's test resources {@code wire/dict_422.json} and {@code
 * wire/attr_diff.txt}, pmix-wire.md §10–§11); the descriptions are jdvm's own. "varies" is a type
 * that depends on the use.
 */
final class WireupAttributes {
  private WireupAttributes() {}

  static final String TITLE = "Published data and logging";

  static final List<Attribute> ALL =
      AttributeTable.parse(
          """
          pmix.wait | PMIX_WAIT | INT | INT | Make a lookup wait until the keys (or this many of them) are published; Open MPI sends it as a BOOL.
          pmix.log.stderr | PMIX_LOG_STDERR | STRING | STRING | Log this text to the user's standard error.
          pmix.log.stdout | PMIX_LOG_STDOUT | STRING | STRING | Log this text to the user's standard output.
          pmix.log.syslog | PMIX_LOG_SYSLOG | STRING | STRING | Log this text to the system log.
          pmix.log.lsys | PMIX_LOG_LOCAL_SYSLOG | STRING | STRING | Log this text to the local system log.
          pmix.log.gsys | PMIX_LOG_GLOBAL_SYSLOG | STRING | STRING | Log this text to the system log of the system's master node.
          pmix.log.msg | PMIX_LOG_MSG | BYTE_OBJECT | BYTE_OBJECT | A message blob to log; Open MPI 4.1 sends its help text this way.
          pmix.log.source | PMIX_LOG_SOURCE | PROC | PROC | The process a log request comes from.
          pmix.log.tstmp | PMIX_LOG_TIMESTAMP | TIME | TIME | The time stamp of a log request.
          pmix.log.gtstmp | PMIX_LOG_GENERATE_TIMESTAMP | BOOL | BOOL | Stamp the log request with the time it is made.
          pmix.log.once | PMIX_LOG_ONCE | BOOL | BOOL | Log through the first channel that can, only.
          """);
}
