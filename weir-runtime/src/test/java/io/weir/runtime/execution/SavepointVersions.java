package io.weir.runtime.execution;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.weir.api.datastream.JobClient;
import io.weir.api.datastream.JobExecutionException;
import io.weir.api.datastream.StreamEnvironment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.assertj.core.api.AbstractThrowableAssert;

/**
 * Versions of one job across a savepoint, as a user upgrades a job: the first runs part of its
 * input and stops with a savepoint, each later one restores from it. Shared with the modules whose
 * state types evolve (Avro's), through this module's test jar.
 */
public final class SavepointVersions {
  private final String jobName;
  private final int parallelism;

  /**
   * @param jobName the name of every version's job, one per test
   */
  public SavepointVersions(String jobName, int parallelism) {
    this.jobName = jobName;
    this.parallelism = parallelism;
  }

  /**
   * Runs the job built by {@code build} until collect sink {@code sink} holds more than {@code
   * results} records, then stops it with a savepoint in {@code dir}.
   */
  public Path runThenStopWithSavepoint(
      Path dir, Consumer<StreamEnvironment> build, String sink, int results) throws Exception {
    StreamEnvironment env = environment();
    env.enableCheckpointing(Duration.ofMillis(300));
    env.setCheckpointDirectory(dir.resolve("checkpoints"));
    build.accept(env);
    JobClient client = env.executeAsync(jobName);
    await().atMost(Duration.ofSeconds(60)).until(() -> CollectSink.results(sink).size() > results);
    Path savepoint = client.stopWithSavepoint(dir.resolve("savepoint")).get(60, TimeUnit.SECONDS);
    client.awaitResult();
    return savepoint;
  }

  /** Runs the job built by {@code build} from {@code savepoint} to the end of its input. */
  public void runFrom(Path savepoint, Consumer<StreamEnvironment> build) throws Exception {
    StreamEnvironment env = environment();
    env.fromCheckpoint(savepoint);
    build.accept(env);
    env.execute(jobName);
  }

  /** Asserts the restore from {@code savepoint} fails the job in one line; returns that failure. */
  public AbstractThrowableAssert<?, ? extends Throwable> assertRefusedInOneLine(
      Path savepoint, Consumer<StreamEnvironment> build) {
    return assertThatThrownBy(() -> runFrom(savepoint, build))
        .isInstanceOf(JobExecutionException.class)
        .hasMessageNotContaining("\n");
  }

  public static List<Long> oneTo(long last) {
    List<Long> numbers = new ArrayList<>();
    for (long i = 1; i <= last; i++) {
      numbers.add(i);
    }
    return numbers;
  }

  private StreamEnvironment environment() {
    return StreamEnvironment.getExecutionEnvironment().setParallelism(parallelism);
  }
}
