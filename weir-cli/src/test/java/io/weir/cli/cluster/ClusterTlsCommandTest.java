package io.weir.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.cli.WeirCli;
import io.weir.cli.error.UserError;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code weir cluster cert}, and the settings that name its key store. */
class ClusterTlsCommandTest {
  private static final String PASSWORD = "key-store-password";

  @TempDir Path directory;

  @Test
  void when_certMadeAndNamedInTheSettings_then_theClusterUsesTls_andMistakesAreOneLine()
      throws Exception {
    // given: the key store that 'weir cluster cert' makes
    Path keyStore = directory.resolve("weir-cluster.p12");
    assertThat(WeirCli.run("cluster", "cert", "--out", keyStore.toString(), "--password", PASSWORD))
        .isZero();

    // when / then: named with its password, the settings give TLS
    assertThat(
            settings("cluster.tls.keystore: " + keyStore, "cluster.tls.password: " + PASSWORD)
                .tls()
                .isEnabled())
        .isTrue();
    assertThat(settings("cluster.secret: x").tls().isEnabled()).isFalse();

    // and: every mistake is one line naming the setting or the file
    assertThatThrownBy(() -> settings("cluster.tls.keystore: " + keyStore).tls())
        .isInstanceOf(UserError.class)
        .hasMessage("cluster.tls.keystore is set but cluster.tls.password is not");
    assertThatThrownBy(
            () ->
                settings("cluster.tls.keystore: " + keyStore, "cluster.tls.password: wrong-one")
                    .tls())
        .isInstanceOf(UserError.class)
        .hasMessageStartingWith("Cannot use the TLS key store " + keyStore + ": ");
    assertThat(WeirCli.run("cluster", "cert", "--out", keyStore.toString(), "--password", PASSWORD))
        .isNotZero();
  }

  private ClusterSettings settings(String... lines) throws Exception {
    Path file = Files.createTempFile(directory, "weir", ".yaml");
    Files.writeString(file, String.join("\n", lines) + "\n");
    return ClusterSettings.load(file);
  }
}
