package org.jdvm.endpoint.serve;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jdvm.endpoint.transport.Connection;
import org.jdvm.endpoint.transport.Peer;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.body.StatusReply;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.codec.WireException;
import org.jdvm.pmix.frame.Commands;
import org.jdvm.pmix.frame.ConnectRequest;

/**
 * Serves an admitted connection's messages one at a time (docs/protocol.md "How jdvm reads the
 * standard commands"): decodes the command, finds its {@link OperationTable} row and runs the
 * operation with an {@link Exchange}. A command without a row is answered {@code
 * PMIX_ERR_NOT_SUPPORTED}; a malformed body is answered with the decoder's status and the
 * connection goes on, unless the decoder says the stream itself is broken.
 *
 * <p>It is the transport's {@link Connection.Handler}: admission goes to {@link Admission}, and a
 * closed tool or scheduler connection that did not finalize is its namespace's departure
 * (decisions.md #11), reported once.
 */
public final class MessageServer implements Connection.Handler {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.pmix");

  /** What else must forget a closed connection (the delivering half). */
  public interface Forget {
    void closed(Connection c);
  }

  /** What the server is made of; the endpoint's face builds them. */
  public record Parts(
      OperationTable table,
      Admission admission,
      Upstream upstream,
      EndpointLimits limits,
      Departures departures,
      Forget forget) {}

  private final Parts parts;
  private final Map<Connection, Exchange.PeerContext> contexts = new ConcurrentHashMap<>();

  public MessageServer(Parts parts) {
    this.parts = parts;
  }

  @Override
  public Peer admit(Connection c, ConnectRequest request) throws IOException {
    return registered(c, parts.admission().admit(c, request));
  }

  /**
   * Admits a peer a node agent vouches for on a {@linkplain Connection#carried carried} connection,
   * as {@link #admit} admits one from its handshake.
   *
   * @return the peer, or {@code null} when refused (the caller closes the connection)
   */
  public Peer admitVouched(Connection c, Admission.Vouched vouched) {
    return registered(c, parts.admission().admitVouched(c, vouched));
  }

  private Peer registered(Connection c, Peer peer) {
    if (peer != null && c.isClosed()) {
      // Lost while the DVM registered it: it registered, so it departs.
      parts.departures().depart(c, true);
      parts.departures().forget(c);
      return null;
    }
    return peer;
  }

  /**
   * Serves one message, then waits until the connection's next frame may be read ({@link Pacing}):
   * fewer of its requests in flight than the bound and a token of its rate. A reader that did not
   * have to wait yields its carrier, so that a peer whose frames are always there (and whose reader
   * never parks on its socket) takes turns with every other connection instead of holding a carrier
   * of the few there are.
   */
  @Override
  public void message(Connection c, int tag, byte[] body) {
    Exchange.PeerContext context = context(c);
    try {
      serve(c, tag, body, context);
    } finally {
      if (context.pacing().beforeNextFrame()) {
        Thread.yield();
      }
    }
  }

  private Exchange.PeerContext context(Connection c) {
    return contexts.computeIfAbsent(
        c, k -> new Exchange.PeerContext(parts.upstream(), parts.limits()));
  }

  private void serve(Connection c, int tag, byte[] body, Exchange.PeerContext context) {
    Unpacker in = new Unpacker(c.peer().format(), body);
    OperationTable.Row row = null;
    int command = -1;
    try {
      command = in.unpackCommand();
      row = parts.table().row(command);
      if (row == null) {
        c.send(tag, new StatusReply(PmixStatus.ERR_NOT_SUPPORTED).write(c.peer().format()));
        return;
      }
      row.operation().serve(new Exchange(c, tag, row, in, context));
    } catch (WireException e) {
      if (e.poisonsConnection()) {
        c.close("broken message: " + e.getMessage());
      } else {
        refused(c, command, "malformed=" + e.getMessage());
        fail(c, tag, row, e.status());
      }
    } catch (BadRequest e) {
      refused(c, command, "refused=\"" + e.getMessage() + "\"");
      fail(c, tag, row, e.status());
    }
  }

  private static void fail(Connection c, int tag, OperationTable.Row row, int status) {
    byte[] body =
        row == null
            ? new StatusReply(status).write(c.peer().format())
            : row.errorShape().error(c.packer(), status);
    if (body != null) {
      c.send(tag, body);
    }
  }

  private static void refused(Connection c, int command, String what) {
    LOG.log(
        System.Logger.Level.INFO,
        "peer=" + c.index() + " cmd=" + Commands.name(command) + " " + what);
  }

  @Override
  public void closed(Connection c) {
    parts.forget().closed(c);
    parts.departures().depart(c, true);
    parts.departures().forget(c);
    contexts.remove(c);
  }
}
