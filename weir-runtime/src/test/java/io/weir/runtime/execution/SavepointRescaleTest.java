package io.weir.runtime.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.weir.api.datastream.JobClient;
import io.weir.api.datastream.JobExecutionException;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.functions.RichMapFunction;
import io.weir.api.source.GeneratorSource;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import io.weir.runtime.checkpoint.storage.CheckpointLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(120)
class SavepointRescaleTest {
  private static final int RECORDS = 40_000;
  private static final int KEYS = 17;

  /** Counts records per key in keyed state and emits {@code key:count}. */
  static final class CountPerKey extends RichMapFunction<Long, String> {
    private transient ValueState<Long> count;

    @Override
    public void open() {
      count = getRuntimeContext().getState(new ValueStateDescriptor<>("count"));
    }

    @Override
    public String map(Long value) {
      long next = (count.value() == null ? 0 : count.value()) + 1;
      count.update(next);
      return (value % KEYS) + ":" + next;
    }
  }

  private static void build(StreamEnvironment env, String sink, long rate) {
    env.addSource(new GeneratorSource<>(RECORDS, i -> i, rate))
        .setParallelism(2)
        .uid("numbers")
        .keyBy(i -> i % KEYS)
        .map(new CountPerKey())
        .uid("count")
        .addSink(new CollectSink<>(sink))
        .uid("collect");
  }

  @Test
  void when_restoredFromSavepointWithMoreSubtasks_then_keyedCountsStayExact(@TempDir Path dir)
      throws Exception {
    // given: a job that took a savepoint part way and was cancelled
    StreamEnvironment first = StreamEnvironment.getExecutionEnvironment().setParallelism(2);
    first.enableCheckpointing(Duration.ofSeconds(30));
    build(first, "before", 5_000);
    JobClient client = first.executeAsync("count");
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> CollectSink.<String>results("before").size() > 2_000);
    Path savepoint = client.triggerSavepoint(dir.resolve("savepoint")).get();
    client.cancel();
    assertThatThrownBy(client::awaitResult)
        .isInstanceOf(JobExecutionException.class)
        .hasMessageContaining("cancelled");
    assertThat(Files.exists(savepoint.resolve("_metadata"))).isTrue();
    assertThat(CheckpointLoader.load(savepoint).savepoint()).isTrue();

    // when: the same job restores it with parallelism 3 for the keyed part
    StreamEnvironment second = StreamEnvironment.getExecutionEnvironment().setParallelism(3);
    second.fromCheckpoint(savepoint);
    build(second, "after", 0);
    second.execute("count");

    // then: the last count of every key is the number of its records in the whole input
    Map<String, Long> last = new HashMap<>();
    for (String entry : CollectSink.<String>results("after")) {
      String[] parts = entry.split(":");
      last.merge(parts[0], Long.parseLong(parts[1]), Math::max);
    }
    Map<String, Long> expected = new HashMap<>();
    for (long i = 0; i < RECORDS; i++) {
      expected.merge(String.valueOf(i % KEYS), 1L, Long::sum);
    }
    assertThat(last).isEqualTo(expected);
    List<String> before = CollectSink.results("before");
    assertThat(before).isNotEmpty();
    assertThat(CollectSink.<String>results("after")).hasSizeLessThan(RECORDS);
  }
}
