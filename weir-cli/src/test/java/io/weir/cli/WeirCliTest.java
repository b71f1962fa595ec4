package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class WeirCliTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private PrintStream originalOut;
  private PrintStream originalErr;

  @BeforeEach
  void captureOutput() {
    originalOut = System.out;
    originalErr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restoreOutput() {
    System.setOut(originalOut);
    System.setErr(originalErr);
  }

  @Test
  void when_help_is_asked_then_every_command_is_listed() {
    int exitCode = WeirCli.run("--help");

    assertThat(exitCode).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("demo", "lab", "run", "inspect", "kafka", "bench", "cluster", "checkpoints");
  }

  @Test
  void when_no_command_is_named_then_the_usage_lists_every_command() {
    int exitCode = WeirCli.run(new String[0]);

    assertThat(exitCode).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .startsWith("Usage: weir")
        .contains("Commands:", "demo", "run", "checkpoints");
  }

  @Test
  void when_a_command_is_named_then_its_own_options_are_parsed() {
    int exitCode = WeirCli.run("list", "--help");

    assertThat(exitCode).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("Usage: weir list");
  }

  @Test
  void when_the_version_is_asked_then_it_is_printed_without_building_any_command() {
    int exitCode = WeirCli.run("--version");

    assertThat(exitCode).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("weir ");
  }

  @Test
  void when_a_job_command_gets_options_after_the_job_then_they_belong_to_the_job() {
    int exitCode = WeirCli.run("plan", "io.weir.cli.NoSuchJob", "--not-a-weir-option");

    assertThat(exitCode).isNotZero();
    assertThat(err.toString(StandardCharsets.UTF_8))
        .doesNotContain("Unknown option")
        .contains("NoSuchJob");
  }

  @Test
  void when_the_command_is_unknown_then_it_fails_naming_it() {
    int exitCode = WeirCli.run("lsit");

    assertThat(exitCode).isNotZero();
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("'lsit'");
  }
}
