package io.weir.lab.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the JVMs that Weir starts take over from the JVM that starts them. */
class ChildJvmOptionsTest {
  @TempDir Path directory;
  private String before;

  @BeforeEach
  void givenAnArchive() throws IOException {
    before = System.getProperty(ChildJvmOptions.CDS_ARCHIVE_PROPERTY);
    Path archive = Files.writeString(directory.resolve("weir-cli.jsa"), "archive");
    System.setProperty(ChildJvmOptions.CDS_ARCHIVE_PROPERTY, archive.toString());
  }

  @AfterEach
  void restore() {
    if (before == null) {
      System.clearProperty(ChildJvmOptions.CDS_ARCHIVE_PROPERTY);
    } else {
      System.setProperty(ChildJvmOptions.CDS_ARCHIVE_PROPERTY, before);
    }
  }

  @Test
  void when_aChildIsStarted_then_itRunsThisJavaWithThisClassPathAndAppendsToItsLog()
      throws Exception {
    Path log = Files.writeString(directory.resolve("child.log"), "before\n");

    Process child =
        ChildJvmOptions.processBuilder(
                List.of("-Xmx32m", "-Dweir.test.child=yes"),
                List.of("-XshowSettings:properties", "-version"),
                log)
            .start();

    assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(child.exitValue()).isZero();
    String output = Files.readString(log);
    assertThat(output)
        .startsWith("before\n")
        .contains("weir.test.child = yes")
        .contains("java.home = " + System.getProperty("java.home"));
    // The settings list a path property one entry a line.
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      assertThat(output).contains(entry);
    }
  }

  @Test
  void when_aJvmStartsPlain_then_itMapsTheArchive() {
    assertThat(ChildJvmOptions.of(List.of("-Xmx2g")))
        .contains("-XX:SharedArchiveFile=" + directory.resolve("weir-cli.jsa"), "-Xshare:auto");
  }

  @Test
  void when_aJvmStartsAFlightRecording_then_itMapsNoArchive() {
    assertThat(
            ChildJvmOptions.classDataSharing(
                List.of("-XX:StartFlightRecording=settings=profile,filename=run.jfr")))
        .isEmpty();
  }

  @Test
  void when_theArchiveIsMissing_then_noJvmMapsOne() throws IOException {
    Files.delete(directory.resolve("weir-cli.jsa"));
    assertThat(ChildJvmOptions.classDataSharing(List.of())).isEmpty();
  }

  @Test
  void when_theParentRunsTheFirstTierOnly_then_soDoesTheChild() {
    assertThat(
            ChildJvmOptions.compilerSettings(
                List.of("-Dweir.cds.archive=a.jsa", "-XX:TieredStopAtLevel=1", "-Xmx1g")))
        .containsExactly("-XX:TieredStopAtLevel=1");
  }

  @Test
  void when_theUserOverrodeTheLaunchersMode_then_theChildRunsTheUsers() {
    assertThat(
            ChildJvmOptions.compilerSettings(
                List.of("-XX:TieredStopAtLevel=1", "-XX:TieredStopAtLevel=4")))
        .containsExactly("-XX:TieredStopAtLevel=4");
  }

  @Test
  void when_theParentRaisedTheCompileThresholds_then_soDoesTheChild() {
    assertThat(
            ChildJvmOptions.compilerSettings(
                List.of(
                    "-XX:CompileThresholdScaling=4",
                    "-XX:TieredStopAtLevel=1",
                    "-XX:CompileThresholdScaling=2",
                    "-Xmx1g")))
        .containsExactly("-XX:TieredStopAtLevel=1", "-XX:CompileThresholdScaling=2");
  }

  @Test
  void when_theParentsCompilerThreadsRunAhead_then_soDoTheChilds() {
    assertThat(
            ChildJvmOptions.compilerSettings(
                List.of("-XX:CompileThresholdScaling=4", "-XX:ThreadPriorityPolicy=1", "-Xmx1g")))
        .containsExactly("-XX:CompileThresholdScaling=4", "-XX:ThreadPriorityPolicy=1");
  }

  @Test
  void when_theParentRunsTheDefaultCompilers_then_theChildIsGivenNoMode() {
    assertThat(ChildJvmOptions.compilerSettings(List.of("-Xmx512m", "-XX:+UseSerialGC"))).isEmpty();
  }
}
