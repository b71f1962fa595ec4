package io.weir.cli.lab;

import static io.weir.cli.CommandRun.weir;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.cli.CommandRun;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code weir lab} refuses shared options out of range or out of place, in one line. */
class LabOptionsTest {
  @TempDir Path directory;

  @Test
  void when_rateIsZero_then_failsNamingTheOptionAndLeavesTheDirectoryAlone() throws Exception {
    // given
    Path lab = Files.createDirectories(directory.resolve("lab"));
    Files.writeString(lab.resolve("kept"), "from an earlier run");

    // when: even the clean-up, which needs no rate, checks it first
    CommandRun run = weir("lab", "--nemesis-cleanup", "--rate", "0", "--dir", lab.toString());

    // then
    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err().strip()).isEqualTo("weir: --rate must be at least 1, got 0");
    assertThat(lab.resolve("kept")).exists();
  }

  @Test
  void when_jobArgumentsAreGivenWithoutAJob_then_oneLineSaysTheyNeedIt() {
    CommandRun run =
        weir("lab", "--dir", directory.resolve("lab").toString(), "--", "--words", "3");

    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err().strip()).isEqualTo("weir: Job arguments and -c need --job CLASS|JAR");
  }

  @Test
  void when_haIsGivenWithoutSoak_then_oneLineSaysToAddIt() {
    CommandRun run = weir("lab", "--ha", "--dir", directory.resolve("lab").toString());

    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err().strip())
        .isEqualTo("weir: --ha kills job managers in the soak: add --soak");
  }
}
