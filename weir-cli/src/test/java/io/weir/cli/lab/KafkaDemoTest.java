package io.weir.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.cli.WeirCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir demo} as the README runs it, on fewer records: its own broker, the seed job halted
 * right after a sink commit, the restart from its checkpoint, and the committed output counted once
 * the output settled.
 */
class KafkaDemoTest {
  @TempDir Path directory;

  @Test
  void when_seedJobIsHaltedAfterACommitAndRestored_then_everyRecordIsCommittedOnce()
      throws Exception {
    // given
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream terminal = System.out;
    int exitCode;

    // when
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try {
      exitCode =
          WeirCli.run(
              "demo",
              "--records",
              "5000",
              "--web-port",
              "0",
              "--dir",
              directory.resolve("demo").toString());
    } finally {
      System.setOut(terminal);
    }

    // then
    String output = printed.toString(StandardCharsets.UTF_8);
    terminal.print(output);
    assertThat(exitCode).as(output).isZero();
    assertThat(output)
        .contains("ended with exit code 137")
        .contains("job process 2: restart with -s ")
        .containsPattern("in=5000 out=5000 lost=0 duplicated=0");
  }
}
