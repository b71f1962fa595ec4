package io.weir.cluster.jobmanager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.cluster.rpc.ClusterTls;
import io.weir.cluster.rpc.HostAndPort;
import io.weir.cluster.taskmanager.TaskManagerOptions;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What a listener off loopback needs: a secret, TLS (or plaintext chosen), and role secrets. */
class JobManagerOptionsTest {
  @Test
  void when_boundBeyondLoopbackWithoutSecret_then_refusedNamingTheHost() {
    assertThatThrownBy(() -> options("0.0.0.0", "", "", ClusterTls.plaintextByChoice()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Binding the job manager to 0.0.0.0 requires a shared secret"
                + " (cluster.secret in conf/weir.yaml or --secret)");
  }

  @Test
  void when_boundBeyondLoopbackWithoutTls_then_refusedUnlessPlaintextWasChosen() {
    assertThatThrownBy(() -> options("0.0.0.0", "s3cret", "tm-s3cret", ClusterTls.plaintext()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Binding the job manager to 0.0.0.0 requires TLS: make the cluster's key pair with"
                + " `weir cluster cert` and set cluster.tls.keystore, or set cluster.tls: off to"
                + " accept plaintext");
    assertThat(options("0.0.0.0", "s3cret", "tm-s3cret", ClusterTls.plaintextByChoice()).host())
        .isEqualTo("0.0.0.0");
  }

  @Test
  void when_boundBeyondLoopbackWithOneSecretForEveryRole_then_refused() {
    assertThatThrownBy(() -> options("0.0.0.0", "s3cret", "", ClusterTls.plaintextByChoice()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Binding the job manager to 0.0.0.0 requires a task managers' secret other than the"
                + " cluster's (taskmanager.secret in conf/weir.yaml or --taskmanager-secret), so"
                + " that a client cannot register as a task manager");
  }

  @Test
  void when_boundToLoopback_then_oneSecretOrNoneIsAccepted() {
    assertThat(options("127.0.0.1", null, null, ClusterTls.plaintext()).secret()).isEmpty();
    JobManagerOptions shared = options("127.0.0.1", "s3cret", "", ClusterTls.plaintext());
    assertThat(shared.taskManagerSecret()).isEqualTo("s3cret");
    assertThat(shared.taskManagersHaveTheirOwnSecret()).isFalse();
  }

  @Test
  void when_taskManagerListensForDataBeyondLoopbackWithoutSecret_then_refused() {
    assertThatThrownBy(
            () ->
                new TaskManagerOptions(
                    new HostAndPort("127.0.0.1", 6123),
                    1,
                    "0.0.0.0",
                    "",
                    Duration.ofSeconds(1),
                    ClusterTls.plaintextByChoice()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Binding the task manager's data port to 0.0.0.0 requires a shared secret"
                + " (taskmanager.secret or cluster.secret in conf/weir.yaml, or"
                + " --taskmanager-secret)");
  }

  private static JobManagerOptions options(
      String host, String secret, String taskManagerSecret, ClusterTls tls) {
    return new JobManagerOptions(
        host, 0, secret, taskManagerSecret, Duration.ofSeconds(5), Path.of("checkpoints"), tls);
  }
}
