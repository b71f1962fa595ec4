package io.weir.examples.postgres;

import io.weir.api.datastream.DataStream;
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
 * --checkpoint-interval}, ...; the seed's output options are accepted and ignored). {@code
 * --sink-id ID} names the sink's transactions (default: the table prefix). With {@code --twin-table
 * PREFIX2} a second sink writes the same totals into the tables of {@code PREFIX2}, its
 * transactions named by {@code --twin-sink-id ID2} (default: {@code PREFIX2}): two sinks of one
 * job, as the operations lab uses to check that sink ids which differ only by {@code .} and {@code
 * _} keep their transactions apart.
 */
public final class PostgresTotalsJob {
  private PostgresTotalsJob() {}

  public static void main(String[] args) throws Exception {
    List<String> seedArguments = new ArrayList<>();
    String jdbcUrl = null;
    String table = "words";
    String sinkId = null;
    String twinTable = null;
    String twinSinkId = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--jdbc-url" -> jdbcUrl = value(args, ++i, "--jdbc-url");
        case "--table" -> table = value(args, ++i, "--table");
        case "--sink-id" -> sinkId = value(args, ++i, "--sink-id");
        case "--twin-table" -> twinTable = value(args, ++i, "--twin-table");
        case "--twin-sink-id" -> twinSinkId = value(args, ++i, "--twin-sink-id");
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
    TotalsTables twin = twinTable == null ? null : new TotalsTables(twinTable);
    if (twin != null) {
      twin.create(jdbcUrl);
    }
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    DataStream<WordTotal> totals = build(env, options);
    boolean exactlyOnce = options.deliveryGuarantee() == DeliveryGuarantee.EXACTLY_ONCE;
    totals
        .addSink(tables.sink(jdbcUrl, exactlyOnce, sinkId == null ? table : sinkId))
        .name("PostgreSQL Sink")
        .uid("postgres-sink");
    if (twin != null) {
      totals
          .addSink(twin.sink(jdbcUrl, exactlyOnce, twinSinkId == null ? twinTable : twinSinkId))
          .name("PostgreSQL Twin Sink")
          .uid("postgres-twin-sink");
    }
    env.execute("postgres-totals");
  }

  /** Adds the job's operators up to its sinks to {@code env}: each word's running totals. */
  static DataStream<WordTotal> build(StreamEnvironment env, SeedJobOptions options) {
    env.enableCheckpointing(options.checkpointInterval());
    SeedJob.configure(env.config(), options);
    return SeedJob.input(env, options)
        .name("Example Source")
        .uid("example-source")
        .keyBy(SeedRecords::word)
        .map(new RunningTotals())
        .name("Running Totals")
        .uid("running-totals");
  }

  private static String value(String[] args, int index, String option) {
    if (index >= args.length) {
      throw new IllegalArgumentException("Option " + option + " needs a value");
    }
    return args[index];
  }
}
