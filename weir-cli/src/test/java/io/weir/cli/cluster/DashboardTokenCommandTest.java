package io.weir.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.cli.CommandRun;
import io.weir.cluster.jobmanager.DashboardToken;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code weir cluster dashboard-token}: the token the job managers of this configuration take. */
class DashboardTokenCommandTest {
  @TempDir Path directory;

  @Test
  void when_clusterHasASecret_then_theTokenIsPrintedAndIsNotTheSecret() throws Exception {
    Path conf = directory.resolve("weir.yaml");
    Files.writeString(conf, "cluster.secret: s3cret\n");

    CommandRun run = CommandRun.weir("cluster", "dashboard-token", "--conf", conf.toString());

    assertThat(run.exitCode()).isZero();
    assertThat(run.out().strip())
        .isEqualTo(DashboardToken.of(null, "s3cret"))
        .doesNotContain("s3cret");
  }

  @Test
  void when_tokenIsTheSecretOrThereIsNoSecret_then_oneLineSaysSo() throws Exception {
    Path same = directory.resolve("same.yaml");
    Files.writeString(same, "cluster.secret: s3cret\ndashboard.token: s3cret\n");
    CommandRun refused = CommandRun.weir("cluster", "dashboard-token", "--conf", same.toString());
    assertThat(refused.exitCode()).isNotZero();
    assertThat(refused.err()).contains("dashboard.token must not be the cluster's secret");

    Path open = directory.resolve("open.yaml");
    Files.writeString(open, "jobmanager.port: 7000\n");
    CommandRun none = CommandRun.weir("cluster", "dashboard-token", "--conf", open.toString());
    assertThat(none.exitCode()).isNotZero();
    assertThat(none.err()).contains("This cluster has no secret");
  }
}
