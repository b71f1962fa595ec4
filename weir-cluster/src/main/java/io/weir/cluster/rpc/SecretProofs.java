package io.weir.cluster.rpc;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The HMAC-SHA256 proofs of the handshake: each side proves it knows the cluster's secret by a MAC
 * over both nonces and the role, labelled with its side so that one side's proof is never valid as
 * the other's. A cluster without a secret uses the empty one; then the proofs only check the
 * protocol, and the job manager binds to the loopback interface.
 */
final class SecretProofs {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final SecretKeySpec key;

  SecretProofs(String secret) {
    // Prefixed so that the empty secret is a valid HMAC key too.
    String keyText = "weir cluster secret:" + (secret == null ? "" : secret);
    this.key = new SecretKeySpec(keyText.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
  }

  static byte[] newNonce() {
    byte[] nonce = new byte[Handshake.NONCE_BYTES];
    RANDOM.nextBytes(nonce);
    return nonce;
  }

  byte[] clientProof(String role, byte[] clientNonce, byte[] serverNonce) {
    return mac("client", role, clientNonce, serverNonce);
  }

  byte[] serverProof(String role, byte[] clientNonce, byte[] serverNonce) {
    return mac("server", role, clientNonce, serverNonce);
  }

  /** Compares in constant time, so timing tells a guesser nothing. */
  static boolean matches(byte[] expected, byte[] actual) {
    return MessageDigest.isEqual(expected, actual);
  }

  private byte[] mac(String side, String role, byte[] clientNonce, byte[] serverNonce) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      mac.update(
          ("weir handshake v1 " + side + " " + role + "\n").getBytes(StandardCharsets.UTF_8));
      mac.update(clientNonce);
      mac.update(serverNonce);
      return mac.doFinal();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("Every Java runtime has HmacSHA256", e);
    }
  }
}
