package io.weir.runtime.monitor;

import io.weir.api.graph.Transformation;
import java.util.List;

/**
 * Asks the brokers a job reads from and writes to where it stands: its Kafka sinks' open
 * transactions and its Kafka sources' partitions. Implemented by the Kafka connector, which knows
 * its sources and sinks; a job without Kafka gets an empty status.
 *
 * <p>Called from request threads, possibly concurrently; may block on the brokers for up to a few
 * seconds. A broker that cannot be reached gives a status whose {@code error} says so, not an
 * exception.
 */
public interface KafkaMonitor extends AutoCloseable {
  /** The status of the Kafka sources and sinks among a job's {@code operators}. */
  KafkaStatus status(List<Transformation> operators);

  /** Closes the clients it keeps; idempotent. */
  @Override
  void close();

  /** The monitor of jobs without Kafka. */
  KafkaMonitor NONE =
      new KafkaMonitor() {
        @Override
        public KafkaStatus status(List<Transformation> operators) {
          return KafkaStatus.EMPTY;
        }

        @Override
        public void close() {}
      };
}
