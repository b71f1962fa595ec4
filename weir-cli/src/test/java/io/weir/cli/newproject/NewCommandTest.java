package io.weir.cli.newproject;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.cli.WeirCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code weir new}'s refusals: each in one line, before anything is installed or written. */
class NewCommandTest {
  @TempDir Path directory;

  @Test
  void when_coordinatesAreMalformed_then_oneLineSaysWhatTheyShouldBe() {
    // when
    Run run = weir("new", "Acme/orders", "--dir", directory.resolve("project").toString());

    // then
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.errors())
        .isEqualTo(
            "weir: 'Acme/orders' is not a project's groupId:artifactId in lower case, such as"
                + " com.acme:orders-job");
    assertThat(directory.resolve("project")).doesNotExist();
  }

  @Test
  void when_directoryIsNotEmpty_then_oneLineNamesItAndNothingIsWritten() throws Exception {
    // given
    Path project = Files.createDirectory(directory.resolve("project"));
    Files.writeString(project.resolve("notes.txt"), "mine");

    // when
    Run run = weir("new", "com.acme:orders-job", "--dir", project.toString());

    // then
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.errors())
        .isEqualTo("weir: The directory " + project + " is not empty; give another with --dir");
    try (var files = Files.list(project)) {
      assertThat(files).containsExactly(project.resolve("notes.txt"));
    }
  }

  @Test
  void when_theRepositoryLacksWeir_then_everyArtifactAJobUsesIsStale() {
    // given
    WeirInstallation installation =
        new WeirInstallation(
            WeirCheckout.ofThisCommandLine(),
            new LocalMavenRepository(directory.resolve("repository")),
            "0.1.0-SNAPSHOT");

    // then
    assertThat(installation.staleArtifacts())
        .contains("weir-parent", "weir-bom", "weir-api", "weir-kafka", "weir-testing", "weir-lab")
        .doesNotContain("weir-benchmarks");
  }

  private record Run(int exitCode, String errors) {}

  private static Run weir(String... args) {
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    PrintStream previous = System.err;
    System.setErr(new PrintStream(errors, true, StandardCharsets.UTF_8));
    try {
      int exitCode = WeirCli.run(args);
      return new Run(exitCode, errors.toString(StandardCharsets.UTF_8).strip());
    } finally {
      System.setErr(previous);
    }
  }
}
