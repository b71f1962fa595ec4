package io.weir.runtime.checkpoint.storage;

import java.io.IOException;
import java.io.StringReader;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Properties;

/**
 * Who holds the lease of a job's checkpoint directory: its process, host and start, and the epoch
 * of its acquisition. Kept as a few {@code name=value} lines that a person can read with {@code
 * cat}.
 *
 * @param epoch grows with every acquisition of the lease; written into each checkpoint's metadata
 */
public record LeaseHolder(long pid, String host, Instant since, long epoch) {

  /** This process, acquiring the lease now in {@code epoch}. */
  static LeaseHolder current(long epoch, Clock clock) {
    // Whole seconds: the line a refused runner prints is read by people.
    Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
    return new LeaseHolder(ProcessHandle.current().pid(), hostName(), now, epoch);
  }

  /** "pid 1234 on host h since 2026-12-06T03:12:00Z", for the line a second runner prints. */
  public String describe() {
    return "pid " + pid + " on host " + host + " since " + since;
  }

  byte[] toBytes() {
    return ("pid=" + pid + "\nhost=" + host + "\nsince=" + since + "\nepoch=" + epoch + "\n")
        .getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The holder {@code file} names.
   *
   * @throws IOException naming the file when it cannot be read or is not a holder record
   */
  static LeaseHolder read(Path file) throws IOException {
    Properties lines = new Properties();
    lines.load(new StringReader(Files.readString(file, StandardCharsets.UTF_8)));
    try {
      return new LeaseHolder(
          Long.parseLong(lines.getProperty("pid")),
          lines.getProperty("host", "?"),
          Instant.parse(lines.getProperty("since")),
          Long.parseLong(lines.getProperty("epoch")));
    } catch (NumberFormatException | NullPointerException | DateTimeParseException e) {
      throw new IOException(file + " is not a lease holder record: " + e.getMessage(), e);
    }
  }

  /**
   * The kernel's host name where it can be read as a file: asking the resolver may wait for a name
   * service, and this runs before every local job starts.
   */
  private static String hostName() {
    Path kernelHostName = Path.of("/proc/sys/kernel/hostname");
    try {
      if (Files.isReadable(kernelHostName)) {
        return Files.readString(kernelHostName, StandardCharsets.UTF_8).strip();
      }
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "unknown";
    }
  }
}
