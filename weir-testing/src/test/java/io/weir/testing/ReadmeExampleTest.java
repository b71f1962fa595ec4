package io.weir.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.sink.SinkFunction;
import io.weir.examples.SeedRecords;
import io.weir.runtime.sink.file.FileSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example of the README's weir-testing section, word for word; keep both in step. */
class ReadmeExampleTest {
  @TempDir Path cells;

  @Test
  void when_readmeExampleRuns_then_itPasses() throws Exception {
    // README: begin
    // The seed's keyed map, restored after every record; a difference fails the test.
    OperatorTestHarness<String, String> map =
        OperatorHarnesses.forMap(SeedRecords::incrementFrequency)
            .keyBy(SeedRecords::word)
            .restoreAfterEveryInput()
            .open();
    map.processElement("apple,4,1572845161023");
    assertThat(map.output()).containsExactly("apple,5,1572845161023");

    // A keyed process function with timers, rescaled from 1 to 3 subtasks.
    OperatorTestHarness<String, String> counts =
        OperatorHarnesses.forKeyedProcess((String word) -> word, new WordCountUntilQuiet()).open();
    counts.processElement("apple", 100).processElement("pear", 100);
    OperatorSnapshot snapshot = counts.snapshot();
    counts.crash();
    counts.restore(snapshot, 3).processElement("apple", 101).processWatermark(1_000);
    assertThat(counts.output()).containsExactlyInAnyOrder("apple=2", "pear=1");

    // A two-phase-commit sink crashed at every step of the protocol, in every round.
    SinkCrashMatrix.forSink(() -> new DirectoryFixture(Files.createTempDirectory(cells, "cell")))
        .records(List.of("a", "b", "c", "d", "e", "f"))
        .rounds(3)
        .run()
        .assertExactlyOnce();
    // README: end
  }

  @Test
  void when_readmeIsRead_then_itShowsThisTestsExample() throws Exception {
    String source =
        Files.readString(Path.of("src/test/java/io/weir/testing/ReadmeExampleTest.java"));
    String example =
        source
            .substring(
                source.indexOf("// README: begin\n") + "// README: begin\n".length(),
                source.indexOf("    // README: end"))
            .replaceAll("(?m)^    ", "");
    String readme = Files.readString(Path.of("..", "README.md"));
    String section = readme.substring(readme.indexOf("## Testing your functions and sinks"));
    String block = section.substring(section.indexOf("```java\n") + 8, section.indexOf("```\n", 8));
    assertThat(block).isEqualTo(example);
  }

  /** A fresh output directory with a FileSink on it; committed = the lines of its visible files. */
  private record DirectoryFixture(Path output) implements SinkFixture<String> {
    @Override
    public SinkFunction<String> newSink() {
      return FileSink.<String>forDirectory(output).build();
    }

    @Override
    public List<String> committed() throws Exception {
      try (var files = Files.list(output)) {
        return files
            .filter(file -> !file.getFileName().toString().startsWith("."))
            .flatMap(file -> readLines(file).stream())
            .toList();
      }
    }

    private static List<String> readLines(Path file) {
      try {
        return Files.readAllLines(file);
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
  }
}
