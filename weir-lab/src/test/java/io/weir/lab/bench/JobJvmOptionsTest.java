package io.weir.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class JobJvmOptionsTest {
  @Test
  void when_profileDirectoryGiven_then_eachRunRecordsIntoAFileOfItsOwn() {
    // given
    JobJvmOptions options = new JobJvmOptions(List.of("-Xmx2g"), Path.of("/profiles"));

    // when
    List<String> first = options.forRun("bench-raw-1-throughput-1");
    List<String> second = options.forRun("bench-weir_exactly_once-1-throughput-1");

    // then: the user's options first, then one recording per run
    assertThat(first)
        .containsExactly(
            "-Xmx2g",
            "-XX:StartFlightRecording=settings=profile,dumponexit=true,filename="
                + Path.of("/profiles", "bench-raw-1-throughput-1.jfr"));
    assertThat(second.get(1)).endsWith("bench-weir_exactly_once-1-throughput-1.jfr");
  }

  @Test
  void when_noProfileDirectory_then_onlyTheUsersOptions() {
    assertThat(new JobJvmOptions(List.of("-Xss1m"), null).forRun("any")).containsExactly("-Xss1m");
    assertThat(JobJvmOptions.NONE.forRun("any")).isEmpty();
  }
}
