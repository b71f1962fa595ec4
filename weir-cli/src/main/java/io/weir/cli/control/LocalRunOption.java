package io.weir.cli.control;

import io.weir.cli.error.UserError;
import java.net.URI;
import java.net.URISyntaxException;
import picocli.CommandLine.Option;

/**
 * The option of {@code weir stop} and {@code weir cancel} that names a local {@code weir run} by
 * the address of its REST API (the one its {@code dashboard:} line prints) instead of a cluster.
 */
public final class LocalRunOption {
  @Option(
      names = "--web",
      paramLabel = "HOST:PORT",
      description =
          "A local 'weir run' by the address of its REST API, as its 'dashboard:' line prints it"
              + " (e.g. 127.0.0.1:8081), instead of a cluster's job manager.")
  String address;

  /** True when the command is meant for a local run. */
  public boolean isGiven() {
    return address != null;
  }

  /** The API's root, {@code http://HOST:PORT/api/v1/}. */
  URI apiRoot() {
    String given = address.contains("://") ? address : "http://" + address;
    try {
      URI uri = new URI(given);
      if (uri.getHost() == null || uri.getPort() < 0 || !"http".equals(uri.getScheme())) {
        throw new URISyntaxException(given, "not http://HOST:PORT");
      }
      return new URI("http", null, uri.getHost(), uri.getPort(), "/api/v1/", null, null);
    } catch (URISyntaxException e) {
      throw new UserError("--web " + address + " is not HOST:PORT (e.g. 127.0.0.1:8081)");
    }
  }

  /** The address as given, for messages. */
  String address() {
    return address;
  }
}
