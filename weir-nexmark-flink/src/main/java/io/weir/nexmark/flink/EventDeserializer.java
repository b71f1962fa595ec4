package io.weir.nexmark.flink;

import io.weir.nexmark.model.Event;
import io.weir.nexmark.model.NexmarkJson;
import java.io.IOException;
import org.apache.flink.api.common.serialization.AbstractDeserializationSchema;

/** An event from its JSON, as the generator wrote it and as Weir's source reads it. */
final class EventDeserializer extends AbstractDeserializationSchema<Event> {
  @Override
  public Event deserialize(byte[] message) throws IOException {
    return NexmarkJson.event(message);
  }
}
