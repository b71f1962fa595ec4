package io.weir.nexmark.job;

import io.weir.api.datastream.DataStream;
import io.weir.kafka.sink.DeliveryGuarantee;
import io.weir.kafka.sink.KafkaSink;
import io.weir.nexmark.model.NexmarkJson;
import io.weir.runtime.sink.file.FileSink;
import java.nio.file.Path;
import java.time.Duration;

/** Where a query's results go, exactly once, one JSON object per result. */
public sealed interface ResultOutput {
  /** Adds the sink to the results. */
  <R> void write(DataStream<R> results);

  /** A topic, in one transaction per checkpoint. */
  record ToKafka(
      String bootstrapServers, String topic, String transactionalIdPrefix, Duration interval)
      implements ResultOutput {
    @Override
    public <R> void write(DataStream<R> results) {
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

  /** Part files of a directory, one JSON object a line, committed with each checkpoint. */
  record ToFiles(Path directory) implements ResultOutput {
    @Override
    public <R> void write(DataStream<R> results) {
      results
          .addSink(
              FileSink.<R>forDirectory(directory)
                  .encoder(
                      (record, out) -> {
                        out.write(NexmarkJson.bytes(record));
                        out.write('\n');
                      })
                  .build())
          .name("Nexmark results")
          .uid("nexmark-results");
    }
  }
}
