package io.weir.cli.cluster;

import io.weir.api.datastream.RestartStrategy;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.source.GeneratorSource;
import io.weir.kafka.sink.DeliveryGuarantee;
import io.weir.kafka.sink.KafkaRecordSerializer;
import io.weir.kafka.sink.KafkaSink;
import java.time.Duration;

/**
 * A generator of {@code id-0 .. id-(records-1)} into an exactly-once Kafka sink with a pool of five
 * transactional ids, parallelism 1, restarting after a long delay: the delay leaves a test the time
 * to change the cluster's task managers between two attempts.
 *
 * <p>Arguments: bootstrap servers, output topic, transactional id prefix, records, records per
 * second, restart delay in seconds.
 */
public final class FenceHeldJob {
  private FenceHeldJob() {}

  public static void main(String[] args) throws Exception {
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(1);
    env.enableCheckpointing(Duration.ofMillis(500));
    env.setRestartStrategy(
        RestartStrategy.fixedDelay(3, Duration.ofSeconds(Long.parseLong(args[5]))));
    env.addSource(
            new GeneratorSource<>(Long.parseLong(args[3]), i -> "id-" + i, Long.parseLong(args[4])))
        .addSink(
            KafkaSink.<String>builder()
                .bootstrapServers(args[0])
                .topic(args[1])
                .serializer(KafkaRecordSerializer.utf8())
                .deliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .transactionalIdPrefix(args[2])
                .transactionalIdPoolSize(5)
                .build());
    env.execute(args[2]);
  }
}
