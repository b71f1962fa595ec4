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
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
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
          0,
          actual.firstDifference(expected));
    }
  }

  /**
   * Compares Weir's output written to files, the lines of each directory below the results
   * directory ({@code ""} for the results directory itself), with the SQL's: the rows, and for a
   * partitioned query also that each row is in its partition's directory and each directory holds
   * as many rows as the SQL's partition.
   */
  public static CheckResult compareFiles(
      NexmarkQuery<?> query,
      GeneratorConfig config,
      long events,
      Map<String, List<String>> linesByDirectory)
      throws SQLException {
    List<String> lines = linesByDirectory.values().stream().flatMap(List::stream).toList();
    List<String> columns = query.partitionColumns();
    try (SqlOracle oracle = SqlOracle.load(new EventGenerator(config), events)) {
      ResultRows expected = oracle.rows(query.sql());
      ResultRows actual = ResultRows.fromJsonObjects(expected.columns(), lines);
      Optional<String> difference = actual.firstDifference(expected);
      if (difference.isEmpty()) {
        Map<String, Long> sqlRowsPerDirectory =
            columns.isEmpty()
                ? Map.of("", (long) expected.rows().size())
                : oracle.rowsPerPartition(query.sql(), columns);
        difference = PartitionCheck.firstDifference(columns, linesByDirectory, sqlRowsPerDirectory);
      }
      return new CheckResult(
          query.name(),
          actual.rows().size(),
          expected.rows().size(),
          columns.isEmpty() ? 0 : linesByDirectory.size(),
          difference);
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
    return compareFiles(query, config, events, committedLinesByDirectory(results));
  }

  /**
   * The lines of the committed part files of a file sink's output directory, by the directory below
   * it they are in ({@code dt=2026-01-01/hm=23:59}, or {@code ""} for the output directory itself);
   * hidden directories, where the sink stages its files, are skipped.
   */
  public static Map<String, List<String>> committedLinesByDirectory(Path directory) {
    Map<String, List<String>> lines = new TreeMap<>();
    try (Stream<Path> files = Files.walk(directory)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        Path relative = directory.relativize(file);
        if (isCommittedPart(relative)) {
          String bucket = relative.getParent() == null ? "" : slashSeparated(relative.getParent());
          lines.computeIfAbsent(bucket, any -> new ArrayList<>()).addAll(Files.readAllLines(file));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the results in " + directory, e);
    }
    return lines;
  }

  private static boolean isCommittedPart(Path relative) {
    for (Path name : relative) {
      if (name.toString().startsWith(".")) {
        return false;
      }
    }
    return relative.getFileName().toString().startsWith("part-");
  }

  private static String slashSeparated(Path relative) {
    List<String> names = new ArrayList<>();
    relative.forEach(name -> names.add(name.toString()));
    return String.join("/", names);
  }
}
