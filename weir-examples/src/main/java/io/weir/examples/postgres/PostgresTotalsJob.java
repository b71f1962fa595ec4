package io.weir.examples.postgres;

import io.weir.api.datastream.StreamEnvironment;
import io.weir.examples.SeedJob;
import io.weir.examples.SeedJobOptions;
import io.weir.examples.SeedRecords;
import io.weir.kafka.sink.DeliveryGuarantee;
import java.util.ArrayList;
import java.util.List;

/**
 * Kafka -> keyBy(word) -> running aggregate per word -> PostgreSQL: each word's count and frequency
 * total upserted into {@code <table>_totals}, and one row per input record into {@code
 * <table>_updates}, exactly once (or at least once with {@code --semantic at-least-once}).
 *
 * <p>Arguments: {@code --jdbc-url URL} and {@code --table PREFIX} (default {@code words}), then the
 * seed job's ({@code --bootstrap}, {@code --input-topic}, {@code --group}, {@code
 * --checkpoint-interval}, ...; the seed's output options are accepted and ignored).
 */
public final class PostgresTotalsJob {
  private PostgresTotalsJob() {}

  public static void main(String[] args) throws Exception {
    List<String> seedArguments = new ArrayList<>();
    String jdbcUrl = null;
    String table = "words";
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--jdbc-url" -> jdbcUrl = value(args, ++i, "--jdbc-url");
        case "--table" -> table = value(args, ++i, "--table");
        default -> seedArguments.add(args[i]);
      }
    }
    if (jdbcUrl == null) {
      throw new IllegalArgumentException("The PostgreSQL totals job needs --jdbc-url URL");
    }
    SeedJobOptions options = SeedJobOptions.parse(seedArguments.toArray(String[]::new));
    if (!options.readsKafka()) {
      throw new IllegalArgumentException("The PostgreSQL totals job needs --bootstrap HOST:PORT");
    }
    TotalsTables tables = new TotalsTables(table);
    tables.create(jdbcUrl);
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    build(env, options, tables, jdbcUrl);
    env.execute("postgres-totals");
  }

  /** Adds the job's operators to {@code env}. */
  public static void build(
      StreamEnvironment env, SeedJobOptions options, TotalsTables tables, String jdbcUrl) {
    env.enableCheckpointing(options.checkpointInterval());
    SeedJob.configure(env.config(), options);
    boolean exactlyOnce = options.deliveryGuarantee() == DeliveryGuarantee.EXACTLY_ONCE;
    SeedJob.input(env, options)
        .name("Example Source")
        .uid("example-source")
        .keyBy(SeedRecords::word)
        .map(new RunningTotals())
        .name("Running Totals")
        .uid("running-totals")
        .addSink(tables.sink(jdbcUrl, exactlyOnce))
        .name("PostgreSQL Sink")
        .uid("postgres-sink");
  }

  private static String value(String[] args, int index, String option) {
    if (index >= args.length) {
      throw new IllegalArgumentException("Option " + option + " needs a value");
    }
    return args[index];
  }
}
