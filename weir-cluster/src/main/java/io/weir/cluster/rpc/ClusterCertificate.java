package io.weir.cluster.rpc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Makes the cluster's self-signed key pair with the JDK's own {@code keytool}: an EC P-256 key and
 * a certificate for ten years whose subject alternative names are the given hosts (plus localhost
 * and 127.0.0.1), in a PKCS#12 key store readable by {@link ClusterTls#fromKeyStore}.
 */
public final class ClusterCertificate {
  private static final long KEYTOOL_TIMEOUT_SECONDS = 60;

  private ClusterCertificate() {}

  /**
   * Writes the key store to {@code keyStore}, which must not exist yet.
   *
   * @throws IllegalArgumentException naming the file when it exists or keytool fails
   */
  public static void create(Path keyStore, String password, List<String> hosts)
      throws IOException, InterruptedException {
    if (Files.exists(keyStore)) {
      throw new IllegalArgumentException("The key store " + keyStore + " exists already");
    }
    if (password == null || password.length() < 6) {
      throw new IllegalArgumentException("--password must have at least 6 characters");
    }
    Path parent = keyStore.toAbsolutePath().getParent();
    Files.createDirectories(parent);
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(
        List.of(
            "-genkeypair",
            "-alias",
            "weir-cluster",
            "-keyalg",
            "EC",
            "-groupname",
            "secp256r1",
            "-sigalg",
            "SHA256withECDSA",
            "-validity",
            "3650",
            "-dname",
            "CN=weir cluster",
            "-ext",
            "SAN=" + alternativeNames(hosts),
            "-storetype",
            "PKCS12",
            "-keystore",
            keyStore.toString(),
            "-storepass:env",
            "WEIR_KEYSTORE_PASSWORD"));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    // The password goes through the environment, not the command line other users can list.
    builder.environment().put("WEIR_KEYSTORE_PASSWORD", password);
    Process keytool = builder.start();
    byte[] output = keytool.getInputStream().readAllBytes();
    if (!keytool.waitFor(KEYTOOL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      keytool.destroyForcibly();
      throw new IllegalArgumentException("keytool did not finish making " + keyStore);
    }
    if (keytool.exitValue() != 0) {
      throw new IllegalArgumentException(
          "keytool could not make "
              + keyStore
              + ": "
              + new String(output, StandardCharsets.UTF_8).strip());
    }
    restrictToOwner(keyStore);
  }

  /** The private key is for the cluster's processes only. */
  private static void restrictToOwner(Path keyStore) throws IOException {
    try {
      Files.setPosixFilePermissions(keyStore, PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException notPosix) {
      // Other file systems keep their own permissions.
    }
  }

  private static String alternativeNames(List<String> hosts) {
    List<String> names = new ArrayList<>(List.of("dns:localhost", "ip:127.0.0.1"));
    for (String host : hosts) {
      names.add((host.matches("[0-9.]+|.*:.*") ? "ip:" : "dns:") + host);
    }
    return String.join(",", names);
  }
}
