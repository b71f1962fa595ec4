package io.weir.cli.cluster;

import io.weir.cli.error.UserError;
import io.weir.cluster.jobmanager.DashboardToken;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code weir cluster dashboard-token}: prints the token the cluster's dashboard asks for, computed
 * from the same configuration the job managers read, so that an operator pastes it into the
 * dashboard's sign-in or a scraper's bearer token without ever handing out the cluster's secret.
 */
@Command(
    name = "dashboard-token",
    description = "Print the token of the cluster's dashboard, REST API and metrics.")
public final class DashboardTokenCommand implements Runnable {
  @Mixin ClusterOptions cluster;

  @Override
  public void run() {
    ClusterSettings settings = ClusterSettings.load(cluster.configuration);
    String token;
    try {
      token = DashboardToken.of(settings.get("dashboard.token", ""), cluster.secret());
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage(), e);
    }
    if (token.isEmpty()) {
      throw new UserError(
          "This cluster has no secret, so its dashboard asks for no token (loopback only)");
    }
    System.out.println(token);
  }
}
