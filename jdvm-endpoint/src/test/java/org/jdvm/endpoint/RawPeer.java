package org.jdvm.endpoint;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.function.Consumer;
import org.jdvm.pmix.BufferType;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.ClientConnectReply;
import org.jdvm.pmix.frame.ConnectFlag;
import org.jdvm.pmix.frame.ConnectRequest;
import org.jdvm.pmix.frame.FrameHeader;
import org.jdvm.pmix.frame.NativeCredential;
import org.jdvm.pmix.frame.ToolConnectReply;

/**
 * A PMIx peer built from the codec alone, over loopback TCP with a read timeout: it sends exactly
 * the bytes a test wants (malformed ones included) and reads frames one by one, so a test sees the
 * server's replies, events and output as they are on the wire.
 */
final class RawPeer implements AutoCloseable {
  /** One message from the server. */
  record Frame(int tag, byte[] bytes, WireFormat format) {
    Unpacker body() {
      return new Unpacker(format, bytes);
    }
  }

  private final Socket socket;
  private final DataInputStream in;
  private final OutputStream out;
  final WireFormat format;
  private Proc self;

  Proc self() {
    return self;
  }

  private int nextTag = 101;

  private RawPeer(Socket socket, WireFormat format) throws IOException {
    this.socket = socket;
    this.in = new DataInputStream(socket.getInputStream());
    this.out = socket.getOutputStream();
    this.format = format;
  }

  static RawPeer open(InetSocketAddress server, WireFormat format) throws IOException {
    Socket s = new Socket();
    s.connect(server, 5000);
    s.setSoTimeout(10_000);
    s.setTcpNoDelay(true);
    return new RawPeer(s, format);
  }

  /** Connects as a tool that asks for an identity; the reply names it. */
  static RawPeer tool(InetSocketAddress server) throws IOException {
    return tool(server, WireFormat.V41);
  }

  /** A tool that speaks {@code format}. */
  static RawPeer tool(InetSocketAddress server, WireFormat format) throws IOException {
    RawPeer p = open(server, format);
    p.writeRaw(connect(ConnectFlag.TOOL_NEEDS_ID, null, List.of(), p.format).encode());
    ToolConnectReply reply = ToolConnectReply.decode(p.readRaw(4 + 260 + 260 + 4), true);
    p.self = reply.assigned();
    return p;
  }

  /** Connects as a launched process; returns null if the server refused (closed the socket). */
  static RawPeer client(InetSocketAddress server, Proc proc, List<Info> blob) throws IOException {
    return client(server, proc, blob, WireFormat.V41);
  }

  /** A launched process that speaks {@code format}; null if the server refused it. */
  static RawPeer client(InetSocketAddress server, Proc proc, List<Info> blob, WireFormat format)
      throws IOException {
    RawPeer p = open(server, format);
    p.writeRaw(connect(ConnectFlag.SIMPLE_CLIENT, proc, blob, p.format).encode());
    try {
      ClientConnectReply reply = ClientConnectReply.decode(p.readRaw(8));
      p.self = reply.isAccepted() ? proc : null;
      return p;
    } catch (EOFException e) {
      p.close();
      return null;
    }
  }

  static ConnectRequest connect(ConnectFlag flag, Proc proc, List<Info> blob, WireFormat format) {
    boolean ids = flag.carriesUidGid();
    return new ConnectRequest(
        ConnectRequest.PSEC_NATIVE,
        new NativeCredential(0, 0).encode(),
        flag,
        ids ? 0 : ConnectRequest.ABSENT,
        ids ? 0 : ConnectRequest.ABSENT,
        flag.carriesProc() ? proc : null,
        "4.2.2rc2",
        format.component().wireName(),
        format.bufferType() == null ? BufferType.NON_DESCRIBED : format.bufferType(),
        ConnectRequest.GDS_HASH,
        blob,
        true);
  }

  void writeRaw(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  byte[] readRaw(int n) throws IOException {
    byte[] b = new byte[n];
    in.readFully(b);
    return b;
  }

  /** Sends a request built by {@code body} (which packs after the command) on a fresh tag. */
  int request(int command, Consumer<Packer> body) throws IOException {
    Packer p = new Packer(format).packCommand(command);
    body.accept(p);
    return send(p.toByteArray());
  }

  int send(byte[] body) throws IOException {
    int tag = nextTag++;
    byte[] message = new byte[FrameHeader.BYTES + body.length];
    FrameHeader.of(0, tag, body.length).encode(message, 0);
    System.arraycopy(body, 0, message, FrameHeader.BYTES, body.length);
    writeRaw(message);
    return tag;
  }

  /** The next frame from the server. */
  Frame read() throws IOException {
    FrameHeader h = FrameHeader.decode(readRaw(FrameHeader.BYTES), 0);
    return new Frame(h.tag(), readRaw(h.nbytes()), format);
  }

  /** The next frame on this tag; frames on other tags (events, output) are skipped. */
  Frame reply(int tag) throws IOException {
    while (true) {
      Frame f = read();
      if (f.tag() == tag) {
        return f;
      }
    }
  }

  /** Whether the server closed the connection (reading ends), within the read timeout. */
  boolean closedByServer() throws IOException {
    try {
      while (true) {
        read();
      }
    } catch (EOFException e) {
      return true;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return true;
    }
  }

  static byte[] bytes(ByteObject b) {
    return b.toByteArray();
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
