package io.weir.api.source;

import io.weir.api.annotation.PublicEvolving;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Thrown by a source when the processing of one of its records failed in the source's task (the
 * source's own deserializer, a chained function, a key selector): names the record's position so
 * that the engine can see the same record fail the job again after a restart, and stop restarting
 * after the job's {@code failuresPerRecord} (a poison record). The position travels in the message,
 * which is what a failure report carries from a task manager to the job manager.
 */
@PublicEvolving
public class RecordFailureException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private static final int PREVIEW_BYTES = 32;
  private static final Pattern POSITION =
      Pattern.compile("the record of (\\S+) at offset (\\d+) \\(value [^)]*\\)");

  /**
   * @param partition where the record comes from, e.g. {@code orders-3}
   * @param offset its offset in {@code partition}
   * @param value its value, shown by its first bytes, or null
   */
  public RecordFailureException(String partition, long offset, byte[] value, Throwable cause) {
    super(
        "the record of "
            + partition
            + " at offset "
            + offset
            + " ("
            + preview(value)
            + ") failed: "
            + cause.getMessage(),
        cause);
  }

  /**
   * The position ({@code partition at offset N}, with the value's first bytes) of the failed record
   * named in {@code failure} or its causes, also when only their messages crossed a process.
   */
  public static Optional<String> positionIn(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t.getMessage() != null) {
        Matcher matcher = POSITION.matcher(t.getMessage());
        if (matcher.find()) {
          return Optional.of(matcher.group());
        }
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return Optional.empty();
  }

  /**
   * {@code value "abc"} or {@code value 120 bytes "first 32…"}; bytes outside ASCII as {@code
   * \xNN}.
   */
  static String preview(byte[] value) {
    if (value == null) {
      return "value null";
    }
    StringBuilder text = new StringBuilder();
    int shown = Math.min(value.length, PREVIEW_BYTES);
    for (int i = 0; i < shown; i++) {
      int b = value[i] & 0xFF;
      if (b >= 0x20 && b < 0x7F && b != '"' && b != '\\' && b != ')') {
        text.append((char) b);
      } else {
        text.append(String.format("\\x%02x", b));
      }
    }
    String bytes = value.length > PREVIEW_BYTES ? value.length + " bytes starting " : "";
    return "value " + bytes + "\"" + text + "\"";
  }
}
