package io.weir.lab.demo;

import io.weir.devservers.kafka.KafkaBroker;
import io.weir.devservers.kafka.KafkaBrokerConfig;
import io.weir.devservers.postgres.PostgresServer;
import io.weir.devservers.postgres.PostgresServerConfig;
import io.weir.examples.postgres.TotalsTables;
import io.weir.lab.CellTopics;
import io.weir.lab.LabUserError;
import io.weir.lab.OutputVerifier;
import io.weir.lab.SeedInput;
import io.weir.lab.TableOutput;
import io.weir.lab.Topics;
import io.weir.lab.process.JobProcess;
import io.weir.lab.process.LabJob;
import io.weir.lab.process.OutputSettling;
import io.weir.postgres.sink.PreparedTransactions;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * {@code weir demo --sink postgres}: the demo with the exactly-once PostgreSQL sink. Starts a
 * broker and a PostgreSQL server, loads records into {@code foo}, runs the totals job (Kafka ->
 * running aggregate per word -> PostgreSQL) in its own process, halts it at the failpoint, restarts
 * it from its checkpoint, and verifies by querying the database: every input id once in the updates
 * table, and each word's aggregate equal to the aggregate of the input.
 */
public final class PostgresDemo {
  private static final String JOB = "io.weir.examples.postgres.PostgresTotalsJob";
  private static final long TIMEOUT_MILLIS = 120_000;

  private final long records;
  private final Path directory;
  private final String failpoint;
  private final TotalsTables tables = new TotalsTables("words");

  public PostgresDemo(long records, Path directory, String failpoint) {
    this.records = records;
    this.directory = directory;
    this.failpoint = failpoint;
  }

  public int run() throws Exception {
    line("starting the embedded Kafka broker and PostgreSQL server in " + directory);
    try (KafkaBroker broker =
            KafkaBroker.start(
                KafkaBrokerConfig.inDirectory(directory.resolve("kafka"))
                    .withStartTimeout(Duration.ofMinutes(3)));
        PostgresServer postgres =
            PostgresServer.start(
                PostgresServerConfig.inDirectory(directory.resolve("postgres")).withPort(0))) {
      String bootstrap = broker.bootstrapServers();
      Topics.create(bootstrap, 4, "foo");
      SeedInput input = new SeedInput(bootstrap, "foo");
      TableOutput output = new TableOutput(postgres.jdbcUrl(), tables);
      Path checkpoints = directory.resolve("checkpoints");
      List<String> run = runArguments(bootstrap, postgres.jdbcUrl(), checkpoints);
      line("job process 1: " + JOB + ", failpoint " + failpoint);
      CompletableFuture<Void> loading;
      try (JobProcess first = JobProcess.start(run, failpoint, directory.resolve("job-1.log"))) {
        loading = CompletableFuture.runAsync(() -> load(input));
        int exit = awaitExit(first, input, output);
        line(
            "job process 1 ended with exit code "
                + exit
                + (exit == 137 ? " (halted at the failpoint, like kill -9)" : ""));
      }
      line(
          "after the crash: "
              + output.read().records()
              + " rows committed in "
              + tables.updates()
              + ", prepared transactions "
              + preparedTransactions(postgres.jdbcUrl()));
      loading.join();
      Path latest = LabJob.latestCheckpoint(checkpoints).location();
      line("job process 2: restart with -s " + latest);
      List<String> restart = new ArrayList<>(List.of("-s", latest.toString()));
      restart.addAll(run);
      try (JobProcess second = JobProcess.start(restart, null, directory.resolve("job-2.log"))) {
        OutputVerifier.Verdict verdict =
            OutputSettling.awaitAll(
                second,
                output,
                records,
                bootstrap,
                CellTopics.seedDefaults(),
                Duration.ofMillis(TIMEOUT_MILLIS),
                committed -> progress(input, committed));
        long off = output.wordsOffReference(TableOutput.inputOf(records));
        System.out.println(
            verdict.line()
                + " words_off_reference="
                + off
                + " (rows of "
                + tables.updates()
                + ", aggregates of "
                + tables.totals()
                + ")");
        return verdict.exactlyOnce() && off == 0 ? 0 : 1;
      }
    }
  }

  private List<String> runArguments(String bootstrap, String jdbcUrl, Path checkpoints) {
    return List.of(
        "--checkpoint-dir",
        checkpoints.toString(),
        JOB,
        "--bootstrap",
        bootstrap,
        "--jdbc-url",
        jdbcUrl,
        "--table",
        tables.prefix(),
        "--checkpoint-interval",
        "1000");
  }

  private void load(SeedInput input) {
    try {
      input.load(0, records, Math.max(records / 10, 1000));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private int awaitExit(JobProcess job, SeedInput input, TableOutput output) throws Exception {
    long deadline = System.currentTimeMillis() + TIMEOUT_MILLIS;
    while (System.currentTimeMillis() < deadline) {
      int exit = job.waitFor(1000);
      if (exit != -1) {
        return exit;
      }
      progress(input, output.read().records());
    }
    throw new LabUserError(
        "The job process did not reach the failpoint within "
            + TIMEOUT_MILLIS / 1000
            + " s; see "
            + job.log());
  }

  private static String preparedTransactions(String jdbcUrl) throws Exception {
    try (Connection connection = DriverManager.getConnection(jdbcUrl)) {
      return new PreparedTransactions(connection)
          .list().stream().map(transaction -> transaction.globalId()).toList().toString();
    }
  }

  private void progress(SeedInput input, long committed) {
    System.out.printf(
        "demo: loaded %,d/%,d records, %,d rows committed in %s%n",
        input.loaded(), records, committed, tables.updates());
  }

  private static void line(String text) {
    System.out.println("demo: " + text);
  }
}
