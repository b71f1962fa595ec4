package io.weir.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.cli.WeirCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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
    JsonNode result = new ObjectMapper().readTree(json.toFile());
    assertThat(exitCode).as(result.toString()).isZero();
    assertThat(result.get("lost").asLong()).isZero();
    assertThat(result.get("duplicated").asLong()).isZero();
    assertThat(result.get("records").asLong()).isPositive();
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
