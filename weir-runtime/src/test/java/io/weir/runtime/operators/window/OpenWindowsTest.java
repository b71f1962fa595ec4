package io.weir.runtime.operators.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.state.StateSerializer;
import io.weir.api.windowing.TimeWindow;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A key's open windows against a hash map given the same changes. */
class OpenWindowsTest {

  @Test
  void when_windowsArePutAndRemovedAtRandom_then_theyHoldWhatAHashMapHolds() {
    // given
    OpenWindows windows = new OpenWindows();
    Map<TimeWindow, Object> reference = new HashMap<>();
    Random random = new Random(17);

    // when: puts, overwrites and removes, also through the iterator
    for (int i = 0; i < 20_000; i++) {
      long start = random.nextInt(200);
      TimeWindow window = new TimeWindow(start, start + 1 + random.nextInt(3));
      switch (random.nextInt(4)) {
        case 0, 1 -> assertThat(windows.put(window, i)).isEqualTo(reference.put(window, i));
        case 2 -> assertThat(windows.remove(window)).isEqualTo(reference.remove(window));
        default -> {
          Iterator<TimeWindow> open = windows.keySet().iterator();
          while (open.hasNext()) {
            TimeWindow candidate = open.next();
            if (candidate.end() <= start) {
              open.remove();
              reference.remove(candidate);
            }
          }
        }
      }
      assertThat(windows.containsKey(window)).isEqualTo(reference.containsKey(window));
    }

    // then
    assertThat(windows).isEqualTo(reference).hasSameSizeAs(reference);
    assertThat(new ArrayList<>(windows.keySet()))
        .isSortedAccordingTo(
            Comparator.comparingLong(TimeWindow::start).thenComparingLong(TimeWindow::end));
  }

  @Test
  void when_windowsAreSerialized_then_theyComeBackEqual() {
    // given
    OpenWindows windows = new OpenWindows();
    windows.put(new TimeWindow(10, 20), "second");
    windows.put(new TimeWindow(0, 10), "first");
    windows.put(new TimeWindow(0, 30), 3L);
    StateSerializer<Object> java = StateSerializer.java();

    // when
    Object restored = java.deserialize(java.serialize(windows));

    // then
    assertThat(restored).isInstanceOf(OpenWindows.class).isEqualTo(windows);
    assertThat(((OpenWindows) restored).keySet())
        .containsExactly(new TimeWindow(0, 10), new TimeWindow(0, 30), new TimeWindow(10, 20));
  }

  @Test
  void when_windowsWereWrittenAsAHashMap_then_theyAreTakenInWhole() {
    // given: a key's windows as checkpoints of earlier versions hold them
    Map<TimeWindow, Object> written = new HashMap<>();
    written.put(new TimeWindow(5, 10), 2L);
    written.put(new TimeWindow(0, 5), 1L);

    // when
    OpenWindows windows = OpenWindows.of(written);

    // then
    assertThat(windows).isEqualTo(written);
    assertThat(windows.get(new TimeWindow(5, 10))).isEqualTo(2L);
  }
}
