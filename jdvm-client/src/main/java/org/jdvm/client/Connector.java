package org.jdvm.client;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.frame.ConnectFlag;

/**
 * How to connect: which DVM ({@link Contact#discover} unless told), as what ({@link Role}: from the
 * environment unless told), in which wire format, with which output handler.
 *
 * <pre>{@code
 * JdvmClient tool = JdvmClient.connector().dvm("/tmp/d/dvm.json").connect();
 * JdvmClient scheduler = JdvmClient.connector().role(Role.SCHEDULER).connect(); // <dir>/scheduler.cred
 * JdvmClient named = JdvmClient.connector().namespace("nightly").connect();
 * }</pre>
 */
public final class Connector {
  private Contact contact;
  private String dvm;
  private Path dir;
  private Role role;
  private String namespace;
  private Proc process;
  private String credential;
  private String schedulerCredential;
  private WireFormat format = WireFormat.V41;
  private OutputHandler output = OutputHandler.STDIO;

  Connector() {}

  /** This DVM. */
  public Connector contact(Contact c) {
    this.contact = c;
    return this;
  }

  /** A contact file or PMIx URI, as {@code --dvm} gives it (see {@link Contact#discover}). */
  public Connector dvm(String fileOrUri) {
    this.dvm = fileOrUri;
    return this;
  }

  /** The DVM directory to look for {@code dvm.json} in, as {@code --dir} gives it. */
  public Connector dir(Path dir) {
    this.dir = dir;
    return this;
  }

  /** Connect as a tool, the scheduler, or the launched process of the environment. */
  public Connector role(Role r) {
    this.role = r;
    return this;
  }

  /** A tool that names its own namespace (which must be unused) instead of getting one. */
  public Connector namespace(String nspace) {
    this.namespace = nspace;
    return this;
  }

  /** Act as this launched process, proved by its credential (instead of the environment's). */
  public Connector asProcess(Proc proc, String processCredential) {
    this.role = Role.APPLICATION;
    this.process = proc;
    this.credential = processCredential;
    return this;
  }

  /** The scheduler credential (default: {@code <dir>/scheduler.cred} of the contact). */
  public Connector schedulerCredential(String c) {
    this.role = Role.SCHEDULER;
    this.schedulerCredential = c;
    return this;
  }

  /** The wire format to announce: {@link WireFormat#V41} (default) or {@link WireFormat#V61}. */
  public Connector wire(WireFormat f) {
    this.format = Objects.requireNonNull(f, "format");
    return this;
  }

  /** Where forwarded output goes (default {@link OutputHandler#STDIO}). */
  public Connector output(OutputHandler handler) {
    this.output = Objects.requireNonNull(handler, "handler");
    return this;
  }

  public JdvmClient connect() throws PmixException {
    Contact c = contact != null ? contact : Contact.discover(dvm, dir);
    Role r = role != null ? role : fromEnvironment();
    ContactCheck.verify(c, c.unixDial(r != Role.APPLICATION));
    List<Info> blob = new ArrayList<>(2);
    Wire w;
    if (r == Role.APPLICATION) {
      Proc p = process != null ? process : environmentProc();
      String cred = credential != null ? credential : System.getenv("JDVM_CREDENTIAL");
      if (cred != null) {
        blob.add(Info.of(JdvmProtocol.CREDENTIAL, Value.string(cred)));
      }
      // Challenge the server when the DVM was found through a contact file (whose port another
      // user could have taken); a process that only has its server's URI talks to whoever
      // launched it, which need not be jdvm (libpmix's own server, say).
      byte[] key =
          cred == null || c.dir() == null ? null : cred.getBytes(StandardCharsets.US_ASCII);
      w = Wire.open(c, ConnectFlag.SIMPLE_CLIENT, p, blob, format, key);
    } else {
      if (r == Role.SCHEDULER) {
        String cred =
            schedulerCredential != null ? schedulerCredential : fileOf(c, "scheduler.cred");
        if (cred == null) {
          throw new PmixException(PmixStatus.ERR_NO_PERMISSIONS, "no scheduler credential");
        }
        blob.add(Info.of(JdvmProtocol.SCHEDULER_CREDENTIAL, Value.string(cred)));
      }
      addSecret(c, blob);
      boolean given = namespace != null;
      w =
          Wire.open(
              c,
              given ? ConnectFlag.TOOL_GIVEN_ID : ConnectFlag.TOOL_NEEDS_ID,
              given ? new Proc(namespace, 0) : null,
              blob,
              format,
              secretKey(c));
    }
    return JdvmClient.open(w, r, c, output);
  }

  private static Role fromEnvironment() {
    return System.getenv("PMIX_NAMESPACE") != null
            && System.getenv("PMIX_RANK") != null
            && System.getenv("JDVM_CREDENTIAL") != null
        ? Role.APPLICATION
        : Role.TOOL;
  }

  private static Proc environmentProc() throws PmixException {
    String ns = System.getenv("PMIX_NAMESPACE");
    String rank = System.getenv("PMIX_RANK");
    if (ns == null || rank == null) {
      throw new PmixException(PmixStatus.ERR_BAD_PARAM, "PMIX_NAMESPACE or PMIX_RANK not set");
    }
    try {
      return new Proc(ns, Integer.parseUnsignedInt(rank));
    } catch (NumberFormatException e) {
      throw new PmixException(PmixStatus.ERR_BAD_PARAM, "PMIX_RANK=" + rank, e);
    }
  }

  /** The DVM secret, for a TCP peer that is not on the DVM's loopback. */
  private static void addSecret(Contact c, List<Info> blob) {
    InetSocketAddress tcp = c.tcp();
    boolean local =
        c.unixSocket() != null && Files.exists(c.unixSocket())
            || tcp.getAddress() != null && tcp.getAddress().isLoopbackAddress();
    String secret = local ? null : fileOf(c, "secret");
    if (secret != null) {
      blob.add(Info.of(JdvmProtocol.SECRET, Value.string(secret)));
    }
  }

  /**
   * The key the DVM must prove it holds before anything more is sent (the DVM secret, from the
   * contact's directory), or {@code null} when the contact names no directory or it cannot be read.
   */
  private static byte[] secretKey(Contact c) {
    String hex = fileOf(c, "secret");
    try {
      return hex == null || hex.isEmpty() ? null : HexFormat.of().parseHex(hex);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static String fileOf(Contact c, String name) {
    Path f = c.file(name);
    try {
      return f != null && Files.isReadable(f) ? Files.readString(f).trim() : null;
    } catch (IOException e) {
      return null;
    }
  }
}
