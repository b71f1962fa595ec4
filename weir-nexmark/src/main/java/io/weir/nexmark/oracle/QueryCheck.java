package io.weir.nexmark.oracle;

import io.weir.api.datastream.JobExecutionException;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.nexmark.generator.EventGenerator;
import io.weir.nexmark.generator.GeneratorConfig;
import io.weir.nexmark.job.EventInput;
import io.weir.nexmark.job.QueryJob;
import io.weir.nexmark.job.ResultOutput;
import io.weir.nexmark.queries.NexmarkQuery;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.stream.Stream;

/** Checks a query's complete output on a bounded stream against the same query in SQL. */
public final class QueryCheck {
  private static final Duration CHECKPOINT_INTERVAL = Duration.ofSeconds(1);

  private QueryCheck() {}

  /** Compares Weir's output (JSON objects) for events {@code 0 .. events-1} with the SQL's. */
  public static CheckResult compare(
      NexmarkQuery<?> query, GeneratorConfig config, long events, Collection<String> weirOutput)
      throws SQLException {
    try (SqlOracle oracle = SqlOracle.load(new EventGenerator(config), events)) {
      ResultRows expected = oracle.rows(query.sql());
      ResultRows actual = ResultRows.fromJsonObjects(expected.columns(), weirOutput);
      return new CheckResult(
          query.name(),
          actual.rows().size(),
          expected.rows().size(),
          actual.firstDifference(expected));
    }
  }

  /**
   * Runs the query as a job in this process on generated events, exactly once into part files under
   * {@code workDirectory} (with its checkpoints), and compares the committed files with the SQL's
   * result.
   */
  public static CheckResult runInProcess(
      NexmarkQuery<?> query,
      GeneratorConfig config,
      long events,
      int parallelism,
      Path workDirectory)
      throws JobExecutionException, SQLException {
    Path results = workDirectory.resolve("results");
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    env.setParallelism(parallelism);
    env.setCheckpointDirectory(workDirectory.resolve("checkpoints"));
    QueryJob.build(
        env,
        query,
        new EventInput.Generated(config, events),
        new ResultOutput.ToFiles(results),
        CHECKPOINT_INTERVAL);
    env.execute("nexmark-" + query.name());
    return compare(query, config, events, committedLines(results));
  }

  /** The lines of the committed part files of a file sink's output directory. */
  public static List<String> committedLines(Path directory) {
    List<String> lines = new ArrayList<>();
    try (Stream<Path> files = Files.list(directory)) {
      for (Path file :
          files.filter(file -> file.getFileName().toString().startsWith("part-")).toList()) {
        lines.addAll(Files.readAllLines(file));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the results in " + directory, e);
    }
    return lines;
  }
}
