package org.jdvm.agent.link;

import java.security.SecureRandom;
import java.util.HexFormat;
import org.jdvm.host.identity.Credentials;

/**
 * The agent link's mutual proof (docs/protocol.md "Agent link"): each side sends a fresh nonce and
 * the other answers with an HMAC over it with the DVM secret, so neither the secret nor a reusable
 * proof ever crosses the network, and an agent never runs anything for a controller that cannot
 * prove it holds the secret.
 */
public final class Handshake {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final HexFormat HEX = HexFormat.of();

  /** How long a handshake may take before the other side is dropped. */
  public static final int TIMEOUT_MILLIS = 10_000;

  private Handshake() {}

  public static byte[] nonce() {
    byte[] n = new byte[32];
    RANDOM.nextBytes(n);
    return n;
  }

  /** The agent's proof: the controller's nonce, and who the agent says it is. */
  public static byte[] agentProof(Credentials c, byte[] controllerNonce, String node, String host) {
    return c.linkProof(agentContext(controllerNonce, node, host)).getBytes();
  }

  public static boolean isAgentProof(
      Credentials c, byte[] controllerNonce, String node, String host, byte[] proof) {
    return c.isLinkProof(agentContext(controllerNonce, node, host), new String(proof));
  }

  /** The controller's proof: the agent's nonce. */
  public static byte[] controllerProof(Credentials c, byte[] agentNonce) {
    return c.linkProof("controller:" + HEX.formatHex(agentNonce)).getBytes();
  }

  public static boolean isControllerProof(Credentials c, byte[] agentNonce, byte[] proof) {
    return c.isLinkProof("controller:" + HEX.formatHex(agentNonce), new String(proof));
  }

  private static String agentContext(byte[] nonce, String node, String host) {
    return "agent:" + HEX.formatHex(nonce) + ":" + node.length() + ":" + node + ":" + host;
  }
}
