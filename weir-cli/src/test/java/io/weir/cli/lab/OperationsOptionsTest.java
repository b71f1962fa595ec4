package io.weir.cli.lab;

import static io.weir.cli.CommandRun.weir;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.cli.CommandRun;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code weir lab --operations} refuses options that do not fit, in one line, before it starts. */
class OperationsOptionsTest {
  @TempDir Path directory;

  @Test
  void when_operationsWithAJob_then_oneLineSaysToDropIt() {
    CommandRun run =
        weir(
            "lab",
            "--operations",
            "--job",
            "com.example.Job",
            "--dir",
            directory.resolve("lab").toString());

    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err().strip())
        .isEqualTo("weir: --operations runs the seed job and the running count; drop --job");
  }

  @Test
  void when_anUnknownDeploymentIsAsked_then_oneLineNamesIt() {
    CommandRun run =
        weir(
            "lab",
            "--operations",
            "--deployments",
            "local,remote",
            "--dir",
            directory.resolve("lab").toString());

    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err().strip())
        .isEqualTo("weir: --deployments takes local and cluster, got 'remote'");
  }
}
