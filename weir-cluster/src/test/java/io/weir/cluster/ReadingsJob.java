package io.weir.cluster;

import io.weir.api.datastream.DataStream;
import io.weir.api.datastream.RestartStrategy;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.source.GeneratorSource;
import io.weir.api.state.StateSerializer;
import io.weir.runtime.sink.file.FileSink;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;

/**
 * generator -> map to a {@link Reading} -> keyBy -> map -> exactly-once file sink, parallelism 2,
 * no restarts: the readings, which are not {@code Serializable}, cross task managers. Arguments:
 * output directory, record count, records per second per subtask, and {@code declared} to encode
 * the readings with {@link ReadingSerializer}, {@code one-way} with {@link OneWaySerializer},
 * {@code java} to leave them to Java serialization, {@code returns} to declare their class (which
 * has no default serializer), or {@code typed} to send {@link Measurement} records declared with
 * {@code returns} instead.
 */
public final class ReadingsJob {
  private ReadingsJob() {}

  /** A record class of the job's own that does not implement {@code Serializable}. */
  public static final class Reading {
    private final long id;

    public Reading(long id) {
      this.id = id;
    }

    public long id() {
      return id;
    }
  }

  /** A record that does not implement {@code Serializable}: the default serializer writes it. */
  public record Measurement(long id, String sensor) {}

  /** The reading's id as eight bytes. */
  public static final class ReadingSerializer implements StateSerializer<Reading> {
    @Override
    public byte[] serialize(Reading reading) {
      return ByteBuffer.allocate(Long.BYTES).putLong(reading.id()).array();
    }

    @Override
    public Reading deserialize(byte[] bytes) {
      return new Reading(ByteBuffer.wrap(bytes).getLong());
    }
  }

  /** Writes readings but cannot read them back: a serializer with a bug. */
  public static final class OneWaySerializer implements StateSerializer<Reading> {
    @Override
    public byte[] serialize(Reading reading) {
      return new ReadingSerializer().serialize(reading);
    }

    @Override
    public Reading deserialize(byte[] bytes) {
      throw new IllegalArgumentException("this serializer cannot read readings");
    }
  }

  /**
   * Writes readings, and reading them back needs a class the reading side lacks: a job jar built
   * against another version of a library, as the JVM reports it, with an error instead of an
   * exception.
   */
  public static final class MissingClassSerializer implements StateSerializer<Reading> {
    @Override
    public byte[] serialize(Reading reading) {
      return new ReadingSerializer().serialize(reading);
    }

    @Override
    public Reading deserialize(byte[] bytes) {
      throw new NoClassDefFoundError("com/example/readings/Calibration");
    }
  }

  public static void main(String[] args) throws Exception {
    Path output = Path.of(args[0]);
    long count = Long.parseLong(args[1]);
    long rate = Long.parseLong(args[2]);
    String serializer = args[3];
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    env.enableCheckpointing(Duration.ofMillis(200));
    env.setRestartStrategy(RestartStrategy.none());
    if (serializer.equals("typed")) {
      env.addSource(new GeneratorSource<>(count, index -> index, rate))
          .name("Ids")
          .uid("ids")
          .map(id -> new Measurement(id, "sensor-" + id % 7))
          .name("Measurements")
          .returns(Measurement.class)
          .keyBy(measurement -> measurement.id() % 16)
          .map(measurement -> "id-" + measurement.id())
          .uid("label")
          .addSink(FileSink.<String>forDirectory(output).build())
          .name("Files")
          .uid("files");
      env.execute("readings");
      return;
    }
    DataStream<Reading> readings =
        env.addSource(new GeneratorSource<>(count, index -> index, rate))
            .name("Ids")
            .uid("ids")
            .map(Reading::new)
            .name("Readings");
    if (serializer.equals("declared")) {
      readings = readings.withSerializer(new ReadingSerializer());
    } else if (serializer.equals("returns")) {
      readings = readings.returns(Reading.class);
    } else if (serializer.equals("one-way")) {
      readings = readings.withSerializer(new OneWaySerializer());
    } else if (serializer.equals("missing-class")) {
      readings = readings.withSerializer(new MissingClassSerializer());
    }
    readings
        .keyBy(reading -> reading.id() % 16)
        .map(reading -> "id-" + reading.id())
        .uid("label")
        .addSink(FileSink.<String>forDirectory(output).build())
        .name("Files")
        .uid("files");
    env.execute("readings");
  }
}
