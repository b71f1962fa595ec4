package io.weir.cli.cluster;

import io.weir.cli.error.UserError;
import io.weir.cluster.rpc.ClusterCertificate;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code weir cluster cert}: makes the cluster's self-signed key pair for TLS, which every process
 * of the cluster then names in {@code cluster.tls.keystore}.
 */
@Command(
    name = "cert",
    description = "Make the cluster's self-signed TLS key pair (a PKCS#12 key store).")
public final class ClusterCertCommand implements Runnable {
  @Option(
      names = "--out",
      description = "The key store to write (default ${DEFAULT-VALUE}); must not exist.")
  Path keyStore = Path.of("conf", "weir-cluster.p12");

  @Option(
      names = "--password",
      description = "The key store's password (default: the environment's WEIR_TLS_PASSWORD).")
  String password;

  @Option(
      names = "--host",
      description =
          "A host name or address the certificate names (repeatable; localhost and"
              + " 127.0.0.1 always).")
  List<String> hosts = new ArrayList<>();

  @Override
  public void run() {
    String storePassword = password != null ? password : System.getenv("WEIR_TLS_PASSWORD");
    if (storePassword == null) {
      throw new UserError("Give the key store's password with --password or WEIR_TLS_PASSWORD");
    }
    try {
      ClusterCertificate.create(keyStore, storePassword, hosts);
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage(), e);
    } catch (IOException e) {
      throw new UserError("Cannot write the key store " + keyStore + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UserError("Interrupted while making " + keyStore);
    }
    System.out.println(
        "wrote " + keyStore + "; give every process of the cluster, in conf/weir.yaml:");
    System.out.println("  cluster.tls.keystore: " + keyStore.toAbsolutePath());
    System.out.println("  cluster.tls.password: <the password>");
  }
}
