package io.weir.cluster.jobmanager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class JobManagerOptionsTest {
  @Test
  void when_boundBeyondLoopbackWithoutSecret_then_refusedNamingTheHost() {
    assertThatThrownBy(() -> options("0.0.0.0", ""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Binding the job manager to 0.0.0.0 requires a shared secret"
                + " (cluster.secret in conf/weir.yaml or --secret)");
  }

  @Test
  void when_boundBeyondLoopbackWithSecret_or_toLoopback_then_accepted() {
    assertThat(options("0.0.0.0", "s3cret").secret()).isEqualTo("s3cret");
    assertThat(options("127.0.0.1", null).secret()).isEmpty();
  }

  private static JobManagerOptions options(String host, String secret) {
    return new JobManagerOptions(host, 0, secret, Duration.ofSeconds(5), Path.of("checkpoints"));
  }
}
