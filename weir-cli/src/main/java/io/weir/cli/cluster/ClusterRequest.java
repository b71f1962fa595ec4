package io.weir.cli.cluster;

import io.weir.cli.error.UserError;
import io.weir.cluster.ClusterClient;
import io.weir.cluster.rpc.ClusterConnectException;

/** Runs one request against the job manager; its failures become one-line user errors. */
final class ClusterRequest {
  interface Call<T> {
    T on(ClusterClient client) throws ClusterConnectException, InterruptedException;
  }

  private ClusterRequest() {}

  static <T> T run(ClusterOptions options, Call<T> call) {
    try (ClusterClient client = options.client()) {
      return call.on(client);
    } catch (ClusterConnectException | IllegalArgumentException e) {
      throw new UserError(e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UserError("Interrupted while talking to the job manager");
    }
  }
}
