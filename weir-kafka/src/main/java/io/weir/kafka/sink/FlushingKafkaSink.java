package io.weir.kafka.sink;

import io.weir.api.checkpoint.CheckpointedFunction;
import io.weir.api.checkpoint.FunctionInitializationContext;
import io.weir.api.checkpoint.FunctionSnapshotContext;
import io.weir.api.functions.AbstractRichFunction;
import io.weir.api.sink.SinkFunction;
import io.weir.kafka.ClientGauges;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * The at-least-once and fire-and-forget Kafka sink: a plain producer; at-least-once flushes it at
 * every checkpoint, so every record before the barrier is acknowledged before the checkpoint can
 * complete.
 */
final class FlushingKafkaSink<T> extends AbstractRichFunction
    implements SinkFunction<T>, CheckpointedFunction {
  private final KafkaSinkConfig<T> config;
  private transient KafkaProducer<byte[], byte[]> producer;
  private transient AtomicReference<Exception> sendError;

  FlushingKafkaSink(KafkaSinkConfig<T> config) {
    this.config = config;
  }

  @Override
  public void initializeState(FunctionInitializationContext context) {}

  @Override
  public void open() {
    KafkaProducer<byte[], byte[]> made = new KafkaProducer<>(config.producerConfig());
    producer = made;
    sendError = new AtomicReference<>();
    ClientGauges.Producers gauged = ClientGauges.Producers.of(made);
    ClientGauges.addProducers(getRuntimeContext().metricGroup(), () -> gauged);
  }

  @Override
  public void invoke(T value, Context context) {
    throwSendError();
    producer.send(
        config.producerRecordOf(value),
        (metadata, error) -> {
          if (error != null && config.guarantee() == DeliveryGuarantee.AT_LEAST_ONCE) {
            sendError.compareAndSet(null, error);
          }
        });
  }

  @Override
  public void snapshotState(FunctionSnapshotContext context) {
    if (config.guarantee() == DeliveryGuarantee.AT_LEAST_ONCE) {
      producer.flush();
      throwSendError();
    }
  }

  private void throwSendError() {
    Exception error = sendError.getAndSet(null);
    if (error != null) {
      throw new IllegalStateException(
          "Sending to topic '" + config.topic() + "' failed: " + error.getMessage(), error);
    }
  }

  @Override
  public void close() {
    if (producer != null) {
      producer.close(Duration.ofSeconds(5));
    }
  }
}
