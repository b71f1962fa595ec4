package io.weir.api.sink;

import io.weir.api.annotation.Internal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Names (of a job, a sink, a transactional id prefix) as parts of the ids a sink gives its
 * transactions in an external system, where two different names must never give the same part:
 * letters, digits and {@code -} stay as they are, every other character becomes {@code _} and the
 * two lowercase hex digits of each of its UTF-8 bytes ({@code .} gives {@code _2e}, {@code _} gives
 * {@code _5f}). So {@code orders.v1} and {@code orders_v1}, or {@code a b} and {@code a_b}, stay
 * apart, and the result needs no quoting and holds no separator. A part longer than the caller's
 * limit is cut and ends in {@code _h} and a hash of the whole name ({@code h} is no hex digit, so
 * no escaped name ends that way by chance).
 */
@Internal
public final class TransactionIdParts {
  private static final char[] HEX = "0123456789abcdef".toCharArray();
  private static final int HASH_CHARACTERS = 16;

  private TransactionIdParts() {}

  /** {@code name} escaped as the class says, at most {@code maxLength} characters. */
  public static String escaped(String name, int maxLength) {
    if (maxLength < HASH_CHARACTERS + 3) {
      throw new IllegalArgumentException("a part needs room for its hash: " + maxLength);
    }
    StringBuilder part = new StringBuilder(name.length());
    for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
      if (isKept(b)) {
        part.append((char) b);
      } else {
        part.append('_').append(HEX[(b >> 4) & 0xf]).append(HEX[b & 0xf]);
      }
    }
    if (part.length() <= maxLength) {
      return part.toString();
    }
    return part.substring(0, maxLength - HASH_CHARACTERS - 2) + "_h" + hash(name);
  }

  private static boolean isKept(byte b) {
    return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || b == '-';
  }

  private static String hash(String name) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
      StringBuilder hex = new StringBuilder(HASH_CHARACTERS);
      for (int index = 0; hex.length() < HASH_CHARACTERS; index++) {
        hex.append(HEX[(digest[index] >> 4) & 0xf]).append(HEX[digest[index] & 0xf]);
      }
      return hex.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
