package org.jdvm.pmix.dict;

import java.util.List;

/**
 * Forwarding of standard input, output and error.
 *
 * <p>Data, not code: one attribute per line, "key | C name[, aliases] | type in master | type in
 * 4.2.2 (or absent) | description". Keys, names and types come from libpmix 4.2.2's dictionary and
 * the master headers (jdvm-pmix's test resources {@code wire/dict_422.json} and {@code
 * wire/attr_diff.txt}, pmix-wire.md §10–§11); the descriptions are jdvm's own. "varies" is a type
 * that depends on the use.
 */
final class IofAttributes {
  private IofAttributes() {}

  static final String TITLE = "I/O forwarding";

  static final List<Attribute> ALL =
      AttributeTable.parse(
          """
          pmix.iof.csize | PMIX_IOF_CACHE_SIZE | UINT32 | UINT32 | How many output messages to keep for a channel nobody has registered for yet.
          pmix.iof.old | PMIX_IOF_DROP_OLDEST | BOOL | BOOL | When the cache is full, drop its oldest messages.
          pmix.iof.new | PMIX_IOF_DROP_NEWEST | BOOL | BOOL | When the cache is full, drop the new messages.
          pmix.iof.bsize | PMIX_IOF_BUFFERING_SIZE | UINT32 | UINT32 | Deliver output in chunks of at least this many bytes.
          pmix.iof.btime | PMIX_IOF_BUFFERING_TIME | UINT32 | UINT32 | Deliver buffered output at least this often, in seconds.
          pmix.iof.cmp | PMIX_IOF_COMPLETE | BOOL | BOOL | The forwarded stream has ended.
          pmix.iof.stdin | PMIX_IOF_PUSH_STDIN | BOOL | BOOL | The caller will push data to the processes' standard input.
          pmix.iof.tag | PMIX_IOF_TAG_OUTPUT | BOOL | BOOL | Tag each line of output with the process that wrote it.
          pmix.iof.tagdet | PMIX_IOF_TAG_DETAILED_OUTPUT | BOOL | BOOL | Tag each line with the process, its host and its pid.
          pmix.iof.tagfull | PMIX_IOF_TAG_FULLNAME_OUTPUT | BOOL | BOOL | Tag each line with the full namespace of the process.
          pmix.iof.rank | PMIX_IOF_RANK_OUTPUT | BOOL | BOOL | Tag each line with the rank of the process.
          pmix.iof.ts | PMIX_IOF_TIMESTAMP_OUTPUT | BOOL | BOOL | Put a time stamp on each line of output.
          pmix.iof.mrg | PMIX_IOF_MERGE_STDERR_STDOUT | BOOL | BOOL | Deliver standard error with standard output: one stream, in the order it was written.
          pmix.mergeerrout | PMIX_MERGE_STDERR_STDOUT | BOOL | BOOL | The older name of PMIX_IOF_MERGE_STDERR_STDOUT.
          pmix.iof.xml | PMIX_IOF_XML_OUTPUT | BOOL | BOOL | Format output as XML.
          pmix.iof.file | PMIX_IOF_OUTPUT_TO_FILE | STRING | STRING | Write output to files with this name prefix.
          pmix.iof.fpt | PMIX_IOF_FILE_PATTERN | BOOL | BOOL | The output file name is a pattern to expand per process.
          pmix.iof.dir | PMIX_IOF_OUTPUT_TO_DIRECTORY | STRING | STRING | Write output to files in this directory.
          pmix.iof.fonly | PMIX_IOF_FILE_ONLY | BOOL | BOOL | Write output to the files only, not to the terminal.
          pmix.iof.cpy | PMIX_IOF_COPY | BOOL | BOOL | Deliver a copy of the output to the requester as well.
          pmix.iof.redir | PMIX_IOF_REDIRECT | BOOL | BOOL | Redirect the output away from its current recipient.
          pmix.iof.local | PMIX_IOF_LOCAL_OUTPUT | BOOL | BOOL | Also write the output locally.
          pmix.iof.raw | PMIX_IOF_OUTPUT_RAW | BOOL | BOOL | Deliver output as it comes, without buffering into lines.
          pmix.iof.stop | PMIX_IOF_STOP | BOOL | BOOL | Stop forwarding the given channels.
          pmix.iof.inhrt | PMIX_IOF_INHERIT | BOOL | absent | A spawned job inherits its parent's output forwarding.
          """);
}
