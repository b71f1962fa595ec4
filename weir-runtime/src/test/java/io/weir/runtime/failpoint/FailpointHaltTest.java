package io.weir.runtime.failpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class FailpointHaltTest {

  @Test
  void when_haltArmedForSecondHit_then_processDiesThereWithoutShutdownHooks() throws Exception {
    ChildResult result = runChild("-Dweir.failpoints=sink.commit.before=halt@2", null);

    assertThat(result.exitCode()).isEqualTo(137);
    assertThat(result.stdout()).isEqualTo("pass 1\npass 2\n");
    assertThat(result.stderr()).isEqualTo("weir: failpoint sink.commit.before hit: halting\n");
  }

  @Test
  void when_haltConfiguredByEnvironmentWithExitCode_then_processExitsWithIt() throws Exception {
    ChildResult result = runChild(null, "sink.commit.before=halt(42)");

    assertThat(result.exitCode()).isEqualTo(42);
    assertThat(result.stdout()).isEqualTo("pass 1\n");
  }

  @Test
  void when_nothingArmed_then_processFinishesNormally() throws Exception {
    ChildResult result = runChild(null, null);

    assertThat(result.exitCode()).isZero();
    assertThat(result.stdout()).endsWith("finished\nshutdown hook ran\n");
  }

  private static ChildResult runChild(String systemProperty, String environment)
      throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String classpath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> command = new ArrayList<>(List.of(java, "-cp", classpath));
    if (systemProperty != null) {
      command.add(systemProperty);
    }
    command.add(HaltingMain.class.getName());
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().remove(FailpointConfiguration.ENVIRONMENT_VARIABLE);
    if (environment != null) {
      builder.environment().put(FailpointConfiguration.ENVIRONMENT_VARIABLE, environment);
    }
    Process process = builder.start();
    process.getOutputStream().close();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("child JVM did not finish within 60 s");
    }
    return new ChildResult(
        process.exitValue(),
        new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
        new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
  }

  private record ChildResult(int exitCode, String stdout, String stderr) {}
}
