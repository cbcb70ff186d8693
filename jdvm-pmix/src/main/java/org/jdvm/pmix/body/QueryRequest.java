package org.jdvm.pmix.body;

import java.util.List;
import org.jdvm.pmix.Query;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;

/**
 * QUERY ({@code PMIx_Query_info}): {@code CMD | SIZE n | QUERY×n}. Answered with an {@link
 * InfosReply}, one info per key answered.
 *
 * @param queries the queries, each keys and qualifiers
 */
public record QueryRequest(List<Query> queries) {
  public static final int COMMAND = Commands.QUERY_CMD;

  public QueryRequest {
    queries = List.copyOf(queries);
  }

  /** The whole body, its command first. */
  public byte[] write(WireFormat format) {
    return new Packer(format).packCommand(COMMAND).packQueries(queries).toByteArray();
  }

  /** The body after its command; bytes after the queries are left unread. */
  public static QueryRequest read(Unpacker in) {
    return new QueryRequest(in.unpackQueries());
  }
}
