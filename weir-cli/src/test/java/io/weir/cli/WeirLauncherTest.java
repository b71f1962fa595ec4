package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code weir} launcher script on a small project tree of its own, with {@code mvn} and {@code
 * java} replaced by scripts that note their calls: which changes make it build, and that a build
 * records the class-data sharing archives that later calls map.
 */
class WeirLauncherTest {
  private static final Instant BUILT = Instant.now().minusSeconds(60);

  @TempDir Path root;
  private Path calls;
  private Path bin;

  @BeforeEach
  void givenABuiltProject() throws IOException {
    Files.copy(Path.of("..", "weir").toAbsolutePath(), root.resolve("weir"));
    calls = root.resolve("calls.txt");
    bin = Files.createDirectories(root.resolve("fake-bin"));
    fakeCommand("mvn", "echo mvn >> \"$CALLS\"");
    // Lists the loaded classes when asked to, and dumps an archive when asked to, as the JVM does.
    fakeCommand(
        "java",
        "echo \"java $*\" >> \"$CALLS\"\n"
            + "dump=no; for a in \"$@\"; do case \"$a\" in -Xshare:dump) dump=yes;; esac; done\n"
            + "for a in \"$@\"; do case \"$a\" in\n"
            + "  -XX:DumpLoadedClassList=*) echo classes > \"${a#*=}\";;\n"
            + "  -XX:SharedArchiveFile=*) [ $dump = no ] || echo archive > \"${a#*=}\";;\n"
            + "esac; done");
    writeAt(root.resolve("pom.xml"), BUILT.minusSeconds(60));
    writeAt(root.resolve("weir-api/pom.xml"), BUILT.minusSeconds(60));
    writeAt(root.resolve("weir-api/src/main/java/Api.java"), BUILT.minusSeconds(60));
    writeAt(root.resolve("weir-cli/target/weir-cli.jar"), BUILT);
    Files.createDirectories(root.resolve("weir-cli/target/lib"));
    writeAt(root.resolve("weir-cli/target/weir-built.stamp"), BUILT);
  }

  @Test
  void when_onlyDotFoldersAndBuildOutputChanged_then_itDoesNotBuild() throws Exception {
    // given: what demo, lab and builds write after the build
    writeAt(root.resolve(".weir/demo/job.properties"), Instant.now());
    writeAt(root.resolve("weir-api/target/classes/Api.java"), Instant.now());
    writeAt(root.resolve("weir-api/.idea/Api.java"), Instant.now());
    // when
    int exit = launch("--version");
    // then
    assertThat(exit).isZero();
    assertThat(calls()).noneMatch(call -> call.equals("mvn"));
    assertThat(calls()).last().asString().contains("io.weir.cli.WeirCli --version");
  }

  @Test
  void when_aSourceChanged_then_itBuildsAndRecordsTheArchiveThatJobCommandsMap() throws Exception {
    // given
    writeAt(root.resolve("weir-api/src/main/java/Api.java"), Instant.now());
    // when
    int first = launch("run", "Job");
    int second = launch("list", "--help");
    // then
    assertThat(first).isZero();
    assertThat(second).isZero();
    List<String> calls = calls();
    assertThat(calls).filteredOn(call -> call.equals("mvn")).hasSize(1);
    // each archive: its training lists the classes it loads, then the JVM dumps them
    assertThat(calls.get(1)).contains("-XX:DumpLoadedClassList=").endsWith("CommandLineTraining");
    assertThat(calls.get(2)).contains("-Xshare:dump", "weir-commands.jsa");
    assertThat(calls.get(3))
        .contains("-XX:DumpLoadedClassList=")
        .endsWith("ClassDataSharingTraining");
    assertThat(calls.get(4)).contains("-Xshare:dump", "weir-cli.jsa");
    assertThat(root.resolve("weir-cli/target/weir-cli.jsa")).exists();
    assertThat(root.resolve("weir-cli/target/weir-commands.jsa")).exists();
    assertThat(root.resolve("weir-cli/target")).isDirectoryNotContaining("glob:**.classes");
    assertThat(calls.get(5))
        .contains("-XX:SharedArchiveFile=" + root.resolve("weir-cli/target/weir-cli.jsa"))
        .doesNotContain("-XX:TieredStopAtLevel")
        .endsWith("WeirCli run Job");
    // a command that answers and exits maps the small archive: the large one would cost more
    // than it saves
    assertThat(calls.get(6))
        .contains("-XX:SharedArchiveFile=" + root.resolve("weir-cli/target/weir-commands.jsa"))
        .contains("-XX:TieredStopAtLevel=1")
        .endsWith("WeirCli list --help");
  }

  @Test
  void when_aJobCommandIsAskedForItsHelp_then_itAnswersAsTheShortCommandsDo() throws Exception {
    // given: a build with its archives
    writeAt(root.resolve("weir-cli/target/weir-cli.jar"), BUILT);
    writeAt(root.resolve("weir-cli/target/weir-commands.jsa"), BUILT);
    writeAt(root.resolve("weir-cli/target/weir-cli.jsa"), BUILT);
    // when
    int runHelp = launch("run", "--help");
    int nestedHelp = launch("kafka", "start", "-h");
    int job = launch("run", "Job", "--records", "10");
    // then
    assertThat(List.of(runHelp, nestedHelp, job)).containsOnly(0);
    assertThat(calls()).hasSize(3);
    assertThat(calls().get(0))
        .contains("weir-commands.jsa", "-XX:TieredStopAtLevel=1")
        .doesNotContain("-XX:CompileThresholdScaling")
        .endsWith("WeirCli run --help");
    assertThat(calls().get(1))
        .contains("weir-commands.jsa", "-XX:TieredStopAtLevel=1")
        .endsWith("WeirCli kafka start -h");
    // a job command compiles at raised thresholds: its start runs much code only a few times
    assertThat(calls().get(2))
        .contains("weir-cli.jsa", "-XX:CompileThresholdScaling=4")
        .doesNotContain("-XX:TieredStopAtLevel")
        .endsWith("WeirCli run Job --records 10");
  }

  @Test
  void when_theUserSetsTheCompileThresholds_then_theUsersComeLastAndCount() throws Exception {
    // when
    int exit = launch(Map.of("WEIR_JAVA_OPTS", "-XX:CompileThresholdScaling=1"), "run", "Job");
    // then: the JVM takes the last of an option given twice
    assertThat(exit).isZero();
    String call = calls().get(0);
    assertThat(call).contains("-XX:CompileThresholdScaling=4", "-XX:CompileThresholdScaling=1");
    assertThat(call.indexOf("-XX:CompileThresholdScaling=1"))
        .isGreaterThan(call.indexOf("-XX:CompileThresholdScaling=4"));
  }

  @Test
  void when_rootRunsAJob_then_theCompilerThreadsRunAheadOfTheJobs() throws Exception {
    // given
    fakeCommand("id", "echo 0");
    // when
    int job = launch("run", "Job");
    int answer = launch("list");
    // then: the JVM raises its compiler threads' priority only under this policy
    assertThat(List.of(job, answer)).containsOnly(0);
    assertThat(calls().get(0)).contains("-XX:ThreadPriorityPolicy=1").endsWith("WeirCli run Job");
    assertThat(calls().get(1)).doesNotContain("-XX:ThreadPriorityPolicy").endsWith("WeirCli list");
  }

  @Test
  void when_anotherUserRunsAJob_then_thePolicyThatOnlyRootMayUseIsNotAskedFor() throws Exception {
    // given: the JVM would warn at every start and ignore the policy
    fakeCommand("id", "echo 1000");
    // when
    int job = launch("run", "Job");
    // then
    assertThat(job).isZero();
    assertThat(calls().get(0))
        .contains("-XX:CompileThresholdScaling=4")
        .doesNotContain("-XX:ThreadPriorityPolicy");
  }

  @Test
  void when_aFlightRecordingStartsAtLaunch_then_noArchiveIsMapped() throws Exception {
    // given: a build with its archives
    writeAt(root.resolve("weir-cli/target/weir-cli.jsa"), BUILT);
    writeAt(root.resolve("weir-cli/target/weir-commands.jsa"), BUILT);
    // when
    int plain = launch(Map.of(), "run", "Job");
    int recorded =
        launch(Map.of("WEIR_JAVA_OPTS", "-XX:StartFlightRecording=filename=job.jfr"), "run", "Job");
    // then
    assertThat(plain).isZero();
    assertThat(recorded).isZero();
    assertThat(calls()).hasSize(2);
    assertThat(calls().get(0)).contains("-XX:SharedArchiveFile=");
    assertThat(calls().get(1))
        .contains("-XX:StartFlightRecording=filename=job.jfr")
        .doesNotContain("-XX:SharedArchiveFile=")
        .endsWith("WeirCli run Job");
  }

  @Test
  void when_aPomChanged_then_itBuilds() throws Exception {
    // given
    writeAt(root.resolve("weir-api/pom.xml"), Instant.now());
    // when
    int exit = launch("--version");
    // then
    assertThat(exit).isZero();
    assertThat(calls()).contains("mvn");
  }

  private int launch(String... args) throws Exception {
    return launch(Map.of(), args);
  }

  private int launch(Map<String, String> environment, String... args) throws Exception {
    List<String> command =
        new java.util.ArrayList<>(List.of("bash", root.resolve("weir").toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.redirectOutput(root.resolve("launcher.log").toFile());
    builder.environment().put("PATH", bin + ":" + System.getenv("PATH"));
    builder.environment().put("CALLS", calls.toString());
    builder.environment().remove("WEIR_NO_CDS");
    builder.environment().remove("WEIR_JAVA_OPTS");
    builder.environment().putAll(environment);
    Process process = builder.start();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the launcher ended").isTrue();
    return process.exitValue();
  }

  private List<String> calls() throws IOException {
    return Files.exists(calls) ? Files.readAllLines(calls) : List.of();
  }

  private void fakeCommand(String name, String body) throws IOException {
    Path script = bin.resolve(name);
    Files.writeString(script, "#!/usr/bin/env bash\n" + body + "\n", StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  private static void writeAt(Path file, Instant modified) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, "x");
    Files.setLastModifiedTime(file, FileTime.from(modified));
  }
}
