package io.weir.lab;

import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Keeps the first error of a producer's sends, so that a loader can stop and report it instead of
 * leaving an id out of its input (a verdict would then count it as lost).
 */
public final class FirstSendError implements Callback {
  private final AtomicReference<Exception> first = new AtomicReference<>();

  @Override
  public void onCompletion(RecordMetadata metadata, Exception error) {
    if (error != null) {
      first.compareAndSet(null, error);
    }
  }

  /** The first error, or null while every send succeeded (or is in flight). */
  public Exception get() {
    return first.get();
  }
}
