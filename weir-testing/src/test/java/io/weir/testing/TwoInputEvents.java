package io.weir.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A seeded random script for a two-input operator: records "k<key>:<value>" on either input with
 * timestamps that run ahead of the watermarks (never later than the last watermark), and watermarks
 * now and then.
 */
final class TwoInputEvents {
  sealed interface Event {}

  record First(String record, long timestamp) implements Event {}

  record Second(String record, long timestamp) implements Event {}

  record Watermark(long time) implements Event {}

  private TwoInputEvents() {}

  /** {@code count} events over {@code keys} keys; timestamps spread up to {@code disorder}. */
  static List<Event> random(long seed, int count, int keys, int disorder) {
    Random random = new Random(seed);
    List<Event> events = new ArrayList<>();
    long base = 0;
    for (int i = 0; i < count; i++) {
      base += random.nextInt(3);
      long timestamp = base + random.nextInt(disorder + 1);
      String record = "k" + random.nextInt(keys) + ":" + i;
      int kind = random.nextInt(10);
      if (kind == 0) {
        events.add(new Watermark(base));
      } else if (kind <= 4) {
        events.add(new First(record, timestamp));
      } else {
        events.add(new Second(record, timestamp));
      }
    }
    events.add(new Watermark(Long.MAX_VALUE));
    return events;
  }

  static String key(String record) {
    return record.substring(0, record.indexOf(':'));
  }

  static String value(String record) {
    return record.substring(record.indexOf(':') + 1);
  }

  static void feed(TwoInputOperatorTestHarness<String, String, String> harness, List<Event> events)
      throws Exception {
    for (Event event : events) {
      feed(harness, event);
    }
  }

  static void feed(TwoInputOperatorTestHarness<String, String, String> harness, Event event)
      throws Exception {
    if (event instanceof First first) {
      harness.processElement1(first.record(), first.timestamp());
    } else if (event instanceof Second second) {
      harness.processElement2(second.record(), second.timestamp());
    } else if (event instanceof Watermark watermark) {
      harness.processWatermark(watermark.time());
    }
  }
}
