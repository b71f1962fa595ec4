package io.weir.cli.cluster;

import io.weir.cli.UserError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The cluster's settings from {@code conf/weir.yaml}: flat {@code key: value} lines (a subset of
 * YAML, so the file stays readable by YAML tools), {@code #} comments. Flags override them.
 *
 * <pre>
 * jobmanager.host: 127.0.0.1
 * jobmanager.port: 6123
 * cluster.secret: change-me
 * taskmanager.slots: 2
 * heartbeat.timeout.ms: 5000
 * checkpoints.dir: /var/weir/checkpoints
 * </pre>
 */
public final class ClusterSettings {
  public static final Path DEFAULT_FILE = Path.of("conf", "weir.yaml");
  private static final Set<String> KEYS =
      Set.of(
          "jobmanager.host",
          "jobmanager.port",
          "cluster.secret",
          "taskmanager.slots",
          "heartbeat.timeout.ms",
          "checkpoints.dir",
          "cluster.state.dir");

  private final Map<String, String> values;

  private ClusterSettings(Map<String, String> values) {
    this.values = values;
  }

  /** Reads the file; a missing default file means no settings, a missing given one is an error. */
  public static ClusterSettings load(Path file) {
    Path path = file == null ? DEFAULT_FILE : file;
    Map<String, String> values = new LinkedHashMap<>();
    if (!Files.exists(path)) {
      if (file != null) {
        throw new UserError("Cannot read the cluster configuration " + path);
      }
      return new ClusterSettings(values);
    }
    try {
      int number = 0;
      for (String line : Files.readAllLines(path)) {
        number++;
        String content = line.strip();
        if (content.isEmpty() || content.startsWith("#")) {
          continue;
        }
        int colon = content.indexOf(':');
        String key = colon < 0 ? content : content.substring(0, colon).strip();
        if (colon < 0 || !KEYS.contains(key)) {
          throw new UserError(
              path + " line " + number + ": expected one of " + KEYS + " as 'key: value'");
        }
        values.put(key, valueOf(content.substring(colon + 1).strip()));
      }
    } catch (IOException e) {
      throw new UserError("Cannot read the cluster configuration " + path + ": " + e.getMessage());
    }
    return new ClusterSettings(values);
  }

  /** The value without a trailing {@code # comment}, unquoted. */
  private static String valueOf(String text) {
    boolean quoted = text.startsWith("\"") || text.startsWith("'");
    int comment = text.indexOf(" #");
    return unquote(!quoted && comment >= 0 ? text.substring(0, comment).strip() : text);
  }

  private static String unquote(String value) {
    if (value.length() >= 2
        && (value.startsWith("\"") && value.endsWith("\"")
            || value.startsWith("'") && value.endsWith("'"))) {
      return value.substring(1, value.length() - 1);
    }
    return value;
  }

  public String get(String key, String fallback) {
    return values.getOrDefault(key, fallback);
  }

  public int getInt(String key, int fallback) {
    String value = values.get(key);
    try {
      return value == null ? fallback : Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new UserError(key + " must be a number, not '" + value + "'");
    }
  }
}
