package org.jdvm.client;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.json.Json;
import org.jdvm.pmix.json.JsonException;

/**
 * How to reach a DVM (docs/protocol.md "Endpoints and the contact file"): its PMIx URI, its
 * loopback TCP address, its Unix socket if it has one, and the directory holding its contact file
 * (where the scheduler credential and the secret are).
 *
 * <p>{@link #discover} looks, in this order, at an explicit contact file or URI, then the
 * environment variable {@code JDVM_URI} (a contact file or a URI), then {@code <dir>/dvm.json}
 * (default {@code ~/.jdvm}); a process jdvm launched finally falls back to {@code
 * PMIX_SERVER_URI41}. A tool or scheduler uses the DVM's Unix socket when it has one, else loopback
 * TCP; a launched process uses loopback TCP ({@link #unixDial}).
 *
 * <pre>{@code
 * Contact dvm = Contact.discover(null, null);              // JDVM_URI or ~/.jdvm/dvm.json
 * Contact dvm = Contact.discover("/tmp/d/dvm.json", null); // an explicit contact file
 * Contact dvm = Contact.parse("jdvm-1@0.0;tcp4://127.0.0.1:40213");
 * }</pre>
 *
 * @param name the DVM's name, or {@code null} when only a URI was given
 * @param uri the PMIx server URI, {@code <nspace>.<rank>;tcp4://<ip>:<port>}
 * @param tcp the loopback TCP address
 * @param unixSocket the Unix socket, or {@code null}
 * @param dir the DVM's directory, or {@code null} when only a URI was given
 * @param pid the DVM's process id, or {@code null} when only a URI was given
 */
public record Contact(
    String name, String uri, InetSocketAddress tcp, Path unixSocket, Path dir, Long pid) {

  /** The contact file's name in a DVM's directory. */
  public static final String CONTACT_FILE = "dvm.json";

  /**
   * Whether a client dials the Unix socket: a tool or scheduler ({@code tool}) does when the DVM
   * has one, or when there is no loopback address. The socket lies in the DVM's directory, which
   * only its user may enter, so the kernel's {@code SO_PEERCRED} and the directory vouch for both
   * ends, and the client skips reading the loopback socket table ({@code /proc/net/tcp}) that a TCP
   * contact must be checked against: several milliseconds of a fresh {@code jdvm run}. A launched
   * process stays on TCP, where the socket table names which process of the job it is.
   */
  boolean unixDial(boolean tool) {
    if (unixSocket == null || !Files.exists(unixSocket)) {
      return false;
    }
    boolean loopback = tcp.getAddress() != null && tcp.getAddress().isLoopbackAddress();
    return tool || !loopback;
  }

  /** {@code ~/.jdvm}. */
  public static Path defaultDir() {
    return Path.of(System.getProperty("user.home"), ".jdvm");
  }

  /**
   * Finds the DVM.
   *
   * @param explicit a contact file or PMIx URI given on the command line, or {@code null}
   * @param dir the DVM directory to look in last, or {@code null} for {@code ~/.jdvm}
   * @throws PmixException {@code PMIX_ERR_UNREACH} when no DVM can be found this way
   */
  public static Contact discover(String explicit, Path dir) throws PmixException {
    if (explicit != null && !explicit.isEmpty()) {
      return parse(explicit);
    }
    String env = System.getenv("JDVM_URI");
    if (env != null && !env.isEmpty()) {
      return parse(env);
    }
    Path file = (dir == null ? defaultDir() : dir).resolve(CONTACT_FILE);
    if (Files.isRegularFile(file)) {
      return fromFile(file);
    }
    String pmixUri = System.getenv("PMIX_SERVER_URI41");
    if (pmixUri != null && !pmixUri.isEmpty()) {
      return parse(pmixUri);
    }
    throw new PmixException(
        PmixStatus.ERR_UNREACH, "no DVM found: no --dvm, no JDVM_URI and no " + file);
  }

  /** A contact file's path, or a PMIx URI. */
  public static Contact parse(String fileOrUri) throws PmixException {
    if (fileOrUri.contains("://")) {
      return fromUri(fileOrUri);
    }
    return fromFile(Path.of(fileOrUri));
  }

  /** The contact in a DVM's contact file. */
  public static Contact fromFile(Path file) throws PmixException {
    Object tree;
    try {
      tree = Json.parse(Files.readString(file));
    } catch (IOException | JsonException e) {
      throw new PmixException(PmixStatus.ERR_UNREACH, "cannot read " + file + ": " + e, e);
    }
    if (!(tree instanceof Map<?, ?> m) || !(m.get("uri") instanceof String uri)) {
      throw new PmixException(PmixStatus.ERR_UNREACH, file + " is not a jdvm contact file");
    }
    Contact fromUri = fromUri(uri);
    InetSocketAddress tcp = fromUri.tcp;
    if (m.get("tcp") instanceof String t) {
      tcp = address(t, uri);
    }
    Path unix = m.get("unix") instanceof String u && !u.isEmpty() ? Path.of(u) : null;
    String name = m.get("name") instanceof String n ? n : null;
    Long pid = m.get("pid") instanceof Number p ? p.longValue() : null;
    return new Contact(name, uri, tcp, unix, file.toAbsolutePath().getParent(), pid);
  }

  /** A PMIx URI: {@code <nspace>.<rank>;tcp4://<ip>:<port>} (or {@code tcp6://[<ip>]:<port>}). */
  public static Contact fromUri(String uri) throws PmixException {
    int semi = uri.indexOf(';');
    int scheme = uri.indexOf("://", semi + 1);
    if (semi < 0 || scheme < 0) {
      throw new PmixException(PmixStatus.ERR_BAD_PARAM, "not a PMIx URI: " + uri);
    }
    return new Contact(null, uri, address(uri.substring(scheme + 3), uri), null, null, null);
  }

  private static InetSocketAddress address(String hostPort, String uri) throws PmixException {
    int colon = hostPort.lastIndexOf(':');
    if (colon < 0) {
      throw new PmixException(PmixStatus.ERR_BAD_PARAM, "no port in " + uri);
    }
    String host = hostPort.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    try {
      return new InetSocketAddress(host, Integer.parseInt(hostPort.substring(colon + 1)));
    } catch (IllegalArgumentException e) {
      throw new PmixException(PmixStatus.ERR_BAD_PARAM, "bad address in " + uri, e);
    }
  }

  /** A file of the DVM's directory, or {@code null} when the directory is unknown. */
  Path file(String fileName) {
    return dir == null ? null : dir.resolve(fileName);
  }
}
