package io.weir.cluster.rpc;

import java.io.Serializable;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A job's jar as the cluster refers to it: the file name the user gave (for messages) and the
 * SHA-256 of its bytes (for storing and caching: the same bytes are the same jar).
 */
public record JobJar(String fileName, String sha256) implements Serializable {
  /** The jar of these bytes. */
  public static JobJar of(String fileName, byte[] bytes) {
    return new JobJar(fileName, sha256Of(bytes));
  }

  public static String sha256Of(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("Every Java runtime has SHA-256", e);
    }
  }
}
