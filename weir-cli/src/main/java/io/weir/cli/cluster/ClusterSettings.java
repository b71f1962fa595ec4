package io.weir.cli.cluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.weir.cli.error.UserError;
import io.weir.cluster.rpc.ClusterTls;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The cluster's settings from {@code conf/weir.yaml}. Keys may be written flat or nested, as in
 * Flink's configuration file; both of these set the same key. Flags override them.
 *
 * <pre>
 * jobmanager.port: 6123        jobmanager:
 *                                port: 6123
 * </pre>
 *
 * Known keys: {@code jobmanager.host}, {@code jobmanager.port}, {@code cluster.secret}, {@code
 * taskmanager.secret}, {@code dashboard.token}, {@code cluster.tls} ({@code off} accepts plaintext
 * off loopback), {@code cluster.tls.keystore}, {@code cluster.tls.password}, {@code
 * taskmanager.slots}, {@code heartbeat.timeout.ms}, {@code checkpoints.dir}, {@code
 * cluster.state.dir}, {@code ha.url}, {@code ha.session.timeout.ms}. An unknown key is an error
 * rather than silently ignored, because a misspelt {@code cluster.secret} would otherwise leave a
 * cluster open.
 */
public final class ClusterSettings {
  public static final Path DEFAULT_FILE = Path.of("conf", "weir.yaml");
  private static final Set<String> KEYS =
      new TreeSet<>(
          Set.of(
              "jobmanager.host",
              "jobmanager.port",
              "cluster.secret",
              "taskmanager.secret",
              "dashboard.token",
              "cluster.tls",
              "cluster.tls.keystore",
              "cluster.tls.password",
              "taskmanager.slots",
              "heartbeat.timeout.ms",
              "checkpoints.dir",
              "cluster.state.dir",
              "ha.url",
              "ha.session.timeout.ms"));

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
    JsonNode root;
    try {
      // Made here, not in a static field: every 'weir run' reads the settings (is a cluster
      // running?), mostly without a file, and the mapper's first construction (Jackson's and the
      // YAML parser's classes, the locale data of its date format) took 60-80 ms of that.
      root = new ObjectMapper(new YAMLFactory()).readTree(path.toFile());
    } catch (JsonProcessingException e) {
      throw new UserError(path + " is not valid YAML: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new UserError("Cannot read the cluster configuration " + path + ": " + e.getMessage());
    }
    if (root != null && !root.isMissingNode() && !root.isNull()) {
      if (!root.isObject()) {
        throw new UserError(path + " must hold 'key: value' settings, one of " + KEYS);
      }
      flatten(path, "", root, values);
    }
    return new ClusterSettings(values);
  }

  private static void flatten(Path path, String prefix, JsonNode node, Map<String, String> values) {
    Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> field = fields.next();
      String key = prefix + field.getKey();
      JsonNode value = field.getValue();
      if (value.isObject()) {
        flatten(path, key + ".", value, values);
      } else if (!KEYS.contains(key)) {
        throw new UserError(path + ": unknown setting '" + key + "', expected one of " + KEYS);
      } else if (!value.isValueNode() || value.isNull()) {
        throw new UserError(path + ": " + key + " needs a single value");
      } else {
        values.put(key, value.asText());
      }
    }
  }

  /**
   * TLS with the key store of {@code cluster.tls.keystore} (made by {@code weir cluster cert}), or
   * plaintext when it is not set (loopback only, unless {@code cluster.tls: off} accepts it on any
   * address). The password is a setting, not a flag, so that it does not show in the process list.
   */
  public ClusterTls tls() {
    String keyStore = values.get("cluster.tls.keystore");
    String mode = values.get("cluster.tls");
    // YAML reads an unquoted off as the boolean false.
    if (mode != null && !mode.equals("off") && !mode.equals("false")) {
      throw new UserError(
          "cluster.tls: '" + mode + "' is not a mode; give off (or set cluster.tls.keystore)");
    }
    if (keyStore == null) {
      return mode == null ? ClusterTls.plaintext() : ClusterTls.plaintextByChoice();
    }
    if (mode != null) {
      throw new UserError("cluster.tls: off contradicts cluster.tls.keystore; remove one");
    }
    String password = values.get("cluster.tls.password");
    if (password == null) {
      throw new UserError("cluster.tls.keystore is set but cluster.tls.password is not");
    }
    try {
      return ClusterTls.fromKeyStore(Path.of(keyStore), password);
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage(), e);
    }
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
