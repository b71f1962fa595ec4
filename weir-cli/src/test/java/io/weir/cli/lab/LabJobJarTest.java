package io.weir.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.cli.WeirCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir lab --job JAR}: a job whose class is only in its jar, as {@code weir run} takes it.
 */
class LabJobJarTest {
  @TempDir Path directory;

  @Test
  void when_jobIsAJarOfItsOwn_then_theSoakRunsItAndNothingIsLostOrDuplicated() throws Exception {
    // given: the job's main class is in no process's class path, only in the jar
    Path jar = SeedJobJar.build(directory, "lab-job");
    Path json = directory.resolve("soak.json");

    // when
    int exitCode =
        WeirCli.run(
            "lab",
            "--soak",
            "--job",
            jar.toString(),
            "--minutes",
            "0.1",
            "--rate",
            "300",
            "--random-seed",
            "3",
            "--dir",
            directory.resolve("soak").toString(),
            "--json",
            json.toString());

    // then
    String result = Files.readString(json);
    assertThat(exitCode).as(result).isZero();
    assertThat(result).contains("\"lost\": 0,").contains("\"duplicated\": 0}");
    assertThat(result).doesNotContain("\"records\": 0,");
  }

  @Test
  void when_jarLacksTheGivenClass_then_oneLineNamesTheJarAndTheClass() throws Exception {
    // given
    Path jar = SeedJobJar.build(directory, "lab-job");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream previous = System.err;

    // when
    int exitCode;
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      exitCode =
          WeirCli.run(
              "lab",
              "--job",
              jar.toString(),
              "-c",
              "shipped.NoSuchJob",
              "--dir",
              directory.resolve("lab").toString());
    } finally {
      System.setErr(previous);
    }

    // then
    assertThat(exitCode).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8).strip())
        .isEqualTo("weir: The jar " + jar + " has no class shipped.NoSuchJob");
  }
}
