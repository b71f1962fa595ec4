package io.weir.nexmark.oracle;

import io.weir.api.datastream.StreamEnvironment;
import io.weir.nexmark.generator.GeneratorConfig;
import io.weir.nexmark.job.EventInput;
import io.weir.nexmark.job.QueryJob;
import io.weir.nexmark.job.ResultOutput;
import io.weir.nexmark.queries.Query10;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * q10 on generated events into partition directories, as a process of its own that a failpoint can
 * halt: {@code Query10ToFilesJob <work directory> <events>}. Started again on the same work
 * directory, it resumes from its latest completed checkpoint there.
 */
final class Query10ToFilesJob {
  /** 20 events a second of event time from 90 s before midnight: minutes over two days. */
  static final GeneratorConfig CONFIG =
      new GeneratorConfig(0, 20, Instant.parse("2026-01-01T23:58:30Z"), 100);

  private Query10ToFilesJob() {}

  public static void main(String[] args) throws Exception {
    Path work = Path.of(args[0]);
    long events = Long.parseLong(args[1]);
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    env.setCheckpointDirectory(work.resolve("checkpoints"));
    QueryJob.build(
        env,
        new Query10(),
        new EventInput.Generated(CONFIG, events),
        new ResultOutput.ToFiles(results(work)),
        Duration.ofMillis(100));
    env.execute("nexmark-q10");
  }

  static Path results(Path work) {
    return work.resolve("results");
  }
}
