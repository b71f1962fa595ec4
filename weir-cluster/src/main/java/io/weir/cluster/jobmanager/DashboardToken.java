package io.weir.cluster.jobmanager;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The token the dashboard, the REST API and the metrics ask for: never the cluster's secret, so a
 * token read off a browser or a scraper's configuration opens the dashboard and nothing else (no
 * job submission over the cluster protocol, no task manager registration).
 *
 * <p>Unless set on its own ({@code dashboard.token}), it is derived from the cluster's secret by a
 * one-way function: every job manager of a cluster (the standbys too) answers to the same token,
 * and an operator who holds the secret can always compute it ({@code weir cluster
 * dashboard-token}), while the token does not give the secret away.
 */
public final class DashboardToken {
  private DashboardToken() {}

  /**
   * The dashboard's token.
   *
   * @param configured the token set on its own, or null or empty to derive it
   * @param clusterSecret the cluster's secret; empty means an open dashboard (loopback only)
   * @throws IllegalArgumentException when the configured token is the cluster's secret
   */
  public static String of(String configured, String clusterSecret) {
    String secret = clusterSecret == null ? "" : clusterSecret;
    if (configured != null && !configured.isEmpty()) {
      if (configured.equals(secret)) {
        throw new IllegalArgumentException(
            "dashboard.token must not be the cluster's secret: a token sent by a browser would"
                + " then open the cluster protocol too");
      }
      return configured;
    }
    return secret.isEmpty() ? "" : derive(secret);
  }

  private static String derive(String secret) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      byte[] token = mac.doFinal("weir dashboard token v1".getBytes(StandardCharsets.UTF_8));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(token);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("Every Java runtime has HmacSHA256", e);
    }
  }
}
