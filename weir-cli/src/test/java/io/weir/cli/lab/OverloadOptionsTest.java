package io.weir.cli.lab;

import static io.weir.cli.CommandRun.weir;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.cli.CommandRun;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code weir lab --overload} refuses options that do not fit, in one line, before it starts. */
class OverloadOptionsTest {
  @TempDir Path directory;

  @Test
  void when_killWithoutOverload_then_failsInOneLineNamingTheOverloadOptions() {
    CommandRun run = weir("lab", "--kill", "--dir", directory.resolve("lab").toString());

    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err().strip())
        .isEqualTo("weir: --unaligned, --kill and --record-delay-micros go with --overload");
  }

  @Test
  void when_overloadWithSoak_then_failsInOneLineNamingTheOptionsToDrop() {
    CommandRun run =
        weir("lab", "--overload", "--soak", "--dir", directory.resolve("lab").toString());

    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err().strip())
        .isEqualTo(
            "weir: --overload runs the seed job into Kafka: drop --soak, --operations, --ha,"
                + " --job, --sink");
  }

  @Test
  void when_recordDelayIsZero_then_failsNamingTheOptionAndLeavesTheDirectoryAlone()
      throws Exception {
    Path lab = Files.createDirectories(directory.resolve("lab"));
    Files.writeString(lab.resolve("kept"), "from an earlier run");

    CommandRun run =
        weir("lab", "--overload", "--record-delay-micros", "0", "--dir", lab.toString());

    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err().strip())
        .isEqualTo("weir: --record-delay-micros must be at least 1, got 0");
    assertThat(lab.resolve("kept")).exists();
  }
}
