package io.weir.nexmark.generator;

import java.util.Random;

/** Prices, strings and padding drawn from an event's random numbers. */
final class RandomValues {
  private RandomValues() {}

  /** A price in cents, log-uniform from 1 to 1,000,000 dollars. */
  static long price(Random random) {
    return Math.round(StrictMath.pow(10.0, random.nextDouble() * 6.0) * 100.0);
  }

  /** Lowercase letters and the odd space, 3 to {@code maxLength - 1} of them. */
  static String string(Random random, int maxLength) {
    return exactString(random, 3 + random.nextInt(Math.max(maxLength - 3, 1)));
  }

  /** Lowercase letters and the odd space, exactly {@code length} of them. */
  static String exactString(Random random, int length) {
    StringBuilder text = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      text.append(random.nextInt(13) == 0 ? ' ' : (char) ('a' + random.nextInt(26)));
    }
    return text.toString();
  }

  /** Lowercase letters only, 3 to {@code maxLength - 1} of them (for URL parts). */
  static String word(Random random, int maxLength) {
    int length = 3 + random.nextInt(Math.max(maxLength - 3, 1));
    StringBuilder text = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      text.append((char) ('a' + random.nextInt(26)));
    }
    return text.toString();
  }

  /**
   * Padding that brings an event of {@code currentSize} bytes to about {@code averageSize} on
   * average (within a fifth either way), or nothing when it is already that large.
   */
  static String extra(Random random, int currentSize, int averageSize) {
    if (currentSize > averageSize) {
      return "";
    }
    int desired = averageSize - currentSize;
    int delta = (int) Math.round(desired * 0.2);
    int size = desired - delta + (delta == 0 ? 0 : random.nextInt(2 * delta));
    return exactString(random, size);
  }
}
