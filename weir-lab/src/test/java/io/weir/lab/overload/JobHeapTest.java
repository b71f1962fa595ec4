package io.weir.lab.overload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.lab.process.ChildJvmOptions;
import io.weir.lab.process.JobLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The overload soak's job heap: an OutOfMemoryError ends the process, even one that is caught. */
class JobHeapTest {
  private static final String WENT_ON = "went on after the error";

  @TempDir Path directory;

  @Test
  void when_aThreadCatchesAnOutOfMemoryError_then_theProcessEndsAndItsLogNamesIt()
      throws Exception {
    // given: a process on the soak's options with a small heap, whose thread swallows the error
    Path log = directory.resolve("job.log");
    Process process =
        ChildJvmOptions.processBuilder(
                JobHeap.jvmOptions(16), List.of(SwallowsOutOfMemory.class.getName()), log)
            .start();
    try {
      // when: the heap does not hold
      await().atMost(Duration.ofSeconds(60)).until(() -> !process.isAlive());

      // then
      assertThat(process.exitValue()).isNotZero();
      assertThat(JobLog.ranOutOfMemory(log)).as(Files.readString(log)).isTrue();
      assertThat(Files.readString(log)).doesNotContain(WENT_ON);
    } finally {
      process.destroyForcibly();
    }
  }

  /** Fills its heap on a thread that catches the error, as a client's I/O thread might. */
  public static final class SwallowsOutOfMemory {
    public static void main(String[] args) throws Exception {
      Thread filler =
          new Thread(
              () -> {
                List<byte[]> kept = new ArrayList<>();
                try {
                  while (true) {
                    kept.add(new byte[1 << 20]);
                  }
                } catch (OutOfMemoryError e) {
                  kept.clear();
                }
              });
      filler.start();
      filler.join();
      System.out.println(WENT_ON);
      Thread.sleep(Duration.ofMinutes(2).toMillis());
    }
  }
}
