package io.weir.cli.nexmark;

import static io.weir.cli.CommandRun.weir;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.cli.CommandRun;
import io.weir.nexmark.job.NexmarkJob;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code weir run NexmarkJob} with the results' destination missing, doubled or wrong. */
class NexmarkJobOptionsTest {
  @TempDir Path directory;

  @Test
  void when_noResultsDestinationIsGiven_then_oneLineNamesBothOptions() {
    CommandRun run = runQ10();

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err().strip())
        .isEqualTo(
            "weir: Missing required argument (specify one of these):"
                + " (--results-topic=TOPIC | --results-dir=DIR)");
  }

  @Test
  void when_aTopicAndADirectoryAreBothGiven_then_oneLineSaysToGiveOne() {
    CommandRun run =
        runQ10("--results-topic", "q10", "--results-dir", directory.resolve("q10").toString());

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err().strip())
        .isEqualTo(
            "weir: --results-topic=TOPIC, --results-dir=DIR are mutually exclusive (specify only"
                + " one)");
  }

  @Test
  void when_theResultsDirectoryIsAFile_then_oneLineNamesIt() throws Exception {
    Path file = Files.writeString(directory.resolve("q10"), "not a directory");

    CommandRun run = runQ10("--results-dir", file.toString());

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err().strip())
        .isEqualTo("weir: Output directory " + file + " is a file, not a directory");
  }

  private CommandRun runQ10(String... results) {
    List<String> arguments =
        new ArrayList<>(
            List.of(
                "run",
                "--local",
                "--no-web",
                "--checkpoint-dir",
                directory.resolve("checkpoints").toString(),
                NexmarkJob.class.getName(),
                "--query",
                "q10",
                "--events-topic",
                "events"));
    arguments.addAll(List.of(results));
    return weir(arguments.toArray(String[]::new));
  }
}
