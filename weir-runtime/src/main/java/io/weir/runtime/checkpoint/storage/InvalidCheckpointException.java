package io.weir.runtime.checkpoint.storage;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A checkpoint or savepoint that cannot be restored: its directory, metadata or state is missing,
 * truncated or corrupt. The message is one line naming the location and the reason.
 */
public final class InvalidCheckpointException extends IOException {
  private final String location;
  private final String reason;

  public InvalidCheckpointException(Path location, String reason) {
    this(String.valueOf(location), reason, null);
  }

  public InvalidCheckpointException(String location, String reason, Throwable cause) {
    super("invalid checkpoint " + location + ": " + reason, cause);
    this.location = location;
    this.reason = reason;
  }

  /** The checkpoint's directory (or "memory"). */
  public String location() {
    return location;
  }

  /** Why it cannot be restored, e.g. {@code _metadata truncated}. */
  public String reason() {
    return reason;
  }
}
