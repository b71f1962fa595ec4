package io.weir.lab.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The peak resident memory of a real process, read while it runs and after it is gone. */
class ProcessMemoryTest {
  private static final int HEAP_MEBIBYTES = 96;

  @TempDir Path directory;

  @Test
  void when_aProcessTouchedItsWholeHeap_then_itsPeakCountsThatHeapUntilItIsGone() throws Exception {
    // given: a JVM that touches every page of its heap as it starts
    Process process =
        ChildJvmOptions.processBuilder(
                List.of(
                    "-Xms" + HEAP_MEBIBYTES + "m",
                    "-Xmx" + HEAP_MEBIBYTES + "m",
                    "-XX:+UseSerialGC",
                    "-XX:+AlwaysPreTouch"),
                List.of(Sleeps.class.getName()),
                directory.resolve("sleeps.log"))
            .start();
    try {
      // then: its peak holds the heap while it runs
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> ProcessMemory.peakResidentMebibytes(process.pid()) >= HEAP_MEBIBYTES);
    } finally {
      process.destroyForcibly();
    }
    // and reads 0 once it is gone
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(ProcessMemory.peakResidentMebibytes(process.pid())).isZero();
  }

  /** Runs until killed. */
  public static final class Sleeps {
    public static void main(String[] args) throws InterruptedException {
      Thread.sleep(Duration.ofMinutes(2).toMillis());
    }
  }
}
