package io.weir.nexmark.job;

import io.weir.api.datastream.DataStream;
import io.weir.kafka.sink.DeliveryGuarantee;
import io.weir.kafka.sink.KafkaSink;
import io.weir.nexmark.model.NexmarkJson;
import io.weir.nexmark.queries.NexmarkQuery;
import io.weir.runtime.sink.file.BucketAssigner;
import io.weir.runtime.sink.file.FileSink;
import java.nio.file.Path;
import java.time.Duration;

/** Where a query's results go, exactly once, one JSON object per result. */
public sealed interface ResultOutput {
  /** Adds the sink to the results of {@code query}. */
  <R> void write(NexmarkQuery<R> query, DataStream<R> results);

  /** A topic, in one transaction per checkpoint; a partitioned query's rows carry its columns. */
  record ToKafka(
      String bootstrapServers, String topic, String transactionalIdPrefix, Duration interval)
      implements ResultOutput {
    @Override
    public <R> void write(NexmarkQuery<R> query, DataStream<R> results) {
      results
          .addSink(
              KafkaSink.<R>builder()
                  .bootstrapServers(bootstrapServers)
                  .topic(topic)
                  .serializer(NexmarkJson::bytes)
                  .deliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                  .transactionalIdPrefix(transactionalIdPrefix)
                  .checkpointInterval(interval)
                  .build())
          .name("Nexmark results")
          .uid("nexmark-results");
    }
  }

  /**
   * Part files of a directory, one JSON object a line, committed with each checkpoint; a
   * partitioned query's ({@link NexmarkQuery#partitionColumns}) in a directory per partition below.
   */
  record ToFiles(Path directory) implements ResultOutput {
    @Override
    public <R> void write(NexmarkQuery<R> query, DataStream<R> results) {
      results
          .addSink(
              FileSink.<R>forDirectory(directory)
                  .bucketAssigner(partitions(query))
                  .encoder(
                      (record, out) -> {
                        out.write(NexmarkJson.bytes(record));
                        out.write('\n');
                      })
                  .build())
          .name("Nexmark results")
          .uid("nexmark-results");
    }

    /** The query ships with the sink only when it partitions its results. */
    private static <R> BucketAssigner<R> partitions(NexmarkQuery<R> query) {
      return query.partitionColumns().isEmpty() ? result -> "" : query::partitionOf;
    }
  }
}
