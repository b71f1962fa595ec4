package io.weir.cluster.ha;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.cluster.rpc.JobJar;
import io.weir.cluster.rpc.JobSubmission;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A submission read back from the job store is the submission that was stored. */
class SubmissionCodecTest {
  @Test
  void when_aSubmissionChoosesABackendAndUnalignedCheckpoints_then_theStoredJobKeepsThem() {
    // given
    JobSubmission submission =
        new JobSubmission(
            "io.example.Job",
            List.of("a", "b c"),
            3,
            "/checkpoints",
            null,
            false,
            new JobJar("job.jar", "00ff"),
            true,
            false,
            "rocksdb",
            true,
            Duration.ofSeconds(1));

    // when
    JobSubmission decoded = SubmissionCodec.decode(SubmissionCodec.encode(submission));

    // then
    assertThat(decoded).isEqualTo(submission);
  }

  @Test
  void when_aSubmissionLeavesTheBackendToTheJob_then_theStoredJobDoesToo() {
    JobSubmission submission =
        new JobSubmission("io.example.Job", List.of(), null, null, "/savepoint", true);

    assertThat(SubmissionCodec.decode(SubmissionCodec.encode(submission)).stateBackend()).isNull();
  }
}
