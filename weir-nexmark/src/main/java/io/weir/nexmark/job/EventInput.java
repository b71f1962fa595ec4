package io.weir.nexmark.job;

import io.weir.api.datastream.DataStream;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.eventtime.WatermarkStrategy;
import io.weir.kafka.source.KafkaSource;
import io.weir.kafka.source.KafkaSourceBuilder;
import io.weir.nexmark.generator.EventGenerator;
import io.weir.nexmark.generator.GeneratorConfig;
import io.weir.nexmark.model.Event;
import io.weir.nexmark.model.NexmarkJson;
import java.time.Duration;

/** Where a query's events come from; either way they carry their event time as timestamp. */
public sealed interface EventInput {
  /** Adds the source to {@code env}. */
  DataStream<Event> events(StreamEnvironment env);

  /** Events {@code 0 .. count-1} of the generator, made in the job itself. */
  record Generated(GeneratorConfig config, long count) implements EventInput {
    @Override
    public DataStream<Event> events(StreamEnvironment env) {
      return env.fromGenerator(count, new EventGenerator(config))
          .name("Nexmark generator")
          .uid("nexmark-generator")
          .assignTimestampsAndWatermarks(watermarks(config.maxOutOfOrderness()))
          .name("Event time");
    }
  }

  /**
   * A topic that {@code weir nexmark generate} wrote: when {@code bounded}, read up to the end it
   * had when the job started; otherwise read as it grows, until the job is stopped. {@code
   * maxOutOfOrderness} must cover the generator's ({@link GeneratorConfig#maxOutOfOrderness}) or
   * windowed queries drop events as late.
   */
  record FromKafka(
      String bootstrapServers,
      String topic,
      String groupId,
      Duration maxOutOfOrderness,
      boolean bounded)
      implements EventInput {
    @Override
    public DataStream<Event> events(StreamEnvironment env) {
      KafkaSourceBuilder<Event> builder =
          KafkaSource.<Event>builder()
              .bootstrapServers(bootstrapServers)
              .topics(topic)
              .groupId(groupId)
              .deserializer(record -> NexmarkJson.event(record.value()))
              .watermarks(watermarks(maxOutOfOrderness));
      KafkaSource<Event> source = bounded ? builder.bounded().build() : builder.build();
      return env.addSource(source).name("Nexmark events").uid("nexmark-events");
    }
  }

  private static WatermarkStrategy<Event> watermarks(Duration maxOutOfOrderness) {
    return WatermarkStrategy.<Event>forBoundedOutOfOrderness(maxOutOfOrderness)
        .withTimestampAssigner((event, previous) -> event.timestamp());
  }
}
