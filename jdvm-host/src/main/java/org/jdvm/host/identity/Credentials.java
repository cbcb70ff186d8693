package org.jdvm.host.identity;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jdvm.pmix.JdvmProtocol;

/**
 * The DVM's secrets and the credentials derived from them (architecture.md §4).
 *
 * <p>One random secret per DVM, readable only by the DVM's user, authenticates TCP peers that are
 * not on this host's loopback. Every launched process receives a credential for its own name,
 * {@code HMAC(secret, "proc:" + nspace + "." + rank)}, in its environment: presenting it proves the
 * presenter was started by that process (it inherited the environment), so it may act for that
 * namespace and rank and for nothing else. Deriving credentials means there is no table to keep,
 * leak or lose. The scheduler credential is derived the same way and written to a file only the
 * DVM's user can read.
 */
public final class Credentials {
  private static final HexFormat HEX = HexFormat.of();
  private final byte[] secret;

  /**
   * An HMAC keyed with the secret, never used itself: each credential is computed by a clone of it
   * (a {@code Mac} is not thread-safe), which skips the provider look-up and the key set-up that
   * cost more than the HMAC of a short name, once per launched process.
   */
  private final Mac keyed;

  private Credentials(byte[] secret) {
    this.secret = secret;
    try {
      this.keyed = Mac.getInstance("HmacSHA256");
      keyed.init(new SecretKeySpec(secret, "HmacSHA256"));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }

  /** A fresh DVM secret. */
  public static Credentials generate() {
    byte[] s = new byte[32];
    new SecureRandom().nextBytes(s);
    return new Credentials(s);
  }

  /** The credentials of a DVM whose secret is this hex string. */
  public static Credentials fromSecretHex(String hex) {
    return new Credentials(HEX.parseHex(hex.trim()));
  }

  /** The secret as hex, for the DVM's private secret file. */
  public String secretHex() {
    return HEX.formatHex(secret);
  }

  /** The credential of one launched process. */
  public String procCredential(String nspace, int rank) {
    return mac("proc:" + nspace + "." + Integer.toUnsignedString(rank));
  }

  /** The credential that makes a connection the scheduler. */
  public String schedulerCredential() {
    return mac("scheduler");
  }

  /** Whether {@code presented} is the credential of that process; constant-time. */
  public boolean isProcCredential(String nspace, int rank, String presented) {
    return same(procCredential(nspace, rank), presented);
  }

  public boolean isSchedulerCredential(String presented) {
    return same(schedulerCredential(), presented);
  }

  /**
   * A node agent's or the controller's proof on the agent link (docs/protocol.md "Agent link"):
   * {@code HMAC(secret, "link:" + context)}, where the context holds the other side's nonce, so a
   * proof is good for one handshake only.
   */
  public String linkProof(String context) {
    return mac("link:" + context);
  }

  /** Whether {@code presented} is {@link #linkProof} of {@code context}; constant-time. */
  public boolean isLinkProof(String context, String presented) {
    return same(linkProof(context), presented);
  }

  /** Whether {@code presented} is the DVM secret itself; constant-time. */
  public boolean isSecret(String presented) {
    return same(secretHex(), presented);
  }

  /**
   * The DVM's answer to a client's challenge (docs/protocol.md "Who the DVM is"): keyed by the
   * secret, so only the DVM, and a user who can read its secret, can give it.
   */
  public byte[] proof(String nonce) {
    return hmac(secret, JdvmProtocol.PROOF_PREFIX + nonce);
  }

  /** The answer to a launched process's challenge, keyed by that process's own credential. */
  public byte[] procProof(String nspace, int rank, String nonce) {
    return hmac(
        procCredential(nspace, rank).getBytes(StandardCharsets.US_ASCII),
        JdvmProtocol.PROOF_PREFIX + nonce);
  }

  private static byte[] hmac(byte[] key, String what) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(what.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }

  private static boolean same(String expected, String presented) {
    return presented != null
        && MessageDigest.isEqual(
            expected.getBytes(StandardCharsets.US_ASCII),
            presented.getBytes(StandardCharsets.US_ASCII));
  }

  private String mac(String what) {
    Mac mac;
    try {
      mac = (Mac) keyed.clone();
    } catch (CloneNotSupportedException e) {
      throw new IllegalStateException("HmacSHA256 of the JDK can be cloned", e);
    }
    return HEX.formatHex(mac.doFinal(what.getBytes(StandardCharsets.UTF_8)));
  }
}
