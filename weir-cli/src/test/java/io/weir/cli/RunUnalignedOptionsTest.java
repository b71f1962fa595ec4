package io.weir.cli;

import static io.weir.cli.CommandRun.weir;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@code weir run --unaligned [--aligned-timeout D]}: accepted together, refused apart; and {@code
 * --in-flight-target D} beside them.
 */
class RunUnalignedOptionsTest {
  @Test
  void when_runWithUnalignedAndAnAlignedTimeout_then_theJobFinishes() {
    CommandRun run =
        weir(
            "run",
            "--local",
            "--no-web",
            "--unaligned",
            "--aligned-timeout",
            "PT0.05S",
            "io.weir.examples.SeedJob",
            "--records",
            "20000",
            "--checkpoint-interval",
            "50");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("job 'seed' finished");
  }

  @Test
  void when_alignedTimeoutWithoutUnaligned_then_failsInOneLineNamingBothOptions() {
    CommandRun run =
        weir("run", "--local", "--aligned-timeout", "PT1S", "io.weir.examples.SeedJob");

    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err().strip())
        .isEqualTo("weir: --aligned-timeout switches to unaligned checkpoints; add --unaligned");
  }

  @Test
  void when_runWithAnInFlightTarget_then_theJobFinishes() {
    CommandRun run =
        weir(
            "run",
            "--local",
            "--no-web",
            "--in-flight-target",
            "PT0.2S",
            "io.weir.examples.SeedJob",
            "--records",
            "20000",
            "--record-delay-micros",
            "100",
            "--checkpoint-interval",
            "50");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("job 'seed' finished");
  }

  @Test
  void when_inFlightTargetIsNegative_then_failsInOneLineNamingTheOption() {
    CommandRun run =
        weir("run", "--local", "--in-flight-target", "PT-1S", "io.weir.examples.SeedJob");

    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err().strip())
        .isEqualTo("weir: --in-flight-target must not be negative, got PT-1S");
  }
}
