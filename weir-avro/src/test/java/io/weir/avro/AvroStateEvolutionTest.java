package io.weir.avro;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.functions.MapFunction;
import io.weir.api.functions.RichMapFunction;
import io.weir.api.source.GeneratorSource;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import io.weir.runtime.execution.CollectSink;
import io.weir.runtime.execution.SavepointVersions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A keyed state of generic Avro records across three versions of the record's schema, restored from
 * a savepoint by Avro's schema resolution: v2 added a field with a default, v3 changed a field's
 * type to one Avro cannot promote to.
 */
@Timeout(180)
class AvroStateEvolutionTest {
  private static final int RECORDS = 30_000;
  private static final int KEYS = 13;

  private static final String V1 =
      """
      {"type": "record", "name": "Count", "fields": [
        {"name": "key", "type": "long"},
        {"name": "count", "type": "long"}]}""";
  private static final String V2 =
      """
      {"type": "record", "name": "Count", "fields": [
        {"name": "key", "type": "long"},
        {"name": "count", "type": "long"},
        {"name": "sinceRestore", "type": "long", "default": 0}]}""";
  private static final String V3 =
      """
      {"type": "record", "name": "Count", "fields": [
        {"name": "key", "type": "long"},
        {"name": "count", "type": "string"}]}""";

  /**
   * Counts per key in a state of {@code schema}, emits {@code key:count:sinceRestore}; a schema
   * without the {@code sinceRestore} field emits 0 for it.
   */
  static final class Counting extends RichMapFunction<Long, String> {
    private final String schemaText;
    private transient Schema schema;
    private transient ValueState<GenericRecord> state;

    Counting(String schemaText) {
      this.schemaText = schemaText;
    }

    @Override
    public void open() {
      schema = new Schema.Parser().parse(schemaText);
      state =
          getRuntimeContext()
              .getState(
                  new ValueStateDescriptor<>(
                      "count", AvroFormat.generic(schema).stateSerializer()));
    }

    @Override
    public String map(Long value) {
      GenericRecord last = state.value();
      GenericRecord next = new GenericData.Record(schema);
      next.put("key", value % KEYS);
      next.put("count", last == null ? 1L : (long) last.get("count") + 1);
      boolean counted = schema.getField("sinceRestore") != null;
      if (counted) {
        next.put("sinceRestore", last == null ? 1L : (long) last.get("sinceRestore") + 1);
      }
      state.update(next);
      return next.get("key")
          + ":"
          + next.get("count")
          + ":"
          + (counted ? next.get("sinceRestore") : 0);
    }
  }

  private static Consumer<StreamEnvironment> job(
      MapFunction<Long, String> counting, String sink, long rate) {
    return env ->
        env.addSource(new GeneratorSource<>(RECORDS, i -> i, rate))
            .uid("numbers")
            .keyBy(i -> i % KEYS)
            .map(counting)
            .uid("count")
            .addSink(new CollectSink<>(sink))
            .uid("collect");
  }

  @Test
  void when_aDefaultedFieldIsAddedAndThenATypeChanges_then_v2ContinuesExactlyAndV3IsRefused(
      @TempDir Path dir) throws Exception {
    // given: v1 counted part of the input and stopped with a savepoint
    SavepointVersions versions = new SavepointVersions("avro-state-types", 2);
    Path savepoint =
        versions.runThenStopWithSavepoint(
            dir, job(new Counting(V1), "avro-v1", 5_000), "avro-v1", 2_000);

    // when: v2, whose schema gained a field with a default, restores it and runs to the end
    versions.runFrom(savepoint, job(new Counting(V2), "avro-v2", 0));

    // then: every key's counts run 1..n exactly once over both versions, n from a plain loop
    Map<Long, Long> expected = new HashMap<>();
    for (long i = 0; i < RECORDS; i++) {
      expected.merge(i % KEYS, 1L, Long::sum);
    }
    Map<Long, List<Long>> counts = new HashMap<>();
    Map<Long, Long> lastOfV1 = new HashMap<>();
    for (String line : CollectSink.<String>results("avro-v1")) {
      long[] parts = parse(line);
      counts.computeIfAbsent(parts[0], k -> new ArrayList<>()).add(parts[1]);
      lastOfV1.merge(parts[0], parts[1], Math::max);
    }
    List<String> afterRestore = CollectSink.results("avro-v2");
    assertThat(afterRestore).isNotEmpty().hasSizeLessThan(RECORDS);
    for (String line : afterRestore) {
      long[] parts = parse(line);
      counts.computeIfAbsent(parts[0], k -> new ArrayList<>()).add(parts[1]);
      // and the added field started from its default, 0, at the restore
      assertThat(parts[1] - parts[2]).isEqualTo(lastOfV1.getOrDefault(parts[0], 0L));
    }
    assertThat(counts.keySet()).isEqualTo(expected.keySet());
    counts.forEach(
        (key, seen) ->
            assertThat(seen)
                .as("counts of key %d", key)
                .containsExactlyInAnyOrderElementsOf(SavepointVersions.oneTo(expected.get(key))));

    // when: v3, whose count became a string, restores the same savepoint
    // then: it is refused in one line naming the state, the operator and the field
    versions
        .assertRefusedInOneLine(savepoint, job(new Counting(V3), "avro-v3", 0))
        .hasMessageContaining(
            "Cannot restore state 'count' of operator 'count': field 'count' changed type"
                + " from long to string");
    assertThat(CollectSink.<String>results("avro-v3")).isEmpty();
  }

  private static long[] parse(String line) {
    String[] parts = line.split(":");
    return new long[] {
      Long.parseLong(parts[0]), Long.parseLong(parts[1]), Long.parseLong(parts[2])
    };
  }
}
