package io.weir.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.cli.error.UserError;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterSettingsTest {
  @TempDir Path directory;

  @Test
  void when_fileHasKeysCommentsAndQuotes_then_valuesAreRead() throws Exception {
    Path file = directory.resolve("weir.yaml");
    Files.writeString(
        file,
        "# cluster\njobmanager.port: 7000  # the control port\ncluster.secret: \"s3 cret\"\n\ntaskmanager.slots: 4\n");

    ClusterSettings settings = ClusterSettings.load(file);

    assertThat(settings.getInt("jobmanager.port", 6123)).isEqualTo(7000);
    assertThat(settings.get("cluster.secret", "")).isEqualTo("s3 cret");
    assertThat(settings.get("jobmanager.host", "127.0.0.1")).isEqualTo("127.0.0.1");
  }

  @Test
  void when_keysAreNested_then_theyReadAsDottedKeys() throws Exception {
    Path file = directory.resolve("weir.yaml");
    Files.writeString(file, "jobmanager:\n  host: 127.0.0.2\n  port: 7001\ntaskmanager.slots: 3\n");

    ClusterSettings settings = ClusterSettings.load(file);

    assertThat(settings.get("jobmanager.host", "127.0.0.1")).isEqualTo("127.0.0.2");
    assertThat(settings.getInt("jobmanager.port", 6123)).isEqualTo(7001);
    assertThat(settings.getInt("taskmanager.slots", 1)).isEqualTo(3);
  }

  @Test
  void when_keyIsUnknown_then_errorNamesFileAndKey() throws Exception {
    Path file = directory.resolve("weir.yaml");
    Files.writeString(file, "jobmanager.port: 7000\njob.manager: x\n");

    assertThatThrownBy(() -> ClusterSettings.load(file))
        .isInstanceOf(UserError.class)
        .hasMessageStartingWith(file + ": unknown setting 'job.manager', expected one of");
  }

  @Test
  void when_fileIsNotYaml_then_errorNamesFile() throws Exception {
    Path file = directory.resolve("weir.yaml");
    Files.writeString(file, "jobmanager.port: [7000\n");

    assertThatThrownBy(() -> ClusterSettings.load(file))
        .isInstanceOf(UserError.class)
        .hasMessageStartingWith(file + " is not valid YAML: ");
  }

  @Test
  void when_givenFileIsMissing_then_errorNamesIt() {
    Path missing = directory.resolve("nope.yaml");

    assertThatThrownBy(() -> ClusterSettings.load(missing))
        .isInstanceOf(UserError.class)
        .hasMessage("Cannot read the cluster configuration " + missing);
  }

  @Test
  void when_tlsIsOff_then_plaintextIsAcceptedOffLoopback_andAnyOtherModeIsAnError()
      throws Exception {
    Path file = directory.resolve("weir.yaml");
    Files.writeString(file, "cluster.tls: off\ntaskmanager.secret: t\ndashboard.token: d\n");
    assertThat(ClusterSettings.load(file).tls().acceptableOffLoopback()).isTrue();
    assertThat(ClusterSettings.load(file).tls().isEnabled()).isFalse();

    Path none = directory.resolve("none.yaml");
    Files.writeString(none, "jobmanager.port: 7000\n");
    assertThat(ClusterSettings.load(none).tls().acceptableOffLoopback()).isFalse();

    Path typo = directory.resolve("typo.yaml");
    Files.writeString(typo, "cluster.tls: of\n");
    assertThatThrownBy(() -> ClusterSettings.load(typo).tls())
        .isInstanceOf(UserError.class)
        .hasMessage("cluster.tls: 'of' is not a mode; give off (or set cluster.tls.keystore)");
  }
}
